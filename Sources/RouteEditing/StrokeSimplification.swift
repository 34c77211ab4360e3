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

    /// Indices of the points of a hand-drawn stroke that become handles, in order: the first and the
    /// last always, between them the bends that make the stroke's shape at the scale of its legs,
    /// and enough points that no two handles are farther apart than `strokeHandleMaximumSpacing`.
    ///
    /// 1. Douglas–Peucker at `strokeTolerance` (`keptIndices`) drops the wobble, jitter and small
    ///    wiggles.
    /// 2. Of the points left, a bend is kept the same way, the farthest from the line between two
    ///    kept points first, when it strays more than `strokeBendRatio` of that line's length (and
    ///    more than `strokeTolerance`) and is at least `strokeHandleMinimumSpacing` along the stroke
    ///    from both: a corner where the stroke turns onto another road, not each hairpin of a
    ///    mountain road, whose road the handles either side already choose.
    /// 3. A stretch longer than `strokeHandleMaximumSpacing` is cut into equal parts no longer than
    ///    it, each cut at the point of step 1 nearest it (else the stroke's own point nearest), so
    ///    the road between two handles stays the one drawn.
    ///
    /// O(n log n) typical, like `keptIndices`.
    /// - Parameter rules: the editor's configuration, whose `stroke…` values these are.
    public static func handleIndices(_ points: [Coordinate], rules: RouteEditor.Configuration) -> [Int] {
        let shape = keptIndices(points, tolerance: rules.strokeTolerance)
        guard shape.count >= 2 else { return shape }
        // Distances along the simplified line: the stroke's own points, jitter and all, zigzag and
        // would measure it twice as long as what was drawn.
        let shapeLine = Polyline(shape.map { points[$0] })
        let along = shapeLine.cumulativeDistances
        // Step 2: positions in `shape` of the bends kept.
        var keep = [Bool](repeating: false, count: shape.count)
        keep[0] = true
        keep[shape.count - 1] = true
        var ranges = [(0, shape.count - 1)]
        while let (first, last) = ranges.popLast() {
            let a = points[shape[first]], b = points[shape[last]]
            let threshold = max(rules.strokeTolerance, rules.strokeBendRatio * a.distance(to: b))
            var farthest: Int?, farthestSquared = threshold * threshold
            for k in (first + 1)..<last
            where along[k] - along[first] >= rules.strokeHandleMinimumSpacing
                && along[last] - along[k] >= rules.strokeHandleMinimumSpacing {
                let d = LocalFrame(origin: points[shape[k]]).distanceSquaredToSegment(a, b)
                if d > farthestSquared { farthestSquared = d; farthest = k }
            }
            if let farthest {
                keep[farthest] = true
                ranges.append((first, farthest))
                ranges.append((farthest, last))
            }
        }
        let bends = shape.indices.filter { keep[$0] }
        // Step 3: long stretches cut at the shape's points nearest equal parts, else at the stroke's
        // own point nearest the cut.
        let maximum = max(rules.strokeHandleMaximumSpacing, 1)
        var handles = [shape[0]]
        for (start, end) in zip(bends, bends.dropFirst()) {
            let length = along[end] - along[start]
            let parts = Int((length / maximum).rounded(.up))
            for j in 1..<max(parts, 1) {
                let target = along[start] + length * Double(j) / Double(parts)
                let last = handles[handles.count - 1]
                let nearest = (start + 1..<end).min { abs(along[$0] - target) < abs(along[$1] - target) }
                if let k = nearest, abs(along[k] - target) <= length / Double(2 * parts), shape[k] > last {
                    handles.append(shape[k])
                    continue
                }
                // The stroke's points between the shape points either side of the cut.
                let after = (start...end).first { along[$0] >= target } ?? end
                let cut = shapeLine.coordinate(atDistance: target)
                let own = (max(shape[max(after - 1, start)], last + 1)..<shape[after])
                    .min { points[$0].distance(to: cut) < points[$1].distance(to: cut) }
                if let own { handles.append(own) }
            }
            handles.append(shape[end])
        }
        return handles
    }
}

