import Foundation
import Formats
import Geo
import Model
import RoadbookCLI
import Serve
import Testing
import TestSupport

/// GET /api/book's warnings: each with its words as the command line prints them and, where it
/// has one, the place it applies to, so the page can show it on the map.
@Suite("The editor's warnings, each at its place")
struct WarningTests {
    /// How far north of the drawing leg 1's road runs, in metres: the grid's own distance, known by
    /// construction, not by the rule that measures it.
    static let detour = 283.0

    /// `ServeBook`'s book whose leg 1 (handle 1 at (0, 0) to handle 2 at (3000, 0)) was drawn with a
    /// stroke along the x axis, and whose road goes north round it: up to y = 283, along, and back
    /// down. The stroke's middle point (1500, 0) is the drawn point farthest from the road, whose
    /// nearest point to it is (1500, 283). The road is 3,566 m for 3,000 m straight: under 1.25×,
    /// so the leg has no information besides the warning; it never comes back near a handle.
    static func detouredBook() throws -> (folder: TemporaryFolder, book: URL, road: [Coordinate]) {
        let grid = ServeBook.grid
        let (folder, book, _) = try ServeBook.folder()
        var made = try BookFile.read(contentsOf: book)
        let road = grid.line([(0, 0), (0, detour), (3000, detour), (3000, 0)], step: 100)
        made.plan?.legs[0] = PlannedLeg(kind: .road, stroke: [grid(0, 0), grid(1500, 0), grid(3000, 0)], state: .road,
                                        answers: [.drive: RoadLeg(line: road, distance: Polyline(road).length, duration: 300)])
        try BookFile.write(made, to: book)
        return (folder, book, road)
    }

    func warnings(_ editor: Editor) throws -> [[String: Any]] {
        let response = editor.respond(to: ServeBook.request("GET", "/api/book"))
        #expect(response.status == 200)
        return try #require(try object(response)["warnings"] as? [[String: Any]])
    }

    @Test("a road far from where its leg was drawn: the warning has handles list's words and lies on that leg's road, where it is farthest")
    func farFromDrawn() async throws {
        let (folder, book, road) = try Self.detouredBook()
        defer { _ = folder }
        let listed = try #require(try warnings(ServeBook.editor(book: book, page: nil)).first)
        let text = try #require(listed["text"] as? String)
        #expect(text == "The road runs \(Int(Self.detour)) m from where you drew")
        #expect(listed["leg"] as? Int == 1)
        #expect(listed["row"] == nil)
        let place = Coordinate(latitude: try #require(listed["lat"] as? Double), longitude: try #require(listed["lon"] as? Double))
        // On the leg's road (within a metre of its line), at the point across from the stroke's middle.
        let onRoad = try #require(Polyline(road).position(closestTo: place))
        #expect(abs(onRoad.offsetFromRoute) < 1, "\(onRoad)")
        #expect(place.distance(to: ServeBook.grid(1500, Self.detour)) < 1)
        // The number in the words is the distance from the drawn point to that place, measured here.
        let measured = place.distance(to: ServeBook.grid(1500, 0))
        let number = try #require(text.split(separator: " ").compactMap { Int($0) }.first)
        #expect(abs(Double(number) - measured) <= 0.5 + 1e-6, "\(text) against \(measured) m")

        // The same words as `roadbook handles BOOK list` prints after leg 1.
        let console = CapturingConsole()
        #expect(await Roadbook.main(["handles", book.path, "list"], console: console) == 0, "\(console.errors)")
        let leg = try #require(console.output.split(separator: "\n").first { $0.hasPrefix("leg 1–2:") })
        #expect(leg.hasSuffix("— " + text), "\(leg)")
    }

    @Test("with a draft beside the book, the warnings are the drawing's: a leg made straight has none")
    func draftsWarnings() async throws {
        let (folder, book, _) = try Self.detouredBook()
        defer { _ = folder }
        let editor = ServeBook.editor(book: book, page: nil)
        #expect(try warnings(editor).compactMap { $0["leg"] as? Int } == [1])
        let console = CapturingConsole()
        #expect(await Roadbook.main(["handles", book.path, "kind", "1", "straight"], console: console) == 0, "\(console.errors)")
        #expect(try warnings(editor).compactMap { $0["leg"] as? Int } == [])
        #expect(await Roadbook.main(["handles", book.path, "undo"], console: console) == 0, "\(console.errors)")
        #expect(try warnings(editor).compactMap { $0["leg"] as? Int } == [1])
    }

    @Test("a handle's change answers with the legs' warnings as GET /api/book then gives them, so the page shows them at once")
    func inTheAnswer() async throws {
        let (folder, book, _) = try Self.detouredBook()
        defer { _ = folder }
        let editor = ServeBook.editor(book: book, page: nil)
        /// POSTs a handles change off the tasks' pool, as the server answers it; its warnings.
        func change(_ body: String) async throws -> [[String: Any]] {
            let request = ServeBook.request("POST", "/api/handles", body: body)
            let response = await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: editor.respond(to: request)) }
            }
            #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
            return try #require(try object(response)["warnings"] as? [[String: Any]])
        }
        // Words on handle 1 change no leg: the answer's warning is the book view's, place and all.
        let answered = try await change(#"{"op":"note","index":1,"text":"Fuel"}"#)
        let viewed = try warnings(editor).filter { $0["leg"] != nil }
        #expect(answered.count == 1 && viewed.count == 1)
        for key in ["text", "lat", "lon", "leg"] {
            #expect("\(answered[0][key] ?? "none")" == "\(viewed[0][key] ?? "none")", "\(key)")
        }
        // Leg 1 made straight: no warning left, in the answer as in the view.
        #expect(try await change(#"{"op":"kind","leg":1,"kind":"straight"}"#).isEmpty)
        #expect(try warnings(editor).filter { $0["leg"] != nil }.isEmpty)
    }

    @Test("a note off the route: its words, its id and its own place")
    func offRoute() throws {
        let (folder, book, _) = try ServeBook.folder()
        defer { _ = folder }
        let editor = ServeBook.editor(book: book, page: nil)
        #expect(try warnings(editor).isEmpty)
        // 160 m north of the route's first stretch (y = 0), past the 50 m a note may stray.
        let off = ServeBook.grid(1000, 160)
        let added = editor.respond(to: ServeBook.request("POST", "/api/notes", body: """
            {"op":"add","lat":\(off.latitude),"lon":\(off.longitude),"text":"Spring"}
            """))
        #expect(added.status == 200, "\(String(decoding: added.body, as: UTF8.self))")
        let note = try #require(try BookFile.read(contentsOf: book).notes.first { $0.text == "Spring" })
        let listed = try #require(try warnings(editor).first)
        #expect(listed["text"] as? String == "#\(note.id) is 160 m off the route: kept, not printed")
        #expect(listed["row"] as? Int == note.id)
        #expect(listed["leg"] == nil)
        let place = Coordinate(latitude: try #require(listed["lat"] as? Double), longitude: try #require(listed["lon"] as? Double))
        #expect(place.distance(to: off) < 0.01)
    }
}
