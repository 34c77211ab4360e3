import Foundation
import Workflows

/// What `roadbook serve` does, below the command line: the book read once before listening (a wrong
/// file is said at once, not in the browser), the page found, the server started; then, until a
/// stop signal, the editor answers; the browser opened on request. The command only parses its
/// options and prints the lines these give back.
public enum EditorSession {
    /// The addresses that only this machine reaches.
    public static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "::1"]

    /// Starts the editor of `settings.book` on `host`:`port` with the page found beside roadbook.
    /// - Throws: `WorkflowError` in one line: the book cannot be read, the page is missing, or the
    ///   address cannot be listened on.
    public static func start(book: URL, engine: EngineSettings?, osm: URL?, terrain: TerrainRequest, tiles: TileTemplate?,
                             host: String, port: UInt16) throws -> EditorServer {
        _ = try BookRead(book)
        guard let page = StaticFiles.find() else {
            throw WorkflowError("the editor's page (Page/index.html) was not found beside roadbook; set ROADBOOK_PAGE to its folder")
        }
        do {
            return try EditorServer(settings: Editor.Settings(book: book, page: page, engine: engine, osm: osm, terrain: terrain, tiles: tiles),
                                    configuration: HTTPServer.Configuration(host: host, port: port))
        } catch let error as HTTPServer.StartError {
            throw WorkflowError(error.description)
        }
    }

    /// The warning for an address other machines may reach; nil for a loopback one.
    public static func exposureWarning(host: String) -> String? {
        loopbackHosts.contains(host) ? nil
            : "listening on \(host): anyone who can reach it and has the token can change the book"
    }

    /// Runs `xdg-open URL` when it is on the PATH; what went wrong, or nil when it started.
    public static func openInBrowser(_ url: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let opener = path.map({ "\($0)/xdg-open" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return "xdg-open was not found: open the address yourself"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [url]
        do { try process.run() } catch {
            return "\(opener) did not start: \(error)"
        }
        return nil
    }
}
