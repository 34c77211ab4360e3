import Foundation
import Geo
import Testing
import TestSupport

private let grid = MetreGrid()

@Suite("Polylines: measuring, positions, projection, slicing")
struct PolylineTests {
    let line = Polyline(grid.line([(0, 0), (1000, 0), (1000, 500)], step: 50))

    @Test("cumulative distance is the sum of geodesic segment lengths")
    func cumulative() {
        var sum = 0.0
        for i in 0..<line.segmentCount { sum += line.coordinates[i].distance(to: line.coordinates[i + 1]) }
        #expect(abs(line.length - sum) < 1e-9)
        #expect(abs(line.length - 1500) < 0.5, "the grid is accurate to well under a metre here")
        #expect(line.cumulativeDistances.first == 0)
    }

    @Test("position at a distance names the segment, the fraction and the point")
    func positionAtDistance() {
        let p = line.position(atDistance: 1250)
        #expect(abs(p.distanceAlong - 1250) < 1e-9)
        #expect(abs(p.coordinate.distance(to: line.coordinates[p.segmentIndex]) - p.fraction * line.segmentLength(p.segmentIndex)) < 0.001)
        #expect(line.position(atDistance: -5).distanceAlong == 0)
        #expect(line.position(atDistance: 1e9).distanceAlong == line.length)
    }

    @Test("projection gives the foot of the perpendicular and a signed offset")
    func projection() throws {
        let right = try #require(line.position(closestTo: grid(400, -30)))
        #expect(abs(right.distanceAlong - 400) < 0.01)
        #expect(abs(right.offsetFromRoute - 30) < 0.01)
        let left = try #require(line.position(closestTo: grid(1020, 200)))
        #expect(abs(left.offsetFromRoute - 20) < 0.01, "east of a northbound road is on the right")
        let inside = try #require(line.position(closestTo: grid(990, 200)))
        #expect(abs(inside.offsetFromRoute - -10) < 0.01)
    }

    @Test("a local frame's unproject inverts project, across the antimeridian too, and its metres are the ellipsoid's near the origin")
    func localFrameRoundTrip() {
        for origin in [Coordinate(latitude: 42.5, longitude: 1.5), Coordinate(latitude: -33.9, longitude: 179.9995),
                       Coordinate(latitude: 64.1, longitude: -21.9)] {
            let frame = LocalFrame(origin: origin)
            for (x, y) in [(0.0, 0.0), (100, 0), (0, -100), (73.5, 41.25), (-250, 180)] {
                let c = frame.unproject(x: x, y: y)
                #expect(c.longitude >= -180 && c.longitude <= 180)
                let back = frame.project(c)
                #expect(abs(back.x - x) < 1e-6 && abs(back.y - y) < 1e-6, "\(origin) (\(x), \(y)) → \(back)")
                let metres = (x * x + y * y).squareRoot()
                #expect(abs(origin.distance(to: c) - metres) <= 0.001 * metres + 1e-6, "\(origin.distance(to: c)) m for \(metres) m")
            }
        }
        // At a pole east is no direction: the point is on the pole's meridian, never NaN.
        let pole = LocalFrame(origin: Coordinate(latitude: 90, longitude: 12)).unproject(x: 5, y: -100)
        #expect(pole.longitude == 12 && abs(pole.latitude - (90 - 100 / LocalFrame(origin: Coordinate(latitude: 90, longitude: 12)).metresPerDegreeLatitude)) < 1e-12)
    }

    @Test("the index finds the same closest place as checking every segment")
    func indexMatchesBruteForce() throws {
        let index = PolylineIndex(line, cellSize: 30)
        for (x, y) in [(0.0, 0.0), (500, 10), (999, -3), (1500, 1500), (-700, 20), (1000, 260), (12000, -4000)] {
            let a = try #require(index.position(closestTo: grid(x, y)))
            let b = try #require(line.position(closestTo: grid(x, y)))
            #expect(abs(a.distanceAlong - b.distanceAlong) < 1e-6 && abs(a.offsetFromRoute - b.offsetFromRoute) < 1e-6)
        }
    }

    @Test("slicing keeps the exact ends and the length between them")
    func slicing() {
        let part = line.sliced(fromDistance: 975, toDistance: 1100)
        #expect(abs(part.length - 125) < 0.001)
        #expect(part.coordinates.first!.distance(to: line.coordinate(atDistance: 975)) < 0.001)
        #expect(line.sliced(fromDistance: 1100, toDistance: 975).length == part.length)
    }

    @Test("resampling puts points at the spacing, and keeps the end")
    func resampling() {
        let points = line.resampled(spacing: 100)
        #expect(points.count == Int((line.length / 100).rounded(.up)) + 1)
        #expect(points.last == line.coordinates.last)
        let resampled = Polyline(points)
        #expect(abs(resampled.length - line.length) < 0.5, "the corner is cut by less than half a metre")
    }

    @Test("heading is the bearing of the road ahead, and looks back at the very end")
    func heading() throws {
        #expect(abs(try #require(line.heading(atDistance: 100, lookahead: 40)) - 90) < 0.1)
        #expect(abs(normalizedTurn(try #require(line.heading(atDistance: 1200, lookahead: 40)))) < 0.1)
        #expect(abs(normalizedTurn(try #require(line.heading(atDistance: line.length, lookahead: 40)))) < 0.1)
    }

    @Test("a line with points added on it is the same line; one bent, shortened, extended or reversed is not")
    func sameLineWithPointsAdded() {
        let corners: [(Double, Double)] = [(0, 0), (300, 0), (300, 200)]
        let old = Polyline(corners.map { grid($0.0, $0.1) })
        #expect(old.isLine(old, withPointsAddedWithin: 0.5))
        // Points put on the first segment and on the corner's second leg, as a traced handle is.
        let added = Polyline([grid(0, 0), grid(120, 0), grid(300, 0), grid(300, 0), grid(300, 77.5), grid(300, 200)])
        #expect(added.isLine(old, withPointsAddedWithin: 0.5))
        // 0.3 m off the road is on it; 2 m off is another line.
        #expect(Polyline([grid(0, 0), grid(150, 0.3), grid(300, 0), grid(300, 200)]).isLine(old, withPointsAddedWithin: 0.5))
        #expect(!Polyline([grid(0, 0), grid(150, 2), grid(300, 0), grid(300, 200)]).isLine(old, withPointsAddedWithin: 0.5))
        // A corner left out, a point before the start or after the end, the line reversed.
        #expect(!Polyline([grid(0, 0), grid(300, 200)]).isLine(old, withPointsAddedWithin: 0.5))
        #expect(!Polyline([grid(-50, 0)] + old.coordinates).isLine(old, withPointsAddedWithin: 0.5))
        #expect(!Polyline(old.coordinates + [grid(300, 250)]).isLine(old, withPointsAddedWithin: 0.5))
        #expect(!Polyline(old.coordinates.reversed()).isLine(old, withPointsAddedWithin: 0.5))
        #expect(!Polyline([]).isLine(old, withPointsAddedWithin: 0.5) && Polyline([]).isLine(Polyline([]), withPointsAddedWithin: 0.5))
        // Either way round: the track is the same line as the drawing traced from it.
        #expect(!old.isLine(added, withPointsAddedWithin: 0.5))
        #expect(old.isSameLine(as: added, within: 0.5) && added.isSameLine(as: old, within: 0.5))
        #expect(!Polyline([grid(0, 0), grid(300, 200)]).isSameLine(as: old, within: 0.5))
        #expect(!Polyline(old.coordinates.reversed()).isSameLine(as: old, within: 0.5))
    }
}
