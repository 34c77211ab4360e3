import Foundation
import Geo
import Model
import OSM
import Routing
import Testing
import TestSupport

// A grid of residential streets, 100 m between letters (grid 50 m):
//
//    a - b - c
//    |   |   |
//    d - e - f
//    |   |   |
//    g - h - i
//
// Rows and columns are ways of their own. The corners a, c, g, i join two roads, the sides b, d,
// f, h three, the middle e four.
private let drawing = """
    a-b-c
    | | |
    d-e-f
    | | |
    g-h-i
    """
private let ways: [(String, [String: String])] = [
    ("abc", ["highway": "residential"]), ("def", ["highway": "residential"]), ("ghi", ["highway": "residential"]),
    ("adg", ["highway": "residential"]), ("beh", ["highway": "residential"]), ("cfi", ["highway": "residential"]),
]

// The expected seconds below are OSRM's `car.lua` and `bicycle.lua` turn functions evaluated by
// hand for these angles (turn_penalty 7.5 s, turn_bias 1.075, oncoming_turn_penalty 2 s; bicycle
// turn_penalty 6 s, turn_bias 1.4), not read from our own output:
// car, 90° right 2.1053 s; 90° left 5.3947 + 1.9253 (oncoming) = 7.3201 s; straight on 0.0069 s.
private let carRight90 = 2.1053, carLeft90 = 7.3201, carStraight = 0.0069

@Suite("Turns cost time in the embedded router, as in OSRM's profiles")
struct TurnCostTests {
    private let map = AsciiMap(gridSize: 50, drawing, ways: ways)
    private func router(_ configuration: EmbeddedRouter.Configuration = .init()) -> EmbeddedRouter {
        EmbeddedRouter(graph: graph(map, ways), configuration: configuration)
    }
    /// Halfway along g–h, and halfway along e–b: 200 m, east, left at h, straight over e.
    private var leftThenStraight: (Coordinate, Coordinate) {
        (map.point(map["g"].x + 50, map["g"].y), map.point(map["e"].x, map["e"].y + 50))
    }

    @Test("a car's left turn at a T and straight over a crossing cost what car.lua makes them cost")
    func carDuration() throws {
        let (start, end) = leftThenStraight
        let leg = try router().leg(from: start, to: end, mode: .drive)
        #expect(abs(leg.distance - 200) < 0.5)
        let onTheRoad = 200 / (25 / 3.6)
        #expect(abs(leg.duration - (onTheRoad + carLeft90 + carStraight)) < 0.01, "\(leg.duration)")
        // Where traffic keeps left, that left turn is the one towards the kerb: no waiting for a gap.
        var left = EmbeddedRouter.Configuration()
        left.leftHandTraffic = true
        let kerbSide = try router(left).leg(from: start, to: end, mode: .drive)
        #expect(abs(kerbSide.duration - (onTheRoad + carRight90 + carStraight)) < 0.01, "\(kerbSide.duration)")
    }

    @Test("a bicycle's turn costs 6 s × (angle / 90°)², less to the right, more to the left")
    func bicycleDuration() throws {
        let (start, end) = leftThenStraight
        let leg = try router().leg(from: start, to: end, mode: .cycle)
        #expect(abs(leg.duration - (200 / (15 / 3.6) + 6 * 1.4)) < 0.01, "\(leg.duration)")
        // The same way back turns right at h: 6 / 1.4 s.
        let back = try router().leg(from: end, to: start, mode: .cycle)
        #expect(abs(back.duration - (200 / (15 / 3.6) + 6 / 1.4)) < 0.01, "\(back.duration)")
    }

    @Test("walking costs no turn")
    func walking() throws {
        let (start, end) = leftThenStraight
        let leg = try router().leg(from: start, to: end, mode: .walk)
        #expect(abs(leg.duration - 200 / (5 / 3.6)) < 0.01)
    }

    @Test("of two ways of the same length, the car takes the one round the corner, not the one with two turns at junctions")
    func fewerTurns() throws {
        // From halfway along g–h to halfway along c–f: 300 m by the corner i (two roads meet there:
        // no turn cost; straight over h and f), 300 m by h, e and f (left at h, right at f).
        let start = map.point(map["g"].x + 50, map["g"].y), end = map.point(map["c"].x, map["c"].y - 50)
        let leg = try router().leg(from: start, to: end, mode: .drive)
        #expect(abs(leg.distance - 300) < 0.5)
        #expect(leg.line.contains(map["i"].coordinate) && !leg.line.contains(map["e"].coordinate), "\(leg.line)")
        #expect(abs(leg.duration - (300 / (25 / 3.6) + 2 * carStraight)) < 0.01, "\(leg.duration)")
    }
}
