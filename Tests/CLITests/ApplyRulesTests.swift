import Foundation
import Formats
import Geo
import Model
import RoadbookCLI
import Testing
import TestSupport
import Workflows

/// The route editor's rules for changing a book's route, as the command line keeps them: on the
/// sample's books (`MatrixBooks`), offline with the embedded router over the Andorra extract.
@Suite("The rules of changing a route: apply, the drawing's status, stops, turn notes, modes, names")
struct ApplyRulesTests {
    /// A copy of one of the matrix's books in `folder`, as `book.json`.
    static func book(_ kind: ChangeMatrixTests.Kind, in folder: TemporaryFolder) async throws -> URL {
        let url = folder.path("book.json")
        try await MatrixBooks.shared.bytes(of: kind).write(to: url)
        return url
    }

    // MARK: Apply applies only a drawing that differs from the book's route

    @Test("apply refuses, in one line, a drawing that is the book's route; handles status says which it is and what differs")
    func applyOnlyADifferentDrawing() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.book(.handles, in: folder)
        let before = try Data(contentsOf: url)
        func handles(_ words: [String]) async -> (status: Int32, output: String, errors: String) {
            await roadbook(["handles", url.path] + words + MatrixBooks.engine)
        }
        let fresh = await roadbook(["apply", url.path])
        #expect(fresh.status == 1 && fresh.errors == "roadbook apply: \(url.path): the drawing is the book's route: nothing to apply\n",
                "\(fresh.errors)")
        #expect(try Data(contentsOf: url) == before, "a refused Apply writes nothing")
        #expect(await handles(["status"]).output == "This is the book's route\n")

        #expect(await handles(["move", "2", "42.5095,1.5330"]).status == 0)
        let moved = await handles(["status"])
        #expect(moved.output.hasPrefix("Not applied yet") && moved.output.contains("handles moved: 2\n"), "\(moved.output)")
        #expect(moved.errors.contains("Unfinished drawing restored"), "a drawing that differs is restored with the notice")

        #expect(await handles(["undo"]).status == 0)
        let undone = await handles(["list"])
        #expect(!undone.errors.contains("Unfinished drawing restored"), "a draft that is the book's route is no unfinished drawing: \(undone.errors)")
        #expect(await handles(["status"]).output == "This is the book's route\n")
        let again = await roadbook(["apply", url.path])
        #expect(again.status == 1 && again.errors.contains("nothing to apply"), "\(again.errors)")

        #expect(await handles(["add", "42.5190 1.5480"]).status == 0)
        #expect(await handles(["remove", "2"]).status == 0)
        #expect(await handles(["mode", "cycle"]).status == 0)
        let changed = await handles(["status"])
        for line in ["handles added: 5", "handles removed: 2 of the book's route", "mode: cycle (the book's: drive)"] {
            #expect(changed.output.contains(line + "\n"), "'\(line)': \(changed.output)")
        }
        let applied = await roadbook(["apply", url.path])
        #expect(applied.status == 0, "\(applied.errors)")
        #expect(await handles(["status"]).output == "This is the book's route\n", "once applied, the drawing is the book's route")
    }

    @Test("a book from a track: its route traced into handles is its route until a handle changes, and again once undone")
    func trackBookStatus() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.book(.track, in: folder)
        let before = try Data(contentsOf: url)
        func handles(_ words: [String]) async -> (status: Int32, output: String, errors: String) {
            await roadbook(["handles", url.path] + words)
        }
        #expect(await handles(["status"]).output == "This is the book's route\n", "a drawing only started is the book's route")
        let fresh = await roadbook(["apply", url.path])
        #expect(fresh.status == 1 && fresh.errors.contains("no drawn route to apply"), "\(fresh.errors)")

        #expect(await handles(["note", "3", "Bridge"]).status == 0)
        let noted = await handles(["status"])
        #expect(noted.output == "Not applied yet: `roadbook apply \(url.path)` makes the drawing the book's route\nhandle notes changed: 3\n",
                "\(noted.output)")
        #expect(noted.errors.contains("Unfinished drawing restored"))

        #expect(await handles(["undo"]).status == 0)
        let undone = await handles(["status"])
        #expect(undone.output == "This is the book's route\n" && !undone.errors.contains("Unfinished drawing restored"), "\(undone)")
        let again = await roadbook(["apply", url.path])
        #expect(again.status == 1 && again.errors.contains("nothing to apply"), "\(again.errors)")
        #expect(try Data(contentsOf: url) == before, "a refused Apply writes nothing")
    }

    // MARK: The stop limit

    @Test("route refuses more than 14 handles unless --max-stops says otherwise, and keeps the limit in the plan")
    func routeDefaultStopLimit() async throws {
        let folder = try TemporaryFolder()
        let handles = (0..<15).flatMap { k in ["--handle", String(format: "42.5063 %.4f", 1.5218 + Double(k) * 0.001)] }
        let refused = await roadbook(["route", "--book", folder.path("r.json").path, "--legs", "straight"] + handles)
        #expect(refused.status == 1 && refused.errors.contains("the route has 15 stops, more than --max-stops 14: remove 1, or raise --max-stops"),
                "\(refused.errors)")
        let raised = await roadbook(["route", "--book", folder.path("a.json").path, "--legs", "straight", "--max-stops", "20"] + handles)
        #expect(raised.status == 0, "\(raised.errors)")
        #expect(try BookFile.read(contentsOf: folder.path("a.json")).plan?.maximumStops == 20)
    }

    @Test("handles add and split keep the route's stop limit, with route's message; --max-stops changes it and is kept")
    func handlesStopLimit() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.book(.handles, in: folder)
        #expect(try BookFile.read(contentsOf: url).plan?.maximumStops == 14, "route's default is kept in the plan")
        func handles(_ words: [String]) async -> (status: Int32, output: String, errors: String) {
            await roadbook(["handles", url.path] + words + MatrixBooks.engine)
        }
        let draft = RouteDraft.url(for: url)
        let refused = await handles(["add", "42.5190 1.5480", "--max-stops", "5"])
        #expect(refused.status == 1 && refused.errors.contains("the drawing has 6 stops, more than --max-stops 5: remove 1, or raise --max-stops"),
                "\(refused.errors)")
        #expect(!FileManager.default.fileExists(atPath: draft.path), "a refused edit saves nothing")
        #expect(await handles(["split", "1", "--max-stops", "7"]).status == 0)
        #expect(await handles(["split", "1"]).status == 0)
        let past = await handles(["add", "42.5190 1.5480"])
        #expect(past.status == 1 && past.errors.contains("the drawing has 8 stops, more than --max-stops 7"), "the limit given is kept: \(past.errors)")
        let wrong = await handles(["move", "2", "42.5190 1.5480", "--max-stops", "9"])
        #expect(wrong.status == 64 && wrong.errors.contains("--max-stops goes with add or split"), "\(wrong.errors)")
    }

    @Test("a drawing traced from a track has no stop limit unless one is given")
    func tracedDrawingHasNoLimit() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.book(.track, in: folder)
        let added = await roadbook(["handles", url.path, "add", "42.5190 1.5480"] + MatrixBooks.engine)
        #expect(added.status == 0, "\(added.errors)")
        let limited = await roadbook(["handles", url.path, "add", "42.5191 1.5481", "--max-stops", "14"] + MatrixBooks.engine)
        #expect(limited.status == 1 && limited.errors.contains("more than --max-stops 14"), "\(limited.errors)")
    }

    // MARK: Turn notes on apply

    @Test("a turn near a person's note joins it on every Apply, not only the first: one row at the junction")
    func turnJoinsAPersonsNoteOnEveryApply() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.book(.handles, in: folder)
        let book = try BookFile.read(contentsOf: url)
        let turn = try #require(book.notes.first { $0.kind == .turn && $0.generated != nil && $0.distanceAlong > 100 })
        let at = String(format: "%.7f,%.7f", turn.coordinate.latitude, turn.coordinate.longitude)
        let added = await roadbook(["note", url.path, "add", "Cattle grid", "--at", at])
        #expect(added.status == 0, "\(added.errors)")
        for words in [["add", "42.5190 1.5480"], ["remove", "6"]] {
            #expect(await roadbook(["handles", url.path] + words + MatrixBooks.engine).status == 0)
            let applied = await roadbook(["apply", url.path, "--osm", MatrixBooks.extract.path])
            #expect(applied.status == 0, "\(applied.errors)")
            let after = try BookFile.read(contentsOf: url)
            let near = after.notes.filter { $0.placement == .onRoute && abs($0.distanceAlong - turn.distanceAlong) < 30 }
            #expect(near.count == 1 && near.first?.text == "Cattle grid" && near.first?.generated != nil,
                    "[\(words[0])] the turn joins the person's note: one row, \(near.map { "\($0.id) '\($0.text)'" }): \(applied.output)")
        }
    }

    /// A book routed through the matrix's handles without turn notes (`route --no-turns`), its
    /// drawing changed (a handle added at the end), ready to apply.
    static func bookWithoutTurns(in folder: TemporaryFolder) async throws -> URL {
        let url = folder.path("book.json")
        let made = await roadbook(["route", "--book", url.path, "--no-turns"] + MatrixBooks.handles.flatMap { ["--handle", $0] }
                                  + MatrixBooks.engine)
        #expect(made.status == 0, "\(made.errors)")
        #expect(await roadbook(["handles", url.path, "add", "42.5190 1.5480"] + MatrixBooks.engine).status == 0)
        return url
    }

    @Test("a book made with --no-turns remembers it: apply adds no turn notes unless told, and a choice given is kept")
    func noTurnsRemembered() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.bookWithoutTurns(in: folder)
        #expect(try BookFile.read(contentsOf: url).settings.noTurnNotes == true)
        let applied = await roadbook(["apply", url.path])
        #expect(applied.status == 0, "\(applied.errors)")
        var book = try BookFile.read(contentsOf: url)
        #expect(!book.notes.contains { $0.generated != nil }, "no turn notes: \(applied.output)")
        #expect(!applied.output.contains("not added"), "nothing was offered: the book keeps no turn notes: \(applied.output)")
        #expect(await roadbook(["handles", url.path, "remove", "6"] + MatrixBooks.engine).status == 0)
        let all = await roadbook(["apply", url.path, "--turns", "all"])
        #expect(all.status == 0, "\(all.errors)")
        book = try BookFile.read(contentsOf: url)
        #expect(book.notes.contains { $0.kind == .turn && $0.generated != nil } && book.settings.noTurnNotes == nil,
                "--turns all adds them and is kept: \(all.output)")
    }

    @Test("--turns ask puts the question on a terminal (y adds them); with nobody to answer none are added and the summary says so")
    func askOnTerminal() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.bookWithoutTurns(in: folder)
        let copy = folder.path("copy.json")
        try FileManager.default.copyItem(at: url, to: copy)
        try FileManager.default.copyItem(at: RouteDraft.url(for: url), to: RouteDraft.url(for: copy))
        let unattended = await roadbook(["apply", copy.path, "--turns", "ask"])
        #expect(unattended.status == 0, "\(unattended.errors)")
        #expect(!(try BookFile.read(contentsOf: copy)).notes.contains { $0.generated != nil })
        let offered = try #require(unattended.output.range(of: #"(\d+) turn notes? not added"#, options: .regularExpression),
                                   "the summary counts the turns not added: \(unattended.output)")
        let count = unattended.output[offered].split(separator: " ")[0]

        let console = CapturingConsole(answers: [true])
        let status = await Roadbook.main(["apply", url.path, "--turns", "ask"], console: console)
        #expect(status == 0, "\(console.errors)")
        #expect(console.questions == ["Add \(count) turn notes? (y/N)"], "\(console.questions)")
        let book = try BookFile.read(contentsOf: url)
        #expect(book.notes.filter { $0.generated != nil }.count == Int(count), "yes adds them: \(console.output)")
    }

    @Test("apply without --turns regenerates the turn notes of a book that has some, asking nothing")
    func askRegeneratesWithoutAQuestion() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.book(.handles, in: folder)
        #expect(await roadbook(["handles", url.path, "add", "42.5190 1.5480"] + MatrixBooks.engine).status == 0)
        let console = CapturingConsole(answers: [false])
        #expect(await Roadbook.main(["apply", url.path], console: console) == 0, "\(console.errors)")
        #expect(console.questions.isEmpty, "\(console.questions)")
        #expect(try BookFile.read(contentsOf: url).notes.contains { $0.kind == .turn && $0.generated != nil })
    }

    // MARK: The travel mode, remembered

    @Test("the last travel mode is remembered for the person (XDG_CONFIG_HOME, else ~/.config) and a new book takes it without --mode")
    func travelModeRememberedPerUser() async throws {
        let folder = try TemporaryFolder()
        let config = folder.path("config")
        func run(_ arguments: [String], _ environment: [String: String]) async -> (status: Int32, output: String, errors: String) {
            let console = CapturingConsole(environment: environment)
            let status = await Roadbook.main(arguments, console: console)
            return (status, console.output, console.errors)
        }
        let xdg = ["XDG_CONFIG_HOME": config.path, "HOME": folder.path("home").path]
        let handles = MatrixBooks.handles.flatMap { ["--handle", $0] }
        #expect(await run(["route", "--book", folder.path("a.json").path, "--mode", "cycle"] + handles + MatrixBooks.engine, xdg).status == 0)
        let file = config.appendingPathComponent("roadbook/settings.json")
        #expect(FileManager.default.fileExists(atPath: file.path), "the mode given is remembered in the config folder")
        let b = await run(["route", "--book", folder.path("b.json").path] + handles + MatrixBooks.engine, xdg)
        #expect(b.status == 0, "\(b.errors)")
        #expect(try BookFile.read(contentsOf: folder.path("b.json")).plan?.mode == .cycle, "a new book takes the mode last given")

        // `handles BOOK mode` is remembered too; without XDG_CONFIG_HOME the file is in ~/.config.
        let home = ["HOME": folder.path("home").path]
        #expect(await run(["handles", folder.path("b.json").path, "mode", "walk"] + MatrixBooks.engine, home).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path("home/.config/roadbook/settings.json").path))
        #expect(await run(["route", "--book", folder.path("c.json").path, "--legs", "straight"] + handles, home).status == 0)
        #expect(try BookFile.read(contentsOf: folder.path("c.json")).plan?.mode == .walk)
        // With neither, nothing is remembered: drive.
        #expect(await run(["route", "--book", folder.path("d.json").path, "--legs", "straight"] + handles, [:]).status == 0)
        #expect(try BookFile.read(contentsOf: folder.path("d.json")).plan?.mode == .drive)
    }

    @Test("a book remembers its own travel mode: its drawing, a retry and a regeneration use it, whatever the person's last")
    func travelModeRememberedPerBook() async throws {
        let folder = try TemporaryFolder()
        let url = folder.path("book.json")
        let environment = ["XDG_CONFIG_HOME": folder.path("config").path]
        func run(_ arguments: [String]) async -> (status: Int32, output: String, errors: String) {
            let console = CapturingConsole(environment: environment)
            let status = await Roadbook.main(arguments, console: console)
            return (status, console.output, console.errors)
        }
        #expect(await run(["route", "--book", url.path, "--mode", "cycle"] + MatrixBooks.handles.flatMap { ["--handle", $0] }
                          + MatrixBooks.engine).status == 0)
        #expect(await run(["route", "--book", folder.path("other.json").path, "--mode", "walk", "--legs", "straight"]
                          + MatrixBooks.handles.flatMap { ["--handle", $0] }).status == 0)
        let listed = await run(["handles", url.path, "list"])
        #expect(listed.output.hasPrefix("5 handles, mode cycle"), "the book's drawing keeps the book's mode: \(listed.output)")
        #expect(await run(["route", "--retry", "--book", url.path] + MatrixBooks.engine).status == 0)
        #expect(try BookFile.read(contentsOf: url).plan?.mode == .cycle, "a retry keeps the plan's mode")
    }

    // MARK: The drawing, seen before it is applied

    @Test("export --drawing writes the route the drawing would make, not yet applied; the book is untouched")
    func exportTheDrawing() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.book(.handles, in: folder)
        #expect(await roadbook(["handles", url.path, "add", "42.5190 1.5480"] + MatrixBooks.engine).status == 0)
        let before = try Data(contentsOf: url)
        func lastPoint(_ gpx: URL) throws -> String {
            let text = try String(contentsOf: gpx, encoding: .utf8)
            let points = text.components(separatedBy: "<trkpt ").dropFirst()
            return String(try #require(points.last).prefix(40))
        }
        let drawn = await roadbook(["export", url.path, "--drawing", "-o", folder.path("d.gpx").path])
        #expect(drawn.status == 0, "\(drawn.errors)")
        let book = await roadbook(["export", url.path, "-o", folder.path("b.gpx").path])
        #expect(book.status == 0, "\(book.errors)")
        let (drawnEnd, bookEnd) = (try lastPoint(folder.path("d.gpx")), try lastPoint(folder.path("b.gpx")))
        #expect(drawnEnd.contains("lat=\"42.519"), "the drawing's route ends at its new handle: \(drawnEnd)")
        #expect(bookEnd != drawnEnd, "the book's own route is not the drawing's: \(bookEnd)")
        #expect(try Data(contentsOf: url) == before, "nothing is applied")
    }

    @Test("profile --drawing draws the drawing's heights with a tick per handle; it needs heights, and --dem needs --drawing")
    func profileOfTheDrawing() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.book(.handles, in: folder)
        #expect(await roadbook(["handles", url.path, "remove", "3"] + MatrixBooks.engine).status == 0)
        let dem = try testDataFolder().appendingPathComponent("andorra/N42E001.hgt.zip")
        let png = folder.path("p.png")
        let drawn = await roadbook(["profile", url.path, "--drawing", "-o", png.path, "--dem", dem.path])
        #expect(drawn.status == 0 && drawn.output.hasSuffix(", 4 handles\n"), "\(drawn.output)\(drawn.errors)")
        #expect(FileManager.default.fileExists(atPath: png.path))
        let (profile, handles) = try await drawDrawingProfile(book: url, to: folder.path("p.svg"), width: 720, height: 260,
                                                              terrain: TerrainRequest(dems: [dem]), log: MessageList())
        #expect(handles == 4 && profile.isComplete && profile.climb > 0)
        let svg = try String(contentsOf: folder.path("p.svg"), encoding: .utf8)
        #expect(svg.contains("<svg"), "an SVG chart")
        let bare = await roadbook(["profile", url.path, "--drawing", "-o", folder.path("q.png").path])
        #expect(bare.status == 1 && bare.errors.contains("the drawing has no terrain yet"), "\(bare.errors)")
        let misplaced = await roadbook(["profile", url.path, "-o", folder.path("r.png").path, "--dem", dem.path])
        #expect(misplaced.status == 64, "\(misplaced.errors)")
    }

    // MARK: Warnings and report lines, each once

    @Test("regenerate lists a turn row the new route leaves once, as removed, never also as off the route")
    func regenerateRemovedNotAlsoOffRoute() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.book(.track, in: folder)
        let points = try ChangeSequenceTests.samplePoints()
        let half = folder.path("half.gpx")
        try gpxTrack(Array(points.prefix(points.count / 2))).write(to: half, atomically: true, encoding: .utf8)
        let r = await roadbook(["regenerate", url.path, "--route", half.path, "--osm", MatrixBooks.extract.path])
        #expect(r.status == 0, "\(r.errors)")
        let lines = r.output.split(separator: "\n").map(String.init)
        let removed = lines.filter { $0.hasPrefix("removed at ") }
        #expect(!removed.isEmpty, "the turns past the half are removed: \(r.output)")
        for line in removed {
            let text = line.split(separator: "\"").dropFirst().first.map(String.init) ?? line
            #expect(!lines.contains { $0.hasPrefix("off the route: ") && $0.contains(text) },
                    "'\(text)' is listed once, as removed, not also off the route: \(r.output)")
        }
        #expect(lines.contains { $0.hasPrefix("off the route: ") }, "a waypoint past the half is off the route: \(r.output)")
    }

    @Test("apply says each warning once, on standard error: the terrain dropped is not repeated among the report's lines")
    func applyWarnsOnce() async throws {
        let folder = try TemporaryFolder()
        let url = folder.path("book.json")
        let dem = try testDataFolder().appendingPathComponent("andorra/N42E001.hgt.zip")
        let made = await roadbook(["route", "--book", url.path, "--dem", dem.path] + MatrixBooks.handles.flatMap { ["--handle", $0] }
                                  + MatrixBooks.engine)
        #expect(made.status == 0, "\(made.errors)")
        #expect(await roadbook(["handles", url.path, "remove", "2"] + MatrixBooks.engine).status == 0)
        let applied = await roadbook(["apply", url.path])
        #expect(applied.status == 0, "\(applied.errors)")
        let said = (applied.output + applied.errors).components(separatedBy: "the terrain belonged to the old route").count - 1
        #expect(said == 1 && applied.errors.contains("warning: the terrain belonged to the old route"),
                "the dropped terrain is said once, as a warning on standard error: \(applied.output)\(applied.errors)")
        #expect(!applied.output.contains("warning"), "standard output has the report, no warning: \(applied.output)")
    }

    @Test("the heights stay when the route stays: regenerate on the same track, and Apply of a drawing whose line is the book's, keep them; a moved handle drops them")
    func heightsStayWithTheRoute() async throws {
        let folder = try TemporaryFolder()
        let url = folder.path("book.json")
        let dem = try testDataFolder().appendingPathComponent("andorra/N42E001.hgt.zip")
        let track = try testDataFolder().deletingLastPathComponent().appendingPathComponent("andorra-envalira.gpx")
        #expect(await roadbook(["build", track.path, "-o", folder.path("b.pdf").path, "--book", url.path, "--dem", dem.path,
                                "--osm", MatrixBooks.extract.path]).status == 0)
        let built = try BookFile.read(contentsOf: url)
        let profile = try #require(built.profile)
        #expect(profile.isComplete && built.notes.allSatisfy { $0.elevation != nil })

        let again = await roadbook(["regenerate", url.path, "--route", track.path, "--osm", MatrixBooks.extract.path])
        #expect(again.status == 0 && !again.errors.contains("terrain"), "\(again.errors)")
        #expect(again.output.contains("0 tulips redrawn from the road"), "the same road draws the same tulips: \(again.output)")
        var regenerated = try BookFile.read(contentsOf: url)
        regenerated.revision = built.revision
        #expect(regenerated == built, "the same track and the same map change nothing, the heights least of all")

        // A handle note changes the drawing, not its line: the heights stay, and the new row gets one.
        #expect(await roadbook(["handles", url.path, "note", "3", "Bridge"]).status == 0)
        let applied = await roadbook(["apply", url.path, "--osm", MatrixBooks.extract.path])
        #expect(applied.status == 0 && !applied.errors.contains("terrain"), "\(applied.errors)")
        let noted = try BookFile.read(contentsOf: url)
        #expect(noted.profile == profile)
        let bridge = try #require(noted.notes.first { $0.text == "Bridge" })
        let expected = try #require(profile.height(atDistance: bridge.distanceAlong, routeLength: Polyline(noted.route.coordinates).length))
        #expect(abs((bridge.elevation ?? -1) - expected) < 0.06, "\(bridge.elevation ?? -1) vs \(expected)")
        // The track again over the applied drawing (the track without the handles' points): the same line.
        let back = await roadbook(["regenerate", url.path, "--route", track.path, "--osm", MatrixBooks.extract.path])
        #expect(back.status == 0 && !back.errors.contains("terrain"), "\(back.errors)")
        #expect(try BookFile.read(contentsOf: url).profile == profile)

        // A handle moved 400 m off the track: another line, whose heights the book does not have.
        let moved = try #require(noted.plan?.handles[9].placed)
        #expect(await roadbook(["handles", url.path, "move", "10", String(format: "%.6f,%.6f", moved.latitude + 0.004, moved.longitude)]
                                + MatrixBooks.engine).status == 0)
        let changed = await roadbook(["apply", url.path, "--osm", MatrixBooks.extract.path])
        #expect(changed.status == 0 && changed.errors.contains("the terrain belonged to the old route"), "\(changed.errors)")
        #expect(try BookFile.read(contentsOf: url).profile == nil)
    }

    // MARK: Smaller rules

    @Test("a drawing reopened knows which engine answered: its messages name it without --engine")
    func engineNameKeptAfterReload() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.book(.handles, in: folder)
        let limiting = try FaultServer(handler: { _ in .respond(429, body: Data("Too Many Requests".utf8)) })
        let added = await roadbook(["handles", url.path, "add", "42.5190 1.5480", "--engine", "osrm", "--url", limiting.baseURL.absoluteString])
        limiting.stop()
        #expect(added.status == 0 && added.output.contains("OSRM is limiting requests"), "\(added.output)\(added.errors)")
        let listed = await roadbook(["handles", url.path, "list"])
        #expect(listed.output.contains("OSRM is limiting requests") && !listed.output.contains("The routing engine"),
                "the reopened drawing names the engine that answered: \(listed.output)")
    }

    @Test("route --retry rewrites the length in the title and the description the program wrote: the new roads and the engine that gave them")
    func retryRewritesTitleAndDescription() async throws {
        let folder = try TemporaryFolder()
        let url = folder.path("book.json")
        let limiting = try FaultServer(handler: { _ in .respond(429, body: Data("Too Many Requests".utf8)) })
        let made = await roadbook(["route", "--book", url.path, "--engine", "osrm", "--url", limiting.baseURL.absoluteString,
                                   "--use-straight"] + MatrixBooks.handles.flatMap { ["--handle", $0] })
        limiting.stop()
        #expect(made.status == 0, "\(made.errors)")
        let straight = try BookFile.read(contentsOf: url)
        let before = RouteNames.distanceText(Polyline(straight.route.coordinates).length, units: .kilometres)
        #expect(straight.title == "Drive, \(before)" && straight.description == "Route via OSRM Directions",
                "\(straight.title) / \(straight.description ?? "none")")
        let retried = await roadbook(["route", "--retry", "--book", url.path] + MatrixBooks.engine)
        #expect(retried.status == 0, "\(retried.errors)")
        let book = try BookFile.read(contentsOf: url)
        let after = RouteNames.distanceText(Polyline(book.route.coordinates).length, units: .kilometres)
        #expect(after != before && book.title == "Drive, \(after)", "the title has the new length: \(book.title)")
        #expect(book.description?.hasPrefix("Route via ") == true && book.description?.hasSuffix(" · embedded router Directions") == true,
                "the description names the roads and the engine that gave them: \(book.description ?? "none")")
    }

    @Test("a description a person wrote stays through an Apply")
    func personsDescriptionStays() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.book(.handles, in: folder)
        var book = try BookFile.read(contentsOf: url)
        #expect(book.description?.hasSuffix(" · embedded router Directions") == true, "\(book.description ?? "none")")
        book.description = "Along the river"
        try BookFile.write(book, to: url)
        #expect(await roadbook(["handles", url.path, "remove", "2"] + MatrixBooks.engine).status == 0)
        #expect(await roadbook(["apply", url.path]).status == 0)
        #expect(try BookFile.read(contentsOf: url).description == "Along the river")
    }

    @Test("route --legs straight asks no engine: --engine may be left out; road legs without one are refused in one line")
    func straightLegsNeedNoEngine() async throws {
        let folder = try TemporaryFolder()
        let url = folder.path("book.json")
        let handles = MatrixBooks.handles.flatMap { ["--handle", $0] }
        let made = await roadbook(["route", "--book", url.path, "--legs", "straight"] + handles)
        #expect(made.status == 0, "\(made.errors)")
        #expect(made.output.contains("leg 1–2: straight"), "\(made.output)")
        let book = try BookFile.read(contentsOf: url)
        #expect(book.plan?.legs.allSatisfy { $0.kind == .straight } == true && book.plan?.engine == nil)
        let refused = await roadbook(["route", "--book", folder.path("road.json").path] + handles)
        #expect(refused.status == 64 && refused.errors.contains("missing --engine"), "\(refused.errors)")

        // A place found by name in --osm needs no engine either. Canillo's centre is at 42°34′N
        // 1°36′E (the parish's published coordinates): the handle lands within 1.5 km of it.
        let named = folder.path("named.json")
        let found = await roadbook(["route", "--book", named.path, "--legs", "straight", "--osm", MatrixBooks.extract.path,
                                    "--handle", MatrixBooks.handles[0], "--handle", "Canillo"])
        #expect(found.status == 0, "\(found.errors)")
        let canillo = try #require(try BookFile.read(contentsOf: named).plan?.handles.last)
        #expect(canillo.coordinate.distance(to: Coordinate(latitude: 42.5667, longitude: 1.6)) < 1500, "\(canillo.coordinate)")
    }
}
