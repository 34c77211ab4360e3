import Foundation
import Geo

/// Where each road of a tulip is drawn: its true angle, spread where roads lie too close to tell
/// apart at a glance.
///
/// A rider reads the tulip at speed, on a roll of paper on the handlebar: two roads 7° apart print
/// as one line and a fork looks like a straight road. So, as organisers draw by hand, small angles
/// are exaggerated: every road is drawn at least `minimumSeparation` from its neighbours round the
/// junction. The drawing keeps
/// - the order of the roads round the junction (so a roundabout's exits are met in the order they
///   are counted), and with it each road's side of the road taken (a road left of the exit stays
///   left of it);
/// - the entry where it is (the rider arrives from the bottom);
/// - the exit where it is, whenever the roads between it and the entry on each side fit there at
///   the separation; otherwise it moves as little as it can;
/// - the other roads as near their true angles as it can: the least sum of squared displacements.
///
/// The book keeps the true angles (`Tulip.Road.angle`): this is a drawing step only, shared by
/// every writer that draws a tulip. With 19 roads or more (the entry counted) the circle is too
/// small for 20° between each: they are drawn evenly, 360° / roads apart, in their order.
public enum TulipLayout {
    /// The least angle, in degrees, between two neighbouring roads of a drawing: two lines of a
    /// tulip 40 mm wide are told apart at this angle at arm's length.
    public static let minimumSeparation: Degrees = 20

    /// The separation `roads` roads (the entry counted, drawn or not) are drawn with:
    /// `minimumSeparation`, or an even share of the circle when that is smaller (19 roads or more).
    public static func separation(forRoads roads: Int, minimum: Degrees = minimumSeparation) -> Degrees {
        roads <= 1 ? minimum : min(minimum, 360 / Double(roads))
    }

    /// The angle each road of `tulip` is drawn at, in the order of `tulip.roads` (see the type and
    /// `displayAngles(of:clockwise:minimum:)`), the ring's direction from `tulip.roundabout`.
    public static func displayAngles(of tulip: Tulip, minimum: Degrees = minimumSeparation) -> [Degrees] {
        displayAngles(of: tulip.roads, clockwise: tulip.roundabout?.clockwise == true, minimum: minimum)
    }

    /// The angle each of `roads` is drawn at, in their order, each a turn angle in (−180, 180].
    ///
    /// The first road with the role `entry` stays where it is; a tulip without one is drawn with an
    /// entry at 180 (as the painters draw it), which the other roads keep clear of too. A road not
    /// moved keeps its angle exactly. Each road is drawn on its side of the exit: the side its angle
    /// lies on, or at a roundabout where it says whether traffic meets it before the exit
    /// (`Tulip.Road.metBeforeExit`), the side traffic going round from the entry meets before the
    /// exit or the other, at the end of that side nearest its angle when its angle lies on the other.
    /// - Parameters:
    ///   - clockwise: whether traffic goes round clockwise (on a roundabout, or where it keeps left):
    ///     it meets the roads left of the entry first; a road lying exactly on the entry is drawn
    ///     right of it (else left), where it is met last.
    ///   - minimum: the separation wanted (see `separation(forRoads:minimum:)`).
    /// - Complexity: O(n log n) for n roads.
    public static func displayAngles(of roads: [Tulip.Road], clockwise: Bool = false,
                                     minimum: Degrees = minimumSeparation) -> [Degrees] {
        var result = roads.map(\.angle)
        let anchorIndex = roads.firstIndex { $0.role == .entry }
        let anchor = anchorIndex.map { roads[$0].angle } ?? 180
        let others = roads.indices.filter { $0 != anchorIndex }
        guard !others.isEmpty else { return result }
        let gap = separation(forRoads: others.count + 1, minimum: minimum)
        // Each road's place going round from the entry the way angles grow (left, ahead, right):
        // in [0, 360), or 360 for a road on the entry drawn right of it.
        func place(_ i: Int) -> Degrees {
            let p = normalizedBearing(roads[i].angle - anchor)
            return p == 0 && clockwise ? 360 : p
        }
        let tolerance = 1e-9
        // The roads in the order they are drawn going round from the entry, and where each would be.
        var order: [Int], targets: [Degrees], exitRank: Int?
        if let exit = others.first(where: { roads[$0].role == .exit }) {
            let at = place(exit)
            // Places from the entry up to the exit lie on one side of it, the rest on the other;
            // traffic going round clockwise meets the first side before the exit.
            var first: [(index: Int, target: Degrees)] = [], second: [(index: Int, target: Degrees)] = []
            for i in others where i != exit {
                let p = place(i)
                let onFirst = roads[i].metBeforeExit.map { $0 == clockwise } ?? (p < at || (p == at && i < exit))
                if onFirst { first.append((i, Self.nearest(p, within: 0...at))) } else { second.append((i, Self.nearest(p, within: at...360))) }
            }
            let sorted = { (side: [(index: Int, target: Degrees)]) in side.sorted { ($0.target, $0.index) < ($1.target, $1.index) } }
            let ordered = sorted(first) + [(exit, at)] + sorted(second)
            (order, targets, exitRank) = (ordered.map(\.index), ordered.map(\.target), first.count)
        } else {
            order = others.sorted { (place($0), $0) < (place($1), $1) }
            (targets, exitRank) = (order.map(place), nil)
        }
        let placed: [Degrees]
        if let r = exitRank, targets[r] >= Double(r + 1) * gap - tolerance, 360 - targets[r] >= Double(order.count - r) * gap - tolerance {
            // The exit stays: the roads on either side of it spread within their own side.
            let before = spread(Array(targets[..<r]), weights: Array(repeating: 1, count: r),
                                lower: gap, upper: targets[r] - gap, gap: gap)
            let after = spread(Array(targets[(r + 1)...]), weights: Array(repeating: 1, count: order.count - r - 1),
                               lower: targets[r] + gap, upper: 360 - gap, gap: gap)
            placed = before + [targets[r]] + after
        } else {
            // No exit, or no room for it where it is: it weighs so much more than the others that
            // it moves the least.
            placed = spread(targets, weights: order.map { roads[$0].role == .exit ? 1e6 : 1 },
                            lower: gap, upper: 360 - gap, gap: gap)
        }
        for (k, i) in order.enumerated() where abs(placed[k] - place(i)) > tolerance {
            result[i] = normalizedTurn(anchor + placed[k])
        }
        return result
    }

    /// `place`, or where it lies outside `range` (both within 0…360, going round from the entry),
    /// the end of `range` it is nearer going round the circle.
    static func nearest(_ place: Degrees, within range: ClosedRange<Degrees>) -> Degrees {
        if range.contains(place) { return place }
        let toLower = place < range.lowerBound ? range.lowerBound - place : range.lowerBound + 360 - place
        let toUpper = place > range.upperBound ? place - range.upperBound : place + 360 - range.upperBound
        return toLower <= toUpper ? range.lowerBound : range.upperBound
    }

    /// The least angle between two neighbouring roads as `displayAngles` draws them, the entry (or
    /// the entry drawn at 180 where the tulip has none) among them; nil with fewer than two roads.
    public static func narrowestGap(of tulip: Tulip, minimum: Degrees = minimumSeparation) -> Degrees? {
        var angles = displayAngles(of: tulip, minimum: minimum)
        if tulip.entry == nil { angles.append(180) }
        return narrowestGap(angles)
    }

    /// The least angle between two neighbouring directions of `angles` round the circle; nil with
    /// fewer than two.
    public static func narrowestGap(_ angles: [Degrees]) -> Degrees? {
        guard angles.count >= 2 else { return nil }
        let sorted = angles.map(normalizedBearing).sorted()
        var least = sorted[0] + 360 - sorted[sorted.count - 1]
        for (a, b) in zip(sorted, sorted.dropFirst()) { least = min(least, b - a) }
        return least
    }

    /// The places nearest `targets` (least weighted sum of squares) that rise by at least `gap` from
    /// one to the next and lie within `lower`…`upper`, keeping the targets' order.
    ///
    /// Shifting the k-th place down by k × gap turns "at least `gap` apart" into "not decreasing":
    /// isotonic regression (pool adjacent violators), then each value clipped to the bounds, which
    /// is the bounded problem's solution since the bounds are the same for every shifted value.
    static func spread(_ targets: [Degrees], weights: [Double], lower: Degrees, upper: Degrees, gap: Degrees) -> [Degrees] {
        guard !targets.isEmpty else { return [] }
        var blocks: [(mean: Double, weight: Double, count: Int)] = []
        for (k, (target, weight)) in zip(targets, weights).enumerated() {
            blocks.append((target - Double(k) * gap, weight, 1))
            while blocks.count > 1, blocks[blocks.count - 2].mean > blocks[blocks.count - 1].mean {
                let b = blocks.removeLast(), a = blocks.removeLast()
                let w = a.weight + b.weight
                blocks.append(((a.mean * a.weight + b.mean * b.weight) / w, w, a.count + b.count))
            }
        }
        let top = upper - Double(targets.count - 1) * gap
        var result: [Degrees] = []
        result.reserveCapacity(targets.count)
        for block in blocks {
            let clipped = max(lower, min(top, block.mean))
            for _ in 0..<block.count { result.append(clipped + Double(result.count) * gap) }
        }
        return result
    }
}
