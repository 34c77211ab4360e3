import Foundation
import Geo
import Model
@testable import OSM
import Testing
import TestSupport

/// A track along `points` (metres on the map's grid) every 10 m, each fix pushed 3–6 m in a
/// seeded random direction.
private func noisyTrack(_ map: AsciiMap, _ points: [(Double, Double)], seed: UInt64) -> [Coordinate] {
    var random = SeededGenerator(seed: seed)
    return map.grid.line(points, step: 10).map { c in
        let angle = Double.random(in: 0..<360, using: &random)
        let offset = Double.random(in: 3...6, using: &random)
        return c.coordinate(atDistance: offset, bearing: angle)
    }
}

/// Whether the node path steps from `a` straight to `b` anywhere.
private func steps(_ nodes: [Int], _ a: Int, _ b: Int) -> Bool {
    zip(nodes, nodes.dropFirst()).contains { $0 == a && $1 == b }
}

@Suite("The matcher keeps to one-way roads, turn restrictions and the ends of a track")
struct MatcherRulesTests {
    // A divided road, x east and y north in metres: a single road w–x, two one-way carriageways
    // 16 m apart from x to y (right-hand traffic: eastbound on the south one, s1 s2 s3;
    // westbound on the north one, n3 n2 n1), joined at the median gap by s2–n2, then y–e.
    //
    //            n1 ←— n2 ←— n3
    //   w —— x <      |       > y —— e
    //            s1 —→ s2 —→ s3
    let divided = AsciiMap(gridSize: 10, "w", nodes: [
        "x": (100, 0), "a": (150, -8), "b": (300, -8), "c": (450, -8),
        "p": (150, 8), "q": (300, 8), "r": (450, 8), "y": (500, 0), "e": (600, 0),
    ], ways: [
        ("wx", ["highway": "primary"]),
        ("xabcy", ["highway": "primary", "oneway": "yes"]),
        ("yrqpx", ["highway": "primary", "oneway": "yes"]),
        ("bq", ["highway": "primary"]),
        ("ye", ["highway": "primary"]),
    ])

    @Test("a noisy eastbound track down the middle of a divided road keeps to the eastbound carriageway")
    func dividedRoad() {
        let m = divided
        for seed: UInt64 in 1...6 {
            let track = noisyTrack(m, [(0, 0), (600, 0)], seed: seed)
            let match = RouteMatcher(graph: m.graph).matchTrack(track)
            let nodes = match.nodes
            // The westbound carriageway (p, q, r) and the median gap are never used.
            for n in ["p", "q", "r"] as [Character] {
                #expect(!nodes.contains(m[n].index), "seed \(seed): \(n) on the path")
            }
            #expect(steps(nodes, m["x"].index, m["a"].index) && steps(nodes, m["c"].index, m["y"].index), "seed \(seed)")
            // No junction on the way turns: no phantom "left then right" across the median.
            let turns = JunctionFinder(graph: m.graph).junctions(along: match).filter { abs($0.turnAngle ?? 0) > 30 }
            #expect(turns.isEmpty, "seed \(seed): \(turns.map { $0.turnAngle ?? 0 })")
        }
    }

    // A roundabout of radius 20 m centred at (200, 0), one-way anticlockwise (right-hand traffic):
    // k (0°, east), t (90°, north), u (160°), v (200°), z (270°, south). The west arm splits at f
    // into an entry lane f→v and an exit lane u→f. Arms: east k–g, south z–h, north t–j.
    //
    //                 j
    //                 t
    //   a ——— f  < u     k ——— g
    //              v
    //                 z
    //                 h
    static func ring(_ degrees: Double) -> (x: Double, y: Double) {
        (200 + 20 * cos(degrees * .pi / 180), 20 * sin(degrees * .pi / 180))
    }
    let roundabout = AsciiMap(gridSize: 10, "a", nodes: [
        "f": (150, 0), "k": ring(0), "t": ring(90), "u": ring(160), "v": ring(200), "z": ring(270),
        "g": (300, 0), "h": (200, -100), "j": (200, 100),
    ], ways: [
        ("af", ["highway": "secondary"]),
        ("fv", ["highway": "secondary", "oneway": "yes"]),
        ("uf", ["highway": "secondary", "oneway": "yes"]),
        ("kt", ["highway": "secondary", "junction": "roundabout"]),
        ("tu", ["highway": "secondary", "junction": "roundabout"]),
        ("uv", ["highway": "secondary", "junction": "roundabout"]),
        ("vz", ["highway": "secondary", "junction": "roundabout"]),
        ("zk", ["highway": "secondary", "junction": "roundabout"]),
        ("kg", ["highway": "secondary"]), ("zh", ["highway": "secondary"]), ("tj", ["highway": "secondary"]),
    ])

    @Test("a noisy track into a roundabout along the middle of a split arm enters by the entry lane")
    func roundaboutEntry() {
        let m = roundabout
        // Along the arm's centre line to the ring's west point, round the south of the ring, out east.
        var points: [(Double, Double)] = [(0, 0), (180, 0)]
        for degrees in stride(from: 190.0, through: 360, by: 10) { points.append(Self.ring(degrees)) }
        points.append((300, 0))
        for seed: UInt64 in 1...6 {
            let match = RouteMatcher(graph: m.graph).matchTrack(noisyTrack(m, points, seed: seed))
            let nodes = match.nodes
            #expect(steps(nodes, m["f"].index, m["v"].index), "seed \(seed): enters by the entry lane f→v")
            #expect(!nodes.contains(m["u"].index), "seed \(seed): never by the exit lane's node u")
            #expect(steps(nodes, m["z"].index, m["k"].index) && steps(nodes, m["k"].index, m["g"].index), "seed \(seed)")
        }
    }

    // A straight road e–f–t–g, 100 m between nodes, with a side road t–x 50 m south.
    let tee = AsciiMap(gridSize: 50, """
        e f t g
            x
        """, ways: [("eftg", ["highway": "secondary"]), ("tx", ["highway": "residential"])])

    @Test("a first fix that strays 20 m into the side road beyond the start is not a U-turn")
    func noPhantomUTurnAtTheStart() {
        // Characters are 50 m apart in the drawing: t is at (200, 0), x at (200, −50).
        let m = tee
        #expect(abs(m["t"].x - 200) < 0.01)
        // The vehicle starts 5 m west of t heading west; its second fix is (202, −20), 20 m down
        // the side road; then it runs west to e.
        let track = [(195.0, 0.0), (202, -20), (150, 0), (100, 0), (50, 0), (0, 0)].map { m.point($0.0, $0.1) }
        let match = RouteMatcher(graph: m.graph).matchTrack(track)
        #expect(match.pieces.count == 1)
        #expect(match.nodes == [m["t"].index, m["f"].index, m["e"].index])
        // So no node of the path is left the way it was entered (a U-turn junction).
        #expect(!zip(match.nodes, match.nodes.dropFirst(2)).contains { $0 == $1 })
    }

    @Test("a routed line that ends between nodes keeps its last junction")
    func lastJunctionBeforeAnEndBetweenNodes() throws {
        // Grid 20 m: a main road a…k, and at j a side road south to x. The line starts halfway
        // between a and b, follows the nodes to j, turns right and ends halfway to x: 9 of its 11
        // vertices are nodes, so it is matched on nodes.
        let m = AsciiMap(gridSize: 20, """
            abcdefghijk
                     x
            """, ways: [("abcdefghijk", ["highway": "secondary"]), ("jx", ["highway": "residential"])])
        var line = [m.point(10, 0)]
        line += "bcdefghij".map { m[$0].coordinate }
        line.append(m.point(m["j"].x, -10))
        let match = RouteMatcher(graph: m.graph).match(line)
        #expect(match.pieces.count == 1)
        let junctions = JunctionFinder(graph: m.graph).junctions(along: match)
        // The right turn at j, 170 m along the line (10 m to b, 7 × 20 m to i, 20 m to j).
        let turn = try #require(junctions.first { $0.nodeID == m.graph.osmIDs[m["j"].index] })
        #expect(abs((turn.turnAngle ?? 0) - 90) < 1)
        #expect(abs(turn.distanceAlong - 170) < 0.5)
    }
}
