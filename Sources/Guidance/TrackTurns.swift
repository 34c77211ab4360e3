import Foundation
import Geo
import Model

/// Finds turns in a recorded track that has no road graph, from its change of heading.
///
/// The track is resampled at a fixed `spacing` along it. At every sample the heading before and
/// after is the direction of the straight line fitted (total least squares, the principal axis of
/// the points) through a window of a fixed number of samples on each side, `window` metres of
/// track: with 3 m GPS scatter, a 30 m window moves by a few degrees, and a fixed count of samples
/// cannot stretch over a neighbouring turn on a winding road. Where the change between them exceeds
/// `minimumTurn` the track bends; a bend runs on while the change stays above half of it on the
/// same side (hysteresis).
///
/// Each bend is then measured:
/// - its **start** is where the track leaves the straight line fitted before it by more than a
///   departure tolerance (at least `departure`, more on a scattered track): the row sits where the
///   heading starts to change, where the junction is, not at the apex of the curve; a turn's row
///   (not a loop's) no more than `cornerReach` before the sharpest change (a road curving into a
///   junction leaves the line early);
/// - its **rotation** is the heading change summed sample by sample from before the bend to after
///   it, so a loop counts beyond 180°.
///
/// On a clean track (a routed or drawn line, whose scatter is a fraction of a metre) the bends are
/// read with little smoothing, and small roundabouts passed nearly straight are found by their
/// wiggle (see `Configuration.wiggleTurn`). A jittered track (a receiver's, whose error drifts
/// slowly and moves a metre or so from fix to fix, `jitteredScatter`) is read the same way, its
/// wiggles over more smoothing and against thresholds raised with its jitter, and named by their
/// change of heading, never a roundabout (see `maneuvers(_:)`); on a scattered track
/// (independent metres of scatter at every fix) such a wiggle is below the noise. A densely logged
/// track that is not clean is read from the means of its fixes over `spacing` (`denseFix`).
/// On a lightly scattered track (`lightScatter`) the noise is taken out by fitting
/// each heading over more points (`scatteredWindow`, from the place itself) rather than by
/// smoothing, which would pull the corner in and blur neighbouring turns together.
///
/// What a track with 3 m of independent scatter at every fix, a fix every 10 m, can show is
/// limited: a 15 m window holds one or two fixes' worth of information, so its heading wanders by
/// some 15°, and a corner of 60° is now and then measured under the threshold; a roundabout of
/// 8–15 m radius passed nearly straight moves the track by about its radius for 30–40 m, within two
/// or three times the scatter, and this reader does not tell it from the scatter or a gentle curve.
/// How much of it the fixes hold at all, the turn-quality benchmark bounds with an ideal reader
/// told where each ring is and its path: about seven rings in ten at the false finds the goal's
/// extra rows leave room for (see its shape columns and the README's "How well, measured").
///
/// Then:
/// - a bend that turns more than `loopTurn` within `loopLength`, and whose road on does not turn
///   back against the road before it (a hairpin's does, `hairpinTurn`), is a roundabout's loop: a
///   `roundabout` maneuver with no exit number (the roads not taken are not known);
/// - a bend after which the track comes back along itself (the next `uTurnReach` metres lie within
///   `uTurnCorridor` of the track before it) is a U-turn; any other bend, a hairpin too, is a turn
///   (a sharp one when it turns back more than `sharpLimit`);
/// - a turn followed within `staggerDistance` (start to start) by a turn to the other side is one
///   row, "left then right", as `TurnPasses.mergeStaggered` does for map turns;
/// - of two rows closer than `minimumSpacing`, the stronger is kept.
///
/// The result depends on the track only: the same track gives the same turns every time. A track
/// cannot show a road not taken: slight forks, where the route keeps nearly straight, give no row.
public struct TrackTurns: Sendable {
    /// Thresholds of finding turns in a track, each with its reason.
    public struct Configuration: Sendable, Equatable {
        /// Distance between resampled points, in metres: fine enough to place a turn within a few
        /// metres, coarse enough to keep the work small (a 500 km track is 100,000 samples).
        public var spacing: Metres = 5
        /// The heading before and after a place is fitted over this much track, in metres, a fixed
        /// number of samples: with the smoothing, long enough that 3 m GPS scatter moves it by some
        /// degrees, short enough not to reach a neighbouring turn 40 m away on a winding road (tried
        /// at 10, 15, 20, 25 and 30 m on the turn-quality benchmark's tuning routes: 10 m found most
        /// once the smoothing follows the scatter; 15 m with the old fixed 15 m smoothing).
        public var window: Metres = 10
        /// Half-width of the triangular moving average, in metres, with which the track's scatter is
        /// measured: it takes 3 m GPS scatter out (without it, a track with 3 m noise gave two to
        /// three times the rows of its clean line).
        public var smoothing: Metres = 15
        /// The track is clean when its scatter (see `scatterAllowance`) is below this, in metres: a
        /// routed or drawn line measures 0.05 m at the median and under 0.15 m on nine in ten of the
        /// turn-quality benchmark's OSRM lines, a receiver's track with 0.5 m of jitter about 0.25 m,
        /// one with 1 m of jitter along a straight road 0.25–0.3 m (read as clean at 0.3 m, its
        /// jitter made rows on half the test recordings of a straight road), 3 m of independent
        /// scatter at every fix about 0.8 m.
        public var cleanScatter: Metres = 0.2
        /// Smoothing half-width for finding bends on a clean or jittered track, in metres: one sample
        /// either side, so the corners of a drawn line are kept (a turn 30 m from the next is not
        /// blurred into it) while its 1–2 m vertex jitter is not read as heading. On the tuning routes
        /// it lifted recall of turns of 45° or more on OSRM's lines from 67% to 82% (15 m before).
        /// The track is smoothed so twice, before and after it is resampled along the smoothed line
        /// (jitter lengthens a track, so samples counted along it would be closer on the ground).
        /// Before, the bends were read from the track smoothed over `smoothing` (15 m) and then over
        /// this: on 200 routes of tuning seed 3, the recorded tracks (1 m of jitter) found 82.4% of the
        /// goal turns with 14.7% extra rows, 84.2% with 15.4% smoothed twice over this, 85.0% with
        /// 16.1% once (with 2 m of jitter, 22% extra rows), 82.8% with 14.8% over 10 m then this;
        /// OSRM's lines 92.3% with 11.2%, now 93.8% with 13.0%.
        public var cleanSmoothing: Metres = 5
        /// Smoothing half-width for finding bends on a lightly scattered track (scatter up to
        /// `lightScatter`), in metres: one sample either side. On such a track the noise is taken
        /// out by the longer fitted windows (`scatteredWindow`) instead: smoothing moves every point
        /// towards the inside of a corner and blurs two turns 30 m apart into one, a fit over more
        /// points does neither. On the tuning routes' tracks (seeds 3, 7, 13; a fix every 10 m,
        /// 3 m noise), with the 15 m windows and a 51° threshold, 10 m found 51% of the goal turns
        /// with 3% extra rows and 5 m 54% with 6%; more scattered tracks keep `smoothing`.
        public var scatteredSmoothing: Metres = 5
        /// On a lightly scattered track the heading before and after a place is fitted over this
        /// much track, in metres, starting at the place itself (`scatteredGap`): the heading of a
        /// line fitted through n points of scatter σ over length L wanders by about
        /// σ·√12 / (L·√n), so 15 m of 5 m samples (4 points) wander about half as much as the 10 m
        /// window (3 points) 5 m off the place, while reaching no further from it (15 m), so a
        /// neighbouring turn 40 m away stays out. On the tuning routes it halved the extra rows
        /// (10% to 5.7%) at the same recall; 20 m windows reached over gentle curves (more extra rows).
        public var scatteredWindow: Metres = 15
        /// See `scatteredWindow`, in metres: no gap, the points at the corner count too (with the light
        /// smoothing they are not pulled far into it).
        public var scatteredGap: Metres = 0
        /// On a lightly scattered track, a change between the windows above this, in degrees, is a bend
        /// (instead of `minimumTurn` plus the scatter allowance, 51° at 0.8 m of scatter). The fitted
        /// lines take the corner's first and last metres as part of the legs, so a 45° junction
        /// measures a few degrees less; each degree lower finds more turns and more gentle curves:
        /// on the tuning routes 51° found 56% of the goal turns with 6% extra rows, 47° 60% with 13%,
        /// 44° 64% with 19%, 40° 68% with 29% (docs/turn-quality.md allows 25%); 44° keeps a margin under that.
        public var scatteredTurn: Degrees = 44
        /// On a lightly scattered track, the least rotation of a bend that makes a row, in degrees:
        /// `scatteredTurn` less the 5° by which `minimumRotation` is below `minimumTurn`.
        public var scatteredRotation: Degrees = 39
        /// A track whose scatter is from `cleanScatter` up to this, in metres, is **jittered**: the
        /// track of a receiver, whose fixes drift from the road by metres but slowly, moving from one
        /// fix to the next by a metre or so, so the shape of a corner or of a small roundabout stays
        /// in the track. Its bends are read as a clean track's (`cleanSmoothing`, `window`, `gap`,
        /// `minimumTurn` plus the allowance) and its small roundabouts by their wiggle over more
        /// smoothing (`jitteredWiggleSmoothing`). The turn-quality benchmark's recorded tracks (3 m
        /// in all, 1 m of it jitter from fix to fix) measure about 0.34 m, 2 m of jitter about
        /// 0.57 m; 3 m of scatter drawn anew at every fix measures about 0.8 m and is read as a
        /// scattered track (`lightScatter`). Read as scattered, a track with 1 m of jitter found
        /// fewer turns (52–60% of the goal turns on the tuning routes) than one with 3 m of
        /// independent scatter (60–66%): the scattered reading's threshold counts on the scatter to
        /// swell a corner's measured angle.
        public var jitteredScatter: Metres = 0.7
        /// On a jittered track, the wiggle is measured on the track smoothed over this half-width, in
        /// metres: over 5 m a metre of jitter swings the heading from sample to sample by some 15°,
        /// and read so, the tuning routes' tracks with 1 m of jitter had 1.7 times the rows of their
        /// clean lines; a ring's swings last 20–30 m and stay. A clean line keeps `cleanSmoothing`,
        /// as 10 m blurs its smallest rings (its goal turns found fell from 92% to 90%).
        public var jitteredWiggleSmoothing: Metres = 10
        /// On a jittered track, `wiggleTurn` and `wiggleExcess` are these, in degrees: the smoothing
        /// rounds a ring's swings, so they measure less than on a clean line (tried 30/20, 35/22,
        /// 35/25, 40/25 and 50/30 on the tuning routes: 40/25 kept the extra rows at 20% or under
        /// from 0.5 to 2 m of jitter).
        public var jitteredWiggleTurn: Degrees = 40
        /// See `jitteredWiggleTurn`.
        public var jitteredWiggleExcess: Degrees = 25
        /// On a jittered track, both wiggle thresholds are raised by the track's own median swing over
        /// `wiggleLength` (the jitter's share of it, on a road that mostly runs on) times the scatter
        /// above `jitterRampFrom` divided by this, in metres: more jitter swings the heading more
        /// everywhere. With 0.3 m, tracks with 1.5–2 m of jitter had 28–36% extra rows; with 0.15 m,
        /// 2 m of jitter found no more goal turns (57–65%) than the scattered reading; 0.2 m kept
        /// 10–20%.
        public var jitterRamp: Metres = 0.2
        /// See `jitterRamp`: the thresholds rise with the scatter above this, in metres (the scatter
        /// of 0.5 m of jitter, about 0.25 m, leaves them as they are).
        public var jitterRampFrom: Metres = 0.3
        /// On a jittered track, a wiggle makes a row only where the track leaves the straight line
        /// through the wiggle's ends by at least this, in metres: a ring of 8–15 m radius moves it by
        /// about its radius, a metre of jitter smoothed over 10 m by under 2 m. On the tuning routes
        /// it took 2% of the extra rows off for under 1% of the goal turns; 4 m took 4% of them.
        public var jitteredStray: Metres = 3
        /// See `scatteredSmoothing`, in metres of scatter: the tuning tracks measure about 0.75 m; a
        /// fix every 5 m with 5 m noise measures more and, smoothed over 10 m only, made two rows of
        /// one corner.
        public var lightScatter: Metres = 1
        /// A track whose fixes are closer together than this at the median, in metres, and that is not
        /// clean, is read from the means of its fixes over `spacing` of ground: a receiver logging every
        /// second at walking or town speed, or several times a second. Read as they were, its
        /// resampled points were fixes of their own rather than points between two fixes, so a metre
        /// of jitter measured as independent scatter, the track was read as scattered and its denser
        /// fixes found fewer turns than sparse ones. On the turn-quality benchmark's tuning routes
        /// (seeds 3, 7, 13) with the recorded tracks' error, a fix every 1, 2 and 5 m found 68–74%,
        /// 63–71% and 78–79% of the goal turns; from means over 5 m, 87–88%, 85–88% and 81–85%, with
        /// 10–12% extra rows (a fix every 10 m: 83–86%). Means over 10 m gave 80–83%, 75–81% and 71–78%
        /// (vertices some 12 m apart read as a sparser track), over 3 m 71–75%, 77–80% and 78–79%
        /// (still read as scattered). 6 m leaves tracks with a fix every 10 m as they are.
        public var denseFix: Metres = 6
        /// On a clean track, a place where the heading swings this much in all, in degrees, within
        /// `wiggleLength` is a small roundabout passed nearly straight: entering it turns right, the
        /// ring bends left, leaving turns right again. Most of Andorra's rings have a radius of
        /// 8–15 m; passed at exit 2 of 4 the line wiggles by ±40–70° over 20–30 m and its heading
        /// hardly changes, so the bend finder cannot see it.
        public var wiggleTurn: Degrees = 60
        /// Of `wiggleTurn`, at least this much, in degrees, must be turning back (the absolute sum
        /// less the net change): a curve that only turns one way is a bend, not a ring.
        public var wiggleExcess: Degrees = 40
        /// See `wiggleTurn`, in metres (30 m found a fifth fewer rings on the tuning routes, 50 m
        /// more rows on curves).
        public var wiggleLength: Metres = 40
        /// A wiggle is a ring only where the track runs steadily for this many metres before it and
        /// after it, its heading turning less than `ringApproachTurn` over each: a ring is entered
        /// from a road and left by one, while a wiggle inside a bend (the way out of a hairpin, an
        /// S-bend) is the road's own. On 150 routes each of tuning seeds 3 and 7, a quarter of the
        /// "Roundabout" rows read from OSRM's lines stood at no roundabout with it (26% and 25%), 45%
        /// and 40% without, and as many roundabouts were named.
        public var ringApproach: Metres = 20
        /// See `ringApproach`, in degrees.
        public var ringApproachTurn: Degrees = 25
        /// A wiggle that is no ring (it bulges out to the left, see `wiggles`) and whose heading changes less
        /// than this, in degrees, reads "Straight on": the road jogs at a place with a choice.
        public var straightOnLimit: Degrees = 30
        /// The windows start this far from the place, in metres, so the corner itself is not averaged in.
        public var gap: Metres = 5
        /// A change of heading between the windows above this, in degrees, is a bend: a junction
        /// turn of 45° or more shows as about its full angle; a road curving at 300 m radius changes
        /// 4°, and 3 m GPS scatter, smoothed, rarely reaches 45°.
        public var minimumTurn: Degrees = 45
        /// Degrees added to `minimumTurn` per metre of the track's scatter (the median distance of its
        /// points from the smoothed line): the smoothed heading of a track with 5 m scatter still
        /// wanders by 10–20°, so its bends must be larger to be told from it.
        public var scatterAllowance: Degrees = 8
        /// A bend must turn at least this much in all, in degrees, to make a row.
        public var minimumRotation: Degrees = 40
        /// The least departure from the line before a bend that starts it, in metres. On a scattered
        /// track the tolerance is twice the scatter of the points about that line, when larger.
        public var departure: Metres = 3
        /// From where the track is off the line before a bend by the departure tolerance, the row
        /// moves back while it is off by more than this share of it: a 30 m curve's row sits 7 m past
        /// the start of the curve rather than 13 m. Clean tracks only: on the tuning routes' noisy
        /// tracks it found 1–2% fewer turns.
        public var departureStart: Double = 0.25
        /// A row sits no further than this, in metres, before the place where the heading changes
        /// fastest (the most between the windows): a road that curves into a junction leaves the
        /// line before it long before the corner, and its row would sit short of the junction. A
        /// junction's corner turns within 10–20 m (90° at 15 m radius starts 12 m before its middle).
        /// On 150 routes each of tuning seeds 3 and 7, the recorded tracks found 84.1% and 84.4% of
        /// the goal turns without it, 85.1% and 84.9% with it (10 m: 85.0% and 84.6%; 20 m: 84.9% and
        /// 84.9%), for 0.2–0.3% more extra rows; OSRM's lines 94.0% and 94.6%, now 94.5% and 94.7%,
        /// with wrong sides down from 4.6% to 3.7% on seed 3.
        public var cornerReach: Metres = 15
        /// A bend turning more than this, in degrees, within `loopLength` is a roundabout's loop: a
        /// hairpin turns back about 180°, a road seldom turns further in so short a way, and one that
        /// does leaves the way it came (see `hairpinTurn`).
        public var loopTurn: Degrees = 200
        /// See `loopTurn`, in metres from the start of the bend to its end.
        public var loopLength: Metres = 100
        /// A loop whose road on turns back against the road before it by more than this, in degrees,
        /// is a hairpin, not a roundabout: round a ring the track swings out on entry and exit and
        /// leaves by another road (a left turn, 90°, or straight on), while a mountain road's hairpin
        /// leaves the way it came. Measured between the lines fitted over `hairpinLegs` before the
        /// loop's start and after its end. Andorra's hairpins measure 200–220° through the bend, as
        /// much as its roundabouts' loops: on 150 routes each of tuning seeds 3 and 7, the noisy
        /// tracks' "Roundabout" rows, all of them loops, stood at no roundabout 28 times in 30 and 42
        /// in 43 without it; with it they make none.
        public var hairpinTurn: Degrees = 135
        /// See `hairpinTurn`, in metres.
        public var hairpinLegs: Metres = 30
        /// The track comes back along itself (a U-turn) when the next `uTurnReach` metres after a
        /// bend lie within this many metres of the track before it: the two sides of one road
        /// plus GPS scatter. A hairpin's legs part further within that reach.
        public var uTurnCorridor: Metres = 12
        /// See `uTurnCorridor`, in metres.
        public var uTurnReach: Metres = 50
        /// A turn that turns back more than this, in degrees, is sharp (a hairpin).
        public var sharpLimit: Degrees = 120
        /// Turns to opposite sides whose starts are closer than this, in metres, are one row "left
        /// then right": a rider sees both at once (30–50 m in rally practice).
        public var staggerDistance: Metres = 40
        /// Two rows closer than this along the track, in metres, are one place: the stronger is kept.
        public var minimumSpacing: Metres = 20
        /// Traffic keeps left: a small roundabout is driven clockwise, so passed nearly straight the
        /// track bulges out to the left of its way on, not the right (see `wiggleTurn`).
        public var leftHandTraffic = false

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

    /// How a track is read: how much it scatters, and so which thresholds find its turns.
    public struct Reading: Sendable, Equatable {
        public enum Kind: String, Sendable, Equatable {
            /// A routed or drawn line, scatter under `Configuration.cleanScatter`.
            case clean
            /// A receiver's track, whose error drifts slowly and moves a metre or so from fix to fix.
            case jittered
            /// Metres of independent scatter at every fix: small roundabouts passed nearly straight and
            /// jogs of the road are below the noise, and some turns too (see the README's "How well,
            /// measured").
            case scattered
        }
        /// The median distance of the track's points from the track smoothed over
        /// `Configuration.smoothing`, in metres.
        public var scatter: Metres
        public var kind: Kind
        /// Set when the track was read from the means of its fixes over this many metres (a densely
        /// logged track, `Configuration.denseFix`); the scatter and kind are the means'.
        public var averagedOver: Metres? = nil
    }

    /// A track made ready for finding its turns (see `sample(_:)`).
    struct Sampled {
        /// The configuration, its `spacing` coarser for a very long track.
        var configuration: Configuration
        /// The track as logged, along which the rows are placed.
        var track: Polyline
        /// The track as read: the track itself, or a dense one's means over `spacing` (see
        /// `denseFix`), whose vertex `k` lies `along[k]` along the track.
        var line: Polyline
        var along: [Metres]?
        /// `line` resampled every `spacing`, and that smoothed once over `smoothing`: the scatter is
        /// measured against it, and a scattered track's bends are read from it.
        var unsmoothed: [Coordinate], smoothedOnce: [Coordinate]
        var reading: Reading
    }

    /// The track resampled at the configuration's spacing (coarser for a very long track),
    /// smoothed once, and measured; nil when it is too short to find turns in.
    func sample(_ track: [Coordinate]) -> Sampled? {
        let original = Polyline(track)
        var c = configuration
        guard c.spacing > 0, original.length.isFinite, original.length > 2 * (c.window + c.gap) else { return nil }
        // A very long track is sampled more coarsely, so the work stays bounded.
        c.spacing = max(c.spacing, original.length / Double(Self.maximumSamples))
        let config = c
        func measure(_ line: Polyline) -> (unsmoothed: [Coordinate], smoothedOnce: [Coordinate], reading: Reading) {
            // Scatter lengthens a track (a fix every 5 m with 5 m scatter doubles it), so windows counted
            // along it would shrink on the ground: the smoothed line is measured again and resampled.
            let unsmoothed = resampled(line, config.spacing)
            let smoothedOnce = smoothed(unsmoothed, config)
            // The track's scatter: the median distance of its points from the smoothed line (0 for a
            // clean line, whose corners are few). A scattered track needs a larger change to make a bend.
            let gaps = zip(unsmoothed, smoothedOnce).map { LocalFrame(origin: $0.0).project($0.1) }.map { ($0.x * $0.x + $0.y * $0.y).squareRoot() }.sorted()
            let scatter = gaps.isEmpty ? 0 : gaps[gaps.count / 2]
            let kind: Reading.Kind = scatter < config.cleanScatter ? .clean : scatter < config.jitteredScatter ? .jittered : .scattered
            return (unsmoothed, smoothedOnce, Reading(scatter: scatter, kind: kind))
        }
        let measured = measure(original)
        // The median distance from one fix to the next, for tracks that are not clean.
        func medianStep() -> Metres {
            let steps = zip(original.cumulativeDistances, original.cumulativeDistances.dropFirst()).map { $1 - $0 }.sorted()
            return steps.isEmpty ? .infinity : steps[steps.count / 2]
        }
        if measured.reading.kind != .clean, medianStep() < c.denseFix {
            let means = binned(track, c.spacing, along: original.cumulativeDistances)
            let line = Polyline(means.points)
            if means.points.count > 1, line.length > 2 * (c.window + c.gap) {
                var again = measure(line)
                again.reading.averagedOver = c.spacing
                return Sampled(configuration: c, track: original, line: line, along: means.along,
                               unsmoothed: again.unsmoothed, smoothedOnce: again.smoothedOnce, reading: again.reading)
            }
        }
        return Sampled(configuration: c, track: original, line: original, along: nil,
                       unsmoothed: measured.unsmoothed, smoothedOnce: measured.smoothedOnce, reading: measured.reading)
    }

    /// Consecutive points of `track` averaged in groups that reach no further than `length` metres
    /// from their first point (`runsNearTheirFirst`), each mean with the mean of its points' distances
    /// along the track (`cumulative`). O(track.count).
    func binned(_ track: [Coordinate], _ length: Metres, along cumulative: [Metres]) -> (points: [Coordinate], along: [Metres]) {
        var points: [Coordinate] = [], along: [Metres] = []
        for run in runsNearTheirFirst(track.count, radius: length, { track[$0] }) {
            let frame = LocalFrame(origin: track[run.lowerBound])
            var x = 0.0, y = 0.0, d = 0.0
            for k in run {
                let p = frame.project(track[k])
                x += p.x; y += p.y; d += cumulative[k]
            }
            let n = Double(run.count)
            points.append(frame.unproject(x: x / n, y: y / n))
            along.append(d / n)
        }
        return (points, along)
    }

    /// A bend of the track, in sample indices.
    struct Bend {
        /// Where the heading starts to change, and where it has stopped.
        var start: Int, end: Int
        /// The heading before and after the bend.
        var before: Degrees, after: Degrees
        /// The heading change summed through the bend, + right; may exceed 180° in magnitude.
        var rotation: Degrees
        /// Where the heading changes the most between the windows.
        var sharpest: Int
        var kind: Maneuver.Kind = .turn
    }

    /// The turns of `track`, as maneuvers of kind `turn`, `uTurn` or `roundabout` in track order,
    /// each with `source` `.shape`. Each carries a synthetic junction with only an entry and an
    /// exit spoke (a staggered row, one per turn), so `TulipBuilder` can draw it.
    /// - Parameter track: the recorded points, in order of travel.
    /// - Complexity: O(length / spacing) geodesic solutions.
    public func maneuvers(in track: [Coordinate]) -> [Maneuver] { read(track).maneuvers }

    /// The turns of `track` (see `maneuvers(in:)`) and how it was read (nil when too short).
    /// - Complexity: O(length / spacing) geodesic solutions.
    public func read(_ track: [Coordinate]) -> (maneuvers: [Maneuver], reading: Reading?) {
        guard let sampled = sample(track) else { return ([], nil) }
        return (maneuvers(sampled), sampled.reading)
    }

    /// The turns of a sampled track.
    func maneuvers(_ sampled: Sampled) -> [Maneuver] {
        let c = Self.thresholds(sampled.configuration, for: sampled.reading)
        let (work, line, unsmoothed, scatter) = (sampled.line, sampled.track, sampled.unsmoothed, sampled.reading.scatter)
        // Distances along the line read, as distances along the track: a dense track was read from its
        // means (see `denseFix`), each of which lies where its fixes lie on average.
        func onTrack(_ d: Metres) -> Metres {
            guard let along = sampled.along else { return d }
            let (k, fraction) = Self.locate(d, in: work.cumulativeDistances)
            return min(line.length, along[k] + fraction * (along[min(k + 1, along.count - 1)] - along[k]))
        }
        let clean = sampled.reading.kind == .clean
        let jittered = sampled.reading.kind == .jittered
        // A clean or jittered track's bends are read from its points smoothed over `cleanSmoothing`
        // (see there), not over the `smoothing` with which its scatter was measured, which rounds a
        // corner cut by a metre of jitter under the threshold and melts two turns 35 m apart.
        let bendLine = Polyline(clean || jittered ? smoothed(unsmoothed, c) : sampled.smoothedOnce)
        let raw = smoothed(resampled(bendLine, c.spacing), c)
        guard raw.count > 1 else { return [] }
        // Sample `i` of `raw` lies `i * spacing` along `bendLine`, whose vertex `k` lies `k * spacing`
        // along the line read: distances along it, and along the track for the rows.
        let spacing = c.spacing
        func alongWork(_ i: Int) -> Metres {
            let (k, fraction) = Self.locate(Double(i) * spacing, in: bendLine.cumulativeDistances)
            return min(work.length, (Double(k) + fraction) * spacing)
        }
        func alongTrack(_ i: Int) -> Metres { onTrack(alongWork(i)) }
        let bends = findBends(raw, c)
        let rows = classify(bends, raw, c)
        var result = rows.map { maneuver(for: $0, line: line, along: alongTrack) }
        // Where the rows are along the line read, so a wiggle is kept from them by its own metres.
        var placed = rows.map { alongWork($0.0.start) }
        guard clean || jittered else { return result }
        // Small roundabouts passed nearly straight, where no bend made a row within `wiggleLength`.
        var wiggling = c
        var raise = 0.0
        if jittered {
            wiggling.smoothing = c.jitteredWiggleSmoothing
            wiggling.wiggleTurn = c.jitteredWiggleTurn
            wiggling.wiggleExcess = c.jitteredWiggleExcess
            raise = max(0, scatter - c.jitterRampFrom) / c.jitterRamp
        }
        let lightly = smoothed(unsmoothed, wiggling)
        for ring in wiggles(lightly, wiggling, raise: raise, stray: jittered ? c.jitteredStray : 0) {
            let read = min(work.length, Double(ring.entry) * spacing), d = onTrack(read)
            if placed.contains(where: { abs($0 - read) <= c.wiggleLength * 0.75 }) { continue }
            // Round a ring passed nearly straight the track swings left for 20–30 m, which the lightly
            // smoothed bends may read as a bend of its own up to the wiggle's length past its entry:
            // that bend is the ring's row, not a second one. On 200 routes of tuning seed 3 this took 78
            // rows off OSRM's lines (7 of them extra rows) and 85 off the recorded tracks (12 extra), for
            // 2 of the 1,422 goal turns found on the recorded tracks; replacing the bend by the ring's
            // row instead took the side off 19 real turns.
            if ring.ring, rows.indices.contains(where: { k in
                rows[k].then == nil && rows[k].0.kind == .turn && (rows[k].0.rotation < 0) != c.leftHandTraffic
                    && placed[k] > read && placed[k] <= read + c.wiggleLength
            }) { continue }
            placed.append(read)
            result.append(maneuver(for: ring, at: d, line: line, jittered: jittered, c))
        }
        result.sort { $0.distanceAlong < $1.distanceAlong }
        return result
    }

    /// `configuration` with the thresholds of a track read as `reading`: raised with its scatter, and
    /// a scattered track's own (`scatteredSmoothing` and the others) where it scatters lightly.
    static func thresholds(_ configuration: Configuration, for reading: Reading) -> Configuration {
        var c = configuration
        let scatter = reading.scatter
        let allowance = c.scatterAllowance * scatter
        c.minimumTurn += allowance
        c.minimumRotation += allowance
        let clean = reading.kind == .clean
        let jittered = reading.kind == .jittered
        if !clean && !jittered { c.departureStart = 1 }
        if clean || jittered {
            c.smoothing = c.cleanSmoothing
        } else if scatter <= c.lightScatter {
            c.smoothing = c.scatteredSmoothing
            c.window = c.scatteredWindow
            c.gap = c.scatteredGap
            c.minimumTurn = c.scatteredTurn
            c.minimumRotation = c.scatteredRotation
        }
        return c
    }

    /// The row of a wiggle (see `wiggles`) whose entry lies `d` along the track `line`, with a
    /// synthetic junction: a roundabout, or a jog of the road named by its net change.
    func maneuver(for ring: Wiggle, at d: Metres, line: Polyline, jittered: Bool, _ c: Configuration) -> Maneuver {
        let j = Junction(coordinate: line.coordinate(atDistance: d), distanceAlong: d, spokes: [
            Spoke(bearing: normalizedBearing(ring.before + 180), role: .entry),
            Spoke(bearing: normalizedBearing(ring.after), role: .exit),
        ])
        let angle = normalizedTurn(ring.after - ring.before)
        // A wiggle that bulges out to the left where traffic keeps right (to the right where it keeps
        // left) is no ring: a jog of the road, named by its net change ("Straight on" when under
        // `straightOnLimit`). Nor is one whose last swing is back in: off a ring the track swings
        // out, while a mountain road's jog may bulge out as a ring does and swing back in at its end.
        // On 150 routes each of tuning seeds 3 and 7, 26% and 25% of the "Roundabout" rows read from
        // OSRM's lines stood at no roundabout without this, 2.5% and 11% with it, for a third fewer
        // roundabouts named (the first swing told them apart no better than the bulge; both swings,
        // 2% and 6%, named half as many). A receiver's track names no wiggle a roundabout: its
        // jitter makes wiggles of its own that bulge either way, and on 150 routes of tuning seed 3
        // two in three of the "Roundabout" rows so named stood at no roundabout, however far the
        // wiggle strayed from its line. Its wiggle still makes a row, "Straight on" through a ring
        // passed straight, so the roundabout is not missed.
        let modifier = TurnDetector.modifier(for: angle, configuration: turnConfiguration)
        let kind: Maneuver.Kind = ring.ring && ring.leavesOutwards && !jittered ? .roundabout : abs(angle) < c.straightOnLimit ? .straightOn : .turn
        var m = Maneuver(kind: kind, modifier: kind == .straightOn ? .straight : modifier,
                         distanceAlong: d, coordinate: j.coordinate, turnAngle: angle, junctions: [j])
        m.source = .shape
        return m
    }

    /// The segment of a line with these `cumulative` distances that holds the distance `d`, and how
    /// far along it `d` lies (0 to 1). O(log count).
    static func locate(_ d: Metres, in cumulative: [Metres]) -> (index: Int, fraction: Double) {
        guard cumulative.count > 1 else { return (0, 0) }
        var lo = 0, hi = cumulative.count - 1
        while hi - lo > 1 { let mid = (lo + hi) / 2; if cumulative[mid] <= d { lo = mid } else { hi = mid } }
        let span = cumulative[hi] - cumulative[lo]
        return (lo, span > 0 ? min(1, max(0, (d - cumulative[lo]) / span)) : 0)
    }

    /// A wiggle of the track (see `wiggles`): the sample before it, the headings before and after it,
    /// whether it is a ring, and whether its last swing is outwards.
    typealias Wiggle = (entry: Int, before: Degrees, after: Degrees, ring: Bool, leavesOutwards: Bool)

    /// Small roundabouts passed nearly straight on a clean or jittered track: where the heading, sample to
    /// sample, swings `wiggleTurn` or more in all within `wiggleLength`, `wiggleExcess` of it back
    /// again. It is a ring when the track bulges out to the right of the line through its ends (round
    /// an island driven anticlockwise, as where traffic keeps right; to the left with
    /// `leftHandTraffic`), else a jog of the road.
    /// The strongest within `wiggleLength` either side is kept; its entry is the sample before the
    /// first change of 10° or more. Each also says whether its last swing of 10° or more is outwards
    /// (to the right where traffic keeps right), as the swing off a ring is; a clean line's wiggle is
    /// named a roundabout only then (see `maneuvers(_:)`). With `raise` above 0 (a jittered track),
    /// both thresholds are raised by `raise` times the track's median swing, total and back, over
    /// `wiggleLength`; with `stray` above 0, the track must also leave the line through the wiggle by
    /// that many metres.
    /// O(samples × wiggleLength / spacing), and a sort of the samples' swings when raised.
    func wiggles(_ s: [Coordinate], _ c: Configuration, raise: Double = 0, stray strayNeeded: Metres = 0) -> [Wiggle] {
        let w = max(2, Int((c.wiggleLength / c.spacing).rounded()))
        let count = s.count
        guard count > w + 3 else { return [] }
        let heading = (0..<(count - 1)).map { s[$0].bearing(to: s[$0 + 1]) }
        var change = [Degrees](repeating: 0, count: count - 1)
        for k in 1..<(count - 1) { change[k] = normalizedTurn(heading[k] - heading[k - 1]) }
        let swing: Degrees = 10
        let starts = 1..<(count - 1 - w)
        var totals = [Degrees](repeating: 0, count: count), backs = totals
        for i in starts {
            var total = 0.0, net = 0.0
            for k in i..<(i + w) { total += abs(change[k]); net += change[k] }
            totals[i] = total
            backs[i] = total - abs(net)
        }
        func median(_ values: [Degrees]) -> Degrees { let sorted = values[starts].sorted(); return sorted[sorted.count / 2] }
        let turnNeeded = c.wiggleTurn + (raise > 0 ? raise * median(totals) : 0)
        let backNeeded = c.wiggleExcess + (raise > 0 ? raise * median(backs) : 0)
        var score = [Double](repeating: 0, count: count)
        for i in starts {
            guard totals[i] >= turnNeeded, backs[i] >= backNeeded,
                  (i..<(i + w)).first(where: { abs(change[$0]) >= swing }) != nil else { continue }
            // The track must leave the line through the wiggle's ends (two samples beyond either)
            // by `strayNeeded`: a ring moves it by about its radius, jitter by a metre or so.
            if strayNeeded > 0, stray(s, from: max(0, i - 2), to: min(count - 1, i + w + 2)) < strayNeeded { continue }
            score[i] = backs[i]
        }
        var result: [Wiggle] = []
        var i = 0
        while i < count {
            guard score[i] > 0 else { i += 1; continue }
            let neighbours = max(0, i - w)...min(count - 1, i + w)
            // The strongest of its neighbourhood, the first of equals.
            if neighbours.contains(where: { $0 != i && (score[$0] > score[i] || (score[$0] == score[i] && $0 < i)) }) { i += 1; continue }
            var entry = i
            while entry < i + w - 1, abs(change[entry]) < swing { entry += 1 }
            // A ring passed nearly straight bulges out round its island: to the right of the line
            // through the wiggle's ends where traffic keeps right. Smoothing a jittered track takes out
            // the short swings onto and off the ring, but not the bulge.
            let outwards = bulge(s, from: max(0, i - 2), to: min(count - 1, i + w + 2))
            // A ring is passed between a steady approach and a steady way on; a wiggle inside a bend (a
            // hairpin's way out) is none.
            let reach = Int((c.ringApproach / c.spacing).rounded())
            func steady(_ r: Range<Int>) -> Bool {
                let r = max(1, r.lowerBound)..<min(count - 1, r.upperBound)
                return r.isEmpty || abs(r.reduce(0.0) { $0 + change[$1] }) < c.ringApproachTurn
            }
            let ring = (outwards > 0) != c.leftHandTraffic && steady((i - reach)..<i) && steady((i + w)..<(i + w + reach))
            // Off a ring the track swings out, to the right where traffic keeps right; a jog of the road
            // that bulges the same way swings back in at its end (left, right, left).
            var last = i + w - 1
            while last > entry, abs(change[last]) < swing { last -= 1 }
            result.append((entry: max(0, entry - 1), before: heading[max(0, i - 1)], after: heading[min(count - 2, i + w)],
                           ring: ring, leavesOutwards: (change[last] > 0) != c.leftHandTraffic))
            i += 1
        }
        return result
    }

    /// How far, in metres, the points between `from` and `to` stray from the segment between those
    /// two points, on either side (as `StrokeSimplification` measures it). O(to − from).
    func stray(_ s: [Coordinate], from: Int, to: Int) -> Metres {
        (from...to).map { LocalFrame(origin: s[$0]).distanceSquaredToSegment(s[from], s[to]) }.max()?.squareRoot() ?? 0
    }

    /// The offset, in metres, of the point between `from` and `to` farthest from the segment between
    /// those two points: + to the right of the way from `from` to `to`, − to the left. O(to − from).
    func bulge(_ s: [Coordinate], from: Int, to: Int) -> Metres {
        let frame = LocalFrame(origin: s[from])
        let end = frame.project(s[to])
        let length = (end.x * end.x + end.y * end.y).squareRoot()
        guard length > 0 else { return 0 }
        var farthest = 0.0
        for k in from...to {
            let p = frame.project(s[k])
            let right = (end.y * p.x - end.x * p.y) / length
            if abs(right) > abs(farthest) { farthest = right }
        }
        return farthest
    }

    /// Points every `spacing` metres along `line`, its first point included.
    func resampled(_ line: Polyline, _ spacing: Metres) -> [Coordinate] {
        let count = Int(line.length / spacing) + 1
        return (0..<count).map { line.coordinate(atDistance: Double($0) * spacing) }
    }

    /// The points averaged with their neighbours within `smoothing` (triangular weights); the ends
    /// average fewer.
    func smoothed(_ points: [Coordinate], _ c: Configuration) -> [Coordinate] {
        let h = Int((c.smoothing / c.spacing).rounded())
        guard h > 0, points.count > 2 * h else { return points }
        return points.indices.map { i in
            // Longitudes are averaged as differences from the point's own, so a track crossing the
            // antimeridian is not averaged to the other side of the globe.
            var lat = 0.0, dLon = 0.0, w = 0.0
            for k in max(0, i - h)...min(points.count - 1, i + h) {
                let weight = Double(h + 1 - abs(k - i))
                var d = points[k].longitude - points[i].longitude
                if d > 180 { d -= 360 } else if d < -180 { d += 360 }
                lat += weight * points[k].latitude; dLon += weight * d; w += weight
            }
            var lon = points[i].longitude + dLon / w
            if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
            return Coordinate(latitude: lat / w, longitude: lon)
        }
    }

    /// Bends of the track where the change of heading between the windows exceeds `minimumTurn`.
    func findBends(_ raw: [Coordinate], _ c: Configuration) -> [Bend] {
        let count = raw.count
        let window = max(2, Int((c.window / c.spacing).rounded()))
        let gap = Int((c.gap / c.spacing).rounded())
        let reach = gap + window
        guard count > 2 * reach + 1 else { return [] }
        var before = [Degrees](repeating: 0, count: count), after = before, turn = before
        for i in reach..<(count - reach) {
            let frame = LocalFrame(origin: raw[i])
            before[i] = fittedBearing(raw[(i - reach)...(i - gap)], frame: frame)
            after[i] = fittedBearing(raw[(i + gap)...(i + reach)], frame: frame)
            turn[i] = normalizedTurn(after[i] - before[i])
        }
        // Runs above half the threshold on one side that reach the threshold.
        var runs: [(first: Int, last: Int)] = []
        var i = reach
        while i < count - reach {
            guard abs(turn[i]) >= c.minimumTurn / 2 else { i += 1; continue }
            let side = turn[i] > 0
            var j = i, top: Degrees = 0
            while j < count - reach, abs(turn[j]) >= c.minimumTurn / 2, (turn[j] > 0) == side {
                top = max(top, abs(turn[j])); j += 1
            }
            // A run counts when the change reaches the threshold, or when the heading turns that much
            // through it: a 90° curve of 30 m radius spreads its change over more than the windows.
            var through = turn[i]
            for k in i..<(j - 1) { through += normalizedTurn(after[k + 1] - after[k]) }
            if top >= c.minimumTurn || abs(through) >= c.minimumTurn { runs.append((i, j - 1)) }
            i = j
        }
        return runs.map { run in
            // The rotation, sample by sample: from the heading before the run to the heading after it.
            var rotation = turn[run.first]
            for k in run.first..<run.last { rotation += normalizedTurn(after[k + 1] - after[k]) }
            let incoming = (run.first - reach)...(run.first - gap)
            let outgoing = (run.last + gap)...(run.last + reach)
            let start = departure(raw, fittedOver: incoming, walking: 1, towards: run.last, c)
            let end = departure(raw, fittedOver: outgoing, walking: -1, towards: max(start, run.first), c)
            let sharpest = (run.first...run.last).max { abs(turn[$0]) < abs(turn[$1]) } ?? run.first
            return Bend(start: start, end: max(start, end), before: before[run.first], after: after[run.last],
                        rotation: rotation, sharpest: sharpest)
        }
    }

    /// Where the track leaves the line fitted over `fitted`: walking from the end of `fitted` in
    /// `direction` (+1 forward, −1 backward) up to `limit`, the first sample that lies off that line
    /// by more than the departure tolerance (the next one too). The smoothing draws a corner's
    /// departure forward by about what the turn takes to depart that far, so it is not moved back
    /// (a wide curve's row still sits 10–15 m past its start); from there it walks back while the
    /// track is still off the line by `departureStart` of the tolerance.
    func departure(_ raw: [Coordinate], fittedOver fitted: ClosedRange<Int>, walking direction: Int, towards limit: Int,
                   _ c: Configuration) -> Int {
        let from = direction > 0 ? fitted.upperBound : fitted.lowerBound
        let frame = LocalFrame(origin: raw[from])
        let bearing = fittedBearing(raw[fitted], frame: frame) * .pi / 180
        let ux = sin(bearing), uy = cos(bearing)
        let points = raw[fitted].map(frame.project)
        let mx = points.reduce(0) { $0 + $1.x } / Double(points.count), my = points.reduce(0) { $0 + $1.y } / Double(points.count)
        func offset(_ k: Int) -> Metres {
            let p = frame.project(raw[k])
            return abs((p.x - mx) * uy - (p.y - my) * ux)
        }
        let scatter = (fitted.map { offset($0) * offset($0) }.reduce(0, +) / Double(fitted.count)).squareRoot()
        let tolerance = max(c.departure, 2 * scatter)
        // The first sample, walking towards `limit`, that is off the line with the next one too.
        var k = from
        while k != limit, !(offset(k) > tolerance && offset(k + direction) > tolerance) { k += direction }
        // Back along the curve to where it starts to leave the line: a curve of radius r is off it
        // by d after √(2rd) of arc, 9 m on a 15 m ring at the 3 m tolerance.
        while k != from, offset(k - direction) > tolerance * c.departureStart { k -= direction }
        return k
    }

    /// Names each bend (roundabout, U-turn, turn), drops small ones, merges staggered turns and
    /// enforces the minimum spacing.
    func classify(_ bends: [Bend], _ raw: [Coordinate], _ c: Configuration) -> [(Bend, then: Bend?)] {
        var named: [Bend] = []
        for var b in bends where abs(b.rotation) >= c.minimumRotation {
            let length = Double(b.end - b.start) * c.spacing
            if abs(b.rotation) >= c.sharpLimit, comesBack(raw, after: b, c) {
                b.kind = .uTurn
            } else if abs(b.rotation) > c.loopTurn, length <= c.loopLength, !turnsBack(raw, b, c) {
                b.kind = .roundabout
            } else {
                // A turn's row sits at its corner; a loop's and a U-turn's where they begin.
                b.start = max(b.start, min(b.end, b.sharpest - Int((c.cornerReach / c.spacing).rounded())))
            }
            named.append(b)
        }
        var rows: [(Bend, then: Bend?)] = []
        var i = 0
        while i < named.count {
            let b = named[i]
            if i + 1 < named.count, b.kind == .turn, named[i + 1].kind == .turn,
               (b.rotation > 0) != (named[i + 1].rotation > 0),
               Double(named[i + 1].start - b.start) * c.spacing <= c.staggerDistance {
                rows.append((b, named[i + 1]))
                i += 2
                continue
            }
            rows.append((b, nil))
            i += 1
        }
        func strength(_ r: (Bend, then: Bend?)) -> (Int, Double) {
            (r.0.kind == .turn ? 0 : 1, abs(r.0.rotation) + abs(r.then?.rotation ?? 0))
        }
        var kept: [(Bend, then: Bend?)] = []
        for r in rows {
            if let last = kept.last, Double(r.0.start - last.0.start) * c.spacing < c.minimumSpacing {
                if strength(r) > strength(last) { kept[kept.count - 1] = r }
                continue
            }
            kept.append(r)
        }
        return kept
    }

    /// Whether the road on after `bend` turns back against the road before it by more than
    /// `hairpinTurn`, as a hairpin's does (see there). O(`hairpinLegs` / spacing).
    func turnsBack(_ raw: [Coordinate], _ bend: Bend, _ c: Configuration) -> Bool {
        let reach = max(2, Int((c.hairpinLegs / c.spacing).rounded()))
        let before = max(0, bend.start - reach)...bend.start, after = bend.end...min(raw.count - 1, bend.end + reach)
        guard before.count >= 2, after.count >= 2 else { return false }
        let frame = LocalFrame(origin: raw[bend.start])
        let turn = normalizedTurn(fittedBearing(raw[after], frame: frame) - fittedBearing(raw[before], frame: frame))
        return abs(turn) > c.hairpinTurn
    }

    /// Whether the track after `bend` comes back along itself: at least 80% of the samples from the
    /// end of the bend out to `uTurnReach` lie within `uTurnCorridor` of the track before its start.
    /// A track sampled more coarsely than `uTurnReach` (one over `maximumSamples` × 5 m long) is
    /// read over one sample; a bend at the track's last sample has no track after it and does not.
    func comesBack(_ raw: [Coordinate], after bend: Bend, _ c: Configuration) -> Bool {
        let reach = max(1, Int((c.uTurnReach / c.spacing).rounded()))
        guard bend.end + 1 < raw.count else { return false }
        let outgoing = (bend.end + 1)...min(raw.count - 1, bend.end + reach)
        let incoming = max(0, bend.start - 2 * reach)...bend.start
        guard outgoing.count >= reach / 2, incoming.count >= 2 else { return false }
        let frame = LocalFrame(origin: raw[bend.start])
        let back = raw[incoming].map(frame.project)
        var near = 0
        for k in outgoing {
            let p = frame.project(raw[k])
            var best = Double.infinity
            for s in 0..<(back.count - 1) {
                let a = back[s], b = back[s + 1]
                let dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy
                let t = l2 > 0 ? min(1, max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2)) : 0
                let ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y
                best = min(best, ex * ex + ey * ey)
            }
            if best <= c.uTurnCorridor * c.uTurnCorridor { near += 1 }
        }
        return Double(near) >= 0.8 * Double(outgoing.count)
    }

    /// The maneuver of a row: kind, modifier from the rotation (a turn that is not a U-turn is at
    /// most sharp), place at the start of the bend on the track (`along` gives a sample's distance
    /// along it), a synthetic junction per bend.
    func maneuver(for row: (Bend, then: Bend?), line: Polyline, along: (Int) -> Metres) -> Maneuver {
        func junction(_ b: Bend) -> Junction {
            let d = along(b.start)
            return Junction(coordinate: line.coordinate(atDistance: d), distanceAlong: d, spokes: [
                Spoke(bearing: normalizedBearing(b.before + 180), role: .entry),
                Spoke(bearing: normalizedBearing(b.after), role: .exit),
            ])
        }
        func modifier(_ b: Bend) -> Maneuver.Modifier {
            if b.kind == .uTurn { return .uTurn }
            let angle = max(-179, min(179, b.rotation))
            var m = TurnDetector.modifier(for: angle, configuration: turnConfiguration)
            if m == .uTurn { m = angle > 0 ? .sharpRight : .sharpLeft }
            if abs(angle) >= configuration.sharpLimit { m = angle > 0 ? .sharpRight : .sharpLeft }
            return m
        }
        var (b, then) = row
        let first = junction(b)
        var angle = b.kind == .roundabout ? normalizedTurn(b.after - b.before) : normalizedTurn(b.rotation)
        var junctions = [first]
        var second = then
        if var then {
            // The two bends are too close for the windows to see each whole: each is measured
            // against the short leg between them, from one start to the other.
            let leg = first.coordinate.bearing(to: line.coordinate(atDistance: along(then.start)))
            b.rotation = normalizedTurn(leg - b.before)
            then.rotation = normalizedTurn(then.after - leg)
            second = then
            junctions.append(junction(then))
            angle = normalizedTurn(b.rotation + then.rotation)
        }
        var m = Maneuver(kind: b.kind, modifier: b.kind == .roundabout
                            ? TurnDetector.modifier(for: angle, configuration: turnConfiguration) : modifier(b),
                         distanceAlong: first.distanceAlong, coordinate: first.coordinate, turnAngle: angle,
                         then: second.map(modifier), junctions: junctions)
        m.source = .shape
        return m
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
