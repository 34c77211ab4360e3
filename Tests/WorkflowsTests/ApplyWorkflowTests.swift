import BookAssembly
import Foundation
import Formats
import Geo
import Model
import RouteEditing
import Testing
import TestSupport
import Workflows

/// Apply, undo of the last Apply and removal of the route, each test named after the rule it checks.
/// Routes are straight legs between handles near Andorra la Vella (no engine needed); 0.001° of
/// latitude is about 111 m, of longitude about 82 m there.
@Suite("Apply, undo-apply and remove-route")
struct ApplyWorkflowTests {
    static func c(_ lat: Double, _ lon: Double) -> Coordinate { Coordinate(latitude: lat, longitude: lon) }

    /// A → B (north, 1.1 km) → C (east, 0.8 km) → D (north, 1.1 km), straight legs, a handle note on
    /// B (whose bend's turn joins it) and none on C (whose bend, to the left, is a turn row of its own).
    static func editor(noteOnB: HandleNote? = HandleNote(text: "Cattle grid", marker: "CP1")) -> RouteEditor {
        var editor = RouteEditor()
        editor.setDefaultLegKind(.straight)
        editor.addHandle(at: c(42.50, 1.50), origin: .coordinate)
        editor.addHandle(at: c(42.51, 1.50), origin: .coordinate, note: noteOnB)
        editor.addHandle(at: c(42.51, 1.51), origin: .coordinate)
        editor.addHandle(at: c(42.52, 1.51), origin: .coordinate)
        return editor
    }

    /// The book of `editor()` with a typed note beside leg 1.
    static func book() -> Book {
        var book = assembleRouteBook(title: "T", editor: editor(), turns: false)
        book.notes.append(Note(id: 50, kind: .typed, distanceAlong: 555, coordinate: c(42.505, 1.5001), text: "Gate"))
        book.notes.sort { $0.distanceAlong < $1.distanceAlong }
        return book
    }

    static func draft(of book: Book) -> RouteEditor { RouteEditor(plan: book.plan!) }

    static func apply(_ book: Book, _ editor: RouteEditor, _ options: ApplyOptions = ApplyOptions(turns: .none),
                      lastWritten: [DeletedNote] = []) throws -> (book: Book, report: ApplyReport) {
        let found = try ApplyWorkflow.maneuvers(for: editor, options: options)
        return try ApplyWorkflow.apply(book: book, editor: editor, options: options, maneuvers: found.maneuvers,
                                       turnSource: found.source, lastWritten: lastWritten)
    }

    @Test("apply brings every note to the new route; a note on a handle sits exactly at its handle")
    func notesComeAlong() throws {
        let book = Self.book()
        var draft = Self.draft(of: book)
        draft.moveHandle(1, to: Self.c(42.512, 1.50))
        draft.moveHandle(2, to: Self.c(42.512, 1.51))
        let (applied, report) = try Self.apply(book, draft)
        let row = try #require(applied.notes.first { $0.marker == "CP1" })
        #expect(row.distanceAlong == draft.handleDistances()[1], "exactly where the route reaches handle 2")
        #expect(row.coordinate == draft.plan.handles[1].coordinate)
        #expect(row.handleID == draft.plan.handles[1].id)
        let gate = try #require(applied.notes.first { $0.text == "Gate" })
        #expect(gate.placement == .onRoute)
        #expect(abs(gate.distanceAlong - Self.c(42.50, 1.50).distance(to: Self.c(42.505, 1.50))) < 2, "placed by its position")
        #expect(applied.route.coordinates == draft.line())
        #expect(applied.plan == draft.plan, "the plan is stored, so the route reopens editable")
        #expect(report.moved == 1, "the handle's row moved 222 m; the gate stayed: \(report.summary)")
        #expect(report.summary.hasPrefix("1 note moved"))
        try applied.validate()
    }

    @Test("notes off the route are listed with distance and offset and resolved per note or all at once")
    func offRoute() throws {
        var book = Self.book()
        book.notes.append(Note(id: 60, kind: .typed, distanceAlong: 1300, coordinate: Self.c(42.5101, 1.503), text: "Ford"))
        book.notes.append(Note(id: 61, kind: .typed, distanceAlong: 1500, coordinate: Self.c(42.5101, 1.506), text: "Bridge"))
        var draft = Self.draft(of: book)
        draft.moveHandle(2, to: Self.c(42.52, 1.50))   // leg 2 now runs north, away from both
        let perNote = try Self.apply(book, draft, ApplyOptions(offRoute: .keep, resolutions: [60: .remove], turns: .none))
        #expect(perNote.report.offRoute.map(\.id).sorted() == [60, 61])
        for listed in perNote.report.offRoute {
            #expect(listed.distanceAlong > 1000 && abs(listed.offset) > 200, "\(listed)")
        }
        #expect(!perNote.book.notes.contains { $0.id == 60 }, "Ford: removed, as asked for it alone")
        #expect(perNote.book.notes.first { $0.id == 61 }?.placement == .offRoute, "Bridge: kept, as asked for all")
        #expect(perNote.report.summary.contains("1 off the route kept") && perNote.report.summary.contains("1 off the route removed"))

        let all = try Self.apply(book, draft, ApplyOptions(offRoute: .move, turns: .none))
        for id in [60, 61] {
            let note = try #require(all.book.notes.first { $0.id == id })
            #expect(note.placement == .onRoute && note.offsetFromRoute == 0)
            #expect(Polyline(all.book.route.coordinates).position(closestTo: note.coordinate)!.offsetFromRoute.magnitude < 0.5)
        }
    }

    @Test("words a person typed and tulips a person drew never change")
    func personsWork() throws {
        let first = try Self.apply(Self.book(), Self.draft(of: Self.book()), ApplyOptions(turns: .add))
        var book = first.book
        let t = try #require(book.notes.firstIndex { $0.kind == .turn }, "the bend at C is a turn from the shape")
        book.notes[t].text = "Right at the barn"
        let turnID = book.notes[t].id
        let drawn = Tulip(origin: .drawn, roads: [.init(role: .entry, angle: 180), .init(role: .exit, angle: -30)])
        let g = try #require(book.notes.firstIndex { $0.text == "Gate" })
        book.notes[g].tulip = drawn
        var draft = Self.draft(of: book)
        draft.moveHandle(3, to: Self.c(42.52, 1.515))   // the bend at C changes
        let (applied, report) = try Self.apply(book, draft, ApplyOptions(turns: .add))
        #expect(applied.notes.first { $0.id == turnID }?.text == "Right at the barn")
        #expect(applied.notes.first { $0.text == "Gate" }?.tulip == drawn)
        #expect(report.turns.drawnTulipsKept == 1)
        #expect(report.turns.contradictions.contains { $0.noteID == turnID }, "the road turns left at C: \(report.turns.contradictions)")
        #expect(report.summary.contains("contradicts"), "\(report.summary)")
    }

    @Test("undo the last Apply puts route, notes and terrain back exactly")
    func undoRestoresExactly() async throws {
        let folder = try TemporaryFolder()
        var book = Self.book()
        book.profile = Profile(spacing: 100, heights: Array(repeating: 1100, count: 20), climb: 0, descent: 0, source: "test")
        for i in book.notes.indices { book.notes[i].elevation = 1100 }
        let url = folder.path("b.json")
        try BookFile.write(book, to: url)
        let original = try Data(contentsOf: url)
        var draft = Self.draft(of: book)
        draft.moveHandle(2, to: Self.c(42.52, 1.52))
        let log = MessageList()
        _ = try await ApplyWorkflow.applyFile(url, editor: draft, options: ApplyOptions(), log: log)
        #expect(try BookFile.read(contentsOf: url).profile == nil)
        #expect(log.warnings.contains { $0.text.contains("terrain belonged to the old route") })
        let said = try ApplyWorkflow.undoApply(url)
        #expect(said.hasPrefix("undone:"))
        #expect(try Data(contentsOf: url) == original, "the same bytes: route, notes and terrain as they were")
        #expect(!FileManager.default.fileExists(atPath: BeforeApply.location(of: url).path), "one undo per Apply")
        #expect(throws: WorkflowError.self) { try ApplyWorkflow.undoApply(url) }
    }

    @Test("undo-apply after a hand edit is refused; with nothing to undo it is refused too")
    func undoRefused() async throws {
        let folder = try TemporaryFolder()
        let url = folder.path("b.json")
        try BookFile.write(Self.book(), to: url)
        do {
            _ = try ApplyWorkflow.undoApply(url)
            Issue.record("nothing to undo must be refused")
        } catch let error as WorkflowError {
            #expect(error.message.contains("nothing to undo") && !error.message.contains("\n"))
        }
        _ = try await ApplyWorkflow.applyFile(url, editor: Self.draft(of: Self.book()), options: ApplyOptions(), log: MessageList())
        var edited = try BookFile.read(contentsOf: url)
        edited.title = "Edited by hand"
        try BookFile.write(edited, to: url)
        do {
            _ = try ApplyWorkflow.undoApply(url)
            Issue.record("an undo over a hand edit must be refused")
        } catch let error as WorkflowError {
            #expect(error.message.contains("was changed since 'Apply the drawing") && !error.message.contains("\n"), "\(error)")
        }
        #expect(try BookFile.read(contentsOf: url).title == "Edited by hand", "the hand edit is untouched")
    }

    @Test("remove the route keeps typed notes and checkpoints; generated turns and handle notes go")
    func removeRoute() throws {
        var book = try Self.apply(Self.book(), Self.draft(of: Self.book()), ApplyOptions(turns: .add)).book
        book.notes.append(Note(id: 70, kind: .checkpoint, distanceAlong: 1900, coordinate: Self.c(42.51, 1.5099), text: "CP",
                               waypointType: .cp))
        let turns = book.notes.filter { $0.kind == .turn }.count
        #expect(turns > 0)
        let (removed, report) = ApplyWorkflow.removeRoute(book)
        #expect(Set(removed.notes.map(\.text)) == ["Gate", "CP"])
        #expect(report.turnsRemoved == turns && report.handleNotesRemoved == 1 && report.kept == 2)
        #expect(report.summary == "route removed: \(turns) turn\(turns == 1 ? "" : "s") and 1 handle note went, 2 notes stay")
        #expect(removed.plan == nil && removed.profile == nil)
        #expect(removed.route.straightStretches?.first?.reason == .removed)
        try removed.validate()
    }

    @Test("apply is refused while legs wait unless told to use them straight; a leg with no road is marked straight")
    func waitingLegs() throws {
        var editor = RouteEditor()
        editor.addHandle(at: Self.c(42.50, 1.50))
        editor.addHandle(at: Self.c(42.51, 1.50))
        editor.addHandle(at: Self.c(42.51, 1.51))
        #expect(editor.plan.legs.allSatisfy { $0.state == .asked })
        let book = Self.book()
        do {
            _ = try Self.apply(book, editor)
            Issue.record("legs that wait must refuse the Apply")
        } catch let error as WorkflowError {
            #expect(error.message.contains("legs 1–2, 2–3 still wait") && error.message.contains("--use-straight"))
        }
        let straight = try Self.apply(book, editor, ApplyOptions(turns: .none, useStraight: true))
        #expect(straight.book.route.straightStretches?.map(\.reason) == [.waiting, .waiting])
        #expect(straight.book.route.straightSummary == "2 legs used straight while waiting")

        editor.receive(.failure(.noRoute("no road")), for: editor.request(forLeg: 0, mode: .drive))
        editor.receive(.failure(.noRoute("no road")), for: editor.request(forLeg: 1, mode: .drive))
        let noRoad = try Self.apply(book, editor)
        #expect(noRoad.book.route.straightStretches?.map(\.leg) == [1, 2])
        #expect(noRoad.book.route.straightSummary == "2 legs straight (no road)")
        #expect(noRoad.report.summary.contains("2 legs straight"))
    }

    @Test("a deleted note stays deleted: a handle's row, and a generated turn")
    func deletedStaysDeleted() async throws {
        var book = Self.book()
        book.notes.removeAll { $0.marker == "CP1" }
        let once = try Self.apply(book, Self.draft(of: Self.book()))
        #expect(!once.book.notes.contains { $0.handleID != nil })
        #expect(once.book.deletedNotes?.map(\.handleID) == [once.book.plan!.handles[1].id])
        #expect(once.book.plan?.handles[1].note == nil, "the handle stays, without its note")
        // A draft made before the deletion still carries the note: it stays deleted.
        let twice = try Self.apply(once.book, Self.draft(of: Self.book()))
        #expect(!twice.book.notes.contains { $0.handleID != nil } && twice.report.stayedDeleted == 1)
        // New words on the handle are a new note.
        var anew = Self.draft(of: once.book)
        anew.setHandleNote(1, HandleNote(text: "Cattle grid, new"))
        let back = try Self.apply(once.book, anew)
        #expect(back.book.notes.filter { $0.handleID != nil }.map(\.text) == ["Cattle grid, new"])
        #expect(!back.book.notes.contains { once.book.deletedNotes!.map(\.id).contains($0.id) }, "no deleted id is reused")

        // A generated turn deleted by hand after an Apply is not brought back by the next.
        let folder = try TemporaryFolder()
        let url = folder.path("b.json")
        try BookFile.write(Self.book(), to: url)
        let options = ApplyOptions(turns: .add)
        _ = try await ApplyWorkflow.applyFile(url, editor: Self.draft(of: Self.book()), options: options, log: MessageList())
        var applied = try BookFile.read(contentsOf: url)
        let turn = try #require(applied.notes.first { $0.kind == .turn })
        applied.notes.removeAll { $0.id == turn.id }
        try BookFile.write(applied, to: url)
        let report = try await ApplyWorkflow.applyFile(url, editor: Self.draft(of: applied), options: options, log: MessageList())
        let again = try BookFile.read(contentsOf: url)
        #expect(!again.notes.contains { $0.kind == .turn && $0.coordinate.distance(to: turn.coordinate) < 30 })
        #expect(again.deletedNotes?.contains { $0.id == turn.id && $0.kind == .turn } == true)
        #expect(report.stayedDeleted == 1, "\(report.summary)")
    }

    /// Tombstones holding ids past every note's, and more new turns than there are tombstones: the
    /// turns the regenerator numbers on from the notes meet the tombstones' ids, and those renumbered
    /// must not take the ids of the turns after them.
    @Test("new turns never share an id, with each other or with a deleted note, when the tombstones hold the highest ids")
    func freshIDsPastTombstones() throws {
        var editor = RouteEditor()
        editor.setDefaultLegKind(.straight)
        // North and east by turns: a right or left turn at each of the six inner handles.
        for k in 0..<8 {
            editor.addHandle(at: Self.c(42.50 + Double((k + 1) / 2) * 0.01, 1.50 + Double(k / 2) * 0.012), origin: .coordinate)
        }
        var book = assembleRouteBook(title: "T", editor: editor, turns: false)
        book.notes.append(Note(id: 50, kind: .typed, distanceAlong: 555, coordinate: Self.c(42.505, 1.5001), text: "Gate"))
        book.notes.sort { $0.distanceAlong < $1.distanceAlong }
        book.deletedNotes = (51...53).map { DeletedNote(id: $0, kind: .typed, coordinate: Self.c(42.40, 1.40), text: "Gone \($0)") }
        let applied = try Self.apply(book, Self.draft(of: book), ApplyOptions(turns: .add))
        let ids = applied.book.notes.map(\.id)
        #expect(applied.book.notes.filter { $0.kind == .turn }.count >= 4, "\(applied.book.notes.map(\.text))")
        #expect(Set(ids).count == ids.count, "\(ids.sorted())")
        #expect(Set(ids).isDisjoint(with: 51...53), "\(ids.sorted())")
        _ = try BookFile.decode(BookFile.encode(applied.book), fileName: "b.json")
    }

    @Test("the same note edited on its handle and in the book shows the latest words")
    func latestWords() throws {
        var book = Self.book()
        let r = try #require(book.notes.firstIndex { $0.marker == "CP1" })
        book.notes[r].text = "Cattle grid, closed"
        book.notes[r].wordsEdited = "2026-03-10T09:00:00Z"
        // Only the book's row changed: its words win and the stored handle note follows.
        let rowOnly = try Self.apply(book, Self.draft(of: book))
        #expect(rowOnly.book.notes.first { $0.marker == "CP1" }?.text == "Cattle grid, closed")
        #expect(rowOnly.book.plan?.handles[1].note?.text == "Cattle grid, closed")
        // Both changed: the later edit wins.
        var draft = Self.draft(of: book)
        draft.setHandleNote(1, HandleNote(text: "Cattle grid, open", marker: "CP1", wordsEdited: "2026-03-12T09:00:00Z"))
        let later = try Self.apply(book, draft)
        #expect(later.book.notes.first { $0.marker == "CP1" }?.text == "Cattle grid, open")
        draft.setHandleNote(1, HandleNote(text: "Cattle grid, open", marker: "CP1", wordsEdited: "2026-03-01T09:00:00Z"))
        let earlier = try Self.apply(book, draft)
        #expect(earlier.book.notes.first { $0.marker == "CP1" }?.text == "Cattle grid, closed")
    }

    @Test("apply with a map whose roundabouts run clockwise keeps left in a book that gave no side, and says so")
    func drivingSideFromTheMap() async throws {
        let folder = try TemporaryFolder()
        // Two rings beside the route, drawn clockwise as traffic goes where it keeps left.
        let rings = MetreGrid(origin: Self.c(42.505, 1.501)).clockwiseRingsXML([(0, 0), (0, 300)], firstID: 1)
        try ("<?xml version=\"1.0\"?>\n<osm version=\"0.6\">\n" + rings + "</osm>\n").write(to: folder.path("rings.osm"), atomically: true, encoding: .utf8)
        let book = Self.book()
        #expect(book.settings.drivingSide == nil)
        let log = MessageList()
        let (applied, _) = try await ApplyWorkflow.apply(book: book, editor: Self.draft(of: book),
                                                         options: ApplyOptions(osm: folder.path("rings.osm")), log: log)
        #expect(applied.settings.drivingSide == .left)
        #expect(log.messages.contains { $0.text.hasPrefix("traffic keeps left here: the map's roundabouts run clockwise (2 roundabouts") },
                "\(log.messages)")
    }
}
