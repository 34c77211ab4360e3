import Foundation
import Geo
import Model

/// Finds turns in a recorded track that has no road graph, from its change of heading.
///
/// Robust to GPS noise by construction: the track is resampled at a fixed spacing, smoothed with a
/// moving average, and the heading is read over a settling window on each side of a place rather than
/// from one segment. A turn is a change of heading above `minimumTurn`; of a run of places above it
/// (on the same side), the one with the largest change is kept (local-maximum suppression), and of
/// two turns closer than `minimumSpacing` the larger is kept. The result depends on the track only:
/// the same track gives the same turns every time.
public struct TrackTurns: Sendable {
    /// Thresholds of finding turns in a track, each with its reason.
    public struct Configuration: Sendable, Equatable {
        /// Distance between resampled points, in metres: fine enough to place a turn within a few
        /// metres, coarse enough to keep the work small (a 500 km track is 100,000 samples).
        public var spacing: Metres = 5
        /// Each point is averaged with the points within this distance either side, in metres:
        /// it takes out 3–5 m GPS scatter without rounding a corner by more than a few metres.
        public var smoothingRadius: Metres = 10
        /// The heading before and after a place is read over this much track, in metres (20–30 m
        /// is what a rider perceives as the direction of the road, not one wobble).
        public var settlingWindow: Metres = 30
        /// The windows start this far from the place, in metres, so the corner itself is not averaged in.
        public var gap: Metres = 5
        /// A change of heading above this, in degrees, is a turn. A gently curving road changes far less
        /// over the span of the two windows; a junction turn or a hairpin more.
        public var minimumTurn: Degrees = 40
        /// Two turns closer than this along the track, in metres, are one: the larger is kept.
        public var minimumSpacing: Metres = 50

        public init() {}
    }

    public var configuration: Configuration
    /// Thresholds used to name each turn's modifier.
    public var turnConfiguration: TurnDetector.Configuration

    public init(configuration: Configuration = Configuration(),
                turnConfiguration: TurnDetector.Configuration = TurnDetector.Configuration()) {
        self.configuration = configuration
        self.turnConfiguration = turnConfiguration
    }

    /// The turns of `track`, as maneuvers of kind `turn` (or `uTurn`) in track order. Each carries a
    /// synthetic junction with only an entry and an exit spoke, so `TulipBuilder` can draw it.
    /// - Parameter track: the recorded points, in order of travel.
    /// - Complexity: O(length / spacing) geodesic solutions.
    public func maneuvers(in track: [Coordinate]) -> [Maneuver] {
        let line = Polyline(track)
        let c = configuration
        guard line.length > 2 * (c.settlingWindow + c.gap), c.spacing > 0 else { return [] }
        let count = Int(line.length / c.spacing) + 1
        let raw = (0..<count).map { line.coordinate(atDistance: Double($0) * c.spacing) }
        let smooth = smoothed(raw, radius: Int((c.smoothingRadius / c.spacing).rounded()))

        let window = max(1, Int((c.settlingWindow / c.spacing).rounded()))
        let gap = Int((c.gap / c.spacing).rounded())
        struct Sample { var index: Int; var before: Degrees; var after: Degrees; var turn: Degrees }
        var samples: [Sample] = []
        for i in (gap + window)..<max(gap + window, count - gap - window) {
            let before = smooth[i - gap - window].bearing(to: smooth[i - gap])
            let after = smooth[i + gap].bearing(to: smooth[i + gap + window])
            samples.append(Sample(index: i, before: before, after: after, turn: normalizedTurn(after - before)))
        }

        // Runs above the threshold on one side; the peak of each run.
        var peaks: [Sample] = []
        var peak: Sample? = nil
        for s in samples {
            let above = abs(s.turn) >= c.minimumTurn
            if let p = peak, above, (p.turn > 0) == (s.turn > 0) {
                if abs(s.turn) > abs(p.turn) { peak = s }
                continue
            }
            if let p = peak { peaks.append(p); peak = nil }
            if above { peak = s }
        }
        if let p = peak { peaks.append(p) }

        // Minimum spacing: the larger of two close turns.
        var kept: [Sample] = []
        for p in peaks {
            if let last = kept.last, Double(p.index - last.index) * c.spacing < c.minimumSpacing {
                if abs(p.turn) > abs(last.turn) { kept[kept.count - 1] = p }
                continue
            }
            kept.append(p)
        }

        return kept.map { s in
            let d = Double(s.index) * c.spacing
            let point = line.coordinate(atDistance: d)
            let junction = Junction(coordinate: point, distanceAlong: d, spokes: [
                Spoke(bearing: normalizedBearing(s.before + 180), role: .entry),
                Spoke(bearing: normalizedBearing(s.after), role: .exit),
            ])
            let modifier = TurnDetector.modifier(for: s.turn, configuration: turnConfiguration)
            return Maneuver(kind: modifier == .uTurn ? .uTurn : .turn, modifier: modifier, distanceAlong: d,
                            coordinate: point, turnAngle: s.turn, junctions: [junction])
        }
    }

    /// Moving average of latitude and longitude over `radius` points either side (fewer at the ends).
    /// Averaging degrees is exact enough over tens of metres.
    func smoothed(_ points: [Coordinate], radius: Int) -> [Coordinate] {
        guard radius > 0 else { return points }
        var lat = [0.0], lon = [0.0]
        lat.reserveCapacity(points.count + 1)
        lon.reserveCapacity(points.count + 1)
        let lon0 = points.first?.longitude ?? 0
        for p in points {
            // Relative to the first point, so a track across the antimeridian averages correctly.
            lat.append(lat.last! + p.latitude)
            lon.append(lon.last! + normalizedTurn(p.longitude - lon0))
        }
        return points.indices.map { i in
            let lo = max(0, i - radius), hi = min(points.count - 1, i + radius)
            let n = Double(hi - lo + 1)
            return Coordinate(latitude: (lat[hi + 1] - lat[lo]) / n,
                              longitude: normalizedTurn(lon0 + (lon[hi + 1] - lon[lo]) / n))
        }
    }
}
