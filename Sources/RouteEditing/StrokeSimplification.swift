import Foundation
import Geo

/// Reduces a hand-drawn stroke to the few points that carry its shape.
///
/// Douglas–Peucker: D. H. Douglas and T. K. Peucker, "Algorithms for the reduction of the number of
/// points required to represent a digitized line or its caricature", *The Canadian Cartographer*
/// 10(2), 1973, pp. 112–122. The first and last points are kept; between two kept points, the point
/// farthest from the straight line joining them is kept when it lies more than the tolerance away,
/// and both halves are examined in turn.
public enum StrokeSimplification {
    /// Indices of the points kept, in order; always the first and the last (one index for a single
    /// point, none for an empty stroke).
    ///
    /// Distances are measured in a local tangent plane at each candidate point (see `LocalFrame`),
    /// exact to well under a metre over a stroke's few kilometres. O(n log n) typical, O(n²) worst
    /// case; iterative, so a long stroke cannot overflow the stack.
    /// - Parameters:
    ///   - points: the stroke, in drawing order.
    ///   - tolerance: metres; a bend that strays less than this from the chord is dropped.
    public static func keptIndices(_ points: [Coordinate], tolerance: Metres) -> [Int] {
        guard points.count > 2 else { return Array(points.indices) }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        let toleranceSquared = tolerance * tolerance
        var ranges = [(0, points.count - 1)]
        while let (first, last) = ranges.popLast() {
            guard last - first > 1 else { continue }
            var farthest = first, farthestSquared = -1.0
            for k in (first + 1)..<last {
                let d = LocalFrame(origin: points[k]).distanceSquaredToSegment(points[first], points[last])
                if d > farthestSquared { farthestSquared = d; farthest = k }
            }
            if farthestSquared > toleranceSquared {
                keep[farthest] = true
                ranges.append((first, farthest))
                ranges.append((farthest, last))
            }
        }
        return points.indices.filter { keep[$0] }
    }
}
