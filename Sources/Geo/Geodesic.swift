import Foundation

// INTERIM: replaced by the Karney implementation (helper branch geo-geodesic).
// Only the public signatures below are the contract.

/// The result of the inverse geodesic problem between two points.
public struct GeodesicInverse: Sendable, Equatable {
    /// Length of the geodesic in metres.
    public var distance: Metres
    /// Bearing at the first point, clockwise from north, in [0, 360).
    public var initialBearing: Degrees
    /// Bearing at the second point (direction of travel), in [0, 360).
    public var finalBearing: Degrees
    public init(distance: Metres, initialBearing: Degrees, finalBearing: Degrees) {
        self.distance = distance; self.initialBearing = initialBearing; self.finalBearing = finalBearing
    }
}

/// The result of the direct geodesic problem.
public struct GeodesicDirect: Sendable, Equatable {
    public var coordinate: Coordinate
    /// Bearing of travel at the end point, in [0, 360).
    public var finalBearing: Degrees
    public init(coordinate: Coordinate, finalBearing: Degrees) { self.coordinate = coordinate; self.finalBearing = finalBearing }
}

/// Geodesics on an ellipsoid of revolution.
public struct Geodesic: Sendable {
    /// Equatorial radius in metres.
    public let a: Double
    /// Flattening.
    public let f: Double
    public init(a: Double, f: Double) { self.a = a; self.f = f }
    /// The WGS84 ellipsoid.
    public static let wgs84 = Geodesic(a: 6_378_137, f: 1 / 298.257223563)

    public func inverse(_ p1: Coordinate, _ p2: Coordinate) -> GeodesicInverse {
        let r = 6_371_008.8
        let φ1 = p1.latitude * .pi / 180, φ2 = p2.latitude * .pi / 180
        let dλ = (p2.longitude - p1.longitude) * .pi / 180
        let h = sin((φ2 - φ1) / 2) * sin((φ2 - φ1) / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
        let d = 2 * r * asin(min(1, sqrt(h)))
        let y = sin(dλ) * cos(φ2), x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(dλ)
        let b = normalizedBearing(atan2(y, x) * 180 / .pi)
        return GeodesicInverse(distance: d, initialBearing: b, finalBearing: b)
    }

    public func direct(from p: Coordinate, bearing: Degrees, distance: Metres) -> GeodesicDirect {
        let r = 6_371_008.8, δ = distance / r, θ = bearing * .pi / 180
        let φ1 = p.latitude * .pi / 180, λ1 = p.longitude * .pi / 180
        let φ2 = asin(sin(φ1) * cos(δ) + cos(φ1) * sin(δ) * cos(θ))
        let λ2 = λ1 + atan2(sin(θ) * sin(δ) * cos(φ1), cos(δ) - sin(φ1) * sin(φ2))
        return GeodesicDirect(coordinate: Coordinate(latitude: φ2 * 180 / .pi, longitude: normalizedTurn(λ2 * 180 / .pi)),
                              finalBearing: bearing)
    }
}

extension Coordinate {
    /// Geodesic distance to `other` on WGS84, in metres.
    public func distance(to other: Coordinate) -> Metres { Geodesic.wgs84.inverse(self, other).distance }
    /// Initial geodesic bearing towards `other`, in [0, 360).
    public func bearing(to other: Coordinate) -> Degrees { Geodesic.wgs84.inverse(self, other).initialBearing }
    /// The point reached by travelling `distance` metres along the geodesic starting at `bearing`.
    public func coordinate(atDistance distance: Metres, bearing: Degrees) -> Coordinate {
        Geodesic.wgs84.direct(from: self, bearing: bearing, distance: distance).coordinate
    }
}
