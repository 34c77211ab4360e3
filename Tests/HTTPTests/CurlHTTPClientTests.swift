import Foundation
@testable import HTTP
import Testing
import TestSupport

/// CurlHTTPClient against a real loopback server that misbehaves on request.
@Suite struct CurlHTTPClientTests {
    @Test func anOKAnswerBringsItsBodyAndHeadersWithLowerCaseNames() async throws {
        let server = try FaultServer(script: [
            .respond(200, headers: ["Content-Type": "application/json", "X-Engine": "osrm"],
                     body: Data(#"{"code":"Ok"}"#.utf8)),
        ])
        let client = try CurlHTTPClient()
        let response = try await client.send(HTTPRequest(
            url: server.url("/route/v1/driving/1.5,42.5;1.6,42.6?overview=full&steps=true"),
            headers: ["Accept": "application/json"]))

        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"code":"Ok"}"#)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.headers["x-engine"] == "osrm")
        #expect(response.headers["content-length"] == "13")

        let seen = try #require(server.requests.first)
        #expect(seen.method == "GET")
        #expect(seen.path == "/route/v1/driving/1.5,42.5;1.6,42.6")
        #expect(seen.query == ["overview": "full", "steps": "true"])
        #expect(seen.headers["accept"] == "application/json")
        #expect(seen.headers["user-agent"] == CurlHTTPClient.defaultUserAgent)
        #expect(seen.body.isEmpty)
    }

    @Test func aPostBodyArrivesWholeWithoutWaitingForAGoAhead() async throws {
        let server = try FaultServer(handler: { request in
            .respond(201, body: Data("got \(request.body.count) bytes".utf8))
        })
        // Over curl's threshold for "Expect: 100-continue", and with NUL bytes inside.
        let body = Data((0..<3000).map { UInt8($0 % 251) })
        let client = try CurlHTTPClient()
        let response = try await client.send(HTTPRequest(method: .post, url: server.url("/v1/srtm90m"),
                                                         headers: ["Content-Type": "application/octet-stream"],
                                                         body: body))

        #expect(response.status == 201)
        #expect(String(decoding: response.body, as: UTF8.self) == "got 3000 bytes")
        let seen = try #require(server.requests.first)
        #expect(seen.method == "POST")
        #expect(seen.body == body)
        #expect(seen.headers["content-type"] == "application/octet-stream")
        #expect(seen.headers["expect"] == nil)
    }

    @Test(arguments: [429, 500, 503])
    func anErrorStatusIsAnAnswerNotAnError(status: Int) async throws {
        let server = try FaultServer(script: [.respond(status, headers: ["Retry-After": "2"], body: Data("busy".utf8))])
        let response = try await CurlHTTPClient().send(HTTPRequest(url: server.url("/")))
        #expect(response.status == status)
        #expect(response.headers["retry-after"] == "2")
        #expect(response.body == Data("busy".utf8))
    }

    @Test func aRedirectComesBackAsItIsUnlessFollowingIsAsked() async throws {
        let server = try FaultServer(handler: { request in
            request.path == "/old" ? .respond(302, headers: ["Location": "/new"]) : .text("moved here")
        })
        let plain = try await CurlHTTPClient().send(HTTPRequest(url: server.url("/old")))
        #expect(plain.status == 302)
        #expect(plain.headers["location"] == "/new")

        let followed = try await CurlHTTPClient(followsRedirects: true).send(HTTPRequest(url: server.url("/old")))
        #expect(followed.status == 200)
        #expect(followed.body == Data("moved here".utf8))
        #expect(server.requests.map(\.path) == ["/old", "/old", "/new"])
    }

    @Test func garbageInsteadOfHTTPFails() async throws {
        let server = try FaultServer(script: [.garbage(Data("SSH-2.0-OpenSSH_9.2\r\n\u{0}\u{1}\u{2}".utf8))])
        let error = await #expect(throws: HTTPError.self) {
            try await CurlHTTPClient().send(HTTPRequest(url: server.url("/"), timeout: 10))
        }
        #expect(error?.kind == .failed)
        #expect(error?.url == server.url("/"))
    }

    @Test func aBodyThatNeverEndsIsStoppedAtTheLimitNotTheTimeout() async throws {
        let server = try FaultServer(script: [.endless(chunk: Data(repeating: UInt8(ascii: "["), count: 64 * 1024))])
        let client = try CurlHTTPClient(maximumAnswerSize: 1 << 20)
        let error = await #expect(throws: HTTPError.self) {
            try await client.send(HTTPRequest(url: server.url("/route"), timeout: 300))
        }
        // Stopped by the limit (`.tooLarge`), not by the timeout (`.timedOut`), however slow the machine.
        #expect(error?.kind == .tooLarge)
        #expect(error?.detail == "the answer is larger than 1 MB, the most this client takes")
    }

    @Test func aDeclaredLengthOverTheLimitIsRefusedAndOneAtTheLimitArrives() async throws {
        let server = try FaultServer(script: [
            .respond(200, body: Data(count: 4096)),
            .respond(200, body: Data(count: 4097)),
        ])
        let client = try CurlHTTPClient(maximumAnswerSize: 4096)
        #expect(try await client.send(HTTPRequest(url: server.url("/a"))).body.count == 4096)
        let error = await #expect(throws: HTTPError.self) { try await client.send(HTTPRequest(url: server.url("/b"))) }
        #expect(error?.kind == .tooLarge)
        #expect(error?.detail == "the answer is larger than 4096 bytes, the most this client takes")
    }

    @Test func tooLargeIsItsOwnExchangeFailure() async throws {
        let server = try FaultServer(script: [.endless(chunk: Data(repeating: 32, count: 8192))])
        let client = try CurlHTTPClient(maximumAnswerSize: 100_000)
        await #expect(throws: HTTPExchangeFailure.tooLarge(detail: "the answer is larger than 100000 bytes, the most this client takes")) {
            try await client.exchange(HTTPRequest(url: server.url("/x")))
        }
    }

    @Test func aHangUpWithoutAnswerFails() async throws {
        let server = try FaultServer(script: [.hangUp])
        let error = await #expect(throws: HTTPError.self) {
            try await CurlHTTPClient().send(HTTPRequest(url: server.url("/"), timeout: 10))
        }
        #expect(error?.kind == .failed)
        #expect(server.requests.count == 1)
    }

    @Test func noAnswerTimesOutAfterTheRequestsTimeout() async throws {
        let server = try FaultServer(script: [.noAnswer])
        let error = await #expect(throws: HTTPError.self) {
            try await CurlHTTPClient().send(HTTPRequest(url: server.url("/"), timeout: 1))
        }
        #expect(error?.kind == .timedOut)
    }

    @Test func aSlowAnswerWithinTheTimeoutArrives() async throws {
        let server = try FaultServer(script: [.slow(0.3, then: .text("late but here"))])
        let response = try await CurlHTTPClient().send(HTTPRequest(url: server.url("/"), timeout: 10))
        #expect(response.body == Data("late but here".utf8))
    }

    @Test func aClosedPortIsUnreachable() async throws {
        let port = try FaultServer.closedPort()
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/route"))
        let error = await #expect(throws: HTTPError.self) {
            try await CurlHTTPClient().send(HTTPRequest(url: url, timeout: 5))
        }
        #expect(error?.kind == .unreachable)
    }

    @Test func aHeaderWithALineBreakIsRefusedBeforeSending() async throws {
        let server = try FaultServer()
        let error = await #expect(throws: HTTPError.self) {
            try await CurlHTTPClient().send(HTTPRequest(url: server.url("/"), headers: ["X-A": "1\r\nX-B: 2"]))
        }
        #expect(error?.kind == .failed)
        #expect(server.requests.isEmpty)
    }

    @Test func aLimitOfFourKeepsTwentyRequestsToFourAtOnce() async throws {
        let server = try FaultServer(handler: { request in
            .slow(0.2, then: .text(request.path))
        })
        let client = try CurlHTTPClient(maximumConcurrentRequests: 4)
        let bodies = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for leg in 0..<20 {
                group.addTask {
                    let response = try await client.send(HTTPRequest(url: server.url("/leg/\(leg)"), timeout: 30))
                    return (leg, String(decoding: response.body, as: UTF8.self))
                }
            }
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }

        #expect(bodies.count == 20)
        #expect(bodies.allSatisfy { $0.value == "/leg/\($0.key)" })
        #expect(server.requests.count == 20)
        #expect(server.peakConcurrentRequests <= 4)
        #expect(server.peakConcurrentRequests > 1, "requests under the limit should still overlap")
    }

    @Test func withoutALimitRequestsRunAllAtOnce() async throws {
        // The server holds every request until all six are in; if the client ran them one after
        // another, the first would wait out the barrier and get 503.
        let barrier = Barrier(count: 6)
        let server = try FaultServer(handler: { _ in
            barrier.arriveAndWait(atMost: 10) ? .text("together") : .text("alone", status: 503)
        })
        let client = try CurlHTTPClient()
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<6 {
                group.addTask { try await client.send(HTTPRequest(url: server.url("/"), timeout: 30)).status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 6))
    }

    @Test func cancellingTheTaskAbortsTheTransfer() async throws {
        let server = try FaultServer(script: [.noAnswer])
        let client = try CurlHTTPClient()
        let task = Task { try await client.send(HTTPRequest(url: server.url("/"), timeout: 60)) }
        // Cancel once the server holds the request, so the transfer itself is what gets aborted. The
        // whole suite runs at once beside the engines the test script starts: on two cores, tests
        // that wait on child processes can hold the task pool, and the request has taken more than
        // 50 s to arrive. The server holds a request without an answer for up to 300 s.
        let deadline = Date(timeIntervalSinceNow: 240)
        while server.requests.isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(server.requests.count == 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test(arguments: [(1.0, 1000), (0.0001, 1), (0, 1), (2.5, 2500), (Double.infinity, 0)])
    func timeoutsBecomeWholeMillisecondsNeverZeroByAccident(seconds: Double, milliseconds: Int) {
        #expect(CurlHTTPClient.milliseconds(seconds) == milliseconds)
    }

    @Test func headersAfterAnInterimAnswerReplaceItsHeadersAndRepeatsAreJoined() {
        let sink = TransferSink(cancellation: CancellationFlag(), limit: 1 << 20)
        for line in ["HTTP/1.1 100 Continue\r\n", "X-Interim: yes\r\n", "\r\n",
                     "HTTP/1.1 200 OK\r\n", "Set-Cookie: a=1\r\n", "set-cookie: b=2\r\n",
                     "Content-Type:text/plain \r\n", "\r\n"] {
            sink.receiveHeaderLine(line)
        }
        #expect(sink.headers == ["set-cookie": "a=1, b=2", "content-type": "text/plain"])
    }
}

/// Lets `count` threads wait for each other, each for a bounded time.
private final class Barrier: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private var arrived = 0

    init(count: Int) { self.count = count }

    /// - Returns: whether all `count` arrived within `seconds`.
    func arriveAndWait(atMost seconds: TimeInterval) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: seconds)
        while arrived < count, condition.wait(until: deadline) {}
        return arrived >= count
    }
}
