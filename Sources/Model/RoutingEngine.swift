import Foundation
import Geo

/// A road network that answers one leg at a time: OSRM, Valhalla, GraphHopper, or the embedded
/// router over an OpenStreetMap extract.
public protocol RoutingEngine: Sendable {
    /// Names the engine in messages ("OSRM is limiting requests").
    var name: String { get }
    /// The road from `start` to `end` in `mode`.
    /// - Throws: `RoutingError`.
    func route(from start: Coordinate, to end: Coordinate, mode: TravelMode) async throws -> RoadLeg
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
    /// The answer was larger than the client takes (its size limit, `maximumAnswerSize`): a server
    /// error whose message says the size; the caller may add how to raise the limit.
    case answerTooLarge(String)

    public var description: String {
        switch self {
        case .noRoute(let s), .rateLimited(let s), .serverError(let s), .unreachable(let s), .answerTooLarge(let s): s
        }
    }
}
