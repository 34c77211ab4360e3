import Foundation
import Geo
import Model
import Terrain

// An answer larger than the client takes (`maximumAnswerSize`) fails with the limit as data
// (`RoutingError.answerTooLarge`, `ElevationError.limit`); how to raise the limit is the caller's to
// say (the command line names its option), and is added here, where the failure becomes words.

/// A routing engine whose answers too large for the client are told with `advice` after the size.
struct AnswerLimitAdvice: RoutingEngine {
    let engine: any RoutingEngine
    let advice: String

    var name: String { engine.name }

    func route(from start: Coordinate, to end: Coordinate, mode: TravelMode) async throws -> RoadLeg {
        do {
            return try await engine.route(from: start, to: end, mode: mode)
        } catch RoutingError.answerTooLarge(let message) {
            throw RoutingError.answerTooLarge("\(message); \(advice)")
        }
    }
}

extension EngineSettings {
    /// `engine`, its answers too large told with `answerLimitAdvice` when there is one.
    func advised(_ engine: any RoutingEngine) -> any RoutingEngine {
        answerLimitAdvice.map { AnswerLimitAdvice(engine: engine, advice: $0) } ?? engine
    }
}

extension FallbackChain.Failure {
    /// The failure, with `advice` after the message when the source's answer was too large.
    func advised(_ advice: String?) -> FallbackChain.Failure {
        guard let advice, error.limit == .answerSize else { return self }
        var advised = self
        advised.error.message += "; " + advice
        return advised
    }
}
