import Foundation
import Formats
import Geo
import Model
import RoadbookCLI
import Testing
import TestSupport
import Workflows

/// `roadbook handles`: the route of a book edited in a draft beside it, with the embedded router on
/// the Andorra extract (offline). Each test names the rule it checks.
@Suite("roadbook handles")
struct HandlesCommandTests {
    /// A book routed through three handles in Andorra la Vella, and the engine options to edit it.
    struct Fixture {
        let folder: TemporaryFolder
        let book: URL
        let engine: [String]
        var draft: URL { RouteDraft.url(for: book) }

        init() async throws {
            folder = try TemporaryFolder()
            book = folder.path("b.json")
            engine = ["--engine", "embedded", "--osm", try testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf").path]
            let r = await roadbook(["route", "--handle", "42.5063 1.5218", "--handle", "42.5110 1.5320", "--handle", "42.5150 1.5400",
                                    "--book", book.path] + engine)
            #expect(r.status == 0, "\(r.errors)")
        }

        /// `roadbook handles BOOK words…`, with the engine when `asking`.
        func handles(_ words: [String], asking: Bool = true) async -> (status: Int32, output: String, errors: String) {
            await roadbook(["handles", book.path] + words + (asking ? engine : []))
        }

        func bytes(_ url: URL) throws -> Data { try Data(contentsOf: url) }
    }

    @Test("every change is one step, and the step undo would take back is named after it")
    func stepsNamed() async throws {
        let f = try await Fixture()
        let cases: [([String], String)] = [
            (["add", "42.5130 1.5360", "--at", "3"], "undo: Add handle 3"),
            (["move", "2", "42.5100 1.5300"], "undo: Move handle 2"),
            (["remove", "3"], "undo: Remove handle 3"),
            (["split", "1"], "undo: Add handle 2"),
            (["reorder", "2", "3"], "undo: Move handle 2 to 3"),
            (["kind", "1", "straight"], "undo: Make leg 1 straight"),
            (["mode", "walk"], "undo: Change the mode to walking"),
            (["reverse"], "undo: Reverse the route"),
        ]
        for (words, expected) in cases {
            let r = await f.handles(words)
            #expect(r.status == 0, "\(words): \(r.errors)")
            #expect(r.output.contains(expected + "\n"), "\(words): \(r.output)")
            #expect(r.output.contains("total "), "the totals follow each edit: \(r.output)")
        }
        let undone = await f.handles(["undo"], asking: false)
        #expect(undone.output.contains("undo: Change the mode to walking") && undone.output.contains("redo: Reverse the route"), "\(undone.output)")
    }

    @Test("roads already found are kept when you undo: nothing is asked again, even in a later command")
    func undoAsksNothing() async throws {
        let f = try await Fixture()
        #expect(await f.handles(["move", "2", "42.5100 1.5300"]).status == 0)
        #expect(await f.handles(["mode", "cycle"]).status == 0)
        // Without an engine nothing can be asked: a leg that needed asking would say so.
        for step in ["undo", "undo", "redo", "redo", "undo"] {
            let r = await f.handles([step], asking: false)
            #expect(r.status == 0, "\(r.errors)")
            #expect(!r.errors.contains("still to ask"), "\(step): \(r.errors)")
            #expect(r.output.contains("leg 1–2: road") && r.output.contains("leg 2–3: road"), "\(step): \(r.output)")
        }
        // Back to driving: the roads found in that mode before are used as they are.
        let mode = await f.handles(["mode", "drive"], asking: false)
        #expect(!mode.errors.contains("still to ask") && mode.output.contains("leg 1–2: road"), "\(mode.output)\(mode.errors)")
    }

    @Test("an edit without an engine leaves the changed legs to ask, and says so; the next command with one asks them")
    func askLater() async throws {
        let f = try await Fixture()
        let r = await f.handles(["move", "3", "42.5140 1.5390"], asking: false)
        #expect(r.status == 0 && r.errors.contains("1 road leg still to ask: give --engine"), "\(r.errors)")
        #expect(r.output.contains("leg 2–3: asked"), "\(r.output)")
        let later = await f.handles(["list"], asking: false)
        #expect(later.output.contains("leg 2–3: asked"))
        let asked = await f.handles(["retry"])
        #expect(asked.output.contains("leg 2–3: road"), "\(asked.output)")
    }

    @Test("the drawing is saved as you work and restored with a notice by the next command")
    func savedAndRestored() async throws {
        let f = try await Fixture()
        #expect(!FileManager.default.fileExists(atPath: f.draft.path), "no draft before the first edit")
        let first = await f.handles(["add", "42.5170 1.5430", "--note", "Chapel", "--marker", "CP1"])
        #expect(first.status == 0 && !first.errors.contains("restored"), "\(first.errors)")
        #expect(f.draft.lastPathComponent == "b.draft.json" && FileManager.default.fileExists(atPath: f.draft.path))
        let list = await f.handles(["list"], asking: false)
        #expect(list.errors.contains("Unfinished drawing restored: `roadbook apply \(f.book.path)` makes it the book's route, `roadbook handles \(f.book.path) clear` discards it"),
                "\(list.errors)")
        // No named road within 300 m: named after the hamlet els Vilars, 134 m off (OpenStreetMap node 64954396).
        #expect(list.output.contains("4 handles")
                    && list.output.split(separator: "\n").contains { $0.hasPrefix("handle 4: 42.517000, 1.543000, coordinate, named \"els Vilars\", note \"Chapel\" [CP1], ")
                        && $0.hasSuffix(" km from the start") },
                "\(list.output)")
    }

    @Test("an unfinished drawing is never part of the book: the book file is unchanged, and render and inspect never read the draft")
    func neverInTheBook() async throws {
        let f = try await Fixture()
        let before = try f.bytes(f.book)
        #expect(await f.handles(["remove", "2"]).status == 0)
        #expect(await f.handles(["reverse"]).status == 0)
        #expect(try f.bytes(f.book) == before, "edits go to the draft, never to the book")
        let inspected = await roadbook(["inspect", f.book.path])
        // A broken draft beside the book changes nothing for the commands that read the book.
        try Data("{\"draftVersion\": 1, \"bookID\": ".utf8).write(to: f.draft)
        let again = await roadbook(["inspect", f.book.path])
        #expect(again.status == 0 && again.output == inspected.output && again.errors == inspected.errors, "\(again.errors)")
        let rendered = await roadbook(["render", f.book.path, "-o", f.folder.path("b.pdf").path])
        #expect(rendered.status == 0 && !rendered.errors.contains("draft"), "\(rendered.errors)")
    }

    @Test("a draft from another book is refused, in one line naming both files, and kept")
    func otherBookRefused() async throws {
        let f = try await Fixture()
        #expect(await f.handles(["remove", "2"]).status == 0)
        let other = f.folder.path("other.json")
        let r0 = await roadbook(["route", "--handle", "42.5063 1.5218", "--handle", "42.5110 1.5320", "--book", other.path] + f.engine)
        #expect(r0.status == 0)
        let draft = try f.bytes(f.draft)
        try draft.write(to: RouteDraft.url(for: other))
        let r = await roadbook(["handles", other.path, "list"])
        #expect(r.status == 1)
        let line = r.errors.trimmingCharacters(in: .newlines)
        #expect(!line.contains("\n") && line.contains(RouteDraft.url(for: other).path) && line.contains("but \(other.path) is book"), "\(r.errors)")
        #expect(try f.bytes(RouteDraft.url(for: other)) == draft, "nothing is lost: the draft stays until it is cleared")
        let cleared = await roadbook(["handles", other.path, "clear"])
        #expect(cleared.status == 0 && !FileManager.default.fileExists(atPath: RouteDraft.url(for: other).path))
    }

    @Test("a broken draft is refused in one line naming the file and the field, exit 1, and nothing is lost")
    func brokenRefused() async throws {
        let f = try await Fixture()
        #expect(await f.handles(["remove", "2"]).status == 0)
        let good = try f.bytes(f.draft)
        let broken = String(decoding: good, as: UTF8.self).replacingOccurrences(of: "\"kind\" : \"road\"", with: "\"kind\" : \"flying\"")
        try Data(broken.utf8).write(to: f.draft)
        let book = try f.bytes(f.book)
        let r = await f.handles(["add", "42.5170 1.5430"])
        #expect(r.status == 1)
        #expect(r.errors.hasPrefix("roadbook handles: \(f.draft.path): plan.legs[0].kind"), "\(r.errors)")
        #expect(try f.bytes(f.draft) == Data(broken.utf8) && f.bytes(f.book) == book)
    }

    @Test("undo with nothing to undo, and redo with nothing to redo, say so and change nothing")
    func nothingToUndo() async throws {
        let f = try await Fixture()
        let undo = await f.handles(["undo"], asking: false)
        #expect(undo.status == 1 && undo.errors.contains("nothing to undo"), "\(undo.errors)")
        let redo = await f.handles(["redo"], asking: false)
        #expect(redo.status == 1 && redo.errors.contains("nothing to redo"), "\(redo.errors)")
        #expect(!FileManager.default.fileExists(atPath: f.draft.path), "a refused command starts no draft")
    }

    @Test("a handle or leg the route does not have is refused, naming what it has")
    func outOfRange() async throws {
        let f = try await Fixture()
        let r = await f.handles(["remove", "9"], asking: false)
        #expect(r.status == 1 && r.errors.contains("there is no handle 9: the route has handles 1 to 3"), "\(r.errors)")
        let leg = await f.handles(["kind", "3", "straight"], asking: false)
        #expect(leg.status == 1 && leg.errors.contains("there is no leg 3: the route has legs 1 to 2"), "\(leg.errors)")
        let usage = await f.handles(["fly"], asking: false)
        #expect(usage.status == 64 && usage.errors.contains("unknown subcommand 'fly'"), "\(usage.errors)")
    }

    /// One place typed five ways, converted by GeographicLib's GeoConvert (`-d`, `-u`, `-m`):
    /// 42.5063 1.5218 is 42°30'22.68"N 001°31'18.48"E, 31N 378553 4707051, 31TCH7855307051; in
    /// degrees and minutes N42°30.378' E001°31.308'.
    @Test("a handle may be typed in decimal degrees, degrees and minutes, degrees minutes and seconds, UTM or MGRS")
    func fiveFormats() async throws {
        let f = try await Fixture()
        let place = Coordinate(latitude: 42.5063, longitude: 1.5218)
        for text in ["42.5063 1.5218", "N42°30.378' E001°31.308'", "42°30'22.68\"N 1°31'18.48\"E", "31T 378553 4707051", "31TCH7855307051"] {
            let r = await f.handles(["add", text, "--at", "1"], asking: false)
            #expect(r.status == 0, "\(text): \(r.errors)")
            let draft = try RouteDraft.load(for: f.book, expecting: BookFile.read(contentsOf: f.book).id)
            let handle = try #require(draft?.editor.plan.handles.first)
            #expect(handle.coordinate.distance(to: place) < 1.5, "\(text) is \(handle.coordinate)")
            #expect(handle.origin == .coordinate, "a typed coordinate is surveyed")
            #expect(await f.handles(["undo"], asking: false).status == 0)
        }
    }

    @Test("clearing the drawing clears its handles, the book keeps its route and notes, and undo brings the drawing back")
    func clear() async throws {
        let f = try await Fixture()
        let book = try f.bytes(f.book)
        #expect(await f.handles(["remove", "2"]).status == 0)
        let r = await f.handles(["clear"], asking: false)
        #expect(r.status == 0 && r.output.contains("drawing cleared") && r.output.contains("undo: Clear the drawing"), "\(r.output)")
        #expect(try f.bytes(f.book) == book, "the book keeps its route and notes")
        let list = await f.handles(["list"], asking: false)
        #expect(list.output.contains("0 handles") && list.output.contains("undo: Clear the drawing"), "\(list.output)")
        let apply = await roadbook(["apply", f.book.path])
        #expect(apply.status == 1 && apply.errors.contains("brings it back"), "an empty drawing is not applied: \(apply.errors)")
        #expect(try f.bytes(f.book) == book)
        #expect(await f.handles(["clear"], asking: false).output.contains("nothing to clear"))
        let undo = await f.handles(["undo"], asking: false)
        #expect(undo.status == 0 && undo.output.contains("undo: Remove handle 2"), "\(undo.output)")
        #expect(await f.handles(["list"], asking: false).output.contains("2 handles"), "the drawing as it was before the clear")
    }

    @Test("a drawing of another book is discarded by clear, whole: it cannot be cleared step by step")
    func clearForeign() async throws {
        let f = try await Fixture()
        #expect(await f.handles(["remove", "2"]).status == 0)
        try Data("{\"draftVersion\": 1, \"bookID\": \"not-this-book\", \"plan\": {\"handles\": []}}".utf8).write(to: f.draft)
        let r = await f.handles(["clear"], asking: false)
        #expect(r.status == 0 && r.output.contains("discarded"), "\(r.output) \(r.errors)")
        #expect(!FileManager.default.fileExists(atPath: f.draft.path))
    }

    @Test("a book from a track starts as its route traced into handles, at most 40, and its waypoints become handles carrying their words")
    func tracedFromTrack() async throws {
        let folder = try TemporaryFolder()
        let book = folder.path("e.json")
        let built = await roadbook(["build", packageRoot().appendingPathComponent("samples/andorra-envalira.gpx").path, "--book", book.path, "-o", folder.path("e.pdf").path])
        #expect(built.status == 0, "\(built.errors)")
        let notes = try BookFile.read(contentsOf: book).notes.filter { ($0.kind == .waypoint || $0.kind == .checkpoint) && $0.placement == .onRoute }
        let r = await roadbook(["handles", book.path, "list"])
        #expect(r.status == 0, "\(r.errors)")
        let handleLines = r.output.split(separator: "\n").filter { $0.hasPrefix("handle ") }
        #expect(handleLines.filter { $0.contains(", drawn") }.count <= 40, "\(r.output)")
        #expect(handleLines.filter { $0.contains(", waypoint") }.count == notes.count, "\(r.output)")
        for note in notes where !note.text.isEmpty {
            #expect(handleLines.contains { $0.contains(", note \"\(note.text)\"") && $0.contains("waypoint") }, "\(note.text) in \(r.output)")
        }
        #expect(r.output.contains("as drawn"), "traced legs draw the route as it was: \(r.output)")
        // The sample's waypoints of a kind (its <type>: DSS, CP, ASS) keep it as handles.
        for type in ["DSS", "CP", "ASS"] {
            let typed = notes.filter { $0.waypointType?.rawValue == type }
            #expect(!typed.isEmpty && handleLines.filter { $0.contains("waypoint \(type)") }.count == typed.count, "\(type) in \(r.output)")
        }
    }

    @Test("a book without an id gets one when its first drawing is saved, and the drawing names it")
    func idGiven() async throws {
        let f = try await Fixture()
        var book = try BookFile.read(contentsOf: f.book)
        book.id = nil
        try BookFile.write(book, to: f.book)
        #expect(await f.handles(["list"], asking: false).status == 0)
        #expect(try BookFile.read(contentsOf: f.book).id == nil, "listing writes nothing")
        let r = await f.handles(["remove", "2"])
        #expect(r.status == 0, "\(r.errors)")
        let id = try #require(try BookFile.read(contentsOf: f.book).id)
        #expect(try RouteDraft.load(for: f.book, expecting: id)?.bookID == id)
    }

    @Test("apply makes the drawing the book's route and the draft is done with; undo-apply brings the old route back")
    func drawThenApply() async throws {
        let f = try await Fixture()
        let before = try BookFile.read(contentsOf: f.book)
        let added = await f.handles(["add", "42.5170 1.5450"])
        #expect(added.status == 0, "\(added.errors)")
        #expect(FileManager.default.fileExists(atPath: f.draft.path))
        // The book itself is untouched until Apply.
        #expect(try BookFile.read(contentsOf: f.book).route == before.route)
        let applied = await roadbook(["apply", f.book.path])
        #expect(applied.status == 0, "\(applied.errors)")
        let after = try BookFile.read(contentsOf: f.book)
        #expect(after.plan?.handles.count == 4 && after.id == before.id, "\(applied.output)")
        #expect(Polyline(after.route.coordinates).length > Polyline(before.route.coordinates).length)
        #expect(!FileManager.default.fileExists(atPath: f.draft.path), "the applied drawing leaves no draft behind")
        let undone = await roadbook(["undo-apply", f.book.path])
        #expect(undone.status == 0, "\(undone.errors)")
        #expect(try BookFile.read(contentsOf: f.book).route == before.route)
    }
}

/// `handles add PLACE` and `route --handle PLACE`: a place typed by its name, found in the extract.
@Suite("roadbook handles: places by name")
struct HandlesByNameTests {
    static var osm: [String] { get throws { ["--osm", try testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf").path] } }

    @Test("a place's name finds the place=* node, then a road's name its road; the handle goes there, named after it, and moves onto the road")
    func found() async throws {
        let f = try await HandlesCommandTests.Fixture()
        let r = await f.handles(["add", "Canillo | Fuel | F1", "--at", "2"])
        #expect(r.status == 0 && r.output.hasPrefix("Canillo (town): 42.566707, 1.598030\n"), "\(r.output) \(r.errors)")
        let list = await f.handles(["list"], asking: false)
        let handle = try #require(list.output.split(separator: "\n").first { $0.hasPrefix("handle 2: ") })
        #expect(handle.contains(", tapped, named \"Canillo\", note \"Fuel\" [F1]"), "\(handle)")
        // A name only roads have: Avinguda de Tarragona, one street of many ways in Andorra la Vella.
        let road = await f.handles(["add", "avinguda de tarragona"] + (try Self.osm), asking: false)
        #expect(road.status == 0 && road.output.hasPrefix("Avinguda de Tarragona (road): "), "\(road.output) \(road.errors)")
    }

    @Test("a name several places have lists them with their coordinates; a name nothing has says so; a coordinate stays a coordinate")
    func ambiguousAndMissing() async throws {
        let f = try await HandlesCommandTests.Fixture()
        let osm = try Self.osm
        let several = await f.handles(["add", "Carrer Major"] + osm, asking: false)
        #expect(several.status != 0 && several.errors.contains("'Carrer Major' names 3 places in andorra.osm.pbf: Carrer Major (road) 42."),
                "\(several.errors)")
        #expect(several.errors.components(separatedBy: "(road) ").count == 4, "each with its coordinates: \(several.errors)")
        let none = await f.handles(["add", "Nowhereville"] + osm, asking: false)
        #expect(none.status != 0 && none.errors.contains("no place or road named 'Nowhereville' in andorra.osm.pbf"), "\(none.errors)")
        let hint = await f.handles(["add", "Envalira"] + osm, asking: false)
        #expect(hint.errors.contains("names containing it: ") && hint.errors.contains("Port d'Envalira"), "\(hint.errors)")
        let withoutMap = await f.handles(["add", "Canillo"], asking: false)
        #expect(withoutMap.status != 0 && withoutMap.errors.contains("give --osm EXTRACT"), "\(withoutMap.errors)")
        let typo = await f.handles(["add", "42.5 1.5x"] + osm, asking: false)
        #expect(typo.status != 0 && typo.errors.contains("as a coordinate"), "a mistyped coordinate is not looked up as a name: \(typo.errors)")
        #expect(await f.handles(["list"], asking: false).output.hasPrefix("3 handles"), "nothing was added")
    }

    @Test("route --handle takes place names too")
    func route() async throws {
        let folder = try TemporaryFolder()
        let book = folder.path("r.json")
        let r = await roadbook(["route", "--handle", "Canillo", "--handle", "Encamp | Town | E1", "--engine", "embedded", "--book", book.path] + (try Self.osm))
        #expect(r.status == 0, "\(r.errors)")
        let handles = try #require(try BookFile.read(contentsOf: book).plan?.handles)
        #expect(handles.map(\.name) == ["Canillo", "Encamp"] && handles.map(\.origin) == [.tapped, .tapped])
        #expect(handles[1].note == HandleNote(text: "Town", marker: "E1"))
        let withoutMap = await roadbook(["route", "--handle", "Canillo", "--handle", "Encamp", "--engine", "osrm", "--book", book.path])
        #expect(withoutMap.status != 0 && withoutMap.errors.contains("give --osm EXTRACT"), "\(withoutMap.errors)")
    }

    @Test("list takes --osm without an engine and names the handles from it; clear names the book as it was typed")
    func listAndClear() async throws {
        let f = try await HandlesCommandTests.Fixture()
        let list = await f.handles(["list"] + (try Self.osm), asking: false)
        #expect(list.status == 0, "\(list.errors)")
        #expect(list.output.split(separator: "\n").filter { $0.hasPrefix("handle ") }.allSatisfy { $0.contains(", named \"") }, "\(list.output)")
        // The book's path relative to the working folder, as a person types it.
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.pathComponents
        let there = f.book.standardizedFileURL.pathComponents
        let common = zip(here, there).prefix { $0 == $1 }.count
        let typed = (Array(repeating: "..", count: here.count - common) + there.dropFirst(common)).joined(separator: "/")
        let cleared = await roadbook(["handles", typed, "clear"])
        #expect(cleared.status == 0 && cleared.output.hasPrefix("drawing cleared: \(typed) keeps its route"), "\(cleared.output) \(cleared.errors)")
        #expect(cleared.output.contains("`roadbook handles \(typed) undo`"), "\(cleared.output)")
        #expect(await roadbook(["handles", typed, "clear"]).output.contains("no handles in the drawing of \(typed): nothing to clear"))
    }
}
