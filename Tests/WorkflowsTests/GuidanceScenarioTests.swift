import Foundation
import Geo
import Guidance
import Model
import OSM
import Testing
import TestSupport
import Workflows

// Junction scenarios ported from OSRM's guidance features (features/guidance/*.feature in
// https://github.com/Project-OSRM/osrm-backend, BSD-2-Clause), run through the chain the product
// uses: `RouteTurns.maneuvers(along:graph:mode:)` matches the route onto the car's junction graph
// and runs the turn passes. Each case names its feature file and scenario; the drawing, the grid
// size and the tags are the feature's, with OSRM's test defaults (a way without `highway` is
// `primary`, a way without a `name` column is named after its nodes). Where a scenario is changed
// (a road made a footway or private) the name says so in parentheses.
//
// The expected rows are OSRM's expectation in our words. Where a rally road book needs something
// else than a navigation voice (OSRM says nothing when the route follows the more important road
// through a bend; a rider who sees a road straight on needs the row), the case says so and why.
// A row is checked by its words (the phrase, then nothing or " onto …"), the node it stands at
// (within `GuidanceScenarioTests.placeTolerance`) and, at a roundabout, its exit number. Rows a
// case tolerates ("Straight on" past a road that could be mistaken for the way on) may appear or
// not; any other row fails the case.

/// An OSRM scenario's road network: the drawing, and the graph built from its ways' tags as the
/// OpenStreetMap reader builds it (`WayInfo(id:highway:tags:)`: access tags, implied oneways).
struct ScenarioMap: Sendable {
    let ascii: AsciiMap
    let graph: RoadGraph
    /// What the map was drawn from, so it can be drawn again mirrored.
    let grid: Double, drawing: String, ways: [(String, [String: String])]

    /// - Parameters:
    ///   - grid: the feature's grid size in metres.
    ///   - drawing: the feature's node map.
    ///   - ways: each way's nodes and its tags; OSRM's test defaults fill `highway` (`primary`) and
    ///     `name` (the nodes); an empty `name` means none.
    init(grid: Double, _ drawing: String, _ ways: [(String, [String: String])]) {
        let tagged: [(String, [String: String])] = ways.map { nodes, tags in
            var tags = tags
            if tags["highway"] == nil { tags["highway"] = "primary" }
            if tags["name"] == nil { tags["name"] = nodes } else if tags["name"] == "" { tags["name"] = nil }
            if tags["ref"] == "" { tags["ref"] = nil }
            if tags["oneway"] == "" { tags["oneway"] = nil }
            return (nodes, tags)
        }
        (self.grid, self.drawing, self.ways) = (grid, drawing, ways)
        let ascii = AsciiMap(gridSize: grid, drawing, ways: tagged)
        self.ascii = ascii
        graph = RoadGraph(coordinates: ascii.graph.coordinates, osmIDs: ascii.graph.osmIDs,
                          ways: tagged.enumerated().map { i, way in
                              WayInfo(id: Int64(i + 1), highway: way.1["highway"]!, tags: way.1)
                          },
                          wayNodes: tagged.map { $0.0.map { ascii[$0].index } })
    }

    /// The same map seen in a mirror, east for west: every way keeps its nodes and tags, so a ring
    /// drawn anticlockwise (traffic keeping right) runs clockwise (traffic keeping left), as the
    /// same junction is built where traffic keeps left.
    var mirrored: ScenarioMap {
        let lines = drawing.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let width = lines.map(\.count).max() ?? 0
        let flipped = lines.map { line in
            String((line + String(repeating: " ", count: width - line.count)).reversed().map { c -> Character in
                switch c { case "/": "\\"; case "\\": "/"; default: c }
            })
        }
        return ScenarioMap(grid: grid, flipped.joined(separator: "\n"), ways)
    }
}

/// A row as a case expects it: at one of the nodes `at`, saying one of `words` (a phrase, matched
/// whole, optionally followed by " onto …"), and at a roundabout its exit number.
struct ScenarioRow: Sendable, CustomStringConvertible {
    var at: String
    var words: [String]
    var exit: Int?

    init(_ at: String, _ words: String..., exit: Int? = nil) {
        self.at = at
        self.words = words
        self.exit = exit
    }

    var description: String { words.joined(separator: " | ") + " at " + at }

    /// Whether `text` says one of the phrases.
    func says(_ text: String) -> Bool {
        words.contains { text == $0 || text.hasPrefix($0 + " onto ") }
    }
}

struct GuidanceScenario: Sendable, CustomStringConvertible {
    var name: String
    var map: ScenarioMap
    /// The nodes the route passes, in order.
    var route: String
    var rows: [ScenarioRow]
    /// Rows that may appear or not.
    var tolerated: [ScenarioRow] = []

    var description: String { "\(name): \(route.first!)→\(route.last!)" }
}

/// "Straight on" (or at crossroads) at a node: a reminder past a road that could be mistaken for
/// the way on, which a rider may get and OSRM never says.
private func straightOn(_ at: String) -> ScenarioRow { ScenarioRow(at, "Straight on", "Straight on at crossroads") }

/// A slip road or ramp off a through road: the rider bears onto it (OSRM: "off ramp slight right",
/// "on ramp slight right", "turn slight right"). "Keep right" would say the same; a fork would not,
/// since the roads are not equal.
private func slip(_ at: String, right: Bool) -> ScenarioRow {
    right ? ScenarioRow(at, "Bear right", "Keep right") : ScenarioRow(at, "Bear left", "Keep left")
}

enum Scenarios {
    // MARK: Slip roads and ramps

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

    // MARK: Divided roads

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

    // MARK: Through roads, side roads, negatives

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
    /// A street splitting 6° and 24° to the left, both branches of its name.
    static let sameNameSplit = ScenarioMap(grid: 10, """
                                      d
        
        
        
        
        
        
                                      c
        
        a         b
        """, [("abc", ["highway": "secondary", "name": "union"]), ("bd", ["highway": "secondary", "name": "union"])])

    /// A street bending 49° right where the only other road, of its name, goes back 111° to the left.
    static let bendPastRoadBack = ScenarioMap(grid: 10, """
               d
        
        
        
        
        
        
        
        a         b
        
        
        
        
        
        
        
                         c
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

    /// A secondary road bending 20° right past a residential street 45° off to the left: the street
    /// leaves distinctly further off; no Y.
    static let bendPastDistinct = ScenarioMap(grid: 10, """
                            d
        
        
        
        
        
        
        
        
        
        a         b
        
        
        
                             c
        """, [("abc", ["highway": "secondary", "name": "plans"]), ("bd", ["highway": "residential"])])

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

    static func turningMajorRoad(side: String = "residential") -> ScenarioMap {
        ScenarioMap(grid: 10, """
                  c


            a     b

                  d
            """, [("abc", ["highway": "primary", "name": "road"]), ("bd", ["highway": side, "name": "in"])])
    }

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

    // MARK: End of road

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

    // MARK: Forks

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

    // MARK: Roundabouts

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

    // MARK: Staggered junctions

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

@Suite("OSRM's guidance scenarios as ASCII maps, through RouteTurns with a car")
struct GuidanceScenarioTests {
    /// How far (metres) a row may stand from its node.
    static let placeTolerance: Metres = 6

    typealias S = Scenarios

    static let cases: [GuidanceScenario] = [
        // MARK: Slip roads and ramps
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

        // MARK: Divided roads
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

        // MARK: Through roads with side roads
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

        // MARK: End of road
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

        // MARK: Forks of equal roads
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

        // MARK: Roundabouts (the row stands where the route enters the ring)
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

        // MARK: Staggered junctions (1 m grid, as the feature draws them)
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

        // MARK: Helsinki's centre
        // A split of one street 18° apart: the branch near straight is the way on (OSRM says nothing);
        // taking the other is a bear.
        GuidanceScenario(name: "Helsinki: a street splitting 6° and 24° off, both of its name", map: S.sameNameSplit,
                         route: "abc", rows: [], tolerated: [straightOn("b")]),
        GuidanceScenario(name: "Helsinki: a street splitting 6° and 24° off, both of its name", map: S.sameNameSplit,
                         route: "abd", rows: [ScenarioRow("b", "Bear left", "Keep left", "Keep left at fork")]),
        // The street's bend is the way on; the road back is no rival (OSRM says nothing).
        GuidanceScenario(name: "Helsinki: a street bending 49° past a road going back 111°", map: S.bendPastRoadBack,
                         route: "abc", rows: []),
        GuidanceScenario(name: "Helsinki: a street bending 49° past a road going back 111°", map: S.bendPastRoadBack,
                         route: "abd", rows: [ScenarioRow("b", "End of road, turn left", "Turn sharp left", "Turn left")]),
        // No way on: the name goes left, but a road of its rank goes right not much further (OSRM:
        // "end of road left").
        GuidanceScenario(name: "Helsinki: a primary road splitting 39° left (its name) and 59° right", map: S.primarySplit,
                         route: "abc", rows: [ScenarioRow("b", "Keep left at fork", "Bear left", "Keep left", "Turn left", "End of road, turn left")]),

        // MARK: Monaco
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
                #expect(TulipBuilder.tulip(for: m).roundabout?.clockwise == clockwise, "\(c.description): \(Self.describe(m, on: map))")
            }
        }
    }

    /// A row as found: its words and the nearest node of the map.
    static func describe(_ m: Maneuver, on map: ScenarioMap) -> String {
        let nearest = map.ascii.nodes.min { a, b in
            a.value.coordinate.distance(to: m.coordinate) < b.value.coordinate.distance(to: m.coordinate)
        }
        let text = Instructions.english.text(for: m)
        guard let nearest else { return text }
        let d = nearest.value.coordinate.distance(to: m.coordinate)
        return d <= placeTolerance ? "\(text) at \(nearest.key)" : "\(text) \(Int(d.rounded())) m from \(nearest.key)"
    }

    /// Whether maneuver `m` is `row`: its words, its place and its exit number.
    static func matches(_ m: Maneuver, _ row: ScenarioRow, on map: ScenarioMap) -> Bool {
        guard row.says(Instructions.english.text(for: m)) else { return false }
        guard row.at.contains(where: { map.ascii[$0].coordinate.distance(to: m.coordinate) <= placeTolerance }) else {
            return false
        }
        if let exit = row.exit, m.exitNumber != exit { return false }
        return true
    }

    @Test("the rows of each scenario", arguments: cases)
    func scenario(_ c: GuidanceScenario) {
        let route = c.map.ascii.route(Array(c.route))
        let found = RouteTurns.maneuvers(along: route.line, graph: c.map.graph, mode: .drive).maneuvers
        let kept = found.filter { m in !c.tolerated.contains { Self.matches(m, $0, on: c.map) } }
        let got = found.map { Self.describe($0, on: c.map) }
        let ok = kept.count == c.rows.count && zip(kept, c.rows).allSatisfy { Self.matches($0, $1, on: c.map) }
        let expected = c.rows.isEmpty ? "no row" : c.rows.map(\.description).joined(separator: "; ")
        #expect(ok, "SCENARIO \(c.description) | got: \(got.isEmpty ? "no row" : got.joined(separator: "; ")) | expected: \(expected)")
    }
}
