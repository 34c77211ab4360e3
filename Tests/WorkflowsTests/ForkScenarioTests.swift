import Foundation
import Geo
import Guidance
import Model
import OSM
import Testing
import TestSupport
import Workflows

// Forks of equal roads, and Ys: two roads ahead, neither the obvious way on, or a road bending past
// another on the other side. GuidanceScenarioSupport.swift says how the scenarios are drawn and
// checked.

extension Scenarios {
    /// A street splitting 6° and 24° to the left, both branches of its name.
    static let sameNameSplit = ScenarioMap(grid: 10, """
                                      d
        
        
        
        
        
        
                                      c
        
        a         b
        """, [("abc", ["highway": "secondary", "name": "union"]), ("bd", ["highway": "secondary", "name": "union"])])

    /// A primary road splitting: its name goes on 39° to the left, another primary road 59° to the right.
    static let primarySplit = ScenarioMap(grid: 10, """
                            c
        
        
        
        
        
        
        
        a         b
        
        
        
        
        
        
        
        
        
                        d
        """, [("abc", ["highway": "primary", "name": "etela"]), ("bd", ["highway": "primary", "name": "pohjois"])])

    // Two junctions of Monaco (an extract no turn pass was tuned on before it came), drawn with
    // their angles: a Y whose branches both leave straight, where OSRM says which way.

    /// An unnamed primary road splitting 38° right into a tunnel of another name, past an unnamed
    /// residential street 56° left.
    static let tunnelY = ScenarioMap(grid: 10, """
                       d
        
        
        
        
        
        
        a         b
        
        
        
        
        
        
        
                            c
        """, [("ab", ["highway": "primary"]), ("bc", ["highway": "primary", "name": "tunnel"]), ("bd", ["highway": "residential"])])

    /// A primary bridge bending 35° left, its name going on, past a tertiary avenue 48° right.
    static let bridgeY = ScenarioMap(grid: 10, """
                            c
        
        
        
        
        
        
        a         b
        
        
        
        
        
        
        
        
        
        
                            d
        """, [("abc", ["highway": "primary", "name": "pont"]), ("bd", ["highway": "tertiary", "name": "alsace"])])

    /// A hairpin of a tertiary road turning 56° right, its name going on, past an unnamed
    /// residential street 61° left: nothing goes straight on.
    static let hairpinT = ScenarioMap(grid: 10, """
                       d
        
        
        
        
        
        
        
        
        a         b
        
        
        
        
        
        
        
        
                        c
        """, [("abc", ["highway": "tertiary", "name": "beausoleil"]), ("bd", ["highway": "residential"])])

    /// A primary road, "victor hugo", bending 18° left where a residential street named `side`
    /// leaves 23° right (Monaco's Avenue Victor Hugo, where the street has the road's name).
    static func nameY(_ side: String) -> ScenarioMap {
        ScenarioMap(grid: 10, """
                                                c
        
        
        
        
        
        
        
        
        
        a         b
        
        
        
        
        
        
        
        
        
                                          d
        """, [("abc", ["highway": "primary", "name": "victor hugo"]), ("bd", ["highway": "residential", "name": side])])
    }

    /// A primary road curving 24° left where an unnamed tertiary road leaves to the right, drawn
    /// in `drawing` (Monaco's Boulevard du Larvotto, where OSRM's bearings see the curve as 36°).
    static func curvingY(_ drawing: String) -> ScenarioMap {
        ScenarioMap(grid: 10, drawing, [("abc", ["highway": "primary", "oneway": "yes"]), ("bd", ["highway": "tertiary"])])
    }

    /// The tertiary road 31° right: it bends about as far as the primary.
    static let curvingYNear = curvingY("""
                          c



        a        b


                      d
        """)

    /// The tertiary road 40° right: distinctly further than the primary's 24°.
    static let curvingYFar = curvingY("""
                          c



        a        b




                       d
        """)

    /// A secondary road bending 20° right past a residential street 45° off to the left: the street
    /// leaves distinctly further off; no Y.
    static let bendPastDistinct = ScenarioMap(grid: 10, """
                            d
        
        
        
        
        
        
        
        
        
        a         b
        
        
        
                             c
        """, [("abc", ["highway": "secondary", "name": "plans"]), ("bd", ["highway": "residential"])])

    static let forkSameClass = ScenarioMap(grid: 10, """
                c
        a   b
                d
        """, [("ab", ["highway": "primary"]), ("bc", ["highway": "primary"]), ("bd", ["highway": "primary"])])

    static let forkWithOtherRoads = ScenarioMap(grid: 10, """
                c
        a   b
          e     d
        """, [("ab", ["highway": "primary"]), ("bc", ["highway": "primary"]), ("bd", ["highway": "primary"]),
              ("eb", ["highway": "primary"])])

    static let forkBothSlightRight = ScenarioMap(grid: 10, """
        a   b
                  c
                  d
        """, [("ab", ["highway": "primary"]), ("bc", ["highway": "primary"]), ("bd", ["highway": "primary"])])

    static let tripleFork = ScenarioMap(grid: 10, """
                        c
        a   b   d
                        e
        """, [("ab", ["highway": "secondary"]), ("bc", ["highway": "secondary"]), ("bd", ["highway": "secondary"]),
              ("be", ["highway": "secondary"])])
}

@Suite("OSRM's guidance scenarios as ASCII maps, through RouteTurns with a car: forks and Y junctions")
struct ForkScenarioTests {
    typealias S = Scenarios

    static let cases: [GuidanceScenario] = [
        GuidanceScenario(name: "fork.feature: Fork Same Road Class", map: S.forkSameClass, route: "abc",
                         rows: [ScenarioRow("b", "Keep left at fork")]),
        GuidanceScenario(name: "fork.feature: Fork Same Road Class", map: S.forkSameClass, route: "abd",
                         rows: [ScenarioRow("b", "Keep right at fork")]),
        GuidanceScenario(name: "fork.feature: Fork in presence of other roads", map: S.forkWithOtherRoads, route: "abc",
                         rows: [ScenarioRow("b", "Keep left at fork")]),
        GuidanceScenario(name: "fork.feature: Fork in presence of other roads", map: S.forkWithOtherRoads, route: "abd",
                         rows: [ScenarioRow("b", "Keep right at fork")]),
        GuidanceScenario(name: "fork.feature: Fork Both Turning Slight Right", map: S.forkBothSlightRight, route: "abc",
                         rows: [ScenarioRow("b", "Keep left at fork")]),
        GuidanceScenario(name: "fork.feature: Fork Both Turning Slight Right", map: S.forkBothSlightRight, route: "abd",
                         rows: [ScenarioRow("b", "Keep right at fork")]),
        GuidanceScenario(name: "fork.feature: Tripple fork", map: S.tripleFork, route: "abc",
                         rows: [ScenarioRow("b", "Keep left at fork")]),
        GuidanceScenario(name: "fork.feature: Tripple fork", map: S.tripleFork, route: "abd",
                         rows: [ScenarioRow("b", "Keep straight on at fork")]),
        GuidanceScenario(name: "fork.feature: Tripple fork", map: S.tripleFork, route: "abe",
                         rows: [ScenarioRow("b", "Keep right at fork")]),
        // A split of one street 18° apart: the branch near straight is the way on (OSRM says nothing);
        // taking the other is a bear.
        GuidanceScenario(name: "Helsinki: a street splitting 6° and 24° off, both of its name", map: S.sameNameSplit,
                         route: "abc", rows: [], tolerated: [straightOn("b")]),
        GuidanceScenario(name: "Helsinki: a street splitting 6° and 24° off, both of its name", map: S.sameNameSplit,
                         route: "abd", rows: [ScenarioRow("b", "Bear left", "Keep left", "Keep left at fork")]),
        // No way on: the name goes left, but a road of its rank goes right not much further (OSRM:
        // "end of road left").
        GuidanceScenario(name: "Helsinki: a primary road splitting 39° left (its name) and 59° right", map: S.primarySplit,
                         route: "abc", rows: [ScenarioRow("b", "Keep left at fork", "Bear left", "Keep left", "Turn left", "End of road, turn left")]),
        // A Y: the way on leaves straight too, and the other branch not distinctly further (OSRM
        // says "turn left" at both); a road leaving distinctly further is no branch of a Y.
        GuidanceScenario(name: "Monaco: a primary road splitting 38° right into a tunnel, a street 56° left", map: S.tunnelY,
                         route: "abc", rows: [ScenarioRow("b", "Bear right", "Keep right")]),
        GuidanceScenario(name: "Monaco: a primary road splitting 38° right into a tunnel, a street 56° left", map: S.tunnelY,
                         route: "abd", rows: [ScenarioRow("b", "Bear left", "Keep left", "Turn left")]),
        GuidanceScenario(name: "Monaco: a bridge bending 35° left, its name on, past an avenue 48° right", map: S.bridgeY,
                         route: "abc", rows: [ScenarioRow("b", "Bear left", "Keep left")]),
        GuidanceScenario(name: "Monaco: a hairpin turning 56° right, its name on, past a street 61° left", map: S.hairpinT,
                         route: "abc", rows: [ScenarioRow("b", "Bear right", "Turn right", "Keep right")]),
        GuidanceScenario(name: "a road bending 20° right past a street 45° off to the left", map: S.bendPastDistinct,
                         route: "abc", rows: []),
        // Both branches carry the road's name: the rider cannot follow the name, so the row says which
        // branch; under another name the lesser street is no way on (OSRM: "continue slight left").
        GuidanceScenario(name: "Monaco: a primary road bending 18° left, a street of its name 23° right", map: S.nameY("victor hugo"),
                         route: "abc", rows: [ScenarioRow("b", "Straight on", "Bear left", "Keep left")]),
        GuidanceScenario(name: "Monaco: a primary road bending 18° left, a street of its name 23° right", map: S.nameY("victor hugo"),
                         route: "abd", rows: [ScenarioRow("b", "Bear right", "Keep right")]),
        GuidanceScenario(name: "a primary road bending 18° left, a street of another name 23° right", map: S.nameY("lamartine"),
                         route: "abc", rows: []),
        // Both branches of a Y bend, the other about as far: nothing goes straight on (OSRM: "turn
        // slight left"). Bending distinctly further, the other road is a side road: no row.
        GuidanceScenario(name: "Monaco: a primary road curving 24° left, a tertiary road 31° right",
                         map: S.curvingYNear, route: "abc", rows: [ScenarioRow("b", "Bear left", "Keep left")]),
        GuidanceScenario(name: "a primary road curving 24° left, a tertiary road 40° right",
                         map: S.curvingYFar, route: "abc", rows: []),
    ]

    @Test("the rows of each scenario", arguments: cases)
    func scenario(_ c: GuidanceScenario) {
        ScenarioCheck.check(c)
    }
}
