import BookAssembly
import Foundation
import Formats
import Geo
import Model
import RouteEditing
import Testing
import TestSupport
import Workflows

/// The route draft through the library: where it lives, what it holds, whose it is.
@Suite("The route draft beside a book")
struct RouteDraftTests {
    static let grid = MetreGrid(origin: .init(latitude: 42.5, longitude: 1.5))

    /// A book of a straight 2 km route with a plan of three straight legs' handles, written to `folder`.
    static func book(in folder: TemporaryFolder, id: String? = UUID().uuidString) throws -> (URL, Book) {
        var editor = RouteEditor()
        editor.setDefaultLegKind(.straight)
        for x in [0.0, 1000, 2000] { editor.addHandle(at: grid(x, 0)) }
        var book = assembleRouteBook(title: "Draft", editor: editor, turns: false)
        book.id = id
        let url = folder.path("b.json")
        try BookFile.write(book, to: url)
        return (url, book)
    }

    @Test("the draft sits beside the book, named after it")
    func where_() {
        #expect(RouteDraft.url(for: URL(fileURLWithPath: "/out/x.json")).path == "/out/x.draft.json")
        #expect(RouteDraft.url(for: URL(fileURLWithPath: "/out/x.JSON")).path == "/out/x.draft.json")
        #expect(RouteDraft.url(for: URL(fileURLWithPath: "/out/x.book")).path == "/out/x.book.draft.json")
        #expect(RouteDraft.url(for: URL(fileURLWithPath: "/out/x")).path == "/out/x.draft.json")
    }

    @Test("saved and loaded, the draft holds its book's id, the plan, and the named history")
    func roundTrip() throws {
        let folder = try TemporaryFolder()
        let (url, book) = try Self.book(in: folder)
        #expect(try RouteDraft.load(for: url, expecting: book.id) == nil, "no draft yet")
        var editor = RouteDraft.startingEditor(for: book)
        editor.removeHandle(1)
        try RouteDraft(editor: editor, bookID: book.id!).save(for: url)
        let loaded = try #require(try RouteDraft.load(for: url, expecting: book.id))
        #expect(loaded.bookID == book.id && loaded.editor.plan == editor.plan && loaded.editor.undoName == "Remove handle 2")
        try RouteDraft.remove(for: url)
        #expect(try RouteDraft.load(for: url, expecting: book.id) == nil)
        try RouteDraft.remove(for: url)
    }

    @Test("a draft made for another book is refused, naming both files; so is any draft beside a book without an id")
    func otherBook() throws {
        let folder = try TemporaryFolder()
        let (url, book) = try Self.book(in: folder)
        try RouteDraft(editor: RouteDraft.startingEditor(for: book), bookID: UUID().uuidString).save(for: url)
        #expect {
            try RouteDraft.load(for: url, expecting: book.id)
        } throws: { error in
            let text = "\(error)"
            return text.contains(RouteDraft.url(for: url).path) && text.contains("but \(url.path) is book \(book.id!)")
        }
        #expect(throws: WorkflowError.self) { try RouteDraft.load(for: url, expecting: nil) }
    }

    @Test("a new draft starts from the book's plan; a book from a track starts traced, its on-route waypoints handles with their words")
    func starting() throws {
        let folder = try TemporaryFolder()
        let (_, planned) = try Self.book(in: folder)
        #expect(RouteDraft.startingEditor(for: planned).plan == planned.plan)

        let line = Self.grid.line([(0, 0), (4000, 0)], step: 50)
        var track = Book(title: "Track", route: Route(points: line.map { RoutePoint(coordinate: $0) }))
        track.notes = [
            Note(id: 1, kind: .checkpoint, distanceAlong: 1600, coordinate: Self.grid(1600, 10), text: "Control", marker: "CP1"),
            Note(id: 2, kind: .typed, distanceAlong: 2500, coordinate: Self.grid(2500, 0), text: "Typed words stay a note"),
            Note(id: 3, kind: .waypoint, distanceAlong: 3000, coordinate: Self.grid(3000, 900), placement: .offRoute, text: "Far"),
        ]
        let editor = RouteDraft.startingEditor(for: track)
        let handles = editor.plan.handles
        #expect(handles.filter { $0.origin == .drawn }.count == 10, "4 km at 400 m: 11 stops, the one at 1,600 m replaced by the checkpoint there")
        #expect(handles.filter { $0.origin == .waypoint }.map(\.note) == [HandleNote(text: "Control", marker: "CP1")])
        #expect(handles.first { $0.origin == .waypoint }.map { $0.coordinate.distance(to: Self.grid(1600, 0)) < 0.01 } == true,
                "the waypoint's handle is where the route passes it, not 10 m beside it")
        #expect(editor.plan.legs.allSatisfy { $0.kind == .asDrawn }, "the traced draft draws the route it came from")
    }

    @Test("opening writes nothing; the first save gives a book without an id one, and the draft names it")
    func session() async throws {
        let folder = try TemporaryFolder()
        let (url, _) = try Self.book(in: folder, id: nil)
        let log = MessageList()
        var session = try DraftSession.open(book: url, log: log)
        #expect(!session.restored && !FileManager.default.fileExists(atPath: RouteDraft.url(for: url).path))
        #expect(try BookFile.read(contentsOf: url).id == nil)
        try await session.perform(.remove(handle: 2), engine: nil, log: log)
        let id = try #require(try BookFile.read(contentsOf: url).id)
        #expect(session.draft.bookID == id)
        let reopened = try DraftSession.open(book: url, log: log)
        #expect(reopened.restored && reopened.draft.editor.undoName == "Remove handle 2")
        #expect(log.messages.last?.text.hasPrefix("Unfinished drawing restored") == true)
    }

    @Test("an edit the route cannot take is refused and nothing is saved")
    func refusedEdit() async throws {
        let folder = try TemporaryFolder()
        let (url, _) = try Self.book(in: folder)
        var session = try DraftSession.open(book: url, log: MessageList())
        await #expect(throws: WorkflowError("there is no handle 4: the route has handles 1 to 3")) {
            try await session.perform(.move(handle: 4, to: Self.grid(0, 0)), engine: nil, log: MessageList())
        }
        await #expect(throws: WorkflowError("nothing to undo")) {
            try await session.perform(.undo, engine: nil, log: MessageList())
        }
        #expect(!FileManager.default.fileExists(atPath: RouteDraft.url(for: url).path))
    }

    @Test("a handle added before the first, or in the middle, is one step, and undo takes it back")
    func insert() throws {
        let folder = try TemporaryFolder()
        let (_, book) = try Self.book(in: folder)
        var editor = RouteDraft.startingEditor(for: book)
        try HandleEdit.add(Self.grid(-500, 0), position: 1, origin: .coordinate, note: nil).apply(to: &editor)
        #expect(editor.plan.handles.count == 4 && editor.plan.legs.count == 3 && editor.undoName == "Add handle 1")
        try HandleEdit.add(Self.grid(500, 0), position: 3, origin: .coordinate, note: HandleNote(text: "Ford")).apply(to: &editor)
        #expect(editor.plan.handles[2].note?.text == "Ford" && editor.undoName == "Add handle 3")
        try HandleEdit.undo.apply(to: &editor)
        try HandleEdit.undo.apply(to: &editor)
        #expect(editor.plan == book.plan)
    }

    @Test("a drawing dragged for hours is written under its bound by dropping the oldest steps; the plan and the newest steps read back whole")
    func boundedDraft() throws {
        var editor = RouteEditor()
        editor.setDefaultLegKind(.road)
        editor.addHandle(at: Self.grid(0, 0))
        editor.addHandle(at: Self.grid(2000, 0))
        /// A road of 2,000 points from the leg's start to its end, bending through `x` north.
        func answer(_ editor: inout RouteEditor, bend: Double) {
            for request in editor.pendingRequests() {
                let line = (0...1999).map { i -> Coordinate in
                    let t = Double(i) / 1999
                    let start = Self.grid.frame.project(request.from), end = Self.grid.frame.project(request.to)
                    return Self.grid(start.x + (end.x - start.x) * t, start.y + (end.y - start.y) * t + bend * sin(t * .pi))
                }
                let length = Polyline(line).length
                editor.receive(.success(RoadLeg(line: line, distance: length, duration: length / 10)), for: request)
            }
        }
        answer(&editor, bend: 0)
        var plans = [editor.plan]
        for move in 1...20 {
            editor.moveHandle(1, to: Self.grid(2000, Double(move) * 10))
            answer(&editor, bend: Double(move))
            plans.append(editor.plan)
        }
        let draft = RouteDraft(editor: editor, bookID: UUID().uuidString)
        let whole = try draft.encode()
        var configuration = RouteDraft.Configuration()
        configuration.maximumWrittenSize = 1_000_000
        #expect(whole.count > 3 * configuration.maximumWrittenSize, "the test's drawing is not large enough to bind: \(whole.count) bytes")
        let bounded = try draft.encode(configuration: configuration)
        #expect(bounded.count <= configuration.maximumWrittenSize)
        let read = try RouteDraft.decode(bounded, fileName: "b.draft.json", configuration: configuration)
        #expect(read.editor.plan == editor.plan)
        // The steps kept are the newest, and each undoes to the plan it was made from.
        var undone = read.editor
        let kept = read.editor.history.undoNames.count
        #expect(kept >= 1 && kept < 20)
        for back in 1...kept {
            undone.undo()
            #expect(undone.plan.handles == plans[20 - back].handles, "undo \(back) of \(kept)")
        }
    }

    @Test("a reopened draft undoes and redoes every drag with the roads its steps hold: nothing is asked, and no road is written twice")
    func roadsWrittenOnce() async throws {
        var editor = RouteEditor()
        editor.setDefaultLegKind(.road)
        for x in [0.0, 1000, 2000] { editor.addHandle(at: Self.grid(x, 0)) }
        let engine = CountingEngine()
        await editor.resolve(using: engine, concurrency: 2)
        for move in 1...6 {
            editor.moveHandle(1, to: Self.grid(1000, Double(move) * 50))
            await editor.resolve(using: engine, concurrency: 2)
        }
        #expect(engine.count == 2 + 6 * 2)
        let draft = RouteDraft(editor: editor, bookID: UUID().uuidString)
        let bytes = try draft.encode()
        // Answers are written for the plan's two legs only; each drag's roads are in its step.
        struct Stored: Decodable { struct History: Decodable { var answers: [AnyDecodable] }; var history: History }
        struct AnyDecodable: Decodable { init(from decoder: any Decoder) throws {} }
        #expect(try JSONDecoder().decode(Stored.self, from: bytes).history.answers.count == 2)
        var reopened = try RouteDraft.decode(bytes, fileName: "b.draft.json").editor
        for _ in 1...6 {
            reopened.undo()
            #expect(reopened.pendingRequests().isEmpty, "undo asks nothing")
            #expect(reopened.plan.legs.allSatisfy { $0.state == .road })
        }
        #expect(reopened.plan.handles.map(\.placed) == [0.0, 1000, 2000].map { Self.grid($0, 0) })
        for _ in 1...6 { reopened.redo() }
        #expect(reopened.pendingRequests().isEmpty, "redo asks nothing")
        #expect(reopened.plan == editor.plan)
        await reopened.resolve(using: engine, concurrency: 2)
        #expect(engine.count == 14, "nothing was asked again")
    }
}

/// An engine answering a straight road through the middle, counting its requests.
final class CountingEngine: RoutingEngine, @unchecked Sendable {
    let name = "counting"
    private let lock = NSLock()
    private var asked = 0
    var count: Int { lock.withLock { asked } }
    func route(from start: Coordinate, to end: Coordinate, mode: TravelMode) async throws -> RoadLeg {
        lock.withLock { asked += 1 }
        let mid = Coordinate(latitude: (start.latitude + end.latitude) / 2 + 0.001, longitude: (start.longitude + end.longitude) / 2)
        let line = [start, mid, end]
        return RoadLeg(line: line, distance: Polyline(line).length, duration: 60)
    }
}
