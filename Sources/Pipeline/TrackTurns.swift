import Foundation
import Geo
import Model

/// Finds turns in a recorded track that has no road graph, from its change of heading.
///
/// Robust to GPS noise by construction: the track is resampled at a fixed spacing, and the heading
/// before and after a place is the direction of the straight line fitted (total least squares, the
/// principal axis of the points) through a settling window of samples on each side, rather than one
/// segment's bearing: with 12 samples over 60 m, 4 m of scatter moves it by about 4°. A turn is a change of heading above `minimumTurn`; of a run of places above it
/// (on the same side), the one with the largest change is kept (local-maximum suppression), and of
/// two turns closer than `minimumSpacing` the larger is kept. The result depends on the track only:
/// the same track gives the same turns every time.
public struct TrackTurns: Sendable {
    /// Thresholds of finding turns in a track, each with its reason.
    public struct Configuration: Sendable, Equatable {
        /// Distance between resampled points, in metres: fine enough to place a turn within a few
        /// metres, coarse enough to keep the work small (a 500 km track is 100,000 samples).
        public var spacing: Metres = 5
        /// The heading before and after a place is fitted over this much track, in metres: long enough
        /// that 3–5 m GPS scatter moves it by a few degrees, short enough that a gently curving road
        /// turns little within it (a 300 m radius turns 13° over the span of the two windows).
        public var settlingWindow: Metres = 60
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
    /// Most samples taken along one track: a 5,000 km track at the default 5 m. A longer one (a
    /// trip round the globe) is sampled more coarsely instead of taking minutes.
    public static let maximumSamples = 1_000_000
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
        var c = configuration
        guard line.length > 2 * (c.settlingWindow + c.gap), c.spacing > 0, line.length.isFinite else { return [] }
        // A very long track is sampled more coarsely, so the work stays bounded.
        c.spacing = max(c.spacing, line.length / Double(Self.maximumSamples))
        let count = Int(line.length / c.spacing) + 1
        let raw = (0..<count).map { line.coordinate(atDistance: Double($0) * c.spacing) }
        let window = max(2, Int((c.settlingWindow / c.spacing).rounded()))
        let gap = Int((c.gap / c.spacing).rounded())
        struct Sample { var index: Int; var before: Degrees; var after: Degrees; var turn: Degrees }
        var samples: [Sample] = []
        for i in (gap + window)..<max(gap + window, count - gap - window) {
            let frame = LocalFrame(origin: raw[i])
            // Noise lengthens the line, so the window reaches out to `settlingWindow` on the ground
            // (at most four times its nominal count of samples).
            func reach(_ step: Int) -> Int {
                var k = gap + window
                while k < 4 * (gap + window), i + step * (k + 1) >= 0, i + step * (k + 1) < count {
                    let p = frame.project(raw[i + step * k])
                    if (p.x * p.x + p.y * p.y).squareRoot() >= c.gap + c.settlingWindow { break }
                    k += 1
                }
                return k
            }
            let back = reach(-1), ahead = reach(1)
            let before = fittedBearing(raw[(i - back)...(i - gap)], frame: frame)
            let after = fittedBearing(raw[(i + gap)...(i + ahead)], frame: frame)
            samples.append(Sample(index: i, before: before, after: after, turn: normalizedTurn(after - before)))
        }

        // Runs above the threshold on one side; the peak of each run (local-maximum suppression).
        var peaks: [Sample] = []
        var peak: Sample? = nil
        for s in samples {
            let above = abs(s.turn) >= c.minimumTurn
            // Hysteresis: a run goes on until the change falls below half the threshold, so noise on
            // the shoulder of one corner does not start a second turn.
            let stillTurning = abs(s.turn) >= c.minimumTurn / 2
            if let p = peak, stillTurning, (p.turn > 0) == (s.turn > 0) {
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

    /// Compass bearing of the principal axis of `points` (total least squares), pointing from the
    /// first towards the last. O(points).
    func fittedBearing(_ points: ArraySlice<Coordinate>, frame: LocalFrame) -> Degrees {
        let xy = points.map(frame.project)
        let n = Double(xy.count)
        let mx = xy.reduce(0) { $0 + $1.x } / n, my = xy.reduce(0) { $0 + $1.y } / n
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for p in xy {
            sxx += (p.x - mx) * (p.x - mx)
            syy += (p.y - my) * (p.y - my)
            sxy += (p.x - mx) * (p.y - my)
        }
        // Angle of the axis from east, anticlockwise.
        let theta = 0.5 * atan2(2 * sxy, sxx - syy)
        var dx = cos(theta), dy = sin(theta)
        let travel = (x: xy[xy.count - 1].x - xy[0].x, y: xy[xy.count - 1].y - xy[0].y)
        if dx * travel.x + dy * travel.y < 0 { dx = -dx; dy = -dy }
        return normalizedBearing(atan2(dx, dy) * 180 / .pi)
    }
}
