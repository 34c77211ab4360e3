import Foundation

/// The checks every request to the editor passes before it is answered, so that only the person
/// who started `roadbook serve` uses it:
///
/// - the Host header names the server as the browser reached it (127.0.0.1, localhost or [::1],
///   or the `--host` given, with the port): a page of another site whose name was made to point at
///   127.0.0.1 (DNS rebinding) sends its own name, and is refused;
/// - a request with an Origin header comes from the editor's own page: a form or a script on
///   another site is refused;
/// - the token printed with the URL comes with every request: in the query (`?token=`, the URL
///   printed), the cookie `roadbook_token` the first answer sets, or the header `X-Roadbook-Token`
///   (scripts). Another program of another user on the machine does not know it.
///
/// A refusal is 403 with a one-line text body.
public struct EditorSecurity: Sendable {
    /// The cookie that carries the token after the first page.
    public static let cookieName = "roadbook_token"
    /// The header that carries it from a script.
    public static let headerName = "X-Roadbook-Token"

    /// 32 hexadecimal digits.
    public let token: String
    /// The Host values accepted: `127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT` and the `--host` given.
    public let hosts: Set<String>

    /// - Parameters:
    ///   - token: the secret; `newToken()` when the server starts.
    ///   - port: the port the server listens on.
    ///   - host: the address given with `--host`, when not the default.
    public init(token: String, port: UInt16, host: String? = nil) {
        self.token = token
        var names = ["127.0.0.1", "localhost", "[::1]"]
        if let host, !host.isEmpty { names.append(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host) }
        hosts = Set(names.map { "\($0.lowercased()):\(port)" })
    }

    /// A new token: 16 bytes from the system's random source, as 32 hexadecimal digits.
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// What the checks decided about a request.
    public enum Verdict: Sendable, Equatable {
        /// Answer it; `setCookie` when the token came in the query, so the page's later requests carry it.
        case allowed(setCookie: Bool)
        case refused(ServerResponse)
    }

    /// Checks `request`'s Host, Origin and token.
    public func check(_ request: ServerRequest) -> Verdict {
        guard let host = request.header("host")?.lowercased(), hosts.contains(host) else {
            return .refused(.text(403, "refused: the Host header is not this server's address (127.0.0.1 or localhost with its port)"))
        }
        if let origin = request.header("origin"), origin.lowercased() != "http://\(host)" {
            return .refused(.text(403, "refused: a request from another site (Origin \(origin.prefix(100)))"))
        }
        if let given = request.header(Self.headerName) ?? request.cookie(Self.cookieName), matches(given) {
            return .allowed(setCookie: false)
        }
        if let given = request.query["token"], matches(given) { return .allowed(setCookie: true) }
        return .refused(.text(403, "refused: no token or a wrong one: open the URL roadbook serve printed, with its ?token="))
    }

    /// The cookie that carries the token: sent back only to this server, never to a script of the
    /// page, never with a request from another site.
    public var cookie: ServerResponse.Header {
        ServerResponse.Header("Set-Cookie", "\(Self.cookieName)=\(token); HttpOnly; SameSite=Strict; Path=/")
    }

    /// Compares in a time that does not depend on where the texts first differ.
    private func matches(_ given: String) -> Bool {
        let a = Array(given.utf8), b = Array(token.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
