import Foundation
import Workflows

/// What `roadbook serve` does, below the command line: the book read once before listening (a wrong
/// file is said at once, not in the browser), the page found, the server started. The `roadbook`
/// executable hands this launcher to `Roadbook.main`; the command parses its options into an
/// `EditorRequest`, starts the editor through it, prints the address and waits for a stop signal.
public struct HTTPEditorLauncher: EditorLauncher {
    /// The page's files; nil: found beside roadbook when the editor starts (`StaticFiles.find`).
    public var page: StaticFiles?

    public init(page: StaticFiles? = nil) { self.page = page }

    /// Starts the editor of `request.book` on `request.host`:`request.port`.
    /// - Throws: `EditorHostRefused` for a host that is not an address; otherwise `WorkflowError`
    ///   in one line: the book cannot be read, the page is missing, or the address cannot be
    ///   listened on.
    public func start(_ request: EditorRequest) throws -> any RunningEditor {
        _ = try BookRead(request.book)
        guard let page = page ?? StaticFiles.find() else {
            throw WorkflowError("the editor's page (Page/index.html) was not found beside roadbook; set ROADBOOK_PAGE to its folder")
        }
        let settings = Editor.Settings(book: request.book, page: page, engine: request.engine, osm: request.osm,
                                       terrain: request.terrain, tiles: request.tiles)
        do {
            return try EditorServer(settings: settings, configuration: HTTPServer.Configuration(host: request.host, port: request.port))
        } catch let error as HTTPServer.StartError {
            if error.reason == .notAnAddress { throw EditorHostRefused(host: error.host) }
            throw WorkflowError(error.description)
        }
    }
}

extension EditorServer: RunningEditor {}
