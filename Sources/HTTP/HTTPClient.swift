import Foundation

/// An HTTP request, as engines and elevation services are asked.
public struct HTTPRequest: Sendable, Equatable {
    public enum Method: String, Sendable { case get = "GET", post = "POST" }

    public var method: Method
    public var url: URL
    public var headers: [String: String]
    public var body: Data?
    /// Seconds to wait for the whole answer before giving up.
    public var timeout: TimeInterval

    public init(method: Method = .get, url: URL, headers: [String: String] = [:], body: Data? = nil,
                timeout: TimeInterval = 30) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// An HTTP answer: any status, with its body.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header names in lower case.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// A request that got no HTTP answer at all.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// No connection could be made (refused, no route, name not found).
        case unreachable
        /// No complete answer within the request's timeout.
        case timedOut
        /// The connection broke, or the answer was not HTTP.
        case failed
        /// The answer's body was larger than the client takes (`CurlHTTPClient.maximumAnswerSize`).
        case tooLarge
    }

    public var kind: Kind
    public var url: URL
    /// What the transport said.
    public var detail: String

    public init(kind: Kind, url: URL, detail: String) {
        self.kind = kind
        self.url = url
        self.detail = detail
    }

    public var description: String { "\(url.absoluteString): \(detail)" }
}

/// Sends HTTP requests. Stages receive this protocol: a test hands in a fake, a user the libcurl
/// client.
public protocol HTTPClient: Sendable {
    /// Sends `request` and returns the answer, whatever its status.
    /// - Throws: `HTTPError` when there is no answer (unreachable, timed out, broken).
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
