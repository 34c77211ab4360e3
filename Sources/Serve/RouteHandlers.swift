import Foundation
import Geo
import Model
import Workflows

// The route half of the editor's API: the handles of the drawing (`handles`), the drawing made the
// book's route (`apply`), and the roads of the map under it (`roads`), each through the operation
// the command line calls (`DraftSession.edit`, `ApplyWorkflow.applyDrawing`, `MapRoads`).

extension Editor {
    /// The most segments `GET /api/roads` answers with.
    static let roadSegmentLimit = 20_000

    // MARK: POST /api/handles

    /// One change of the drawing, as `roadbook handles BOOK …` makes it, with the legs it asked of
    /// the engine numbered from 1 as `handles list` numbers them.
    func handles(_ request: ServerRequest) -> ServerResponse {
        let change: HandlesChange
        do { change = try Self.handlesChange(RequestBody(request.body)) } catch {
            return failure(error)
        }
        do {
            let (summary, asked, warnings) = try Self.waiting { [settings] in
                let log = MessageList()
                var asked = Set<Int>()
                var last: RouteSummary?
                for edit in try await change.edits(of: settings.book, log: log) {
                    let summary = try await DraftSession.edit(settings.book, edit, engine: settings.engine, log: log)
                    asked.formUnion(summary.askedLegs)
                    last = summary
                }
                guard let last else { throw WorkflowError("the legs of that handle are \(change.kindWord) already: nothing to change") }
                return (last, asked.sorted(), log.warnings.map(\.text))
            }
            let message = ([summary.undoName ?? "Done"] + warnings).joined(separator: "; ")
            return .json(200, HandlesChanged(revision: try currentBookRevision(), message: message,
                                             askedLegs: asked.map { $0 + 1 },
                                             handles: BookView.handles(summary.plan), legs: BookView.legs(summary.plan),
                                             warnings: summary.warnings.map(BookView.Warning.init)))
        } catch {
            return failure(error)
        }
    }

    /// What a handles body asks for: one edit, or the kind of the legs that meet a handle.
    enum HandlesChange: Sendable {
        case edit(HandleEdit)
        /// `kind` with a handle (`index`): each leg that meets it, one step each.
        case kindAround(handle: Int, LegKind)

        var kindWord: String {
            if case .kindAround(_, let kind) = self { return kind.rawValue }
            return ""
        }

        /// The edits to make, in order.
        func edits(of book: URL, log: any WorkflowLog) async throws -> [HandleEdit] {
            switch self {
            case .edit(let edit): return [edit]
            case .kindAround(let handle, let kind):
                let legs = try DraftSession.summary(of: book, log: log).legs
                guard handle <= legs.count + 1, !legs.isEmpty else {
                    throw WorkflowError(legs.isEmpty ? "there is no leg at handle \(handle): the route has no legs (it needs two handles)"
                                        : "there is no handle \(handle): the route has handles 1 to \(legs.count + 1)")
                }
                // Leg N runs from handle N to N + 1: handle N meets legs N - 1 and N.
                return [handle - 1, handle].filter { (1...legs.count).contains($0) && legs[$0 - 1].kind != kind }
                    .map { .kind(leg: $0, kind) }
            }
        }
    }

    /// The `op`s of POST /api/handles: every change `roadbook handles` makes but its own undo and
    /// redo (the page's Undo and Redo take back any change, as `roadbook undo` does).
    static let handleOps = ["move", "add", "remove", "split", "reorder", "reverse", "kind", "mode", "note", "unnote",
                            "newLegs", "clear", "retry"]

    /// The change a handles body asks for.
    /// - Throws: `RequestBody.Refusal` naming the field at fault.
    static func handlesChange(_ body: RequestBody) throws -> HandlesChange {
        func number(_ field: String) throws -> Int {
            let n = try body.integer(always: field)
            guard n >= 1 else { throw RequestBody.Refusal(message: "field '\(field)' must be a number from 1") }
            return n
        }
        func legKind() throws -> LegKind {
            let word = try body.string(always: "kind")
            guard let kind = LegKind(rawValue: word) else {
                throw RequestBody.Refusal(message: "field 'kind': '\(word.prefix(40))' is not one of road, straight, asDrawn")
            }
            return kind
        }
        switch try body.string(always: "op") {
        case "move":
            return .edit(.move(handle: try number("index"), to: try body.coordinate()))
        case "add":
            let at = body.has("at") ? try number("at") : nil
            // A point chosen on the map is a tap: the handle moves onto the road, as a place found by name does.
            return .edit(.add(try body.coordinate(), position: at, origin: .tapped, note: nil))
        case "remove":
            return .edit(.remove(handle: try number("index")))
        case "split":
            let leg = try number("leg")
            return .edit(.split(leg: leg, at: body.has("lat") || body.has("lon") ? try body.coordinate() : nil))
        case "note":
            let text = try body.string(always: "text")
            return .edit(.note(handle: try number("index"), HandleNote(text: text, marker: try body.string("marker"))))
        case "kind":
            let kind = try legKind()
            if body.has("leg") { return .edit(.kind(leg: try number("leg"), kind)) }
            guard body.has("index") else { throw RequestBody.Refusal(message: "field 'leg' (or 'index', a handle) is missing") }
            return .kindAround(handle: try number("index"), kind)
        case "reorder":
            return .edit(.reorder(handle: try number("index"), to: try number("to")))
        case "reverse":
            return .edit(.reverse)
        case "mode":
            let word = try body.string(always: "mode")
            guard let mode = TravelMode(rawValue: word) else {
                throw RequestBody.Refusal(message: "field 'mode': '\(word.prefix(40))' is not one of \(TravelMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return .edit(.mode(mode))
        case "unnote":
            return .edit(.unnote(handle: try number("index")))
        case "newLegs":
            return .edit(.newLegs(try legKind()))
        case "clear":
            return .edit(.clear)
        case "retry":
            return .edit(.retry)
        case let other:
            throw RequestBody.Refusal(message: "field 'op': '\(other.prefix(40))' is not one of \(Self.handleOps.joined(separator: ", "))")
        }
    }

    struct HandlesChanged: Encodable {
        var revision: Int
        var message: String
        var askedLegs: [Int]
        /// The drawing as it now is, as GET /api/book gives it: the page draws the new legs at
        /// once, before it reads the whole book again.
        var handles: [BookView.HandleView]
        var legs: [BookView.Leg]
        /// The legs' warnings, each at its place, as GET /api/book gives them.
        var warnings: [BookView.Warning]
    }

    // MARK: POST /api/apply

    /// The drawing made the book's route, as `roadbook apply BOOK` makes it with its defaults,
    /// the turns read from `--osm` and the heights from `--dem`/`--elevation`.
    func apply() -> ServerResponse {
        do {
            let report = try Self.waiting { [settings] in
                let options = ApplyOptions(offRoute: .keep, turns: .fromBook, osm: settings.osm, terrain: settings.terrain)
                return try await ApplyWorkflow.applyDrawing(to: settings.book, options: options, log: MessageList())
            }
            return .json(200, Changed(revision: try currentBookRevision(), message: (report.details + [report.summary]).joined(separator: "; ")))
        } catch {
            return failure(error)
        }
    }

    // MARK: GET /api/roads

    /// The roads of `--osm` inside the box `south`, `west`, `north`, `east`; none without `--osm`.
    func roads(_ request: ServerRequest) -> ServerResponse {
        struct Road: Encodable {
            var `class`: String
            var line: [[Double]]
        }
        struct Roads: Encodable { var roads: [Road] }
        let box: MapBox
        do { box = try Self.box(request.query) } catch {
            return failure(error)
        }
        guard let mapRoads else { return .json(200, Roads(roads: [])) }
        do {
            let roads = try mapRoads.roads(in: box, limit: Self.roadSegmentLimit)
            return .json(200, Roads(roads: roads.map { road in
                Road(class: road.roadClass.rawValue, line: road.line.map { [Self.rounded($0.latitude), Self.rounded($0.longitude)] })
            }))
        } catch let error as WorkflowError {
            return .error(400, error.message)
        } catch {
            return failure(error)
        }
    }

    /// The box of a roads query.
    /// - Throws: `RequestBody.Refusal` naming the argument at fault.
    static func box(_ query: [String: String]) throws -> MapBox {
        func degrees(_ name: String, _ range: ClosedRange<Double>) throws -> Double {
            guard let text = query[name] else { throw RequestBody.Refusal(message: "argument '\(name)' is missing") }
            guard let value = Double(text), value.isFinite, range.contains(value) else {
                throw RequestBody.Refusal(message: "argument '\(name)' must be a number from \(Int(range.lowerBound)) to \(Int(range.upperBound))")
            }
            return value
        }
        let box = MapBox(south: try degrees("south", -90...90), west: try degrees("west", -180...180),
                         north: try degrees("north", -90...90), east: try degrees("east", -180...180))
        guard box.south <= box.north else { throw RequestBody.Refusal(message: "argument 'south' must not be north of 'north'") }
        guard box.west <= box.east else { throw RequestBody.Refusal(message: "argument 'west' must not be east of 'east'") }
        // The same box is refused with or without --osm.
        guard box.north - box.south <= MapRoads.largestBox, box.east - box.west <= MapRoads.largestBox else {
            throw RequestBody.Refusal(message: String(format: "the box is %.2f° by %.2f°: roads are given for boxes up to %g° a side",
                                                      box.north - box.south, box.east - box.west, MapRoads.largestBox))
        }
        return box
    }

    /// Degrees to 6 decimals (about 0.1 m): the map needs no more, and the answer stays small.
    static func rounded(_ degrees: Double) -> Double { (degrees * 1e6).rounded() / 1e6 }

    // MARK: Waiting

    func currentBookRevision() throws -> Int { try BookRead(settings.book).revision }

    /// Runs `work` and waits for it: a handler runs on a Dispatch queue of its own, with its
    /// connection suspended, so waiting holds no other request up. A caller must not be a task of
    /// Swift's concurrency pool (`work` may need its threads): the server never is, and tests
    /// call `respond(to:)` on a Dispatch queue.
    static func waiting<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = WaitedOutcome<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { outcome.result = .success(try await work()) } catch { outcome.result = .failure(error) }
            done.signal()
        }
        done.wait()
        guard let result = outcome.result else { throw WorkflowError("the change did not finish") }
        return try result.get()
    }
}

/// What `Editor.waiting` waited for, written once by its task before the semaphore is signalled.
private final class WaitedOutcome<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
