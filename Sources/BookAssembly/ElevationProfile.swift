import Foundation
import Geo
import Model

/// Builds the elevation profile of a route from heights sampled along it: the band of heights,
/// climb and descent with DEM noise filtered out, and the height at every note.
public struct ProfileBuilder: Sendable {
    /// Thresholds of the profile, each with its reason.
    public struct Configuration: Sendable, Equatable {
        /// Metres between samples along the route: fine enough for a hairpin's climb, coarse
        /// enough that 1,000 km is 67,000 heights. 15 m sits in the 10–20 m road books use.
        public var spacing: Metres = 15
        /// A change of height smaller than this (metres) is not counted as climb or descent. SRTM's
        /// relative vertical error is about ±6 m (1σ), more in narrow valleys where a 90 m cell
        /// takes in the slopes beside the road: only a change of twice that is surely the road's.
        /// Heights are followed with this hysteresis (a climb counts once the road has risen this
        /// much above the last low point, and then in full).
        public var noiseThreshold: Metres = 12

        public init() {}
    }

    public var configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Where to ask for heights: the route every `spacing` metres, and its end.
    public func samplePoints(along route: Polyline) -> [Coordinate] {
        route.resampled(spacing: configuration.spacing)
    }

    /// The profile from heights at `samplePoints(along:)` (nil where the source had none).
    /// - Complexity: O(samples).
    public func profile(heights: [Metres?], source: String?) -> Profile {
        let (climb, descent) = Self.climbAndDescent(heights.compactMap { $0 }, threshold: configuration.noiseThreshold)
        return Profile(spacing: configuration.spacing, heights: heights.map { $0.map { ($0 * 10).rounded() / 10 } },
                       climb: climb, descent: descent, source: source)
    }

    /// Total climb and descent of a height series, ignoring changes smaller than `threshold`
    /// (hysteresis: a reference height moves only when the series leaves the band of ±threshold
    /// around it, and the whole move then counts).
    public static func climbAndDescent(_ heights: [Metres], threshold: Metres) -> (climb: Metres, descent: Metres) {
        guard var reference = heights.first else { return (0, 0) }
        var climb = 0.0, descent = 0.0
        // The extreme reached since the reference, in the direction we are going.
        var direction = 0   // +1 rising, −1 falling, 0 undecided
        var extreme = reference
        for h in heights.dropFirst() {
            switch direction {
            case 0:
                if h >= reference + threshold { direction = 1; extreme = h }
                else if h <= reference - threshold { direction = -1; extreme = h }
            case 1:
                if h > extreme { extreme = h }
                else if h <= extreme - threshold {
                    climb += extreme - reference
                    reference = extreme
                    direction = -1
                    extreme = h
                }
            default:
                if h < extreme { extreme = h }
                else if h >= extreme + threshold {
                    descent += reference - extreme
                    reference = extreme
                    direction = 1
                    extreme = h
                }
            }
        }
        if direction == 1 { climb += extreme - reference } else if direction == -1 { descent += reference - extreme }
        return (climb, descent)
    }
}

extension Profile {
    /// Height at `distance` metres along the route, interpolated between samples; nil where a
    /// neighbouring sample has none.
    public func height(atDistance distance: Metres, routeLength: Metres) -> Metres? {
        guard !heights.isEmpty, spacing > 0 else { return nil }
        let d = min(max(distance, 0), routeLength)
        // Samples sit at 0, spacing, 2·spacing, … and the last one at the route's end.
        let regular = heights.count - 1
        let position = d / spacing
        var i = Int(position.rounded(.down))
        if i >= regular - 1 {
            // The last stretch runs from the last regular sample to the end.
            i = max(0, regular - 1)
            let start = Double(i) * spacing
            let stretch = routeLength - start
            guard let a = heights[i], let b = heights[min(i + 1, regular)] else { return nil }
            let t = stretch > 0 ? min(max((d - start) / stretch, 0), 1) : 0
            return a + (b - a) * t
        }
        guard let a = heights[i], let b = heights[i + 1] else { return nil }
        return a + (b - a) * (position - Double(i))
    }

    /// The steepest grade between consecutive samples, as a fraction (0.08 is 8 %), up or down.
    public var steepestGrade: Double {
        var steepest = 0.0
        for (a, b) in zip(heights, heights.dropFirst()) {
            if let a, let b { steepest = max(steepest, abs(b - a) / spacing) }
        }
        return steepest
    }
}

extension ProfileBuilder {
    /// Stores the profile in `book` and gives every note its height. When some sample has no height
    /// the profile is kept (it shows where terrain is missing) but no note gets a height: the book
    /// prints "No terrain for this route" and no elevation rows, rather than rows with gaps.
    /// - Parameter heights: heights at `samplePoints(along:)` of the book's route.
    public func apply(heights: [Metres?], source: String?, to book: inout Book) {
        book.profile = self.profile(heights: heights, source: source)
        book.setNoteHeights()
    }
}

extension Book {
    /// Gives every note its height from the book's profile, at its distance along the route, to
    /// the decimetre; none when the profile is missing or incomplete.
    public mutating func setNoteHeights() {
        let length = Polyline(route.coordinates).length
        for i in notes.indices {
            notes[i].elevation = profile.flatMap { profile in
                profile.isComplete
                    ? profile.height(atDistance: notes[i].distanceAlong, routeLength: length).map { ($0 * 10).rounded() / 10 }
                    : nil
            }
        }
    }
}
