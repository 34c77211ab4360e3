import Foundation
import Geo

/// One vertex of the route line.
public struct RoutePoint: Sendable, Equatable {
    public var coordinate: Coordinate
    /// Height above sea level in metres, when known.
    public var elevation: Metres?

    public init(coordinate: Coordinate, elevation: Metres? = nil) {
        self.coordinate = coordinate
        self.elevation = elevation
    }
}

/// The applied route of a book: the line riders follow.
public struct Route: Codable, Sendable, Equatable {
    /// Where the line came from, for example the track file's name.
    public var source: String?
    public var points: [RoutePoint]

    public init(source: String? = nil, points: [RoutePoint]) {
        self.source = source
        self.points = points
    }

    public var coordinates: [Coordinate] { points.map(\.coordinate) }

    // Points are stored compactly as [lat, lon] or [lat, lon, ele] arrays.
    private enum CodingKeys: String, CodingKey { case source, points }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        source = try c.decodeIfPresent(String.self, forKey: .source)
        var list = try c.nestedUnkeyedContainer(forKey: .points)
        var points: [RoutePoint] = []
        while !list.isAtEnd {
            let values = try list.decode([Double?].self)
            guard values.count == 2 || values.count == 3, let lat = values[0], let lon = values[1] else {
                throw DecodingError.dataCorruptedError(in: list,
                    debugDescription: "a route point is [latitude, longitude] or [latitude, longitude, elevation]")
            }
            let coordinate = Coordinate(latitude: lat, longitude: lon)
            guard coordinate.isValid else {
                throw DecodingError.dataCorruptedError(in: list,
                    debugDescription: "route point \(points.count) is out of range: \(lat), \(lon)")
            }
            points.append(RoutePoint(coordinate: coordinate, elevation: values.count == 3 ? values[2] : nil))
        }
        self.points = points
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(source, forKey: .source)
        var list = c.nestedUnkeyedContainer(forKey: .points)
        for p in points {
            let lat = (p.coordinate.latitude * 1e7).rounded() / 1e7
            let lon = (p.coordinate.longitude * 1e7).rounded() / 1e7
            if let e = p.elevation { try list.encode([lat, lon, (e * 10).rounded() / 10]) } else { try list.encode([lat, lon]) }
        }
    }
}
