import Foundation
import Geo
import Model

/// One instruction found along the route: where the rider must do something, or be told to go on.
///
/// A maneuver is made from one junction, or from several when passes merge them (the nodes of a
/// roundabout's ring, the two halves of a staggered junction).
public struct Maneuver: Sendable, Equatable {
    /// What the rider meets.
    public enum Kind: String, Sendable, CaseIterable {
        /// A junction not looked at yet: every maneuver starts so, and the classifying pass gives it
        /// one of the other kinds (or drops it). None is left once detection has run.
        case unclassified
        /// A turn off the road at a junction with a real choice.
        case turn
        /// Two or more roads of similar direction ahead: keep left or right.
        case fork
        /// The road ahead ends (T junction) and the route turns left or right.
        case endOfRoad
        /// A roundabout, entry to exit, as one maneuver with its exit number.
        case roundabout
        /// The route goes back the way it came.
        case uTurn
        /// Straight through a junction where a side road could be mistaken for the way on.
        case straightOn
        /// A reminder on a long stretch without any other maneuver (off by default).
        case keepStraight
    }

    /// The direction of the turn, from the turn angle (see `TurnDetector.Configuration`).
    public enum Modifier: String, Sendable, CaseIterable {
        case straight, slightLeft, left, sharpLeft, slightRight, right, sharpRight, uTurn

        /// Lower-case words as stored in `GeneratedTurn.modifier` ("slight left").
        public var words: String {
            switch self {
            case .straight: return "straight"
            case .slightLeft: return "slight left"
            case .left: return "left"
            case .sharpLeft: return "sharp left"
            case .slightRight: return "slight right"
            case .right: return "right"
            case .sharpRight: return "sharp right"
            case .uTurn: return "u-turn"
            }
        }

        /// −1 for the left modifiers, +1 for the right ones, 0 for straight and U-turn.
        public var side: Int {
            switch self {
            case .slightLeft, .left, .sharpLeft: return -1
            case .slightRight, .right, .sharpRight: return 1
            case .straight, .uTurn: return 0
            }
        }
    }

    public var kind: Kind
    public var modifier: Modifier
    /// Distance along the route of the (first) junction, in metres.
    public var distanceAlong: Metres
    /// Where the (first) junction is.
    public var coordinate: Coordinate
    /// The turn from arrival to departure in degrees, (−180, 180], + right. For a merged maneuver,
    /// from the first junction's arrival to the last junction's departure.
    public var turnAngle: Degrees
    /// The exit taken at a roundabout, counted from the entry: 1 is the first exit one could take.
    public var exitNumber: Int?
    /// For two junctions merged into one row (a staggered junction, a fork then a turn): the
    /// second's direction ("left *then right*") and kind.
    public var then: Modifier?
    public var thenKind: Kind?
    /// True when the junction is a crossroads: roads leave on both sides, 45–135° off straight.
    public var atCrossroads: Bool
    /// The junctions it was made from, in route order (several for a roundabout or a staggered junction).
    public var junctions: [Junction]
    /// The road taken out of the maneuver: `name=*` and `ref=*` of the exit spoke, when known.
    public var exitName: String?
    public var exitRef: String?
    /// Where the maneuver was read from: a road map's junctions, or the track's own shape
    /// (`TrackTurns`), which sees no road not taken.
    public var source: Source = .map

    /// Where a maneuver was read from.
    public enum Source: String, Sendable, CaseIterable {
        /// The junctions of a road map.
        case map
        /// The change of heading of the track itself, without a map.
        case shape
    }

    public init(kind: Kind, modifier: Modifier, distanceAlong: Metres, coordinate: Coordinate, turnAngle: Degrees,
                exitNumber: Int? = nil, then: Modifier? = nil, atCrossroads: Bool = false, junctions: [Junction],
                exitName: String? = nil, exitRef: String? = nil) {
        self.kind = kind
        self.modifier = modifier
        self.distanceAlong = distanceAlong
        self.coordinate = coordinate
        self.turnAngle = turnAngle
        self.exitNumber = exitNumber
        self.then = then
        self.atCrossroads = atCrossroads
        self.junctions = junctions
        self.exitName = exitName
        self.exitRef = exitRef
    }

    /// The junction as the rider sees it, as one value: for a single junction, that junction; for a
    /// staggered junction, the first junction; for a roundabout whose ring the map shows
    /// (`ringClockwise`), every road meeting the ring (not the ring itself), all at the first node,
    /// in the order traffic meets them going round from the entry (`ringRoads`): `spokes` holds the
    /// entry, the roads met before the exit taken and the exit, `ringArms` (present, perhaps empty)
    /// the roads met after it; as many as a tulip draws (`BookLimits.maximumRoads`, the last met
    /// left out). A roundabout read from the track's shape is its first junction's entry and the exit.
    public var combinedJunction: Junction {
        guard kind == .roundabout, let first = junctions.first else { return junctions.first ?? emptyJunction }
        guard let ring = ringRoads else {
            var spokes: [Spoke] = []
            if let entry = first.entry { spokes.append(entry) }
            for junction in junctions {
                for spoke in junction.spokes where !spoke.isRoundabout && spoke.role != .entry { spokes.append(spoke) }
            }
            return Junction(coordinate: first.coordinate, distanceAlong: first.distanceAlong, spokes: spokes, nodeID: first.nodeID)
        }
        let route = ring.filter { $0.metBeforeExit == nil }.map(\.spoke)   // the entry and the exit
        let before = ring.filter { $0.metBeforeExit == true }.map(\.spoke).prefix(BookLimits.maximumRoads - route.count)
        let after = ring.filter { $0.metBeforeExit == false }.map(\.spoke).prefix(BookLimits.maximumRoads - route.count - before.count)
        return Junction(coordinate: first.coordinate, distanceAlong: first.distanceAlong,
                        spokes: [route[0]] + before + route.dropFirst(), nodeID: first.nodeID, ringArms: Array(after))
    }

    /// Whether traffic goes round this roundabout's ring clockwise, read from the map's one-way ring
    /// where the route reaches it (`TurnPasses.ringRunsClockwise`); nil for a maneuver that is no
    /// roundabout, or whose first junction has no ring road one may follow (read from a track's shape).
    public var ringClockwise: Bool? {
        guard kind == .roundabout, let first = junctions.first else { return nil }
        let ringOut = first.exit.flatMap { $0.isRoundabout ? $0 : nil } ?? first.spokes.first { $0.isRoundabout && $0.canLeave }
        return ringOut.map { TurnPasses.ringRunsClockwise(at: first, leavingBy: $0) }
    }

    /// A roundabout's roads (see `ringClockwise`, nil without it) in the order traffic meets them
    /// going round from the entry, each with whether it is met before the exit taken (nil for the
    /// entry and the exit): the entry; at the entry node, the roads met before the way round the
    /// ring; the roads at every ring node between; at the exit node, those met before the exit;
    /// the exit; those met after it there; the roads at the ring nodes the route does not pass
    /// (`Junction.ringArms`); and last, the entry node's roads behind the way round. The roads met
    /// before the exit are those exit counting counts (`TurnPasses.exitsBefore`), the ones one may
    /// leave by among them.
    public var ringRoads: [(spoke: Spoke, metBeforeExit: Bool?)]? {
        guard let clockwise = ringClockwise, let first = junctions.first, let last = junctions.last,
              let entry = first.entry, let exit = last.exit, let ringOut = first.exit else { return nil }
        var before: [Spoke] = [], after: [Spoke] = [], behindEntry: [Spoke] = []
        for (k, junction) in junctions.enumerated() {
            for spoke in junction.spokes where !spoke.isRoundabout && spoke.role == .side {
                // At the entry node a road is met first or last; at the exit node, before or after the exit.
                if k == 0, !TurnPasses.isMet(spoke, before: ringOut, at: junction, clockwise: clockwise) {
                    behindEntry.append(spoke)
                } else if k == junctions.count - 1, !TurnPasses.isMet(spoke, before: exit, at: junction, clockwise: clockwise) {
                    after.append(spoke)
                } else {
                    before.append(spoke)
                }
            }
        }
        let beyond = junctions.flatMap { $0.ringArms ?? [] }.filter { !$0.isRoundabout }.map { arm -> Spoke in
            var side = arm
            side.role = .side
            return side
        }
        return [(entry, nil)] + before.map { ($0, true) } + [(exit, nil)] + (after + beyond + behindEntry).map { ($0, false) }
    }

    /// Two turns to opposite sides merged into one row: "Left then right".
    public var isStaggered: Bool {
        guard let then, thenKind != .fork, kind == .turn || kind == .endOfRoad else { return false }
        return modifier.side != 0 && then.side == -modifier.side
    }

    private var emptyJunction: Junction { Junction(coordinate: coordinate, distanceAlong: distanceAlong, spokes: []) }
}

/// Finds the maneuvers of a route from the junctions it passes.
///
/// Detection is a list of named passes run in order, each a pure function from maneuvers to
/// maneuvers (after OSRM's `route_api.hpp` post-processing and Valhalla's
/// `ManeuversBuilder::Build()`). **The order matters**: roundabouts are collapsed before classifying,
/// because a single ring node offers no real choice; U-turns are marked before classifying, because a
/// U-turn at a dead end has no choice either but must be kept; staggered junctions are merged before
/// spacing is enforced, so the second half of a stagger becomes words, not a dropped row; close rows
/// are merged before spacing for the same reason.
///
/// What a junction is, and so whether it gets a row and which, is decided by an ordered list of
/// handlers, one per kind of junction (`JunctionHandler`, after the intersection handlers of OSRM's
/// guidance, each with its `canProcess` and its `operator()`): a roundabout, a T, a fork, a slip road,
/// the obvious road going on… The first handler that can process a junction decides it. Both lists
/// are values: a detector runs its own `passes` and asks its own `handlers`, so a test or a caller
/// can switch a pass or a handler off, and `inspect --explain` names the pass and the handler that
/// decided each junction (`TurnTrace`).
public struct TurnDetector: Sendable {
    /// Thresholds of turn detection, each with its reason.
    public struct Configuration: Sendable, Equatable {
        /// Below this many degrees off straight a turn is "straight": lane-level wiggles of a road
        /// through a junction are not turns (OSRM keeps about the same, ±20°).
        public var straightLimit: Degrees = 20
        /// Within this of straight, a route that leaves the road ahead for another goes straight on
        /// ("Straight on", not "bear"), and a road that bends this little needs no word.
        public var straightOnLimit: Degrees = 10
        /// A road the mode may take goes on straighter than the route where it bends at least this
        /// many degrees less: then the row bears off it rather than saying "Straight on" (a primary
        /// road bending 7° left past another going 3° right is "Bear left"). Closer than this the two
        /// are as straight as each other: a road's bearing, fitted over its first 20 m, is good to a
        /// degree or two, and a Y of two roads 14° either side of straight has no straighter branch.
        public var straighterMargin: Degrees = 3
        /// Up to this a turn is "slight" (bear), beyond it a normal turn: the 20–60° band is where a
        /// rider keeps most of the speed.
        public var slightLimit: Degrees = 60
        /// Beyond this a turn is "sharp": the rider turns back on himself (hairpins).
        public var sharpLimit: Degrees = 120
        /// Beyond this the route goes back the way it came: a U-turn.
        public var uTurnLimit: Degrees = 170
        /// A road within this many degrees of straight is "the road ahead": with none, the road ends
        /// (T junction).
        public var aheadCone: Degrees = 40
        /// Two roads both within this many degrees of straight are a fork: the rider sees both ahead.
        public var forkCone: Degrees = 60
        /// Roads this far or more off straight go back the way the rider came: never a choice a rider
        /// weighs at a junction (OSRM's guidance likewise ignores them when it looks for the way on).
        public var goingBack: Degrees = 135
        /// The obvious road (`TurnPasses.obviousRoad`) weighs every other road this many degrees more
        /// than itself; closer together they are equals the rider must choose between, even when
        /// both are nearly straight (a Y junction).
        public var forkSeparation: Degrees = 20
        /// Degrees added to a road's weight for each rank it stands below the road the rider arrives
        /// on (a residential street off a secondary road, a slip road off a trunk road).
        public var rankPenalty: Degrees = 12
        /// Degrees added to a road's weight when the rider arrives on a named road it does not
        /// carry on.
        public var namePenalty: Degrees = 20
        /// Beside a nearly straight road, or one that carries the entry's name on and bends less than
        /// `slightLimit`, a road weighing more than this many times as much (and `distinctMargin`
        /// degrees more) is no rival for the way on, as in OSRM's test of a distinct narrow turn: a
        /// street splitting 6° and 26° off straight, both of its name, goes on along the first; one
        /// bending 49° where the only other road goes back 112° goes on along its bend.
        public var distinctRatio: Double = 2
        /// See `distinctRatio`, in degrees (half OSRM's fuzzy angle difference of 25°).
        public var distinctMargin: Degrees = 12.5
        /// A road bending up to this much may be the obvious one by its name or as the straightest
        /// road; beyond it only a main road past side streets is.
        public var narrowLimit: Degrees = 45
        /// The obvious road bends at most this much: beyond it, taking it is a turn a rider must be told.
        public var obviousLimit: Degrees = 90
        /// A road bending at least this much where a public road leaves on the other side, ahead
        /// (within `forkCone`) or bending within `distinctMargin` as far, and not distinctly further
        /// (`distinctRatio`, `distinctMargin`), gets a row saying which way it goes: a Y whose
        /// branches are both well off straight, or a T whose road goes on round a bend (OSRM's
        /// "continue left/right", or its turn where no road is distinct). A bridge bending 35° left
        /// past an avenue 48° right is such a Y, a hairpin turning 57° right past a street 61° left
        /// such a T; a road bending 20° past a street 45° off the other way is neither. Below 30°
        /// the bend is the road's own line: at 20°, over 60 routes, rows at such Ys on Andorra and
        /// Monaco stood at no OSRM maneuver as often as at one.
        public var bendingRoad: Degrees = 30
        /// Going straight on, a road up to two ranks below within this many degrees of straight (a
        /// residential street off a tertiary road at a shallow angle) earns a "straight on" row.
        public var narrowMistakableCone: Degrees = 30
        /// Going straight on, a side road within this many degrees of straight could be taken for the
        /// way on: it earns a "straight on" row.
        public var mistakableCone: Degrees = 45
        /// A road this far off straight, to the left or to the right, crosses the route: roads on both
        /// sides make a crossroads. Nearer straight a road is a branch ahead; further, it goes back.
        public var crossroadsSide: ClosedRange<Degrees> = 45...135
        /// A slip road splits where a public road leaves it less than this many degrees off straight:
        /// ahead of square, where a rider could go on instead of onto the road the slip road serves.
        public var slipRoadSplit: Degrees = 90
        /// Turns on opposite sides closer than this along the route are one staggered junction, read
        /// as one row "Left then right": a rider sees both at once (30–50 m in rally practice).
        public var staggerDistance: Metres = 40
        /// Rows closer than this are one place to the rider (a fork then the turn, the split of a
        /// roundabout's approach then its ring, the two carriageways of a divided road): one row
        /// says both (`TurnPasses.mergeCloseRows`).
        public var mergeDistance: Metres = 25
        /// Two turns merged into one row that together turn back at least this much are a U-turn.
        public var mergedUTurn: Degrees = 150
        /// Turns to opposite sides closer than this that go straight on overall are one crossroads
        /// whose side roads were mapped a few metres apart.
        public var crossroadsOffset: Metres = 5
        /// Two maneuvers closer than this are one place on the ground (a junction mapped as two nodes,
        /// a dual carriageway): only the stronger is kept.
        public var minimumSpacing: Metres = 15
        /// When set, a `keepStraight` reminder every this many metres on a stretch with no other
        /// maneuver. Off by default: a road book has rows for junctions, and the odometer for the rest.
        public var keepStraightInterval: Metres? = nil
        /// When true, going straight over every crossroads makes a row, even with no road to mistake.
        /// Off by default: plain crossroads are many and need no decision.
        public var straightOnAtEveryCrossroads: Bool = false

        public init() {}
    }

    /// What a pass sees besides the maneuvers.
    public struct Context: Sendable {
        public var configuration: Configuration
        /// The route, for passes that need places between junctions (keep-straight reminders).
        public var line: Polyline?
        /// Where passes record what they decide, when someone asks (`inspect --explain`).
        public var trace: TurnTrace?
        /// The handlers the passes ask, in order, one per kind of junction (`TurnDetector.handlers`).
        public var handlers: [JunctionHandler]

        public init(configuration: Configuration = Configuration(), line: Polyline? = nil, trace: TurnTrace? = nil,
                    handlers: [JunctionHandler] = TurnDetector.handlers) {
            self.configuration = configuration
            self.line = line
            self.trace = trace
            self.handlers = handlers
        }
    }

    /// A named pass: a pure function from maneuvers to maneuvers.
    public struct Pass: Sendable {
        public var name: String
        public var run: @Sendable ([Maneuver], Context) -> [Maneuver]

        public init(name: String, run: @escaping @Sendable ([Maneuver], Context) -> [Maneuver]) {
            self.name = name
            self.run = run
        }
    }

    /// The passes, in the order they run. Order matters (see the type's documentation). A detector
    /// runs its own `passes`, these unless a caller changes them.
    public static let passes: [Pass] = [
        Pass(name: "produce candidates", run: TurnPasses.produceCandidates),
        Pass(name: "collapse roundabouts", run: TurnPasses.collapseRoundabouts),
        Pass(name: "mark U-turns", run: TurnPasses.markUTurns),
        Pass(name: "classify junctions", run: TurnPasses.classifyJunctions),
        Pass(name: "merge staggered junctions", run: TurnPasses.mergeStaggered),
        Pass(name: "merge close rows", run: TurnPasses.mergeCloseRows),
        Pass(name: "enforce minimum spacing", run: TurnPasses.enforceMinimumSpacing),
        Pass(name: "add keep-straight reminders", run: TurnPasses.addKeepStraightReminders),
    ]

    /// The handlers, one per kind of junction, in the order they are asked (`JunctionHandler`): the
    /// roundabout's by "collapse roundabouts", the others by "classify junctions". A detector asks
    /// its own `handlers`, these unless a caller changes them.
    public static let handlers: [JunctionHandler] = JunctionHandler.standard

    public var configuration: Configuration
    /// The passes this detector runs, in order: `TurnDetector.passes` unless changed (a pass left
    /// out is a rule switched off).
    public var passes: [Pass]
    /// The handlers its passes ask, in order: `TurnDetector.handlers` unless changed (a handler left
    /// out leaves its junctions to the handlers after it, as before its rule existed).
    public var handlers: [JunctionHandler]

    public init(configuration: Configuration = Configuration(), passes: [Pass] = TurnDetector.passes,
                handlers: [JunctionHandler] = TurnDetector.handlers) {
        self.configuration = configuration
        self.passes = passes
        self.handlers = handlers
    }

    /// The maneuvers of a route, in route order.
    /// - Parameters:
    ///   - geometry: the line and the junctions it passes (in route order).
    ///   - trace: where each pass records what it decided about each junction, if anyone asks.
    /// - Complexity: O(junctions × spokes).
    public func maneuvers(in geometry: RoadGeometry, trace: TurnTrace? = nil) -> [Maneuver] {
        let context = Context(configuration: configuration,
                              line: geometry.line.count >= 2 ? Polyline(geometry.line) : nil, trace: trace, handlers: handlers)
        let junctions = geometry.junctions.sorted { $0.distanceAlong < $1.distanceAlong }
        // The first pass makes one candidate per junction; it starts from the junctions as
        // `unclassified` maneuvers.
        var steps = junctions.map(TurnPasses.seed)
        for pass in passes { steps = pass.run(steps, context) }
        return steps
    }

    /// The modifier of a turn angle under `configuration`.
    /// - Parameter angle: degrees, (−180, 180], + right.
    public static func modifier(for angle: Degrees, configuration: Configuration = Configuration()) -> Maneuver.Modifier {
        let a = abs(angle)
        if a >= configuration.uTurnLimit { return .uTurn }
        if a < configuration.straightLimit { return .straight }
        let right = angle > 0
        if a < configuration.slightLimit { return right ? .slightRight : .slightLeft }
        if a < configuration.sharpLimit { return right ? .right : .left }
        return right ? .sharpRight : .sharpLeft
    }
}
