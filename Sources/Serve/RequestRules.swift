import Foundation

// The rules of HTTP/1.1 (RFC 9110, RFC 9112) a request is held to before the editor looks at it:
// what libmicrohttpd lets through but the protocol refuses, and what would let a request be read
// two ways (a value cut short at a NUL, two Host headers, a body whose length is told twice).
// Each refusal is one line; the server closes the connection after it.

extension ServerRequest {
    /// A request as libmicrohttpd hands it over. Its target is a path (origin form, `/api/book`), or
    /// an address (absolute form, `http://127.0.0.1:8123/api/book`, as a proxy sends it): then the
    /// address's host is the request's Host whatever the Host header says (RFC 9112 §3.2.2), and its
    /// path the request's path. Any other target is kept as it is, for `protocolRefusal` to refuse.
    public static func received(method: String, target: String, version: String, query: [String: String],
                                headers: [String: String], body: Data) -> ServerRequest {
        var path = target
        var headers = headers
        if target.count > 7, target.prefix(7).lowercased() == "http://" {
            let rest = target.dropFirst(7)
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            let authority = String(rest[..<slash])
            if !authority.isEmpty {
                headers["host"] = authority
                path = slash == rest.endIndex ? "/" : String(rest[slash...])
            }
        }
        return ServerRequest(method: method, path: path, query: query, headers: headers, body: body, version: version)
    }

    /// Two values of one header, or of one query argument (`name` nil), as one: a repeated header is
    /// the list of its values (RFC 9110 §5.3), the cookies of two Cookie headers are one list of
    /// cookies. A header that takes one value (Host, a token, Content-Length) then holds two, and
    /// is refused rather than read as its first.
    public static func joined(_ first: String, _ second: String, name: String?) -> String {
        switch name {
        case "cookie": "\(first); \(second)"
        case nil: "\(first),\(second)"
        default: "\(first), \(second)"
        }
    }

    /// Characters of a Host header: a name, an IPv4 address or an IPv6 one in brackets, and a port
    /// (RFC 3986 §3.2.2: unreserved, percent-encoded and sub-delims characters, `:`, `[` and `]`).
    static let hostCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~%!$&'()*+,;=:[]".unicodeScalars)

    /// The answer to a request the protocol refuses, before its body is read; nil for one that
    /// keeps to it:
    /// - 400 for a header that holds a NUL byte (it would be read cut short, a token or a Host
    ///   shorter than sent); a target that is neither a path nor an `http://` address; an HTTP/1.1
    ///   request without a Host header, with two, or with one that is not a host name (RFC 9112
    ///   §3.2); a body whose length is told both by Content-Length and Transfer-Encoding, by two
    ///   Content-Lengths, or not at all (a Transfer-Encoding whose last coding is not chunked, RFC
    ///   9112 §6.1, §6.3): a server that reads such a body one way while another reads it another
    ///   lets a request be smuggled in it;
    /// - 501 for a transfer coding other than chunked (gzip…): the body cannot be read.
    public func protocolRefusal() -> ServerResponse? {
        if let name = headers.first(where: { $0.key.unicodeScalars.contains("\0") || $0.value.unicodeScalars.contains("\0") })?.key {
            return .text(400, "the header '\(name.replacingOccurrences(of: "\0", with: "\\0").prefix(40))' holds a NUL byte")
        }
        guard path.hasPrefix("/") else {
            return .text(400, "the request's target is neither a path (/…) nor an http:// address: \(path.prefix(60))")
        }
        if let host = header("host") {
            guard !host.contains(",") else { return .text(400, "the request names more than one Host") }
            guard host.unicodeScalars.allSatisfy(Self.hostCharacters.contains) else {
                return .text(400, "the Host header is not a host name and port")
            }
        } else if version.uppercased() == "HTTP/1.1" {
            return .text(400, "an HTTP/1.1 request needs a Host header")
        }
        if let coding = header("transfer-encoding") {
            guard header("content-length") == nil else {
                return .text(400, "the request has both Content-Length and Transfer-Encoding: its body's length is told twice")
            }
            let codings = coding.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard codings.last == "chunked", codings.filter({ $0 == "chunked" }).count == 1 else {
                return .text(400, "the body's length is not known: chunked must be the last transfer coding, once")
            }
            if let other = codings.first(where: { $0 != "chunked" }) {
                return .text(501, "the transfer coding '\(other.prefix(40))' is not supported: send the body chunked, or with a Content-Length")
            }
        }
        if let length = header("content-length"), length.contains(",") {
            return .text(400, "the request has more than one Content-Length")
        }
        return nil
    }
}
