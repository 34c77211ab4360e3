import Foundation
import Geo
import Guidance
import Model
import OSM
import Testing
import TestSupport
import Workflows

// Crossroads and staggered junctions: straight over a road (a row only over a more important one),
// a crossroads mapped as two nodes, two turns a few metres apart read as one row.
// GuidanceScenarioSupport.swift says how the scenarios are drawn and checked.

extension Scenarios {
    static func staggered(_ drawing: String) -> ScenarioMap {
        ScenarioMap(grid: 1, drawing, [("abc", ["highway": "residential", "name": "Oak St"]),
                                       ("efg", ["highway": "residential", "name": "Oak St"]),
                                       ("jcdehi", ["highway": "residential", "name": "Cedar Dr"])])
    }

    static let staggeredOak = staggered("""
            j
        a b c
            d
            e f g
            h
            i
        """)

    /// A residential street crossing another road at one node, the other road tagged `crossed`.
    static func crossing(_ crossed: String) -> ScenarioMap {
        ScenarioMap(grid: 10, """
                d
            a   b   c
                e
            """, [("abc", ["highway": "residential", "name": "rue a"]), ("dbe", ["highway": crossed, "name": "main"])])
    }

    /// Monaco's Route de Beausoleil: a residential street crossing a tertiary road whose two sides
    /// were mapped 4 m apart along it (2 m grid).
    static let crossingInTwoNodes = ScenarioMap(grid: 2, """
                  i
                  |
                  |
                  j
        a    b    c
                  d
                  e    f    g
                  h
                  |
                  |
                  k
        """, [("abc", ["highway": "residential", "name": "rue a"]), ("efg", ["highway": "residential", "name": "rue b"]),
              ("ijcdehk", ["highway": "tertiary", "name": "route de beausoleil"])])

    static let staggeredLong = staggered("""
            j
        a b c
            |
            |
            d
            |
            |
            e f g
            h
            i
        """)
}

@Suite("OSRM's guidance scenarios as ASCII maps, through RouteTurns with a car: crossroads and staggered junctions")
struct CrossroadsScenarioTests {
    typealias S = Scenarios

    static let cases: [GuidanceScenario] = [
        // OSRM says nothing across a 2 m offset: to a rider it is a crossroads.
        GuidanceScenario(name: "staggered-intersections.feature: Staggered Intersection: Oak St, Cedar Dr",
                         map: S.staggeredOak, route: "abcdefg", rows: [],
                         tolerated: [straightOn("c"), straightOn("e")]),
        GuidanceScenario(name: "staggered-intersections.feature: Staggered Intersection: Oak St, Cedar Dr",
                         map: S.staggeredOak, route: "gfedcba", rows: [],
                         tolerated: [straightOn("c"), straightOn("e")]),
        // Straight over a more important road the rider gives way and must know to go on: a row,
        // one for a crossroads mapped as two nodes (OSRM: "turn right", then "turn left" 4 m on).
        // Over a road of the route's own rank, a plain crossroads: none.
        GuidanceScenario(name: "a residential street straight over a tertiary road", map: S.crossing("tertiary"), route: "abc",
                         rows: [ScenarioRow("b", "Straight on at crossroads")]),
        GuidanceScenario(name: "a residential street straight over another", map: S.crossing("residential"), route: "abc", rows: []),
        GuidanceScenario(name: "Monaco: a residential street straight over a tertiary road mapped as two nodes 4 m apart",
                         map: S.crossingInTwoNodes, route: "abcdefg", rows: [ScenarioRow("c", "Straight on at crossroads")]),
        GuidanceScenario(name: "Monaco: a residential street straight over a tertiary road mapped as two nodes 4 m apart",
                         map: S.crossingInTwoNodes, route: "gfedcba", rows: [ScenarioRow("e", "Straight on at crossroads")]),
        // OSRM: "turn right" at c, "turn left" at e, 6 m apart; a road book gives one row.
        GuidanceScenario(name: "staggered-intersections.feature: Staggered Intersection: do not collapse if long segment in between",
                         map: S.staggeredLong, route: "abcdefg", rows: [ScenarioRow("c", "Right then left")]),
        GuidanceScenario(name: "staggered-intersections.feature: Staggered Intersection: do not collapse if long segment in between",
                         map: S.staggeredLong, route: "gfedcba", rows: [ScenarioRow("e", "Right then left")]),
    ]

    @Test("the rows of each scenario", arguments: cases)
    func scenario(_ c: GuidanceScenario) {
        ScenarioCheck.check(c)
    }
}
