import CCurl
import Foundation

/// An `HTTPClient` over libcurl's easy interface.
///
/// Each request gets its own easy handle on its own thread, so the blocking `curl_easy_perform`
/// never holds a thread of Swift's cooperative pool and many requests run at once. With
/// `maximumConcurrentRequests` set, the others wait their turn in the order they were sent.
/// Cancelling the sending task aborts its transfer within about a second (libcurl's progress
/// callback runs at least that often) and throws `CancellationError`; a task cancelled while it
/// waits for its turn throws `CancellationError` when its turn comes, without sending.
///
/// Only `http` and `https` addresses are fetched; redirects are not followed unless asked for, so
/// a 3xx answer comes back as it is.
public final class CurlHTTPClient: HTTPClient {
    /// The User-Agent sent unless another is given.
    public static let defaultUserAgent = "roadbook/0.1"

    /// How each transfer is set up; fixed for the client's life.
    struct Settings: Sendable {
        var connectTimeout: TimeInterval
        var userAgent: String
        var followsRedirects: Bool
        var maximumAnswerSize: Int
    }

    /// The largest answer body taken by default: 64 MiB. An OSRM route with steps across a
    /// country, or a Valhalla trace of a long leg, is a few megabytes; a body larger than this is a
    /// server gone wrong, and reading it would only take the machine's memory.
    public static let defaultMaximumAnswerSize = 64 << 20

    /// Redirects followed at most, when following them: enough for http → https → canonical host.
    static let maximumRedirects = 5

    private let settings: Settings
    private let limit: ConcurrencyLimit?

    /// The most requests this client has in flight at once; `nil` for no limit.
    public let maximumConcurrentRequests: Int?

    /// - Parameters:
    ///   - maximumConcurrentRequests: at most this many requests in flight at once (at least 1);
    ///     `nil` for no limit.
    ///   - connectTimeout: seconds to wait for a connection (name lookup, TCP, TLS); a request's
    ///     own `timeout` caps it.
    ///   - userAgent: the User-Agent header, unless a request sets its own.
    ///   - followsRedirects: follow up to 5 redirects instead of returning the 3xx answer.
    ///   - maximumAnswerSize: the largest answer body, in bytes, taken before the transfer is
    ///     stopped with `HTTPError.tooLarge` (at least 1).
    /// - Throws: `HTTPError.failed` when libcurl cannot be initialised.
    public init(maximumConcurrentRequests: Int? = nil, connectTimeout: TimeInterval = 10,
                userAgent: String = CurlHTTPClient.defaultUserAgent, followsRedirects: Bool = false,
                maximumAnswerSize: Int = CurlHTTPClient.defaultMaximumAnswerSize) throws {
        precondition(maximumAnswerSize >= 1, "maximumAnswerSize must be at least 1, got \(maximumAnswerSize)")
        if let maximumConcurrentRequests {
            precondition(maximumConcurrentRequests >= 1,
                         "maximumConcurrentRequests must be at least 1, got \(maximumConcurrentRequests)")
        }
        try checkCurl(Self.globalInitialisation, url: URL(fileURLWithPath: "/"), call: "curl_global_init")
        self.maximumConcurrentRequests = maximumConcurrentRequests
        limit = maximumConcurrentRequests.map { ConcurrencyLimit(limit: $0) }
        settings = Settings(connectTimeout: connectTimeout, userAgent: userAgent, followsRedirects: followsRedirects,
                            maximumAnswerSize: maximumAnswerSize)
    }

    /// `curl_global_init` runs once per process, the first time a client is made (a static `let`
    /// is initialised exactly once, even when threads race for it); never cleaned up, as other
    /// clients may be using libcurl until the process ends.
    private static let globalInitialisation: CURLcode = ccurl_global_init_all()

    /// Sends `request` and returns the answer, whatever its status.
    ///
    /// A GET sends no body; a POST sends `request.body` (or an empty body). Header names are sent
    /// as given; an empty value sends the header with no value.
    /// - Throws: `HTTPError` when there is no answer (`.unreachable`, `.timedOut`, `.failed`);
    ///   `CancellationError` when the task is cancelled.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if let limit { await limit.acquire() }
        do {
            try Task.checkCancellation()
            let response = try await transfer(request)
            await limit?.release()
            return response
        } catch {
            await limit?.release()
            throw error
        }
    }

    /// Runs one transfer on a thread of its own and waits for it without blocking the pool.
    private func transfer(_ request: HTTPRequest) async throws -> HTTPResponse {
        let cancellation = CancellationFlag()
        let settings = settings
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                let thread = Thread {
                    continuation.resume(with: Result {
                        try Self.perform(request, settings: settings, cancellation: cancellation)
                    })
                }
                thread.name = "roadbook-curl"
                thread.start()
            }
        } onCancel: {
            cancellation.set()
        }
    }

    /// Sets up an easy handle for `request` and performs it; blocks the calling thread.
    private static func perform(_ request: HTTPRequest, settings: Settings,
                                cancellation: CancellationFlag) throws -> HTTPResponse {
        let url = request.url
        let easy = try CurlEasy(url: url, sink: TransferSink(cancellation: cancellation, limit: settings.maximumAnswerSize))
        try easy.set(CURLOPT_URL, url.absoluteString, name: "CURLOPT_URL")
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https", name: "CURLOPT_PROTOCOLS_STR")
        // libcurl must not use signals (SIGALRM for name lookups) when several threads run it.
        try easy.set(CURLOPT_NOSIGNAL, 1, name: "CURLOPT_NOSIGNAL")
        try easy.set(CURLOPT_TIMEOUT_MS, milliseconds(request.timeout), name: "CURLOPT_TIMEOUT_MS")
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, milliseconds(min(settings.connectTimeout, request.timeout)),
                     name: "CURLOPT_CONNECTTIMEOUT_MS")
        try easy.set(CURLOPT_USERAGENT, settings.userAgent, name: "CURLOPT_USERAGENT")
        // A declared Content-Length over the limit is refused before any of the body arrives; a
        // body without one is stopped by the write callback when it passes the limit.
        try easy.set(CURLOPT_MAXFILESIZE, settings.maximumAnswerSize, name: "CURLOPT_MAXFILESIZE")
        if settings.followsRedirects {
            try easy.set(CURLOPT_FOLLOWLOCATION, 1, name: "CURLOPT_FOLLOWLOCATION")
            try easy.set(CURLOPT_MAXREDIRS, maximumRedirects, name: "CURLOPT_MAXREDIRS")
            try easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https", name: "CURLOPT_REDIR_PROTOCOLS_STR")
        } else {
            try easy.set(CURLOPT_FOLLOWLOCATION, 0, name: "CURLOPT_FOLLOWLOCATION")
        }

        let headers = CurlHeaderList()
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            // Scalars, not Characters: "\r\n" is one Character, equal to neither "\r" nor "\n".
            guard !(name + value).unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else {
                throw HTTPError(kind: .failed, url: url, detail: "header \(name) holds a line break")
            }
            // "Name;" is curl's way to send a header with an empty value ("Name:" would remove it).
            try headers.append(value.isEmpty ? "\(name);" : "\(name): \(value)", url: url)
        }
        switch request.method {
        case .get:
            try easy.set(CURLOPT_HTTPGET, 1, name: "CURLOPT_HTTPGET")
        case .post:
            try easy.set(CURLOPT_POST, 1, name: "CURLOPT_POST")
            try easy.setPostBody(request.body ?? Data())
            // curl would send "Expect: 100-continue" for larger bodies and wait up to a second for
            // a go-ahead that engines do not send; an empty "Expect:" turns that off.
            if !request.headers.keys.contains(where: { $0.lowercased() == "expect" }) {
                try headers.append("Expect:", url: url)
            }
        }
        try easy.setHeaders(headers)

        let status = try easy.perform()
        return HTTPResponse(status: status, headers: easy.sink.headers, body: easy.sink.body)
    }

    /// A timeout in seconds as libcurl's whole milliseconds, where 0 would mean "never":
    /// at least 1 ms; an infinite or NaN timeout is "never".
    static func milliseconds(_ seconds: TimeInterval) -> Int {
        guard seconds.isFinite else { return 0 }
        let whole = (seconds * 1000).rounded(.up)
        return Int(min(max(whole, 1), Double(Int32.max)))
    }
}
