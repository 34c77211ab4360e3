import Foundation
import Formats
import Geo
import Model
import RoadbookCLI
import RouteEditing
import Testing
import TestSupport
import Workflows

/// The life of one book: routed through handles, edited by hand and through `roadbook handles`,
/// applied, undone, applied again, retried, its route removed and put back, regenerated onto a
/// recorded track. Offline, with the embedded router over the Andorra extract. Every check names
/// the rule it checks; the expected values are what the person typed, never the program's output.
@Suite("The book's life: one book through many changes, nothing a person wrote is lost")
struct BookLifeScenarioTests {
    static func extract() throws -> URL { try testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf") }
    static func engine() throws -> [String] { ["--engine", "embedded", "--osm", try extract().path] }

    /// Five handles across Andorra la Vella and Escaldes, four with handle notes.
    static let handles = [
        "42.5063 1.5218 | Cattle grid | CP1",
        "42.5100 1.5300 | Bridge over the Valira",
        "42.5130 1.5360",
        "42.5150 1.5400 | Fuel | P1",
        "42.5170 1.5450 | Finish at the chapel",
    ]

    /// What a person put into the book, which no later step may lose.
    struct PersonsWork {
        var title = "Andorra loop"
        var rally: String?
        var stage: String?
        var date: String?
        var template = "a5"
        var units = BookSettings.Units.kilometres
        /// By id: the notes whose words, danger, symbols, marker and drawn tulip a person set.
        var notes: [Int: Note] = [:]
        /// Words of notes a person deleted, and where: they never come back.
        var deleted: [(text: String, coordinate: Coordinate)] = []
    }

    /// Reads the book and checks that everything in `work` is in it, each failure naming the rule
    /// and the step.
    @discardableResult
    static func check(_ url: URL, after step: String, keeps work: PersonsWork,
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> Book {
        let book = try BookFile.read(contentsOf: url)
        let rule = "[\(step)] header fields a person set are kept"
        #expect(book.title == work.title, "\(rule): title \(book.title)", sourceLocation: sourceLocation)
        #expect(book.rally == work.rally, "\(rule): rally \(book.rally ?? "nil")", sourceLocation: sourceLocation)
        #expect(book.stage == work.stage, "\(rule): stage \(book.stage ?? "nil")", sourceLocation: sourceLocation)
        #expect(book.date == work.date, "\(rule): date \(book.date ?? "nil")", sourceLocation: sourceLocation)
        #expect(book.settings.template == work.template, "\(rule): template \(book.settings.template)", sourceLocation: sourceLocation)
        #expect(book.settings.units == work.units, "\(rule): units \(book.settings.units)", sourceLocation: sourceLocation)
        for (id, kept) in work.notes.sorted(by: { $0.key < $1.key }) {
            guard let note = book.notes.first(where: { $0.id == id }) else {
                Issue.record("[\(step)] a note a person wrote is never lost: #\(id) '\(kept.text)' is gone", sourceLocation: sourceLocation)
                continue
            }
            #expect(note.text == kept.text, "[\(step)] words a person typed never change: #\(id) '\(note.text)', typed '\(kept.text)'",
                    sourceLocation: sourceLocation)
            #expect(note.marker == kept.marker, "[\(step)] a marker a person set is kept: #\(id) \(note.marker ?? "nil")",
                    sourceLocation: sourceLocation)
            #expect(note.danger == kept.danger, "[\(step)] a danger level a person set is kept: #\(id) \(note.danger)",
                    sourceLocation: sourceLocation)
            #expect(note.symbols == kept.symbols, "[\(step)] symbols a person set are kept: #\(id) \(note.symbols)",
                    sourceLocation: sourceLocation)
            if kept.tulip?.origin == .drawn {
                #expect(note.tulip == kept.tulip, "[\(step)] a tulip a person drew never changes: #\(id)", sourceLocation: sourceLocation)
            }
        }
        for gone in work.deleted {
            #expect(!book.notes.contains { $0.text == gone.text && $0.coordinate.distance(to: gone.coordinate) < 30 },
                    "[\(step)] a deleted note stays deleted: '\(gone.text)' came back", sourceLocation: sourceLocation)
        }
        do { try book.validate() } catch {
            Issue.record("[\(step)] every command leaves a valid book: \(error)", sourceLocation: sourceLocation)
        }
        return book
    }

    /// The last line a command printed: its one-line summary.
    static func summary(_ output: String) -> String {
        String(output.split(separator: "\n").last ?? "")
    }

    /// A GPX track through `points`.
    static func gpx(_ points: [Coordinate]) -> String { gpxTrack(points) }

    /// Where the route of the book's plan reaches each handle.
    static func handleDistances(_ book: Book) throws -> [Metres] {
        RouteEditor(plan: try #require(book.plan)).handleDistances()
    }

    @Test("one book through more than twenty operations keeps every word, danger, symbol, drawn tulip and header field")
    func longScenario() async throws {
        let folder = try TemporaryFolder()
        let url = folder.path("b.json")
        let path = url.path
        let engine = try Self.engine()
        var work = PersonsWork()
        func handles(_ words: [String], asking: Bool = true) async -> (status: Int32, output: String, errors: String) {
            await roadbook(["handles", path] + words + (asking ? engine : []))
        }
        func bytes() throws -> Data { try Data(contentsOf: url) }

        // 1. route through five handles, four with notes.
        let routed = await roadbook(["route", "--book", path, "--title", "Andorra loop"]
                                    + Self.handles.flatMap { ["--handle", $0] } + engine)
        #expect(routed.status == 0, "[route] a route through reachable handles is finished: \(routed.errors)")
        #expect(Self.summary(routed.output).hasPrefix("\(path): ") && Self.summary(routed.output).contains(" notes, route "),
                "[route] the command ends with a one-line summary: \(routed.output)")
        var book = try BookFile.read(contentsOf: url)
        #expect(Set(book.notes.filter { $0.handleID != nil }.map(\.text)) == ["Cattle grid", "Bridge over the Valira", "Fuel", "Finish at the chapel"],
                "[route] each handle note is a row of the book")
        for note in book.notes where note.handleID != nil {
            work.notes[note.id] = note
        }
        var distances = try Self.handleDistances(book)

        // 2. A person edits the book by hand.
        let turns = book.notes.indices.filter { book.notes[$0].kind == .turn && book.notes[$0].generated != nil
            && book.notes[$0].distanceAlong < distances[1] }
        try #require(turns.count >= 2, "leg 1 crosses two junctions or more: \(book.notes.map(\.text))")
        let drawn = Tulip(origin: .drawn, roads: [.init(role: .entry, angle: 180), .init(role: .exit, angle: 60, roadClass: .gravel),
                                                  .init(role: .side, angle: -90, roadClass: .track)],
                          strokes: [[.init(x: -0.5, y: 0.2), .init(x: -0.2, y: 0.5)]])
        let edited = turns[1], deletedTurn = book.notes[turns[0]]
        book.notes[edited].text = "Sharp left at the bakery, mind the kerb"
        book.notes[edited].danger = 1
        book.notes[edited].tulip = drawn
        book.notes[edited].wordsEdited = "2026-03-01T09:00:00Z"
        work.notes[book.notes[edited].id] = book.notes[edited]
        let cp1 = try #require(book.notes.firstIndex { $0.marker == "CP1" })
        book.notes[cp1].text = "Cattle grid, keep left"
        book.notes[cp1].wordsEdited = "2026-03-01T09:05:00Z"
        work.notes[book.notes[cp1].id] = book.notes[cp1]
        let fuel = try #require(book.notes.firstIndex { $0.marker == "P1" })
        book.notes[fuel].tulip = drawn
        book.notes[fuel].symbols = [.fuel]
        work.notes[book.notes[fuel].id] = book.notes[fuel]
        let line = Polyline(book.route.coordinates)
        let gateAt = (distances[0] + distances[1]) / 2
        let gate = Note(id: book.nextNoteID, kind: .typed, distanceAlong: gateAt, coordinate: line.coordinate(atDistance: gateAt),
                        text: "Gate: close it behind you", danger: 2, symbols: [.gate, .cattleGrid])
        book.notes.append(gate)
        work.notes[gate.id] = gate
        // Two notes far from every road of the route: kept off it, and moved onto it, at the Apply.
        for (text, coordinate) in [("Old ford", Coordinate(latitude: 42.5000, longitude: 1.5400)),
                                   ("Shepherd's hut", Coordinate(latitude: 42.5230, longitude: 1.5250))] {
            let position = try #require(line.position(closestTo: coordinate))
            book.notes.append(Note(id: book.nextNoteID, kind: .typed, distanceAlong: position.distanceAlong, coordinate: coordinate,
                                   offsetFromRoute: position.offsetFromRoute, placement: .offRoute, text: text, danger: 3))
            work.notes[book.notes.last!.id] = book.notes.last!
        }
        let ford = book.notes[book.notes.count - 2].id, hut = book.notes[book.notes.count - 1].id
        let bridge = try #require(book.notes.first { $0.text == "Bridge over the Valira" })
        book.notes.removeAll { $0.id == bridge.id || $0.id == deletedTurn.id }
        work.notes[bridge.id] = nil
        work.deleted = [(bridge.text, bridge.coordinate), (deletedTurn.text, deletedTurn.coordinate)]
        book.rally = "Rallye des Pyrénées"
        book.stage = "SS3 Envalira"
        book.date = "2026-03-14"
        book.settings.template = "a4"
        book.settings.units = .miles
        (work.rally, work.stage, work.date, work.template, work.units) = (book.rally, book.stage, book.date, "a4", .miles)
        book.notes.sort { $0.distanceAlong < $1.distanceAlong }
        try BookFile.write(book, to: url)
        try Self.check(url, after: "hand edit", keeps: work)
        let handEdited = try bytes()

        // 3–11. The route edited in the draft: the book itself does not change.
        let list = await handles(["list"], asking: false)
        #expect(list.status == 0 && list.output.hasPrefix("5 handles, mode drive\n"), "[handles list] the draft starts from the book's handles: \(list.output)")
        let steps: [([String], String)] = [
            (["add", "42.5190 1.5480", "--note", "Viewpoint", "--marker", "V1"], "undo: Add handle 6"),
            (["move", "3", "42.5135 1.5368"], "undo: Move handle 3"),
            (["split", "4"], "undo: Add handle 5"),
            (["remove", "5"], "undo: Remove handle 5"),
            (["kind", "5", "straight"], "undo: Make leg 5 straight"),
            (["undo"], "undo: Remove handle 5"),
            (["redo"], "undo: Make leg 5 straight"),
            (["undo"], "undo: Remove handle 5"),
        ]
        for (words, undoLine) in steps {
            let r = await handles(words)
            #expect(r.status == 0, "[handles \(words[0])] an edit of a reachable route succeeds: \(r.errors)")
            #expect(r.output.contains(undoLine + "\n"), "[handles \(words[0])] every change is one step, and undo names it: \(r.output)")
            #expect(r.output.contains("total "), "[handles \(words[0])] each edit prints the legs and totals: \(r.output)")
            #expect(try bytes() == handEdited, "[handles \(words[0])] edits go to the draft, never to the book")
        }
        let drafted = await handles(["list"], asking: false)
        #expect(drafted.output.hasPrefix("6 handles, mode drive\n") && drafted.output.contains("note \"Viewpoint\" [V1]"),
                "[handles list] the drawing is saved as you work: \(drafted.output)")
        #expect(drafted.errors.contains("Unfinished drawing restored"), "[handles list] a saved drawing is restored with a notice: \(drafted.errors)")
        #expect(drafted.output.contains("leg 5–6: road"), "[handles undo] the undone change of kind stays undone: \(drafted.output)")

        // 12. A hand edit while the drawing waits.
        book = try BookFile.read(contentsOf: url)
        book.title = "Andorra loop, second recce"
        work.title = book.title
        let g = try #require(book.notes.firstIndex { $0.id == gate.id })
        book.notes[g].danger = 3
        book.notes[g].symbols.append(.hump)
        work.notes[gate.id] = book.notes[g]
        try BookFile.write(book, to: url)
        try Self.check(url, after: "hand edit with a draft", keeps: work)
        let beforeApply = try bytes()

        // 13. Apply, off-route notes moved onto the route but the ford kept.
        let applied = await roadbook(["apply", path, "--off-route", "move", "--resolve", "\(ford)=keep", "--osm", try Self.extract().path])
        #expect(applied.status == 0, "[apply] a finished drawing applies: \(applied.errors)")
        let appliedSummary = Self.summary(applied.output)
        #expect(appliedSummary.contains("1 off the route kept") && appliedSummary.contains("1 off the route moved onto it"),
                "[apply] notes off the route are resolved per note or all at once, and counted: \(appliedSummary)")
        #expect(appliedSummary.contains("1 handle note added"), "[apply] the new handle's note becomes a row: \(appliedSummary)")
        #expect(appliedSummary.contains("deleted note"), "[apply] the summary says a deleted note stays deleted: \(appliedSummary)")
        #expect(applied.output.contains("off the route: #\(ford) 'Old ford' at ") && applied.output.contains("of the route: kept"),
                "[apply] notes off the new route are listed with distance and offset: \(applied.output)")
        #expect(applied.output.contains("off the route: #\(hut) 'Shepherd's hut' at ") && applied.output.contains("moved onto the route"),
                "[apply] a note moved onto the route is listed: \(applied.output)")
        #expect(!FileManager.default.fileExists(atPath: RouteDraft.url(for: url).path), "[apply] the applied drawing leaves no draft behind")
        book = try Self.check(url, after: "apply", keeps: work)
        distances = try Self.handleDistances(book)
        #expect(book.plan?.handles.count == 6, "[apply] the drawing's handles are stored in the book")
        for (h, handle) in (book.plan?.handles ?? []).enumerated() {
            guard let row = book.notes.first(where: { $0.handleID == handle.id }) else { continue }
            #expect(row.distanceAlong == distances[h] && row.coordinate == handle.coordinate,
                    "[apply] a note on a handle sits exactly where the route reaches that handle: '\(row.text)' at \(row.distanceAlong), handle \(h + 1) at \(distances[h])")
        }
        #expect(book.notes.first { $0.id == ford }?.placement == .offRoute, "[apply] a note kept off the route stays where it was")
        #expect(book.notes.first { $0.id == hut }?.placement == .onRoute, "[apply] a note moved onto the route is on it")
        #expect(book.notes.contains { $0.text == "Viewpoint" && $0.marker == "V1" }, "[apply] the draft's handle note is in the book")
        work.notes[try #require(book.notes.first { $0.text == "Viewpoint" }).id] = book.notes.first { $0.text == "Viewpoint" }

        // 14. inspect shows the person's words and title.
        let inspected = await roadbook(["inspect", path])
        #expect(inspected.status == 0 && inspected.output.hasPrefix("Andorra loop, second recce — "), "[inspect] the heading is the book's title: \(inspected.output)")
        for text in ["Gate: close it behind you", "Sharp left at the bakery, mind the kerb", "Cattle grid, keep left", "Viewpoint"] {
            #expect(inspected.output.contains(text), "[inspect] every note is listed: \(text)")
        }
        #expect(!inspected.output.contains("Bridge over the Valira"), "[inspect] a deleted note stays deleted")

        // 15. undo-apply: exactly the book before the Apply.
        let undone = await roadbook(["undo-apply", path])
        #expect(undone.status == 0 && Self.summary(undone.output).hasPrefix("undone: "), "[undo-apply] the last Apply can be undone: \(undone.errors)")
        #expect(try bytes() == beforeApply, "[undo-apply] route, notes and terrain come back exactly as before the Apply")
        work.notes = work.notes.filter { $0.value.text != "Viewpoint" }
        try Self.check(url, after: "undo-apply", keeps: work)

        // 16–17. The drawing comes back with the undo, not applied; apply again keeping every note off the route.
        let status = await handles(["status"], asking: false)
        #expect(status.output.hasPrefix("Not applied yet") && status.output.contains("handles added: 6"),
                "[handles status] undo-apply brings the drawing back, not applied: \(status.output)")
        let again = await roadbook(["apply", path, "--off-route", "keep", "--osm", try Self.extract().path])
        #expect(again.status == 0, "[apply again] \(again.errors)")
        #expect(Self.summary(again.output).contains("2 off the route kept"), "[apply again] --off-route keep keeps them all: \(again.output)")
        book = try Self.check(url, after: "apply again", keeps: work)
        let viewpoint = try #require(book.notes.first { $0.text == "Viewpoint" })
        work.notes[viewpoint.id] = viewpoint

        // 18–19. A hand edit after the Apply: undo-apply is refused, and the edit stays.
        let v = try #require(book.notes.firstIndex { $0.id == viewpoint.id })
        book.notes[v].text = "Viewpoint over Engolasters"
        book.notes[v].danger = 1
        book.notes[v].wordsEdited = "2026-03-02T10:00:00Z"
        work.notes[viewpoint.id] = book.notes[v]
        try BookFile.write(book, to: url)
        let handEdit = try bytes()
        let refused = await roadbook(["undo-apply", path])
        #expect(refused.status == 1 && refused.errors.contains("was changed since 'Apply the drawing"),
                "[undo-apply after a hand edit] a book edited by hand after an Apply cannot be undone silently: \(refused.errors)")
        #expect(try bytes() == handEdit, "[undo-apply after a hand edit] the refused undo changes nothing")
        try Self.check(url, after: "undo-apply refused", keeps: work)

        // 20–21. remove-route keeps the typed notes; undo-apply brings the route back.
        let removed = await roadbook(["remove-route", path])
        #expect(removed.status == 0 && Self.summary(removed.output).hasPrefix("route removed: "), "[remove-route] \(removed.errors)")
        let bare = try BookFile.read(contentsOf: url)
        for id in [gate.id, ford, hut] {
            let kept = try #require(work.notes[id])
            #expect(bare.notes.contains { $0.id == id && $0.text == kept.text && $0.danger == kept.danger && $0.symbols == kept.symbols },
                    "[remove-route] remove-route keeps typed notes: '\(kept.text)'")
        }
        #expect(bare.title == work.title && bare.rally == work.rally && bare.settings.units == .miles, "[remove-route] header fields are kept")
        let back = await roadbook(["undo-apply", path])
        #expect(back.status == 0, "[undo-apply after remove-route] \(back.errors)")
        #expect(try bytes() == handEdit, "[undo-apply after remove-route] the route and its notes come back exactly")

        // 22. route --retry: an Apply on the book, nothing lost.
        let retried = await roadbook(["route", "--retry", "--book", path] + engine)
        #expect(retried.status == 0, "[route --retry] \(retried.errors)")
        #expect(!Self.summary(retried.output).isEmpty && !Self.summary(retried.output).hasPrefix("leg "),
                "[route --retry] the command ends with a one-line summary: \(retried.output)")
        book = try Self.check(url, after: "route --retry", keeps: work)
        #expect(book.plan?.handles.count == 6 && book.plan?.mode == .drive, "[route --retry] the plan is kept, in its own mode: \(book.plan?.handles.count ?? -1) handles, \(retried.output)")

        // 23. regenerate onto a recorded track: the route as driven, stopping short of the viewpoint.
        let handlesBefore = try #require(book.plan?.handles.map(\.coordinate))
        let driven = Polyline(book.route.coordinates)
        let stop = distances[4] + (distances[5] - distances[4]) / 3
        let track = book.route.coordinates.enumerated().filter { driven.cumulativeDistances[$0.offset] <= stop }.map(\.element)
        try Self.gpx(track).write(to: folder.path("recce.gpx"), atomically: true, encoding: .utf8)
        let regenerated = await roadbook(["regenerate", path, "--route", folder.path("recce.gpx").path, "--osm", try Self.extract().path])
        #expect(regenerated.status == 0, "[regenerate] \(regenerated.errors)")
        #expect(regenerated.output.contains("the book's handles are dropped"), "[regenerate] the plan follows the route: \(regenerated.output)")
        #expect(regenerated.output.contains("off the route: "), "[regenerate] notes off the new route are listed: \(regenerated.output)")
        #expect(Self.summary(regenerated.output).contains("off the route"), "[regenerate] the summary counts them: \(Self.summary(regenerated.output))")
        book = try Self.check(url, after: "regenerate", keeps: work)
        #expect(book.notes.first { $0.id == viewpoint.id }?.placement == .offRoute, "[regenerate] a note beyond the new route's end is off it, and kept")

        // 25. regenerate onto handles again (a handles file, routed by the engine): the route through
        // the viewpoint comes back, as an Apply, and the book's plan is these handles.
        let handlesFile = folder.path("again.txt")
        try (handlesBefore.map { "\($0.latitude) \($0.longitude)" }.joined(separator: "\n") + "\n")
            .write(to: handlesFile, atomically: true, encoding: .utf8)
        let rerouted = await roadbook(["regenerate", path, "--route", handlesFile.path] + (try Self.engine()))
        #expect(rerouted.status == 0, "[regenerate --route handles] \(rerouted.errors)")
        #expect(!Self.summary(rerouted.output).isEmpty, "[regenerate --route handles] a one-line summary: \(rerouted.output)")
        book = try Self.check(url, after: "regenerate --route handles", keeps: work)
        #expect(book.plan?.handles.count == handlesBefore.count, "[regenerate --route handles] the handles are the book's plan")
        #expect(book.notes.first { $0.id == viewpoint.id }?.placement == .onRoute, "[regenerate --route handles] the viewpoint is on the route again")
        #expect(await roadbook(["undo-apply", path]).status == 0, "[regenerate --route handles] is an Apply: undo-apply takes it back")
        #expect(try BookFile.read(contentsOf: url).plan == nil, "[undo-apply] the book from the recorded track is back")

        // 24. inspect --json reads the book as it is now.
        let json = await roadbook(["inspect", path, "--json"])
        #expect(json.status == 0, "[inspect --json] \(json.errors)")
        for kept in work.notes.values {
            #expect(json.output.contains(kept.text), "[inspect --json] every note a person wrote is listed: \(kept.text)")
        }
        #expect(!json.output.contains("Bridge over the Valira"), "[inspect --json] a deleted note stays deleted")
    }

    // MARK: Rules, one test each

    /// A book routed through the five handles, with its engine options.
    static func routedBook(in folder: TemporaryFolder) async throws -> URL {
        let url = folder.path("b.json")
        let r = await roadbook(["route", "--book", url.path] + handles.flatMap { ["--handle", $0] } + (try engine()))
        #expect(r.status == 0, "\(r.errors)")
        return url
    }

    /// A change of the drawing, so the next Apply has something to apply (a drawing that is the
    /// book's route is refused): a handle added at the end, or with `back`, that handle removed.
    static func redraw(_ url: URL, back: Bool = false) async throws {
        let words = back ? ["remove", "6"] : ["add", "42.5190 1.5480"]
        let r = await roadbook(["handles", url.path] + words + (try engine()))
        #expect(r.status == 0, "\(r.errors)")
    }

    @Test("a note on a handle sits exactly where the route reaches that handle, in a book from route as after an Apply")
    func handleRowsAtTheirHandles() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.routedBook(in: folder)
        for step in ["route", "apply"] {
            if step == "apply" {
                try await Self.redraw(url)
                #expect(await roadbook(["apply", url.path]).status == 0)
            }
            let book = try BookFile.read(contentsOf: url)
            let distances = try Self.handleDistances(book)
            for (h, handle) in (book.plan?.handles ?? []).enumerated() {
                guard handle.note != nil else { continue }
                let row = try #require(book.notes.first { $0.handleID == handle.id }, "handle \(h + 1)'s note has a row")
                #expect(row.distanceAlong == distances[h],
                        "[\(step)] a note on a handle sits exactly where the route reaches that handle: '\(row.text)' at \(row.distanceAlong) m, handle \(h + 1) at \(distances[h]) m")
            }
        }
    }

    @Test("a generated turn deleted by hand from a book fresh from route does not come back at the first apply")
    func deletedTurnOfANewBook() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.routedBook(in: folder)
        var book = try BookFile.read(contentsOf: url)
        let turn = try #require(book.notes.first { $0.kind == .turn && $0.generated != nil })
        book.notes.removeAll { $0.id == turn.id }
        try BookFile.write(book, to: url)
        try await Self.redraw(url)
        let r = await roadbook(["apply", url.path, "--osm", try Self.extract().path])
        #expect(r.status == 0, "\(r.errors)")
        let after = try BookFile.read(contentsOf: url)
        #expect(!after.notes.contains { $0.kind == .turn && $0.coordinate.distance(to: turn.coordinate) < 30 },
                "a deleted note stays deleted: '\(turn.text)' came back: \(r.output)")
    }

    @Test("regenerate never brings back a turn a person deleted (its tombstone is in the book)")
    func regenerateKeepsDeletions() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.routedBook(in: folder)
        let osm = try Self.extract().path
        try await Self.redraw(url)
        #expect(await roadbook(["apply", url.path, "--osm", osm]).status == 0)
        var book = try BookFile.read(contentsOf: url)
        let turn = try #require(book.notes.first { $0.kind == .turn && $0.generated != nil })
        book.notes.removeAll { $0.id == turn.id }
        try BookFile.write(book, to: url)
        // An Apply records the deletion (a tombstone in deletedNotes).
        try await Self.redraw(url, back: true)
        #expect(await roadbook(["apply", url.path, "--osm", osm]).status == 0)
        book = try BookFile.read(contentsOf: url)
        #expect(book.deletedNotes?.contains { $0.id == turn.id } == true, "the Apply recorded the deletion")
        // The same route, driven and recorded.
        try Self.gpx(book.route.coordinates).write(to: folder.path("same.gpx"), atomically: true, encoding: .utf8)
        let r = await roadbook(["regenerate", url.path, "--route", folder.path("same.gpx").path, "--osm", osm])
        #expect(r.status == 0, "\(r.errors)")
        let after = try BookFile.read(contentsOf: url)
        #expect(!after.notes.contains { $0.kind == .turn && $0.coordinate.distance(to: turn.coordinate) < 30 },
                "a deleted note stays deleted: '\(turn.text)' came back at regenerate: \(r.output)")
    }

    @Test("apply is refused while a leg drawn in the draft waits for the engine, unless told to use it straight")
    func waitingDraftRefused() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.routedBook(in: folder)
        let limiting = try FaultServer(handler: { _ in .respond(429, body: Data("Too Many Requests".utf8)) })
        let added = await roadbook(["handles", url.path, "add", "42.5190 1.5480", "--engine", "osrm", "--url", limiting.baseURL.absoluteString])
        limiting.stop()
        #expect(added.status == 0 && added.output.contains("leg 5–6: waiting: limiting requests"), "the leg waits: \(added.output)\(added.errors)")
        #expect(limiting.requests.count == 1, "only the leg the edit changed is asked")
        let before = try Data(contentsOf: url)
        let refused = await roadbook(["apply", url.path])
        #expect(refused.status == 1 && refused.errors.contains("leg 5–6 still waits") && refused.errors.contains("--use-straight"),
                "apply is refused while legs wait, and says how to go on: \(refused.errors)")
        #expect(try Data(contentsOf: url) == before, "a refused Apply changes nothing")
        #expect(FileManager.default.fileExists(atPath: RouteDraft.url(for: url).path), "a refused Apply keeps the drawing")
        let straight = await roadbook(["apply", url.path, "--use-straight"])
        #expect(straight.status == 0, "\(straight.errors)")
        #expect(Self.summary(straight.output).contains("1 leg straight"), "the summary counts the leg used straight: \(straight.output)")
        let inspected = await roadbook(["inspect", url.path])
        #expect(inspected.output.split(separator: "\n").first?.contains("1 leg used straight while waiting") == true,
                "inspect marks the leg used straight: \(inspected.output)")
    }

    @Test("notes off the new route are listed with their distance along it and how far off they are")
    func offRouteListed() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.routedBook(in: folder)
        var book = try BookFile.read(contentsOf: url)
        // A note beside the end of the route: off it once the last handle is removed.
        let end = try #require(book.route.coordinates.last)
        book.notes.append(Note(id: book.nextNoteID, kind: .typed, distanceAlong: Polyline(book.route.coordinates).length,
                               coordinate: end, text: "Chapel door"))
        try BookFile.write(book, to: url)
        #expect(await roadbook(["handles", url.path, "remove", "5"] + (try Self.engine())).status == 0)
        let r = await roadbook(["apply", url.path])
        #expect(r.status == 0, "\(r.errors)")
        let after = try BookFile.read(contentsOf: url)
        let route = Polyline(after.route.coordinates)
        let listed = try #require(r.output.split(separator: "\n").first { $0.contains("'Chapel door'") }, "the note is listed: \(r.output)")
        // "off the route: #N 'Chapel door' at X km, M m left|right of the route: kept"
        let numbers = listed.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) }
        try #require(numbers.count >= 3, "\(listed)")
        let (km, metres) = (numbers[1], numbers[2])
        // Independently: the nearest vertex of the new route, and the straight distance to it.
        let nearest = after.route.coordinates.indices.min { after.route.coordinates[$0].distance(to: end) < after.route.coordinates[$1].distance(to: end) }!
        let vertexDistance = end.distance(to: after.route.coordinates[nearest])
        #expect(metres <= vertexDistance + 1 && metres > after.settings.offRouteDistance,
                "the offset is the distance to the route (at most \(vertexDistance) m to its nearest vertex): \(listed)")
        #expect(abs(km * 1000 - route.cumulativeDistances[nearest]) <= vertexDistance + 10,
                "the distance along is where the route comes nearest: \(listed)")
        #expect(listed.hasSuffix(": kept"), "kept by default: \(listed)")
    }

    @Test("undo-apply takes back the last Apply; after two Applies it goes back to the first, and refuses while a later change of the drawing is not undone")
    func undoUntilTheNextApply() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.routedBook(in: folder)
        let engine = try Self.engine()
        #expect(await roadbook(["handles", url.path, "add", "42.5190 1.5480"] + engine).status == 0)
        #expect(await roadbook(["apply", url.path]).status == 0)
        let afterFirst = try Data(contentsOf: url)
        #expect(await roadbook(["handles", url.path, "remove", "2"] + engine).status == 0)
        #expect(await roadbook(["apply", url.path]).status == 0)
        #expect(await roadbook(["undo-apply", url.path]).status == 0)
        #expect(try Data(contentsOf: url) == afterFirst, "undo takes back the last Apply only")
        let refused = await roadbook(["undo-apply", url.path])
        #expect(refused.status == 1 && refused.errors.contains("'Remove handle 2', not a change of route"),
                "the drawing's change came back with the undo, and is the last change now: \(refused.errors)")
        #expect(await roadbook(["undo", url.path]).status == 0, "roadbook undo takes back the handle removed")
        #expect(await roadbook(["undo-apply", url.path]).status == 0, "then the first Apply")
        let nothing = await roadbook(["undo-apply", url.path])
        #expect(nothing.status == 1 && nothing.errors.contains("not a change of route"),
                "one undo per Apply: what is left to undo is the drawing's edit: \(nothing.errors)")
    }

    @Test("the unfinished drawing never appears in a rendered book: its handle note is not printed until applied")
    func draftNotRendered() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.routedBook(in: folder)
        let added = await roadbook(["handles", url.path, "add", "42.5190 1.5480", "--note", "Belvedere of the draft"] + (try Self.engine()))
        #expect(added.status == 0, "\(added.errors)")
        let pdf = folder.path("b.pdf")
        let rendered = await roadbook(["render", url.path, "-o", pdf.path])
        #expect(rendered.status == 0, "\(rendered.errors)")
        let text = try runTool("pdftotext", [pdf.path, "-"])
        #expect(text.contains("Fuel"), "the book's own notes are printed")
        #expect(!text.contains("Belvedere"), "an unfinished drawing is never part of a rendered book")
        #expect(await roadbook(["apply", url.path]).status == 0)
        #expect(await roadbook(["render", url.path, "-o", pdf.path]).status == 0)
        #expect(try runTool("pdftotext", [pdf.path, "-"]).contains("Belvedere"), "once applied, the handle note is printed")
    }
}
