import Foundation
import Geo
import Model

/// The figures on the route's totals line.
public struct RouteTotals: Sendable, Equatable {
    /// Metres along the line as drawn (roads, straight legs, strokes), so it matches the profile.
    public var distance: Metres
    /// Seconds: the sum of the road legs' travel times; a straight leg adds nothing.
    public var travelTime: TimeInterval
    /// Legs drawn straight, by kind or for want of a road.
    public var straightLegs: Int
}

/// A handle note, at the exact distance where the route reaches its handle.
public struct HandleNotePlacement: Sendable, Equatable {
    /// Index of the handle in the route, from 0.
    public var handleIndex: Int
    public var handleID: Int
    /// Metres from the start of the route: the boundary between the handle's two legs.
    public var distanceAlong: Metres
    public var coordinate: Coordinate
    public var note: HandleNote
}

/// Edits a route drawn through handles, and asks a routing engine for its road legs.
///
/// A value: every operation is a mutating method, with no I/O. Asking goes through `resolve(using:
/// concurrency:)`, or through `pendingRequests()` and `receive(_:for:)` for a caller that asks the
/// engine itself. Every leg is asked with its handles' placed positions, so a road that arrives and
/// moves a tapped handle onto the road never makes its legs stale.
///
/// Roads already received are remembered per leg ends and mode for the editor's lifetime, through
/// undo and redo: switching the mode back, undoing a move or reordering back asks nothing.
/// A leg whose request failed waits for `retry()`; nothing is asked again on its own.
public struct RouteEditor: Sendable {
    /// The editor's thresholds, each with its reason.
    public struct Configuration: Sendable, Equatable {
        /// A road farther than this from where the leg was drawn is worth a look: 100 m is more than a
        /// parallel street's distance in a town, so a road this far off is likely another road.
        public var farFromDrawnDistance: Metres = 100
        /// A road at least this many times the straight distance is mentioned with the leg: below it a
        /// road is simply a road; above it the rider may not expect the detour.
        public var longerThanStraightRatio: Double = 1.25
        /// A road within this of a handle is at the handle: a lane or two either side of a road's centre.
        public var loopRadius: Metres = 15
        /// A road must get this far from a handle before coming back counts as a second visit, so a
        /// road wriggling along the edge of `loopRadius` is not a loop.
        public var loopLeaveDistance: Metres = 40
        /// A stroke's bends smaller than this are the hand's wobble, not a choice of road: a stroke
        /// drawn on a map at street zoom is some 30–50 m wide, and the road supplies the real bends.
        public var strokeTolerance: Metres = 40
        /// A bend of a stroke becomes a handle when it strays from the line between the handles
        /// either side by more than this share of that line: a quarter is a turn of about 50° or
        /// more at the leg's own scale, a corner onto another road, while a mountain road's
        /// hairpins, each small beside its leg, are left to the road the leg is asked for.
        public var strokeBendRatio: Double = 0.25
        /// No bend becomes a handle closer than this along the stroke to another: a few hundred
        /// metres is a village's streets; closer handles only give the road more ways to loop back.
        public var strokeHandleMinimumSpacing: Metres = 300
        /// A stroke's handles are at most this far apart along it: near enough that the road found
        /// between two handles is the one drawn, not another valley's, and few enough that a 6 km
        /// stroke is a handful of handles.
        public var strokeHandleMaximumSpacing: Metres = 1500
        /// A stroke starting this close to the last handle continues from it: about the width of a
        /// drawn stroke at street zoom.
        public var continueStrokeDistance: Metres = 50
        /// Handles traced from a route are about this far apart: near enough to
        /// pin the road at most junctions, few enough to drag by hand.
        public var traceSpacing: Metres = 400
        /// A traced route has at most this many handles; the spacing grows on a longer route.
        public var traceMaximumHandles: Int = 40
        /// A traced handle this close along the route to a note's handle is dropped: the note's handle
        /// pins the route there, and a leg a few metres long helps nobody.
        public var traceMergeDistance: Metres = 50

        public init() {}
    }

    /// One leg's request: the placed positions of its two handles and the mode.
    public struct LegRequest: Sendable, Hashable, Codable {
        public var from: Coordinate
        public var to: Coordinate
        public var mode: TravelMode
        public init(from: Coordinate, to: Coordinate, mode: TravelMode) {
            self.from = from
            self.to = to
            self.mode = mode
        }
    }

    enum Answer: Sendable, Equatable {
        case road(RoadLeg)
        case noRoad
    }

    /// One undoable step, stored as what it changed: the splices that turn the plan's handles and
    /// legs back, and the mode to go back to. A step costs the handles and legs it touched, not a
    /// copy of the plan, so 10,000 edits of a 10,000-handle route cost memory linear in the edits.
    struct Step: Sendable, Equatable {
        var name: String
        var handles: Splice<Handle>
        var legs: Splice<PlannedLeg>
        var mode: TravelMode

        /// The step that turns `after` back into `before`.
        init(name: String, from after: RoutePlan, backTo before: RoutePlan) {
            self.name = name
            handles = Splice(from: after.handles, backTo: before.handles)
            legs = Splice(from: after.legs, backTo: before.legs)
            mode = before.mode
        }

        /// Applies the step to `plan` and returns the step that takes it back.
        func apply(to plan: inout RoutePlan) -> Step {
            var inverse = self
            inverse.handles = handles.apply(to: &plan.handles)
            inverse.legs = legs.apply(to: &plan.legs)
            inverse.mode = plan.mode
            plan.mode = mode
            return inverse
        }

        /// Handles and legs held.
        var storedCount: Int { handles.replacement.count + legs.replacement.count }
    }

    /// The route as drawn, with every answer received for its legs and their states.
    public private(set) var plan: RoutePlan
    public var configuration: Configuration
    /// The engine's name from the last `resolve`, for messages ("OSRM is limiting requests"): kept
    /// in the plan, so an editor reopened from a book or a draft knows which engine answered.
    public var engineName: String? { plan.engine }

    // Internal, not private: `History` (RouteEditorHistory.swift) reads and restores them.
    var answers: [LegRequest: Answer] = [:]
    var failures: [LegRequest: LegState] = [:]
    var undoSteps: [Step] = []
    var redoSteps: [Step] = []

    /// Opens a plan (a new one, or one stored in a book): the roads it holds are remembered, and
    /// legs stored as waiting still wait for `retry()`.
    public init(plan: RoutePlan = RoutePlan(), configuration: Configuration = Configuration()) {
        precondition(plan.legs.count == max(0, plan.handles.count - 1), "a plan has one leg fewer than handles")
        self.plan = plan
        self.configuration = configuration
        for i in plan.legs.indices {
            let leg = plan.legs[i]
            for (mode, road) in leg.answers { answers[request(forLeg: i, mode: mode)] = .road(road) }
            for mode in leg.noRoadModes { answers[request(forLeg: i, mode: mode)] = .noRoad }
            if let state = leg.state, state.waitsForRetry { failures[request(forLeg: i, mode: plan.mode)] = state }
        }
        refresh()
    }

    // MARK: Undo

    /// The step `undo()` would take back, such as "Remove handle 3".
    public var undoName: String? { undoSteps.last?.name }
    /// The step `redo()` would make again.
    public var redoName: String? { redoSteps.last?.name }

    /// Takes back the last step. Roads already received are kept, so nothing is asked again for a
    /// leg whose road was found before. The "New legs" setting is not a step and stays.
    public mutating func undo() {
        guard let step = undoSteps.popLast() else { return }
        redoSteps.append(step.apply(to: &plan))
        refresh()
    }

    /// Makes the last undone step again.
    public mutating func redo() {
        guard let step = redoSteps.popLast() else { return }
        undoSteps.append(step.apply(to: &plan))
        refresh()
    }

    /// How many handles and legs the undo and redo history holds: the measure of its memory.
    package var historySize: Int { (undoSteps + redoSteps).reduce(0) { $0 + $1.storedCount } }

    /// Applies `change` as one named step; a change that changes nothing is no step.
    private mutating func perform(_ name: String, _ change: (inout RoutePlan) -> Void) {
        let before = plan
        change(&plan)
        guard plan != before else { return }
        redoSteps.removeAll()
        refresh()
        undoSteps.append(Step(name: name, from: plan, backTo: before))
    }

    // MARK: Handles

    /// The kind new legs take ("New legs"). A setting, not an undoable step.
    public mutating func setDefaultLegKind(_ kind: LegKind) {
        plan.defaultLegKind = kind
    }

    /// The most handles the route may have (`RoutePlan.maximumStops`; nil for no limit): a setting
    /// kept with the plan, not an undo step. The editor does not enforce it: the commands that add
    /// handles check it (`RouteWorkflow.checkStops`).
    public mutating func setMaximumStops(_ maximum: Int?) {
        plan.maximumStops = maximum
    }

    /// Adds a handle at the end of the route; from the second handle on, a leg of the default kind
    /// joins it to the last one. An as-drawn leg added this way has no stroke, so it is straight.
    public mutating func addHandle(at coordinate: Coordinate, origin: Handle.Origin = .tapped,
                                   note: HandleNote? = nil) {
        perform("Add handle \(plan.handles.count + 1)") { plan in
            plan.handles.append(Handle(id: Self.nextID(plan), coordinate: coordinate, origin: origin, note: note))
            if plan.handles.count > 1 { plan.legs.append(PlannedLeg(kind: plan.defaultLegKind)) }
        }
    }

    /// Moves handle `index` (from 0) to `coordinate`; only the two legs that meet it are asked again.
    public mutating func moveHandle(_ index: Int, to coordinate: Coordinate) {
        precondition(plan.handles.indices.contains(index), "no handle \(index)")
        perform("Move handle \(index + 1)") { plan in
            plan.handles[index].placed = coordinate
            plan.handles[index].coordinate = coordinate
        }
    }

    /// Removes handle `index`. In the middle of the route its two legs join into one, of the first
    /// leg's kind, with the two strokes joined; that one leg is asked.
    public mutating func removeHandle(_ index: Int) {
        precondition(plan.handles.indices.contains(index), "no handle \(index)")
        perform("Remove handle \(index + 1)") { plan in
            let removed = plan.handles.remove(at: index)
            guard !plan.legs.isEmpty else { return }
            if index == 0 {
                plan.legs.removeFirst()
            } else if index == plan.handles.count {
                plan.legs.removeLast()
            } else {
                let before = plan.legs[index - 1], after = plan.legs.remove(at: index)
                var joined = PlannedLeg(kind: before.kind)
                if before.stroke != nil || after.stroke != nil {
                    joined.stroke = (before.stroke ?? []) + [removed.placed] + (after.stroke ?? [])
                }
                plan.legs[index - 1] = joined
            }
        }
    }

    /// Adds a handle where leg `index` was tapped, splitting it in two legs of its kind; the stroke,
    /// if any, is cut at its point nearest the tap. Road legs are asked for both halves.
    public mutating func splitLeg(_ index: Int, at coordinate: Coordinate) {
        precondition(plan.legs.indices.contains(index), "no leg \(index)")
        insertHandle(at: coordinate, position: index + 1, origin: .tapped)
    }

    /// Adds a handle so it becomes handle `position` (from 0; `handles.count` adds it at the end), as
    /// one step. Between two handles it splits the leg there, as `splitLeg` does; before the first
    /// handle a leg of the default kind joins it to the old start; at the end it is `addHandle`.
    public mutating func insertHandle(at coordinate: Coordinate, position: Int, origin: Handle.Origin = .tapped,
                                      note: HandleNote? = nil) {
        precondition((0...plan.handles.count).contains(position), "no position \(position)")
        guard position > 0, position < plan.handles.count else {
            if position == plan.handles.count { return addHandle(at: coordinate, origin: origin, note: note) }
            perform("Add handle 1") { plan in
                plan.handles.insert(Handle(id: Self.nextID(plan), coordinate: coordinate, origin: origin, note: note), at: 0)
                if plan.handles.count > 1 { plan.legs.insert(PlannedLeg(kind: plan.defaultLegKind), at: 0) }
            }
            return
        }
        let index = position - 1
        perform("Add handle \(position + 1)") { plan in
            let leg = plan.legs[index]
            var first = PlannedLeg(kind: leg.kind), second = PlannedLeg(kind: leg.kind)
            if let stroke = leg.stroke, stroke.count > 1,
               let position = Polyline(stroke).position(closestTo: coordinate) {
                first.stroke = Array(stroke[...position.segmentIndex]) + [position.coordinate]
                second.stroke = [position.coordinate] + Array(stroke[(position.segmentIndex + 1)...])
            }
            plan.handles.insert(Handle(id: Self.nextID(plan), coordinate: coordinate, origin: origin, note: note),
                                at: index + 1)
            plan.legs[index] = first
            plan.legs.insert(second, at: index + 1)
        }
    }

    /// Moves handle `source` to position `destination` (both from 0, as in the list of handles). A leg
    /// between two handles that were neighbours in the same order is kept; every other leg is new, of
    /// the default kind, and asked.
    public mutating func reorderHandle(from source: Int, to destination: Int) {
        precondition(plan.handles.indices.contains(source) && plan.handles.indices.contains(destination),
                     "no handle \(source) or \(destination)")
        perform("Move handle \(source + 1) to \(destination + 1)") { plan in
            var kept: [[Int]: PlannedLeg] = [:]
            for i in plan.legs.indices { kept[[plan.handles[i].id, plan.handles[i + 1].id]] = plan.legs[i] }
            plan.handles.insert(plan.handles.remove(at: source), at: destination)
            plan.legs = plan.handles.indices.dropLast().map { i in
                kept[[plan.handles[i].id, plan.handles[i + 1].id]] ?? PlannedLeg(kind: plan.defaultLegKind)
            }
        }
    }

    /// Turns the route round: handles in reverse order, every leg keeps its kind and its stroke
    /// (reversed), and every road leg is asked again, since a road driven the other way is not
    /// always the same road.
    public mutating func reverse() {
        perform("Reverse the route") { plan in
            plan.handles.reverse()
            plan.legs = plan.legs.reversed().map { PlannedLeg(kind: $0.kind, stroke: $0.stroke.map { $0.reversed() }) }
        }
    }

    /// Gives every handle without a name the one `name` finds for where it was placed (`placed`,
    /// before any move onto the road). Not an undo step: a name says where a handle is and changes
    /// nothing of the route, so the history stays as it is.
    public mutating func nameHandles(_ name: (Coordinate) -> String?) {
        for i in plan.handles.indices where plan.handles[i].name == nil {
            plan.handles[i].name = name(plan.handles[i].placed)
        }
    }

    /// Clears the drawing: every handle and leg goes, as one step that `undo()` takes back with
    /// every road already received. The mode and the "New legs" setting stay.
    public mutating func clearHandles() {
        perform("Clear the drawing") { plan in
            plan.handles.removeAll()
            plan.legs.removeAll()
        }
    }

    /// Asks every road leg in `mode`; roads already received in that mode are used as they are.
    public mutating func setMode(_ mode: TravelMode) {
        perform("Change the mode to \(mode.gerund)") { $0.mode = mode }
    }

    /// Sets the kind of leg `index`.
    public mutating func setLegKind(_ index: Int, to kind: LegKind) {
        precondition(plan.legs.indices.contains(index), "no leg \(index)")
        let words = switch kind {
        case .road: "follow the road"
        case .straight: "straight"
        case .asDrawn: "as drawn"
        }
        perform("Make leg \(index + 1) \(words)") { $0.legs[index].kind = kind }
    }

    /// Puts a handle note on handle `index`, or changes its words.
    public mutating func setHandleNote(_ index: Int, _ note: HandleNote) {
        precondition(plan.handles.indices.contains(index), "no handle \(index)")
        perform("Put a note on handle \(index + 1)") { $0.handles[index].note = note }
    }

    /// Takes the handle note off handle `index`, leaving a plain handle.
    public mutating func removeHandleNote(_ index: Int) {
        precondition(plan.handles.indices.contains(index), "no handle \(index)")
        perform("Take the note off handle \(index + 1)") { $0.handles[index].note = nil }
    }

    /// Turns a hand-drawn stroke into a few drawn handles (`StrokeSimplification.handleIndices`: its
    /// ends, the bends that make its shape, and at most `strokeHandleMaximumSpacing` apart), each new
    /// leg of the default kind and keeping its part of the stroke. A stroke starting within
    /// `continueStrokeDistance` of the last handle continues from it; anywhere else a leg with no
    /// stroke joins the last handle to the stroke's start. A stroke with no length adds nothing.
    public mutating func addStroke(_ points: [Coordinate]) {
        guard points.count > 1, Polyline(points).length > 0 else { return }
        let kept = StrokeSimplification.handleIndices(points, rules: configuration)
        let continues = plan.handles.last.map {
            $0.coordinate.distance(to: points[0]) <= configuration.continueStrokeDistance
        } ?? false
        let newHandles = continues ? Array(kept.dropFirst()) : kept
        let name = newHandles.count == 1 ? "Draw 1 handle" : "Draw \(newHandles.count) handles"
        perform(name) { plan in
            var previous: Int? = continues ? 0 : nil
            for k in newHandles {
                plan.handles.append(Handle(id: Self.nextID(plan), coordinate: points[k], origin: .drawn))
                if plan.handles.count > 1 {
                    plan.legs.append(PlannedLeg(kind: plan.defaultLegKind, stroke: previous.map { Array(points[$0...k]) }))
                }
                previous = k
            }
        }
    }

    private static func nextID(_ plan: RoutePlan) -> Int { (plan.handles.map(\.id).max() ?? 0) + 1 }

    // MARK: Asking the engine

    /// The request for leg `index` in `mode`.
    public func request(forLeg index: Int, mode: TravelMode) -> LegRequest {
        LegRequest(from: plan.handles[index].placed, to: plan.handles[index + 1].placed, mode: mode)
    }

    /// The requests still to make: one per road leg being asked in the current mode (legs with the
    /// same ends share one).
    public func pendingRequests() -> [LegRequest] {
        var seen = Set<LegRequest>()
        return plan.legs.indices.compactMap { i in
            guard plan.legs[i].kind == .road, plan.legs[i].state == .asked else { return nil }
            let request = request(forLeg: i, mode: plan.mode)
            return seen.insert(request).inserted ? request : nil
        }
    }

    /// Takes one answer. A road or "no road" is remembered for good; a fault makes the legs asked
    /// with `request` wait for `retry()`. An answer for a leg that has changed meanwhile is still
    /// remembered, for an undo that brings the leg back.
    public mutating func receive(_ result: Result<RoadLeg, RoutingError>, for request: LegRequest) {
        switch result {
        case .success(let road): answers[request] = .road(road)
        case .failure(.noRoute): answers[request] = .noRoad
        case .failure(.rateLimited): failures[request] = .rateLimited
        case .failure(.serverError(let detail)), .failure(.answerTooLarge(let detail)): failures[request] = .serverError(detail)
        case .failure(.unreachable(let detail)): failures[request] = .unreachable(detail)
        }
        refresh()
    }

    /// Asks `engine` for every road leg being asked, each leg its own request, at most `concurrency`
    /// at a time. Waiting legs are not asked: see `retry()`.
    public mutating func resolve(using engine: any RoutingEngine, concurrency: Int) async {
        plan.engine = engine.name
        let requests = pendingRequests()
        guard !requests.isEmpty else { return }
        let limit = max(1, concurrency)
        let results = await withTaskGroup(of: (Int, Result<RoadLeg, RoutingError>).self) { group in
            var next = 0
            var collected: [(Int, Result<RoadLeg, RoutingError>)] = []
            while next < min(limit, requests.count) {
                let (k, request) = (next, requests[next])
                group.addTask { (k, await Self.ask(engine, request)) }
                next += 1
            }
            while let result = await group.next() {
                collected.append(result)
                if next < requests.count {
                    let (k, request) = (next, requests[next])
                    group.addTask { (k, await Self.ask(engine, request)) }
                    next += 1
                }
            }
            return collected.sorted { $0.0 < $1.0 }
        }
        for (k, result) in results { receive(result, for: requests[k]) }
    }

    private static func ask(_ engine: any RoutingEngine, _ request: LegRequest) async -> Result<RoadLeg, RoutingError> {
        do {
            return .success(try await engine.route(from: request.from, to: request.to, mode: request.mode))
        } catch let error as RoutingError {
            return .failure(error)
        } catch {
            return .failure(.serverError(String(describing: error)))
        }
    }

    /// Makes every waiting leg asked again by the next `resolve`. The only way a waiting leg is asked.
    public mutating func retry() {
        failures.removeAll()
        refresh()
    }

    /// Recomputes what follows from the handles, the legs and the answers: each leg's answers and
    /// state, then where each tapped or drawn handle sits (the end of a road that meets it nearest
    /// where it was placed). Surveyed handles stay where they were placed.
    mutating func refresh() {
        for i in plan.legs.indices {
            var leg = plan.legs[i]
            leg.answers = [:]
            leg.noRoadModes = []
            for mode in TravelMode.allCases {
                switch answers[request(forLeg: i, mode: mode)] {
                case .road(let road): leg.answers[mode] = road
                case .noRoad: leg.noRoadModes.insert(mode)
                case nil: break
                }
            }
            if leg.kind == .road {
                let current = request(forLeg: i, mode: plan.mode)
                leg.state = leg.answers[plan.mode] != nil ? .road
                    : leg.noRoadModes.contains(plan.mode) ? .noRoad
                    : failures[current] ?? .asked
            } else {
                leg.state = nil
            }
            plan.legs[i] = leg
        }
        for h in plan.handles.indices {
            let handle = plan.handles[h]
            guard !handle.origin.isSurveyed else {
                plan.handles[h].coordinate = handle.placed
                continue
            }
            var ends: [Coordinate] = []
            if h > 0, let end = road(ofLeg: h - 1)?.line.last { ends.append(end) }
            if h < plan.legs.count, let start = road(ofLeg: h)?.line.first { ends.append(start) }
            plan.handles[h].coordinate = ends.min {
                handle.placed.distance(to: $0) < handle.placed.distance(to: $1)
            } ?? handle.placed
        }
    }

    // MARK: Reading the route

    /// The road of leg `index` in the current mode, when it is a road leg and its road has arrived.
    public func road(ofLeg index: Int) -> RoadLeg? {
        let leg = plan.legs[index]
        guard leg.kind == .road, leg.state == .road else { return nil }
        return leg.answers[plan.mode]
    }

    /// Whether leg `index` is drawn as a straight line: by kind, as drawn with no stroke, or a road
    /// leg without its road (being asked, waiting, or with no road).
    public func isStraight(_ index: Int) -> Bool {
        let leg = plan.legs[index]
        switch leg.kind {
        case .straight: return true
        case .asDrawn: return (leg.stroke?.count ?? 0) < 2
        case .road: return road(ofLeg: index) == nil
        }
    }

    /// The line of leg `index` from its start handle to its end handle: the road, the stroke or
    /// nothing between them. Where a road ends away from a handle (a surveyed handle, or one
    /// snapped to the other leg's road) a straight connector joins them.
    public func legLine(_ index: Int) -> [Coordinate] {
        let leg = plan.legs[index]
        var middle: [Coordinate] = []
        if let road = road(ofLeg: index) {
            middle = road.line
        } else if leg.kind == .asDrawn, let stroke = leg.stroke, stroke.count > 1 {
            middle = stroke
        }
        var line: [Coordinate] = []
        for point in [plan.handles[index].coordinate] + middle + [plan.handles[index + 1].coordinate]
        where line.last != point {
            line.append(point)
        }
        return line
    }

    /// The whole route as drawn: every leg's line, joined at the handles.
    public func line() -> [Coordinate] {
        guard !plan.legs.isEmpty else { return plan.handles.map(\.coordinate) }
        var line: [Coordinate] = []
        for i in plan.legs.indices {
            for point in legLine(i) where line.last != point { line.append(point) }
        }
        return line
    }

    /// Metres from the start of the route to each handle, at the boundaries between legs.
    public func handleDistances() -> [Metres] {
        var distances: [Metres] = plan.handles.isEmpty ? [] : [0]
        for i in plan.legs.indices { distances.append(distances[i] + Polyline(legLine(i)).length) }
        return distances
    }

    /// The line and the junctions of every road leg, each junction's distance measured on the whole
    /// route (the leg's start distance and any connector before its road added).
    public func geometry() -> RoadGeometry {
        let starts = handleDistances()
        var junctions: [Junction] = []
        for i in plan.legs.indices {
            guard let road = road(ofLeg: i), let roadStart = road.line.first else { continue }
            let connector = plan.handles[i].coordinate.distance(to: roadStart)
            for var junction in road.junctions {
                junction.distanceAlong += starts[i] + connector
                junctions.append(junction)
            }
        }
        return RoadGeometry(line: line(), junctions: junctions)
    }

    /// The handle notes, each at the distance where the route reaches its handle.
    public func handleNotes() -> [HandleNotePlacement] {
        let distances = handleDistances()
        return plan.handles.indices.compactMap { i in
            plan.handles[i].note.map {
                HandleNotePlacement(handleIndex: i, handleID: plan.handles[i].id, distanceAlong: distances[i],
                                    coordinate: plan.handles[i].coordinate, note: $0)
            }
        }
    }

    /// Distance, travel time and straight legs, as the totals line shows them.
    public var totals: RouteTotals {
        var totals = RouteTotals(distance: 0, travelTime: 0, straightLegs: 0)
        for i in plan.legs.indices {
            totals.distance += Polyline(legLine(i)).length
            if let road = road(ofLeg: i) { totals.travelTime += road.duration }
            if isStraight(i) { totals.straightLegs += 1 }
        }
        return totals
    }

    /// Every road leg is answered: it has its road, or the engine said there is none. Until then the
    /// profile, sharing and saving wait.
    public var isComplete: Bool {
        plan.legs.allSatisfy { $0.kind != .road || $0.state == .road || $0.state == .noRoad }
    }

    /// The status lines for legs without a road: the first leg with no road, then each kind of fault.
    public func messages() -> [RouteMessage] {
        let engine = engineName ?? "The routing engine"
        let states = plan.legs.map(\.state)
        var messages: [RouteMessage] = []
        if let i = states.firstIndex(of: .noRoad) {
            messages.append(.noRoad(mode: plan.mode, from: i + 1, to: i + 2))
        }
        if states.contains(.rateLimited) { messages.append(.rateLimited(engine: engine)) }
        for state in states {
            if case .serverError(let detail) = state {
                messages.append(.serverError(detail: detail))
                break
            }
        }
        if states.contains(where: { if case .unreachable = $0 { true } else { false } }) {
            messages.append(.unreachable(engine: engine))
        }
        return messages
    }

    /// What is worth saying about leg `index`'s road: the warnings first, then the information. Only a
    /// road leg whose road has arrived has findings.
    public func findings(forLeg index: Int) -> [LegFinding] {
        placedFindings(forLeg: index).map(\.finding)
    }

    /// `findings(forLeg:)`, each with the point of the leg's road it is about: for `farFromDrawn`
    /// the point of the road nearest the drawn point farthest from it (where the distance it
    /// gives is measured), for `loopsBack` the end of the road at the handle it comes back to;
    /// none for `longerThanStraight`, which is about the whole leg.
    public func placedFindings(forLeg index: Int) -> [(finding: LegFinding, place: Coordinate?)] {
        guard let road = road(ofLeg: index), road.line.count > 1 else { return [] }
        let leg = plan.legs[index]
        let start = plan.handles[index], end = plan.handles[index + 1]
        var findings: [(finding: LegFinding, place: Coordinate?)] = []
        let drawn = (leg.stroke ?? []) + [start.placed, end.placed]
        if let far = RouteWarnings.farthest(of: drawn, from: road.line), far.distance > configuration.farFromDrawnDistance {
            findings.append((.farFromDrawn(distance: far.distance), far.onLine))
        }
        for (point, number) in [(road.line[0], index + 1), (road.line[road.line.count - 1], index + 2)]
        where RouteWarnings.visits(of: road.line, to: point, radius: configuration.loopRadius,
                                   leaveDistance: configuration.loopLeaveDistance) > 1 {
            findings.append((.loopsBack(handle: number), point))
        }
        let straight = start.coordinate.distance(to: end.coordinate)
        if straight > 0 {
            let ratio = Polyline(legLine(index)).length / straight
            if ratio >= configuration.longerThanStraightRatio { findings.append((.longerThanStraight(ratio: ratio), nil)) }
        }
        return findings
    }
}

/// A replacement of one stretch of an array: `count` elements from `start` give way to
/// `replacement`. The undo history stores these instead of whole arrays.
struct Splice<Element: Equatable & Sendable>: Sendable, Equatable {
    var start: Int
    var count: Int
    var replacement: [Element]

    /// The splice that turns `after` back into `before`: everything between their common start and
    /// common end. O(n) comparisons; holds only the elements that differ.
    init(from after: [Element], backTo before: [Element]) {
        var prefix = 0
        while prefix < after.count, prefix < before.count, after[prefix] == before[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < after.count - prefix, suffix < before.count - prefix,
              after[after.count - 1 - suffix] == before[before.count - 1 - suffix] { suffix += 1 }
        start = prefix
        count = after.count - prefix - suffix
        replacement = Array(before[prefix..<(before.count - suffix)])
    }

    /// Applies the splice to `array` and returns the splice that takes it back.
    func apply(to array: inout [Element]) -> Splice {
        let range = start..<min(start + count, array.count)
        let removed = Array(array[range])
        array.replaceSubrange(range, with: replacement)
        var inverse = self
        inverse.count = replacement.count
        inverse.replacement = removed
        return inverse
    }
}
