import Foundation
import HTTP
import RoadbookCLI
import Serve
import Testing
import TestSupport
import Workflows
#if canImport(Glibc)
import Glibc
#endif

/// `HTTPEditorLauncher`: the editor `roadbook serve` starts, as the `roadbook` executable hands it
/// to `Roadbook.main`.
@Suite("Serve's editor launcher", .serialized)
struct LauncherTests {
    @Test("starts the editor of the request on a free port of 127.0.0.1 with a new token and the request's tiles; stop closes the port")
    func startsAndStops() async throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let tiles = try TileTemplate("https://tile.example.org/{z}/{x}/{y}.png")
        let editor = try HTTPEditorLauncher(page: StaticFiles(folder: page)).start(EditorRequest(book: book, tiles: tiles))
        let match = try #require(editor.url.wholeMatch(of: #/http://127\.0\.0\.1:([0-9]+)/\?token=([0-9a-f]{32})/#), "\(editor.url)")
        let port = try #require(UInt16(match.1))
        #expect(port != 0)
        let answer = try await CurlHTTPClient().send(HTTPRequest(url: try #require(URL(string: editor.url))))
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self).contains("<title>roadbook</title>"))
        #expect(answer.headers["content-security-policy"]?.contains("img-src 'self' https://tile.example.org;") == true,
                "\(answer.headers)")
        editor.stop()
        #expect(throws: (any Error).self) { close(try connectLoopback(port: port)) }
    }

    @Test("a book it cannot read is refused before anything listens")
    func unreadableBook() throws {
        let (folder, _, page) = try ServeBook.folder()
        let missing = folder.path("missing.json")
        #expect { _ = try HTTPEditorLauncher(page: StaticFiles(folder: page)).start(EditorRequest(book: missing)) } throws: { error in
            "\(error)".hasPrefix(missing.path) && "\(error)".contains("cannot read")
        }
    }

    @Test("through Roadbook.main: a host that is not an address is said with the option's name, after the warning, status 1")
    func hostThatIsNotAnAddress() async throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let console = CapturingConsole()
        let status = await Roadbook.main(["serve", book.path, "--host", "nowhere.example"], console: console,
                                         editor: HTTPEditorLauncher(page: StaticFiles(folder: page)))
        #expect(status == 1)
        #expect(console.output.isEmpty)
        #expect(console.errors == """
            roadbook serve: warning: listening on nowhere.example: anyone who can reach it and has the token can change the book
            roadbook serve: --host 'nowhere.example' is not an IP address (such as 127.0.0.1 or ::1)

            """)
    }

    @Test("a port already listened on is refused in one line naming the address")
    func portInUse() throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let launcher = HTTPEditorLauncher(page: StaticFiles(folder: page))
        let first = try launcher.start(EditorRequest(book: book))
        defer { first.stop() }
        let port = try #require(first.url.firstMatch(of: #/:([0-9]+)/#).flatMap { UInt16($0.1) })
        #expect(throws: WorkflowError("cannot listen on 127.0.0.1 port \(port): Address already in use")) {
            _ = try launcher.start(EditorRequest(book: book, port: port))
        }
    }
}
