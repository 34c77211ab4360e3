import Foundation
import Testing
@testable import Geo
import TestSupport

/// The segment index and projection with segments of any length: long legs, the antimeridian, the
/// poles, degenerate lines. Each route is checked against a brute-force scan: the index must return
/// every segment the scan finds within the radius, and must never trap.
@Suite("Segments of any length")
struct LongSegmentTests {
    /// Segments within `radius` of `point` by brute force, measured as callers measure them.
    private func bruteForce(_ line: Polyline, _ point: Coordinate, radius: Metres) -> Set<Int> {
        let frame = LocalFrame(origin: point)
        return Set((0..<line.segmentCount).filter {
            frame.distanceSquaredToSegment(line.coordinates[$0], line.coordinates[$0 + 1]).squareRoot() <= radius
        })
    }

    private func check(_ points: [Coordinate], queries: [Coordinate], cellSize: Metres = 100,
                       radii: [Metres] = [10, 50, 500, 20_000], sourceLocation: SourceLocation = #_sourceLocation) {
        let line = Polyline(points)
        let index = PolylineIndex(line, cellSize: cellSize)
        for q in queries {
            for r in radii {
                let found = Set(index.segments(near: q, radius: r))
                let missing = bruteForce(line, q, radius: r).subtracting(found)
                #expect(missing.isEmpty, "segments \(missing.sorted()) within \(r) m of \(q) were missed", sourceLocation: sourceLocation)
            }
            if line.segmentCount > 0 {
                let p = index.position(closestTo: q)
                #expect(p != nil, sourceLocation: sourceLocation)
                #expect(p.map { $0.distanceAlong.isFinite && $0.distanceAlong >= 0 && $0.distanceAlong <= line.length + 1e-6 } ?? false,
                        sourceLocation: sourceLocation)
            } else {
                #expect(index.position(closestTo: q) == nil, sourceLocation: sourceLocation)
            }
        }
    }

    @Test("named cases: a 10 km two-point track, 13 km route points, the antimeridian, round the globe, the poles, one place")
    func namedCases() {
        let c = { (lat: Double, lon: Double) in Coordinate(latitude: lat, longitude: lon) }
        let cases: [(String, [Coordinate])] = [
            ("two points 10 km apart", [c(42.5, 1.5), c(42.59, 1.5)]),
            ("route points 13 km apart", (0..<8).map { c(42 + Double($0) * 0.117, 1.5 + Double($0 % 2) * 0.05) }),
            ("across the antimeridian", [c(-17, 179.7), c(-17.1, 179.95), c(-17.2, -179.9), c(-17.3, -179.6)]),
            ("short across the antimeridian", [c(65, 179.9999), c(65, -179.9999)]),
            ("round the globe", stride(from: -180.0, through: 180.0, by: 30).map { c(10, $0) }),
            ("over the north pole", [c(89.5, 0), c(90, 0), c(89.5, 180), c(89.9, -90)]),
            ("at the south pole", [c(-90, 0), c(-89.99, 45), c(-89.99, 135)]),
            ("all points one place", Array(repeating: c(42.5, 1.5), count: 50)),
            ("two identical points", [c(0, 0), c(0, 0)]),
            ("one point", [c(0, 0)]),
            ("no point", []),
            ("half the globe in one segment", [c(0, -90), c(0, 90)]),
        ]
        for (name, points) in cases {
            var queries = points
            for p in points.prefix(6) {
                queries.append(c(min(max(p.latitude + 0.0003, -90), 90), p.longitude))
                queries.append(c(p.latitude, p.longitude > 179.9 ? -179.9999 : min(p.longitude + 0.0004, 180)))
            }
            queries += [c(0, 0), c(90, 0), c(-90, 0), c(42.55, 1.5), c(-17.15, 180), c(-17.15, -180)]
            _ = name
            check(points, queries: queries)
        }
    }

    @Test("seeded random routes: long and short legs, anywhere on the globe, never miss a segment or trap")
    func randomRoutes() {
        var random = SeededGenerator(seed: 10)
        for round in 0..<60 {
            let count = Int.random(in: 1...12, using: &random)
            // Legs from a few metres to thousands of kilometres, some at the poles and the antimeridian.
            let spread = [0.0001, 0.01, 0.1, 2, 40, 180][round % 6]
            let centreLat = [0.0, 45, -60, 89.9, -89.95, 70][Int.random(in: 0..<6, using: &random)]
            let centreLon = [0.0, 179.99, -179.99, 90][Int.random(in: 0..<4, using: &random)]
            var points: [Coordinate] = []
            for _ in 0..<count {
                let lat = min(max(centreLat + Double.random(in: -spread...spread, using: &random), -90), 90)
                var lon = centreLon + Double.random(in: -spread...spread, using: &random) * 2
                while lon > 180 { lon -= 360 }
                while lon < -180 { lon += 360 }
                points.append(Coordinate(latitude: lat, longitude: lon))
            }
            if round % 7 == 0 { points = Array(repeating: points[0], count: count) }
            var queries = points
            for _ in 0..<6 {
                let base = points[Int.random(in: 0..<points.count, using: &random)]
                let lat = min(max(base.latitude + Double.random(in: -0.001...0.001, using: &random), -90), 90)
                var lon = base.longitude + Double.random(in: -0.001...0.001, using: &random)
                if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
                queries.append(Coordinate(latitude: lat, longitude: lon))
            }
            check(points, queries: queries, cellSize: [25, 100, 1000][round % 3])
        }
    }

    @Test("a line with an invalid coordinate and a tiny or non-finite cell size do not trap")
    func oddInputs() {
        let line = Polyline([Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: .nan, longitude: 1),
                             Coordinate(latitude: 0.001, longitude: 0.001)])
        for size in [0.0, -5, .infinity, .nan, 1e-9] {
            let index = PolylineIndex(line, cellSize: size)
            #expect(index.segments(near: Coordinate(latitude: 0, longitude: 0), radius: 10).contains(0))
            #expect(index.segments(near: Coordinate(latitude: 0, longitude: 0), radius: .infinity).count == 2)
        }
    }
}
