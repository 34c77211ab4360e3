import Foundation
import Geo

/// Where heights come from: DEM tiles on disk or an elevation service.
public protocol ElevationSource: Sendable {
    /// Names the source in messages and in the book ("SRTM3 tiles in dem/", "OpenTopoData srtm30m").
    var name: String { get }
    /// Heights above sea level in metres, one per point, nil where the source has no height (a void,
    /// outside its tiles, the sea for some services).
    /// - Throws: `ElevationError` when the source cannot answer at all (a corrupt tile, a service
    ///   that fails); a partial answer is never returned as a whole.
    func elevations(at points: [Coordinate]) async throws -> [Metres?]
}

/// A source that could not answer.
public struct ElevationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A limit the source's answer went over, which the caller may say how to raise.
    public enum Limit: Sendable, Equatable {
        /// The answer was larger than the client takes (`maximumAnswerSize`).
        case answerSize
    }

    /// The source, file or URL at fault.
    public var source: String
    public var message: String
    /// The limit hit, when that is why the source failed.
    public var limit: Limit?

    public init(source: String, message: String, limit: Limit? = nil) {
        self.source = source
        self.message = message
        self.limit = limit
    }

    public var description: String { "\(source): \(message)" }
}
