import Foundation
import Geo
import Model

/// The passes of `TurnDetector`, each a pure function from maneuvers to maneuvers. They run in the
/// order of `TurnDetector.passes`.
public enum TurnPasses {
    /// A junction wrapped as an `unclassified` maneuver: `produceCandidates` fills it in and
    /// `classifyJunctions` gives it its kind.
    public static func seed(_ junction: Junction) -> Maneuver {
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
                  let angle = junction.turnAngle else {
                context.trace?.record(step.junctions, pass: "produce candidates", "no row: the route starts or ends here")
                return nil
            }
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
    /// it is not. The exit number counts the roads the travel mode may leave the ring by (not ring
    /// spokes, not one-way roads into the ring, not roads closed to the mode) from the entry node on,
    /// up to and including the one taken: at the entry node, the arms further right than the way
    /// round the ring (an exit arm mapped to the entry's node is the first exit). Where several such
    /// roads leave one node, those further to the right of the direction of arrival at the node are
    /// counted as met first. A route that enters and leaves at one node is a roundabout row too. The turn angle is from the arrival at the
    /// first node to the departure at the last.
    @Sendable public static func collapseRoundabouts(_ steps: [Maneuver], _ context: TurnDetector.Context) -> [Maneuver] {
        var result: [Maneuver] = []
        var i = 0
        while i < steps.count {
            if let touch = touchAndGo(steps[i], context) {
                context.trace?.record(touch.junctions, pass: "collapse roundabouts", "a roundabout entered and left at one node")
                result.append(touch); i += 1; continue
            }
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
            // At the entry node, an arm on the near side of the way round the ring (right on a ring
            // run anticlockwise) is met first.
            let clockwise = ringRunsClockwise(at: first, leavingBy: first.exit!)
            var count = exitsBefore(first.exit!, at: first, clockwise: clockwise)
            for junction in ring.dropFirst().dropLast() {
                count += junction.spokes.filter { isRingExit($0) && $0.role == .side }.count
            }
            count += exitsBefore(exit, at: last, clockwise: clockwise) + 1
            let angle = normalizedTurn(exit.bearing - (entry.bearing + 180))
            context.trace?.record(ring, pass: "collapse roundabouts", "one roundabout row, exit \(count), from the entry to the exit node")
            result.append(Maneuver(kind: .roundabout,
                                   modifier: TurnDetector.modifier(for: angle, configuration: context.configuration),
                                   distanceAlong: first.distanceAlong, coordinate: first.coordinate, turnAngle: angle,
                                   exitNumber: count, junctions: ring, exitName: exit.name, exitRef: exit.ref))
            i = j + 1
        }
        return result
    }

    /// The roads one may leave the ring by at `junction` that lie further right, seen from its entry,
    /// than `spoke` on a ring run anticlockwise (traffic keeping right), further left on one run
    /// clockwise: they are met before it.
    public static func exitsBefore(_ spoke: Spoke, at junction: Junction, clockwise: Bool) -> Int {
        guard let entry = junction.entry else { return 0 }
        let angle = relativeAngle(of: spoke, arrivingAlong: entry)
        return junction.spokes.filter {
            guard isRingExit($0), $0.role == .side else { return false }
            let other = relativeAngle(of: $0, arrivingAlong: entry)
            return clockwise ? other < angle : other > angle
        }.count
    }

    /// Whether traffic goes round the ring clockwise (where it keeps left), read at `junction`, where
    /// the route reaches the ring, from the map's own one-way ring: seen from the route's arrival, the
    /// ring road leaving the node (`departing`) lies left of the ring road coming into it. Where the
    /// ring road coming in is not at the node, the side onto which the ring leaves decides.
    public static func ringRunsClockwise(at junction: Junction, leavingBy departing: Spoke) -> Bool {
        guard let entry = junction.entry else { return false }
        let out = relativeAngle(of: departing, arrivingAlong: entry)
        if let arriving = junction.spokes.first(where: { $0.isRoundabout && !$0.canLeave && $0.role != .entry }) {
            return out < relativeAngle(of: arriving, arrivingAlong: entry)
        }
        return out < 0
    }

    /// A route that meets a roundabout at one node and leaves it there (an entry arm and an exit arm
    /// mapped to the same ring node): a roundabout row, its exit counted among the arms of that node.
    static func touchAndGo(_ step: Maneuver, _ context: TurnDetector.Context) -> Maneuver? {
        guard step.kind == .unclassified, let junction = step.junctions.first, junction.entry?.isRoundabout == false,
              let exit = junction.exit, !exit.isRoundabout, !exit.isRoundabout,
              junction.spokes.contains(where: \.isRoundabout) else { return nil }
        guard let ringOut = junction.spokes.first(where: { $0.isRoundabout && $0.canLeave }) else { return nil }
        var m = step
        m.kind = .roundabout
        m.exitNumber = exitsBefore(exit, at: junction, clockwise: ringRunsClockwise(at: junction, leavingBy: ringOut)) + 1
        return m
    }

    /// A road a rider may leave a roundabout's ring by.
    public static func isRingExit(_ spoke: Spoke) -> Bool { !spoke.isRoundabout && spoke.canLeave }

    // MARK: - 3. U-turns

    /// A candidate turning back more than `uTurnLimit` is a U-turn, kept whatever the junction offers.
    /// So is a sharp turn (beyond `sharpLimit`) off a one-way carriageway after which the route, `mergeDistance` on, runs
    /// back the way it came within `mergedUTurn`: the turn through the gap of a divided road onto a
    /// link that joins the other carriageway with no choice (and so no row of its own).
    @Sendable public static func markUTurns(_ steps: [Maneuver], _ context: TurnDetector.Context) -> [Maneuver] {
        let c = context.configuration
        return steps.map { step in
            guard step.kind != .roundabout else { return step }
            // Arriving on a one-way carriageway (a divided road; a hairpin's road is two-way).
            let divided = step.junctions.first?.entry?.canLeave == false
            let back = abs(step.turnAngle) >= c.uTurnLimit
                || (divided && abs(step.turnAngle) >= c.sharpLimit && comesBack(at: step.distanceAlong, context))
            guard back else { return step }
            context.trace?.record(step.junctions, pass: "mark U-turns", abs(step.turnAngle) >= c.uTurnLimit
                                  ? "U-turn: turns back \(Int(abs(step.turnAngle).rounded()))°"
                                  : "U-turn: a sharp turn off a one-way carriageway, and the route comes back along it")
            var m = step
            m.kind = .uTurn
            m.modifier = .uTurn
            return m
        }
    }

    /// Whether the route, `mergeDistance` after `distance`, heads back within `mergedUTurn` of the
    /// way it arrived (each heading over `spokeLength`-like 20 m of the route line).
    static func comesBack(at distance: Metres, _ context: TurnDetector.Context) -> Bool {
        guard let line = context.line, distance >= 20, distance + context.configuration.mergeDistance + 20 <= line.length else {
            return false
        }
        let reach = context.configuration.mergeDistance
        let arriving = line.coordinate(atDistance: distance - 20).bearing(to: line.coordinate(atDistance: distance))
        let leaving = line.coordinate(atDistance: distance + reach).bearing(to: line.coordinate(atDistance: distance + reach + 20))
        return abs(normalizedTurn(leaving - arriving)) >= context.configuration.mergedUTurn
    }

    // MARK: - 4. Classify

    /// Decides what each `unclassified` single-junction candidate is, and drops those that need no row.
    ///
    /// The choices are the roads the travel mode may leave by that do not go back (less than
    /// `goingBack` off straight). Then, in order:
    /// - **No choice** (the exit is the only one): no row, the road only bends, a slip road merges or
    ///   the route passes a one-way road arriving. Except at a real T: no road at all within
    ///   `aheadCone` of straight and the route turns at least `slightLimit`: "End of road".
    /// - **The obvious road** (`obviousRoad`): the one a rider stays on without being told, by road
    ///   class, name and `ref`, then angle. Staying on it needs no row, unless another choice is
    ///   clearly straighter than the bend it takes (a row saying which way the road goes), or the road
    ///   bends past a public road on the other side bending about as far (a Y: which branch), or a
    ///   road of its rank within `mistakableCone` of straight, or one carrying the road's name within
    ///   `narrowMistakableCone`, could be taken for the way on ("Straight on"), or the route goes
    ///   straight over a more important road (`crossesMoreImportantRoad`: "Straight on at crossroads"),
    ///   or a slip road splits where it ends on the road it serves.
    ///   Leaving it is a turn, "bear" at most: a slip road 10° off a trunk road is left to its side.
    /// - **A fork**: no obvious road, and the exit and another choice of comparable rank both within
    ///   `forkCone` of straight: keep left, right or in the middle.
    /// - **End of road**: no road at all within `aheadCone` of straight and the route turns.
    /// - Otherwise a turn with its modifier.
    @Sendable public static func classifyJunctions(_ steps: [Maneuver], _ context: TurnDetector.Context) -> [Maneuver] {
        steps.compactMap { step in
            guard step.kind == .unclassified, step.junctions.count == 1 else { return step }
            let (kept, why) = classify(step, context.configuration)
            context.trace?.record(step.junctions, pass: "classify junctions",
                                  kept.map { "\(Instructions.english.text(for: $0)): \(why)" } ?? "no row: \(why)")
            return kept
        }
    }

    /// One junction's verdict: its row (nil for none) and the reason, in words for `inspect --explain`.
    static func classify(_ step: Maneuver, _ c: TurnDetector.Configuration) -> (Maneuver?, String) {
        guard let junction = step.junctions.first, let entry = junction.entry, let exit = junction.exit else {
            return (step, "the route starts or ends here")
        }
        var m = step
        let a = step.turnAngle
        let others = junction.spokes.filter { $0.role == .side }
        let choices = others.filter { $0.canLeave && abs(relativeAngle(of: $0, arrivingAlong: entry)) < c.goingBack }
        let roadAhead = others.contains { abs(relativeAngle(of: $0, arrivingAlong: entry)) <= c.aheadCone }
        // A road no one drives (a track, a path) ahead or across does not make the junction a
        // place a driver could go wrong when it is no choice anyway.
        let carriageways = others.filter { rank($0.highway) < rank("track") }
        let carriagewayAhead = carriageways.contains { abs(relativeAngle(of: $0, arrivingAlong: entry)) <= c.aheadCone }
        let endOfRoad = !roadAhead && abs(a) >= c.slightLimit

        // Joining a more important road where it runs both ways (a side street meeting a main
        // road): the rider could turn either way, even when the other way goes back.
        let joinsMainRoad = !continues(exit, entry) && rank(exit.highway) < rank(entry.highway)
            && others.contains { $0.canLeave && sameRoad($0, exit) } && abs(a) >= c.straightLimit
        guard !choices.isEmpty else {
            if joinsMainRoad {
                m.kind = .turn
                return (m, "joins a more important road that runs both ways")
            }
            // No choice, but the route turns well off straight where a road it may not take goes
            // on ahead (a rider could ride into it), or where the road ends at a real T.
            guard abs(a) > c.aheadCone else { return (nil, "no other road the mode may take, and the route runs on ahead") }
            // Turning onto another road (a side street joining a main road), or where a road
            // the rider may not take goes on ahead: a turn.
            if carriagewayAhead || (!continues(exit, entry) && rank(exit.highway) < rank(entry.highway)) {
                m.kind = .turn
                return (m, carriagewayAhead ? "no choice, but a road the mode may not take goes on ahead"
                                            : "turns onto a more important road")
            }
            let otherSide = carriageways.contains {
                let angle = relativeAngle(of: $0, arrivingAlong: entry)
                return abs(angle) < c.goingBack && angle * a < 0
            }
            guard otherSide else { return (nil, "no other road the mode may take; the road only bends") }
            m.kind = .endOfRoad
            return (m, "the road ends at a T (roads leave on the other side), no choice")
        }

        let roads = [exit] + choices
        let angles = choices.map { relativeAngle(of: $0, arrivingAlong: entry) }
        let publicRoad = { (spoke: Spoke) in rank(spoke.highway) < rank("service") }
        if !joinsMainRoad, let obvious = obviousRoad(among: roads, arrivingAlong: entry, configuration: c) {
            if obvious == 0 {
                // Staying on the road. A public road clearly straighter than its bend is where
                // a rider would go on: say which way the road goes.
                let straighter = zip(choices, angles).contains { spoke, angle in
                    publicRoad(spoke) && abs(angle) + c.forkSeparation <= abs(a)
                }
                if m.modifier != .straight && straighter {
                    m.kind = endOfRoad ? .endOfRoad : .turn
                    return (m, "stays on the obvious road, but a public road goes on clearly straighter")
                }
                // A road bending a good deal (`bendingRoad`) where a public road leaves on the other
                // side ahead (or bending within `distinctMargin` as far), not distinctly further: a
                // Y, or a T whose road goes on round a bend: which way the road goes. So is a road
                // bending off straight (`straightLimit`) where a public road leaves on the other side
                // bending as far, or at most `distinctMargin` further: a Y both of whose branches
                // bend. Neither is straight on; the rider must pick one.
                let bendsPast = zip(choices, angles).contains { spoke, angle in
                    guard publicRoad(spoke) && angle * a < 0 else { return false }
                    let y = abs(a) >= c.bendingRoad && abs(angle) <= max(c.forkCone, abs(a) + c.distinctMargin)
                        && !distinctTurn(abs(angle), from: abs(a), configuration: c)
                    let bothBend = abs(a) >= c.straightLimit && (abs(a) ... abs(a) + c.distinctMargin).contains(abs(angle))
                    return y || bothBend
                }
                // The entry's name or ref carries on along another road ahead: the rider
                // following the signs would go there.
                let nameGoesOn: Degrees? = continues(exit, entry) ? nil : zip(choices, angles).first {
                    continues($0.0, entry) && abs($0.1) <= c.forkCone
                }.map(\.1)
                if bendsPast || nameGoesOn != nil {
                    m.kind = .turn
                    if m.modifier == .straight { m.modifier = a - (nameGoesOn ?? 0) < 0 ? .slightLeft : .slightRight }
                    return (m, bendsPast ? "the obvious road bends past a public road on the other side"
                                         : "the road's name goes on along another road ahead")
                }
                // A road of about its rank close to straight could be taken for the way on, and so
                // could a public road of any rank carrying the entry's name or ref within
                // `narrowMistakableCone`: a rider following the name sees it on both branches.
                let mistakable = zip(choices, angles).contains { spoke, angle in
                    (abs(angle) <= c.mistakableCone && rank(spoke.highway) <= rank(exit.highway) + 1)
                        || (abs(angle) <= c.narrowMistakableCone && rank(spoke.highway) <= rank(exit.highway) + 2)
                        || (abs(angle) <= c.narrowMistakableCone && publicRoad(spoke) && continues(spoke, entry))
                }
                if mistakable && m.modifier != .straight {
                    m.kind = .turn
                    return (m, "the obvious road bends where a road of its rank goes near straight on")
                }
                if m.modifier == .straight && crossesMoreImportantRoad(junction, entry: entry, exit: exit) {
                    m.kind = .straightOn
                    m.atCrossroads = true
                    return (m, "goes straight over a more important road")
                }
                // A slip road splitting: it ends on the road it serves where another public road
                // leaves ahead of square. The rider must know to go on onto that road.
                let splits = zip(choices, angles).contains { publicRoad($0.0) && abs($0.1) < 90 }
                if isSlipRoad(entry) && !isSlipRoad(exit) && rank(exit.highway) < rank(entry.highway) && splits {
                    m.kind = m.modifier == .straight ? .straightOn : .turn
                    return (m, "a slip road splits: it ends on its road where another public road leaves ahead")
                }
                guard mistakable || (c.straightOnAtEveryCrossroads && m.atCrossroads) else {
                    return (nil, "stays on the obvious road (\(exit.highway ?? "road")); no road to take for it")
                }
                m.kind = .straightOn
                m.modifier = .straight
                return (m, "stays on the obvious road; another road near straight on could be taken for it")
            }
            // Leaving the obvious road: straight on when the route itself goes straight, else a
            // turn, at least a slight one to the side it leaves by.
            return (leaving(m, obviousAngle: relativeAngle(of: roads[obvious], arrivingAlong: entry),
                            endOfRoad: endOfRoad, configuration: c),
                    "leaves the obvious road (\(roads[obvious].highway ?? "road") \(roads[obvious].ref ?? roads[obvious].name ?? ""))")
        }

        // No obvious road: roads ahead of comparable rank, the exit among them, are a fork.
        let branches = zip(choices, angles).filter { abs($0.1) <= c.forkCone && comparable($0.0, exit) }.map(\.1)
        if abs(a) <= c.forkCone, !branches.isEmpty {
            m.kind = .fork
            let all = branches + [a]
            // Keep left: the leftmost branch; keep right: the rightmost; else the middle one.
            if a <= all.min()! { m.modifier = .slightLeft }
            else if a >= all.max()! { m.modifier = .slightRight }
            else { m.modifier = .straight }
            return (m, "no obvious road; roads of comparable rank ahead")
        }
        // Roads ahead of another rank: the exit is left to its side of the nearest one.
        let nearest = angles.filter { abs($0) <= c.forkCone }.min { abs($0 - a) < abs($1 - a) }
        if abs(a) <= c.forkCone, let nearest {
            return (leaving(m, obviousAngle: nearest, endOfRoad: endOfRoad, configuration: c),
                    "no obvious road; leaves a road of another rank ahead")
        }
        if endOfRoad {
            m.kind = .endOfRoad
            return (m, "no obvious road and no road ahead")
        }
        if m.modifier == .straight {
            m.kind = .straightOn
            return (m, "no obvious road; goes straight on")
        }
        m.kind = .turn
        return (m, "no obvious road; turns off")
    }

    /// Whether the route, on `entry` and `exit`, crosses a main road (tertiary or above) ranked above
    /// both: a road of that rank meets the junction on the left and on the right, 45–135° off. The
    /// rider stops or gives way there, and must know to go straight over. A minor road crossing
    /// another (residential over unclassified) is a plain crossroads.
    static func crossesMoreImportantRoad(_ junction: Junction, entry: Spoke, exit: Spoke) -> Bool {
        let crossing = junction.spokes.filter { $0.role == .side && isMainRoad($0, above: [entry, exit]) }
            .map { relativeAngle(of: $0, arrivingAlong: entry) }
        return crossing.contains { (-135 ... -45).contains($0) } && crossing.contains { (45...135).contains($0) }
    }

    /// Whether `road` is a main road (tertiary or above) ranked above every one of `route`.
    static func isMainRoad(_ road: Spoke, above route: [Spoke]) -> Bool {
        rank(road.highway) <= rank("tertiary") && route.allSatisfy { rank(road.highway) < rank($0.highway) }
    }

    /// A candidate that leaves the road ahead at `obviousAngle` (the obvious road, or the nearest
    /// road ahead): "Straight on" within `straightOnLimit` of straight while that road bends away
    /// (more than `straightLimit`), else a turn (or end of road),
    /// at least a slight one, to the side it leaves by.
    static func leaving(_ step: Maneuver, obviousAngle: Degrees, endOfRoad: Bool, configuration c: TurnDetector.Configuration) -> Maneuver {
        var m = step
        if abs(m.turnAngle) < c.straightOnLimit && abs(obviousAngle) >= c.straightLimit {
            m.kind = .straightOn
            m.modifier = .straight
            return m
        }
        m.kind = endOfRoad ? .endOfRoad : .turn
        if m.modifier == .straight { m.modifier = m.turnAngle - obviousAngle < 0 ? .slightLeft : .slightRight }
        return m
    }

    /// Two roads a rider would weigh as equals at a fork: ranks at most one apart, and both slip
    /// roads or neither.
    static func comparable(_ a: Spoke, _ b: Spoke) -> Bool {
        abs(rank(a.highway) - rank(b.highway)) <= 1 && isSlipRoad(a) == isSlipRoad(b)
    }

    /// Whether `road` is a slip road (`*_link`).
    static func isSlipRoad(_ road: Spoke) -> Bool { road.highway?.hasSuffix("_link") == true }

    /// The rank of a road class for staying on it, 0 the most important: motorway, trunk, primary,
    /// secondary, tertiary, then the minor public roads, service roads, tracks and the rest. A slip
    /// road (`*_link`) ranks with the minor roads: it leaves a main road, it does not carry it on.
    /// A road of unknown class (from an engine that does not say) ranks as a minor public road.
    public static func rank(_ highway: String?) -> Int {
        switch highway ?? "road" {
        case "motorway": 0
        case "trunk": 1
        case "primary": 2
        case "secondary": 3
        case "tertiary": 4
        case "unclassified", "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link": 5
        case "residential", "road", "living_street", "busway": 6
        case "service": 7
        case "track": 8
        default: 9
        }
    }

    /// Whether a road weighing `other` (degrees off straight, or a weight in degrees) is distinct
    /// from one weighing `best`, as OSRM tells a distinct narrow turn: more than `distinctRatio`
    /// times as much and `distinctMargin` more.
    static func distinctTurn(_ other: Double, from best: Double, configuration c: TurnDetector.Configuration) -> Bool {
        other > c.distinctRatio * best && other - best > c.distinctMargin
    }

    /// Whether `spoke` carries on the road of `entry`: the same `ref` (one of its `;`-separated
    /// values) or the same name.
    static func continues(_ spoke: Spoke, _ entry: Spoke) -> Bool {
        func refs(_ s: Spoke) -> Set<String> {
            Set((s.ref ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        }
        if !refs(spoke).isDisjoint(with: refs(entry)) { return true }
        if let name = spoke.name, !name.isEmpty, name == entry.name { return true }
        return false
    }

    /// Whether two spokes are the one road through a junction: the same class, and the same name or
    /// `ref` (or neither has one).
    static func sameRoad(_ a: Spoke, _ b: Spoke) -> Bool {
        let unnamed = { (s: Spoke) in (s.name ?? "").isEmpty && (s.ref ?? "").isEmpty }
        return a.highway == b.highway && (continues(a, b) || (unnamed(a) && unnamed(b)))
    }

    /// The road a rider arriving along `entry` stays on without being told, as an index into
    /// `roads`, or nil when none stands out (a fork, or a junction of equals).
    ///
    /// Like the "obvious" road of OSRM's guidance, each road is weighed by how far it bends from
    /// straight, plus `rankPenalty` degrees for each rank it stands below the entry road (at most
    /// three ranks) and `namePenalty` when the entry has a name or `ref` the road does not carry on.
    /// Arriving on a public road, only public roads may be obvious while there is one (a service
    /// road or track is a lesser road, as in OSRM's road priorities).
    /// The lightest road is obvious when every other weighs `forkSeparation` more, or is distinct
    /// from it as OSRM tells a distinct narrow turn (more than `distinctRatio` times its weight and
    /// `distinctMargin` more, where it is nearly straight or carries the entry's name or `ref` on
    /// short of `slightLimit`), and it is one of:
    /// - nearly straight (within `straightLimit`);
    /// - within `narrowLimit` of straight, carrying the entry's name or `ref` on or no other road
    ///   doing so, with no rival: no road of its rank or above bending, by its angle alone, less
    ///   than `distinctRatio` times as far or within `distinctMargin` of it;
    /// - short of `slightLimit`, carrying the name on, with no rival and every other road distinct;
    /// - within `obviousLimit`, and at least two ranks above every other road (a main road bending
    ///   past a side street), or within `slightLimit` and one rank above while it alone carries on
    ///   the entry's name or `ref`.
    static func obviousRoad(among roads: [Spoke], arrivingAlong entry: Spoke, configuration c: TurnDetector.Configuration) -> Int? {
        let named = !(entry.name ?? "").isEmpty || !(entry.ref ?? "").isEmpty
        let weights = roads.map { road -> Double in
            let below = min(3, max(0, rank(road.highway) - rank(entry.highway)))
            return abs(relativeAngle(of: road, arrivingAlong: entry)) + Double(below) * c.rankPenalty
                + (named && !continues(road, entry) ? c.namePenalty : 0)
        }
        // Arriving on a public road, a service road or track is never the way on while a public
        // road goes on (a driveway straight ahead where the road bends).
        let publicRoad = { (s: Spoke) in rank(s.highway) < rank("service") }
        let eligible = publicRoad(entry) && roads.contains(where: publicRoad) ? roads.indices.filter { publicRoad(roads[$0]) }
                                                                               : Array(roads.indices)
        guard let best = eligible.min(by: { weights[$0] < weights[$1] }) else { return nil }
        let bend = abs(relativeAngle(of: roads[best], arrivingAlong: entry))
        let others = eligible.filter { $0 != best }
        // As OSRM tells a distinct narrow turn: beside a road that is nearly straight, or that bends
        // short of a turn and carries the entry's name or `ref` on, a road weighing more than
        // `distinctRatio` times as much and `distinctMargin` more is no rival.
        let narrow = bend <= c.straightLimit || (bend < c.slightLimit && continues(roads[best], entry))
        let distinctWeight = { (k: Int) in narrow && distinctTurn(weights[k], from: weights[best], configuration: c) }
        guard others.allSatisfy({ weights[$0] - weights[best] >= c.forkSeparation || distinctWeight($0) }) else { return nil }
        if bend <= c.straightLimit { return best }
        // A road of no lower rank than the way on that bends not much further is a rival whatever
        // the names say (its angles alone, as OSRM measures them): a road splitting 38° one way
        // and 58° the other has no way on.
        let rivals = others.contains {
            rank(roads[$0].highway) <= rank(roads[best].highway)
                && !distinctTurn(abs(relativeAngle(of: roads[$0], arrivingAlong: entry)), from: bend, configuration: c)
        }
        if bend <= c.narrowLimit, !rivals, continues(roads[best], entry) || !others.contains(where: { continues(roads[$0], entry) }) {
            return best
        }
        if narrow, !rivals, others.allSatisfy(distinctWeight) { return best }
        let below = { (step: Int) in others.allSatisfy { rank(roads[$0].highway) >= rank(roads[best].highway) + step } }
        let carriesOn = continues(roads[best], entry) && !others.contains { continues(roads[$0], entry) }
        return (bend <= c.obviousLimit && below(2)) || (bend <= c.slightLimit && carriesOn && below(1)) ? best : nil
    }

    // MARK: - 5. Staggered junctions

    /// A turn followed within `staggerDistance` by a turn to the other side is one staggered junction:
    /// the first keeps its row and its drawing (the first junction), the second becomes its `then`
    /// ("Left then right") and gives the exit road. The rider sees both at once; two rows 30 m apart
    /// cannot be read in time. Closer than `crossroadsOffset` and straight on overall, the two are one
    /// crossroads mapped as two nodes, with the row of a crossroads gone straight over: none, or
    /// "Straight on at crossroads" where the road crossed ranks above the route's (as
    /// `crossesMoreImportantRoad` at one node).
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
                    if m.coordinate.distance(to: next.coordinate) < context.configuration.crossroadsOffset,
                       abs(m.turnAngle + next.turnAngle) < context.configuration.straightLimit,
                       !context.configuration.straightOnAtEveryCrossroads {
                        // Two nodes a few metres apart across a road: one crossroads gone straight over,
                        // a row only when the road crossed ranks above the route's.
                        if let crossed = m.junctions.last?.exit, let before = m.junctions.first?.entry,
                           let after = next.junctions.last?.exit, isMainRoad(crossed, above: [before, after]) {
                            var over = m
                            over.kind = .straightOn
                            over.modifier = .straight
                            over.atCrossroads = true
                            over.absorb(next)
                            context.trace?.record(over.junctions, pass: "merge staggered junctions", "Straight on: a crossroads mapped as"
                                                  + " two nodes a few metres apart, straight over a more important road")
                            result.append(over)
                        } else {
                            context.trace?.record(m.junctions + next.junctions, pass: "merge staggered junctions",
                                                  "no row: a crossroads mapped as two nodes a few metres apart, gone straight over")
                        }
                        i += 2
                        continue
                    }
                    m.then = next.modifier
                    m.thenKind = next.kind
                    m.absorb(next)
                    context.trace?.record(m.junctions, pass: "merge staggered junctions",
                                          "one row for both turns of a staggered junction: \(Instructions.english.text(for: m))")
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

    // MARK: - 6. Close rows

    /// Rows closer than `mergeDistance` are one place to the rider and become one row with one
    /// drawing (the first junction's):
    /// - a roundabout absorbs a row just before it or just after it (the split of its approach, the
    ///   merge of its exit lane): the roundabout's row says everything;
    /// - a U-turn keeps its own row, and so does its neighbour (a turn into a dead end, then back);
    /// - a "Straight on" row gives way to the row beside it;
    /// - two rows with a choice (a fork then a turn, a turn then a fork) become the first with the
    ///   second as its `then`: "Keep left at fork, then turn right". The exit road is the second's.
    ///   Two turns the same way that turn the rider back at least `mergedUTurn` (through the gap of a
    ///   divided road) are a U-turn.
    @Sendable public static func mergeCloseRows(_ steps: [Maneuver], _ context: TurnDetector.Context) -> [Maneuver] {
        let choiceKinds: Set<Maneuver.Kind> = [.turn, .endOfRoad, .fork]
        var result: [Maneuver] = []
        for step in steps {
            guard var last = result.last, step.kind != .keepStraight, last.kind != .keepStraight,
                  step.distanceAlong - last.distanceAlong < context.configuration.mergeDistance else {
                result.append(step)
                continue
            }
            let trace = context.trace
            if last.kind == .roundabout || step.kind == .roundabout {
                if step.kind == .roundabout && last.kind == .roundabout { result.append(step); continue }
                let absorbed = step.kind == .roundabout ? last : step
                trace?.record(absorbed.junctions, pass: "merge close rows",
                              "no row: within \(Int(context.configuration.mergeDistance)) m of a roundabout, whose row says it")
                if step.kind == .roundabout { result[result.count - 1] = step }
                continue
            }
            if last.kind == .uTurn || step.kind == .uTurn {
                result.append(step)
                continue
            }
            if step.kind == .straightOn || last.kind == .straightOn {
                trace?.record((step.kind == .straightOn ? step : last).junctions, pass: "merge close rows",
                              "no row: a Straight on beside another row")
                if step.kind != .straightOn { result[result.count - 1] = step }
                continue
            }
            if choiceKinds.contains(last.kind), choiceKinds.contains(step.kind), last.then == nil, step.then == nil {
                last.then = step.modifier
                last.thenKind = step.kind
                let total = last.turnAngle + step.turnAngle
                last.absorb(step)
                if abs(total) >= context.configuration.mergedUTurn, last.modifier.side == step.modifier.side {
                    // Two turns the same way that bring the rider back (across a divided road): a U-turn.
                    last.kind = .uTurn
                    last.modifier = .uTurn
                    last.then = nil
                    last.thenKind = nil
                }
                trace?.record(last.junctions, pass: "merge close rows", "one row for junctions closer than "
                              + "\(Int(context.configuration.mergeDistance)) m: \(Instructions.english.text(for: last))")
                result[result.count - 1] = last
                continue
            }
            result.append(step)
        }
        return result
    }

    // MARK: - 7. Spacing

    /// Of two maneuvers closer than `minimumSpacing`, only the stronger is kept: a U-turn or
    /// roundabout over anything else, then a row with a real choice (a turn, a fork, an end of road)
    /// over a "Straight on", then the larger turn angle, then the earlier.
    @Sendable public static func enforceMinimumSpacing(_ steps: [Maneuver], _ context: TurnDetector.Context) -> [Maneuver] {
        func strength(_ m: Maneuver) -> (Int, Int, Double) {
            ((m.kind == .uTurn || m.kind == .roundabout) ? 1 : 0, m.kind == .straightOn || m.kind == .keepStraight ? 0 : 1,
             abs(m.turnAngle))
        }
        var result: [Maneuver] = []
        for step in steps {
            if let last = result.last, step.distanceAlong - last.distanceAlong < context.configuration.minimumSpacing {
                let (kept, lost) = strength(step) > strength(last) ? (step, last) : (last, step)
                context.trace?.record(lost.junctions, pass: "enforce minimum spacing",
                                      "no row: within \(Int(context.configuration.minimumSpacing)) m of the stronger row "
                                      + "'\(Instructions.english.text(for: kept))'")
                if strength(step) > strength(last) { result[result.count - 1] = step }
                continue
            }
            result.append(step)
        }
        return result
    }

    // MARK: - 8. Keep-straight reminders

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

extension Maneuver {
    /// Makes this row stand for `next` too, one place to the rider: its junctions follow this row's,
    /// the route leaves by `next`'s exit road, and the turn is the two turns together.
    mutating func absorb(_ next: Maneuver) {
        junctions += next.junctions
        exitName = next.exitName
        exitRef = next.exitRef
        turnAngle = normalizedTurn(turnAngle + next.turnAngle)
    }
}
