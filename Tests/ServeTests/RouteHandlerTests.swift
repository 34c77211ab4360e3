import Foundation
import Formats
import Geo
import Model
import RoadbookCLI
import Serve
import Testing
import TestSupport
import Workflows

/// The route half of the editor's API: POST /api/handles and /api/apply on a book routed through
/// three handles in Andorra la Vella by the embedded router (offline, on the sample extract), and
/// GET /api/roads on a small extract written here, whose roads are known by hand.
@Suite("The editor's route API, request by request")
struct RouteHandlerTests {
    /// A book routed through three handles, as `roadbook route --handle … --engine embedded` makes
    /// it, and an editor of it with the embedded router on the same extract.
    struct RoutedBook {
        let folder: TemporaryFolder
        let book: URL
        let extract: URL
        let editor: Editor

        init(engine: Bool = true) async throws {
            folder = try TemporaryFolder()
            book = folder.path("b.json")
            extract = try testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf")
            let console = CapturingConsole()
            let status = await Roadbook.main(["route", "--handle", "42.5063 1.5218", "--handle", "42.5110 1.5320",
                                              "--handle", "42.5150 1.5400", "--book", book.path,
                                              "--engine", "embedded", "--osm", extract.path], console: console)
            #expect(status == 0, "\(console.errors)")
            let settings = Editor.Settings(book: book, page: nil, engine: engine ? EngineSettings(kind: .embedded, osm: extract) : nil,
                                           osm: extract)
            editor = Editor(settings: settings, security: EditorSecurity(token: ServeBook.token, port: ServeBook.port))
        }

        /// Posts `body` to `path`, answered on a Dispatch queue as the server answers it: a
        /// handler waits for the operation it starts, so it must not hold a thread of the tasks' pool.
        func post(_ path: String, _ body: String) async -> ServerResponse {
            let editor = editor, request = ServeBook.request("POST", path, body: body)
            return await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: editor.respond(to: request)) }
            }
        }

        /// The drawing's handles, from the draft beside the book.
        func drawn() throws -> [Handle] {
            try #require(try RouteDraft.load(for: book, expecting: BookFile.read(contentsOf: book).id)).editor.plan.handles
        }
    }

    /// Posts a handles change and returns its answer, expecting 200.
    func change(_ f: RoutedBook, _ body: String) async throws -> [String: Any] {
        let response = await f.post("/api/handles", body)
        #expect(response.status == 200, "\(body): \(String(decoding: response.body, as: UTF8.self))")
        return try object(response)
    }

    @Test("a book from a track shows its route traced into handles, numbered as a change numbers them: moving handle 2 moves that one")
    func trackBookHandles() async throws {
        let folder = try TemporaryFolder()
        let book = folder.path("t.json")
        let extract = try testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf")
        let track = try testDataFolder().deletingLastPathComponent().appendingPathComponent("andorra-envalira.gpx")
        let console = CapturingConsole()
        #expect(await Roadbook.main(["build", track.path, "-o", folder.path("t.pdf").path, "--book", book.path], console: console) == 0,
                "\(console.errors)")
        let editor = Editor(settings: Editor.Settings(book: book, page: nil, engine: EngineSettings(kind: .embedded, osm: extract), osm: extract),
                            security: EditorSecurity(token: ServeBook.token, port: ServeBook.port))
        let view = try object(editor.respond(to: ServeBook.request("GET", "/api/book")))
        let shown = try #require(view["handles"] as? [[String: Any]])
        // The handles `roadbook handles list` prints for the same book, read from its text.
        let listing = CapturingConsole()
        #expect(await Roadbook.main(["handles", book.path, "list"], console: listing) == 0)
        let listed = listedHandleCoordinates(listing.output)
        #expect(shown.count == listed.count && shown.count > 2, "\(shown.count) shown, \(listed.count) listed")
        for (view, list) in zip(shown, listed) {
            let lat = try #require(view["lat"] as? Double), lon = try #require(view["lon"] as? Double)
            #expect(abs(lat - list.latitude) < 1e-6 && abs(lon - list.longitude) < 1e-6, "\(view) ≠ \(list)")
        }
        #expect((view["status"] as? [String: Any])?["applied"] as? Bool == true)

        let request = ServeBook.request("POST", "/api/handles", body: #"{"op":"move","index":2,"lat":42.4705,"lon":1.4935}"#)
        let moved = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: editor.respond(to: request)) }
        }
        #expect(moved.status == 200, "\(String(decoding: moved.body, as: UTF8.self))")
        let drawn = try #require(try RouteDraft.load(for: book, expecting: BookFile.read(contentsOf: book).id)).editor.plan.handles
        #expect(drawn.count == shown.count)
        #expect(abs(drawn[1].coordinate.latitude - 42.4705) < 1e-9 && abs(drawn[1].coordinate.longitude - 1.4935) < 1e-9)
        for i in [0, 2, drawn.count - 1] {
            let lat = try #require(shown[i]["lat"] as? Double)
            #expect(abs(drawn[i].placed.latitude - lat) < 1e-6, "handle \(i + 1) stays where the page showed it")
        }
    }

    @Test("move: the handle moves in the draft, the book keeps its route, and only its two legs are asked again")
    func move() async throws {
        let f = try await RoutedBook()
        let before = try #require(try BookFile.read(contentsOf: f.book).plan).handles
        let answer = try await change(f, #"{"op":"move","index":2,"lat":42.5100,"lon":1.5300}"#)
        #expect(answer["askedLegs"] as? [Int] == [1, 2])
        #expect(answer["message"] as? String == "Move handle 2")
        #expect(answer["revision"] as? Int != nil)
        let drawn = try f.drawn()
        #expect(drawn.count == 3)
        // Where it was put: 0.001° north (111 m) and 0.002° east (164 m at 42.5°) of where it was,
        // about 198 m away.
        #expect(drawn[1].placed.distance(to: Coordinate(latitude: 42.5100, longitude: 1.5300)) < 1)
        #expect(abs(drawn[1].placed.distance(to: before[1].placed) - 198) < 3)
        #expect(drawn[0].placed.distance(to: before[0].placed) < 1 && drawn[2].placed.distance(to: before[2].placed) < 1)
        let kept = try #require(try BookFile.read(contentsOf: f.book).plan).handles
        #expect(kept.map(\.placed) == before.map(\.placed), "the book keeps its route until Apply")
    }

    @Test("add, split, remove, note and kind, each as `handles` makes it, with the legs each asks")
    func eachOperation() async throws {
        let f = try await RoutedBook()
        // A fourth handle at the end: one new leg, 3, from handle 3 to it.
        var answer = try await change(f, #"{"op":"add","lat":42.5180,"lon":1.5450}"#)
        #expect(answer["askedLegs"] as? [Int] == [3])
        #expect(answer["message"] as? String == "Add handle 4")
        #expect(try f.drawn().count == 4)
        // Splitting leg 1 makes legs 1 and 2 of its two halves.
        answer = try await change(f, #"{"op":"split","leg":1}"#)
        #expect(answer["askedLegs"] as? [Int] == [1, 2])
        #expect(try f.drawn().count == 5)
        // The last handle goes with the last leg: nothing to ask.
        answer = try await change(f, #"{"op":"remove","index":5}"#)
        #expect(answer["askedLegs"] as? [Int] == [])
        #expect(answer["message"] as? String == "Remove handle 5")
        #expect(try f.drawn().count == 4)
        // Words on a handle change no road.
        answer = try await change(f, #"{"op":"note","index":1,"text":"Fuel"}"#)
        #expect(answer["askedLegs"] as? [Int] == [])
        #expect(try f.drawn()[0].note?.text == "Fuel")
        // A straight leg asks nothing; by leg number as `handles kind LEG` takes it.
        answer = try await change(f, #"{"op":"kind","leg":1,"kind":"straight"}"#)
        #expect(answer["askedLegs"] as? [Int] == [])
        #expect(answer["message"] as? String == "Make leg 1 straight")
        // By handle: the two legs that meet handle 3 (legs 2 and 3).
        answer = try await change(f, #"{"op":"kind","index":3,"kind":"asDrawn"}"#)
        #expect(answer["askedLegs"] as? [Int] == [])
        let legs = try #require(try RouteDraft.load(for: f.book, expecting: BookFile.read(contentsOf: f.book).id)).editor.plan.legs
        #expect(legs.map(\.kind) == [.straight, .asDrawn, .asDrawn])
        // Back to the road for leg 1: its road was found before, so nothing is asked again.
        answer = try await change(f, #"{"op":"kind","leg":1,"kind":"road"}"#)
        #expect(answer["askedLegs"] as? [Int] == [])
    }

    @Test("reorder, reverse, mode, unnote, newLegs, retry and clear leave on disk the drawing `roadbook handles` leaves")
    func sameAsTheCommand() async throws {
        let page = try await RoutedBook(), command = try await RoutedBook()
        _ = try await change(page, #"{"op":"note","index":2,"text":"Fuel"}"#)
        #expect(await Roadbook.main(["handles", command.book.path, "note", "2", "Fuel"], console: CapturingConsole()) == 0)
        let steps: [(body: String, words: [String])] = [
            (#"{"op":"reorder","index":1,"to":3}"#, ["reorder", "1", "3"]),
            (#"{"op":"reverse"}"#, ["reverse"]),
            (#"{"op":"mode","mode":"walk"}"#, ["mode", "walk"]),
            (#"{"op":"unnote","index":2}"#, ["unnote", "2"]),
            (#"{"op":"newLegs","kind":"straight"}"#, ["new-legs", "straight"]),
            (#"{"op":"retry"}"#, ["retry"]),
            (#"{"op":"clear"}"#, ["clear"]),
        ]
        for step in steps {
            let response = await page.post("/api/handles", step.body)
            let console = CapturingConsole()
            let status = await Roadbook.main(["handles", command.book.path] + step.words + ["--engine", "embedded", "--osm", command.extract.path],
                                             console: console)
            // Both take it, or both refuse it (retry with nothing waiting).
            #expect((response.status == 200) == (status == 0), "\(step.body): \(response.status) vs \(status) \(console.errors)")
            let onPage = try #require(try RouteDraft.load(for: page.book, expecting: BookFile.read(contentsOf: page.book).id)).editor.plan
            let byCommand = try #require(try RouteDraft.load(for: command.book, expecting: BookFile.read(contentsOf: command.book).id)).editor.plan
            #expect(onPage == byCommand, "\(step.body)")
        }
        let drawn = try #require(try RouteDraft.load(for: page.book, expecting: BookFile.read(contentsOf: page.book).id)).editor.plan
        #expect(drawn.handles.isEmpty && drawn.mode == .walk && drawn.defaultLegKind == .straight)
        let refused = await page.post("/api/handles", #"{"op":"mode","mode":"fly"}"#)
        #expect(refused.status == 400)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("field 'mode': 'fly' is not one of drive, cycle, walk"))
    }

    @Test("without --engine a changed leg waits: none is asked, and the answer says so")
    func noEngine() async throws {
        let f = try await RoutedBook(engine: false)
        let answer = try await change(f, #"{"op":"move","index":2,"lat":42.5100,"lon":1.5300}"#)
        #expect(answer["askedLegs"] as? [Int] == [])
        #expect((answer["message"] as? String)?.contains("2 road legs still to ask") == true, "\(answer)")
    }

    @Test("apply: the drawing becomes the book's route, a new revision; applying again is 409")
    func apply() async throws {
        let f = try await RoutedBook()
        let revision = try BookRead(f.book).revision
        _ = try await change(f, #"{"op":"move","index":2,"lat":42.5100,"lon":1.5300}"#)
        let drawn = try f.drawn()
        let applied = await f.post("/api/apply", "{}")
        #expect(applied.status == 200, "\(String(decoding: applied.body, as: UTF8.self))")
        let answer = try object(applied)
        #expect(answer["revision"] as? Int == revision + 1)
        #expect((answer["message"] as? String)?.isEmpty == false)
        let plan = try #require(try BookFile.read(contentsOf: f.book).plan)
        #expect(plan.handles.map(\.placed) == drawn.map(\.placed))
        let again = await f.post("/api/apply", "{}")
        #expect(again.status == 409)
        #expect((try object(again)["error"] as? String)?.contains("nothing to apply") == true)
    }

    @Test("a handles body at fault is 400, its line naming the field; a handle the route lacks is refused")
    func badBodies() async throws {
        let f = try await RoutedBook()
        let cases: [(String, String)] = [
            (#"{"index":2}"#, "'op'"),
            (#"{"op":"fly"}"#, "'op'"),
            (#"{"op":"move","lat":42.5,"lon":1.5}"#, "'index'"),
            (#"{"op":"move","index":"2","lat":42.5,"lon":1.5}"#, "'index'"),
            (#"{"op":"move","index":0,"lat":42.5,"lon":1.5}"#, "'index'"),
            (#"{"op":"move","index":2,"lat":95,"lon":1.5}"#, "'lat'"),
            (#"{"op":"add","lat":42.5}"#, "'lon'"),
            (#"{"op":"add","lat":42.5,"lon":1.5,"at":1.5}"#, "'at'"),
            (#"{"op":"split"}"#, "'leg'"),
            (#"{"op":"note","index":1}"#, "'text'"),
            (#"{"op":"kind","leg":1,"kind":"fast"}"#, "'kind'"),
            (#"{"op":"kind","kind":"road"}"#, "'leg'"),
            (#"[1]"#, "JSON object"),
        ]
        for (body, field) in cases {
            let response = await f.post("/api/handles", body)
            #expect(response.status == 400, "\(body)")
            let message = try object(response)["error"] as? String ?? ""
            #expect(message.contains(field), "\(body): \(message)")
        }
        let missing = await f.post("/api/handles", #"{"op":"remove","index":9}"#)
        #expect(missing.status == 409)
        #expect((try object(missing)["error"] as? String) == "there is no handle 9: the route has handles 1 to 3")
        #expect(!FileManager.default.fileExists(atPath: RouteDraft.url(for: f.book).path), "a refused change writes no draft")
    }

    /// A small extract, its roads known by hand: a primary road (tarmac) of three nodes, a grade 3
    /// track, a gravel lane and a footway inside the box 41.99–42.01 N, 0.995–1.025 E; a motorway
    /// far outside it.
    static let extract = """
        <?xml version="1.0" encoding="UTF-8"?>
        <osm version="0.6">
        <node id="1" lat="42.0" lon="1.0"/><node id="2" lat="42.0" lon="1.01"/><node id="3" lat="42.0" lon="1.02"/>
        <node id="4" lat="42.005" lon="1.0"/><node id="5" lat="42.005" lon="1.01"/>
        <node id="6" lat="42.008" lon="1.0"/><node id="7" lat="42.008" lon="1.01"/>
        <node id="8" lat="41.995" lon="1.0"/><node id="9" lat="41.995" lon="1.01"/>
        <node id="10" lat="43.0" lon="2.0"/><node id="11" lat="43.0" lon="2.01"/>
        <way id="100"><nd ref="1"/><nd ref="2"/><nd ref="3"/><tag k="highway" v="primary"/></way>
        <way id="101"><nd ref="4"/><nd ref="5"/><tag k="highway" v="track"/><tag k="tracktype" v="grade3"/></way>
        <way id="102"><nd ref="6"/><nd ref="7"/><tag k="highway" v="unclassified"/><tag k="surface" v="gravel"/></way>
        <way id="103"><nd ref="8"/><nd ref="9"/><tag k="highway" v="footway"/></way>
        <way id="104"><nd ref="10"/><nd ref="11"/><tag k="highway" v="motorway"/></way>
        </osm>
        """

    @Test("GET /api/roads: the extract's roads inside the box with their classes, the larger first; none without --osm")
    func roads() throws {
        let (folder, book, _) = try ServeBook.folder()
        defer { _ = folder }
        let query = ["south": "41.99", "west": "0.995", "north": "42.01", "east": "1.025"]
        let plain = ServeBook.editor(book: book, page: nil)
        let none = plain.respond(to: ServerRequest(method: "GET", path: "/api/roads", query: query, headers: ServeBook.request("GET", "/").headers))
        #expect(none.status == 200)
        #expect(try object(none)["roads"] as? [Any] != nil && (try object(none)["roads"] as? [Any])?.isEmpty == true)

        let osm = folder.path("small.osm")
        try Self.extract.write(to: osm, atomically: true, encoding: .utf8)
        let editor = Editor(settings: Editor.Settings(book: book, page: nil, osm: osm),
                            security: EditorSecurity(token: ServeBook.token, port: ServeBook.port))
        let response = editor.respond(to: ServerRequest(method: "GET", path: "/api/roads", query: query, headers: ServeBook.request("GET", "/").headers))
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        let roads = try #require(try object(response)["roads"] as? [[String: Any]])
        #expect(roads.map { $0["class"] as? String } == ["tarmac", "gravel", "track", "path"])
        let primary = try #require(roads.first?["line"] as? [[Double]])
        #expect(primary == [[42.0, 1.0], [42.0, 1.01], [42.0, 1.02]])

        // A limit of two segments keeps the primary road alone (its two segments).
        let limited = try MapRoads(extract: osm).roads(in: MapBox(south: 41.99, west: 0.995, north: 42.01, east: 1.025), limit: 2)
        #expect(limited.map(\.roadClass) == [.tarmac])

        // A box holding only the east half of the primary road: its segment cut at the box keeps the node outside.
        let east = try MapRoads(extract: osm).roads(in: MapBox(south: 41.999, west: 1.015, north: 42.001, east: 1.025), limit: 100)
        #expect(east.map(\.line) == [[Coordinate(latitude: 42.0, longitude: 1.01), Coordinate(latitude: 42.0, longitude: 1.02)]])

        for (bad, field) in [(["west": "0.995", "north": "42.01", "east": "1.025"], "'south'"),
                             (["south": "x", "west": "0.995", "north": "42.01", "east": "1.025"], "'south'"),
                             (["south": "42.02", "west": "0.995", "north": "42.01", "east": "1.025"], "'south'"),
                             (["south": "41.99", "west": "0.995", "north": "42.01", "east": "200"], "'east'")] {
            let refused = editor.respond(to: ServerRequest(method: "GET", path: "/api/roads", query: bad, headers: ServeBook.request("GET", "/").headers))
            #expect(refused.status == 400, "\(bad)")
            #expect((try object(refused)["error"] as? String)?.contains(field) == true, "\(bad)")
        }
    }
}
