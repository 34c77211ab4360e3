import Foundation
import Geo
import Guidance
import Model
import OSM
import Testing
import TestSupport
import Workflows

// Roundabouts: the row stands where the route enters the ring, with the exit taken counted as a
// rider counts it. GuidanceScenarioSupport.swift says how the scenarios are drawn and checked.

extension Scenarios {
    static func roundaboutWithService(access: String? = nil) -> ScenarioMap {
        var service = ["highway": "service"]
        service["access"] = access
        return ScenarioMap(grid: 10, """
                a h
                bg
            d c
                e
                f
            """, [("ab", ["highway": "primary"]), ("cd", ["highway": "primary"]), ("ef", service),
                  ("gh", ["highway": "primary"]), ("bcegb", ["highway": "primary", "junction": "roundabout"])])
    }

    static let mixedEntryExit = ScenarioMap(grid: 10, """
          c   a
        j   b   f
          k   e
        l   h   d
          g   i
        """, [("abc", ["oneway": "yes"]), ("def", ["oneway": "yes"]), ("ghi", ["oneway": "yes"]),
              ("jkl", ["oneway": "yes"]), ("bkheb", ["junction": "roundabout", "oneway": "yes"])])

    static let upToAndThrough = ScenarioMap(grid: 10, #"""
          g            a
          |          /   \
        e-f- - - - b      d - - - h
          |          \   /
          i            c
                       |
                       k
        """#, [("abcda", ["junction": "roundabout", "name": "rotary", "highway": "residential"]),
               ("gfi", ["name": "side", "highway": "residential"]), ("efb", ["name": "left", "highway": "residential"]),
               ("dh", ["name": "right", "highway": "residential"]), ("ck", ["name": "bottom", "highway": "residential"])])

    static let onlyEnter = ScenarioMap(grid: 10, """
            a
            b
        d c   g h
            e
            f
        """, [("ab", [:]), ("cd", [:]), ("ef", [:]), ("gh", [:]), ("bcegb", ["junction": "roundabout"])])
}

@Suite("OSRM's guidance scenarios as ASCII maps, through RouteTurns with a car: roundabouts")
struct RoundaboutScenarioTests {
    typealias S = Scenarios

    static let cases: [GuidanceScenario] = [
        GuidanceScenario(name: "roundabout.feature: Roundabout With Service", map: S.roundaboutWithService(),
                         route: "abcd", rows: [ScenarioRow("b", "Roundabout, 1st exit", exit: 1)]),
        // OSRM counts the service road as an exit to reach it (exit 2) but not when passing it (h is
        // its exit 2). A rider counts every road out of the ring a car may take, so h is the 3rd.
        GuidanceScenario(name: "roundabout.feature: Roundabout With Service", map: S.roundaboutWithService(),
                         route: "abcegh", rows: [ScenarioRow("b", "Roundabout, 3rd exit", exit: 3)]),
        GuidanceScenario(name: "roundabout.feature: Roundabout With Service", map: S.roundaboutWithService(),
                         route: "abcef", rows: [ScenarioRow("b", "Roundabout, 2nd exit", exit: 2)]),
        // A private service road is no exit for a car: h is the 2nd.
        GuidanceScenario(name: "roundabout.feature: Roundabout With Service (ef private)",
                         map: S.roundaboutWithService(access: "private"),
                         route: "abcegh", rows: [ScenarioRow("b", "Roundabout, 2nd exit", exit: 2)]),
        // OSRM: "exit roundabout right" (entry and exit at one node); to a rider it is the 1st exit.
        GuidanceScenario(name: "roundabout.feature: Mixed Entry and Exit", map: S.mixedEntryExit, route: "abc",
                         rows: [ScenarioRow("b", "Roundabout, 1st exit", exit: 1)]),
        GuidanceScenario(name: "roundabout.feature: Mixed Entry and Exit", map: S.mixedEntryExit, route: "abkl",
                         rows: [ScenarioRow("b", "Roundabout, 2nd exit", exit: 2)]),
        GuidanceScenario(name: "roundabout.feature: Mixed Entry and Exit", map: S.mixedEntryExit, route: "abkhi",
                         rows: [ScenarioRow("b", "Roundabout, 3rd exit", exit: 3)]),
        GuidanceScenario(name: "roundabout.feature: Mixed Entry and Exit", map: S.mixedEntryExit, route: "abkhef",
                         rows: [ScenarioRow("b", "Roundabout, 4th exit", exit: 4)]),
        GuidanceScenario(name: "roundabout.feature: Mixed Entry and Exit", map: S.mixedEntryExit, route: "debc",
                         rows: [ScenarioRow("e", "Roundabout, 2nd exit", exit: 2)]),
        GuidanceScenario(name: "roundabout.feature: Driving up to and through a roundabout", map: S.upToAndThrough,
                         route: "efbcdh", rows: [ScenarioRow("b", "Roundabout, 2nd exit", exit: 2)],
                         tolerated: [straightOn("f")]),
        // OSRM's routes end on the ring ("roundabout-exit-undefined"); ours leave by the arms.
        GuidanceScenario(name: "roundabout.feature: Only Enter (leaving by the arms)", map: S.onlyEnter, route: "abcd",
                         rows: [ScenarioRow("b", "Roundabout, 1st exit", exit: 1)]),
        GuidanceScenario(name: "roundabout.feature: Only Enter (leaving by the arms)", map: S.onlyEnter, route: "abcef",
                         rows: [ScenarioRow("b", "Roundabout, 2nd exit", exit: 2)]),
        GuidanceScenario(name: "roundabout.feature: Only Enter (leaving by the arms)", map: S.onlyEnter, route: "abcegh",
                         rows: [ScenarioRow("b", "Roundabout, 3rd exit", exit: 3)]),
    ]

    /// Every roundabout case seen in a mirror: where traffic keeps left the rings run clockwise, and
    /// the exits are counted the way traffic goes round, so each exit keeps its number.
    static let mirroredRoundabouts: [GuidanceScenario] = cases.filter { $0.rows.contains { $0.exit != nil } }.map { c in
        var m = c
        m.name += " (mirrored: traffic keeps left)"
        m.map = c.map.mirrored
        return m
    }

    @Test("roundabout exits where traffic keeps left: each scenario mirrored", arguments: mirroredRoundabouts)
    func mirroredScenario(_ c: GuidanceScenario) {
        scenario(c)
        // The tulip's ring turns the way the map's ring runs: clockwise in the mirror, not before it.
        for (map, clockwise) in [(c.map, true), (c.map.mirrored, false)] {
            let route = map.ascii.route(Array(c.route))
            for m in RouteTurns.maneuvers(along: route.line, graph: map.graph, mode: .drive).maneuvers where m.kind == .roundabout {
                #expect(TulipBuilder.tulip(for: m).roundabout?.clockwise == clockwise, "\(c.description): \(ScenarioCheck.describe(m, on: map))")
            }
        }
    }

    @Test("the rows of each scenario", arguments: cases)
    func scenario(_ c: GuidanceScenario) {
        ScenarioCheck.check(c)
    }
}
