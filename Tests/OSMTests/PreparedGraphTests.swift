import Foundation
import Geo
import Model
@testable import OSM
import Testing
import TestSupport

/// The sample track's line, read with a regular expression rather than our GPX reader.
private func sampleLine() throws -> [Coordinate] {
    let gpx = try String(contentsOf: packageRoot().appendingPathComponent("samples/andorra-envalira.gpx"), encoding: .utf8)
    let pattern = try NSRegularExpression(pattern: #"<trkpt lat="([-0-9.]+)" lon="([-0-9.]+)""#)
    return pattern.matches(in: gpx, range: NSRange(gpx.startIndex..., in: gpx)).map { match in
        Coordinate(latitude: Double(gpx[Range(match.range(at: 1), in: gpx)!])!, longitude: Double(gpx[Range(match.range(at: 2), in: gpx)!])!)
    }
}

/// The graph as sets of things that do not depend on numbering: node ids with coordinates, road
/// segments as (node id, node id, way id, direction), the ways' tags, restrictions by node id.
private struct Shape: Equatable {
    var nodes: [Int64: Coordinate] = [:]
    var segments: Set<[Int64]> = []
    var ways: [Int64: WayInfo] = [:]
    var restrictions: Set<[Int64]> = []
    var places: Set<Int64> = []

    init(_ graph: RoadGraph) {
        for i in 0..<graph.count {
            nodes[graph.osmIDs[i]] = graph.coordinates[i]
            for e in graph.edgeIndices(from: i) {
                let edge = graph.edge(at: e)
                segments.insert([graph.osmIDs[i], graph.osmIDs[edge.target], graph.ways[edge.way].id, edge.forward ? 1 : 0])
            }
        }
        for way in graph.ways { ways[way.id] = way }
        for r in graph.turnRestrictions.entries {
            restrictions.insert([graph.osmIDs[Int(r.via)], r.fromWayID, r.toWayID, r.only ? 1 : 0, Int64(r.vehicles.rawValue)])
        }
        places = Set(graph.places.map(\.id))
    }
}

@Suite("Prepared graph")
struct PreparedGraphTests {
    let extract: URL
    init() throws { extract = try testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf") }

    private func prepared(in folder: TemporaryFolder) throws -> PreparedGraph {
        let url = folder.path("andorra.roadbook-graph")
        try PreparedGraph.write(try OSMGraph.load(contentsOf: extract), signature: try ExtractSignature(of: extract), to: url)
        return try PreparedGraph(contentsOf: url)
    }

    @Test("the whole prepared graph is the graph read from the extract, node for node and edge for edge")
    func wholeGraph() throws {
        let folder = try TemporaryFolder()
        let read = try OSMGraph.load(contentsOf: extract)
        let graph = try prepared(in: folder).graph()
        #expect(graph.coordinates == read.coordinates)
        #expect(graph.osmIDs == read.osmIDs)
        #expect(graph.ways == read.ways)
        #expect(graph.edgeStart == read.edgeStart && graph.edgeTarget == read.edgeTarget)
        #expect(graph.edgeWay == read.edgeWay && graph.edgeForward == read.edgeForward)
        #expect(graph.turnRestrictions == read.turnRestrictions)
        #expect(graph.places == read.places)
        #expect(graph.nodeMarks == read.nodeMarks && read.nodeMarks.count > 30)
        #expect(!read.places.isEmpty && read.ways.contains { $0.oneway != .no } && read.ways.contains(where: \.isRoundabout))
    }

    @Test("turn restrictions, oneway directions and access tags come back from the file as they were read")
    func restrictionsAndTags() throws {
        let folder = try TemporaryFolder()
        let xml = """
        <osm version="0.6">
          <node id="1" lat="42.5" lon="1.5"/><node id="3" lat="42.502" lon="1.5"/>
          <node id="2" lat="42.501" lon="1.5"><tag k="barrier" v="bollard"/><tag k="bicycle" v="yes"/><tag k="name" v="Pilona"/></node>
          <node id="4" lat="42.501" lon="1.501"><tag k="place" v="village"/><tag k="name" v="Ransol"/></node>
          <way id="10"><nd ref="1"/><nd ref="2"/><tag k="highway" v="primary"/><tag k="oneway" v="-1"/><tag k="ref" v="CG-2"/></way>
          <way id="11"><nd ref="2"/><nd ref="3"/><tag k="highway" v="track"/><tag k="motor_vehicle" v="no"/><tag k="tracktype" v="grade3"/></way>
          <way id="12"><nd ref="2"/><nd ref="4"/><tag k="highway" v="residential"/><tag k="construction" v="yes"/><tag k="name" v="Carrer"/></way>
          <relation id="20"><member type="way" ref="10" role="from"/><member type="node" ref="2" role="via"/>
            <member type="way" ref="11" role="to"/><tag k="type" v="restriction"/><tag k="restriction" v="only_straight_on"/>
            <tag k="except" v="bicycle"/></relation>
        </osm>
        """
        let map = folder.path("tiny.osm")
        try xml.write(to: map, atomically: true, encoding: .utf8)
        let read = try OSMGraph.load(contentsOf: map)
        #expect(read.turnRestrictions.entries.count == 1 && read.places.count == 1)
        #expect(read.nodeMarks.values.map(\.tags) == [["barrier": "bollard", "bicycle": "yes"]])
        let url = folder.path("tiny.roadbook-graph")
        try PreparedGraph.write(read, signature: try ExtractSignature(of: map), to: url)
        let graph = try PreparedGraph(contentsOf: url).graph()
        #expect(graph.ways == read.ways)
        #expect(graph.turnRestrictions == read.turnRestrictions)
        #expect(graph.places == read.places)
        #expect(graph.nodeMarks == read.nodeMarks)
        #expect(Shape(graph) == Shape(read))
    }

    @Test("a corridor of the prepared graph holds what a corridor read of the extract holds, and the route passes the same junctions")
    func corridorMatchesExtractRead() throws {
        let folder = try TemporaryFolder()
        let line = try sampleLine()
        let corridor = RouteCorridor(route: line)
        let fromFile = try prepared(in: folder).graph(in: corridor)
        let fromExtract = try OSMGraph.load(contentsOf: extract, corridor: corridor)
        let whole = try OSMGraph.load(contentsOf: extract)
        #expect(fromFile.count < whole.count / 5)
        // Every node inside the corridor is there, with every road leaving it.
        let a = Shape(fromFile), b = Shape(fromExtract)
        let inside = Set(b.nodes.filter { corridor.contains($0.value) }.keys)
        #expect(inside.count > 1000)
        #expect(inside.isSubset(of: Set(a.nodes.keys)))
        #expect(Set(a.nodes.filter { corridor.contains($0.value) }.keys) == inside)
        let touching = { (s: Set<[Int64]>) in s.filter { inside.contains($0[0]) || inside.contains($0[1]) } }
        #expect(touching(a.segments) == touching(b.segments))
        #expect(a.restrictions == b.restrictions)
        // The marks of the same nodes.
        #expect(Dictionary(uniqueKeysWithValues: fromFile.nodeMarks.map { (fromFile.osmIDs[$0.key], $0.value) })
                == Dictionary(uniqueKeysWithValues: fromExtract.nodeMarks.map { (fromExtract.osmIDs[$0.key], $0.value) }))
        // The places inside the corridor, as the whole read finds them.
        let expectedPlaces = Set(whole.places.filter { corridor.contains($0.coordinate) }.map(\.id))
        #expect(a.places == expectedPlaces)
        #expect(b.places == expectedPlaces)
        func junctions(_ graph: RoadGraph) -> [Junction] {
            JunctionFinder(graph: graph).junctions(along: RouteMatcher(graph: graph).match(line))
        }
        let expected = junctions(whole)
        #expect(expected.count > 50)
        #expect(junctions(fromFile) == expected)
    }

    @Test("an empty corridor, or one off the map, gives an empty graph")
    func emptyRegion() throws {
        let folder = try TemporaryFolder()
        let file = try prepared(in: folder)
        #expect(try file.graph(in: RouteCorridor(route: [])).count == 0)
        #expect(try file.graph(in: RouteCorridor(route: [Coordinate(latitude: 10, longitude: 10)])).count == 0)
    }

    @Test("a truncated, foreign or damaged file is refused in one line naming it, never read")
    func damagedFiles() throws {
        let folder = try TemporaryFolder()
        _ = try prepared(in: folder)
        let good = try Data(contentsOf: folder.path("andorra.roadbook-graph"))
        func refusal(_ bytes: Data) -> String? {
            let url = folder.path("bad.roadbook-graph")
            try? bytes.write(to: url)
            do {
                _ = try PreparedGraph(contentsOf: url).graph()
                return nil
            } catch let error as OSMError {
                return error.description
            } catch {
                return "\(error)"
            }
        }
        #expect(refusal(good.prefix(good.count - 8))?.contains("truncated") == true)
        #expect(refusal(Data("not a graph at all".utf8))?.contains("not a prepared road graph") == true)
        #expect(refusal(Data())?.contains("empty") == true)
        var otherVersion = good
        otherVersion[8] = 99
        #expect(refusal(otherVersion)?.contains("format 99") == true)
        // Counts read as negative or beyond 2⁴⁰ are refused before any size is computed from them
        // (a way count of −2⁶² overflowed the size arithmetic: found by fuzzing).
        for (field, value) in [(56, UInt64(1) << 62 | UInt64(1) << 63), (40, UInt64.max), (96, UInt64(1) << 41)] {
            var counted = good
            withUnsafeBytes(of: value.littleEndian) { counted.replaceSubrange(field..<field + 8, with: $0) }
            #expect(refusal(counted)?.contains("damaged header") == true)
        }
        // An edge pointing past the last node (the edge targets start after the node arrays).
        var damaged = good
        let nodes = Int(good.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 40, as: UInt64.self) })
        func padded(_ bytes: Int) -> Int { (bytes + 7) & ~7 }
        // Header, latitudes, longitudes, ids, edge starts.
        let targets = 128 + padded(4 * nodes) * 2 + padded(8 * nodes) + padded(4 * (nodes + 1))
        damaged.replaceSubrange(targets..<targets + 4, with: [0xFF, 0xFF, 0xFF, 0x7F])
        let message = try #require(refusal(damaged))
        #expect(message.contains("bad.roadbook-graph") && message.contains("damaged"))
        #expect(!message.contains("\n"))
    }

    @Test("the signature changes when the extract does")
    func signature() throws {
        let folder = try TemporaryFolder()
        let copy = folder.path("copy.osm.pbf")
        try FileManager.default.copyItem(at: extract, to: copy)
        let before = try ExtractSignature(of: copy)
        #expect(before == (try ExtractSignature(of: copy)))
        var bytes = try Data(contentsOf: copy)
        bytes[bytes.count - 10] ^= 0xFF
        try bytes.write(to: copy)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000)], ofItemAtPath: copy.path)
        let after = try ExtractSignature(of: copy)
        #expect(after.size == before.size && after.fingerprint != before.fingerprint)
    }
}

@Suite("Node table search")
struct NodeTableSearchTests {
    @Test("searching outwards from any hint finds what a binary search of the whole table finds")
    func nearSearch() {
        var random = SeededGenerator(seed: 21)
        for size in [0, 1, 2, 3, 17, 1000] {
            var table = OSMNodeTable()
            var id: Int64 = Int64.random(in: -50...50, using: &random)
            for _ in 0..<size {
                id += Int64.random(in: 1...(Bool.random(using: &random) ? 3 : 5000), using: &random)
                table.append(id: id, latitudeE7: 0, longitudeE7: 0)
            }
            table.finish()
            let probes = table.ids + (0..<200).map { _ in Int64.random(in: -100...(id + 100), using: &random) }
            for probe in probes {
                let expected = table.index(of: probe)
                for hint in [0, size / 2, size - 1, Int.random(in: 0...max(size - 1, 0), using: &random), -3, size + 4] {
                    #expect(table.index(of: probe, near: hint) == expected, "size \(size), id \(probe), hint \(hint)")
                }
            }
        }
    }
}
