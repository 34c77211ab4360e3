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

/// A stretch of the route drawn as a straight line where a road was asked for: the engine found
/// no road, or the leg was still waiting and Apply was told to use it straight.
public struct StraightStretch: Codable, Sendable, Equatable {
    public enum Reason: String, Codable, Sendable {
        /// The engine answered that there is no road in the plan's mode.
        case noRoad
        /// The engine had not answered (limiting requests, a fault, unreachable) and the leg was used straight.
        case waiting
        /// The route was removed: the line only joins the notes that stayed.
        case removed
    }
    /// Metres along the route where the straight line starts and ends.
    public var start: Metres
    public var end: Metres
    public var reason: Reason
    /// The leg's number in the plan, from 1.
    public var leg: Int

    public init(start: Metres, end: Metres, reason: Reason, leg: Int) {
        self.start = start
        self.end = end
        self.reason = reason
        self.leg = leg
    }
}

/// The applied route of a book: the line riders follow.
public struct Route: Codable, Sendable, Equatable {
    /// Where the line came from, for example the track file's name.
    public var source: String?
    public var points: [RoutePoint]
    /// Road legs drawn straight (no road, or waiting and used straight), so the cover and `inspect`
    /// say so; nil when there are none.
    public var straightStretches: [StraightStretch]?

    public init(source: String? = nil, points: [RoutePoint], straightStretches: [StraightStretch]? = nil) {
        self.source = source
        self.points = points
        self.straightStretches = straightStretches
    }

    public var coordinates: [Coordinate] { points.map(\.coordinate) }

    /// What the cover and `inspect` say of the straight stretches: "2 legs straight (no road)",
    /// "1 leg used straight while waiting", "route removed: a straight line through the notes";
    /// nil when there are none.
    public var straightSummary: String? { straightSummary(in: .english) }

    /// `straightSummary` in the words of `phrasebook`, as the cover prints it.
    public func straightSummary(in words: Phrasebook) -> String? {
        guard let stretches = straightStretches, !stretches.isEmpty else { return nil }
        if stretches.contains(where: { $0.reason == .removed }) { return words[.coverRouteRemoved] }
        let parts = [(StraightStretch.Reason.noRoad, Phrasebook.Key.coverLegsNoRoadOne, Phrasebook.Key.coverLegsNoRoadOther),
                     (.waiting, .coverLegsWaitingOne, .coverLegsWaitingOther)]
            .compactMap { reason, one, other -> String? in
                let n = stretches.filter { $0.reason == reason }.count
                return n == 0 ? nil : words.counted(n, one: one, other: other)
            }
        return parts.joined(separator: ", ")
    }

    // Points are stored compactly as [lat, lon] or [lat, lon, ele] arrays.
    private enum CodingKeys: String, CodingKey { case source, points, straightStretches }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        source = try c.decodeIfPresent(String.self, forKey: .source)
        straightStretches = try c.decodeIfPresent([StraightStretch].self, forKey: .straightStretches)
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
        try c.encodeIfPresent(straightStretches, forKey: .straightStretches)
        var list = c.nestedUnkeyedContainer(forKey: .points)
        for p in points {
            let lat = (p.coordinate.latitude * 1e7).rounded() / 1e7
            let lon = (p.coordinate.longitude * 1e7).rounded() / 1e7
            if let e = p.elevation { try list.encode([lat, lon, (e * 10).rounded() / 10]) } else { try list.encode([lat, lon]) }
        }
    }
}
