import Foundation

/// A distance in metres.
public typealias Metres = Double
/// An angle in degrees. A bearing is clockwise from true north in [0, 360);
/// a turn angle is 0 straight on, positive to the right, in (−180, 180].
public typealias Degrees = Double

/// A point on the WGS84 ellipsoid, latitude and longitude in decimal degrees.
public struct Coordinate: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Degrees north of the equator, in [−90, 90].
    public var latitude: Degrees
    /// Degrees east of Greenwich, in [−180, 180].
    public var longitude: Degrees

    public init(latitude: Degrees, longitude: Degrees) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// True when both values are finite and within their ranges.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    public var description: String {
        String(format: "%.6f, %.6f", latitude, longitude)
    }
}

/// A latitude or longitude written with 6 decimals (about 0.1 m), as every routing engine and
/// elevation service is sent one.
public func sixDecimals(_ value: Degrees) -> String { String(format: "%.6f", value) }

/// Normalises an angle to a bearing in [0, 360).
@inlinable
public func normalizedBearing(_ degrees: Degrees) -> Degrees {
    let r = degrees.truncatingRemainder(dividingBy: 360)
    let b = r < 0 ? r + 360 : r
    return b >= 360 ? 0 : b
}

/// Normalises an angle to a turn angle in (−180, 180].
@inlinable
public func normalizedTurn(_ degrees: Degrees) -> Degrees {
    var r = degrees.truncatingRemainder(dividingBy: 360)
    if r <= -180 { r += 360 } else if r > 180 { r -= 360 }
    return r
}
