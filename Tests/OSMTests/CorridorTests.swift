import Foundation
import Geo
import Model
@testable import OSM
import Testing
import TestSupport

// A route 1,000 m east along y = 0 (x east, y north, metres) and a map around it:
//
//   7 (0,2000) ------- 5 (1000,2000) ------- 8 (2000,2000)     way 12 "Far": 7, 5, 8 (all outside)
//                      |
//                      4 (1000,310)  outside the 300 m corridor    way 11 "Side": 2, 3, 4, 5
//                      3 (1000,290)  inside                        way 13 track: 5, 4, 3 (leaves it)
//   1 (0,0) ---------- 2 (1000,0) ---------- 6 (2000,0)           way 10: 1, 2   way 14: 2, 6
//   route: (0,0) → (1000,0)                                        (6 lies 1,000 m past the route's end)
//
// Restrictions: 20, no_left_turn from way 10 via node 2 to way 11 (via inside: kept);
// 21, no_right_turn from way 11 via node 5 to way 12 (via outside: dropped).
private let grid = MetreGrid()
private let positions: [(id: Int64, x: Double, y: Double)] = [
    (1, 0, 0), (2, 1000, 0), (3, 1000, 290), (4, 1000, 310), (5, 1000, 2000), (6, 2000, 0), (7, 0, 2000), (8, 2000, 2000),
]
private let wayList: [(id: Int64, nodes: [Int64], tags: [String: String])] = [
    (10, [1, 2], ["highway": "primary", "name": "Main"]),
    (11, [2, 3, 4, 5], ["highway": "residential", "name": "Side"]),
    (12, [7, 5, 8], ["highway": "residential", "name": "Far"]),
    (13, [5, 4, 3], ["highway": "track"]),
    (14, [2, 6], ["highway": "primary", "name": "Main"]),
]
private let route = [grid(0, 0), grid(1000, 0)]

private func nodeXML(_ node: (id: Int64, x: Double, y: Double)) -> String {
    let c = grid(node.x, node.y)
    return String(format: #"<node id="%lld" lat="%.7f" lon="%.7f"/>"#, node.id, c.latitude, c.longitude)
}

/// The map as OSM XML; `late` nodes are written after the ways (an unsorted file).
private func mapXML(late: Set<Int64> = []) -> String {
    var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#, #"<osm version="0.6" generator="hand">"#]
    lines += positions.filter { !late.contains($0.id) }.map(nodeXML)
    for way in wayList {
        lines.append(#"<way id="\#(way.id)">"#)
        lines += way.nodes.map { #"<nd ref="\#($0)"/>"# }
        lines += way.tags.sorted { $0.key < $1.key }.map { #"<tag k="\#($0.key)" v="\#($0.value)"/>"# }
        lines.append("</way>")
    }
    lines += positions.filter { late.contains($0.id) }.map(nodeXML)
    lines += [
        #"<relation id="20"><member type="way" ref="10" role="from"/><member type="node" ref="2" role="via"/>"#
            + #"<member type="way" ref="11" role="to"/><tag k="type" v="restriction"/><tag k="restriction" v="no_left_turn"/></relation>"#,
        #"<relation id="21"><member type="way" ref="11" role="from"/><member type="node" ref="5" role="via"/>"#
            + #"<member type="way" ref="12" role="to"/><tag k="type" v="restriction"/><tag k="restriction" v="no_right_turn"/></relation>"#,
        "</osm>",
    ]
    return lines.joined(separator: "\n")
}

@Suite("Route corridor")
struct CorridorTests {
    @Test("a point is inside within the width of the route, beside it or past its ends")
    func containment() {
        let corridor = RouteCorridor(route: route)
        #expect(corridor.configuration.width == 300)
        #expect(corridor.contains(grid(500, 290)))
        #expect(corridor.contains(grid(500, -290)))
        #expect(!corridor.contains(grid(500, 310)))
        #expect(!corridor.contains(grid(500, -310)))
        #expect(corridor.contains(grid(1290, 0)))
        #expect(!corridor.contains(grid(1310, 0)))
        #expect(corridor.contains(grid(-200, 200)))     // 283 m from the start
        #expect(!corridor.contains(grid(-220, 220)))    // 311 m from the start
        #expect(!corridor.contains(grid(50_000, 0)))
        #expect(!RouteCorridor(route: []).contains(grid(0, 0)))
    }

    @Test("a long straight leg is covered all along, not only near its vertices")
    func longLeg() {
        let corridor = RouteCorridor(route: [grid(0, 0), grid(40_000, 30_000)])
        // Halfway (25 km from either end), 250 m to the side of the line: (−0.6, 0.8) is its normal.
        #expect(corridor.contains(grid(20_000 - 150, 15_000 + 200)))
        #expect(!corridor.contains(grid(20_000 - 210, 15_000 + 280)))
    }

    /// What the corridor keeps of the map, as the header comment says: nodes 1–3 inside, and 4 and 6,
    /// the nodes next to a kept one on a kept way (the roads leaving 3 and 2 towards them).
    private func checkCorridor(_ data: OSMData) {
        #expect(data.nodes.ids == [1, 2, 3, 4, 6])
        #expect(data.ways.map(\.id) == [10, 11, 13, 14])
        // Cut one node beyond the kept stretch, with the way's own end nodes kept at its ends.
        #expect(data.ways.first { $0.id == 11 }?.nodeIDs == [2, 3, 4, 5])
        #expect(data.ways.first { $0.id == 13 }?.nodeIDs == [5, 4, 3])
        #expect(data.ways.first { $0.id == 14 }?.nodeIDs == [2, 6])
        #expect(data.ways.first { $0.id == 11 }?.tags["name"] == "Side")
        #expect(data.restrictions.map(\.id) == [20])
    }

    @Test("the XML reader keeps the corridor's nodes, the ways that use them and the restrictions through them")
    func xmlCorridor() throws {
        let data = try OSMData.read(xml: Data(mapXML().utf8), fileName: "corridor.osm", corridor: RouteCorridor(route: route))
        checkCorridor(data)
    }

    @Test("nodes after the ways: the ways are read again against every node")
    func unsortedXML() throws {
        let data = try OSMData.read(xml: Data(mapXML(late: [3]).utf8), fileName: "late.osm", corridor: RouteCorridor(route: route))
        checkCorridor(data)
    }

    @Test("the PBF reader keeps what the XML reader keeps, read back from PBFWriter")
    func pbfCorridor() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("corridor.osm.pbf")
        let latitudes = positions.map { (grid($0.x, $0.y).latitude * 1e7).rounded() }
        let longitudes = positions.map { (grid($0.x, $0.y).longitude * 1e7).rounded() }
        do {
            let writer = try PBFWriter(path: url.path)
            // Two node blocks, so the wanted nodes' pass picks blobs by id range.
            try writer.writeNodes(ids: Array(positions.map(\.id)[0..<4]), latitudesE7: latitudes[0..<4].map { Int32($0) },
                                  longitudesE7: longitudes[0..<4].map { Int32($0) })
            try writer.writeNodes(ids: Array(positions.map(\.id)[4...]), latitudesE7: latitudes[4...].map { Int32($0) },
                                  longitudesE7: longitudes[4...].map { Int32($0) })
            try writer.writeWays(wayList.map { OSMWay(id: $0.id, nodeIDs: $0.nodes, tags: $0.tags) })
        }
        let whole = try OSMData.read(contentsOf: url)
        #expect(whole.nodes.ids == positions.map(\.id))
        #expect(whole.nodes.coordinate(at: 3).latitude == latitudes[3] / 1e7)
        #expect(whole.ways == wayList.map { OSMWay(id: $0.id, nodeIDs: $0.nodes, tags: $0.tags) })
        let data = try OSMData.read(contentsOf: url, corridor: RouteCorridor(route: route))
        #expect(data.nodes.ids == [1, 2, 3, 4, 6])
        #expect(data.ways.map(\.nodeIDs) == [[1, 2], [2, 3, 4, 5], [5, 4, 3], [2, 6]])
    }

    @Test("a junction keeps every road, even one whose next node lies far outside the corridor")
    func junctionSpokes() throws {
        let xml = Data(mapXML().utf8)
        let whole = OSMGraph.build(from: try OSMData.read(xml: xml, fileName: "corridor.osm"))
        let narrow = OSMGraph.build(from: try OSMData.read(xml: xml, fileName: "corridor.osm", corridor: RouteCorridor(route: route)))
        #expect(narrow.count == 5)
        // Node 2: to 1, to 3 and to 6 (1,000 m away), as in the whole map.
        let two = try #require(narrow.osmIDs.firstIndex(of: 2)), wholeTwo = try #require(whole.osmIDs.firstIndex(of: 2))
        #expect(narrow.edgeIndices(from: two).count == 3)
        #expect(whole.edgeIndices(from: wholeTwo).count == 3)
        // Restriction 20 (from way 10 via node 2 to way 11) holds on both.
        #expect(narrow.turnRestrictions == whole.turnRestrictions)
    }

    @Test("on the Andorra extract, the sample route passes the same junctions on its corridor as on the whole map")
    func andorraSample() throws {
        let gpx = try String(contentsOf: packageRoot().appendingPathComponent("samples/andorra-envalira.gpx"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"<trkpt lat="([-0-9.]+)" lon="([-0-9.]+)""#)
        let line = pattern.matches(in: gpx, range: NSRange(gpx.startIndex..., in: gpx)).map { match in
            Coordinate(latitude: Double(gpx[Range(match.range(at: 1), in: gpx)!])!, longitude: Double(gpx[Range(match.range(at: 2), in: gpx)!])!)
        }
        #expect(line.count > 1000)
        let extract = try testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf")
        let whole = try OSMGraph.load(contentsOf: extract)
        let narrow = try OSMGraph.load(contentsOf: extract, corridor: RouteCorridor(route: line))
        #expect(narrow.count < whole.count / 5)
        func junctions(_ graph: RoadGraph) -> [Junction] {
            JunctionFinder(graph: graph).junctions(along: RouteMatcher(graph: graph).match(line))
        }
        let expected = junctions(whole)
        #expect(expected.count > 50)
        #expect(junctions(narrow) == expected)
    }
}
