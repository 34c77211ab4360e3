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
