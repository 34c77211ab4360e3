import Foundation
import Geo
import Model

/// The passes of `TurnDetector`, each a pure function from maneuvers to maneuvers. They run in the
/// order of `TurnDetector.passes`.
public enum TurnPasses {
    /// A junction wrapped as an `unclassified` maneuver: `produceCandidates` fills it in and
    /// `classifyJunctions` gives it its kind.
    static func seed(_ junction: Junction) -> Maneuver {
        Maneuver(kind: .unclassified, modifier: .straight, distanceAlong: junction.distanceAlong,
                 coordinate: junction.coordinate, turnAngle: 0, junctions: [junction])
    }

    /// Angle of `spoke` as seen by a rider arriving along `entry`: 0 straight on, + right, (−180, 180].
    public static func relativeAngle(of spoke: Spoke, arrivingAlong entry: Spoke) -> Degrees {
        if spoke.role == .entry { return 180 }
        return normalizedTurn(spoke.bearing - (entry.bearing + 180))
    }

    // MARK: - 1. Produce

    /// One candidate per junction that has an entry and an exit: its turn angle, modifier, exit road
    /// and whether it is a crossroads. Junctions without both (the route's ends) are dropped.
    @Sendable public static func produceCandidates(_ steps: [Maneuver], _ context: TurnDetector.Context) -> [Maneuver] {
        steps.compactMap { step in
            guard let junction = step.junctions.first, let entry = junction.entry, let exit = junction.exit,
                  let angle = junction.turnAngle else { return nil }
            var m = step
            m.turnAngle = angle
            m.modifier = TurnDetector.modifier(for: angle, configuration: context.configuration)
            m.exitName = exit.name
            m.exitRef = exit.ref
            let sides = junction.spokes.filter { $0.role != .entry }.map { relativeAngle(of: $0, arrivingAlong: entry) }
            m.atCrossroads = sides.contains { (-135 ... -45).contains($0) } && sides.contains { (45...135).contains($0) }
            return m
        }
    }

    // MARK: - 2. Roundabouts

    /// Consecutive candidates on a roundabout's ring become one `roundabout` maneuver.
    ///
    /// A run starts at the node where the route's exit spoke is on the ring and ends at the node where
    /// it is not. The exit number counts the roads one may leave the ring by (not ring spokes, not
    /// one-way roads into the ring) at the nodes after the entry node, up to and including the one
    /// taken. Where several such roads leave one node, those further to the right of the direction
    /// of arrival at the node are counted as met first. The turn angle is from the arrival at the
    /// first node to the departure at the last.
    @Sendable public static func collapseRoundabouts(_ steps: [Maneuver], _ context: TurnDetector.Context) -> [Maneuver] {
        var result: [Maneuver] = []
        var i = 0
        while i < steps.count {
            guard let first = steps[i].junctions.first, first.exit?.isRoundabout == true,
                  first.entry?.isRoundabout == false else {
                result.append(steps[i]); i += 1; continue
            }
            // Find the node where the route leaves the ring.
            var j = i + 1
            while j < steps.count, let junction = steps[j].junctions.first, junction.entry?.isRoundabout == true,
                  junction.exit?.isRoundabout == true { j += 1 }
            guard j < steps.count, let last = steps[j].junctions.first, last.entry?.isRoundabout == true,
                  let lastEntry = last.entry, let exit = last.exit, let entry = first.entry else {
                // The route never leaves the ring within the junctions we have: leave the nodes as they are.
                result.append(steps[i]); i += 1; continue
            }
            let ring = steps[i...j].flatMap(\.junctions)
            var count = 0
            for junction in ring.dropFirst().dropLast() {
                count += junction.spokes.filter { isRingExit($0) && $0.role == .side }.count
            }
            let exitAngle = relativeAngle(of: exit, arrivingAlong: lastEntry)
            count += last.spokes.filter {
                isRingExit($0) && $0.role == .side && relativeAngle(of: $0, arrivingAlong: lastEntry) > exitAngle
            }.count + 1
            let angle = normalizedTurn(exit.bearing - (entry.bearing + 180))
            result.append(Maneuver(kind: .roundabout,
                                   modifier: TurnDetector.modifier(for: angle, configuration: context.configuration),
                                   distanceAlong: first.distanceAlong, coordinate: first.coordinate, turnAngle: angle,
                                   exitNumber: count, junctions: ring, exitName: exit.name, exitRef: exit.ref))
            i = j + 1
        }
        return result
    }

    /// A road a rider may leave a roundabout's ring by.
    static func isRingExit(_ spoke: Spoke) -> Bool { !spoke.isRoundabout && spoke.canLeave }

    // MARK: - 3. U-turns

    /// A candidate turning back more than `uTurnLimit` is a U-turn, kept whatever the junction offers.
    @Sendable public static func markUTurns(_ steps: [Maneuver], _ context: TurnDetector.Context) -> [Maneuver] {
        steps.map { step in
            guard step.kind != .roundabout, abs(step.turnAngle) >= context.configuration.uTurnLimit else { return step }
            var m = step
            m.kind = .uTurn
            m.modifier = .uTurn
            return m
        }
    }

    // MARK: - 4. Classify

    /// Decides what each `unclassified` single-junction candidate is, and drops those that need no row.
    ///
    /// - No real choice (one road one may leave by): no row, the road only bends.
    /// - Straight on: a row only when another road within `mistakableCone` of straight could be taken
    ///   for the way on (or at every crossroads when `straightOnAtEveryCrossroads`).
    /// - End of road: no road at all within `aheadCone` of straight, and the route turns.
    /// - Fork: another road one may leave by and the exit both within `forkCone` of straight, unless the
    ///   other is the through road (within `throughRoadTolerance` of straight) and the exit is not:
    ///   then leaving is a slight turn ("bear"), as onto a slip road.
    /// - Otherwise a turn with its modifier.
    @Sendable public static func classifyJunctions(_ steps: [Maneuver], _ context: TurnDetector.Context) -> [Maneuver] {
        let c = context.configuration
        return steps.compactMap { step in
            guard step.kind == .unclassified, step.junctions.count == 1, let junction = step.junctions.first,
                  let entry = junction.entry else { return step }
            var m = step
            let a = step.turnAngle
            let others = junction.spokes.filter { $0.role == .side }
            let leavable = others.filter(\.canLeave).map { relativeAngle(of: $0, arrivingAlong: entry) }
            let anyOther = others.map { relativeAngle(of: $0, arrivingAlong: entry) }
            // A road one may not take (one-way towards the junction) still shapes the junction the
            // rider sees: turning off where it comes in is a row ("End of road, turn right"). Only a
            // junction with no other road at all makes none.
            guard !anyOther.isEmpty else { return nil }

            // Roads ahead the rider could take, besides the exit.
            let branches = leavable.filter { abs($0) <= c.forkCone }
            if abs(a) <= c.forkCone, let nearest = branches.map(abs).min() {
                if nearest - abs(a) >= c.forkSeparation {
                    // The exit is the clear continuation; the others turn off it.
                    if m.modifier != .straight { m.kind = .turn; return m }
                    guard nearest <= c.mistakableCone || (c.straightOnAtEveryCrossroads && m.atCrossroads) else { return nil }
                    m.kind = .straightOn
                    return m
                }
                let through = branches.contains { abs($0) <= c.throughRoadTolerance }
                if through && abs(a) - nearest >= c.forkSeparation {
                    // Leaving a road that carries straight on, for one well off it: a bear or a turn.
                    m.kind = .turn
                    return m
                }
                m.kind = .fork
                let all = branches + [a]
                // Keep left: the leftmost branch; keep right: the rightmost; else the middle one.
                if a <= all.min()! { m.modifier = .slightLeft }
                else if a >= all.max()! { m.modifier = .slightRight }
                else { m.modifier = .straight }
                return m
            }
            if m.modifier == .straight {
                let mistakable = leavable.contains { abs($0) <= c.mistakableCone }
                guard mistakable || (c.straightOnAtEveryCrossroads && m.atCrossroads) else { return nil }
                m.kind = .straightOn
                return m
            }
            if !anyOther.contains(where: { abs($0) <= c.aheadCone }) && abs(a) >= c.slightLimit {
                m.kind = .endOfRoad
                return m
            }
            m.kind = .turn
            return m
        }
    }

    // MARK: - 5. Staggered junctions

    /// A turn followed within `staggerDistance` by a turn to the other side is one staggered junction:
    /// the first keeps its row and its drawing (the first junction), the second becomes its `then`
    /// ("Left then right") and gives the exit road. The rider sees both at once; two rows 30 m apart
    /// cannot be read in time.
    @Sendable public static func mergeStaggered(_ steps: [Maneuver], _ context: TurnDetector.Context) -> [Maneuver] {
        let turnKinds: Set<Maneuver.Kind> = [.turn, .endOfRoad]
        var result: [Maneuver] = []
        var i = 0
        while i < steps.count {
            var m = steps[i]
            if i + 1 < steps.count, turnKinds.contains(m.kind), m.then == nil {
                let next = steps[i + 1]
                if turnKinds.contains(next.kind), next.distanceAlong - m.distanceAlong <= context.configuration.staggerDistance,
                   m.modifier.side != 0, next.modifier.side == -m.modifier.side {
                    m.then = next.modifier
                    m.junctions += next.junctions
                    m.exitName = next.exitName
                    m.exitRef = next.exitRef
                    m.turnAngle = normalizedTurn(m.turnAngle + next.turnAngle)
                    result.append(m)
                    i += 2
                    continue
                }
            }
            result.append(m)
            i += 1
        }
        return result
    }

    // MARK: - 6. Spacing

    /// Of two maneuvers closer than `minimumSpacing`, only the stronger is kept: a U-turn or roundabout
    /// over anything else, then the larger turn angle, then the earlier.
    @Sendable public static func enforceMinimumSpacing(_ steps: [Maneuver], _ context: TurnDetector.Context) -> [Maneuver] {
        func strength(_ m: Maneuver) -> (Int, Double) {
            ((m.kind == .uTurn || m.kind == .roundabout) ? 1 : 0, abs(m.turnAngle))
        }
        var result: [Maneuver] = []
        for step in steps {
            if let last = result.last, step.distanceAlong - last.distanceAlong < context.configuration.minimumSpacing {
                if strength(step) > strength(last) { result[result.count - 1] = step }
                continue
            }
            result.append(step)
        }
        return result
    }

    // MARK: - 7. Keep-straight reminders

    /// When `keepStraightInterval` is set and the route line is known, a `keepStraight` maneuver every
    /// interval on each stretch (between maneuvers, and from the start and to the end) that has no
    /// other maneuver for longer than the interval.
    @Sendable public static func addKeepStraightReminders(_ steps: [Maneuver], _ context: TurnDetector.Context) -> [Maneuver] {
        guard let interval = context.configuration.keepStraightInterval, interval > 0, let line = context.line else {
            return steps
        }
        var result: [Maneuver] = []
        var previous: Metres = 0
        func fill(upTo end: Metres) {
            var d = previous + interval
            while d < end - interval / 2 {
                let p = line.position(atDistance: d)
                result.append(Maneuver(kind: .keepStraight, modifier: .straight, distanceAlong: d, coordinate: p.coordinate,
                                       turnAngle: 0, junctions: []))
                d += interval
            }
        }
        for step in steps {
            fill(upTo: step.distanceAlong)
            result.append(step)
            previous = step.distanceAlong
        }
        fill(upTo: line.length)
        return result
    }
}
