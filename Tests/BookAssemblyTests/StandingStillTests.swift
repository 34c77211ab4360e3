import BookAssembly
import Foundation
import Geo
import Model
import Testing
import TestSupport

@Suite("Where a recorded track stands still")
struct StandingStillTests {
    let grid = MetreGrid()

    func points(_ coordinates: [Coordinate]) -> [RoutePoint] { coordinates.map { RoutePoint(coordinate: $0) } }

    /// `track` with `count` fixes inserted after each fix index in `at`, each its fix moved by
    /// seeded Gaussian jitter of `jitter` metres east and north: a receiver left running while the
    /// rider waits.
    func withStops(_ track: [Coordinate], at: [Int], count: Int, jitter: Double, seed: UInt64) -> [Coordinate] {
        var noise = SeededGenerator(seed: seed)
        let frame = grid.frame
        var result: [Coordinate] = []
        for (i, c) in track.enumerated() {
            result.append(c)
            guard at.contains(i) else { continue }
            let p = frame.project(c)
            for _ in 0..<count { result.append(frame.unproject(x: p.x + noise.gaussian(jitter), y: p.y + noise.gaussian(jitter))) }
        }
        return result
    }

    static let recordings: [UInt64] = [21, 22, 23, 24, 25, 26, 27, 28]

    @Test("a receiver's track with three stops of a minute: each is one place, the route as long as the track without them, within a few metres",
          arguments: recordings)
    func threeStops(seed: UInt64) throws {
        let moving = grid.recorded([(0, 0), (1500, 0), (1500, -1500)], jitter: 1, seed: seed)
        let stopped = withStops(moving, at: [50, 150, 250], count: 60, jitter: 1, seed: seed)
        let (kept, stops) = StandingStill().collapsed(points(stopped))
        #expect(stops.count == 3, "\(stops.map { ($0.first, $0.last, Int($0.path)) })")
        let original = Polyline(moving).length, inflated = Polyline(stopped).length, read = Polyline(kept.map(\.coordinate)).length
        #expect(inflated - original > 150, "a minute of jitter adds \(inflated - original) m")
        #expect(abs(read - original) < 3 * 8, "\(read) m read, \(original) m moving, \(inflated) m as logged")
        #expect(abs(stops.reduce(0) { $0 + $1.removed } - (inflated - read)) < 0.01)
        for (stop, at) in zip(stops, [50, 150, 250]) {
            // Each stop is where the rider waited, and its distance is along the track as logged.
            #expect(stop.coordinate.distance(to: moving[at]) < 3, "\(stop.coordinate.distance(to: moving[at])) m from the spot")
            let logged = Polyline(stopped).cumulativeDistances[stop.first]
            #expect(abs(stop.distanceAlong - logged) < 0.01)
        }
    }

    @Test("moving on is never standing still: a drawn line with a painted mini-roundabout, a walker, a narrow-road turnabout, identical fixes")
    func movingOn() {
        // A drawn line through a mini-roundabout of 4 m radius, a vertex every metre round it.
        var ring: [(Double, Double)] = (0...50).map { (Double($0) * 2 - 100, 0) }
        for k in 0...25 { let a = Double(k) / 25 * 2 * .pi; ring.append((4 * sin(a), -4 + 4 * cos(a))) }
        ring += (1...50).map { (Double($0) * 2, 0) }
        let drawn = points(ring.map { grid($0.0, $0.1) })
        #expect(StandingStill().collapsed(drawn).stops.isEmpty)
        #expect(StandingStill().collapsed(drawn).points == drawn)
        // A walker at 1.4 m a second with a metre of jitter, a fix a second.
        let walker = points(grid.recorded([(0, 0), (500, 0)], jitter: 1, spacing: 1.4, seed: 3))
        #expect(StandingStill().collapsed(walker).stops.isEmpty)
        // Turning about on a narrow road: in 8 m, back 6 m, out again.
        let turnabout = points([(0, 0), (2, 0), (4, 0), (6, 1), (8, 2), (6, 2), (4, 3), (2, 4), (4, 4), (6, 4), (8, 4), (12, 4), (20, 4)].map { grid($0.0, $0.1) })
        #expect(StandingStill().collapsed(turnabout).stops.isEmpty)
        // A thousand identical fixes have no path.
        let same = points(Array(repeating: grid(0, 0), count: 1000) + [grid(100, 0)])
        let read = StandingStill().collapsed(same)
        #expect(read.stops.isEmpty && read.points.count == same.count)
    }

    @Test("a stop's heights are its fixes' mean; a stop at the very start or end keeps the track's first and last fix")
    func heightsAndEnds() throws {
        var noise = SeededGenerator(seed: 9)
        let wait = (0..<40).map { _ in RoutePoint(coordinate: grid(noise.gaussian(1), noise.gaussian(1)), elevation: 1000 + noise.gaussian(2)) }
        let drive = (1...30).map { RoutePoint(coordinate: grid(Double($0) * 10 + 10, 0), elevation: 1000) }
        let end = (0..<40).map { _ in RoutePoint(coordinate: grid(310 + noise.gaussian(1), noise.gaussian(1)), elevation: 1000) }
        let track = wait + drive + end
        let (kept, stops) = StandingStill().collapsed(track)
        #expect(stops.count == 2, "\(stops)")
        let first = try #require(stops.first)
        #expect(first.first == 0)
        #expect(kept.first == track.first && kept.last == track.last)
        let mean = wait[0...first.last].compactMap(\.elevation).reduce(0, +) / Double(first.last + 1)
        #expect(abs((kept[1].elevation ?? 0) - mean) < 1e-9)
    }
}
