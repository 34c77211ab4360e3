import Foundation
import Geo
import Guidance
import Model
import OSM
import Testing
import TestSupport
import Workflows

// Divided roads: joining or crossing both carriageways as one junction, and U-turns through the
// gap. GuidanceScenarioSupport.swift says how the scenarios are drawn and checked.

extension Scenarios {
    static let tooWide = ScenarioMap(grid: 20, """
        a---b---e
            |
        d---c---f
        """, [("abcd", ["highway": "primary", "name": "road"]), ("be", ["highway": "secondary", "name": "top"]),
              ("cf", ["highway": "secondary", "name": "bottom"])])

    static let joinDividedNamedMain = ScenarioMap(grid: 5, """
        a-------b-----c
                |
        d-------e-----f
                |
                |
            i---g---j
                |
                |
                h
        """, [("abc", ["name": "main st", "highway": "residential", "oneway": "-1"]),
              ("def", ["name": "main st", "highway": "residential", "oneway": "yes"]),
              ("be", ["name": "main st", "highway": "residential"]),
              ("egh", ["name": "side st", "highway": "residential"]),
              ("igj", ["name": "maple st", "highway": "residential"])])

    static let crossDividedNamedSide = ScenarioMap(grid: 5, """
                h
                |
        a-------b-----c
                |
        d-------e-----f
                |
                |
                g
        """, [("abc", ["name": "main st", "highway": "residential", "oneway": "-1"]),
              ("def", ["name": "main st", "highway": "residential", "oneway": "yes"]),
              ("hbeg", ["name": "side st", "highway": "residential"])])

    static let joinDividedBothDivided = ScenarioMap(grid: 5, """
        a-----h--b-----c
              |  |
        d-----i--e-----f
              |  |
              |  |
          m---j--g---n
              |  |
              |  |
              k  l
        """, [("ahbc", ["name": "main st", "highway": "residential", "oneway": "-1"]),
              ("dief", ["name": "main st", "highway": "residential", "oneway": "yes"]),
              ("begl", ["name": "side st", "highway": "residential", "oneway": "-1"]),
              ("hijk", ["name": "side st", "highway": "residential", "oneway": "yes"]),
              ("mjgn", ["name": "maple st", "highway": "residential", "oneway": "no"])])

    static let uTurnTriangle = ScenarioMap(grid: 5, #"""
        g---f---e---d
            \   /
             \ /
        a-----b-----c
        """#, [("abc", ["highway": "primary", "name": "road", "oneway": "yes"]),
               ("defg", ["highway": "primary", "name": "road", "oneway": "yes"]),
               ("fb", ["highway": "primary_link", "name": "", "oneway": "yes"]),
               ("be", ["highway": "primary_link", "name": "", "oneway": "yes"])])
}

@Suite("OSRM's guidance scenarios as ASCII maps, through RouteTurns with a car: divided roads and U-turns")
struct DividedRoadScenarioTests {
    typealias S = Scenarios

    static let cases: [GuidanceScenario] = [
        // OSRM: "end of road left"; the two carriageways are one junction, so the row may stand at
        // either (b or e); crossing maple st at g needs no row.
        GuidanceScenario(name: "divided-highways.feature: Join on a divided road named after the main road",
                         map: S.joinDividedNamedMain, route: "hgeba",
                         rows: [ScenarioRow("be", "End of road, turn left")], tolerated: [straightOn("g")]),
        GuidanceScenario(name: "divided-highways.feature: Crossing a divided road, named after side-street",
                         map: S.crossDividedNamedSide, route: "geba", rows: [ScenarioRow("be", "Turn left")]),
        GuidanceScenario(name: "divided-highways.feature: Join on a divided road, named after the side street (both divided)",
                         map: S.joinDividedBothDivided, route: "lgebha",
                         rows: [ScenarioRow("be", "End of road, turn left")], tolerated: [straightOn("g"), straightOn("h")]),
        // OSRM: "continue right" twice, 40 m apart; at c the road ends, so either words do.
        GuidanceScenario(name: "collapse.feature: Don't collapse everything to u-turn / too wide", map: S.tooWide,
                         route: "abcd", rows: [ScenarioRow("b", "Turn right"),
                                               ScenarioRow("c", "Turn right", "End of road, turn right")]),
        GuidanceScenario(name: "collapse.feature: Don't collapse everything to u-turn / too wide", map: S.tooWide,
                         route: "dcba", rows: [ScenarioRow("c", "Turn left"),
                                               ScenarioRow("b", "Turn left", "End of road, turn left")]),
        GuidanceScenario(name: "collapse-detail.feature: Collapse U-Turn Triangle Intersection", map: S.uTurnTriangle,
                         route: "abefg", rows: [ScenarioRow("b", "U-turn")]),
        GuidanceScenario(name: "collapse-detail.feature: Collapse U-Turn Triangle Intersection", map: S.uTurnTriangle,
                         route: "defbc", rows: [ScenarioRow("f", "U-turn")]),
    ]

    @Test("the rows of each scenario", arguments: cases)
    func scenario(_ c: GuidanceScenario) {
        ScenarioCheck.check(c)
    }
}
