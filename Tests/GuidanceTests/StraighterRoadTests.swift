import Foundation
import Geo
import Guidance
import Model
import Testing
import TestSupport

/// A row never says "Straight on" where another road the mode may take goes on nearer straight than
/// the route: a rider told "Straight on" would take that road. The row bears off it instead, to the
/// side the route lies from it. Each junction is drawn from bearings chosen by hand: the rider
/// arrives heading `heading`, so a road at compass bearing `heading + x` is `x` degrees off straight
/// (+ right); the words expected follow from those angles alone.
@Suite("Bear, not Straight on, past a road going on straighter")
struct StraighterRoadTests {
    typealias F = TurnFixtures

    /// A junction 100 m along, arriving heading `heading`, with the spokes given as (degrees off
    /// straight, highway, name, role).
    func junction(heading: Degrees, _ roads: [(Degrees, String, String?, RoadRole)], entry: (String, String?),
                  entryCanLeave: Bool = true) -> Junction {
        var spokes = [Spoke(bearing: normalizedBearing(heading + 180), role: .entry, highway: entry.0, name: entry.1,
                            canLeave: entryCanLeave)]
        spokes += roads.map { Spoke(bearing: normalizedBearing(heading + $0.0), role: $0.3, highway: $0.1, name: $0.2) }
        return Junction(coordinate: F.grid(100, 0), distanceAlong: 100, spokes: spokes)
    }

    /// The one row of `j`, its words, and what the junction pass said.
    func row(_ j: Junction) throws -> (Maneuver, String, String) {
        let trace = TurnTrace()
        let rows = TurnDetector().maneuvers(in: RoadGeometry(line: [], junctions: [j]), trace: trace)
        let m = try #require(rows.first)
        #expect(rows.count == 1)
        let why = trace.decisions.first { $0.pass == "classify junctions" }?.verdict ?? ""
        return (m, Instructions.english.text(for: m), why)
    }

    //      o  X        a primary road bending 10° right, its name carried on; a tertiary road
    //      | /         straight on: the rider must bear right, not go straight on
    //      |/
    //      *
    //      ^
    @Test("a main road bending 10° right past a road going straight on: Bear right")
    func bearsRightPastStraightRoad() throws {
        let j = junction(heading: 40, [(10, "primary", "Main Street", .exit), (0, "tertiary", nil, .side)],
                         entry: ("primary", "Main Street"))
        let (m, words, why) = try row(j)
        #expect(m.kind == .turn && m.modifier == .slightRight)
        #expect(words == "Bear right onto Main Street")
        #expect(why.contains("another road goes on straighter (0°, the route 10°), so the route bears right of it"), "\(why)")
    }

    //    X   o         a primary road bending 7° left; another primary road 3° right: the other
    //     \  |         goes on straighter, so the route bears left of it
    //      \ |
    //       *
    //       ^
    @Test("bending 7° left past a road 3° right: Bear left, the side taken from the straighter road")
    func bearsLeftPastStraighterRoad() throws {
        let j = junction(heading: 90, [(-7, "primary", "Route de la Turbie", .exit), (3, "primary", "Avenue Agerbol", .side)],
                         entry: ("primary", "Route de la Turbie"), entryCanLeave: false)
        let (m, words, _) = try row(j)
        #expect(m.kind == .turn && m.modifier == .slightLeft)
        #expect(words == "Bear left onto Route de la Turbie")
    }

    //      X o         the straighter road on the same side as the route, nearer straight: the
    //      |/          route (15° right) lies right of it (5° right)
    //      *
    //      ^
    @Test("both roads right of straight on, the route bending further: Bear right")
    func sameSide() throws {
        let j = junction(heading: 0, [(15, "primary", "Main Street", .exit), (5, "tertiary", nil, .side)],
                         entry: ("primary", "Main Street"))
        let (m, words, _) = try row(j)
        #expect(m.kind == .turn && m.modifier == .slightRight)
        #expect(words == "Bear right onto Main Street")
    }

    @Test("a slip road ending on its road 12° right where a service road goes on 2° right: Bear right")
    func slipRoadSplit() throws {
        // The slip road also splits where another slip road leaves 62° left (so it is a split, not
        // a merge); the service road is no way on for the obvious road, but a rider told "Straight
        // on" would drive into it.
        let j = junction(heading: 0, [(12, "primary", "Pont", .exit), (2, "service", nil, .side), (-62, "primary_link", nil, .side)],
                         entry: ("primary_link", nil))
        let (m, words, why) = try row(j)
        #expect(m.kind == .turn && m.modifier == .slightRight)
        #expect(words == "Bear right onto Pont")
        #expect(why.contains("a slip road splits"), "\(why)")
    }

    @Test("leaving a main road that bends 30° right, 8° right past a track going 2° right: Bear right")
    func leavingPastStraighterTrack() throws {
        // Without the track the route, 8° off straight where the road left bends 30°, goes straight on.
        let alone = junction(heading: 0, [(30, "primary", "Main Street", .side), (8, "residential", "Mill Lane", .exit)],
                             entry: ("primary", "Main Street"))
        #expect(try row(alone).1 == "Straight on")
        let j = junction(heading: 0, [(30, "primary", "Main Street", .side), (8, "residential", "Mill Lane", .exit),
                                      (2, "track", nil, .side)],
                         entry: ("primary", "Main Street"))
        let (m, words, why) = try row(j)
        #expect(m.kind == .turn && m.modifier == .slightRight)
        #expect(words == "Bear right onto Mill Lane")
        #expect(why.contains("leaves the obvious road"), "\(why)")
    }

    @Test("the route the straightest road, or about as straight as the straightest: Straight on as before")
    func straightestStaysStraightOn() throws {
        // 10° right past a road 15° left: the route is the straightest.
        let straightest = junction(heading: 0, [(10, "primary", "Main Street", .exit), (-15, "tertiary", nil, .side)],
                                   entry: ("primary", "Main Street"))
        #expect(try row(straightest).1 == "Straight on")
        // 5° right past a road 5° left: neither is nearer straight.
        let even = junction(heading: 0, [(5, "primary", "Main Street", .exit), (-5, "tertiary", nil, .side)],
                            entry: ("primary", "Main Street"))
        #expect(try row(even).1 == "Straight on")
        // 6° right past a road 4° left: within `straighterMargin` (3°) of as straight, no straighter road.
        let close = junction(heading: 0, [(6, "primary", "Main Street", .exit), (-4, "tertiary", nil, .side)],
                             entry: ("primary", "Main Street"))
        #expect(try row(close).1 == "Straight on")
        // A road the mode may not take, straighter, is no road a rider would be sent down.
        var closed = junction(heading: 0, [(10, "primary", "Main Street", .exit), (0, "tertiary", nil, .side), (-30, "tertiary", nil, .side)],
                              entry: ("primary", "Main Street"))
        closed.spokes[2].canLeave = false
        #expect(try row(closed).1 == "Straight on")
    }
}
