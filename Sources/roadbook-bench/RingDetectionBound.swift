import Foundation
import Geo

/// How well any reader of the track's shape could tell a roundabout from the road without it, on a
/// track whose fixes scatter independently: the turn-quality benchmark's bound for shape mode's
/// "noisy" column.
///
/// The reader here is ideal and told more than a real one: it knows where each roundabout is, the
/// exact path round it (OSRM's line), and where along it every fix was taken. It only has to decide,
/// from the fixes, between that path and the same road without the ring: the line through the
/// ring's way in and way out joined smoothly (a cubic Hermite curve with the road's own heading at
/// either end, read over the 40 m beyond it), so a ring on a curving road is weighed against that
/// curve, not against a straight chord. With Gaussian scatter of σ in each of east and north, drawn
/// anew at every fix, the best test between two known paths (Neyman–Pearson) finds the ring with
/// probability Φ(d′ − z(α)) at a rate α of false finds, where d′ is the distance between the two
/// paths at the fixes, √(Σ |pᵢ − qᵢ|²), over σ. The ring's extent is not known exactly: the largest
/// d′ of a few (from 0, 5 or 10 m before OSRM's entry to 15, 25, 35 or 50 m after it) is taken,
/// which favours the reader again. A ring within 40 m of either end of the route counts as found.
///
/// A real reader also has to find the place: it tests all along the track, and every test may
/// answer wrongly. The benchmark prints the bound at 1% and 0.1% false finds per test, and at the
/// rate the goal leaves room for: the extra rows the noisy tracks may still add before they are 25%
/// of their rows, spread over a test at every fix (about 0.2% on Andorra). So the figures are an
/// upper bound on what the fixes show, not a goal.
struct RingDetectionBound {
    /// Gaussian scatter of each fix, east and north, in metres.
    var scatter: Metres
    /// Distance between fixes along the line, the first at its start, in metres.
    var fixSpacing: Metres

    /// d′ for each of `rings` (OSRM's entry locations) on `line`; +∞ for a ring too near an end.
    func separations(of rings: [Coordinate], on line: Polyline) -> [Double] {
        rings.map { ring in
            guard let entry = line.position(closestTo: ring)?.distanceAlong else { return .infinity }
            var best: Double? = nil
            for before in [0.0, 5, 10] {
                for after in [15.0, 25, 35, 50] {
                    guard let d = separation(on: line, from: entry - before, to: entry + after) else { continue }
                    best = max(best ?? 0, d)
                }
            }
            return best ?? .infinity
        }
    }

    /// d′ between `line` and the smooth road without its stretch from `start` to `end` (metres along
    /// it), at the fixes inside that stretch; nil when the road's heading cannot be read 40 m beyond
    /// either end.
    func separation(on line: Polyline, from start: Metres, to end: Metres) -> Double? {
        let lead: Metres = 20
        guard start - 2 * lead >= 0, end + 2 * lead <= line.length, end > start else { return nil }
        let frame = LocalFrame(origin: line.coordinate(atDistance: start))
        func point(_ s: Metres) -> (x: Double, y: Double) { frame.project(line.coordinate(atDistance: s)) }
        let a = point(start), b = point(end)
        let chord = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        /// The direction from `s` to `s + lead` along the line, in radians from east.
        func secant(_ s: Metres) -> Double { let p = point(s), q = point(s + lead); return atan2(q.y - p.y, q.x - p.x) }
        func turn(_ from: Double, _ to: Double) -> Double { remainder(to - from, 2 * .pi) }
        // The road's heading at each end, from the two secants of 20 m beyond it: on a road curving
        // steadily the heading at the end of a secant is the secant's turned by half the turn from one
        // secant to the next.
        let inA = secant(start - lead), inA2 = secant(start - 2 * lead)
        let headingA = inA + turn(inA2, inA) / 2
        let outB = secant(end), outB2 = secant(end + lead)
        let headingB = outB - turn(outB, outB2) / 2
        // The tangents of the Hermite curve, scaled to the chord.
        let ta = (x: cos(headingA) * chord, y: sin(headingA) * chord)
        let tb = (x: cos(headingB) * chord, y: sin(headingB) * chord)
        var sum = 0.0
        var k = (start / fixSpacing).rounded(.up)
        while k * fixSpacing < end {
            let s = k * fixSpacing
            k += 1
            guard s > start else { continue }
            let t = (s - start) / (end - start)
            let h00 = 2 * t * t * t - 3 * t * t + 1, h10 = t * t * t - 2 * t * t + t
            let h01 = -2 * t * t * t + 3 * t * t, h11 = t * t * t - t * t
            let q = (x: h00 * a.x + h10 * ta.x + h01 * b.x + h11 * tb.x, y: h00 * a.y + h10 * ta.y + h01 * b.y + h11 * tb.y)
            let p = point(s)
            sum += (p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)
        }
        return sum.squareRoot() / scatter
    }

    /// The probability that the ideal test finds a ring of separation `d` at a rate `alpha` of false
    /// finds: Φ(d − z(α)).
    static func detection(_ d: Double, alpha: Double) -> Double { detection(d, threshold: upperQuantile(alpha)) }

    /// As `detection(_:alpha:)`, with z(α) worked out once for many rings.
    static func detection(_ d: Double, threshold z: Double) -> Double {
        guard d.isFinite else { return 1 }
        return 0.5 * erfc(-(d - z) / 2.0.squareRoot())
    }

    /// z with Φ(z) = 1 − α, by bisection on erfc (α in (0, 0.5)).
    static func upperQuantile(_ alpha: Double) -> Double {
        var lo = 0.0, hi = 10.0
        for _ in 0..<80 {
            let mid = (lo + hi) / 2
            if 0.5 * erfc(mid / 2.0.squareRoot()) > alpha { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }
}
