import Foundation
import Geo
import Guidance
import Model
import OSM
import Testing
import TestSupport
import Workflows

// Through roads with side roads: the obvious road going on (no row, or "Straight on" past a road
// that could be taken for it), and turns off it. GuidanceScenarioSupport.swift says how the
// scenarios are drawn and checked.

extension Scenarios {
    static let dontForkLeavingRoad = ScenarioMap(grid: 10, """
        a   b   c
                d
        """, [("abc", ["highway": "secondary"]), ("bd", ["highway": "secondary"])])

    static let dontForkOnService = ScenarioMap(grid: 10, """
                c
        a   b
                d
        """, [("abc", ["highway": "residential"]), ("bd", ["highway": "service"])])

    static let nonForkComplexRight = ScenarioMap(grid: 10, """
          e     c
        a   b
                d
        """, [("abd", ["highway": "secondary"]), ("bc", ["highway": "tertiary"]), ("eb", ["highway": "tertiary"])])

    static let tripleForkMiddleObvious = ScenarioMap(grid: 10, """
                c
        a   b   d
                e
        """, [("abd", ["highway": "secondary"]), ("bc", ["highway": "secondary"]), ("be", ["highway": "secondary"])])

    static let straightOnUnnamedService = ScenarioMap(grid: 10, """
        a - - - - b - - - - c
                     ` .
                         d
        """, [("abc", ["highway": "service", "name": ""]), ("bd", ["highway": "service", "name": ""])])

    static let slightEndOfRoad = ScenarioMap(grid: 10, """
                          d
                         /
                        /
        a - - - - - - b - - - - - - - c
        """, [("abd", ["highway": "residential", "name": "kanzler"]), ("bc", ["highway": "residential", "name": "gartner"])])

    static let turningTertiary = ScenarioMap(grid: 10, """
        a - - - b - - - - c
                |
                 d
                  ` _
                      `-_
                          e
        """, [("abde", ["highway": "tertiary", "name": "havel"]), ("bc", ["highway": "residential", "name": "anger"])])

    // Three junctions of Helsinki's centre (an extract no turn pass was tuned on), drawn with their
    // angles: where OSRM gives no maneuver at the first two and "end of road" at the third.

    /// A street bending 49° right where the only other road, of its name, goes back 111° to the left.
    static let bendPastRoadBack = ScenarioMap(grid: 10, """
               d
        
        
        
        
        
        
        
        a         b
        
        
        
        
        
        
        
                         c
        """, [("abc", ["highway": "secondary", "name": "union"]), ("bd", ["highway": "secondary", "name": "union"])])

    static let narrowCross = ScenarioMap(grid: 10, #"""
        a       e
         \     /
          \   /
           \ /
            b
           / \
          /   \
         /     \
        d       c
        """#, [("ab", ["highway": "secondary", "name": "baden"]), ("be", ["highway": "primary", "name": "gym"]),
               ("bc", ["highway": "tertiary", "name": "ritter"]), ("db", ["highway": "primary", "name": "baden"])])

    static let threeWayOnThroughStreet = ScenarioMap(grid: 10, """
          d
        a b c
        """, [("abc", ["highway": "primary"]), ("db", ["highway": "primary"])])

    static let nonObviousNextToService = ScenarioMap(grid: 10, """
                            c
                           .
                           .
                           .
                           .
                           .
                         .
                         .
                         .
                         .
                         .
        a - - - - - - - b - - - d
                        |
                        |
                        |
                        |
                        |
                        |
                        |
                        e
        """, [("ab", ["highway": "primary", "name": "in"]), ("bc", ["highway": "primary", "name": "through"]),
              ("be", ["highway": "primary", "name": "through"]), ("bd", ["highway": "service", "name": ""])])

    static func followingMajorRoad(_ side: [String: String]) -> ScenarioMap {
        ScenarioMap(grid: 10, """
            a-b-d
                c
            """, [("abc", ["highway": "primary"]), ("bd", side)])
    }

    static let straightOntoLowPriority = ScenarioMap(grid: 10, """
        a b c
        """, [("ab", ["highway": "residential", "name": "road"]), ("bc", ["highway": "service", "name": "service"])])

    static let lowPriorityWithDriveway = ScenarioMap(grid: 10, """
              f
        a b   c
        """, [("ab", ["highway": "residential", "name": "road"]), ("bc", ["highway": "service", "name": ""]),
              ("bf", ["highway": "driveway", "name": ""])])

    static let driveway = ScenarioMap(grid: 5, """
          a
           ~.
             b----c----d
             |
             e
        """, [("abc", ["highway": "trunk", "name": "first", "oneway": "yes"]),
              ("cd", ["highway": "trunk", "name": "second", "oneway": "yes"]),
              ("be", ["highway": "service", "name": "parking", "oneway": "yes"])])

    static func doubleThroughStreet(cross: [String: String]) -> ScenarioMap {
        ScenarioMap(grid: 10, """
              c
            a b e
              d
            """, [("abe", ["highway": "primary"]), ("cbd", cross)])
    }
}

@Suite("OSRM's guidance scenarios as ASCII maps, through RouteTurns with a car: through roads and side roads")
struct ThroughRoadScenarioTests {
    typealias S = Scenarios

    static let cases: [GuidanceScenario] = [
        // A side road 14° off a straight road of the same class: no fork, the through road is straight.
        GuidanceScenario(name: "fork.feature: Don't Fork when leaving Road", map: S.dontForkLeavingRoad, route: "abc",
                         rows: [], tolerated: [straightOn("b")]),
        GuidanceScenario(name: "fork.feature: Don't Fork when leaving Road", map: S.dontForkLeavingRoad, route: "abd",
                         rows: [ScenarioRow("b", "Bear right", "Keep right")]),
        GuidanceScenario(name: "fork.feature: Do not fork on service", map: S.dontForkOnService, route: "abc",
                         rows: [], tolerated: [straightOn("b")]),
        GuidanceScenario(name: "fork.feature: Do not fork on service", map: S.dontForkOnService, route: "abd",
                         rows: [ScenarioRow("b", "Bear right", "Keep right")]),
        GuidanceScenario(name: "fork.feature: Non-Fork on complex intersection - right", map: S.nonForkComplexRight,
                         route: "abd", rows: [], tolerated: [straightOn("b")]),
        GuidanceScenario(name: "fork.feature: Non-Fork on complex intersection - right", map: S.nonForkComplexRight,
                         route: "abc", rows: [ScenarioRow("b", "Bear left", "Keep left")]),
        GuidanceScenario(name: "fork.feature: Tripple fork -- middle obvious", map: S.tripleForkMiddleObvious,
                         route: "abd", rows: [], tolerated: [straightOn("b")]),
        GuidanceScenario(name: "fork.feature: Tripple fork -- middle obvious", map: S.tripleForkMiddleObvious,
                         route: "abc", rows: [ScenarioRow("b", "Bear left", "Keep left")]),
        GuidanceScenario(name: "fork.feature: Tripple fork -- middle obvious", map: S.tripleForkMiddleObvious,
                         route: "abe", rows: [ScenarioRow("b", "Bear right", "Keep right")]),
        // Two equal unnamed service roads 8° apart: OSRM finds the straighter one obvious and says
        // nothing on it; a road book calls two equal roads that close a fork, both ways.
        GuidanceScenario(name: "obvious-turn-discovery.feature: Straight on unnamed service", map: S.straightOnUnnamedService,
                         route: "abc", rows: [], tolerated: [straightOn("b"), ScenarioRow("b", "Keep left at fork")]),
        GuidanceScenario(name: "obvious-turn-discovery.feature: Straight on unnamed service", map: S.straightOnUnnamedService,
                         route: "abd", rows: [ScenarioRow("b", "Bear right", "Keep right", "Keep right at fork")]),
        // Two residential roads 14° apart, the named one bearing left: OSRM finds straight on
        // obvious (a name change, no row) and the road bearing left a "continue left". A road book
        // may call two equal roads that close a fork.
        GuidanceScenario(name: "obvious-turn-discovery.feature: Slight End of Road", map: S.slightEndOfRoad,
                         route: "abc", rows: [], tolerated: [straightOn("b"), ScenarioRow("b", "Keep right at fork")]),
        GuidanceScenario(name: "obvious-turn-discovery.feature: Slight End of Road", map: S.slightEndOfRoad,
                         route: "abd", rows: [ScenarioRow("b", "Bear left", "Keep left", "Keep left at fork")]),
        GuidanceScenario(name: "obvious-turn-discovery.feature: Turning tertiary next to residential", map: S.turningTertiary,
                         route: "abc", rows: [], tolerated: [straightOn("b")]),
        // OSRM: "continue right"; the tertiary leaves b about 63° right, where turn and bear meet.
        GuidanceScenario(name: "obvious-turn-discovery.feature: Turning tertiary next to residential", map: S.turningTertiary,
                         route: "abde", rows: [ScenarioRow("b", "Turn right", "Bear right")]),
        GuidanceScenario(name: "obvious-turn-discovery.feature: Narrow cross", map: S.narrowCross, route: "abc",
                         rows: [], tolerated: [straightOn("b")]),
        GuidanceScenario(name: "obvious-turn-discovery.feature: Narrow cross", map: S.narrowCross, route: "abd",
                         rows: [ScenarioRow("b", "Turn right")]),
        GuidanceScenario(name: "turn.feature: Three Way Intersection on Through Street", map: S.threeWayOnThroughStreet,
                         route: "abc", rows: []),
        GuidanceScenario(name: "turn.feature: Three Way Intersection on Through Street", map: S.threeWayOnThroughStreet,
                         route: "abd", rows: [ScenarioRow("b", "Turn left")]),
        GuidanceScenario(name: "turn.feature: Three Way Intersection on Through Street", map: S.threeWayOnThroughStreet,
                         route: "cbd", rows: [ScenarioRow("b", "Turn right")]),
        GuidanceScenario(name: "turn.feature: Non-Obvious Turn Next to service road", map: S.nonObviousNextToService,
                         route: "abc", rows: [ScenarioRow("b", "Turn left")]),
        // OSRM says nothing (the primary road bears right 27°); a rider seeing the road straight on
        // needs the row. Straight on, OSRM's "turn straight" is our "Straight on".
        GuidanceScenario(name: "suppressed.feature: Don't Announce Turn on following major road class -- residential",
                         map: S.followingMajorRoad(["highway": "residential"]), route: "abc",
                         rows: [ScenarioRow("b", "Bear right", "Keep right")]),
        GuidanceScenario(name: "suppressed.feature: Don't Announce Turn on following major road class -- residential",
                         map: S.followingMajorRoad(["highway": "residential"]), route: "abd",
                         rows: [ScenarioRow("b", "Straight on")]),
        // A service road straight ahead is most often a driveway or a car park: as OSRM, no row
        // (the primary road is the obvious way on); a row saying the bend is not wrong either.
        GuidanceScenario(name: "suppressed.feature: Don't Announce Turn on following major road class -- service",
                         map: S.followingMajorRoad(["highway": "service"]), route: "abc",
                         rows: [], tolerated: [ScenarioRow("b", "Bear right", "Keep right")]),
        // A private one is no choice for a car: no row.
        GuidanceScenario(name: "suppressed.feature: Don't Announce Turn on following major road class -- service (bd private)",
                         map: S.followingMajorRoad(["highway": "service", "access": "private"]), route: "abc", rows: []),
        GuidanceScenario(name: "low-priority.feature: Straight onto low-priority", map: S.straightOntoLowPriority,
                         route: "abc", rows: []),
        GuidanceScenario(name: "low-priority.feature: Straight onto low-priority, with driveway", map: S.lowPriorityWithDriveway,
                         route: "abc", rows: []),
        GuidanceScenario(name: "low-priority.feature: Straight onto low-priority, with driveway", map: S.lowPriorityWithDriveway,
                         route: "cba", rows: []),
        GuidanceScenario(name: "driveway.feature: Road with a turn to service road", map: S.driveway, route: "abcd", rows: []),
        GuidanceScenario(name: "turn.feature: Four Way Intersection Double Through Street (cbd a footway)",
                         map: S.doubleThroughStreet(cross: ["highway": "footway"]), route: "abe", rows: []),
        GuidanceScenario(name: "turn.feature: Four Way Intersection Double Through Street (cbd steps)",
                         map: S.doubleThroughStreet(cross: ["highway": "steps"]), route: "abe", rows: []),
        GuidanceScenario(name: "turn.feature: Four Way Intersection Double Through Street (cbd a path)",
                         map: S.doubleThroughStreet(cross: ["highway": "path"]), route: "abe", rows: []),
        // The street's bend is the way on; the road back is no rival (OSRM says nothing).
        GuidanceScenario(name: "Helsinki: a street bending 49° past a road going back 111°", map: S.bendPastRoadBack,
                         route: "abc", rows: []),
        GuidanceScenario(name: "Helsinki: a street bending 49° past a road going back 111°", map: S.bendPastRoadBack,
                         route: "abd", rows: [ScenarioRow("b", "End of road, turn left", "Turn sharp left", "Turn left")]),
    ]

    @Test("the rows of each scenario", arguments: cases)
    func scenario(_ c: GuidanceScenario) {
        ScenarioCheck.check(c)
    }
}
