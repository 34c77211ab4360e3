import Foundation
import Geo

/// The elevation profile of the route: heights sampled along it, with climb and descent.
/// Stored in the book so it prints offline.
public struct Profile: Codable, Sendable, Equatable {
    /// Metres between samples along the route.
    public var spacing: Metres
    /// Height at 0, `spacing`, 2·`spacing`, … and at the end of the route, in metres; nil where the
    /// source had no height.
    public var heights: [Metres?]
    /// Total ascent and descent in metres, with DEM noise below the threshold ignored.
    public var climb: Metres
    public var descent: Metres
    /// Where the heights came from (for example "SRTM3 N42E001").
    public var source: String?

    public init(spacing: Metres, heights: [Metres?], climb: Metres, descent: Metres, source: String? = nil) {
        self.spacing = spacing
        self.heights = heights
        self.climb = climb
        self.descent = descent
        self.source = source
    }

    /// True when every sample has a height: only then does the book print its elevation rows.
    public var isComplete: Bool { !heights.isEmpty && heights.allSatisfy { $0 != nil } }

    /// Lowest and highest height, when there is any.
    public var range: ClosedRange<Metres>? {
        let known = heights.compactMap { $0 }
        guard let lo = known.min(), let hi = known.max() else { return nil }
        return lo...hi
    }
}
