import Foundation
import Geo
@testable import OSM
import Testing
import TestSupport

// A crossroads, grid 100 m (x east, y north), nodes by OSM id; every way begins or ends at c = 5
// except way 6, which passes through it:
//
//              3 (0,100)
//          7   |
//   1 ---------5--------- 2        way 1: 1→5   way 2: 5→2   way 3: 3→5   way 4: 5→4
//  (−100,0)    |   8   (100,0)     way 6: 7→5→8 (7 at (−50,50), 8 at (50,−50))
//              4 (0,−100)
//
// Relations, with what the OSM wiki (Relation:restriction) makes of them:
// | id  | tags                                             | members (from, via, to)  | read as                   | on the graph      |
// |-----|--------------------------------------------------|--------------------------|---------------------------|-------------------|
// | 100 | restriction=no_left_turn                         | way 1, node 5, way 3     | no, every vehicle         | yes               |
// | 101 | restriction=only_straight_on, except=bicycle     | way 3, node 5, way 4     | only, cars                | yes               |
// | 102 | restriction:motorcar=no_right_turn               | way 2, node 5, way 3     | no, cars                  | yes               |
// | 103 | restriction=no_u_turn                            | way 1, via way 6, way 1  | — (via a way)             | —                 |
// | 104 | restriction=no_left_turn                         | way 1, node 5 (no to)    | — (member missing)        | —                 |
// | 105 | restriction=no_left_turn                         | to ref="x7"              | — (broken member)         | —                 |
// | 106 | restriction=no_left_turn                         | way 999, node 5, way 3   | no, every vehicle         | — (unknown way)   |
// | 107 | restriction=no_right_turn                        | way 6, node 5, way 4     | no, every vehicle         | — (6 passes via)  |
// | 108 | restriction=no_left_turn, except=motorcar;bicycle| way 1, node 5, way 3     | — (every vehicle exempt)  | —                 |
// | 109 | a tag without v                                  | way 1, node 5, way 3     | — (broken tag)            | —                 |
// | 110 | type=route                                       | way 1                    | — (not a restriction)     | —                 |
// | 111 | restriction=no_entry, roles swapped (via a way)  | node 5 as from           | — (wrong member types)    | —                 |
// | 112 | restriction=give_way                             | way 1, node 5, way 3     | — (not no_*/only_*)       | —                 |

private let grid = MetreGrid()
private let positions: [Int64: (Double, Double)] = [
    1: (-100, 0), 2: (100, 0), 3: (0, 100), 4: (0, -100), 5: (0, 0), 7: (-50, 50), 8: (50, -50),
]

private let crossroadsXML: String = {
    var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#, #"<osm version="0.6" generator="hand">"#]
    for (id, p) in positions.sorted(by: { $0.key < $1.key }) {
        let c = grid(p.0, p.1)
        lines.append(String(format: #"  <node id="%lld" lat="%.7f" lon="%.7f"/>"#, id, c.latitude, c.longitude))
    }
    for (id, nodes) in [(1, [1, 5]), (2, [5, 2]), (3, [3, 5]), (4, [5, 4]), (6, [7, 5, 8])] {
        lines.append(#"  <way id="\#(id)">"# + nodes.map { #"<nd ref="\#($0)"/>"# }.joined() + #"<tag k="highway" v="residential"/></way>"#)
    }
    func relation(_ id: Int, _ members: [(String, String, String)], _ tags: [(String, String?)]) {
        var text = #"  <relation id="\#(id)">"#
        for (type, ref, role) in members { text += #"<member type="\#(type)" ref="\#(ref)" role="\#(role)"/>"# }
        for (k, v) in tags { text += v.map { #"<tag k="\#(k)" v="\#($0)"/>"# } ?? #"<tag k="\#(k)"/>"# }
        lines.append(text + "</relation>")
    }
    let standard = [("way", "1", "from"), ("node", "5", "via"), ("way", "3", "to")]
    relation(100, standard, [("type", "restriction"), ("restriction", "no_left_turn")])
    relation(101, [("way", "3", "from"), ("node", "5", "via"), ("way", "4", "to")],
             [("type", "restriction"), ("restriction", "only_straight_on"), ("except", "bicycle")])
    relation(102, [("way", "2", "from"), ("node", "5", "via"), ("way", "3", "to")],
             [("type", "restriction"), ("restriction:motorcar", "no_right_turn")])
    relation(103, [("way", "1", "from"), ("way", "6", "via"), ("way", "1", "to")], [("type", "restriction"), ("restriction", "no_u_turn")])
    relation(104, [("way", "1", "from"), ("node", "5", "via")], [("type", "restriction"), ("restriction", "no_left_turn")])
    relation(105, [("way", "1", "from"), ("node", "5", "via"), ("way", "x7", "to")], [("type", "restriction"), ("restriction", "no_left_turn")])
    relation(106, [("way", "999", "from"), ("node", "5", "via"), ("way", "3", "to")], [("type", "restriction"), ("restriction", "no_left_turn")])
    relation(107, [("way", "6", "from"), ("node", "5", "via"), ("way", "4", "to")], [("type", "restriction"), ("restriction", "no_right_turn")])
    relation(108, standard, [("type", "restriction"), ("restriction", "no_left_turn"), ("except", "motorcar;bicycle")])
    relation(109, standard, [("type", "restriction"), ("restriction", "no_left_turn"), ("note", nil)])
    relation(110, [("way", "1", "")], [("type", "route")])
    relation(111, [("node", "5", "from"), ("way", "1", "via"), ("way", "3", "to")], [("type", "restriction"), ("restriction", "no_entry")])
    relation(112, standard, [("type", "restriction"), ("restriction", "give_way")])
    lines += ["</osm>", ""]
    return lines.joined(separator: "\n")
}()

/// The index in `graph.ways` of the way with OSM id `id` (each is whole in this extract).
private func wayIndex(_ graph: RoadGraph, _ id: Int64) throws -> Int {
    try #require(graph.ways.firstIndex { $0.id == id })
}

@Suite("Turn restrictions read from OSM files")
struct RestrictionReaderTests {
    private let expected: [OSMRestriction] = [
        OSMRestriction(id: 100, kind: .no, fromWay: 1, viaNode: 5, toWay: 3, vehicles: .all),
        OSMRestriction(id: 101, kind: .only, fromWay: 3, viaNode: 5, toWay: 4, vehicles: .motorcar),
        OSMRestriction(id: 102, kind: .no, fromWay: 2, viaNode: 5, toWay: 3, vehicles: .motorcar),
        OSMRestriction(id: 106, kind: .no, fromWay: 999, viaNode: 5, toWay: 3, vehicles: .all),
        OSMRestriction(id: 107, kind: .no, fromWay: 6, viaNode: 5, toWay: 4, vehicles: .all),
    ]

    /// The turns the table above allows and forbids at node 5.
    private func checkCrossroads(_ graph: RoadGraph) throws {
        let c = try #require(graph.osmIDs.firstIndex(of: 5))
        #expect(graph.turnRestrictions.entries.count == 3)
        #expect(graph.turnRestrictions.viaNodes == [c])
        let w1 = try wayIndex(graph, 1), w2 = try wayIndex(graph, 2), w3 = try wayIndex(graph, 3), w4 = try wayIndex(graph, 4), w6 = try wayIndex(graph, 6)
        // 100: east along 1, no left (north, way 3), for every vehicle.
        #expect(!graph.allowsTurn(fromWay: w1, at: c, toWay: w3, for: .motorcar))
        #expect(!graph.allowsTurn(fromWay: w1, at: c, toWay: w3, for: .bicycle))
        #expect(graph.allowsTurn(fromWay: w1, at: c, toWay: w2, for: .motorcar))
        #expect(graph.allowsTurn(fromWay: w1, at: c, toWay: w4, for: .motorcar))
        // 101: south along 3, only straight on (way 4), cars; bicycles are excepted.
        #expect(graph.allowsTurn(fromWay: w3, at: c, toWay: w4, for: .motorcar))
        #expect(!graph.allowsTurn(fromWay: w3, at: c, toWay: w2, for: .motorcar))
        #expect(!graph.allowsTurn(fromWay: w3, at: c, toWay: w1, for: .motorcar))
        #expect(!graph.allowsTurn(fromWay: w3, at: c, toWay: w6, for: .motorcar))
        #expect(graph.allowsTurn(fromWay: w3, at: c, toWay: w2, for: .bicycle))
        // 102: west along 2, no right (north, way 3), cars only.
        #expect(!graph.allowsTurn(fromWay: w2, at: c, toWay: w3, for: .motorcar))
        #expect(graph.allowsTurn(fromWay: w2, at: c, toWay: w3, for: .bicycle))
        // 107 was dropped: way 6 passes through node 5, so which side it means is unknown.
        #expect(graph.allowsTurn(fromWay: w6, at: c, toWay: w4, for: .motorcar))
        // Walking is never restricted.
        #expect(graph.allowsTurn(fromWay: w1, at: c, toWay: w3, for: []))
    }

    @Test("OSM XML: no_*, only_*, except, restriction:motorcar; broken relations skipped without an error")
    func xml() throws {
        let data = try OSMData.read(xml: Data(crossroadsXML.utf8), fileName: "crossroads.osm")
        #expect(data.restrictions == expected)
        try checkCrossroads(OSMGraph.build(from: data))
    }

    @Test("a way clipped at the extract border keeps its restrictions on the piece at the via node")
    func clippedWay() throws {
        // Way 1 runs 9→1→5 and node 9 is missing: the graph keeps the run 1→5 as way 1.
        let xml = crossroadsXML.replacingOccurrences(of: #"<way id="1"><nd ref="1"/>"#, with: #"<way id="1"><nd ref="9"/><nd ref="1"/>"#)
        let graph = OSMGraph.build(from: try OSMData.read(xml: Data(xml.utf8), fileName: "clipped.osm"))
        try checkCrossroads(graph)
    }

    @Test("the hostile corpus's restriction cases load without an error; only the controls hold a restriction")
    func hostileCorpus() throws {
        let folder = packageRoot().appendingPathComponent("Tests/Hostile/osm")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("restriction-") }.sorted()
        #expect(names.count == 13)
        for name in names {
            let data = try OSMData.read(contentsOf: folder.appendingPathComponent(name))
            let graph = OSMGraph.build(from: data)
            // The controls: way 12 (5→2) into way 11 (2→4) at node 2 (XML); way 10 into itself (PBF: read, but no turn).
            let expected = name == "restriction-valid.osm" ? 1 : 0
            #expect(graph.turnRestrictions.entries.count == expected, "\(name)")
            if name.hasSuffix("-valid.osm.pbf") { #expect(data.restrictions.count == 1) }
        }
    }

    @Test("PBF: a relation's packed roles, member ids and types; broken relations skipped")
    func pbf() throws {
        let strings = ["", "highway", "residential", "type", "restriction", "no_left_turn", "from", "via", "to", "only_straight_on"]
        let table = PBFWire.bytes(1, strings.flatMap { PBFWire.string(1, $0) })
        let dense = PBFWire.packedSInt(1, deltasOf: [1, 3, 5]) + PBFWire.packedSInt(8, deltasOf: [425_000_000, 425_010_000, 425_005_000])
            + PBFWire.packedSInt(9, deltasOf: [15_000_000, 15_000_000, 15_000_000])
        func way(_ id: UInt64, _ nodes: [Int64]) -> [UInt8] {
            PBFWire.bytes(3, PBFWire.value(1, id) + PBFWire.packed(2, [1]) + PBFWire.packed(3, [2]) + PBFWire.packedSInt(8, deltasOf: nodes))
        }
        func relation(_ id: UInt64, values: [UInt64], roles: [UInt64], ids: [Int64], types: [UInt64]) -> [UInt8] {
            PBFWire.bytes(4, PBFWire.value(1, id) + PBFWire.packed(2, [3, 4]) + PBFWire.packed(3, values)
                + PBFWire.packed(8, roles) + PBFWire.packedSInt(9, deltasOf: ids) + PBFWire.packed(10, types))
        }
        let relations = relation(200, values: [4, 5], roles: [6, 7, 8], ids: [1, 5, 3], types: [1, 0, 1])
            + relation(201, values: [4, 9], roles: [6, 7], ids: [3, 5, 1], types: [1, 0, 1])        // fewer roles than members
            + relation(202, values: [4, 5], roles: [6, 70, 8], ids: [1, 5, 3], types: [1, 0, 1])     // role beyond the string table
            + relation(203, values: [4, 5], roles: [6, 7, 8], ids: [1, 5, 3], types: [1, 9, 1])      // unknown member type
            + relation(204, values: [4, 5], roles: [6, 7, 8], ids: [1, 1, 3], types: [1, 1, 1])      // via a way
        let groups = PBFWire.bytes(2, PBFWire.bytes(2, dense)) + PBFWire.bytes(2, way(1, [1, 5]) + way(3, [3, 5]))
            + PBFWire.bytes(2, relations)
        let file = PBFWire.header() + PBFWire.rawBlob(type: "OSMData", table + groups)
        let folder = try TemporaryFolder()
        let url = folder.path("restrictions.osm.pbf")
        try Data(file).write(to: url)
        let data = try OSMData.read(contentsOf: url)
        #expect(data.restrictions == [OSMRestriction(id: 200, kind: .no, fromWay: 1, viaNode: 5, toWay: 3, vehicles: .all)])
        let graph = OSMGraph.build(from: data)
        let c = try #require(graph.osmIDs.firstIndex(of: 5))
        #expect(!graph.allowsTurn(fromWay: try wayIndex(graph, 1), at: c, toWay: try wayIndex(graph, 3), for: .motorcar))
        #expect(graph.allowsTurn(fromWay: try wayIndex(graph, 3), at: c, toWay: try wayIndex(graph, 1), for: .motorcar))
    }
}

