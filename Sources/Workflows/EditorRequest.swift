import Foundation

/// What `roadbook serve` asks of the web editor: the book, where the handles' legs, an Apply's
/// turns and its heights come from, the map's background, and the address to listen on. The
/// command line builds it from its options; an `EditorLauncher` starts the editor from it.
public struct EditorRequest: Sendable {
    /// The book edited, saved as `roadbook note` saves it.
    public var book: URL
    /// The engine the handles' changed legs are asked of; nil: none.
    public var engine: EngineSettings?
    /// An OpenStreetMap extract: the map's roads, the turns of an Apply.
    public var osm: URL?
    /// Where an Apply's heights come from.
    public var terrain: TerrainRequest
    /// A raster tile server drawn under the roads; nil: the page fetches nothing from outside.
    public var tiles: TileTemplate?
    /// The address to listen on: a loopback one (`EditorAddress.loopbackHosts`) unless other
    /// machines are meant to reach the editor.
    public var host: String
    /// The port to listen on; 0 takes a free one.
    public var port: UInt16

    public init(book: URL, engine: EngineSettings? = nil, osm: URL? = nil, terrain: TerrainRequest = TerrainRequest(),
                tiles: TileTemplate? = nil, host: String = "127.0.0.1", port: UInt16 = 0) {
        self.book = book
        self.engine = engine
        self.osm = osm
        self.terrain = terrain
        self.tiles = tiles
        self.host = host
        self.port = port
    }
}

/// An editor that is listening: the address to open, with its token, and how to stop it.
public protocol RunningEditor: Sendable {
    /// The address to open: `http://127.0.0.1:PORT/?token=TOKEN`.
    var url: String { get }
    /// Stops listening; the requests under way end first.
    func stop()
}

/// Starts the web editor of a book. Declared here, implemented by `Serve` over its HTTP server
/// (`HTTPEditorLauncher`): the `roadbook` executable hands that one to `Roadbook.main`, so the
/// command line starts an editor without knowing the server (docs/architecture.md).
public protocol EditorLauncher: Sendable {
    /// Reads the book once (a wrong file is said at once, not in the browser), then listens.
    /// - Throws: `EditorHostRefused` for a host that is not an address; otherwise an error in one
    ///   line: the book cannot be read, the page is missing, or the address cannot be listened on.
    func start(_ request: EditorRequest) throws -> any RunningEditor
}

/// The host an editor was asked to listen on is not an IPv4 or IPv6 address (nor `localhost`).
/// Data, not words: the caller says where the host came from (the command line: its option).
public struct EditorHostRefused: Error, Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public init(host: String) { self.host = host }
    public var description: String { "'\(host)' is not an IP address (such as 127.0.0.1 or ::1)" }
}

/// The editor's address, apart from any server: which hosts only this machine reaches, the
/// warning for one that others may reach, and opening it in the browser.
public enum EditorAddress {
    /// The addresses that only this machine reaches.
    public static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "::1"]

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
