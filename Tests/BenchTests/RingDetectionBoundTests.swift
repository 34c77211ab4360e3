import Foundation
import Testing
import Geo
@testable import roadbook_bench

/// A line through the local frame's points (x east, y north, metres) round a point in Andorra.
private func line(_ points: [(Double, Double)]) -> Polyline {
    let frame = LocalFrame(origin: Coordinate(latitude: 42.5, longitude: 1.5))
    return Polyline(points.map { frame.unproject(x: $0.0, y: $0.1) })
}

/// A road running east from x = −200 m to x = 200 m past a ring of `radius` metres whose island
/// it rounds on one side: from x = 0 it follows half a circle of that radius (points every 2°), so it
/// strays from its line by the radius over twice the radius, as a car passing a roundabout straight.
private func roadPassing(ringOf radius: Double) -> Polyline {
    var points: [(Double, Double)] = [(-200, 0)]
    for k in stride(from: 180.0, through: 0, by: -2) {
        let a = k * .pi / 180
        points.append((radius + radius * cos(a), radius * sin(a)))
    }
    points.append((200, 0))
    return line(points)
}

@Suite("The ideal reader's bound for shape mode on scattered tracks")
struct RingDetectionBoundTests {
    let bound = RingDetectionBound(scatter: 3, fixSpacing: 10)
    /// Where `roadPassing(ringOf:)` enters its ring, 200 m along the road: the frame's origin.
    let entry = Coordinate(latitude: 42.5, longitude: 1.5)

    @Test("the test's threshold is the normal distribution's upper quantile, as tables give it")
    func quantiles() {
        // Standard normal upper quantiles, from any printed table: z(0.05) = 1.6449, z(0.01) = 2.3263,
        // z(0.001) = 3.0902.
        #expect(abs(RingDetectionBound.upperQuantile(0.05) - 1.6449) < 0.0001)
        #expect(abs(RingDetectionBound.upperQuantile(0.01) - 2.3263) < 0.0001)
        #expect(abs(RingDetectionBound.upperQuantile(0.001) - 3.0902) < 0.0001)
        // At d′ = z the test finds half; Φ(1) = 0.8413 beyond it; a ring at a route's end counts as found.
        #expect(abs(RingDetectionBound.detection(2.3263, alpha: 0.01) - 0.5) < 0.0001)
        #expect(abs(RingDetectionBound.detection(3.3263, alpha: 0.01) - 0.8413) < 0.0001)
        #expect(RingDetectionBound.detection(.infinity, alpha: 0.001) == 1)
    }

    @Test("a road with no ring is not told from itself, straight or curving steadily")
    func noRing() throws {
        let straight = line([(-200, 0), (200, 0)])
        let d = try #require(bound.separation(on: straight, from: 190, to: 230))
        #expect(d < 1e-3)
        // A steady curve of 150 m radius: the smooth road through its ends is the curve itself, but
        // for the cubic's error, which is centimetres over 50 m.
        let arc = line((0...90).map { k in let a = Double(k) * .pi / 180; return (150 * sin(a), 150 - 150 * cos(a)) })
        let curving = try #require(bound.separation(on: arc, from: 80, to: 130))
        #expect(curving < 0.05, "d′ \(curving)")
    }

    @Test("a larger ring is told better, and more scatter hides it")
    func ringSize() throws {
        let small = bound.separations(of: [entry], on: roadPassing(ringOf: 6))
        let large = bound.separations(of: [entry], on: roadPassing(ringOf: 15))
        #expect(small[0] > 0.5)
        #expect(large[0] > 2 * small[0], "d′ \(small[0]) and \(large[0])")
        let scattered = RingDetectionBound(scatter: 6, fixSpacing: 10)
        let halved = scattered.separations(of: [entry], on: roadPassing(ringOf: 15))
        #expect(abs(halved[0] - large[0] / 2) < 1e-9)
    }

    @Test("a ring too near the route's end to read the road beyond it counts as found")
    func nearTheEnd() {
        let short = line([(0, 0), (25, 0)])
        #expect(bound.separations(of: [entry], on: short) == [.infinity])
    }
}
