import Foundation

/// A request the editor's server received: what a handler reads, with no socket behind it, so a
/// handler is a function from this value to a `ServerResponse` and is tested without a network.
public struct ServerRequest: Sendable, Equatable {
    public var method: String
    /// The path, without the query (`/api/book`).
    public var path: String
    /// The query's arguments, decoded (`?token=…` gives `["token": "…"]`).
    public var query: [String: String]
    /// Header names in lower case.
    public var headers: [String: String]
    public var body: Data
    /// The protocol's version as the request line gives it (`HTTP/1.1`).
    public var version: String

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
                body: Data = Data(), version: String = "HTTP/1.1") {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
        self.version = version
    }

    /// The value of header `name` (any case).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The value of cookie `name` in the Cookie header; nil when it is not there, or is there twice
    /// with two values (which one the browser meant cannot be known).
    public func cookie(_ name: String) -> String? {
        guard let line = header("cookie") else { return nil }
        var found: String?
        for pair in line.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, parts[0] == name else { continue }
            if let found, found != parts[1] { return nil }
            found = parts[1]
        }
        return found
    }
}

/// What the server answers: a status, headers in the order given, and a body.
public struct ServerResponse: Sendable, Equatable {
    public struct Header: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public var status: Int
    public var headers: [Header]
    public var body: Data

    public init(status: Int, headers: [Header] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of header `name` (any case), when set.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// A one-line text/plain answer (a refusal of the security checks, a path not found).
    public static func text(_ status: Int, _ line: String) -> ServerResponse {
        ServerResponse(status: status, headers: [Header("Content-Type", "text/plain; charset=utf-8")],
                       body: Data((oneLine(line) + "\n").utf8))
    }

    /// A JSON answer of `value`.
    public static func json<T: Encodable>(_ status: Int = 200, _ value: T) -> ServerResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let body = try? encoder.encode(value) else {
            return .error(500, "the answer could not be written as JSON")
        }
        return ServerResponse(status: status, headers: [Header("Content-Type", "application/json; charset=utf-8")], body: body)
    }

    /// `{"error": "…"}`, the message on one line.
    public static func error(_ status: Int, _ message: String) -> ServerResponse {
        json(status, ["error": oneLine(message)])
    }

    /// `text` with its line breaks and other control characters written as spaces.
    static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }
}
