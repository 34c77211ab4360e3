import Foundation
import Geo
import Model

/// The kinds of junction `JunctionHandler.standard` tells apart, each with its rule. Within each of
/// the four cases of a junction (`JunctionReading.hasNoChoice`, `staysOnObviousRoad`,
/// `leavesObviousRoad`, `hasNoObviousRoad`) a handler is asked only when those before it declined.
extension JunctionHandler {
    // MARK: - Roundabouts (asked by "collapse roundabouts")

    /// A roundabout: from the node where the route enters the ring to the node where it leaves it, one
    /// row with the exit taken (`TurnPasses.ringRun`, `TurnPasses.roundaboutRow`); or a roundabout
    /// entered and left at one node (`TurnPasses.touchAndGo`). A ring the route does not leave within
    /// the junctions known is left to the other handlers, node by node.
    public static let roundabout = JunctionHandler(name: "roundabout", rule: .run(
        canProcess: { steps, i, context in
            TurnPasses.touchAndGo(steps[i], context) != nil || TurnPasses.ringRun(steps, from: i) != nil
        },
        decide: { steps, i, context in
            if let touch = TurnPasses.touchAndGo(steps[i], context) {
                return .row(touch, "a roundabout entered and left at one node")
            }
            let last = TurnPasses.ringRun(steps, from: i)!
            let row = TurnPasses.roundaboutRow(steps[i...last], context)
            return Verdict(row: row, reason: "one roundabout row, exit \(row.exitNumber!), from the entry to the exit node",
                           covers: last - i + 1)
        }))

    // MARK: - No choice: the mode may take no road but the exit

    /// A side road meeting a more important road that runs both ways: a turn, though the other way
    /// goes back or is closed to the mode (the rider could turn either way).
    public static let joiningMainRoad = JunctionHandler(
        name: "joining a main road", thresholds: ["straightLimit"],
        canProcess: { $0.hasNoChoice && $0.joinsMainRoad },
        decide: { .row(candidate($0, .turn), "joins a more important road that runs both ways") })

    /// No other road, and the route runs on within `aheadCone` of straight: no row.
    public static let onlyWayOn = JunctionHandler(
        name: "only way on", thresholds: ["aheadCone"],
        canProcess: { $0.hasNoChoice && !(abs($0.angle) > $0.configuration.aheadCone) },
        decide: { _ in .noRow("no other road the mode may take, and the route runs on ahead") })

    /// No choice, the route turning off where a road the mode may not take goes on ahead (a rider
    /// could ride into it): a turn.
    public static let closedRoadAhead = JunctionHandler(
        name: "closed road ahead", thresholds: ["aheadCone"],
        canProcess: { $0.hasNoChoice && $0.carriagewayAhead },
        decide: { .row(candidate($0, .turn), "no choice, but a road the mode may not take goes on ahead") })

    /// No choice, the route turning off onto a more important road (a side street joining a main
    /// road one way): a turn.
    public static let turningOntoMainRoad = JunctionHandler(
        name: "turning onto a main road",
        canProcess: { r in
            r.hasNoChoice && !TurnPasses.continues(r.exit, r.entry)
                && TurnPasses.rank(r.exit.highway) < TurnPasses.rank(r.entry.highway)
        },
        decide: { .row(candidate($0, .turn), "turns onto a more important road") })

    /// No choice, and no road to the other side either: the road only bends. No row.
    public static let bend = JunctionHandler(
        name: "bend",
        canProcess: { $0.hasNoChoice },
        decide: { _ in .noRow("no other road the mode may take; the road only bends") })

    // MARK: - Staying on the obvious road

    /// The route stays on the obvious road through a bend, but a public road goes on at least
    /// `forkSeparation` straighter, where a rider would go: a row saying which way the road goes.
    public static let straighterRoad = JunctionHandler(
        name: "straighter road", thresholds: ["forkSeparation"],
        canProcess: { r in
            r.staysOnObviousRoad && r.step.modifier != .straight && r.choicesWithAngles.contains { spoke, angle in
                JunctionReading.isPublic(spoke) && abs(angle) + r.configuration.forkSeparation <= abs(r.angle)
            }
        },
        decide: { r in
            .row(candidate(r, r.endOfRoad ? .endOfRoad : .turn), "stays on the obvious road, but a public road goes on clearly straighter")
        })

    /// A Y, or a T whose road goes on round a bend: the obvious road bends a good deal (`bendingRoad`)
    /// where a public road leaves on the other side ahead (or bending within `distinctMargin` as far),
    /// not distinctly further; or it bends off straight where a public road on the other side bends as
    /// far or at most `distinctMargin` further. The rider must pick a branch: a turn.
    public static let yJunction = JunctionHandler(
        name: "Y junction", thresholds: ["bendingRoad", "forkCone", "distinctMargin", "distinctRatio", "straightLimit"],
        canProcess: { $0.staysOnObviousRoad && bendsPast($0) },
        decide: { .row(branch($0), "the obvious road bends past a public road on the other side") })

    /// The entry's name or `ref` goes on along another road within `forkCone` of straight: a rider
    /// following the signs would go there, so staying on the obvious road is a turn.
    public static let nameGoesOn = JunctionHandler(
        name: "name goes on", thresholds: ["forkCone"],
        canProcess: { $0.staysOnObviousRoad && nameGoesOnAt($0) != nil },
        decide: { .row(branch($0), "the road's name goes on along another road ahead") })

    /// The obvious road bends where a road that could be taken for the way on goes near straight on
    /// (`mistakable`): a turn.
    public static let mistakableBend = JunctionHandler(
        name: "mistakable bend", thresholds: ["mistakableCone", "narrowMistakableCone"],
        canProcess: { $0.staysOnObviousRoad && mistakable($0) && $0.step.modifier != .straight },
        decide: { .row(candidate($0, .turn), "the obvious road bends where a road of its rank goes near straight on") })

    /// Straight over a main road ranked above the route's on both sides (`crossroadsSide`): the rider
    /// stops or gives way there, and must know to go straight over. "Straight on at crossroads" (a
    /// bear where another road goes on straighter, `straightOnOrBear(_:_:_:)`).
    public static let crossingMainRoad = JunctionHandler(
        name: "crossing a main road", thresholds: ["crossroadsSide", "straighterMargin"],
        canProcess: { r in
            r.staysOnObviousRoad && r.step.modifier == .straight
                && TurnPasses.crossesMoreImportantRoad(r.junction, entry: r.entry, exit: r.exit, configuration: r.configuration)
        },
        decide: { r in
            var m = candidate(r, .straightOn)
            m.atCrossroads = true
            return straightOnOrBear(r, m, "goes straight over a more important road")
        })

    /// A slip road splitting: it ends on the more important road it serves where another public road
    /// leaves ahead of square (`slipRoadSplit`). The rider must know to go on onto that road: "Straight
    /// on" (a bear where another road goes on straighter) or the turn.
    public static let slipRoad = JunctionHandler(
        name: "slip road", thresholds: ["slipRoadSplit", "straighterMargin"],
        canProcess: { r in
            let splits = r.choicesWithAngles.contains { JunctionReading.isPublic($0.0) && abs($0.1) < r.configuration.slipRoadSplit }
            return r.staysOnObviousRoad && TurnPasses.isSlipRoad(r.entry) && !TurnPasses.isSlipRoad(r.exit)
                && TurnPasses.rank(r.exit.highway) < TurnPasses.rank(r.entry.highway) && splits
        },
        decide: { r in
            let why = "a slip road splits: it ends on its road where another public road leaves ahead"
            return r.step.modifier == .straight ? straightOnOrBear(r, candidate(r, .straightOn), why) : .row(candidate(r, .turn), why)
        })

    /// Staying on the obvious road where another road near straight on could be taken for it
    /// (`mistakable`), or over any crossroads with `straightOnAtEveryCrossroads`: "Straight on", or a
    /// bear where that road goes on straighter than the route (`straightOnOrBear(_:_:_:)`).
    public static let straightOnPastRoad = JunctionHandler(
        name: "straight on past a road", thresholds: ["mistakableCone", "narrowMistakableCone", "straightOnAtEveryCrossroads", "straighterMargin"],
        canProcess: { r in
            r.staysOnObviousRoad && (mistakable(r) || (r.configuration.straightOnAtEveryCrossroads && r.step.atCrossroads))
        },
        decide: { r in
            var m = candidate(r, .straightOn)
            m.modifier = .straight
            return straightOnOrBear(r, m, "stays on the obvious road; another road near straight on could be taken for it")
        })

    /// The obvious continuation: the road the rider stays on without being told (by class, name and
    /// `ref`, then angle; `TurnPasses.obviousRoad`), with no road to take for it. No row.
    public static let obviousRoad = JunctionHandler(
        name: "obvious road",
        thresholds: ["forkSeparation", "rankPenalty", "namePenalty", "distinctRatio", "distinctMargin", "narrowLimit", "obviousLimit"],
        canProcess: { $0.staysOnObviousRoad },
        decide: { .noRow("stays on the obvious road (\($0.exit.highway ?? "road")); no road to take for it") })

    // MARK: - Leaving the obvious road, or no obvious road

    /// A fork: no obvious road, and the exit and another choice of comparable rank
    /// (`TurnPasses.comparable`) both within `forkCone` of straight. Keep left, right or in the middle.
    public static let fork = JunctionHandler(
        name: "fork", thresholds: ["forkCone"],
        canProcess: { r in r.hasNoObviousRoad && abs(r.angle) <= r.configuration.forkCone && !branches(r).isEmpty },
        decide: { r in
            var m = candidate(r, .fork)
            let all = branches(r) + [r.angle]
            // Keep left: the leftmost branch; keep right: the rightmost; else the middle one.
            if r.angle <= all.min()! { m.modifier = .slightLeft }
            else if r.angle >= all.max()! { m.modifier = .slightRight }
            else { m.modifier = .straight }
            return .row(m, "no obvious road; roads of comparable rank ahead")
        })

    /// A turn off the road ahead: off the obvious road, or, with none, off the road of another rank
    /// nearest the route within `forkCone` of straight (a slip road 10° off a trunk road is left to
    /// its side). "Straight on" where the route goes straight and that road bends away
    /// (`TurnPasses.leaving`), else a turn (or end of road), at least a slight one. Not "Straight on"
    /// where another road goes on straighter than the route (`straightOnOrBear(_:_:_:)`).
    public static let leavingRoadAhead = JunctionHandler(
        name: "leaving the road ahead", thresholds: ["forkCone", "straightOnLimit", "straightLimit", "straighterMargin"],
        canProcess: { r in
            r.leavesObviousRoad || (r.hasNoObviousRoad && abs(r.angle) <= r.configuration.forkCone && nearestAhead(r) != nil)
        },
        decide: { r in
            let c = r.configuration
            guard let obvious = r.obvious else {
                return straightOnOrBear(r, TurnPasses.leaving(r.step, obviousAngle: nearestAhead(r)!, endOfRoad: r.endOfRoad, configuration: c),
                                  "no obvious road; leaves a road of another rank ahead")
            }
            let road = r.roads[obvious]
            let angle = TurnPasses.relativeAngle(of: road, arrivingAlong: r.entry)
            return straightOnOrBear(r, TurnPasses.leaving(r.step, obviousAngle: angle, endOfRoad: r.endOfRoad, configuration: c),
                              "leaves the obvious road (\(road.highway ?? "road") \(road.ref ?? road.name ?? ""))")
        })

    /// End of road, a T: no road at all within `aheadCone` of straight and the route turns. With no
    /// choice, where roads leave on the other side (else the road only bends, `bend`); with choices and
    /// no obvious road among them, where the route turns at least `slightLimit`.
    public static let endOfRoad = JunctionHandler(
        name: "end of road", thresholds: ["aheadCone", "slightLimit", "goingBack"],
        canProcess: { r in (r.hasNoChoice && roadsOnOtherSide(r)) || (r.hasNoObviousRoad && r.endOfRoad) },
        decide: { r in
            .row(candidate(r, .endOfRoad), r.hasNoChoice ? "the road ends at a T (roads leave on the other side), no choice"
                                                         : "no obvious road and no road ahead")
        })

    /// No obvious road, and the route goes straight (within `straightLimit`): "Straight on" (a bear
    /// where another road goes on straighter, `straightOnOrBear(_:_:_:)`).
    public static let straightOn = JunctionHandler(
        name: "straight on", thresholds: ["straightLimit", "straighterMargin"],
        canProcess: { $0.hasNoObviousRoad && $0.step.modifier == .straight },
        decide: { straightOnOrBear($0, candidate($0, .straightOn), "no obvious road; goes straight on") })

    /// No obvious road, and the route turns off: a turn with its modifier.
    public static let turn = JunctionHandler(
        name: "turn",
        canProcess: { $0.hasNoObviousRoad },
        decide: { .row(candidate($0, .turn), "no obvious road; turns off") })

    // MARK: - What the rules share

    /// The candidate as a row of `kind`.
    static func candidate(_ r: JunctionReading, _ kind: Maneuver.Kind) -> Maneuver {
        var m = r.step
        m.kind = kind
        return m
    }

    /// The verdict on a row `m` a handler reads as "Straight on" (any other row is left as it is),
    /// unless a road the mode may take goes on clearly nearer straight than the exit
    /// (`straighterChoice`): a rider told "Straight on" would take that road. Then the row is a slight
    /// turn to the side the exit lies off it, however little the route turns ("Bear right" where the
    /// route bears 10° right past a road going straight on, "Bear left" where it bears 7° left past
    /// one 3° right).
    static func straightOnOrBear(_ r: JunctionReading, _ m: Maneuver, _ reason: String) -> JunctionHandler.Verdict {
        guard m.kind == .straightOn, let straighter = straighterChoice(r) else { return .row(m, reason) }
        var bear = m
        bear.kind = .turn
        bear.modifier = r.angle < straighter ? .slightLeft : .slightRight
        let side = bear.modifier == .slightLeft ? "left" : "right"
        return .row(bear, reason + "; but another road goes on straighter (\(Int(straighter.rounded()))°, the route "
                    + "\(Int(r.angle.rounded()))°), so the route bears \(side) of it")
    }

    /// The angle of the choice nearest straight on, where it bends at least `straighterMargin` less than
    /// the exit: the road a rider told "Straight on" would take. Nil where the exit is the straightest
    /// road the mode may take, or about as straight as the straightest.
    static func straighterChoice(_ r: JunctionReading) -> Degrees? {
        guard let nearest = r.choiceAngles.min(by: { abs($0) < abs($1) }),
              abs(nearest) + r.configuration.straighterMargin <= abs(r.angle) else { return nil }
        return nearest
    }

    /// The row where the route must pick a branch (`yJunction`, `nameGoesOn`): a turn, at least a
    /// slight one, to the side away from where the entry's name goes on (or of its own angle).
    static func branch(_ r: JunctionReading) -> Maneuver {
        var m = candidate(r, .turn)
        if m.modifier == .straight { m.modifier = r.angle - (nameGoesOnAt(r) ?? 0) < 0 ? .slightLeft : .slightRight }
        return m
    }

    /// Whether the obvious road bends past a public road on the other side (see `yJunction`).
    static func bendsPast(_ r: JunctionReading) -> Bool {
        let c = r.configuration, a = r.angle
        return r.choicesWithAngles.contains { spoke, angle in
            guard JunctionReading.isPublic(spoke) && angle * a < 0 else { return false }
            let y = abs(a) >= c.bendingRoad && abs(angle) <= max(c.forkCone, abs(a) + c.distinctMargin)
                && !TurnPasses.distinctTurn(abs(angle), from: abs(a), configuration: c)
            let bothBend = abs(a) >= c.straightLimit && (abs(a) ... abs(a) + c.distinctMargin).contains(abs(angle))
            return y || bothBend
        }
    }

    /// The angle of a road within `forkCone` of straight that carries on the entry's name or `ref`,
    /// where the exit does not.
    static func nameGoesOnAt(_ r: JunctionReading) -> Degrees? {
        TurnPasses.continues(r.exit, r.entry) ? nil : r.choicesWithAngles.first {
            TurnPasses.continues($0.0, r.entry) && abs($0.1) <= r.configuration.forkCone
        }.map(\.1)
    }

    /// Whether a choice could be taken for the way on: a road of about the exit's rank within
    /// `mistakableCone` of straight, one up to two ranks below within `narrowMistakableCone`, or a
    /// public road carrying the entry's name or `ref` within `narrowMistakableCone` (a rider following
    /// the name sees it on both branches).
    static func mistakable(_ r: JunctionReading) -> Bool {
        let c = r.configuration, exitRank = TurnPasses.rank(r.exit.highway)
        return r.choicesWithAngles.contains { spoke, angle in
            (abs(angle) <= c.mistakableCone && TurnPasses.rank(spoke.highway) <= exitRank + 1)
                || (abs(angle) <= c.narrowMistakableCone && TurnPasses.rank(spoke.highway) <= exitRank + 2)
                || (abs(angle) <= c.narrowMistakableCone && JunctionReading.isPublic(spoke) && TurnPasses.continues(spoke, r.entry))
        }
    }

    /// The angles of the choices within `forkCone` of straight of a rank comparable to the exit's.
    static func branches(_ r: JunctionReading) -> [Degrees] {
        r.choicesWithAngles.filter { abs($0.1) <= r.configuration.forkCone && TurnPasses.comparable($0.0, r.exit) }.map(\.1)
    }

    /// The angle of the choice within `forkCone` of straight nearest the route's.
    static func nearestAhead(_ r: JunctionReading) -> Degrees? {
        r.choiceAngles.filter { abs($0) <= r.configuration.forkCone }.min { abs($0 - r.angle) < abs($1 - r.angle) }
    }

    /// Whether a carriageway leaves on the other side of the turn, short of going back: with no
    /// choice, the road ends at a T.
    static func roadsOnOtherSide(_ r: JunctionReading) -> Bool {
        r.carriageways.contains {
            let angle = TurnPasses.relativeAngle(of: $0, arrivingAlong: r.entry)
            return abs(angle) < r.configuration.goingBack && angle * r.angle < 0
        }
    }
}
