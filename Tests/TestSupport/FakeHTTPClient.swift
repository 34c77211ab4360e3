import Foundation
import HTTP

/// An `HTTPClient` with no sockets: it answers from a queue of canned answers, then from a closure,
/// and records every request it was sent.
///
/// ```
/// let client = FakeHTTPClient(answers: [.success(HTTPResponse(status: 429)),
///                                       .success(HTTPResponse(status: 200, body: Data(json.utf8)))])
/// ... run the stage ...
/// #expect(client.requests.count == 2)
/// ```
public final class FakeHTTPClient: HTTPClient, @unchecked Sendable {
    public typealias Answer = Result<HTTPResponse, HTTPError>

    private let lock = NSLock()
    private var queue: [Answer]
    private var received: [HTTPRequest] = []
    private let answer: (@Sendable (HTTPRequest) throws(HTTPError) -> HTTPResponse)?

    /// - Parameters:
    ///   - answers: given to the first requests, in order.
    ///   - answer: answers every request after those; without one, a request past the queue fails
    ///     with `HTTPError.failed` naming the request, so a test that sends too many sees it.
    public init(answers: [Answer] = [],
                answer: (@Sendable (HTTPRequest) throws(HTTPError) -> HTTPResponse)? = nil) {
        queue = answers
        self.answer = answer
    }

    /// Answers every request with `answer`.
    public convenience init(_ answer: @escaping @Sendable (HTTPRequest) throws(HTTPError) -> HTTPResponse) {
        self.init(answers: [], answer: answer)
    }

    /// Adds answers to the end of the queue.
    public func enqueue(_ answers: Answer...) { lock.withLock { queue += answers } }

    /// The requests sent so far, in order.
    public var requests: [HTTPRequest] { lock.withLock { received } }

    /// How many canned answers are still waiting.
    public var remainingAnswers: Int { lock.withLock { queue.count } }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let canned: Answer? = lock.withLock {
            received.append(request)
            return queue.isEmpty ? nil : queue.removeFirst()
        }
        if let canned { return try canned.get() }
        guard let answer else {
            throw HTTPError(kind: .failed, url: request.url,
                            detail: "FakeHTTPClient has no answer left for \(request.method.rawValue) \(request.url.absoluteString)")
        }
        return try answer(request)
    }
}
