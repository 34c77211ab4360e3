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
            m.atCrossroads = onBothSides(sides, within: context.configuration.crossroadsSide)
            return m
        }
    }

    /// Whether `angles` has one on the left and one on the right within `side` degrees off straight:
    /// roads crossing the route (`TurnDetector.Configuration.crossroadsSide`).
    static func onBothSides(_ angles: [Degrees], within side: ClosedRange<Degrees>) -> Bool {
        angles.contains { (-side.upperBound ... -side.lowerBound).contains($0) } && angles.contains { side.contains($0) }
    }

    // MARK: - 2. Roundabouts

    /// Consecutive candidates on a roundabout's ring become one `roundabout` maneuver: the handlers
    /// that read a run of candidates (`JunctionHandler.Rule.run`, the roundabout's) are asked at each
    /// candidate in order, and the first that can process it decides it and the candidates its
    /// verdict covers. Without such a handler, every candidate stays as it is.
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
            let decided = context.handlers.lazy.compactMap { handler -> (String, JunctionHandler.Verdict)? in
                guard case .run(let canProcess, let decide) = handler.rule, canProcess(steps, i, context) else { return nil }
                return (handler.name, decide(steps, i, context))
            }.first
            guard case let (handler, verdict)? = decided else {
                result.append(steps[i]); i += 1; continue
            }
            let covered = steps[i..<min(steps.count, i + max(1, verdict.covers))]
            context.trace?.record(verdict.row?.junctions ?? covered.flatMap(\.junctions), pass: "collapse roundabouts",
                                  handler: handler, verdict.reason)
            if let row = verdict.row { result.append(row) }
            i += covered.count
        }
        return result
    }

    /// The index of the candidate where the route leaves the ring it enters at `steps[i]` (whose exit
    /// spoke is on the ring and whose entry is not); nil when it does not enter a ring there, or does
    /// not leave it within the junctions we have.
    static func ringRun(_ steps: [Maneuver], from i: Int) -> Int? {
        guard let first = steps[i].junctions.first, first.exit?.isRoundabout == true, first.entry?.isRoundabout == false else {
            return nil
        }
        // Find the node where the route leaves the ring.
        var j = i + 1
        while j < steps.count, let junction = steps[j].junctions.first, junction.entry?.isRoundabout == true,
              junction.exit?.isRoundabout == true { j += 1 }
        guard j < steps.count, let last = steps[j].junctions.first, last.entry?.isRoundabout == true,
              last.entry != nil, last.exit != nil, first.entry != nil else { return nil }
        return j
    }

    /// The roundabout row of a ring run (`ringRun`): from the entry node, the first of `run`, to the
    /// exit node, the last, with the exit taken counted (see `collapseRoundabouts`).
    static func roundaboutRow(_ run: ArraySlice<Maneuver>, _ context: TurnDetector.Context) -> Maneuver {
        let first = run.first!.junctions.first!, last = run.last!.junctions.first!
        let (entry, exit) = (first.entry!, last.exit!)
        let ring = run.flatMap(\.junctions)
        // At the entry node, an arm on the near side of the way round the ring (right on a ring
        // run anticlockwise) is met first.
        let clockwise = ringRunsClockwise(at: first, leavingBy: first.exit!)
        var count = exitsBefore(first.exit!, at: first, clockwise: clockwise)
        for junction in ring.dropFirst().dropLast() {
            count += junction.spokes.filter { isRingExit($0) && $0.role == .side }.count
        }
        count += exitsBefore(exit, at: last, clockwise: clockwise) + 1
        let angle = normalizedTurn(exit.bearing - (entry.bearing + 180))
        return Maneuver(kind: .roundabout, modifier: TurnDetector.modifier(for: angle, configuration: context.configuration),
                        distanceAlong: first.distanceAlong, coordinate: first.coordinate, turnAngle: angle,
                        exitNumber: count, junctions: ring, exitName: exit.name, exitRef: exit.ref)
    }

    /// The roads one may leave the ring by at `junction` that lie further right, seen from its entry,
    /// than `spoke` on a ring run anticlockwise (traffic keeping right), further left on one run
    /// clockwise: they are met before it.
    public static func exitsBefore(_ spoke: Spoke, at junction: Junction, clockwise: Bool) -> Int {
        junction.spokes.filter { isRingExit($0) && $0.role == .side && isMet($0, before: spoke, at: junction, clockwise: clockwise) }.count
    }

    /// Whether traffic going round the ring meets `road` before `spoke`, both leaving `junction`:
    /// `road` lies further right, seen from the junction's entry, on a ring run anticlockwise,
    /// further left on one run clockwise (the rule `exitsBefore` counts by).
    public static func isMet(_ road: Spoke, before spoke: Spoke, at junction: Junction, clockwise: Bool) -> Bool {
        guard let entry = junction.entry else { return false }
        let angle = relativeAngle(of: spoke, arrivingAlong: entry), other = relativeAngle(of: road, arrivingAlong: entry)
        return clockwise ? other < angle : other > angle
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

    /// Decides what each `unclassified` single-junction candidate is, and drops those that need no row:
    /// the handlers that read one junction (`JunctionHandler.Rule.junction`) are asked in order, and
    /// the first that can process the junction decides it (`JunctionHandler.standard` has the kinds:
    /// no choice, the obvious road and the roads that could be taken for it, a Y, a slip road, a
    /// crossing, a fork, an end of road, a turn). A junction no handler takes gets no row.
    ///
    /// The choices are the roads the travel mode may leave by that do not go back (less than
    /// `goingBack` off straight); the obvious road (`obviousRoad`) is the one a rider stays on
    /// without being told (`JunctionReading`).
    @Sendable public static func classifyJunctions(_ steps: [Maneuver], _ context: TurnDetector.Context) -> [Maneuver] {
        steps.compactMap { step in
            guard step.kind == .unclassified, step.junctions.count == 1 else { return step }
            let (kept, why, handler) = classify(step, context)
            context.trace?.record(step.junctions, pass: "classify junctions", handler: handler,
                                  kept.map { "\(Instructions.english.text(for: $0)): \(why)" } ?? "no row: \(why)")
            return kept
        }
    }

    /// One junction's verdict: its row (nil for none), the reason, in words for `inspect --explain`,
    /// and the handler that decided (nil where the route starts or ends, or no handler takes it).
    static func classify(_ step: Maneuver, _ context: TurnDetector.Context) -> (Maneuver?, String, String?) {
        guard let reading = JunctionReading(step, configuration: context.configuration) else {
            return (step, "the route starts or ends here", nil)
        }
        for handler in context.handlers {
            guard case .junction(let canProcess, let decide) = handler.rule, canProcess(reading) else { continue }
            let verdict = decide(reading)
            return (verdict.row, verdict.reason, handler.name)
        }
        return (nil, "no handler takes this junction", nil)
    }

    /// Whether the route, on `entry` and `exit`, crosses a main road (tertiary or above) ranked above
    /// both: a road of that rank meets the junction on the left and on the right, `crossroadsSide`
    /// off. The rider stops or gives way there, and must know to go straight over. A minor road
    /// crossing another (residential over unclassified) is a plain crossroads.
    static func crossesMoreImportantRoad(_ junction: Junction, entry: Spoke, exit: Spoke,
                                         configuration c: TurnDetector.Configuration) -> Bool {
        let crossing = junction.spokes.filter { $0.role == .side && isMainRoad($0, above: [entry, exit]) }
            .map { relativeAngle(of: $0, arrivingAlong: entry) }
        return onBothSides(crossing, within: c.crossroadsSide)
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
