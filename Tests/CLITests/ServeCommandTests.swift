import Foundation
import RoadbookCLI
import Testing
import TestSupport
import Workflows

/// An editor launcher that listens nowhere: it keeps what it was asked and refuses, so
/// `roadbook serve` ends at once without waiting for a signal.
private final class RefusingLauncher: EditorLauncher, @unchecked Sendable {
    private let lock = NSLock()
    private var asked: [EditorRequest] = []
    var requests: [EditorRequest] { lock.withLock { asked } }

    func start(_ request: EditorRequest) throws -> any RunningEditor {
        lock.withLock { asked.append(request) }
        throw WorkflowError("port 8080 is in use")
    }
}

/// `roadbook serve` through `Roadbook.main`: the command line starts the editor it is handed, and
/// knows no server of its own (docs/architecture.md).
@Suite("roadbook serve's editor, handed to Roadbook.main")
struct ServeCommandTests {
    @Test("without an editor, serve fails in one line with status 1; the other commands are unaffected")
    func withoutAnEditor() async {
        let console = CapturingConsole()
        let status = await Roadbook.main(["serve", "b.json"], console: console)
        #expect(status == 1)
        #expect(console.output.isEmpty)
        #expect(console.errors == "roadbook serve: this program has no web editor: it called Roadbook.main without one "
                + "(editor: HTTPEditorLauncher() from the Serve module)\n")
        // Help needs no editor.
        #expect(await Roadbook.main(["serve", "--help"], console: CapturingConsole()) == 0)
    }

    @Test("the editor given is asked for the book, engine, extract, tiles and address of the options; its refusal is said in one line")
    func theGivenEditorIsAsked() async throws {
        let launcher = RefusingLauncher()
        let console = CapturingConsole()
        let status = await Roadbook.main(["serve", "/tmp/b.json", "--port", "8080", "--host", "0.0.0.0", "--osm", "/tmp/x.osm.pbf",
                                          "--engine", "osrm", "--url", "http://10.0.0.7:5001",
                                          "--tiles", "https://Tile.Example.org:8443/{z}/{x}/{y}.png?key=k"],
                                         console: console, editor: launcher)
        #expect(status == 1)
        #expect(console.output.isEmpty)
        #expect(console.errors == """
            roadbook serve: warning: listening on 0.0.0.0: anyone who can reach it and has the token can change the book
            roadbook serve: port 8080 is in use

            """)
        let request = try #require(launcher.requests.first)
        #expect(launcher.requests.count == 1)
        #expect(request.book.path == "/tmp/b.json" && request.osm?.path == "/tmp/x.osm.pbf")
        #expect(request.host == "0.0.0.0" && request.port == 8080)
        #expect(request.engine?.kind == .osrm && request.engine?.url?.absoluteString == "http://10.0.0.7:5001")
        #expect(request.tiles?.template == "https://Tile.Example.org:8443/{z}/{x}/{y}.png?key=k")
        #expect(request.tiles?.origin == "https://tile.example.org:8443")
        // Heights are fetched while a browser waits: no progress on the terminal.
        #expect(request.terrain.progress == nil)
    }

    @Test("on a loopback address no warning is given", arguments: ["127.0.0.1", "localhost", "::1"])
    func loopbackHasNoWarning(host: String) async {
        let launcher = RefusingLauncher()
        let console = CapturingConsole()
        #expect(await Roadbook.main(["serve", "b.json", "--host", host], console: console, editor: launcher) == 1)
        #expect(console.errors == "roadbook serve: port 8080 is in use\n")
        #expect(launcher.requests.map(\.host) == [host])
    }
}
