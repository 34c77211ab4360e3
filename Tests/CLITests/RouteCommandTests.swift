import Foundation
import Formats
import Geo
import Model
import RoadbookCLI
import Testing
import TestSupport

/// `roadbook route` with the embedded router on a small extract, and with an "OSRM" that limits
/// requests and then answers, on loopback.
@Suite("roadbook route")
struct RouteCommandTests {
    /// The extract of TurnCommandsTests: a crossroads at b (300 m east of a), d north, e south.
    static func handles(_ points: [(Double, Double, String)]) -> String {
        let features = points.map { x, y, properties -> String in
            let c = TurnCommandsTests.grid(x, y)
            return "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [\(c.longitude), \(c.latitude)]}, \"properties\": {\(properties)}}"
        }
        return "{\"type\": \"FeatureCollection\", \"features\": [\(features.joined(separator: ","))]}"
    }

    @Test("embedded router: roads found, tapped handles on the road, a surveyed one kept, notes at handles, turns from junctions, the plan stored")
    func embedded() async throws {
        let folder = try TemporaryFolder()
        try TurnCommandsTests.extract.write(to: folder.path("x.osm"), atomically: true, encoding: .utf8)
        // a (surveyed, 20 m off the road) → b-ish (tapped 15 m off) → d (with a handle note).
        try Self.handles([(0, 20, "\"origin\": \"coordinate\""), (310, 15, ""), (300, 300, "\"note\": \"Chapel\", \"marker\": \"P1\"")])
            .write(to: folder.path("h.geojson"), atomically: true, encoding: .utf8)
        let r = await roadbook(["route", folder.path("h.geojson").path, "--engine", "embedded", "--osm", folder.path("x.osm").path,
                                "--book", folder.path("b.json").path, "-o", folder.path("b.pdf").path])
        #expect(r.status == 0, "\(r.errors)")
        #expect(r.output.contains("leg 1–2: road") && r.output.contains("leg 2–3: road"), "\(r.output)")
        let book = try BookFile.read(contentsOf: folder.path("b.json"))
        let plan = try #require(book.plan)
        #expect(plan.handles.count == 3 && plan.mode == .drive)
        #expect(plan.handles[0].coordinate == plan.handles[0].placed, "a surveyed handle never moves")
        #expect(plan.handles[1].coordinate.distance(to: plan.handles[1].placed) > 5, "a tapped handle moves onto the road")
        let note = try #require(book.notes.first { $0.marker == "P1" })
        #expect(abs(note.distanceAlong - (book.route.coordinates.count > 0 ? Polyline(book.route.coordinates).length : 0)) < 1,
                "the note on the last handle sits exactly at the route's end")
        #expect(book.notes.contains { $0.generated?.text == "Turn left onto Cami Nord" }, "\(book.notes.map(\.text))")
        #expect(FileManager.default.fileExists(atPath: folder.path("b.pdf").path))
    }

    @Test("no road in this mode: the leg is straight, counted, and the message names the mode and the first such leg")
    func noRoad() async throws {
        let folder = try TemporaryFolder()
        try TurnCommandsTests.extract.write(to: folder.path("x.osm"), atomically: true, encoding: .utf8)
        // Walking is allowed everywhere here; a motorway-free map: use cycle on a road that is
        // a track only reachable... simplest: a handle 3 km from any road.
        try Self.handles([(0, 0, ""), (300, 0, ""), (300, 3000, "")]).write(to: folder.path("h.geojson"), atomically: true, encoding: .utf8)
        let r = await roadbook(["route", folder.path("h.geojson").path, "--engine", "embedded", "--osm", folder.path("x.osm").path,
                                "--book", folder.path("b.json").path])
        #expect(r.status == 0, "\(r.errors)")
        #expect(r.output.contains("leg 2–3: no road (straight)") && r.output.contains("No driving route from 2 to 3"), "\(r.output)")
        #expect(r.output.contains("1 straight leg"))
    }

    @Test("an engine that limits requests: the leg waits, straight for now; --retry asks it again")
    func rateLimitedThenRetry() async throws {
        let folder = try TemporaryFolder()
        let limiting = try FaultServer(handler: { _ in .respond(429, body: Data("Too Many Requests".utf8)) })
        try Self.handles([(0, 0, ""), (600, 0, "")]).write(to: folder.path("h.geojson"), atomically: true, encoding: .utf8)
        let unfinished = await roadbook(["route", folder.path("h.geojson").path, "--engine", "osrm", "--url", limiting.baseURL.absoluteString,
                                         "--book", folder.path("b.json").path])
        // Not finished: nothing is written, and the command says which engine and legs, and fails.
        #expect(unfinished.status == 1, "\(unfinished.errors)")
        #expect(unfinished.errors.contains("OSRM did not answer for leg 1–2: the route is not finished and nothing was written"),
                "\(unfinished.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("b.json").path))
        let first = await roadbook(["route", folder.path("h.geojson").path, "--engine", "osrm", "--url", limiting.baseURL.absoluteString,
                                    "--book", folder.path("b.json").path, "--use-straight"])
        limiting.stop()
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output.contains("waiting: limiting requests") && first.output.contains("OSRM is limiting requests"), "\(first.output)")
        #expect(limiting.requests.count == 2, "asked once a run, not retried on its own")

        // The same server, answering now: a straight two-point road.
        let answering = try FaultServer(handler: { request in
            let parts = request.path.split(separator: "/").last!.split(separator: ";").map { $0.split(separator: ",").map { Double($0)! } }
            let line = parts.map { "[\($0[0]), \($0[1])]" }.joined(separator: ",")
            return .json("""
            {"code": "Ok", "routes": [{"geometry": {"type": "LineString", "coordinates": [\(line)]}, "distance": 600, "duration": 40,
              "legs": [{"steps": [{"name": "Main", "maneuver": {"type": "depart"}, "intersections": []}]}]}]}
            """)
        })
        defer { answering.stop() }
        let retry = await roadbook(["route", "--retry", "--engine", "osrm", "--url", answering.baseURL.absoluteString,
                                    "--book", folder.path("b.json").path])
        #expect(retry.status == 0, "\(retry.errors)")
        #expect(retry.output.contains("leg 1–2: road"), "\(retry.output)")
        #expect(answering.requests.count == 1)

        // A new route onto that book is refused without --force: the book is not lost.
        let again = await roadbook(["route", folder.path("h.geojson").path, "--engine", "osrm", "--url", answering.baseURL.absoluteString,
                                    "--book", folder.path("b.json").path])
        #expect(again.status == 1 && again.errors.contains("exists") && again.errors.contains("--force"), "\(again.errors)")
    }

    @Test("an answer larger than --max-answer-mb: the leg waits, and the message says the size and names the option that raises it")
    func answerTooLarge() async throws {
        let folder = try TemporaryFolder()
        let endless = try FaultServer(handler: { _ in .endless(chunk: Data(repeating: UInt8(ascii: "{"), count: 64 * 1024)) })
        defer { endless.stop() }
        try Self.handles([(0, 0, ""), (600, 0, "")]).write(to: folder.path("h.geojson"), atomically: true, encoding: .utf8)
        let r = await roadbook(["route", folder.path("h.geojson").path, "--engine", "osrm", "--url", endless.baseURL.absoluteString,
                                "--max-answer-mb", "1", "--use-straight", "--book", folder.path("b.json").path])
        #expect(r.status == 0, "\(r.errors)")
        #expect(r.output.contains("leg 1–2: waiting: server error (straight for now)"), "\(r.output)")
        #expect(r.output.contains("OSRM: the answer is larger than 1 MB, the most this client takes; "
                                  + "raise the limit with --max-answer-mb if the answer is expected to be this large"), "\(r.output)")
    }

    @Test("--retry is an Apply: the words a person typed into the book stay, and the plan's mode is kept")
    func retryKeepsEdits() async throws {
        let folder = try TemporaryFolder()
        try TurnCommandsTests.extract.write(to: folder.path("x.osm"), atomically: true, encoding: .utf8)
        try Self.handles([(0, 0, "\"note\": \"Start here\""), (300, 0, ""), (300, 300, "")]).write(to: folder.path("h.geojson"), atomically: true, encoding: .utf8)
        let engine = ["--engine", "embedded", "--osm", folder.path("x.osm").path]
        let made = await roadbook(["route", folder.path("h.geojson").path, "--mode", "walk", "--book", folder.path("b.json").path] + engine)
        #expect(made.status == 0, "\(made.errors)")
        var book = try BookFile.read(contentsOf: folder.path("b.json"))
        let index = try #require(book.notes.firstIndex { $0.text == "Start here" })
        book.notes[index].text = "Start at the church"
        book.rally = "Rallye des Pyrénées"
        try BookFile.write(book, to: folder.path("b.json"))
        let retry = await roadbook(["route", "--retry", "--book", folder.path("b.json").path] + engine)
        #expect(retry.status == 0, "\(retry.errors)")
        let after = try BookFile.read(contentsOf: folder.path("b.json"))
        #expect(after.notes.contains { $0.text == "Start at the church" } && after.rally == "Rallye des Pyrénées", "\(retry.output)")
        #expect(after.plan?.mode == .walk, "without --mode the plan's own mode")
        #expect(after.id == book.id)
    }

    @Test("two identical handles in a row make an empty leg, not a failure")
    func identicalHandles() async throws {
        let folder = try TemporaryFolder()
        try TurnCommandsTests.extract.write(to: folder.path("x.osm"), atomically: true, encoding: .utf8)
        try Self.handles([(0, 0, ""), (300, 100, ""), (300, 100, ""), (300, 300, "")])
            .write(to: folder.path("h.geojson"), atomically: true, encoding: .utf8)
        let r = await roadbook(["route", folder.path("h.geojson").path, "--engine", "embedded", "--osm", folder.path("x.osm").path,
                                "--book", folder.path("b.json").path])
        #expect(r.status == 0, "\(r.errors)")
        #expect(r.output.contains("leg 2–3: road, 0.00 km"), "\(r.output)")
    }

    @Test("typed handles: a .txt file in DMS and MGRS, or --handle in decimal degrees; surveyed, so they stay put")
    func typedHandles() async throws {
        let folder = try TemporaryFolder()
        try TurnCommandsTests.extract.write(to: folder.path("x.osm"), atomically: true, encoding: .utf8)
        let a = TurnCommandsTests.grid(0, 0), d = TurnCommandsTests.grid(300, 300)
        let dms = CoordinateFormat.degreesMinutesSeconds.format(a, precision: 3)
        let mgrs = CoordinateFormat.mgrs.format(d)
        try "# from the paper book\n\(dms)\n\(mgrs) | Chapel | P1\n".write(to: folder.path("h.txt"), atomically: true, encoding: .utf8)
        let file = await roadbook(["route", folder.path("h.txt").path, "--engine", "embedded", "--osm", folder.path("x.osm").path,
                                   "--book", folder.path("f.json").path])
        #expect(file.status == 0, "\(file.errors)")
        let fromFile = try #require(try BookFile.read(contentsOf: folder.path("f.json")).plan)
        #expect(fromFile.handles.map(\.origin) == [.coordinate, .coordinate])
        #expect(fromFile.handles[0].coordinate.distance(to: a) < 0.1 && fromFile.handles[1].coordinate.distance(to: d) < 1.5)
        #expect(try BookFile.read(contentsOf: folder.path("f.json")).notes.contains { $0.marker == "P1" && $0.text == "Chapel" })

        let typed = await roadbook(["route", "--handle", "\(a.latitude), \(a.longitude)", "--handle", "\(d.latitude) \(d.longitude)",
                                    "--engine", "embedded", "--osm", folder.path("x.osm").path, "--book", folder.path("t.json").path])
        #expect(typed.status == 0, "\(typed.errors)")
        #expect(typed.output.contains("leg 1–2: road"), "\(typed.output)")
        let book = try BookFile.read(contentsOf: folder.path("t.json"))
        #expect(book.title == "Main → Cami Nord", "a sits on Main, d at the end of Cami Nord: named from the extract")
        #expect(book.plan?.handles.map(\.coordinate) == [a, d])

        let bad = await roadbook(["route", folder.path("bad.txt").path, "--engine", "embedded", "--osm", folder.path("x.osm").path,
                                  "--book", folder.path("b.json").path])
        #expect(bad.status == 1 && bad.errors.contains("bad.txt"), "\(bad.errors)")
        try "42.5 1.5\nsomewhere\n".write(to: folder.path("bad.txt"), atomically: true, encoding: .utf8)
        let line = await roadbook(["route", folder.path("bad.txt").path, "--engine", "embedded", "--osm", folder.path("x.osm").path,
                                   "--book", folder.path("b.json").path])
        #expect(line.status == 1 && line.errors.contains("bad.txt:2: cannot read \"somewhere\" as a coordinate"), "\(line.errors)")
    }

    @Test("command-line mistakes", arguments: [
        (["h.geojson", "--book", "b.json"], "missing --engine"),
        (["h.geojson", "--engine", "embedded", "--book", "b.json"], "the embedded router needs --osm EXTRACT"),
        (["h.geojson", "--engine", "osrm", "--book", "b.json", "--mode", "fly"], "--mode must be one of drive, cycle, walk"),
        (["h.geojson", "--engine", "osrm"], "missing --book"),
        (["h.geojson", "--engine", "osrm", "--book", "b.json", "--legs", "wiggly"], "--legs must be one of road, straight, as-drawn"),
    ])
    func mistakes(arguments: [String], message: String) async {
        let r = await roadbook(["route"] + arguments)
        #expect(r.status == 64 && r.errors.contains(message), "\(r.errors)")
    }

    @Test("regenerate onto a new line keeps the plan in step: a book from handles loses its handles, so --retry cannot bring the old route back")
    func regenerateDropsThePlan() async throws {
        let folder = try TemporaryFolder()
        try TurnCommandsTests.extract.write(to: folder.path("x.osm"), atomically: true, encoding: .utf8)
        try Self.handles([(0, 0, ""), (300, 0, ""), (300, 300, "")]).write(to: folder.path("h.geojson"), atomically: true, encoding: .utf8)
        let engine = ["--engine", "embedded", "--osm", folder.path("x.osm").path]
        let made = await roadbook(["route", folder.path("h.geojson").path, "--book", folder.path("b.json").path] + engine)
        #expect(made.status == 0, "\(made.errors)")
        // The new route: a GeoJSON line a → b → e (south on the track).
        let line = [(0.0, 0.0), (300.0, 0.0), (300.0, -300.0)].map { TurnCommandsTests.grid($0.0, $0.1) }
        let geojson = "{\"type\": \"Feature\", \"geometry\": {\"type\": \"LineString\", \"coordinates\": ["
            + line.map { "[\($0.longitude), \($0.latitude)]" }.joined(separator: ",") + "]}, \"properties\": {}}"
        try geojson.write(to: folder.path("new.geojson"), atomically: true, encoding: .utf8)
        let r = await roadbook(["regenerate", folder.path("b.json").path, "--route", folder.path("new.geojson").path,
                                "--osm", folder.path("x.osm").path])
        #expect(r.status == 0, "\(r.errors)")
        #expect(r.output.contains("the book's handles are dropped"), "\(r.output)")
        #expect(try BookFile.read(contentsOf: folder.path("b.json")).plan == nil)
        let retry = await roadbook(["route", "--retry", "--book", folder.path("b.json").path] + engine)
        #expect(retry.status != 0 && retry.errors.contains("not built from handles"), "\(retry.errors)")
        // Regeneration is an Apply: undo-apply takes it back, handles and all.
        let undone = await roadbook(["undo-apply", folder.path("b.json").path])
        #expect(undone.status == 0, "\(undone.errors)")
        #expect(try BookFile.read(contentsOf: folder.path("b.json")).plan != nil)
        // A file of handles is a route to ask of an engine: without one it is refused, nothing written.
        let before = try Data(contentsOf: folder.path("b.json"))
        let points = await roadbook(["regenerate", folder.path("b.json").path, "--route", folder.path("h.geojson").path])
        #expect(points.status == 1 && points.errors.contains("holds handles, to be routed: give --engine"), "\(points.errors)")
        #expect(try Data(contentsOf: folder.path("b.json")) == before)
    }
}

// `route` takes the book options of `build`, names and describes its route, and keeps
// what a GPX says about its points.
extension RouteCommandTests {
    @Test("route takes the same book options as build: header, units, template, off-route distance, and the cover left out")
    func bookOptions() async throws {
        let folder = try TemporaryFolder()
        try TurnCommandsTests.extract.write(to: folder.path("x.osm"), atomically: true, encoding: .utf8)
        try Self.handles([(0, 0, ""), (300, 0, ""), (300, 300, "")]).write(to: folder.path("h.geojson"), atomically: true, encoding: .utf8)
        let common = ["route", folder.path("h.geojson").path, "--engine", "embedded", "--osm", folder.path("x.osm").path]
        let options = await roadbook(common + ["--book", folder.path("o.json").path, "-o", folder.path("o.pdf").path,
                                               "--rally", "Rallye des Pyrénées", "--stage", "SS2", "--date", "2026-03-14",
                                               "--units", "mi", "--template", "a4", "--off-route-distance", "120", "--no-cover"])
        #expect(options.status == 0, "\(options.errors)")
        let book = try BookFile.read(contentsOf: folder.path("o.json"))
        #expect(book.rally == "Rallye des Pyrénées" && book.stage == "SS2" && book.date == "2026-03-14")
        #expect(book.settings.units == .miles && book.settings.template == "a4" && book.settings.offRouteDistance == 120)

        // The same route with a cover has one page more: the cover.
        let covered = await roadbook(common + ["--book", folder.path("c.json").path, "-o", folder.path("c.pdf").path, "--template", "a4"])
        #expect(covered.status == 0, "\(covered.errors)")
        func pages(_ output: String) -> Int? {
            output.split(separator: "\n").first { $0.contains(".pdf:") }.flatMap { line in
                line.split(separator: ",").last?.split(separator: " ").first.flatMap { Int($0) }
            }
        }
        let without = try #require(pages(options.output)), with = try #require(pages(covered.output))
        #expect(with == without + 1, "\(options.output) / \(covered.output)")

        // A template mistake is refused before the engine is asked or anything written.
        let bad = await roadbook(common + ["--book", folder.path("t.json").path, "-o", folder.path("t.pdf").path, "--template", "a9"])
        #expect(bad.status != 0 && bad.errors.contains("a9"), "\(bad.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("t.json").path))
    }
}

extension RouteCommandTests {
    @Test("without --title the book is named 'Start → End' from the ends' names and described by its longest named roads and its engine")
    func nameAndDescription() async throws {
        let folder = try TemporaryFolder()
        try TurnCommandsTests.extract.write(to: folder.path("x.osm"), atomically: true, encoding: .utf8)
        // a → b on Main (300 m), then b → d on Cami Nord (300 m): both roads carry half the route.
        try Self.handles([(0, 0, "\"name\": \"Sant Julià\""), (300, 0, ""), (300, 300, "\"name\": \" Canillo \\n\"")])
            .write(to: folder.path("h.geojson"), atomically: true, encoding: .utf8)
        let common = [folder.path("h.geojson").path, "--engine", "embedded", "--osm", folder.path("x.osm").path]
        let named = await roadbook(["route"] + common + ["--book", folder.path("n.json").path, "-o", folder.path("n.pdf").path])
        #expect(named.status == 0, "\(named.errors)")
        let book = try BookFile.read(contentsOf: folder.path("n.json"))
        #expect(book.title == "Sant Julià → Canillo", "the names as the file gives them, trimmed to one line")
        #expect(book.description == "Route via Main and Cami Nord · embedded router Directions",
                "in the order the route meets them, with the engine that gave them by its own name")
        #expect(book.plan?.handles.first?.name == "Sant Julià")

        // --title wins; the description stays.
        let titled = await roadbook(["route"] + common + ["--book", folder.path("t.json").path, "--title", "SS1"])
        #expect(titled.status == 0, "\(titled.errors)")
        let titledBook = try BookFile.read(contentsOf: folder.path("t.json"))
        #expect(titledBook.title == "SS1" && titledBook.description == "Route via Main and Cami Nord · embedded router Directions")
    }
}

extension RouteCommandTests {
    @Test("handles are named offline from the extract: the nearest named road within a few hundred metres, else no name")
    func namesFromTheExtract() async throws {
        let folder = try TemporaryFolder()
        try TurnCommandsTests.extract.write(to: folder.path("x.osm"), atomically: true, encoding: .utf8)
        // 40 m north of Main (between a and b), a named one left as it is, and one 3 km from any road.
        try Self.handles([(150, 40, ""), (300, 300, "\"name\": \"Canillo\"")])
            .write(to: folder.path("h.geojson"), atomically: true, encoding: .utf8)
        try Self.handles([(150, 40, ""), (300, 0, ""), (300, 3000, "")])
            .write(to: folder.path("far.geojson"), atomically: true, encoding: .utf8)
        let engine = ["--engine", "embedded", "--osm", folder.path("x.osm").path]
        let near = await roadbook(["route", folder.path("h.geojson").path, "--book", folder.path("h.json").path] + engine)
        #expect(near.status == 0, "\(near.errors)")
        let book = try BookFile.read(contentsOf: folder.path("h.json"))
        #expect(book.plan?.handles.map(\.name) == ["Main", "Canillo"], "a name from the file is kept")
        #expect(book.title == "Main → Canillo")

        let far = await roadbook(["route", folder.path("far.geojson").path, "--book", folder.path("far.json").path] + engine)
        #expect(far.status == 0, "\(far.errors)")
        let farBook = try BookFile.read(contentsOf: folder.path("far.json"))
        #expect(farBook.plan?.handles.last?.name == nil, "no road within a few hundred metres: no name, known by its coordinate")
        #expect(farBook.title == "far", "an end without a name: the file's name")

        // Another engine asked for the road, the extract given for the names: the same names.
        let osrm = try FaultServer(handler: { request in
            let parts = request.path.split(separator: "/").last!.split(separator: "?")[0].split(separator: ";").map { $0.split(separator: ",").map { Double($0)! } }
            let line = parts.map { "[\($0[0]), \($0[1])]" }.joined(separator: ",")
            return .json("""
            {"code": "Ok", "routes": [{"geometry": {"type": "LineString", "coordinates": [\(line)]}, "distance": 600, "duration": 40,
              "legs": [{"steps": []}]}]}
            """)
        })
        defer { osrm.stop() }
        let viaOSRM = await roadbook(["route", folder.path("h.geojson").path, "--book", folder.path("o.json").path,
                                      "--engine", "osrm", "--url", osrm.baseURL.absoluteString, "--osm", folder.path("x.osm").path])
        #expect(viaOSRM.status == 0, "\(viaOSRM.errors)")
        #expect(try BookFile.read(contentsOf: folder.path("o.json")).plan?.handles.map(\.name) == ["Main", "Canillo"])

        // A handle added to the drawing is named the same way, when its legs are asked.
        let first = try #require(farBook.plan?.handles.first?.coordinate)
        let added = await roadbook(["handles", folder.path("far.json").path, "add", "\(first.latitude),\(first.longitude)"] + engine)
        #expect(added.status == 0, "\(added.errors)")
        let list = await roadbook(["handles", folder.path("far.json").path, "list"])
        #expect(list.output.split(separator: "\n").contains { $0.hasPrefix("handle 4: ") && $0.contains("named \"Main\"") },
                "\(list.output)")
    }
}

extension RouteCommandTests {
    /// A GPX of waypoints at the extract's places a (start), b (a control) and d (the end).
    static var typedWaypoints: String {
        func at(_ x: Double, _ y: Double) -> String {
            let c = TurnCommandsTests.grid(x, y)
            return "lat=\"\(c.latitude)\" lon=\"\(c.longitude)\""
        }
        return """
        <?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">
        <wpt \(at(0, 0))><name>Start</name><desc>Start of the stage</desc><type>DSS</type></wpt>
        <wpt \(at(300, 0))><name>CP1</name><desc>Control</desc><sym>CP</sym></wpt>
        <wpt \(at(300, 300))><name>Finish</name><desc>End of the stage</desc><type>ASS</type></wpt></gpx>
        """
    }

    @Test("a GPX into route: waypoint types become the rows' types, names name the handles and the book")
    func gpxTypesAndNames() async throws {
        let folder = try TemporaryFolder()
        try TurnCommandsTests.extract.write(to: folder.path("x.osm"), atomically: true, encoding: .utf8)
        try Self.typedWaypoints.write(to: folder.path("w.gpx"), atomically: true, encoding: .utf8)
        let r = await roadbook(["route", folder.path("w.gpx").path, "--engine", "embedded", "--osm", folder.path("x.osm").path,
                                "--book", folder.path("b.json").path, "--no-turns"])
        #expect(r.status == 0, "\(r.errors)")
        let book = try BookFile.read(contentsOf: folder.path("b.json"))
        #expect(book.plan?.handles.map(\.name) == ["Start", "CP1", "Finish"], "the file's names, not the extract's")
        #expect(book.title == "Start → Finish")
        #expect(book.notes.map(\.waypointType) == [.dss, .cp, .ass], "\(book.notes.map(\.text))")
        #expect(book.notes.map(\.marker) == ["Start", "CP1", "Finish"])
    }

    @Test("--max-stops refuses, in one line naming the count, a route of more handles; without it the limit is 14")
    func maxStops() async throws {
        let folder = try TemporaryFolder()
        try TurnCommandsTests.extract.write(to: folder.path("x.osm"), atomically: true, encoding: .utf8)
        try Self.typedWaypoints.write(to: folder.path("w.gpx"), atomically: true, encoding: .utf8)
        let common = ["route", folder.path("w.gpx").path, "--engine", "embedded", "--osm", folder.path("x.osm").path]
        let refused = await roadbook(common + ["--book", folder.path("r.json").path, "--max-stops", "2"])
        #expect(refused.status == 1, "\(refused.errors)")
        #expect(refused.errors.contains("w.gpx has 3 stops, more than --max-stops 2"), "\(refused.errors)")
        #expect(refused.errors.split(separator: "\n").count == 1, "one line: \(refused.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("r.json").path), "refused before anything is written")
        let allowed = await roadbook(common + ["--book", folder.path("a.json").path, "--max-stops", "3"])
        #expect(allowed.status == 0, "\(allowed.errors)")
        let unlimited = await roadbook(common + ["--book", folder.path("u.json").path])
        #expect(unlimited.status == 0, "\(unlimited.errors)")
        #expect(try BookFile.read(contentsOf: folder.path("u.json")).plan?.maximumStops == 14, "the default limit is kept in the plan")
        let retry = await roadbook(["route", "--retry", "--book", folder.path("u.json").path, "--max-stops", "2",
                                    "--engine", "embedded", "--osm", folder.path("x.osm").path])
        #expect(retry.status == 64 && retry.errors.contains("--max-stops is for a new route"), "\(retry.errors)")
    }
}
