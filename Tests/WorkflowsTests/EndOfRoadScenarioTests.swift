import Foundation
import Geo
import Guidance
import Model
import OSM
import Testing
import TestSupport
import Workflows

// T junctions and the end of the road: the road ahead ends and the route turns left or right.
// GuidanceScenarioSupport.swift says how the scenarios are drawn and checked.

extension Scenarios {
    static func turningMajorRoad(side: String = "residential") -> ScenarioMap {
        ScenarioMap(grid: 10, """
                  c


            a     b

                  d
            """, [("abc", ["highway": "primary", "name": "road"]), ("bd", ["highway": side, "name": "in"])])
    }

    static let endOfRoadThroughStreet = ScenarioMap(grid: 10, """
            c
        a e b
          f d
        """, [("aeb", ["highway": "primary"]), ("cbd", ["highway": "primary"]), ("ef", ["highway": "primary"])])

    static let endOfRoadOnewayThroughStreet = ScenarioMap(grid: 10, """
                c
        a e     b
          f     d
        """, [("aeb", ["highway": "primary", "oneway": "no"]), ("cbd", ["highway": "primary", "oneway": "yes"]),
              ("ef", ["highway": "primary", "oneway": "no"])])

    static let endOfRoadThreeStreetsAngled = ScenarioMap(grid: 10, """
        a e       c
          f       b
                  d
        """, [("aeb", ["highway": "primary"]), ("cb", ["highway": "primary"]), ("bd", ["highway": "primary"]),
              ("ef", ["highway": "primary"])])
}

@Suite("OSRM's guidance scenarios as ASCII maps, through RouteTurns with a car: T junctions and end of road")
struct EndOfRoadScenarioTests {
    typealias S = Scenarios

    static let cases: [GuidanceScenario] = [
        // OSRM says nothing (the primary road turns); at this T a rider chooses left or right.
        GuidanceScenario(name: "turn.feature: Go onto turning major road", map: S.turningMajorRoad(), route: "abc",
                         rows: [ScenarioRow("b", "Turn left", "End of road, turn left")]),
        GuidanceScenario(name: "turn.feature: Go onto turning major road", map: S.turningMajorRoad(), route: "dba",
                         rows: [ScenarioRow("b", "Turn left")]),
        GuidanceScenario(name: "turn.feature: Go onto turning major road", map: S.turningMajorRoad(), route: "dbc",
                         rows: [], tolerated: [straightOn("b")]),
        // The same T with the side road a footway: for a car the road only bends; no choice, no row.
        GuidanceScenario(name: "turn.feature: Go onto turning major road (bd a footway)",
                         map: S.turningMajorRoad(side: "footway"), route: "abc", rows: []),
        GuidanceScenario(name: "end-of-road.feature: End of Road with through street", map: S.endOfRoadThroughStreet,
                         route: "aebc", rows: [ScenarioRow("b", "End of road, turn left")], tolerated: [straightOn("e")]),
        GuidanceScenario(name: "end-of-road.feature: End of Road with through street", map: S.endOfRoadThroughStreet,
                         route: "aebd", rows: [ScenarioRow("b", "End of road, turn right")], tolerated: [straightOn("e")]),
        GuidanceScenario(name: "end-of-road.feature: End of Road with oneway through street", map: S.endOfRoadOnewayThroughStreet,
                         route: "aebd", rows: [ScenarioRow("b", "End of road, turn right")], tolerated: [straightOn("e")]),
        GuidanceScenario(name: "end-of-road.feature: End of Road with three streets, slightly angled",
                         map: S.endOfRoadThreeStreetsAngled, route: "aebc",
                         rows: [ScenarioRow("b", "End of road, turn left")], tolerated: [straightOn("e")]),
        GuidanceScenario(name: "end-of-road.feature: End of Road with three streets, slightly angled",
                         map: S.endOfRoadThreeStreetsAngled, route: "aebd",
                         rows: [ScenarioRow("b", "End of road, turn right")], tolerated: [straightOn("e")]),
    ]

    @Test("the rows of each scenario", arguments: cases)
    func scenario(_ c: GuidanceScenario) {
        ScenarioCheck.check(c)
    }
}
