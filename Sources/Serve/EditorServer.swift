import Formats
import Foundation
import Workflows

/// The editor on its HTTP server: started on a port (0: one the system chooses), with a new
/// token, answering every request with `Editor.respond(to:)`.
public final class EditorServer: Sendable {
    public let server: HTTPServer
    public let editor: Editor

    /// Starts the server and the editor.
    /// - Parameter token: the secret; a new one from the system's random source by default.
    /// - Throws: `HTTPServer.StartError`.
    public init(settings: Editor.Settings, configuration: HTTPServer.Configuration,
                token: String = EditorSecurity.newToken()) throws {
        // The Host the security checks accept names the port, known once the server listens:
        // a request that comes before (none can: nobody has the URL yet) is answered 503.
        // Every request reads the book, its journal and its drawing again (a command in a terminal
        // may have changed them); only the decoding of bytes already seen is spared.
        DecodedFiles.shared.keep(files: 8)
        let slot = EditorSlot()
        server = try HTTPServer(configuration) { request in
            slot.editor?.respond(to: request) ?? .text(503, "the editor is starting")
        }
        let loopback = EditorAddress.loopbackHosts.contains(configuration.host)
        editor = Editor(settings: settings, security: EditorSecurity(token: token, port: server.port,
                                                                     host: loopback ? nil : configuration.host))
        slot.editor = editor
    }

    /// The address to open: `http://127.0.0.1:PORT/?token=TOKEN` (the `--host` given instead when
    /// it is not a loopback address).
    public var url: String {
        let host = server.configuration.host
        let shown = host == "localhost" ? "127.0.0.1" : host.contains(":") ? "[\(host)]" : host
        return "http://\(shown):\(server.port)/?token=\(editor.security.token)"
    }

    /// Stops the server: no new connection is taken, the requests under way end first.
    public func stop() { server.stop() }
}

private final class EditorSlot: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Editor?
    var editor: Editor? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
