import Foundation

/// A place on a polyline, named field by field.
public struct RoutePosition: Sendable, Equatable, CustomStringConvertible {
    /// Index of the segment from vertex `segmentIndex` to `segmentIndex + 1`.
    public var segmentIndex: Int
    /// How far along that segment, in [0, 1].
    public var fraction: Double
    /// Distance from the start of the line, in metres.
    public var distanceAlong: Metres
    /// Signed distance from the line in metres: positive to the right of the direction of travel,
    /// negative to the left, 0 for a point on the line.
    public var offsetFromRoute: Metres
    /// The point on the line.
    public var coordinate: Coordinate

    public init(segmentIndex: Int, fraction: Double, distanceAlong: Metres, offsetFromRoute: Metres,
                coordinate: Coordinate) {
        self.segmentIndex = segmentIndex
        self.fraction = fraction
        self.distanceAlong = distanceAlong
        self.offsetFromRoute = offsetFromRoute
        self.coordinate = coordinate
    }

    public var description: String {
        String(format: "segment %d @ %.3f, %.1f m along, %.1f m off", segmentIndex, fraction, distanceAlong,
               offsetFromRoute)
    }
}

/// A line through coordinates with the geodesic length of every segment and the cumulative
/// distance at every vertex.
///
/// Segment lengths are WGS84 geodesics (Karney's method, see `Geodesic`); positions between
/// vertices are interpolated along the segment's geodesic.
public struct Polyline: Sendable {
    /// The vertices, in order of travel.
    public let coordinates: [Coordinate]
    /// `cumulativeDistances[i]` is the distance along the line at vertex `i`, in metres;
    /// the first is 0 and the last is `length`.
    public let cumulativeDistances: [Metres]

    /// Builds the line and measures it. O(n) geodesic inverse solutions.
    public init(_ coordinates: [Coordinate]) {
        self.coordinates = coordinates
        var cumulative = [Metres]()
        cumulative.reserveCapacity(coordinates.count)
        var total: Metres = 0
        for i in coordinates.indices {
            if i > 0 { total += coordinates[i - 1].distance(to: coordinates[i]) }
            cumulative.append(total)
        }
        self.cumulativeDistances = cumulative
    }

    /// Total length in metres.
    public var length: Metres { cumulativeDistances.last ?? 0 }

    /// Number of segments (one less than the number of vertices, or 0).
    public var segmentCount: Int { max(0, coordinates.count - 1) }

    /// Length of segment `i` in metres.
    public func segmentLength(_ i: Int) -> Metres { cumulativeDistances[i + 1] - cumulativeDistances[i] }

    /// The segment containing `distance` (clamped to the line). O(log n).
    public func segmentIndex(atDistance distance: Metres) -> Int {
        guard segmentCount > 0 else { return 0 }
        // First vertex whose cumulative distance exceeds `distance`, minus one.
        var lo = 0, hi = cumulativeDistances.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if cumulativeDistances[mid] <= distance { lo = mid + 1 } else { hi = mid }
        }
        return min(max(lo - 1, 0), segmentCount - 1)
    }

    /// The point at `distance` metres from the start, clamped to the line, with offset 0.
    /// O(log n) plus one geodesic inverse and direct.
    public func position(atDistance distance: Metres) -> RoutePosition {
        guard segmentCount > 0 else {
            return RoutePosition(segmentIndex: 0, fraction: 0, distanceAlong: 0, offsetFromRoute: 0,
                                 coordinate: coordinates.first ?? Coordinate(latitude: 0, longitude: 0))
        }
        let d = min(max(distance, 0), length)
        let i = segmentIndex(atDistance: d)
        let along = d - cumulativeDistances[i]
        let segLength = segmentLength(i)
        let fraction = segLength > 0 ? min(max(along / segLength, 0), 1) : 0
        return RoutePosition(segmentIndex: i, fraction: fraction, distanceAlong: d, offsetFromRoute: 0,
                             coordinate: pointOnSegment(i, fraction: fraction))
    }

    /// The coordinate at `distance` metres from the start, clamped to the line.
    public func coordinate(atDistance distance: Metres) -> Coordinate {
        position(atDistance: distance).coordinate
    }

    /// Segments shorter than this are interpolated linearly in latitude and longitude: over 100 m
    /// the linear path strays from the geodesic by under 0.2 mm (about L²·tan φ / 8R), far below
    /// any GPS fix, and it costs no geodesic solution.
    public static let linearInterpolationLength: Metres = 100

    /// The point at `fraction` of segment `i`, on the segment's geodesic.
    public func pointOnSegment(_ i: Int, fraction: Double) -> Coordinate {
        let a = coordinates[i], b = coordinates[i + 1]
        if fraction <= 0 { return a }
        if fraction >= 1 { return b }
        if segmentLength(i) < Self.linearInterpolationLength && abs(a.latitude) < 89 {
            var dLon = b.longitude - a.longitude
            if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
            var lon = a.longitude + fraction * dLon
            if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
            return Coordinate(latitude: a.latitude + fraction * (b.latitude - a.latitude), longitude: lon)
        }
        let inv = Geodesic.wgs84.inverse(a, b)
        return Geodesic.wgs84.direct(from: a, bearing: inv.initialBearing, distance: inv.distance * fraction).coordinate
    }

    /// Bearing of travel at `distance`: the bearing of the geodesic from that point to the point
    /// `lookahead` metres further on (or, at the very end, of the last stretch of that length).
    /// Over a lookahead of tens of metres this is the heading a rider reads, not one GPS wobble.
    public func heading(atDistance distance: Metres, lookahead: Metres) -> Degrees? {
        guard length > 0 else { return nil }
        var from = min(max(distance, 0), length)
        var to = min(from + lookahead, length)
        if to - from < min(lookahead, length) * 0.5 {
            // Too close to the end: look back instead.
            from = max(0, length - lookahead)
            to = length
        }
        let p = coordinate(atDistance: from), q = coordinate(atDistance: to)
        if p == q { return nil }
        return p.bearing(to: q)
    }

    /// Projects `point` onto segment `i`: the closest point of the segment, its distance along the
    /// line and the signed offset.
    ///
    /// The foot of the perpendicular is found in a local tangent plane at the segment (meridian and
    /// prime-vertical radii of curvature of WGS84 at the segment's start); the offset is then the
    /// geodesic distance to that foot. For segments up to a few kilometres the plane's error is far
    /// below a millimetre of offset. O(1): one geodesic inverse (plus a direct when the foot falls
    /// inside the segment).
    public func project(_ point: Coordinate, ontoSegment i: Int) -> RoutePosition {
        let frame = LocalFrame(origin: coordinates[i])
        let b = frame.project(coordinates[i + 1])
        let p = frame.project(point)
        let lengthSquared = b.x * b.x + b.y * b.y
        var t = lengthSquared > 0 ? (p.x * b.x + p.y * b.y) / lengthSquared : 0
        t = min(max(t, 0), 1)
        let foot = pointOnSegment(i, fraction: t)
        let cross = b.x * p.y - b.y * p.x   // > 0: point is left of the direction of travel
        let offset = point.distance(to: foot)
        return RoutePosition(segmentIndex: i, fraction: t,
                             distanceAlong: cumulativeDistances[i] + t * segmentLength(i),
                             offsetFromRoute: cross > 0 ? -offset : offset, coordinate: foot)
    }

    /// The closest place on the line to `point`, checking every segment. O(n); for many points use
    /// `PolylineIndex`.
    public func position(closestTo point: Coordinate) -> RoutePosition? {
        guard segmentCount > 0 else { return nil }
        let frame = LocalFrame(origin: point)
        var best = 0, bestDistance = Double.infinity
        for i in 0..<segmentCount {
            let d = frame.distanceSquaredToSegment(coordinates[i], coordinates[i + 1])
            if d < bestDistance { bestDistance = d; best = i }
        }
        return project(point, ontoSegment: best)
    }

    /// The part of the line between two distances (clamped, in order), as a new line whose ends are
    /// the exact interpolated points.
    public func sliced(fromDistance start: Metres, toDistance end: Metres) -> Polyline {
        guard segmentCount > 0 else { return self }
        let s = min(max(min(start, end), 0), length), e = min(max(max(start, end), 0), length)
        let first = position(atDistance: s), last = position(atDistance: e)
        var points = [first.coordinate]
        if first.segmentIndex < last.segmentIndex {
            points.append(contentsOf: coordinates[(first.segmentIndex + 1)...last.segmentIndex])
        }
        if points.last != last.coordinate { points.append(last.coordinate) }
        if points.count == 1 { points.append(last.coordinate) }
        return Polyline(points)
    }

    /// Points every `spacing` metres from the start, and the end point. O(n + length / spacing).
    /// - Parameter spacing: metres between samples; must be positive.
    public func resampled(spacing: Metres) -> [Coordinate] {
        precondition(spacing > 0, "spacing must be positive")
        guard segmentCount > 0 else { return coordinates }
        var result: [Coordinate] = []
        result.reserveCapacity(Int(length / spacing) + 2)
        var d: Metres = 0
        var i = 0
        while d < length {
            while i < segmentCount - 1 && cumulativeDistances[i + 1] <= d { i += 1 }
            let segLength = segmentLength(i)
            let fraction = segLength > 0 ? (d - cumulativeDistances[i]) / segLength : 0
            result.append(pointOnSegment(i, fraction: fraction))
            d += spacing
        }
        result.append(coordinates[coordinates.count - 1])
        return result
    }
}

/// A local tangent plane at `origin`: x east and y north in metres, using the WGS84 meridian (M)
/// and prime-vertical (N) radii of curvature at the origin's latitude. Good to well under a
/// millimetre per kilometre near the origin; used to find feet of perpendiculars and to compare
/// distances, never to report a length.
public struct LocalFrame: Sendable {
    public let origin: Coordinate
    /// Metres per degree of latitude and of longitude at the origin.
    public let metresPerDegreeLatitude: Double
    public let metresPerDegreeLongitude: Double

    public init(origin: Coordinate) {
        self.origin = origin
        let a = Geodesic.wgs84.a, f = Geodesic.wgs84.f
        let e2 = f * (2 - f)
        let phi = origin.latitude * .pi / 180
        let s = sin(phi)
        let w = (1 - e2 * s * s).squareRoot()
        let n = a / w
        let m = a * (1 - e2) / (w * w * w)
        metresPerDegreeLatitude = m * .pi / 180
        metresPerDegreeLongitude = n * cos(phi) * .pi / 180
    }

    /// The point in the plane, metres east and north of the origin.
    @inlinable
    public func project(_ c: Coordinate) -> (x: Double, y: Double) {
        var dLon = c.longitude - origin.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        return (dLon * metresPerDegreeLongitude, (c.latitude - origin.latitude) * metresPerDegreeLatitude)
    }

    /// The coordinate `x` metres east and `y` metres north of the origin: the inverse of `project`.
    /// Within a millimetre of a pole, where east is no direction (a degree of longitude is under a
    /// millimetre), `x` is ignored.
    @inlinable
    public func unproject(x: Double, y: Double) -> Coordinate {
        let longitude = metresPerDegreeLongitude > 1e-3 ? remainder(origin.longitude + x / metresPerDegreeLongitude, 360) : origin.longitude
        return Coordinate(latitude: origin.latitude + y / metresPerDegreeLatitude, longitude: longitude)
    }

    /// Squared planar distance from the origin to the segment a–b, in square metres.
    @inlinable
    public func distanceSquaredToSegment(_ a: Coordinate, _ b: Coordinate) -> Double {
        let pa = project(a), pb = project(b)
        let dx = pb.x - pa.x, dy = pb.y - pa.y
        let l2 = dx * dx + dy * dy
        var t = l2 > 0 ? -(pa.x * dx + pa.y * dy) / l2 : 0
        t = min(max(t, 0), 1)
        let x = pa.x + t * dx, y = pa.y + t * dy
        return x * x + y * y
    }
}

extension Polyline {
    /// Whether this line is `old` with points added on it: every point of `old` met in its order,
    /// and every other point within `tolerance` of the segment of `old` it falls between. Such a
    /// line is the same road travelled the same way (a drawing traced from a track, its handles'
    /// points among the track's), so what was measured along `old` by distance still holds. O(n).
    public func isLine(_ old: Polyline, withPointsAddedWithin tolerance: Metres) -> Bool {
        let added = coordinates, kept = old.coordinates
        guard !kept.isEmpty else { return added.isEmpty }
        var next = 0   // the point of `old` to meet next
        for point in added {
            if next < kept.count, point == kept[next] {
                next += 1
                continue
            }
            // Not before the first point of `old`, nor after its last.
            guard next > 0, next < kept.count else { return false }
            let d2 = LocalFrame(origin: point).distanceSquaredToSegment(kept[next - 1], kept[next])
            guard d2 <= tolerance * tolerance else { return false }
        }
        return next == kept.count
    }

    /// Whether this line and `other` are the same line, one of them the other with points added on
    /// it (`isLine(_:withPointsAddedWithin:)`): a track and a drawing traced from it, either way.
    public func isSameLine(as other: Polyline, within tolerance: Metres) -> Bool {
        isLine(other, withPointsAddedWithin: tolerance) || other.isLine(self, withPointsAddedWithin: tolerance)
    }
}
