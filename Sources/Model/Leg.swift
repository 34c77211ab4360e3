import Foundation
import Geo

/// How a leg between two handles runs.
public enum LegKind: String, Codable, Sendable, CaseIterable {
    /// Asked of the road network.
    case road
    /// A straight line.
    case straight
    /// The stroke as drawn.
    case asDrawn
}

/// Where a road leg's answer stands. A leg with no road counts as
/// answered (straight, its length in the distance, nothing in the time); a leg waiting on a fault
/// is straight for now and asked again only when the user retries.
///
/// In the book file a leg writes its state as a name, `"state": "serverError"`, and the reason of
/// a fault beside it, `"detail": "OSRM: server error (HTTP 500)"` (see `PlannedLeg`).
public enum LegState: Sendable, Equatable {
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

    /// The state's name in the book file.
    public var name: String {
        switch self {
        case .asked: "asked"
        case .road: "road"
        case .noRoad: "noRoad"
        case .rateLimited: "rateLimited"
        case .serverError: "serverError"
        case .unreachable: "unreachable"
        }
    }

    /// What the engine said, for the states that keep it.
    public var detail: String? {
        switch self {
        case .serverError(let s), .unreachable(let s): s
        default: nil
        }
    }

    /// Every name `init(name:detail:)` reads.
    public static let names = ["asked", "road", "noRoad", "rateLimited", "serverError", "unreachable"]

    /// The state named `name` in a book file; a fault without its detail keeps an empty one.
    public init?(name: String, detail: String?) {
        switch name {
        case "asked": self = .asked
        case "road": self = .road
        case "noRoad": self = .noRoad
        case "rateLimited": self = .rateLimited
        case "serverError": self = .serverError(detail ?? "")
        case "unreachable": self = .unreachable(detail ?? "")
        default: return nil
        }
    }

    /// States that wait for the user's Retry (`RoutePlan.waitingLegs` is the one list of legs waiting).
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
