import Foundation
import Geo

/// Several sources tried in order: each point takes its height from the first source that has one.
///
/// The first source is asked for every point, the second only for the points still without a
/// height, and so on. A source that throws is set aside for the rest of the call: its error is
/// kept in the `Report` and told to `onFailure`, and the next source is asked instead. So the
/// caller can say "OpenTopoData srtm30m failed (HTTP 429); used SRTM3 tiles for 250 of 250 points".
public struct FallbackChain: ElevationSource {
    /// A source that failed during a call.
    public struct Failure: Sendable, Equatable, CustomStringConvertible {
        /// The source's `name`.
        public var source: String
        public var error: ElevationError

        public var description: String { "\(source) failed (\(error))" }
    }

    /// What one call found: the heights, where each came from, and what failed.
    public struct Report: Sendable {
        /// One per point, nil where no source had a height.
        public var heights: [Metres?]
        /// One per point: the index in `sourceNames` of the source that gave its height.
        public var sourceIndex: [Int?]
        /// The names of the chain's sources, in order.
        public var sourceNames: [String]
        /// The sources that threw, in the order they were asked.
        public var failures: [Failure]

        /// How many points have no height from any source.
        public var pointsWithoutHeight: Int { heights.lazy.filter { $0 == nil }.count }

        /// How many points took their height from the source at `index`.
        public func pointCount(from index: Int) -> Int { sourceIndex.lazy.filter { $0 == index }.count }

        /// One line for the user: the failures, then which sources gave how many heights, e.g.
        /// "OpenTopoData srtm30m failed (…: OpenTopoData is limiting requests (HTTP 429)…);
        /// used SRTM3 tiles in dem/ for 250 of 250 points".
        public var summary: String {
            var parts = failures.map(\.description)
            let used = sourceNames.indices.compactMap { index -> String? in
                let count = pointCount(from: index)
                return count == 0 ? nil : "\(sourceNames[index]) for \(count) of \(heights.count) points"
            }
            if !used.isEmpty { parts.append("used " + used.joined(separator: ", ")) }
            if pointsWithoutHeight > 0 { parts.append("no height for \(pointsWithoutHeight) of \(heights.count) points") }
            return parts.joined(separator: "; ")
        }
    }

    public let sources: [any ElevationSource]
    /// Told of each failure as it happens (for a log or a terminal line); the `Report` has them all.
    public var onFailure: (@Sendable (Failure) -> Void)?

    public var name: String { sources.map(\.name).joined(separator: ", then ") }

    public init(_ sources: [any ElevationSource], onFailure: (@Sendable (Failure) -> Void)? = nil) {
        self.sources = sources
        self.onFailure = onFailure
    }

    /// Heights for `points` and where they came from. Cost: one call to each source at most, each
    /// for the points the sources before it left without a height; none once all points have one.
    /// - Throws: only `CancellationError`, when the task is cancelled; a source's failure is
    ///   reported, not thrown.
    public func report(at points: [Coordinate]) async throws -> Report {
        var report = Report(heights: Array(repeating: nil, count: points.count),
                            sourceIndex: Array(repeating: nil, count: points.count),
                            sourceNames: sources.map(\.name), failures: [])
        for (index, source) in sources.enumerated() {
            let wanted = report.heights.indices.filter { report.heights[$0] == nil }
            if wanted.isEmpty { break }
            do {
                let heights = try await source.elevations(at: wanted.map { points[$0] })
                guard heights.count == wanted.count else {
                    throw ElevationError(source: source.name, message: "answered \(heights.count) heights "
                                         + "for \(wanted.count) points; the answer is not used")
                }
                for (point, height) in zip(wanted, heights) where height != nil {
                    report.heights[point] = height
                    report.sourceIndex[point] = index
                }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                let failure = Failure(source: source.name, error: error as? ElevationError
                                      ?? ElevationError(source: source.name, message: "\(error)"))
                report.failures.append(failure)
                onFailure?(failure)
            }
        }
        return report
    }

    /// Heights in metres, one per point, from the first source that has one; nil where none has.
    /// Cost: as `report(at:)`.
    /// - Throws: `ElevationError` listing every failure when every source failed, so nothing at
    ///   all was learnt; `CancellationError` when cancelled.
    public func elevations(at points: [Coordinate]) async throws -> [Metres?] {
        let report = try await report(at: points)
        if !sources.isEmpty, report.failures.count == sources.count {
            throw ElevationError(source: name, message: "every source failed: "
                                 + report.failures.map(\.description).joined(separator: "; "))
        }
        return report.heights
    }
}
