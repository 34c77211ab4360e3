import Foundation
import Geo
import Model

extension RouteEditor {
    /// What an editor remembers beyond its plan, as a value that can be stored and given back:
    /// the undo and redo steps with their names, every road (or "no road") received per leg ends and
    /// mode, and the requests that wait for `retry()`. An editor reopened with its plan and its
    /// history undoes, redoes and reuses roads exactly as the one that was saved: nothing already
    /// answered is asked again.
    ///
    /// Its JSON: `{"undo": [STEP…], "redo": [STEP…], "answers": [ANSWER…], "waiting": [WAIT…]}`, each
    /// list oldest first. A step is `{"name", "mode", "handles": SPLICE, "legs": SPLICE}`, a splice
    /// `{"start", "count", "replacement": […]}`: the `count` elements from `start` give way to
    /// `replacement` when the step is taken. An answer is `{"from", "to", "mode", "road": ROAD}` or
    /// `{"from", "to", "mode", "noRoad": true}`; a wait `{"from", "to", "mode", "state", "detail"}`.
    public struct History: Codable, Sendable, Equatable {
        var undo: [Step]
        var redo: [Step]
        var answers: [StoredAnswer]
        var waiting: [StoredWait]

        /// An empty history: nothing to undo or redo, no road received.
        public init() {
            undo = []
            redo = []
            answers = []
            waiting = []
        }

        /// The names of the steps `undo()` would take back, oldest first.
        public var undoNames: [String] { undo.map(\.name) }
        /// The names of the steps `redo()` would make again, the next one last.
        public var redoNames: [String] { redo.map(\.name) }
        /// Roads and "no road" answers remembered.
        public var answerCount: Int { answers.count }

        /// The undo and redo steps kept.
        public var stepCount: Int { undo.count + redo.count }

        /// Forgets the roads received for every request but `kept`. Those the steps' legs hold come
        /// back when the history is reopened (`init(plan:history:)`); the others only spared asking
        /// the engine again for a leg whose ends come back exactly where they were.
        public mutating func forgetAnswers(except kept: Set<LegRequest>) {
            answers.removeAll { !kept.contains($0.request) }
        }

        /// Drops the oldest undo steps, and the redo steps farthest from the plan, so at most
        /// `maximum` steps are kept in all. The steps kept still lead from the plan, so what is
        /// left undoes and redoes as before. Undo steps are kept before redo steps.
        public mutating func keepNewest(_ maximum: Int) {
            let keptUndo = min(undo.count, max(0, maximum))
            undo.removeFirst(undo.count - keptUndo)
            let keptRedo = min(redo.count, max(0, maximum - keptUndo))
            redo.removeFirst(redo.count - keptRedo)
        }
    }

    /// A stored history that cannot belong to the plan it came with: the field, as a path into
    /// the stored JSON (`history.undo[3].handles.start`), and what is wrong (as a book's values are
    /// reported).
    public typealias HistoryError = BookValidationError

    /// The history of this editor, to store beside its plan.
    public var history: History {
        var history = History()
        history.undo = undoSteps
        history.redo = redoSteps
        history.answers = answers.map { StoredAnswer(request: $0.key, answer: $0.value) }
            .sorted { $0.order.lexicographicallyPrecedes($1.order) }
        history.waiting = failures.map { StoredWait(request: $0.key, state: $0.value) }
            .sorted { $0.order.lexicographicallyPrecedes($1.order) }
        return history
    }

    /// Reopens a plan with its stored history: the editor undoes and redoes the stored steps and
    /// reuses every stored road.
    ///
    /// Everything is checked before it is used, so a history from a file never traps: the plan has
    /// one leg fewer than handles; each step, taken in turn from the plan (undo steps newest first,
    /// then redo steps from the plan again), fits the handles and legs it replaces and leaves one leg
    /// fewer than handles; every stored handle, leg and road passes `RoutePlan.validate()`.
    /// O(steps × handles) for the walk, plus the size of the stored roads.
    /// - Throws: `HistoryError` naming the first field at fault (`plan.…` for the plan, `history.…`
    ///   for the history).
    public init(plan: RoutePlan, history: History, configuration: Configuration = Configuration()) throws(HistoryError) {
        try Self.check(plan, "plan")
        guard plan.legs.count == max(0, plan.handles.count - 1) else {
            throw HistoryError(field: "plan.legs", "has \(plan.legs.count) legs for \(plan.handles.count) handles: there is one leg between each two handles")
        }
        let undoRoads = try Self.walk(history.undo, from: plan, "history.undo")
        let redoRoads = try Self.walk(history.redo, from: plan, "history.redo")
        for (i, stored) in history.answers.enumerated() { try stored.check("history.answers[\(i)]") }
        for (i, stored) in history.waiting.enumerated() { try stored.check("history.waiting[\(i)]") }
        self.init(plan: plan, configuration: configuration)
        // The roads the steps' legs hold, found again for the requests of the plans the steps
        // lead back to: undo and redo after reopening find them as the editor that saved them
        // did, and the stored answers need not repeat them.
        answers.merge(undoRoads) { _, step in step }
        answers.merge(redoRoads) { _, step in step }
        for stored in history.answers { answers[stored.request] = stored.answer }
        for stored in history.waiting where failures[stored.request] == nil { failures[stored.request] = stored.state }
        undoSteps = history.undo
        redoSteps = history.redo
        refresh()
    }

    /// Checks `plan` with `RoutePlan.validate()`, its fields named from `field`.
    private static func check(_ plan: RoutePlan, _ field: String) throws(HistoryError) {
        do { try plan.validate() } catch {
            throw HistoryError(field: rename(error.field, to: field), String(error.message.dropFirst(error.field.count + 1)))
        }
    }

    /// `plan.legs[0].stroke` as `history.undo[3].legs.replacement[0].stroke`: the field under `to`.
    private static func rename(_ field: String, to prefix: String) -> String {
        field.hasPrefix("plan") ? prefix + field.dropFirst("plan".count) : prefix
    }

    /// Takes `steps` (the one taken first last, as the editor stacks them) in turn from `plan`,
    /// checking each fits and leaves a plan with one leg fewer than handles; returns the roads
    /// (and "no road" answers) the legs each step puts back hold, by the request of the plan it
    /// leads to.
    private static func walk(_ steps: [Step], from plan: RoutePlan, _ field: String) throws(HistoryError) -> [LegRequest: Answer] {
        var plan = plan
        var roads: [LegRequest: Answer] = [:]
        for k in steps.indices.reversed() {
            let step = steps[k], at = "\(field)[\(k)]"
            try checkLine(step.name, "\(at).name")
            try step.handles.checkFits(plan.handles.count, "\(at).handles")
            try step.legs.checkFits(plan.legs.count, "\(at).legs")
            _ = step.apply(to: &plan)
            guard plan.legs.count == max(0, plan.handles.count - 1) else {
                throw HistoryError(field: at, "leaves \(plan.handles.count) handles and \(plan.legs.count) legs: there is one leg between each two handles")
            }
            guard plan.handles.count <= BookLimits.maximumHandles else {
                throw HistoryError(field: at, "leaves \(plan.handles.count) handles; a route has at most \(BookLimits.maximumHandles)")
            }
            // The stored handles and legs, checked as a plan of their own: handles with no legs,
            // then legs between stand-in handles.
            try check(RoutePlan(handles: step.handles.replacement), "\(at).handles.replacement")
            let standIns = (0...step.legs.replacement.count).map {
                Handle(id: $0 + 1, coordinate: Coordinate(latitude: 0, longitude: 0), origin: .tapped)
            }
            do { try RoutePlan(handles: standIns, legs: step.legs.replacement).validate() } catch {
                let field = error.field.replacingOccurrences(of: "plan.legs", with: "\(at).legs.replacement")
                throw HistoryError(field: field, String(error.message.dropFirst(error.field.count + 1)))
            }
            let first = step.legs.start
            for i in first..<min(first + step.legs.replacement.count, plan.legs.count) where i + 1 < plan.handles.count {
                let from = plan.handles[i].placed, to = plan.handles[i + 1].placed
                for (mode, road) in plan.legs[i].answers { roads[LegRequest(from: from, to: to, mode: mode)] = .road(road) }
                for mode in plan.legs[i].noRoadModes { roads[LegRequest(from: from, to: to, mode: mode)] = .noRoad }
            }
        }
        return roads
    }

    fileprivate static func checkLine(_ text: String, _ field: String) throws(HistoryError) {
        guard text.count <= BookLimits.maximumLineLength else {
            throw HistoryError(field: field, "has \(text.count) characters; at most \(BookLimits.maximumLineLength)")
        }
    }
}

extension RouteEditor.Step: Codable {
    private enum CodingKeys: String, CodingKey { case name, mode, handles, legs }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        mode = try c.decode(TravelMode.self, forKey: .mode)
        handles = try c.decode(Splice<Handle>.self, forKey: .handles)
        legs = try c.decode(Splice<PlannedLeg>.self, forKey: .legs)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(mode, forKey: .mode)
        try c.encode(handles, forKey: .handles)
        try c.encode(legs, forKey: .legs)
    }
}

extension Splice: Codable where Element: Codable {
    private enum CodingKeys: String, CodingKey { case start, count, replacement }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        start = try c.decode(Int.self, forKey: .start)
        count = try c.decode(Int.self, forKey: .count)
        replacement = try c.decode([Element].self, forKey: .replacement)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(start, forKey: .start)
        try c.encode(count, forKey: .count)
        try c.encode(replacement, forKey: .replacement)
    }
}

extension Splice {
    /// Checks the splice replaces elements an array of `length` has.
    func checkFits(_ length: Int, _ field: String) throws(RouteEditor.HistoryError) {
        guard start >= 0, start <= length else {
            throw RouteEditor.HistoryError(field: "\(field).start", "is \(start), but the step is taken on \(length) of them")
        }
        guard count >= 0, count <= length - start else {
            throw RouteEditor.HistoryError(field: "\(field).count", "is \(count), but only \(length - start) follow start \(start)")
        }
    }
}

extension RouteEditor.LegRequest {
    /// The request stored under the `from`, `to` and `mode` keys of a container.
    static func decode<Key: CodingKey>(from c: KeyedDecodingContainer<Key>, from: Key, to: Key, mode: Key) throws -> Self {
        Self(from: try c.decode(Coordinate.self, forKey: from), to: try c.decode(Coordinate.self, forKey: to),
             mode: try c.decode(TravelMode.self, forKey: mode))
    }
}

/// One remembered answer: a road, or the engine's "no road", for a leg's ends and mode.
struct StoredAnswer: Codable, Sendable, Equatable {
    var request: RouteEditor.LegRequest
    var answer: RouteEditor.Answer

    init(request: RouteEditor.LegRequest, answer: RouteEditor.Answer) {
        self.request = request
        self.answer = answer
    }

    private enum CodingKeys: String, CodingKey { case from, to, mode, road, noRoad }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        request = try .decode(from: c, from: .from, to: .to, mode: .mode)
        if let road = try c.decodeIfPresent(RoadLeg.self, forKey: .road) {
            answer = .road(road)
        } else if try c.decodeIfPresent(Bool.self, forKey: .noRoad) == true {
            answer = .noRoad
        } else {
            throw DecodingError.keyNotFound(CodingKeys.road, .init(codingPath: c.codingPath,
                debugDescription: "an answer is a road or \"noRoad\": true"))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(request.from, forKey: .from)
        try c.encode(request.to, forKey: .to)
        try c.encode(request.mode, forKey: .mode)
        switch answer {
        case .road(let road): try c.encode(road, forKey: .road)
        case .noRoad: try c.encode(true, forKey: .noRoad)
        }
    }

    /// A stable order for the file: by mode, then ends, so two saves give the same bytes.
    var order: [Double] { request.order }

    /// The road checked as a road leg of a plan between the request's ends.
    func check(_ field: String) throws(RouteEditor.HistoryError) {
        let ends = [request.from, request.to].enumerated().map { Handle(id: $0.offset + 1, coordinate: $0.element, origin: .tapped) }
        var leg = PlannedLeg(kind: .road)
        if case .road(let road) = answer { leg.answers[request.mode] = road }
        do { try RoutePlan(handles: ends, legs: [leg]).validate() } catch {
            let renamed = error.field
                .replacingOccurrences(of: "plan.handles[0].coordinate", with: "\(field).from")
                .replacingOccurrences(of: "plan.handles[1].coordinate", with: "\(field).to")
                .replacingOccurrences(of: "plan.legs[0].answers.\(request.mode.rawValue)", with: "\(field).road")
            throw RouteEditor.HistoryError(field: renamed, String(error.message.dropFirst(error.field.count + 1)))
        }
    }
}

/// One request that waits for `retry()`, and the fault that made it wait.
struct StoredWait: Codable, Sendable, Equatable {
    var request: RouteEditor.LegRequest
    var state: LegState

    init(request: RouteEditor.LegRequest, state: LegState) {
        self.request = request
        self.state = state
    }

    private enum CodingKeys: String, CodingKey { case from, to, mode, state, detail }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        request = try .decode(from: c, from: .from, to: .to, mode: .mode)
        let name = try c.decode(String.self, forKey: .state)
        guard let state = LegState(name: name, detail: try c.decodeIfPresent(String.self, forKey: .detail)),
              state.waitsForRetry else {
            throw DecodingError.dataCorruptedError(forKey: .state, in: c,
                debugDescription: "'\(name)' is not a state that waits (rateLimited, serverError or unreachable)")
        }
        self.state = state
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(request.from, forKey: .from)
        try c.encode(request.to, forKey: .to)
        try c.encode(request.mode, forKey: .mode)
        try c.encode(state.name, forKey: .state)
        try c.encodeIfPresent(state.detail, forKey: .detail)
    }

    var order: [Double] { request.order }

    func check(_ field: String) throws(RouteEditor.HistoryError) {
        for (c, name) in [(request.from, "from"), (request.to, "to")] where !c.isValid {
            throw RouteEditor.HistoryError(field: "\(field).\(name)", "latitude must be within ±90 and longitude within ±180")
        }
        if let detail = state.detail { try RouteEditor.checkLine(detail, "\(field).detail") }
    }
}

extension RouteEditor.LegRequest {
    /// Mode, then the ends' coordinates: a total order for writing answers in a stable order.
    fileprivate var order: [Double] {
        [Double(TravelMode.allCases.firstIndex(of: mode) ?? 0), from.latitude, from.longitude, to.latitude, to.longitude]
    }
}
