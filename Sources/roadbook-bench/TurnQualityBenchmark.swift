import Foundation
import Geo
import Guidance
import HTTP
import Model
import OSM
import Routing
import Workflows

/// Routes in the turn-quality benchmark (at least 50, as docs/turn-quality.md says), or `ROADBOOK_TURNS_ROUTES`
/// when set: 60 routes pass the same busy roundabouts again and again, so one seed's shape figures
/// move by two or three points from another's; hundreds of routes measure them more closely.
private var turnQualityRouteCount: Int {
    ProcessInfo.processInfo.environment["ROADBOOK_TURNS_ROUTES"].flatMap { Int($0) }.map { max(1, $0) } ?? 60
}
/// Route ends at least this far apart in a straight line, and at most this far.
private let turnQualityMinimumSpan: Metres = 1_000
private let turnQualityMaximumSpan: Metres = 8_000
/// A row of ours within this distance of an OSRM maneuver is at the same place.
private let turnQualitySamePlace: Metres = 30
/// The recorded-style track: one fix every 10 m along the clean line, each moved by Gaussian noise
/// of this standard deviation east and north.
private let turnQualityFixSpacing: Metres = 10
private let turnQualityNoise: Metres = 3
/// The "recorded" tracks: of the 3 m, this much is jitter from fix to fix and the rest drifts (see
/// `recordedTrack`). A receiver's position error comes mostly from causes that change slowly (the
/// satellites' geometry, the atmosphere, reflections) and its own filter smooths its fixes, so
/// consecutive fixes err nearly alike; 1 m is a plain receiver's jitter. `ROADBOOK_TURNS_JITTER`
/// reads them with another (its rows then show in the recorded track dump).
private let turnQualityJitter: Metres = ProcessInfo.processInfo.environment["ROADBOOK_TURNS_JITTER"].flatMap(Double.init) ?? 1
/// The drift's correlation distance: 300 m, about 30 s at 36 km/h.
private let turnQualityDriftDistance: Metres = 300
/// The jitters of the shape sweep (3 m in all, the rest drifting): how shape mode's goal figures
/// change as the jitter grows, up to independent scatter at every fix (3 m, the "noisy" tracks).
private let turnQualitySweepJitters: [Metres] = [0.5, 1, 1.5, 2, 2.5, 3]
/// The fix spacings of the second shape sweep, each with the recorded tracks' error (3 m in all, 1 m
/// of it jitter): a receiver logging every second at 4 to 72 km/h, or five times a second.
private let turnQualitySweepSpacings: [Metres] = [1, 2, 5, 10, 20]
private let turnQualitySeed: UInt64 = 20_261_111
/// The seed of the routes and noise, or `ROADBOOK_TURNS_SEED` when set: tune on another seed, report
/// on the default one.
private var turnQualityRouteSeed: UInt64 {
    ProcessInfo.processInfo.environment["ROADBOOK_TURNS_SEED"].flatMap { UInt64($0) } ?? turnQualitySeed
}
/// Shape mode's goal counts references that turn at least this much (OSRM's bearing before to bearing
/// after), and roundabouts whatever their angle.
private let shapeGoalTurn: Degrees = 45
/// OSRM's line "bends" where its heading between the `shapeBendChord` metres before a point and the
/// `shapeBendChord` metres after turns by at least `shapeGoalTurn`: a row from the shape there stands
/// for a real turn of the road (a hairpin), not an artefact, even with no junction.
private let shapeBendChord: Metres = 30

/// The kind of place where a car has another road to take, from OSRM's step type.
private enum PlaceKind: String, CaseIterable {
    case turn, fork, endOfRoad = "end of road", roundabout, `continue` = "continue (bending road)", uTurn = "u-turn"
    /// OSRM's "on ramp" (onto a slip road towards a motorway or trunk road) and "off ramp" (off one).
    case ramp = "ramp (on or off)"
}

/// One of OSRM's maneuvers kept as a reference.
private struct ReferenceManeuver {
    var kind: PlaceKind
    var location: Coordinate
    /// −1 left, +1 right (0 for roundabouts and U-turns, whose side is not compared).
    var side: Int
    var exit: Int?
    /// OSRM's turn from `bearing_before` to `bearing_after`, (−180, 180], + right; nil when not given.
    var angle: Degrees? = nil
    /// One of two turns to opposite sides a few metres apart that go straight on together: a
    /// crossroads mapped as two nodes, gone straight over (`markCrossroadsInTwoNodes`).
    var crossroadsInTwoNodes = false
    /// A step where, by OSRM's own intersection, the car has no other road to take and the route
    /// only bends (`OSRMIntersection.noChoice(turnsFully:)`): not a place of choice. Recall leaves
    /// it out (counted apart); a row of ours there is not far, OSRM announcing a maneuver there; shape
    /// mode's goal, about the road's turns, keeps it.
    var noChoice = false
    /// Whether shape mode's goal asks for it: a roundabout, or a turn of `shapeGoalTurn` or more.
    var inShapeGoal: Bool { kind == .roundabout || abs(angle ?? 0) >= shapeGoalTurn }
}

/// Marks OSRM's left-then-right (or right-then-left) turns closer than the generator's
/// `crossroadsOffset` that together turn less than its `straightLimit`: a crossroads whose side
/// roads were mapped a few metres apart, gone straight over. Either may be an end of road (the first
/// node a T, as the generator's `mergeStaggered` reads it too). The generator gives such a crossroads
/// no row, as OSRM gives none to one mapped as one node (OSRM itself drops such a zig-zag only
/// under 3 m). They stay references; the benchmark counts the misses among them apart.
private func markCrossroadsInTwoNodes(_ references: inout [ReferenceManeuver]) {
    let c = TurnDetector.Configuration()
    let turns: Set<PlaceKind> = [.turn, .endOfRoad]
    for i in references.indices.dropLast() {
        let (a, b) = (references[i], references[i + 1])
        guard turns.contains(a.kind), turns.contains(b.kind), a.side == -b.side, let x = a.angle, let y = b.angle,
              a.location.distance(to: b.location) < c.crossroadsOffset, abs(x + y) < c.straightLimit else { continue }
        references[i].crossroadsInTwoNodes = true
        references[i + 1].crossroadsInTwoNodes = true
    }
}

/// -1 for OSRM's left modifiers, +1 for the right ones, 0 otherwise.
private func osrmSide(_ modifier: String?) -> Int {
    guard let m = modifier else { return 0 }
    if m.contains("left") { return -1 }
    if m.contains("right") { return 1 }
    return 0
}

/// OSRM's steps where a car has another road to take: turns, forks, ends of road and `continue`
/// with a left or right modifier (the road bends at a junction), and roundabouts, rotaries and
/// small roundabouts OSRM calls "roundabout turn"; ramps, where the route takes a slip road onto or
/// off a motorway or trunk road (the car could stay on its road); and U-turns, where the route turns
/// round. Depart, arrive, merges, name changes and straight steps are not references.
/// Nor is a turn, fork, end of road or bend where no third road meets OSRM's own intersection:
/// OSRM says "turn" where a road changes its name on a bend, and a rider has nothing to choose
/// there. A third road closed to the car (a one-way street's other direction at a T) still counts:
/// the rider sees the junction and must be told which way. Where the third roads are only roads
/// the car may not enter or roads going back, the step is kept but marked `noChoice` (see
/// `OSRMIntersection.noChoice(turnsFully:)`).
/// - Parameter intersection: OSRM's first intersection of the step; nil when the step has none.
private func referenceManeuver(type: String, modifier: String?, exit: Int?, location: Coordinate,
                               intersection: OSRMIntersection?) -> ReferenceManeuver? {
    let side = osrmSide(modifier)
    // Where the route turns round (at a dead end or a spur, or where a turn is forbidden).
    if modifier == "uturn", ["turn", "continue", "end of road"].contains(type) {
        return ReferenceManeuver(kind: .uTurn, location: location, side: 0)
    }
    if let intersection, ["turn", "fork", "continue", "end of road", "on ramp", "off ramp"].contains(type), intersection.roads < 3 { return nil }
    let full = ["left", "right", "sharp left", "sharp right"].contains(modifier ?? "")
    let noChoice = intersection?.noChoice(turnsFully: full) ?? false
    switch type {
    case "turn": return side != 0 ? ReferenceManeuver(kind: .turn, location: location, side: side, noChoice: noChoice) : nil
    case "fork": return side != 0 ? ReferenceManeuver(kind: .fork, location: location, side: side, noChoice: noChoice) : nil
    case "end of road": return side != 0 ? ReferenceManeuver(kind: .endOfRoad, location: location, side: side, noChoice: noChoice) : nil
    case "continue": return side != 0 ? ReferenceManeuver(kind: .continue, location: location, side: side, noChoice: noChoice) : nil
    // A ramp straight ahead is a place of choice too (the road it leaves bends away): no side to compare.
    case "on ramp", "off ramp": return ReferenceManeuver(kind: .ramp, location: location, side: side, noChoice: noChoice)
    case "roundabout", "rotary", "roundabout turn":
        return ReferenceManeuver(kind: .roundabout, location: location, side: 0, exit: exit)
    default: return nil
    }
}

/// The roads at one of OSRM's intersections.
private struct OSRMIntersection {
    /// Roads meeting there, the one the route arrives by included.
    var roads: Int
    /// Whether a road other than the two the route takes may be entered by the car (OSRM's `entry`)
    /// within `goingBack` of straight on.
    var roadToTake: Bool
    /// Whether a road other than the two the route takes stands within `goingBack` of straight on,
    /// open to the car or not.
    var roadAhead: Bool

    /// Nil when the intersection has no `bearings` array.
    init?(_ json: [String: Any]) {
        guard let bearings = (json["bearings"] as? [NSNumber])?.map(\.doubleValue) else { return nil }
        roads = bearings.count
        let entry = json["entry"] as? [Bool] ?? []
        guard let arrivedBy = json["in"] as? Int, let leftBy = json["out"] as? Int, bearings.indices.contains(arrivedBy),
              entry.count == bearings.count else {
            // Without OSRM's `in`, `out` and `entry`, every third road counts as one to take.
            (roadToTake, roadAhead) = (roads >= 3, roads >= 3)
            return
        }
        let goingBack = TurnDetector.Configuration().goingBack
        let others = bearings.indices.filter { $0 != arrivedBy && $0 != leftBy }
            .filter { abs(normalizedTurn(bearings[$0] - (bearings[arrivedBy] + 180))) < goingBack }
        roadToTake = others.contains { entry[$0] }
        roadAhead = !others.isEmpty
    }

    /// Whether the step is no place of choice, as the issue rules: the only other roads are one-way
    /// roads arriving (a slip road merging, the other carriageway where a road splits in two) or
    /// roads going back. A real T stays a place of choice: the route turns fully (OSRM's modifier
    /// left, right or sharp, 40° or more) where a road it may not take stands on ahead or across.
    func noChoice(turnsFully: Bool) -> Bool {
        !roadToTake && !(turnsFully && roadAhead)
    }
}

/// One route of the benchmark: OSRM's line and its reference maneuvers.
private struct QualityRoute {
    var line: [Coordinate]
    /// `line` as a polyline, built once: every column and sweep of the route measures along it.
    var polyline: Polyline
    var references: [ReferenceManeuver]
    /// Where every OSRM step is (depart, arrive, new name, merge … as well as the references).
    var steps: [Coordinate] = []
    /// Points every 5 m along OSRM's line where it bends by `shapeGoalTurn` or more (see `shapeBendChord`).
    var bends: [Coordinate] = []
}

/// Shape mode's goal (docs/turn-quality.md), per mode × input.
///
/// - Goal references: OSRM's references turning at least `shapeGoalTurn` (|bearing_after −
///   bearing_before|), and every roundabout. Found: a row of ours within 30 m. Left out: OSRM's
///   two turns at a crossroads mapped as two nodes (`markCrossroadsInTwoNodes`), each of 45° or
///   more where the route goes straight over: the route does not turn there.
/// - Extra rows: rows of ours with no OSRM step of any kind within 30 m and no bend of OSRM's own
///   line of `shapeGoalTurn` or more within 30 m, as a share of all our rows; "Straight on" rows
///   too (also counted apart): from the shape alone, such a row says there is a junction. A
///   row at a bend stands for a real turn of the road (a hairpin): a track without a map cannot
///   tell it from a junction and should print it (as a sharp turn); the rows counted extra are at
///   no step and no bend: on gentle curves, or misplaced.
private struct ShapeGoalCounts {
    var goalReferences = 0, goalFound = 0
    /// References left out: the turns of a crossroads in two nodes, gone straight over.
    var crossroadsLeftOut = 0
    /// Of them, the roundabouts.
    var goalRoundabouts = 0, goalRoundaboutsFound = 0
    /// Rows not "Straight on" at a step, and at a bend only; extra rows (see above), and of them
    /// the "Straight on" ones.
    var rows = 0, atStep = 0, atBendOnly = 0, extra = 0, extraStraightOn = 0
    /// Rows that say "Roundabout", and of them those with no OSRM roundabout within 30 m: a rider
    /// told of a roundabout at a hairpin or a jog of the road.
    var roundaboutRows = 0, roundaboutRowsAtNone = 0
    /// OSRM's roundabouts with a row there that says "Roundabout".
    var goalRoundaboutsNamed = 0
    /// Rows of two turns ("left then right"), and of them those whose second turn OSRM's line makes:
    /// it turns 15° or more that way from the second turn's place to 22 m past it.
    var staggered = 0, staggeredSecondMade = 0
}

/// Points every 5 m along `line` where its heading over the `shapeBendChord` metres before and
/// after turns by `shapeGoalTurn` or more.
private func bends(of line: [Coordinate]) -> [Coordinate] {
    let polyline = Polyline(line)
    let step: Metres = 5
    let count = Int(polyline.length / step) + 1
    guard count > 1 else { return [] }
    let points = (0..<count).map { polyline.coordinate(atDistance: Double($0) * step) }
    let k = Int(shapeBendChord / step)
    var result: [Coordinate] = []
    for i in k..<max(k, count - k) {
        let frame = LocalFrame(origin: points[i])
        let a = frame.project(points[i - k]), b = frame.project(points[i + k])
        let before = atan2(-a.x, -a.y) * 180 / .pi, after = atan2(b.x, b.y) * 180 / .pi
        if abs(normalizedTurn(after - before)) >= shapeGoalTurn { result.append(points[i]) }
    }
    return result
}

/// Whether any of `points` lies within `radius` metres of `c` (flat approximation, fine at 30 m).
private func anyWithin(_ radius: Metres, of c: Coordinate, in points: [Coordinate]) -> Bool {
    let frame = LocalFrame(origin: c)
    return points.contains { let p = frame.project($0); return p.x * p.x + p.y * p.y <= radius * radius }
}

/// With `ROADBOOK_TURNS_SHAPE_DUMP=FILE`, the "shape, noisy" column's goal references with no row
/// (MISS) and its extra rows (EXTRA) are written to FILE, one line each, with what tells them apart:
/// the reference's kind, angle and exit, its distance along OSRM's line and from the line's ends, the
/// distance to the nearest other reference, to the nearest row of ours, and the heading of OSRM's
/// line within 40 m either side (net change and the sum of its absolute changes: a roundabout passed
/// straight turns little net but much in all). Only a diagnosis: it does not change the figures.
nonisolated(unsafe) private var shapeDumpLines: [String] = []

/// Net and absolute heading change of `line` within `reach` metres either side of the point
/// `along` metres along it, sampled every 2 m.
private func headingChange(of line: Polyline, around along: Metres, reach: Metres) -> (net: Degrees, total: Degrees) {
    let from = max(0, along - reach), to = min(line.length, along + reach)
    let step: Metres = 2
    let n = Int((to - from) / step)
    guard n >= 2 else { return (0, 0) }
    let pts = (0...n).map { line.coordinate(atDistance: from + Double($0) * step) }
    var net: Degrees = 0, total: Degrees = 0
    var previous: Degrees? = nil
    for k in 0..<n {
        let h = pts[k].bearing(to: pts[k + 1])
        if let p = previous { let d = normalizedTurn(h - p); net += d; total += abs(d) }
        previous = h
    }
    return (net, total)
}

private func dumpShape(_ ours: [Maneuver], route: QualityRoute, index: Int) {
    let line = route.polyline
    func along(_ c: Coordinate) -> Metres { line.position(closestTo: c)?.distanceAlong ?? -1 }
    let goal = route.references.filter(\.inShapeGoal)
    for r in goal {
        let found = ours.contains { standsAt($0, [r.location]) }
        guard !found else { continue }
        let d = along(r.location)
        let others = route.references.filter { $0.location.distance(to: r.location) > 1 }.map { $0.location.distance(to: r.location) }
        let nearest = ours.flatMap(places(of:)).min { $0.distance(to: r.location) < $1.distance(to: r.location) }
        let nearestRow = nearest?.distance(to: r.location) ?? .infinity
        // Where the nearest row lies along OSRM's line, from the reference: − before it, + after it.
        let rowOffset = nearest.map { along($0) - d } ?? .infinity
        let h = headingChange(of: line, around: d, reach: 40)
        shapeDumpLines.append(String(format: "MISS route %d %@ angle %.0f exit %d at %.0f m (from start %.0f, to end %.0f) nextRef %.0f m nearestRow %.0f m (along %+.0f m) heading±40 net %.0f total %.0f (%.6f,%.6f)",
                                     index, r.kind.rawValue, r.angle ?? 0, r.exit ?? 0, d, d, line.length - d, others.min() ?? -1, nearestRow, rowOffset, h.net, h.total, r.location.latitude, r.location.longitude))
    }
    for m in ours where standing(of: m, on: route) == .neither {
        let d = along(m.coordinate)
        let h = headingChange(of: line, around: d, reach: 40)
        shapeDumpLines.append(String(format: "EXTRA route %d %@ %@ %.0f° at %.0f m heading±40 net %.0f total %.0f (%.6f,%.6f)",
                                     index, m.kind.rawValue, m.modifier.rawValue, m.turnAngle, d, h.net, h.total, m.coordinate.latitude, m.coordinate.longitude))
    }
}

/// Where a row of ours stands on OSRM's route: within 30 m of a step of any kind, else of a bend
/// of OSRM's line only, or of neither (an extra row).
private enum RowStanding { case step, bend, neither }

private func standing(of m: Maneuver, on route: QualityRoute) -> RowStanding {
    let at = places(of: m)
    if at.contains(where: { anyWithin(turnQualitySamePlace, of: $0, in: route.steps) }) { return .step }
    if at.contains(where: { anyWithin(turnQualitySamePlace, of: $0, in: route.bends) }) { return .bend }
    return .neither
}

/// Whether a place of `m` is within `turnQualitySamePlace` of any of `locations`.
private func standsAt(_ m: Maneuver, _ locations: [Coordinate]) -> Bool {
    places(of: m).contains { p in locations.contains { p.distance(to: $0) <= turnQualitySamePlace } }
}

private func scoreShapeGoal(_ ours: [Maneuver], route: QualityRoute, into counts: inout ShapeGoalCounts) {
    for r in route.references where r.inShapeGoal {
        guard !r.crossroadsInTwoNodes else {
            counts.crossroadsLeftOut += 1
            continue
        }
        counts.goalReferences += 1
        let found = ours.contains { standsAt($0, [r.location]) }
        if found { counts.goalFound += 1 }
        if r.kind == .roundabout {
            counts.goalRoundabouts += 1
            if found { counts.goalRoundaboutsFound += 1 }
            if ours.contains(where: { $0.kind == .roundabout && standsAt($0, [r.location]) }) { counts.goalRoundaboutsNamed += 1 }
        }
    }
    counts.rows += ours.count
    let line = route.polyline
    for m in ours {
        guard let then = m.then, let second = m.junctions.dropFirst().first,
              let along = line.position(closestTo: second.coordinate)?.distanceAlong else { continue }
        counts.staggered += 1
        let turn = headingChange(of: line, around: along + 10, reach: 12).net
        if abs(turn) >= 15 && (turn > 0 ? 1 : -1) == then.side { counts.staggeredSecondMade += 1 }
    }
    let roundabouts = route.references.filter { $0.kind == .roundabout }.map(\.location)
    for m in ours where m.kind == .roundabout {
        counts.roundaboutRows += 1
        if !standsAt(m, roundabouts) { counts.roundaboutRowsAtNone += 1 }
    }
    for m in ours {
        switch standing(of: m, on: route) {
        case .step: if m.kind != .straightOn { counts.atStep += 1 }
        case .bend: if m.kind != .straightOn { counts.atBendOnly += 1 }
        case .neither:
            counts.extra += 1
            if m.kind == .straightOn { counts.extraStraightOn += 1 }
        }
    }
}

/// Counts for one mode × input.
private struct QualityCounts {
    var references = 0, found = 0
    /// OSRM's steps that are no place of choice (`ReferenceManeuver.noChoice`), and those with a row
    /// of ours there all the same.
    var noChoiceSteps = 0, noChoiceRowed = 0
    /// Our rows, not "Straight on", at a step with no road to take and at no place of choice.
    var rowsAtNoChoiceOnly = 0
    /// Missed references at a crossroads mapped as two nodes, gone straight over.
    var missedCrossroads = 0
    var referencesByKind: [PlaceKind: Int] = [:], foundByKind: [PlaceKind: Int] = [:]
    /// Found references with a side: the side agrees, is the opposite, or our row says none.
    var withSide = 0, rightSide = 0, wrongSide = 0, noSide = 0
    /// OSRM roundabouts with an exit number where our row there is a roundabout with one too, and
    /// the two ways of counting count the same roads (`countsAsOSRM`); and those where they do not.
    var exitsCompared = 0, exitsAgree = 0
    var exitsOtherConvention = 0, exitsOtherConventionAgree = 0
    /// References whose modifier names the other side than OSRM's own bearings turn by 45° or more:
    /// their side is not compared.
    var sideAgainstBearings = 0
    var ourRows = 0, farRows = 0
    var farRowsByKind: [Maneuver.Kind: Int] = [:]
}

/// "97.0% (130/134)", or "– (0/0)".
private func share(_ part: Int, _ whole: Int) -> String {
    whole == 0 ? "– (0/0)" : String(format: "%.1f%% (%d/%d)", 100 * Double(part) / Double(whole), part, whole)
}

/// The roads OSRM's car guidance counts as roundabout exits when the ring is not one of them
/// itself: the others (service roads, tracks, `highway=road`) "may be ignored" there.
private let osrmExitRoads: Set<String> = ["motorway", "motorway_link", "trunk", "trunk_link", "primary", "primary_link",
                                          "secondary", "secondary_link", "tertiary", "tertiary_link", "unclassified",
                                          "residential", "living_street"]

/// Whether our roundabout row's exit number counts the same roads as OSRM's would. OSRM counts the
/// ring's nodes after the entry node with a road of `osrmExitRoads` to leave by, up to the exit
/// node; we count roads the travel mode may leave by (README, "Roundabout exits"). The two agree
/// where, before the exit taken, no exit arm stands at the entry node or beside the exit taken at
/// the exit node, no ring node has two exit arms, and every exit arm is of `osrmExitRoads`. Only
/// there are the exit numbers compared.
private func countsAsOSRM(_ row: Maneuver) -> Bool {
    let ring = row.junctions
    guard ring.count >= 2, let first = ring.first, let last = ring.last, let into = first.exit, let out = last.exit,
          let ringOut = first.spokes.first(where: { $0.isRoundabout && $0.canLeave }) else { return false }
    let clockwise = TurnPasses.ringRunsClockwise(at: first, leavingBy: ringOut)
    guard TurnPasses.exitsBefore(into, at: first, clockwise: clockwise) == 0,
          TurnPasses.exitsBefore(out, at: last, clockwise: clockwise) == 0 else { return false }
    if let ringRoad = into.highway, !osrmExitRoads.contains(ringRoad) { return false }
    return ring.dropFirst().dropLast().allSatisfy { junction in
        let exits = junction.spokes.filter { TurnPasses.isRingExit($0) && $0.role == .side }
        return exits.count <= 1 && exits.allSatisfy { osrmExitRoads.contains($0.highway ?? "") }
    }
}

/// The places a row of ours stands for: its junction, and for a staggered row ("left then right")
/// its second junction too.
private func places(of m: Maneuver) -> [Coordinate] {
    [m.coordinate] + (m.then != nil ? m.junctions.dropFirst().map(\.coordinate) : [])
}

/// With `ROADBOOK_TURNS_DUMP=FILE`, the rows and references of the "map, clean" column (or "map,
/// noisy" with `ROADBOOK_TURNS_DUMP_NOISY=1`, any column by its place with
/// `ROADBOOK_TURNS_DUMP_COLUMN=0…5`) that did not agree are written to FILE, each with its
/// junction's roads (role, class, name, angle from the arrival, whether one may leave by it): the
/// rows far from any reference (FAR, in map mode with the junction pass's reason for each), the
/// references with no row (MISS, with OSRM's angle and place and the nearest junction), wrong sides
/// (SIDE, with OSRM's angle and place and how far our row stands from it), references whose rows
/// there say no side (NOSIDE: "Straight on" where OSRM bears off, as SIDE) and exits (EXIT), and
/// every row's kind (ROW). It is how the turn passes were checked against OSRM on routes of
/// another seed.
nonisolated(unsafe) private var dumpLines: [String] = []

/// A row and its junctions, one line each, for the dump.
private func describe(_ m: Maneuver) -> String {
    var s = "\(m.kind.rawValue) \(m.modifier.rawValue) \(Int(m.turnAngle))° at \(Int(m.distanceAlong)) m (\(m.coordinate.latitude),\(m.coordinate.longitude))"
    if let e = m.exitNumber { s += " exit \(e)" }
    if let t = m.then { s += " then \(t.rawValue)" }
    for j in m.junctions {
        guard let entry = j.entry else { continue }
        s += "\n    node \(j.nodeID ?? 0):"
        for sp in j.spokes {
            let a = TurnPasses.relativeAngle(of: sp, arrivingAlong: entry)
            s += " [\(sp.role.rawValue) \(sp.highway ?? "?")\(sp.isRoundabout ? "(ring)" : "") \(sp.name ?? sp.ref ?? "") \(Int(a))°\(sp.canLeave ? "" : " noleave")]"
        }
    }
    return s
}

private func score(_ ours: [Maneuver], against references: [ReferenceManeuver], into counts: inout QualityCounts, dump: Bool = false, junctions: [Junction] = [],
                   verdicts: [Int64: String] = [:]) {
    let (references, noChoice) = (references.filter { !$0.noChoice }, references.filter(\.noChoice))
    counts.noChoiceSteps += noChoice.count
    counts.noChoiceRowed += noChoice.filter { r in ours.contains { standsAt($0, [r.location]) } }.count
    counts.ourRows += ours.count
    if dump { for m in ours { dumpLines.append("ROW " + (m.kind == .straightOn ? describe(m) : "\(m.kind.rawValue) \(m.modifier.rawValue)")) } }
    // A row is far when no OSRM maneuver kept as a step stands within 30 m: a place of choice, or
    // a step with no road to take (OSRM announces something there). The latter are counted apart.
    for m in ours where m.kind != .straightOn {
        let placesOfRow = places(of: m)
        let within = { (r: ReferenceManeuver) in placesOfRow.contains { $0.distance(to: r.location) <= turnQualitySamePlace } }
        guard !references.contains(where: within) else { continue }
        if noChoice.contains(where: within) {
            counts.rowsAtNoChoiceOnly += 1
            continue
        }
        if dump {
            let why = m.junctions.compactMap { $0.nodeID.flatMap { verdicts[$0] } }
            dumpLines.append("FAR " + describe(m) + (why.isEmpty ? "" : "\n    why: " + why.joined(separator: " | ")))
        }
        counts.farRows += 1
        counts.farRowsByKind[m.kind, default: 0] += 1
    }
    for r in references {
        counts.references += 1
        counts.referencesByKind[r.kind, default: 0] += 1
        let there = ours.filter { m in places(of: m).contains { $0.distance(to: r.location) <= turnQualitySamePlace } }
        if there.isEmpty && dump, let j = junctions.min(by: { $0.coordinate.distance(to: r.location) < $1.coordinate.distance(to: r.location) }) {
            dumpLines.append("MISS \(r.kind.rawValue) \(r.side) \(Int(r.angle ?? 0))° at (\(r.location.latitude),\(r.location.longitude)): " + describe(Maneuver(kind: .unclassified, modifier: .straight, distanceAlong: j.distanceAlong, coordinate: j.coordinate, turnAngle: j.turnAngle ?? 0, junctions: [j])))
        }
        guard !there.isEmpty else {
            if r.crossroadsInTwoNodes { counts.missedCrossroads += 1 }
            continue
        }
        counts.found += 1
        counts.foundByKind[r.kind, default: 0] += 1
        if r.kind == .roundabout {
            if let exit = r.exit, let row = there.first(where: { $0.kind == .roundabout && $0.exitNumber != nil }),
               let ourExit = row.exitNumber {
                if countsAsOSRM(row) {
                    counts.exitsCompared += 1
                    if exit == ourExit { counts.exitsAgree += 1 } else if dump { dumpLines.append("EXIT osrm \(exit) ours: " + there.map(describe).joined(separator: " | ")) }
                } else {
                    counts.exitsOtherConvention += 1
                    if exit == ourExit { counts.exitsOtherConventionAgree += 1 }
                }
            }
            continue
        }
        // A U-turn's side is not compared, nor a ramp's straight ahead.
        guard r.kind != .uTurn, r.side != 0 else { continue }
        if let angle = r.angle, abs(angle) >= 45, (angle > 0 ? 1 : -1) == -r.side {
            counts.sideAgainstBearings += 1
            continue
        }
        counts.withSide += 1
        // A roundabout row says its exit, not a side.
        let sides = there.filter { $0.kind != .roundabout }.flatMap { [$0.modifier.side, $0.then?.side ?? 0] }
        if sides.contains(r.side) {
            counts.rightSide += 1
        } else if sides.contains(-r.side) {
            counts.wrongSide += 1
            if dump { dumpLines.append(sideLine("SIDE", r, there, verdicts)) }
        } else {
            counts.noSide += 1
            if dump { dumpLines.append(sideLine("NOSIDE", r, there, verdicts)) }
        }
    }
}

/// A dump line for a reference whose rows say the other side (SIDE) or none (NOSIDE): OSRM's kind,
/// side, angle and place, each row there with how far it stands and the junction pass's reason.
private func sideLine(_ tag: String, _ r: ReferenceManeuver, _ there: [Maneuver], _ verdicts: [Int64: String]) -> String {
    let rows = there.map { m in
        let why = m.junctions.compactMap { $0.nodeID.flatMap { verdicts[$0] } }
        return "\(Int(m.coordinate.distance(to: r.location))) m off, " + describe(m)
            + (why.isEmpty ? "" : "\n    why: " + why.joined(separator: " | "))
    }
    return "\(tag) osrm \(r.kind.rawValue) \(r.side) \(Int(r.angle ?? 0))° at (\(r.location.latitude),\(r.location.longitude)): "
        + rows.joined(separator: " | ")
}

/// A standard normal draw (Box–Muller) from the seeded generator.
private func gaussian(_ generator: inout SplitMix) -> Double {
    let u1 = max(generator.uniform(), .leastNonzeroMagnitude)
    let u2 = generator.uniform()
    return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
}

/// The line as a recorder would log it: a fix every `turnQualityFixSpacing` metres along it, each
/// moved east and north by an error of `turnQualityNoise` standard deviation of which `jitter` is
/// drawn anew at every fix and the rest drifts (a first-order Gauss–Markov process per axis whose
/// correlation falls to 1/e over `turnQualityDriftDistance`). `jitter` equal to the whole error is
/// independent scatter at every fix: the "noisy" tracks.
func recordedTrack(_ line: [Coordinate], jitter: Metres = turnQualityNoise, spacing: Metres = turnQualityFixSpacing,
                           generator: inout SplitMix) -> [Coordinate] {
    let polyline = Polyline(line)
    let drift = max(0, turnQualityNoise * turnQualityNoise - jitter * jitter).squareRoot()
    let kept = exp(-spacing / turnQualityDriftDistance), renewed = (1 - kept * kept).squareRoot()
    var driftEast = 0.0, driftNorth = 0.0
    if drift > 0 { driftEast = gaussian(&generator) * drift; driftNorth = gaussian(&generator) * drift }
    var fixes: [Coordinate] = []
    var along: Metres = 0
    while true {
        let p = polyline.coordinate(atDistance: min(along, polyline.length))
        if drift > 0 {
            driftEast = kept * driftEast + renewed * drift * gaussian(&generator)
            driftNorth = kept * driftNorth + renewed * drift * gaussian(&generator)
        }
        let east = gaussian(&generator) * jitter + driftEast, north = gaussian(&generator) * jitter + driftNorth
        fixes.append(Coordinate(latitude: p.latitude + north / 111_132,
                                longitude: p.longitude + east / (111_320 * cos(p.latitude * .pi / 180))))
        if along >= polyline.length { break }
        along += spacing
    }
    return fixes
}

/// Asks OSRM for a driving route with steps; nil when it has none.
private func osrmRoute(_ client: CurlHTTPClient, _ base: URL, from a: Coordinate, to b: Coordinate) async throws -> QualityRoute? {
    let url = base.appendingPathComponent("route/v1/driving/\(a.longitude),\(a.latitude);\(b.longitude),\(b.latitude)")
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
    components.queryItems = [URLQueryItem(name: "steps", value: "true"), URLQueryItem(name: "overview", value: "full"),
                             URLQueryItem(name: "geometries", value: "geojson")]
    guard let requestURL = components.url else { return nil }
    let response = try await client.send(HTTPRequest(url: requestURL))
    guard response.status == 200,
          let json = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
          json["code"] as? String == "Ok",
          let route = (json["routes"] as? [[String: Any]])?.first,
          let coordinates = (route["geometry"] as? [String: Any])?["coordinates"] as? [[Double]]
    else { return nil }
    let line = coordinates.filter { $0.count >= 2 }.map { Coordinate(latitude: $0[1], longitude: $0[0]) }
    var references: [ReferenceManeuver] = []
    var steps: [Coordinate] = []
    for leg in route["legs"] as? [[String: Any]] ?? [] {
        for step in leg["steps"] as? [[String: Any]] ?? [] {
            guard let maneuver = step["maneuver"] as? [String: Any],
                  let location = maneuver["location"] as? [Double], location.count >= 2 else { continue }
            let place = Coordinate(latitude: location[1], longitude: location[0])
            steps.append(place)
            if var r = referenceManeuver(type: maneuver["type"] as? String ?? "", modifier: maneuver["modifier"] as? String,
                                         exit: maneuver["exit"] as? Int, location: place,
                                         intersection: ((step["intersections"] as? [[String: Any]])?.first).flatMap(OSRMIntersection.init)) {
                if let before = (maneuver["bearing_before"] as? NSNumber)?.doubleValue,
                   let after = (maneuver["bearing_after"] as? NSNumber)?.doubleValue {
                    r.angle = normalizedTurn(after - before)
                }
                references.append(r)
            }
        }
    }
    markCrossroadsInTwoNodes(&references)
    return line.count >= 2 ? QualityRoute(line: line, polyline: Polyline(line), references: references, steps: steps, bends: bends(of: line)) : nil
}

/// The generated turn rows against OSRM's guidance (docs/turn-quality.md): seeded random driving routes over
/// an extract, each as OSRM's clean line and as a recorded-style track of it, through map mode
/// (`RouteTurns.maneuvers(along:graph:)` with the extract's graph) and shape mode (no graph).
///
/// The reference is OSRM's steps where a car has another road to take (see `referenceManeuver`).
/// Recall: a row of ours within 30 m. Side: of the found references with a side, whether a row
/// there says the same side, the opposite, or none (straight on, a roundabout). Far rows: our rows
/// that are not "Straight on" with no reference maneuver within 30 m, as a share of all our rows.
/// Shape mode's goal (docs/turn-quality.md) is measured as `ShapeGoalCounts` says: recall of turns of
/// 45° or more and roundabouts, and extra rows (at no OSRM step and no bend of OSRM's line); and
/// how many rows that say "Roundabout" stand at no OSRM roundabout.
/// `ROADBOOK_TURNS_SEED` picks other routes and noise, to tune on routes the figures are not reported on.
/// `ROADBOOK_TURNS_CORRIDOR=1` reads the extract again for every map-mode run, only the run's
/// corridor (`RouteTurns.loadGraph(_:corridor:)`, as `build` does), scores those rows, and counts
/// the runs whose rows differ from the whole map's (the corridor must change nothing).
/// `ROADBOOK_TURNS_TRACK_DUMP=FILE` writes one JSON line a route to FILE: OSRM's line, the noisy and
/// recorded tracks, the references, steps and bends, and shape mode's rows on both tracks and on
/// OSRM's line, to try a detector outside Swift. None of the dumps change the figures.
/// - Parameters:
///   - extract: an OpenStreetMap file (PBF or XML); OSRM must serve the same extract.
///   - osrmURL: an OSRM server's base URL, such as `http://127.0.0.1:5000`; nil to skip.
/// - Returns: lines to print.
func turnQualityBenchmarkLines(extract: URL, osrmURL: URL?) async throws -> [String] {
    guard let osrmURL else {
        return ["turns-quality: skipped (give an OSRM URL with --osrm URL or ROADBOOK_OSRM_URL)"]
    }
    let graph = try RouteTurns.loadGraph(extract)
    let drivable = benchmarkEnds(graph)
    guard drivable.count >= 2 else { throw BenchError(message: "turns-quality: no drivable roads in \(extract.path)") }
    let client = try CurlHTTPClient()
    var generator = SplitMix(state: turnQualityRouteSeed)
    let environment = ProcessInfo.processInfo.environment
    let dumping = environment["ROADBOOK_TURNS_DUMP"] != nil
    // The "map, noisy" column instead of "map, clean" with ROADBOOK_TURNS_DUMP_NOISY=1, or any column
    // by its place in the table (0 to 5) with ROADBOOK_TURNS_DUMP_COLUMN.
    let dumpedColumn = environment["ROADBOOK_TURNS_DUMP_COLUMN"].flatMap { Int($0) }
        ?? (environment["ROADBOOK_TURNS_DUMP_NOISY"] == "1" ? 1 : 0)
    var routes: [QualityRoute] = []
    var attempts = 0, unanswered = 0
    let wanted = turnQualityRouteCount
    while routes.count < wanted && attempts < 200 * wanted {
        attempts += 1
        let a = graph.coordinates[drivable[Int(generator.next() % UInt64(drivable.count))]]
        let b = graph.coordinates[drivable[Int(generator.next() % UInt64(drivable.count))]]
        let span = a.distance(to: b)
        guard span >= turnQualityMinimumSpan && span <= turnQualityMaximumSpan else { continue }
        if let route = try await osrmRoute(client, osrmURL, from: a, to: b) { routes.append(route) } else { unanswered += 1 }
    }
    guard !routes.isEmpty else { throw BenchError(message: "turns-quality: OSRM at \(osrmURL) answered no route") }

    let columns = ["map, clean", "map, noisy", "map, recorded", "shape, clean", "shape, noisy", "shape, recorded"]
    let shapeClean = 3, shapeNoisy = 4, shapeRecorded = 5
    var counts = Array(repeating: QualityCounts(), count: columns.count)
    var goal = Array(repeating: ShapeGoalCounts(), count: columns.count)
    var sweep = Array(repeating: ShapeGoalCounts(), count: turnQualitySweepJitters.count)
    // The recorded tracks and the sweep draw their errors from generators of their own, so the
    // noisy tracks stay those of earlier runs of the same seed.
    var recordedGenerator = SplitMix(state: turnQualityRouteSeed ^ 0x7265_636F_7264_6564)
    var sweepGenerators = turnQualitySweepJitters.indices.map { SplitMix(state: turnQualityRouteSeed ^ (0x7377_6565_7000 + UInt64($0))) }
    var spacingSweep = Array(repeating: ShapeGoalCounts(), count: turnQualitySweepSpacings.count)
    var spacingGenerators = turnQualitySweepSpacings.indices.map { SplitMix(state: turnQualityRouteSeed ^ (0x7370_6163_6500 + UInt64($0))) }
    // The shape dump reads the "shape, recorded" column instead with ROADBOOK_TURNS_SHAPE_DUMP_RECORDED=1.
    let shapeDumpColumn = ProcessInfo.processInfo.environment["ROADBOOK_TURNS_SHAPE_DUMP_RECORDED"] == "1" ? shapeRecorded : shapeNoisy
    var length: Metres = 0
    let shapeDumping = ProcessInfo.processInfo.environment["ROADBOOK_TURNS_SHAPE_DUMP"] != nil
    let trackDump = ProcessInfo.processInfo.environment["ROADBOOK_TURNS_TRACK_DUMP"]
    var trackLines: [String] = []
    var routeIndex = 0
    let corridors = ProcessInfo.processInfo.environment["ROADBOOK_TURNS_CORRIDOR"] == "1"
    var corridorRuns = 0, corridorDiffering = 0, corridorNodes = 0
    /// Map mode's rows along `line`: on the whole graph, or (with `corridors`) on the line's corridor
    /// read from the file, compared with the whole graph's.
    func mapRows(_ line: [Coordinate]) throws -> [Maneuver] {
        let whole = RouteTurns.maneuvers(along: line, graph: graph).maneuvers
        guard corridors else { return whole }
        let narrow = try RouteTurns.loadGraph(extract, corridor: line)
        let rows = RouteTurns.maneuvers(along: line, graph: narrow).maneuvers
        corridorRuns += 1
        corridorNodes += narrow.count
        if rows != whole { corridorDiffering += 1 }
        return rows
    }
    // The ideal reader's bound for the noisy tracks (see `RingDetectionBound`): the goal's turns it is
    // granted, its roundabouts it finds with the probability their separation gives.
    let ideal = RingDetectionBound(scatter: turnQualityNoise, fixSpacing: turnQualityFixSpacing)
    var idealTurns = 0, idealSeparations: [Double] = []
    for route in routes {
        length += route.polyline.length
        let goalPlaces = route.references.filter { $0.inShapeGoal && !$0.crossroadsInTwoNodes }
        let rings = goalPlaces.filter { $0.kind == .roundabout }.map(\.location)
        idealTurns += goalPlaces.count - rings.count
        idealSeparations += ideal.separations(of: rings, on: route.polyline)
        let noisy = recordedTrack(route.line, generator: &generator)
        let recorded = recordedTrack(route.line, jitter: turnQualityJitter, generator: &recordedGenerator)
        let runs = [try mapRows(route.line),
                    try mapRows(noisy),
                    try mapRows(recorded),
                    RouteTurns.maneuvers(along: route.line, graph: nil).maneuvers,
                    RouteTurns.maneuvers(along: noisy, graph: nil).maneuvers,
                    RouteTurns.maneuvers(along: recorded, graph: nil).maneuvers]
        for (k, jitter) in turnQualitySweepJitters.enumerated() {
            let track = recordedTrack(route.line, jitter: jitter, generator: &sweepGenerators[k])
            scoreShapeGoal(RouteTurns.maneuvers(along: track, graph: nil).maneuvers, route: route, into: &sweep[k])
        }
        for (k, spacing) in turnQualitySweepSpacings.enumerated() {
            let track = recordedTrack(route.line, jitter: turnQualityJitter, spacing: spacing, generator: &spacingGenerators[k])
            scoreShapeGoal(RouteTurns.maneuvers(along: track, graph: nil).maneuvers, route: route, into: &spacingSweep[k])
        }
        for (i, ours) in runs.enumerated() {
            let dumped = i == dumpedColumn && dumping
            // The passes' verdicts on a dumped map-mode column's junctions, to say why each far row was made.
            var verdicts: [Int64: String] = [:]
            if dumped && i < 3 {
                let trace = TurnTrace()
                _ = RouteTurns.maneuvers(along: [route.line, noisy, recorded][i], graph: graph, trace: trace)
                for entry in trace.decisions where entry.pass == "classify junctions" {
                    if let node = entry.nodeID { verdicts[node] = entry.verdict }
                }
            }
            score(ours, against: route.references, into: &counts[i], dump: dumped,
                  junctions: dumped ? RouteTurns.junctions(along: [route.line, noisy, recorded][i % 3], graph: graph).junctions : [],
                  verdicts: verdicts)
            scoreShapeGoal(ours, route: route, into: &goal[i])
        }
        if shapeDumping { dumpShape(runs[shapeDumpColumn], route: route, index: routeIndex) }
        if trackDump != nil {
            // The line, the noisy and recorded tracks, the references and shape mode's rows on each
            // track, for trying a detector outside Swift.
            func pts(_ cs: [Coordinate]) -> String { "[" + cs.map { String(format: "[%.7f,%.7f]", $0.latitude, $0.longitude) }.joined(separator: ",") + "]" }
            let refs = route.references.map { String(format: "{\"kind\":\"%@\",\"angle\":%.1f,\"lat\":%.7f,\"lon\":%.7f}", $0.kind.rawValue, $0.angle ?? 0, $0.location.latitude, $0.location.longitude) }
            // One kind for each place of a column's rows (a row of two turns has two places).
            func kinds(_ rows: [Maneuver]) -> String {
                "[" + rows.flatMap { m in Array(repeating: "\"" + m.kind.rawValue + "\"", count: places(of: m).count) }.joined(separator: ",") + "]"
            }
            let fields = [("line", pts(route.line)), ("noisy", pts(noisy)), ("recorded", pts(recorded)),
                          ("steps", pts(route.steps)), ("bends", pts(route.bends)), ("refs", "[" + refs.joined(separator: ",") + "]"),
                          ("rows", pts(runs[shapeNoisy].flatMap(places(of:)))),
                          ("kinds", kinds(runs[shapeNoisy])),
                          ("recordedRows", pts(runs[shapeRecorded].flatMap(places(of:)))),
                          ("recordedKinds", kinds(runs[shapeRecorded])),
                          ("cleanRows", pts(runs[shapeClean].flatMap(places(of:)))),
                          ("cleanKinds", kinds(runs[shapeClean]))]
            trackLines.append("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
        }
        routeIndex += 1
    }

    var lines = [String(format: "turns-quality: seed %llu; %d seeded OSRM driving routes over %@ (%.0f km, %d without a route); same place = within %.0f m",
                        turnQualityRouteSeed, routes.count, extract.lastPathComponent, length / 1000, unanswered, turnQualitySamePlace),
                 String(format: "noisy = a fix every %.0f m moved by %.0f m Gaussian noise drawn anew at every fix; recorded = the same %.0f m, of it %.0f m jitter from fix to fix and the rest drifting (correlated over %.0f m)",
                        turnQualityFixSpacing, turnQualityNoise, turnQualityNoise, turnQualityJitter, turnQualityDriftDistance)]
    let label = 34, width = 22
    func row(_ name: String, _ cells: [String]) -> String {
        name.padding(toLength: label, withPad: " ", startingAt: 0)
            + cells.map { String(repeating: " ", count: max(0, width - $0.count)) + $0 }.joined()
    }
    if corridors {
        lines.append(String(format: "map columns read each run's corridor only: %d of %d runs differ from the whole map's rows; %.0f graph nodes a run (whole map %d)",
                            corridorDiffering, corridorRuns, Double(corridorNodes) / Double(max(corridorRuns, 1)), graph.count))
    }
    lines.append(row("", columns))
    lines.append(row("OSRM reference maneuvers", counts.map { String($0.references) }))
    lines.append(row("recall within 30 m", counts.map { share($0.found, $0.references) }))
    for kind in PlaceKind.allCases {
        lines.append(row("  \(kind.rawValue)", counts.map { share($0.foundByKind[kind] ?? 0, $0.referencesByKind[kind] ?? 0) }))
    }
    lines.append(row("missed: crossroads in two nodes", counts.map { String($0.missedCrossroads) }))
    lines.append(row("OSRM steps with no road to take", counts.map { String($0.noChoiceSteps) }))
    lines.append(row("  with a row of ours", counts.map { share($0.noChoiceRowed, $0.noChoiceSteps) }))
    lines.append(row("same side (of found, with a side)", counts.map { share($0.rightSide, $0.withSide) }))
    lines.append(row("wrong side", counts.map { share($0.wrongSide, $0.withSide) }))
    lines.append(row("no side said", counts.map { share($0.noSide, $0.withSide) }))
    lines.append(row("OSRM's side against its bearings", counts.map { String($0.sideAgainstBearings) }))
    lines.append(row("roundabout exit agrees", counts.map { share($0.exitsAgree, $0.exitsCompared) }))
    lines.append(row("  where the counts differ in kind", counts.map { share($0.exitsOtherConventionAgree, $0.exitsOtherConvention) }))
    lines.append(row("our rows", counts.map { String($0.ourRows) }))
    lines.append(row("far (>30 m), not Straight on", counts.map { share($0.farRows, $0.ourRows) }))
    lines.append(row("  not far: at a step with no road", counts.map { share($0.rowsAtNoChoiceOnly, $0.ourRows) }))
    for kind in Maneuver.Kind.allCases where counts.contains(where: { $0.farRowsByKind[kind] != nil }) {
        lines.append(row("  \(kind.rawValue)", counts.map { share($0.farRowsByKind[kind] ?? 0, $0.ourRows) }))
    }
    lines.append("shape goal: recall of turns of 45° or more and roundabouts >= 85%, extra rows <= 25%")
    // Recall of the goal's references, then where our rows stand; the sweep prints the recall and
    // the extra rows.
    let recallRows: [(String, (ShapeGoalCounts) -> String)] = [
        ("recall, turns >= 45° + roundabouts", { share($0.goalFound, $0.goalReferences) }),
        ("  turns >= 45°", { share($0.goalFound - $0.goalRoundaboutsFound, $0.goalReferences - $0.goalRoundabouts) }),
        ("  roundabouts", { share($0.goalRoundaboutsFound, $0.goalRoundabouts) }),
    ]
    let extraRow: (String, (ShapeGoalCounts) -> String) = ("extra rows (no step, no bend)", { share($0.extra, $0.rows) })
    for (name, figure) in recallRows { lines.append(row(name, goal.map(figure))) }
    lines.append(row("  left out: two-node crossroads", goal.map { String($0.crossroadsLeftOut) }))
    lines.append(row("rows at an OSRM step (any kind)", goal.map { share($0.atStep, $0.rows) }))
    lines.append(row("rows at a bend >= 45° only", goal.map { share($0.atBendOnly, $0.rows) }))
    lines.append(row(extraRow.0, goal.map(extraRow.1)))
    lines.append(row("  of them Straight on", goal.map { share($0.extraStraightOn, $0.rows) }))
    lines.append(row("Roundabout rows at no roundabout", goal.map { share($0.roundaboutRowsAtNone, $0.roundaboutRows) }))
    lines.append(row("roundabouts with a Roundabout row", goal.map { share($0.goalRoundaboutsNamed, $0.goalRoundabouts) }))
    lines.append(row("two-turn rows, second on the line", goal.map { share($0.staggeredSecondMade, $0.staggered) }))
    // The bound concerns the noisy tracks only: it is printed under their column. Besides 1% and
    // 0.1%, at the rate of false finds the goal leaves room for: the extra rows the noisy tracks
    // may still add before they are 25% of the rows, over a test at every fix.
    let noisyGoal = goal[shapeNoisy]
    let room = max(0, (0.25 * Double(noisyGoal.rows) - Double(noisyGoal.extra)) / 0.75)
    let budget = room / max(1, length / turnQualityFixSpacing)
    lines.append(String(format: "ideal reader of the noisy tracks (an upper bound, see RingDetectionBound): told where each roundabout is and its path, it tells it from the road without it at a rate of false finds per test; the room left for %.0f extra rows, over a test at every fix, is %.2f%%",
                        room, 100 * budget))
    func figure(_ found: Double, _ of: Int) -> String { of == 0 ? "–" : String(format: "%.1f%%", 100 * found / Double(of)) }
    func underNoisy(_ cell: String) -> [String] { goal.indices.map { $0 == shapeNoisy ? cell : "" } }
    for alpha in [0.01, budget, 0.001] where alpha > 0 {
        let z = RingDetectionBound.upperQuantile(alpha)
        let found = idealSeparations.reduce(0) { $0 + RingDetectionBound.detection($1, threshold: z) }
        let at = String(format: "%.2f%%", alpha * 100)
        lines.append(row("  roundabouts found at \(at)", underNoisy(figure(found, idealSeparations.count))))
        lines.append(row("  with turns >= 45° at \(at)", underNoisy(figure(Double(idealTurns) + found, idealTurns + idealSeparations.count))))
    }
    lines.append(String(format: "shape goal by jitter: a fix every %.0f m, %.0f m of error in all, the rest drifting; %.0f m of jitter is independent noise at every fix",
                        turnQualityFixSpacing, turnQualityNoise, turnQualityNoise))
    lines.append(row("jitter", turnQualitySweepJitters.map { String(format: "%.1f m", $0) }))
    for (name, figure) in recallRows + [extraRow] { lines.append(row(name, sweep.map(figure))) }
    lines.append(String(format: "shape goal by fix spacing: %.0f m of error in all, %.0f m of it jitter, the rest drifting, as the recorded tracks",
                        turnQualityNoise, turnQualityJitter))
    lines.append(row("a fix every", turnQualitySweepSpacings.map { String(format: "%.0f m", $0) }))
    for (name, figure) in recallRows + [extraRow] { lines.append(row(name, spacingSweep.map(figure))) }
    if let path = ProcessInfo.processInfo.environment["ROADBOOK_TURNS_SHAPE_DUMP"] {
        try shapeDumpLines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
    if let path = trackDump {
        try trackLines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
    if let path = ProcessInfo.processInfo.environment["ROADBOOK_TURNS_DUMP"] {
        try dumpLines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
    return lines
}
