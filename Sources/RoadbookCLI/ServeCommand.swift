import Foundation
import Workflows

/// `roadbook serve BOOK.json`: a web editor of the book on this machine, every change made through
/// the same operations as `note`, `undo` and `redo`. The editor is started through the
/// `EditorLauncher` given to `Roadbook.main` (the `roadbook` executable gives `Serve`'s), so the
/// command line parses, prints and waits without knowing the HTTP server.
struct ServeCommand: Command {
    static let declaration = CommandDeclaration(
        name: "serve",
        abstract: "Edit the book in a web browser on this machine: its rows on a map, saved as note saves them.",
        positionals: "BOOK.json", positionalCount: 1...1,
        discussion: """
        Prints the address to open, with a token: only a browser that opened it may use the
        editor, and only from the editor's own page (docs/editor.md). Every change is saved in the
        book at once as one step of its journal, as `roadbook note`, `handles` and `apply` save
        it: `roadbook undo` takes it back, and a change made with a command while the page is open
        shows on it within a second. With --osm the map shows the extract's roads and Apply reads
        its turns from it; with --engine the handles' changed legs are asked of it; --dem and
        --elevation give an Apply's heights; --tiles draws a tile server's map under the roads.
        The server listens on 127.0.0.1 unless --host says otherwise, and stops on Ctrl-C
        (SIGINT) or SIGTERM, after the requests under way.
        """,
        options: [
            Option("port", .integer(0...65535), value: "N", default: "0", help: "the port to listen on; 0 takes a free one"),
            Option("host", value: "ADDRESS", help: """
                the address to listen on (default 127.0.0.1); another one lets other
                machines reach the editor, with the token
                """),
            Option("open", .flag, help: "open the address in the browser (xdg-open)"),
            EngineOptions.engine(required: false, help: "the routing engine the handles' changed legs are asked of"),
            EngineOptions.url, EngineOptions.apiKey,
            Option("osm", value: "EXTRACT", help: """
                OpenStreetMap extract: the map's roads, the turns of an Apply,
                the embedded router's roads
                """),
            EngineOptions.concurrency,
            Option("tiles", value: "URL", help: """
                a raster tile server, https://…/{z}/{x}/{y}.png: the map's background
                under the roads; without it the page fetches nothing from outside
                """),
        ] + TerrainOptions.declarations)

    var book: URL
    var port: UInt16
    var host: String
    var open: Bool
    var engine: EngineSettings?
    var osm: URL?
    var terrain: TerrainRequest
    var tiles: TileTemplate?

    init(_ options: ParsedOptions) throws {
        book = URL(fileURLWithPath: options.positionals[0])
        port = UInt16(try options.integer(always: "port"))
        host = options.string("host") ?? "127.0.0.1"
        open = options.flag("open")
        // --osm has uses of its own without an engine: the map's roads and an Apply's turns.
        engine = try EngineOptions.settings(options, osmIsShared: true)
        osm = options.file("osm")
        terrain = try TerrainOptions(options).request
        // Heights are fetched while a browser waits: no progress on the terminal.
        terrain.progress = nil
        if let text = options.string("tiles") {
            do { tiles = try TileTemplate(text) } catch {
                throw UsageError(message: "--tiles '\(text.prefix(200))' is not a tile address: \(error.reason) (such as https://tile.example.org/{z}/{x}/{y}.png)")
            }
        }
    }

    /// What the editor is asked for.
    var request: EditorRequest {
        EditorRequest(book: book, engine: engine, osm: osm, terrain: terrain, tiles: tiles, host: host, port: port)
    }

    func run(_ console: any Console) async throws {
        guard let launcher = Roadbook.editor else { throw RunError(message: Self.noEditor) }
        if let warning = EditorAddress.exposureWarning(host: host) { console.err("roadbook serve: warning: \(warning)") }
        let editor: any RunningEditor
        do { editor = try launcher.start(request) } catch let refused as EditorHostRefused {
            throw RunError(message: "--host \(refused)")
        }
        console.out("roadbook serve: \(editor.url)")
        if open, let problem = EditorAddress.openInBrowser(editor.url) { console.err("roadbook serve: \(problem)") }
        let signal = await StopSignals.wait()
        editor.stop()
        console.err("roadbook serve: stopped (\(signal))")
    }

    /// Said when `Roadbook.main` was called without an editor (a program embedding the command line).
    static let noEditor = "this program has no web editor: it called Roadbook.main without one (editor: HTTPEditorLauncher() from the Serve module)"
}
