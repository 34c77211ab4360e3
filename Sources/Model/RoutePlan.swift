import Foundation
import Geo

/// How the route is travelled: every road leg is asked for in this mode.
public enum TravelMode: String, Codable, Sendable, CaseIterable {
    case drive, cycle, walk

    /// As the messages say it: "No driving route from 2 to 3".
    public var gerund: String {
        switch self {
        case .drive: "driving"
        case .cycle: "cycling"
        case .walk: "walking"
        }
    }
}

/// A point the route goes through, numbered from 1 in the route.
public struct Handle: Codable, Sendable, Equatable, Identifiable {
    /// Where the handle came from. Coordinates and waypoints are surveyed points: the route goes to
    /// them and they never move onto the road; tapped and drawn handles do.
    public enum Origin: String, Codable, Sendable {
        case tapped, drawn, coordinate, waypoint, courseNote

        /// Surveyed points stay where they are when a road arrives.
        public var isSurveyed: Bool { self == .coordinate || self == .waypoint }
    }

    /// A note carried by a handle: placed at the exact distance where the route reaches the handle.
    public struct CourseNote: Codable, Sendable, Equatable {
        public var text: String
        public var marker: String?
        public init(text: String, marker: String? = nil) {
            self.text = text
            self.marker = marker
        }
    }

    /// Stable identity, kept through moves, reorders and undo.
    public var id: Int
    public var coordinate: Coordinate
    public var origin: Origin
    /// Where the handle was placed, before any snapping onto a road.
    public var placed: Coordinate
    public var note: CourseNote?

    public init(id: Int, coordinate: Coordinate, origin: Origin, note: CourseNote? = nil) {
        self.id = id
        self.coordinate = coordinate
        self.origin = origin
        self.placed = coordinate
        self.note = note
    }
}

/// How a leg between two handles runs.
public enum LegKind: String, Codable, Sendable, CaseIterable {
    /// Asked of the road network.
    case road
    /// A straight line.
    case straight
    /// The stroke as drawn.
    case asDrawn
}

/// Where a road leg's answer stands, with the rally manuals' rules: a leg with no road counts as
/// answered (straight, its length in the distance, nothing in the time); a leg waiting on a fault
/// is straight for now and asked again only when the user retries.
public enum LegState: Codable, Sendable, Equatable {
    /// Being asked.
    case asked
    /// The road arrived.
    case road
    /// The engine answered: there is no road in this mode.
    case noRoad
    /// The engine is limiting requests (HTTP 429).
    case rateLimited
    /// The engine failed (HTTP 5xx, or an answer that is not one).
    case serverError(String)
    /// The engine could not be reached.
    case unreachable(String)

    /// States that wait for the user's Retry.
    public var waitsForRetry: Bool {
        switch self {
        case .rateLimited, .serverError, .unreachable: true
        default: false
        }
    }
}

/// The road an engine found for one leg.
public struct RoadLeg: Codable, Sendable, Equatable {
    /// The line along the road, from the leg's start to its end.
    public var line: [Coordinate]
    /// Length along the road in metres, as the engine measures it.
    public var distance: Metres
    /// Travel time in seconds, as the engine estimates it.
    public var duration: TimeInterval
    /// The junctions the road passes, distances measured from the leg's start.
    public var junctions: [Junction]

    public init(line: [Coordinate], distance: Metres, duration: TimeInterval, junctions: [Junction] = []) {
        self.line = line
        self.distance = distance
        self.duration = duration
        self.junctions = junctions
    }
}

/// Why an engine gave no road for a leg.
public enum RoutingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The engine answered: no road between these points in this mode.
    case noRoute(String)
    /// HTTP 429.
    case rateLimited(String)
    /// HTTP 5xx or an answer that is not one.
    case serverError(String)
    /// No connection, or no answer in time.
    case unreachable(String)

    public var description: String {
        switch self {
        case .noRoute(let s), .rateLimited(let s), .serverError(let s), .unreachable(let s): s
        }
    }
}

/// A road network that answers one leg at a time: OSRM, Valhalla, GraphHopper, or the embedded
/// router over an OpenStreetMap extract.
public protocol RoutingEngine: Sendable {
    /// Names the engine in messages ("OSRM is limiting requests").
    var name: String { get }
    /// The road from `start` to `end` in `mode`.
    /// - Throws: `RoutingError`.
    func route(from start: Coordinate, to end: Coordinate, mode: TravelMode) async throws -> RoadLeg
}
