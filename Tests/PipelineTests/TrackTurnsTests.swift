import Foundation
import Geo
import Model
import Pipeline
import Testing
import TestSupport

/// Seeded noise, so a noisy track is the same on every run.
private struct SeededNoise {
    var generator: SeededGenerator
    init(state: UInt64) { generator = SeededGenerator(seed: state) }
    mutating func next() -> Double { Double(generator.next() >> 11) / Double(1 << 53) }
    /// A normal deviate with standard deviation `sigma` (Box–Muller).
    mutating func gaussian(_ sigma: Double) -> Double {
        let u = max(next(), 1e-12), v = next()
        return sigma * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}

@Suite("Turns from a bare track's change of heading")
struct TrackTurnsTests {
    let grid = MetreGrid()

    /// East 500 m, then south 500 m: one right turn at 500 m. A point every 5 m.
    var lShape: [(Double, Double)] {
        (0...100).map { (Double($0) * 5, 0) } + (1...100).map { (500, -Double($0) * 5) }
    }

    func track(_ points: [(Double, Double)], noise sigma: Double = 0, seed: UInt64 = 1) -> [Coordinate] {
        var noise = SeededNoise(state: seed)
        return points.map { grid($0.0 + (sigma > 0 ? noise.gaussian(sigma) : 0), $0.1 + (sigma > 0 ? noise.gaussian(sigma) : 0)) }
    }

    @Test("a clean L-shaped track gives exactly one right turn at the corner, the same twice")
    func cleanCorner() throws {
        let line = track(lShape)
        let first = TrackTurns().maneuvers(in: line)
        #expect(first.count == 1)
        let m = try #require(first.first)
        #expect(m.kind == .turn && m.modifier == .right)
        #expect(abs(m.distanceAlong - 500) <= 5, "\(m.distanceAlong)")
        #expect(abs(m.turnAngle - 90) < 3, "\(m.turnAngle)")
        #expect(TrackTurns().maneuvers(in: line) == first)
        #expect(Instructions.english.text(for: m) == "Turn right")
        let tulip = TulipBuilder.tulip(for: m)
        #expect(tulip.roads.count == 2)
        #expect(tulip.entry?.angle == 180)
        #expect(abs((tulip.exit?.angle ?? 0) - 90) < 3)
    }

    @Test("the same track with seeded GPS noise of 3 to 5 m gives the same single right turn", arguments: [3.0, 4.0, 5.0])
    func noisyCorner(sigma: Double) throws {
        for seed: UInt64 in [1, 2, 3, 42] {
            let found = TrackTurns().maneuvers(in: track(lShape, noise: sigma, seed: seed))
            #expect(found.count == 1, "σ \(sigma) m, seed \(seed): \(found.map { (Int($0.coordinate.distance(to: grid(500, 0))), Int($0.turnAngle)) })")
            guard let m = found.first else { continue }
            #expect(m.modifier == .right, "σ \(sigma) m, seed \(seed): \(m.turnAngle)")
            // Noise lengthens the line, so the place is checked on the ground, not by distance along.
            let miss = m.coordinate.distance(to: grid(500, 0))
            #expect(miss <= 20, "σ \(sigma) m, seed \(seed): \(miss) m from the corner")
        }
    }

    @Test("a gently curving road (radius 300 m through 90°) gives no turn, clean or noisy")
    func gentleCurve() {
        // A straight, a quarter circle of radius 300 m curving right, a straight.
        var points: [(Double, Double)] = (0..<40).map { (Double($0) * 5 - 200, 300) }
        let steps = Int(300 * Double.pi / 2 / 5)
        for k in 0...steps {
            let a = Double(k) / Double(steps) * .pi / 2
            points.append((300 * sin(a), 300 * cos(a)))
        }
        points += (1...40).map { (300, -Double($0) * 5) }
        #expect(TrackTurns().maneuvers(in: track(points)).isEmpty)
        #expect(TrackTurns().maneuvers(in: track(points, noise: 4, seed: 7)).isEmpty)
    }

    @Test("a left hairpin and a U-turn are named from their angle")
    func hairpinAndUTurn() throws {
        // North 300 m, then back down south-west at 150° to the left.
        let back = (1...60).map { k in (-Double(k) * 5 * sin(30 * Double.pi / 180), 300 - Double(k) * 5 * cos(30 * Double.pi / 180)) }
        let hairpin = (0...60).map { (0.0, Double($0) * 5) } + back
        let m = try #require(TrackTurns().maneuvers(in: track(hairpin)).first)
        #expect(m.modifier == .sharpLeft, "\(m.turnAngle)")
        // Out and back along a road 10 m wide.
        let uTurn = (0...60).map { (0.0, Double($0) * 5) } + (0...60).map { (-10.0, 300 - Double($0) * 5) }
        let u = TrackTurns().maneuvers(in: track(uTurn))
        #expect(u.map(\.kind) == [.uTurn], "\(u.map(\.turnAngle))")
    }
}
