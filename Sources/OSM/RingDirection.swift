import Foundation
import Geo
import Model

/// Which way a map's roundabouts are driven round, read from their rings.
///
/// A roundabout's ring is mapped as one-way ways drawn the way traffic goes (`junction=roundabout`
/// implies it), so at each ring node the ring turns left when the ring runs anticlockwise, as
/// where traffic keeps right, and right where traffic keeps left. Summed over a ring's nodes the
/// turning is 360° one way; summed over a region, it says the side traffic keeps to there without
/// being told: the Andorra extract's rings all run anticlockwise, its mirror image's clockwise.
public struct RingTurning: Sendable, Equatable {
    /// Degrees the rings turn left (anticlockwise rings) and right (clockwise ones), summed over
    /// their nodes.
    public var anticlockwise: Degrees = 0
    public var clockwise: Degrees = 0

    /// The map says the side when its rings turn at least this many whole turns in all: a single
    /// ring may be drawn the wrong way round, or be a one-way loop mapped as a roundabout.
    public static let leastRings = 2.0
    /// …and at least this share of their turning one way: an extract across a border where the side
    /// changes (the Channel Tunnel, Hong Kong and China) has both, and says neither.
    public static let leastShare = 0.8

    public init(anticlockwise: Degrees = 0, clockwise: Degrees = 0) {
        self.anticlockwise = anticlockwise
        self.clockwise = clockwise
    }

    /// The rings' turning in whole turns (360° a ring).
    public var rings: Double { (anticlockwise + clockwise) / 360 }

    /// The side traffic keeps to, as the rings say it; nil when they are too few or disagree.
    public var drivingSide: DrivingSide? {
        let total = anticlockwise + clockwise
        // A degree short is still two rings: the sums of a ring's node turns are not exact.
        guard total >= Self.leastRings * 360 - 1 else { return nil }
        if anticlockwise >= Self.leastShare * total { return .right }
        if clockwise >= Self.leastShare * total { return .left }
        return nil
    }

    /// How the reading is said to a person: "12 roundabouts, all anticlockwise", "3 roundabouts,
    /// 90% clockwise".
    public var summary: String {
        let count = Int(rings.rounded())
        let share = max(anticlockwise, clockwise) / max(anticlockwise + clockwise, .leastNonzeroMagnitude)
        let way = anticlockwise >= clockwise ? "anticlockwise" : "clockwise"
        let noun = count == 1 ? "roundabout" : "roundabouts"
        return share >= 0.995 ? "\(count) \(noun), all \(way)" : String(format: "%d %@, %.0f%% %@", count, noun, share * 100, way)
    }
}

extension RoadGraph {
    /// How the graph's roundabout rings turn (see `RingTurning`): at every node where a one-way
    /// ring way arrives and one leaves, the turn between them. O(nodes + edges); only ring nodes
    /// are measured.
    public func ringTurning() -> RingTurning {
        var turning = RingTurning()
        for node in 0..<count {
            var arriving: Int?, leaving: Int?, ringEdges = 0
            for e in Int(edgeStart[node])..<Int(edgeStart[node + 1]) {
                let way = ways[Int(edgeWay[e])]
                guard way.isRoundabout, way.oneway != .no else { continue }
                ringEdges += 1
                // Travel along this edge away from the node is allowed when it follows the way's order
                // on a forward way (against it on a backward one); else the ring arrives by it.
                if edgeForward[e] == (way.oneway == .forward) { leaving = Int(edgeTarget[e]) } else { arriving = Int(edgeTarget[e]) }
            }
            // A node where two rings touch, or a ring's open end, says nothing certain.
            guard ringEdges == 2, let from = arriving, let to = leaving, from != to else { continue }
            let turn = normalizedTurn(coordinates[node].bearing(to: coordinates[to]) - coordinates[from].bearing(to: coordinates[node]))
            // Two ring nodes at one place have no bearing between them.
            guard turn.isFinite else { continue }
            if turn > 0 { turning.clockwise += turn } else { turning.anticlockwise -= turn }
        }
        return turning
    }
}
