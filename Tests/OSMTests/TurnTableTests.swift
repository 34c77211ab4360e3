import Foundation
import Geo
import Guidance
import Model
import OSM
import Render
import Testing
import TestSupport

/// The turns of a route drawn on an ASCII map, through the whole chain: the graph, its junctions,
/// the detector's passes and the words.
func maneuvers(_ map: AsciiMap, _ route: AsciiMap.Route) -> [Maneuver] {
    let junctions = JunctionFinder(graph: map.graph).junctions(along: route.nodes)
    return TurnDetector().maneuvers(in: RoadGeometry(line: route.line, junctions: junctions))
}

/// A turn as the table states it: where (a node letter) and the words.
struct ExpectedTurn: CustomStringConvertible {
    var at: Character
    var words: String
    var description: String { "\(words) at \(at)" }
}

struct TurnCase: Sendable, CustomStringConvertible {
    var name: String
    var map: AsciiMap
    var route: String
    var turns: [(Character, String)]
    var description: String { name }
}

enum TurnTable {
    static let crossroads = AsciiMap(gridSize: 10, """
              c

          a   b   e

              d
        """, ways: [("abe", ["highway": "primary", "ref": "CG-2"]), ("cbd", ["highway": "track", "name": "Cami Vell"])])
    static let tee = AsciiMap(gridSize: 10, """
          a   b   c

              d
        """, ways: [("abc", ["highway": "secondary"]), ("bd", ["highway": "tertiary", "surface": "gravel"])])
    static let fork = AsciiMap(gridSize: 10, """
                    c
          a   b
                    d
        """, ways: [("ab", ["highway": "unclassified"]), ("bc", ["highway": "unclassified"]),
                    ("bd", ["highway": "unclassified"])])
    static let roundabout = AsciiMap(gridSize: 10, """
                N

                n

          W   w   e   E

                s

                S
        """, ways: [("nwsen", ["highway": "primary", "junction": "roundabout"]), ("Nn", ["highway": "primary"]),
                    ("Ww", ["highway": "primary"]), ("Ss", ["highway": "primary", "ref": "CG-1"]),
                    ("Ee", ["highway": "residential"])])
    static let staggered = AsciiMap(gridSize: 10, """
              c

          a   b e   g

                d
        """, ways: [("abeg", ["highway": "primary"]), ("cb", ["highway": "residential"]), ("ed", ["highway": "residential"])])
    static let hairpin = AsciiMap(gridSize: 10, """
          d           f

          a       b   c
        """, ways: [("abc", ["highway": "secondary"]), ("bdf", ["highway": "secondary"])])
    static let deadEnd = AsciiMap(gridSize: 10, """
          a   b   c

              d
        """, ways: [("abc", ["highway": "primary"]), ("bd", ["highway": "track"])])
    static let slip = AsciiMap(gridSize: 10, """
          a   b           c   e
                      d
        """, ways: [("abce", ["highway": "trunk"]), ("bd", ["highway": "trunk_link", "oneway": "yes"])])
}

@Suite("Turns from ASCII maps: route a→c, expected turns in a table")
struct TurnTableTests {
    static let cases: [TurnCase] = [
        TurnCase(name: "crossroads, left", map: TurnTable.crossroads, route: "abc", turns: [("b", "Turn left onto Cami Vell")]),
        TurnCase(name: "crossroads, right", map: TurnTable.crossroads, route: "abd", turns: [("b", "Turn right onto Cami Vell")]),
        TurnCase(name: "crossroads, straight on across a track", map: TurnTable.crossroads, route: "abe", turns: []),
        TurnCase(name: "T junction, end of road", map: TurnTable.tee, route: "dbc", turns: [("b", "End of road, turn right")]),
        TurnCase(name: "T junction, off the through road", map: TurnTable.tee, route: "abd", turns: [("b", "Turn right")]),
        TurnCase(name: "Y fork, left", map: TurnTable.fork, route: "abc", turns: [("b", "Keep left at fork")]),
        TurnCase(name: "Y fork, right", map: TurnTable.fork, route: "abd", turns: [("b", "Keep right at fork")]),
        TurnCase(name: "roundabout, 3rd exit of four", map: TurnTable.roundabout, route: "SsenwW",
                 turns: [("s", "Roundabout, 3rd exit")]),
        TurnCase(name: "staggered junction", map: TurnTable.staggered, route: "cbed", turns: [("b", "Left then right")]),
        TurnCase(name: "hairpin", map: TurnTable.hairpin, route: "abdf", turns: [("b", "Turn sharp left")]),
        TurnCase(name: "U-turn at a dead end", map: TurnTable.deadEnd, route: "abdbc",
                 turns: [("b", "Turn right"), ("d", "U-turn"), ("b", "End of road, turn right")]),
        TurnCase(name: "slip road", map: TurnTable.slip, route: "abd", turns: [("b", "Bear right")]),
    ]

    @Test("each route gives the turns in its table", arguments: cases)
    func table(_ c: TurnCase) throws {
        let route = c.map.route(Array(c.route))
        let found = maneuvers(c.map, route)
        let words = found.map { Instructions.english.text(for: $0) }
        #expect(words.count == c.turns.count, "\(c.name): \(words)")
        for (maneuver, expected) in zip(found, c.turns) {
            #expect(Instructions.english.text(for: maneuver).hasPrefix(expected.1), "\(c.name): \(words)")
            let place = c.map[expected.0].coordinate
            #expect(maneuver.coordinate.distance(to: place) < 1, "\(c.name): \(expected.1) should be at \(expected.0)")
        }
    }

    @Test("a tulip golden for each junction kind, drawn from the junction the route passes",
          arguments: cases.filter { !$0.turns.isEmpty })
    func tulipGoldens(_ c: TurnCase) throws {
        let found = maneuvers(c.map, c.map.route(Array(c.route)))
        let tulip = TulipBuilder.tulip(for: try #require(found.first))
        let folder = try TemporaryFolder()
        let file = folder.path("t.png")
        try TulipImage.writePNG(tulip, size: 160, to: file)
        let name = "junction-" + c.name.replacingOccurrences(of: ",", with: "").replacingOccurrences(of: " ", with: "-")
        try assertPNGGolden(file, named: name)
    }
}

