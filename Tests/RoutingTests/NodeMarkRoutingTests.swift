import Foundation
import Geo
import Model
import OSM
import Routing
import Testing
import TestSupport

// Barriers, gates and turning places on road nodes, as OSRM's profiles treat them: a car stops at
// a bollard that a bicycle and a pedestrian pass, opens a gate (60 s in car.lua), and may turn round
// before a barrier or at a turning circle, not only at a dead end. The expected lengths and seconds
// are worked out by hand from the drawings (residential streets, 25 km/h for a car).

/// `map`'s graph with `marks` on its nodes (node letter → tags).
private func marked(_ map: AsciiMap, _ ways: [(String, [String: String])], _ marks: [Character: [String: String]]) -> RoadGraph {
    var g = graph(map, ways)
    for (letter, tags) in marks { g.nodeMarks[map[letter].index] = OSMNodeMark(tags: tags) }
    return g
}

private let street = ["highway": "residential"]

// a - b - c      a street with a bollard (or a gate) at b,
// |       |
// d - e - f      and a way round by d, e and f: 200 m straight through, 400 m round.
private let square = """
    a-b-c
    |   |
    d-e-f
    """
private let squareWays: [(String, [String: String])] = [("abc", street), ("ad", street), ("def", street), ("cf", street)]

@Suite("Barriers, gates and turning places in the embedded router")
struct NodeMarkRoutingTests {
    private let map = AsciiMap(gridSize: 50, square, ways: squareWays)

    private func leg(_ marks: [Character: [String: String]], _ mode: TravelMode, from: Character = "a", to: Character = "c") throws -> RoadLeg {
        try EmbeddedRouter(graph: marked(map, squareWays, marks)).leg(from: map[from].coordinate, to: map[to].coordinate, mode: mode)
    }

    @Test("a bollard stops a car, which goes round the block; a bicycle and a pedestrian pass it")
    func bollard() throws {
        let bollard: [Character: [String: String]] = ["b": ["barrier": "bollard"]]
        #expect(abs(try leg([:], .drive).distance - 200) < 1)
        #expect(abs(try leg(bollard, .drive).distance - 400) < 1)
        #expect(abs(try leg(bollard, .cycle).distance - 200) < 1)
        #expect(abs(try leg(bollard, .walk).distance - 200) < 1)
        // Opened to cars on the node itself, or rising: the car passes.
        #expect(abs(try leg(["b": ["barrier": "bollard", "motor_vehicle": "yes"]], .drive).distance - 200) < 1)
        #expect(abs(try leg(["b": ["barrier": "bollard", "bollard": "rising"]], .drive).distance - 200) < 1)
        // A fence stops everyone; an access tag on the node closes it to its mode only.
        #expect(abs(try leg(["b": ["barrier": "fence"]], .walk).distance - 400) < 1)
        #expect(abs(try leg(["b": ["access": "no", "foot": "yes"]], .walk).distance - 200) < 1)
        #expect(abs(try leg(["b": ["access": "no", "foot": "yes"]], .drive).distance - 400) < 1)
        // A start or an end at the barrier is reached.
        #expect(abs(try leg(bollard, .drive, to: "b").distance - 100) < 1)
    }

    @Test("a gate costs a car 60 s: through it when nothing shorter goes round, round a short block")
    func gate() throws {
        let streetSpeed = 25 / 3.6
        let line = """
            a-b-c
            """
        let straight = AsciiMap(gridSize: 50, line, ways: [("abc", street)])
        let router = EmbeddedRouter(graph: marked(straight, [("abc", street)], ["b": ["barrier": "gate"]]))
        let through = try router.leg(from: straight["a"].coordinate, to: straight["c"].coordinate, mode: .drive)
        #expect(abs(through.distance - 200) < 1)
        #expect(abs(through.duration - (200 / streetSpeed + 60)) < 0.5, "\(through.duration)")
        // Round the square the car drives 200 m more, 29 s at 25 km/h (its corners join two roads
        // each, so turning there costs nothing): less than the gate.
        #expect(abs(try leg(["b": ["barrier": "gate"]], .drive).distance - 400) < 1)
        // A bicycle does not stop at a gate.
        let cycling = try router.leg(from: straight["a"].coordinate, to: straight["c"].coordinate, mode: .cycle)
        #expect(cycling.duration < 200 / (10 / 3.6))
    }

    // a - j - t - - - - - u     a main road with a turning circle at t and a dead end at u; a
    //     |                     side street to b. Left from a-j onto j-b is forbidden.
    //     b
    private static let turning = """
        a-j-t-----u
          |
          b
        """
    private static let turningWays: [(String, [String: String])] = [("aj", street), ("jtu", street), ("jb", street)]

    @Test("a car that may not turn left turns round at a turning circle, not at the dead end beyond it")
    func turningCircle() throws {
        let map = AsciiMap(gridSize: 50, Self.turning, ways: Self.turningWays,
                           restrictions: [(from: 1, via: "j", to: 3, tags: ["restriction": "no_right_turn"])])
        let from = map["a"].coordinate, to = map["b"].coordinate
        // Without the turning circle the car turns round at the dead end u: a-j-t-u-t-j-b.
        let plain = try EmbeddedRouter(graph: marked(map, Self.turningWays, [:])).leg(from: from, to: to, mode: .drive)
        #expect(abs(plain.distance - (100 + 400 + 400 + 100)) < 1, "\(plain.distance)")
        // With it, at t: a-j-t-j-b.
        let circle = try EmbeddedRouter(graph: marked(map, Self.turningWays, ["t": ["highway": "turning_circle"]]))
            .leg(from: from, to: to, mode: .drive)
        #expect(abs(circle.distance - (100 + 100 + 100 + 100)) < 1, "\(circle.distance)")
        // Before a barrier too: a bollard at t turns the car round there.
        let barrier = try EmbeddedRouter(graph: marked(map, Self.turningWays, ["t": ["barrier": "bollard"]]))
            .leg(from: from, to: to, mode: .drive)
        #expect(abs(barrier.distance - 400) < 1, "\(barrier.distance)")
    }
}
