import Foundation
import Formats
import Model
import RoadbookCLI
import Serve
import Testing
import TestSupport

/// The editor's paths as functions from a request to a response, without a socket: the API of
/// docs/editor.md, its refusals, and the book file each change leaves.
@Suite("The editor's API, request by request")
struct EditorTests {
    @Test("GET /api/book: the rows numbered as printed, with their distances, the handles and the legs")
    func bookView() throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let editor = ServeBook.editor(book: book, page: page)
        let response = editor.respond(to: ServeBook.request("GET", "/api/book"))
        #expect(response.status == 200)
        #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
        let view = try object(response)
        #expect(view["name"] as? String == "Serve test")
        #expect(view["units"] as? String == "km")
        #expect(view["language"] as? String == "en")
        let rows = try #require(view["rows"] as? [[String: Any]])
        #expect(rows.map { $0["number"] as? Int } == [1, 2, 3, 4])
        #expect(rows.map { $0["text"] as? String } == ["Start of the stage", "Cattle grid", "Chapel on the left", "End of the stage"])
        // 0, 1000, 3500 and 4000 m along the grid; each partial the step from the row before.
        let totals = rows.compactMap { $0["total"] as? Double }
        for (total, expected) in zip(totals, [0.0, 1000, 3500, 4000]) {
            #expect(abs(total - expected) < 1, "total \(total), expected \(expected)")
        }
        let partials = rows.compactMap { $0["partial"] as? Double }
        for (partial, expected) in zip(partials, [0.0, 1000, 2500, 500]) {
            #expect(abs(partial - expected) < 1, "partial \(partial), expected \(expected)")
        }
        #expect(rows.map { $0["waypointType"] as? String } == ["DSS", "CP", "WPV", "ASS"])
        let handles = try #require(view["handles"] as? [[String: Any]])
        #expect(handles.map { $0["index"] as? Int } == [1, 2, 3])
        let corner = ServeBook.grid(3000, 0)
        #expect(abs((handles[1]["lat"] as? Double ?? 0) - corner.latitude) < 1e-9)
        let legs = try #require(view["legs"] as? [[String: Any]])
        #expect(legs.map { $0["kind"] as? String } == ["straight", "straight"])
        #expect(legs.map { $0["state"] as? String } == ["ok", "ok"])
        let status = try #require(view["status"] as? [String: Any])
        #expect(status["applied"] as? Bool == true)
        #expect((view["profile"] as? [Any])?.isEmpty == true)
    }

    @Test("GET /api/book answers 304 to the ETag it gave, and another ETag once the book changed")
    func etag() throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let editor = ServeBook.editor(book: book, page: page)
        let first = editor.respond(to: ServeBook.request("GET", "/api/book"))
        let tag = try #require(first.header("ETag"))
        #expect(tag.hasPrefix("\"0-"), "the ETag begins with the revision: \(tag)")
        let again = editor.respond(to: ServeBook.request("GET", "/api/book", headers: ["If-None-Match": tag]))
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        let id = try #require(try BookFile.read(contentsOf: book).notes.first { $0.text == "Cattle grid" }?.id)
        let edited = editor.respond(to: ServeBook.request("POST", "/api/notes", body: ##"{"op":"edit","row":"#\##(id)","text":"Cattle grid, slow"}"##))
        #expect(edited.status == 200)
        let after = editor.respond(to: ServeBook.request("GET", "/api/book", headers: ["If-None-Match": tag]))
        #expect(after.status == 200)
        #expect(after.header("ETag") != tag)
        #expect(after.header("ETag")?.hasPrefix("\"1-") == true)
    }

    @Test("POST /api/notes edit, add, remove and restore change the book file as `note` does, each a step undo takes back")
    func notes() throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let editor = ServeBook.editor(book: book, page: page)
        let original = try Data(contentsOf: book)
        let id = try #require(try BookFile.read(contentsOf: book).notes.first { $0.text == "Cattle grid" }?.id)

        let edit = editor.respond(to: ServeBook.request("POST", "/api/notes", body: """
            {"op":"edit","row":"#\(id)","text":"Cattle grid, slow","danger":2,"symbols":"+ford","type":"WPV","marker":"R2"}
            """))
        #expect(edit.status == 200, "\(String(decoding: edit.body, as: UTF8.self))")
        #expect(try object(edit)["revision"] as? Int == 1)
        var note = try #require(try BookFile.read(contentsOf: book).notes.first { $0.id == id })
        #expect(note.text == "Cattle grid, slow")
        #expect(note.danger == 2)
        #expect(note.symbols.map(\.name) == ["ford"])
        #expect(note.waypointType == .wpv)
        #expect(note.marker == "R2")

        let add = editor.respond(to: ServeBook.request("POST", "/api/notes", body: ##"{"op":"add","at":1500,"text":"Ford"}"##))
        #expect(add.status == 200, "\(String(decoding: add.body, as: UTF8.self))")
        let added = try #require(try BookFile.read(contentsOf: book).notes.first { $0.text == "Ford" })
        #expect(abs(added.distanceAlong - 1500) < 1)

        let corner = ServeBook.grid(3000, 200)
        let addAt = editor.respond(to: ServeBook.request("POST", "/api/notes", body: """
            {"op":"add","lat":\(corner.latitude),"lon":\(corner.longitude),"text":"Bridge"}
            """))
        #expect(addAt.status == 200)
        let bridge = try #require(try BookFile.read(contentsOf: book).notes.first { $0.text == "Bridge" })
        #expect(abs(bridge.distanceAlong - 3200) < 1)

        let remove = editor.respond(to: ServeBook.request("POST", "/api/notes", body: ##"{"op":"remove","row":"#\##(id)"}"##))
        #expect(remove.status == 200)
        #expect(try BookFile.read(contentsOf: book).notes.contains { $0.id == id } == false)
        let view = try object(editor.respond(to: ServeBook.request("GET", "/api/book")))
        #expect((view["removed"] as? [[String: Any]])?.contains { $0["id"] as? Int == id } == true)
        let restore = editor.respond(to: ServeBook.request("POST", "/api/notes", body: ##"{"op":"restore","row":"#\##(id)"}"##))
        #expect(restore.status == 200)
        note = try #require(try BookFile.read(contentsOf: book).notes.first { $0.id == id })
        #expect(note.text == "Cattle grid, slow")

        // Five steps, each taken back by /api/undo, down to the book's very bytes.
        for _ in 0..<5 {
            let undo = editor.respond(to: ServeBook.request("POST", "/api/undo"))
            #expect(undo.status == 200)
            #expect((try object(undo)["message"] as? String)?.hasPrefix("undone: ") == true)
        }
        #expect(try Data(contentsOf: book) == original)
        let nothing = editor.respond(to: ServeBook.request("POST", "/api/undo"))
        #expect(nothing.status == 409)
        #expect((try object(nothing)["error"] as? String)?.contains("nothing to undo") == true)
        let redo = editor.respond(to: ServeBook.request("POST", "/api/redo"))
        #expect(redo.status == 200)
        #expect(try object(redo)["revision"] as? Int == 1)
        #expect(try BookFile.read(contentsOf: book).notes.first { $0.id == id }?.text == "Cattle grid, slow")
    }

    @Test("move, tulip, speed, CAP, reset, zones, restore all, add at a row and at a handle: the book's notes as `roadbook note` leaves them")
    func sameNotesAsTheCommand() async throws {
        let (folderA, bookA, page) = try ServeBook.folder()
        let (folderB, bookB, _) = try ServeBook.folder()
        defer { _ = (folderA, folderB) }
        let editor = ServeBook.editor(book: bookA, page: page)
        let id = try #require(try BookFile.read(contentsOf: bookA).notes.first { $0.text == "Cattle grid" }?.id)
        let steps: [(body: String, words: [String])] = [
            (##"{"op":"move","row":"#\##(id)","to":1250}"##, ["move", "#\(id)", "--to", "1.25km"]),
            (##"{"op":"move","row":"#\##(id)","by":-30}"##, ["move", "#\(id)", "--by", "-30m"]),
            (##"{"op":"tulip","row":"#\##(id)","edit":"addRoad","angle":-90,"class":"tarmac"}"##, ["tulip", "#\(id)", "add-road", "-90", "tarmac"]),
            (##"{"op":"tulip","row":"#\##(id)","edit":"exit","angle":45}"##, ["tulip", "#\(id)", "exit", "45"]),
            (##"{"op":"tulip","row":"#\##(id)","edit":"class","road":1,"class":"track"}"##, ["tulip", "#\(id)", "class", "1", "track"]),
            (##"{"op":"tulip","row":"#\##(id)","edit":"class","class":"gravel"}"##, ["tulip", "#\(id)", "class", "exit", "gravel"]),
            (##"{"op":"tulip","row":"#\##(id)","edit":"removeRoad","road":1}"##, ["tulip", "#\(id)", "remove-road", "1"]),
            (##"{"op":"tulip","row":"#\##(id)","edit":"reset"}"##, ["tulip", "#\(id)", "reset"]),
            (##"{"op":"edit","row":"#\##(id)","cap":123,"reset":true}"##, ["edit", "#\(id)", "--cap", "123", "--reset", "yes"]),
            (##"{"op":"edit","row":"#\##(id)","speed":50,"zone":"start"}"##, ["edit", "#\(id)", "--speed", "50", "--zone", "start"]),
            (##"{"op":"edit","row":"DSS","targetSpeed":48}"##, ["speed", "DSS", "48"]),
            (##"{"op":"add","atRow":"W1","text":"Water"}"##, ["add", "Water", "--at-row", "W1"]),
            (##"{"op":"add","atHandle":2,"text":"Corner"}"##, ["add", "Corner", "--at-handle", "2"]),
            (##"{"op":"remove","row":"W1"}"##, ["remove", "W1"]),
            (##"{"op":"remove","row":"2"}"##, ["remove", "2"]),
            (##"{"op":"restore","all":true}"##, ["restore", "--all"]),
        ]
        for step in steps {
            let response = editor.respond(to: ServeBook.request("POST", "/api/notes", body: step.body))
            let console = CapturingConsole()
            let status = await Roadbook.main(["note", bookB.path] + step.words, console: console)
            #expect(response.status == 200, "\(step.body): \(String(decoding: response.body, as: UTF8.self))")
            #expect(status == 0, "note \(step.words.joined(separator: " ")): \(console.errors)")
            let a = try BookFile.read(contentsOf: bookA), b = try BookFile.read(contentsOf: bookB)
            // When words were last edited is the clock of each run, which a second may part.
            func unclocked(_ notes: [Note]) -> [Note] {
                notes.map { note in
                    var note = note
                    note.wordsEdited = note.wordsEdited.map { _ in "edited" }
                    return note
                }
            }
            #expect(unclocked(a.notes) == unclocked(b.notes), "\(step.body)")
            #expect(a.deletedNotes == b.deletedNotes, "\(step.body)")
        }
        let after = try #require(try BookFile.read(contentsOf: bookA).notes.first { $0.id == id })
        #expect(abs(after.distanceAlong - 1220) < 1 && after.cap == 123 && after.resetsOdometer)
        for (body, field) in [(##"{"op":"tulip","row":"#1","edit":"spin"}"##, "field 'edit': 'spin'"),
                              (##"{"op":"move","row":"#1"}"##, "move takes one of to and by"),
                              (##"{"op":"edit","row":"#1","reset":1}"##, "field 'reset' must be true or false"),
                              (##"{"op":"edit","row":"#1","zone":"middle"}"##, "field 'zone': 'middle'")] {
            let refused = editor.respond(to: ServeBook.request("POST", "/api/notes", body: body))
            #expect(refused.status == 400 && String(decoding: refused.body, as: UTF8.self).contains(field), "\(body)")
        }
    }

    @Test("a body at fault is 400 naming the field; a row that is not there 422; the book unchanged",
          arguments: [
            ("{", "not JSON"),
            ("[1,2]", "not a JSON object"),
            ("", "empty"),
            (##"{"row":"#1"}"##, "'op'"),
            (##"{"op":"fly"}"##, "'op'"),
            (##"{"op":"edit","row":"#1","danger":"high"}"##, "'danger'"),
            (##"{"op":"edit","row":"#1","danger":1.5}"##, "'danger'"),
            (##"{"op":"edit","row":"#1","text":7}"##, "'text'"),
            (##"{"op":"edit","row":"#1","symbols":"+nosuchsymbol"}"##, "'symbols'"),
            (##"{"op":"edit","row":"#1","type":"XYZ"}"##, "'type'"),
            (##"{"op":"edit","row":"#1"}"##, "needs a field"),
            (##"{"op":"edit","text":"x"}"##, "'row'"),
            (##"{"op":"add","text":"x","lat":"north","lon":1}"##, "'lat'"),
            (##"{"op":"add","text":"x","lat":95,"lon":1}"##, "'lat'"),
            (##"{"op":"add","lat":42.5,"lon":1.5}"##, "'text'"),
            (##"{"op":"add","text":"x","at":-5}"##, "'at'"),
          ])
    func malformed(_ body: String, _ named: String) throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let before = try Data(contentsOf: book)
        let response = ServeBook.editor(book: book, page: page).respond(to: ServeBook.request("POST", "/api/notes", body: body))
        #expect(response.status == 400)
        let error = try #require(try object(response)["error"] as? String)
        #expect(error.contains(named), "'\(error)' does not name \(named)")
        #expect(!error.contains("\n"))
        #expect(try Data(contentsOf: book) == before)
    }

    @Test("a change to a row that is not there is 422, and the book is unchanged")
    func noSuchRow() throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let before = try Data(contentsOf: book)
        let response = ServeBook.editor(book: book, page: page)
            .respond(to: ServeBook.request("POST", "/api/notes", body: ##"{"op":"edit","row":"#999","text":"x"}"##))
        #expect(response.status == 422)
        #expect((try object(response)["error"] as? String)?.contains("#999") == true)
        #expect(try Data(contentsOf: book) == before)
    }

    @Test("unknown paths are 404, a path asked with the wrong method 405, a method taken on no path 501")
    func pathsAndMethods() throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let editor = ServeBook.editor(book: book, page: page)
        #expect(editor.respond(to: ServeBook.request("GET", "/api/nothing")).status == 404)
        #expect(editor.respond(to: ServeBook.request("GET", "/etc/passwd")).status == 404)
        #expect(editor.respond(to: ServeBook.request("GET", "/api/notes")).status == 405)
        #expect(editor.respond(to: ServeBook.request("POST", "/api/book")).status == 405)
        #expect(editor.respond(to: ServeBook.request("DELETE", "/api/undo")).status == 501, "a method the editor takes on no path")
        #expect(editor.respond(to: ServeBook.request("POST", "/")).status == 405)
    }
}

@Suite("A request's JSON body, field by field")
struct RequestBodyTests {
    @Test("numbers are taken as numbers; true, strings and fractions where a whole number goes are refused, naming the field")
    func numbers() throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let editor = ServeBook.editor(book: book, page: page)
        for (body, field) in [(#"{"op":"add","text":"x","lat":true,"lon":1}"#, "'lat'"), (#"{"op":"add","text":"x","at":true}"#, "'at'"),
                              (#"{"op":"edit","row":"1","danger":false}"#, "'danger'")] {
            let response = editor.respond(to: ServeBook.request("POST", "/api/notes", body: body))
            #expect(response.status == 400)
            #expect((try object(response)["error"] as? String)?.contains(field) == true, "\(body)")
        }
        // Row 1 by its printed number, a whole danger given as 1 (not true).
        let ok = editor.respond(to: ServeBook.request("POST", "/api/notes", body: #"{"op":"edit","row":"1","danger":1}"#))
        #expect(ok.status == 200)
    }
}
