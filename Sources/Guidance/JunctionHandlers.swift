import Foundation
import Geo
import Model

/// One kind of junction, and the row a junction of that kind gets (or none), after the intersection
/// handlers of OSRM's guidance (`guidance/*_handler.hpp`: each says whether it `canProcess` an
/// intersection, and its `operator()` decides it).
///
/// The handlers form an ordered list (`TurnDetector.handlers`, `standard`): a pass asks them in
/// order and the first that can process a junction decides it. A handler is asked only about the
/// junctions every handler before it declined, so its test need not repeat theirs: switched off (left
/// out of the list), a handler leaves its junctions to the handlers after it, as they were decided
/// before its rule existed. Each handler names the thresholds of `TurnDetector.Configuration` its
/// rule reads, and says why it decided in the words `inspect --explain` prints (`TurnTrace`).
public struct JunctionHandler: Sendable {
    /// What a handler decided: the row (nil for none) and why, in words.
    public struct Verdict: Sendable {
        /// The row, or nil when the junction needs none.
        public var row: Maneuver?
        /// Why, for `inspect --explain`.
        public var reason: String
        /// How many candidates, from the one asked about, the verdict stands for: 1 for one junction,
        /// more for a roundabout's ring from the node where the route enters it to the one it leaves by.
        public var covers: Int

        public init(row: Maneuver?, reason: String, covers: Int = 1) {
            self.row = row
            self.reason = reason
            self.covers = covers
        }

        /// A row, and why.
        public static func row(_ row: Maneuver, _ reason: String) -> Verdict { Verdict(row: row, reason: reason) }
        /// No row, and why.
        public static func noRow(_ reason: String) -> Verdict { Verdict(row: nil, reason: reason) }
    }

    /// What a handler reads, and so which pass asks it.
    public enum Rule: Sendable {
        /// One junction, read as `JunctionReading`: asked by the pass "classify junctions".
        case junction(canProcess: @Sendable (JunctionReading) -> Bool, decide: @Sendable (JunctionReading) -> Verdict)
        /// The candidates from one on (`candidates[index]` and those after it), in the context of the
        /// passes: asked by the pass "collapse roundabouts", which reads a ring's nodes together before
        /// U-turns are marked.
        case run(canProcess: @Sendable (_ candidates: [Maneuver], _ index: Int, TurnDetector.Context) -> Bool,
                 decide: @Sendable (_ candidates: [Maneuver], _ index: Int, TurnDetector.Context) -> Verdict)
    }

    /// The kind of junction, as `inspect --explain` names it.
    public var name: String
    /// The fields of `TurnDetector.Configuration` its rule reads (besides those of `JunctionReading`:
    /// `goingBack`, `aheadCone`, `slightLimit`, `straightLimit`, and `TurnPasses.obviousRoad`'s).
    public var thresholds: [String]
    public var rule: Rule

    public init(name: String, thresholds: [String] = [], rule: Rule) {
        self.name = name
        self.thresholds = thresholds
        self.rule = rule
    }

    /// A handler of one junction.
    public init(name: String, thresholds: [String] = [], canProcess: @escaping @Sendable (JunctionReading) -> Bool,
                decide: @escaping @Sendable (JunctionReading) -> Verdict) {
        self.init(name: name, thresholds: thresholds, rule: .junction(canProcess: canProcess, decide: decide))
    }

    /// The handlers in the order they are asked. Within each of the four cases of a junction (no
    /// choice; staying on the obvious road; leaving it; no obvious road) they keep the order in which
    /// its rules were written; the cases exclude each other, so a handler of two cases ("leaving the
    /// road ahead", "end of road") stands after the handlers of both that come before it.
    public static let standard: [JunctionHandler] = [
        roundabout,
        joiningMainRoad, onlyWayOn, closedRoadAhead, turningOntoMainRoad,
        straighterRoad, yJunction, nameGoesOn, mistakableBend, crossingMainRoad, slipRoad, straightOnPastRoad, obviousRoad,
        fork, leavingRoadAhead, endOfRoad, bend, straightOn, turn,
    ]
}

/// One junction as the handlers of "classify junctions" read it: the route's entry and exit, the
/// roads it could take instead, and what the detector's rules make of them.
public struct JunctionReading: Sendable {
    /// The candidate (`unclassified`) made from the junction, with its turn angle and modifier.
    public var step: Maneuver
    public var junction: Junction
    public var entry: Spoke, exit: Spoke
    public var configuration: TurnDetector.Configuration
    /// The roads neither arrived nor left by.
    public var sides: [Spoke]
    /// The roads the travel mode may leave by that do not go back (less than `goingBack` off
    /// straight), and each one's angle: the choices a rider weighs.
    public var choices: [Spoke], choiceAngles: [Degrees]
    /// A road of any kind within `aheadCone` of straight.
    public var roadAhead: Bool
    /// The roads someone drives (above a track): a path ahead or across is no place to go wrong when
    /// it is no choice anyway.
    public var carriageways: [Spoke]
    /// A carriageway within `aheadCone` of straight.
    public var carriagewayAhead: Bool
    /// No road at all within `aheadCone` of straight, and the route turns at least `slightLimit`.
    public var endOfRoad: Bool
    /// The route joins a more important road where it runs both ways (a side street meeting a main
    /// road), turning at least `straightLimit`: the rider could turn either way, even where the other
    /// way goes back.
    public var joinsMainRoad: Bool
    /// The exit, then the choices.
    public var roads: [Spoke]
    /// The road the rider stays on without being told, as an index into `roads` (0: the exit):
    /// nil with no choice, where the route joins a main road, or where none stands out
    /// (`TurnPasses.obviousRoad`).
    public var obvious: Int?

    /// The junction of `step` read under `configuration`; nil where the route starts or ends (no entry
    /// or no exit).
    public init?(_ step: Maneuver, configuration c: TurnDetector.Configuration) {
        guard let junction = step.junctions.first, let entry = junction.entry, let exit = junction.exit else { return nil }
        (self.step, self.junction, self.entry, self.exit, configuration) = (step, junction, entry, exit, c)
        let a = step.turnAngle
        let angle = { (spoke: Spoke) in TurnPasses.relativeAngle(of: spoke, arrivingAlong: entry) }
        sides = junction.spokes.filter { $0.role == .side }
        choices = sides.filter { $0.canLeave && abs(angle($0)) < c.goingBack }
        choiceAngles = choices.map(angle)
        roadAhead = sides.contains { abs(angle($0)) <= c.aheadCone }
        carriageways = sides.filter { TurnPasses.rank($0.highway) < TurnPasses.rank("track") }
        carriagewayAhead = carriageways.contains { abs(angle($0)) <= c.aheadCone }
        endOfRoad = !roadAhead && abs(a) >= c.slightLimit
        joinsMainRoad = !TurnPasses.continues(exit, entry) && TurnPasses.rank(exit.highway) < TurnPasses.rank(entry.highway)
            && sides.contains { $0.canLeave && TurnPasses.sameRoad($0, exit) } && abs(a) >= c.straightLimit
        roads = [exit] + choices
        obvious = choices.isEmpty || joinsMainRoad ? nil : TurnPasses.obviousRoad(among: roads, arrivingAlong: entry, configuration: c)
    }

    /// The route's turn angle, degrees, + right.
    public var angle: Degrees { step.turnAngle }

    /// Whether `spoke` is a public road (above a service road).
    public static func isPublic(_ spoke: Spoke) -> Bool { TurnPasses.rank(spoke.highway) < TurnPasses.rank("service") }

    /// The choices with their angles.
    var choicesWithAngles: Zip2Sequence<[Spoke], [Degrees]> { zip(choices, choiceAngles) }

    /// No road the mode may take but the exit.
    public var hasNoChoice: Bool { choices.isEmpty }
    /// The route stays on the obvious road.
    public var staysOnObviousRoad: Bool { obvious == 0 }
    /// The route leaves the obvious road, another of its choices.
    public var leavesObviousRoad: Bool { obvious.map { $0 != 0 } ?? false }
    /// Choices, and none of them the obvious road (or the route joins a main road).
    public var hasNoObviousRoad: Bool { !choices.isEmpty && obvious == nil }
}
