import Foundation
import Formats
import Serve
import Testing
import TestSupport

/// What the editor's fuzz harness (Fuzz/serve) found, each kept as the requests that showed it.
@Suite("The editor's fuzz findings")
struct FuzzFindingTests {
    /// Answers `request` on a Dispatch queue, as the server does: a handles change waits for the
    /// operation it starts, so it must not hold a thread of the tasks' pool.
    func answer(_ editor: Editor, _ request: ServerRequest) async -> ServerResponse {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: editor.respond(to: request)) }
        }
    }

    @Test("A drawing change undone on a book that had no id: the book is readable after, and redo gives the id back")
    func undoFirstDrawingOfBookWithoutID() async throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let editor = ServeBook.editor(book: book, page: page)
        let original = try Data(contentsOf: book)
        #expect(try BookFile.read(contentsOf: book).id == nil)

        let corner = ServeBook.grid(3000, 50)
        let moved = await answer(editor, ServeBook.request("POST", "/api/handles",
                                                           body: #"{"op":"move","index":2,"lat":\#(corner.latitude),"lon":\#(corner.longitude)}"#))
        #expect(moved.status == 200, "\(String(decoding: moved.body, as: UTF8.self))")
        // Saving the drawing gave the book an id, so the drawing belongs to it.
        let id = try #require(try BookFile.read(contentsOf: book).id)

        let undone = await answer(editor, ServeBook.request("POST", "/api/undo"))
        #expect(undone.status == 200, "\(String(decoding: undone.body, as: UTF8.self))")
        #expect((try object(undone)["message"] as? String)?.hasPrefix("undone: Move handle 2") == true)
        // Undo gives back the very bytes the book had: without an id.
        #expect(try Data(contentsOf: book) == original)
        let view = await answer(editor, ServeBook.request("GET", "/api/book"))
        #expect(view.status == 200, "\(String(decoding: view.body, as: UTF8.self))")

        let redone = await answer(editor, ServeBook.request("POST", "/api/redo"))
        #expect(redone.status == 200, "\(String(decoding: redone.body, as: UTF8.self))")
        #expect(try BookFile.read(contentsOf: book).id == id)
        let again = await answer(editor, ServeBook.request("GET", "/api/book"))
        #expect(again.status == 200, "\(String(decoding: again.body, as: UTF8.self))")
    }
}
