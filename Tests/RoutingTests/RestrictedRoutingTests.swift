import Foundation
import Geo
import Model
import OSM
import Routing
import Testing
import TestSupport

// A T-junction at c with a loop round the block, 100 m between letters (grid 50 m), every road residential:
//
//        n --- m
//        |     |
//  w --- c --- e
//
// Way 1 w→c, way 2 c→e, way 3 c→n, way 4 e→m→n. Going east along way 1, north (way 3) is a left
// turn. The start is halfway along w–c, the end halfway along c–n: 100 m by the left turn,
// 50 + 100 + 100 + 100 + 50 = 400 m round the block by e and m.
private let drawing = """
      n-m
      | |
    w-c-e
    """
private let ways: [(String, [String: String])] = [
    ("wc", ["highway": "residential"]), ("ce", ["highway": "residential"]),
    ("cn", ["highway": "residential"]), ("emn", ["highway": "residential"]),
]

private func router(_ restrictions: [(from: Int, via: Character, to: Int, tags: [String: String])]) -> (AsciiMap, EmbeddedRouter) {
    let map = AsciiMap(gridSize: 50, drawing, ways: ways, restrictions: restrictions)
    return (map, EmbeddedRouter(graph: graph(map, ways)))
}

// The only way round a banned left turn at c passes e twice, 100 m between letters:
//
//        n
//        |
//  w --- c --- e --- m
//              |     |
//              s --- t
//
// From halfway along w–c to halfway along c–n, with no left turn from w–c into c–n: east to e, round
// the loop e, m, t, s back to e, west to c and right into c–n, 50 + 100 + 400 + 100 + 50 = 700 m.
// w is a dead end, where one may turn back, but that only comes back along w–c.
private let loopDrawing = """
      n
      |
    w-c-e-m
        | |
        s-t
    """
private let loopWays: [(String, [String: String])] = [
    ("wc", ["highway": "residential"]), ("ce", ["highway": "residential"]), ("cn", ["highway": "residential"]),
    ("emt", ["highway": "residential"]), ("tse", ["highway": "residential"]),
]

@Suite("The embedded router honours turn restrictions")
struct RestrictedRoutingTests {
    /// Halfway along w–c, and halfway along c–n.
    private func ends(_ map: AsciiMap) -> (Coordinate, Coordinate) {
        (map.point(map["w"].x + 50, map["w"].y), map.point(map["c"].x, map["c"].y + 50))
    }

    @Test("no_left_turn from way 1 into way 3 at c: round the block, 400 m instead of 100 m")
    func noLeftTurn() throws {
        let (map, free) = router([])
        let (start, end) = ends(map)
        #expect(abs(try free.leg(from: start, to: end, mode: .drive).distance - 100) < 0.5)
        let (_, restricted) = router([(1, "c", 3, ["restriction": "no_left_turn"])])
        let leg = try restricted.leg(from: start, to: end, mode: .drive)
        #expect(abs(leg.distance - 400) < 0.5)
        #expect(leg.line.contains(map["e"].coordinate) && leg.line.contains(map["m"].coordinate))
        // The other way, from way 3 into way 1, is not restricted: 100 m.
        #expect(abs(try restricted.leg(from: end, to: start, mode: .drive).distance - 100) < 0.5)
        // Walking is never bound by a turn restriction.
        #expect(abs(try restricted.leg(from: start, to: end, mode: .walk).distance - 100) < 0.5)
    }

    @Test("only_straight_on from way 1 at c: north is forbidden, east is the way")
    func onlyStraightOn() throws {
        let (map, r) = router([(1, "c", 2, ["restriction": "only_straight_on"])])
        let (start, end) = ends(map)
        #expect(abs(try r.leg(from: start, to: end, mode: .drive).distance - 400) < 0.5)
        #expect(abs(try r.leg(from: start, to: map["e"].coordinate, mode: .drive).distance - 150) < 0.5)
    }

    @Test("a ban whose only way round passes a junction twice: round the loop and back through c, 700 m")
    func wayRoundThroughAJunctionTwice() throws {
        let banned: [(from: Int, via: Character, to: Int, tags: [String: String])] = [(1, "c", 3, ["restriction": "no_left_turn"])]
        let map = AsciiMap(gridSize: 50, loopDrawing, ways: loopWays, restrictions: banned)
        let start = map.point(map["w"].x + 50, map["w"].y), end = map.point(map["c"].x, map["c"].y + 50)
        let free = EmbeddedRouter(graph: graph(AsciiMap(gridSize: 50, loopDrawing, ways: loopWays), loopWays))
        #expect(abs(try free.leg(from: start, to: end, mode: .drive).distance - 100) < 0.5)
        let leg = try EmbeddedRouter(graph: graph(map, loopWays)).leg(from: start, to: end, mode: .drive)
        #expect(abs(leg.distance - 700) < 0.5, "\(leg.distance)")
        #expect([map["m"], map["t"], map["s"]].allSatisfy { leg.line.contains($0.coordinate) })
    }

    @Test("no_left_turn except=motorcar binds the bicycle, not the car")
    func exceptMotorcar() throws {
        let (map, r) = router([(1, "c", 3, ["restriction": "no_left_turn", "except": "motorcar"])])
        let (start, end) = ends(map)
        #expect(abs(try r.leg(from: start, to: end, mode: .drive).distance - 100) < 0.5)
        #expect(abs(try r.leg(from: start, to: end, mode: .cycle).distance - 400) < 0.5)
    }

    @Test("restriction:motorcar binds the car only")
    func motorcarKey() throws {
        let (map, r) = router([(1, "c", 3, ["restriction:motorcar": "no_left_turn"])])
        let (start, end) = ends(map)
        #expect(abs(try r.leg(from: start, to: end, mode: .drive).distance - 400) < 0.5)
        #expect(abs(try r.leg(from: start, to: end, mode: .cycle).distance - 100) < 0.5)
    }
}
