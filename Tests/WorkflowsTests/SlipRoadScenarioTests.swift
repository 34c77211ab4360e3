import Foundation
import Geo
import Guidance
import Model
import OSM
import Testing
import TestSupport
import Workflows

// Slip roads and ramps: bearing onto one off a through road, passing one, one splitting where it
// ends, links joining with no choice. GuidanceScenarioSupport.swift says how the scenarios are
// drawn and checked.

extension Scenarios {
    static let rampExitRight = ScenarioMap(grid: 10, #"""
        a-b-c-d-e
           `--f-g
        """#, [("abcde", ["highway": "motorway"]), ("bfg", ["highway": "motorway_link", "oneway": "yes"])])

    static let motorwayLinkOnTrunk = ScenarioMap(grid: 10, #"""
        a - - - - - - - - - - b-----
                                `    ````````````c
                                   ` d
        """#, [("abc", ["highway": "trunk", "name": "sued", "ref": "K 9652", "oneway": "yes"]),
               ("bd", ["highway": "motorway_link", "name": "", "ref": "A 5", "oneway": "yes"])])

    static let turnInsteadOfRamp = ScenarioMap(grid: 5, #"""
                e
        a b-----c-d
           `--h |
               ||
              1||
               ||
               `f
                |
                g
        """#, [("ab", ["highway": "trunk", "name": "first"]), ("bc", ["highway": "trunk", "name": "first"]),
               ("cd", ["highway": "trunk", "name": "first"]),
               ("bhf", ["highway": "trunk_link", "name": "", "oneway": "yes"]),
               ("cf", ["highway": "primary", "name": "second", "oneway": "yes"]),
               ("fg", ["highway": "primary", "name": "second", "oneway": "yes"]),
               ("ec", ["highway": "primary", "name": "second", "oneway": "no"])])

    static let rampOnThroughStreetRight = ScenarioMap(grid: 10, """
        a b c
          d
        """, [("abc", ["highway": "tertiary"]), ("bd", ["highway": "motorway_link"])])

    static let straightRampOffTurningStreet = ScenarioMap(grid: 10, """
            c
        a b d
        """, [("abc", ["highway": "tertiary"]), ("bd", ["highway": "motorway_link"])])

    static let slightRampOnObviousStreet = ScenarioMap(grid: 10, """
              c
        a b
              d
        """, [("abc", ["highway": "primary"]), ("bd", ["highway": "motorway_link"])])

    static let twoRampsJoining = ScenarioMap(grid: 10, """
        a
            c d
        b
        """, [("ac", ["highway": "motorway_link"]), ("bc", ["highway": "motorway_link"]), ("cd", ["highway": "motorway"])])

    static let mergeOntoMotorway = ScenarioMap(grid: 10, """
        d
        a     b           c
        """, [("abc", ["name": "A100", "highway": "motorway", "oneway": "yes"]),
              ("db", ["name": "", "highway": "motorway_link", "oneway": "yes"])])

    /// Monaco's Pont Sainte-Dévote: a slip road splitting, straight on into the primary road it
    /// serves, or 63° left along another slip road.
    static let slipRoadSplit = ScenarioMap(grid: 10, """
               d

        a     b       c
        """, [("ab", ["highway": "primary_link", "oneway": "yes"]),
              ("bc", ["highway": "primary", "name": "pont sainte-devote", "oneway": "yes"]),
              ("bd", ["highway": "primary_link", "oneway": "yes"])])

    /// Monaco's Bretelle Ostende: a slip road joining a one-way road 18° left where only a car
    /// park's entrance leaves.
    static let slipRoadJoiningBesideService = ScenarioMap(grid: 10, """
        a

        d     b       c

              e
        """, [("ab", ["highway": "secondary_link", "oneway": "yes"]),
              ("dbc", ["highway": "secondary", "name": "costa", "oneway": "yes"]),
              ("be", ["highway": "service", "name": "parking"])])
}

@Suite("OSRM's guidance scenarios as ASCII maps, through RouteTurns with a car: slip roads and ramps")
struct SlipRoadScenarioTests {
    typealias S = Scenarios

    static let cases: [GuidanceScenario] = [
        GuidanceScenario(name: "motorway.feature: Ramp Exit Right", map: S.rampExitRight, route: "abcde",
                         rows: [], tolerated: [straightOn("b")]),
        GuidanceScenario(name: "motorway.feature: Ramp Exit Right", map: S.rampExitRight, route: "abfg",
                         rows: [slip("b", right: true)]),
        GuidanceScenario(name: "obvious-turn-discovery.feature: Passing a motorway link on a trunk road",
                         map: S.motorwayLinkOnTrunk, route: "abc", rows: [], tolerated: [straightOn("b")]),
        GuidanceScenario(name: "obvious-turn-discovery.feature: Passing a motorway link on a trunk road",
                         map: S.motorwayLinkOnTrunk, route: "abd", rows: [slip("b", right: true)]),
        // OSRM: one "turn right" at b for the slip road and the road it joins. A rider bears onto the
        // slip road at b; at f it merges into the road it joins, with no choice: no row there.
        GuidanceScenario(name: "dedicated-turn-roads.feature: Turn Instead of Ramp", map: S.turnInsteadOfRamp,
                         route: "abhfg", rows: [slip("b", right: true)]),
        GuidanceScenario(name: "ramp.feature: Ramp On Through Street Right", map: S.rampOnThroughStreetRight,
                         route: "abd", rows: [ScenarioRow("b", "Turn right")]),
        GuidanceScenario(name: "ramp.feature: Straight Ramp Off Turning Though Street", map: S.straightRampOffTurningStreet,
                         route: "abd", rows: [ScenarioRow("b", "Straight on")]),
        // OSRM says nothing (the route follows the tertiary road); a rider who sees a road straight
        // ahead and the route bearing 27° away from it needs the row.
        GuidanceScenario(name: "ramp.feature: Straight Ramp Off Turning Though Street", map: S.straightRampOffTurningStreet,
                         route: "abc", rows: [ScenarioRow("b", "Bear left", "Keep left")]),
        GuidanceScenario(name: "ramp.feature: Fork Slight Ramp on Obvious Through Street", map: S.slightRampOnObviousStreet,
                         route: "abd", rows: [slip("b", right: true)]),
        // OSRM says nothing (the primary road is obvious: a slip road is no equal of it). The two
        // roads leave b 14° either side of straight, so a row saying the side is welcome too; a
        // fork would not be, since the roads are not equal.
        GuidanceScenario(name: "ramp.feature: Fork Slight Ramp on Obvious Through Street", map: S.slightRampOnObviousStreet,
                         route: "abc", rows: [], tolerated: [slip("b", right: false)]),
        // A link joining a motorway, or two joining each other: no choice, no row.
        GuidanceScenario(name: "ramp.feature: Two Ramps Joining into common Motorway", map: S.twoRampsJoining,
                         route: "acd", rows: []),
        GuidanceScenario(name: "ramp.feature: Two Ramps Joining into common Motorway", map: S.twoRampsJoining,
                         route: "bcd", rows: []),
        // OSRM: "merge slight right"; a rider on a oneway link that joins a oneway motorway has no
        // choice to make: no row.
        GuidanceScenario(name: "merge.feature: Merge onto a motorway", map: S.mergeOntoMotorway, route: "dbc", rows: []),
        // Where a slip road splits, going on into the road it serves is a choice the rider must
        // know (OSRM: "turn slight right"); where it only joins its road beside a car park's
        // entrance, there is none.
        GuidanceScenario(name: "Monaco: a slip road splitting, straight on into its primary road or 63° left",
                         map: S.slipRoadSplit, route: "abc", rows: [ScenarioRow("b", "Straight on")]),
        GuidanceScenario(name: "Monaco: a slip road splitting, straight on into its primary road or 63° left",
                         map: S.slipRoadSplit, route: "abd", rows: [ScenarioRow("b", "Turn left", "Bear left")]),
        GuidanceScenario(name: "Monaco: a slip road joining a one-way road beside a car park's entrance",
                         map: S.slipRoadJoiningBesideService, route: "abc", rows: []),
    ]

    @Test("the rows of each scenario", arguments: cases)
    func scenario(_ c: GuidanceScenario) {
        ScenarioCheck.check(c)
    }
}
