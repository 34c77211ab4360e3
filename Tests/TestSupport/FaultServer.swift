import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real HTTP/1.1 server on 127.0.0.1, on a port the system picks, that answers as a test tells
/// it: properly, slowly, with garbage, by hanging up, or not at all.
///
/// Each request is answered by the next scripted `Behaviour`, and once the script is used up by
/// `handler`, which sees the whole request (method, path, query, headers, body) and can answer like
/// OSRM or OpenTopoData would. Every request received is recorded in `requests`.
///
/// POSIX sockets: the accepting loop runs on a thread of its own and each connection on another
/// (at most `maximumConnections` at once; more wait in the listen queue). One request per
/// connection: every answer says `Connection: close`. Request bodies need a `Content-Length`.
/// Every wait is bounded: reads give up after `readTimeout`, `.noAnswer` after `noAnswerLimit`.
/// `stop()` (or releasing the server) closes everything. Linux only (Glibc sockets).
public final class FaultServer: Sendable {
    /// A request as the server read it.
    public struct Request: Sendable, Equatable {
        /// `GET`, `POST`, …
        public var method: String
        /// The request target as sent: path and query, percent-encoded.
        public var target: String
        /// The path part of `target`, as sent (percent-encoded; OSRM's `;` and `,` are kept).
        public var path: String
        /// Query items of `target`, percent-decoded; a repeated name keeps its last value.
        public var query: [String: String]
        /// Header names in lower case; a repeated header's values joined with ", ".
        public var headers: [String: String]
        public var body: Data
    }

    /// How the server answers one request.
    public indirect enum Behaviour: Sendable {
        /// A proper answer with `Content-Length` (added unless given) and `Connection: close`.
        case respond(Int, headers: [String: String] = [:], body: Data = Data())
        /// These bytes instead of an HTTP answer, then the connection is closed.
        case garbage(Data)
        /// Waits this many seconds (less if the server stops), then behaves as `then`.
        case slow(TimeInterval, then: Behaviour)
        /// Closes the connection without answering.
        case hangUp
        /// Keeps the connection open without answering, until the client hangs up or the server
        /// stops (at most `noAnswerLimit`).
        case noAnswer
        /// A 200 answer with no length whose body never ends: `chunk` sent again and again until
        /// the client hangs up, the server stops, or `endlessLimit` bytes have gone.
        case endless(chunk: Data)

        /// A text answer.
        public static func text(_ body: String, status: Int = 200,
                                contentType: String = "text/plain; charset=utf-8") -> Behaviour {
            .respond(status, headers: ["Content-Type": contentType], body: Data(body.utf8))
        }

        /// A JSON answer.
        public static func json(_ body: String, status: Int = 200) -> Behaviour {
            text(body, status: status, contentType: "application/json")
        }
    }

    /// At most this many connections are served at once, each on its own thread.
    public static let maximumConnections = 64
    /// Seconds a connection may take to send its request before the server drops it.
    public static let readTimeout: TimeInterval = 5
    /// Seconds a `.noAnswer` connection is held open at most, so a forgotten server cannot hang a
    /// test run.
    public static let noAnswerLimit: TimeInterval = 300
    /// Bytes an `.endless` body sends at most, so a client that never hangs up still ends the test.
    public static let endlessLimit = 2 << 30
    /// Largest request head (request line and headers) read, in bytes.
    static let maximumHeadSize = 64 * 1024
    /// Largest request body read, in bytes.
    static let maximumBodySize = 16 * 1024 * 1024

    /// The port on 127.0.0.1 the server listens on.
    public let port: UInt16
    private let core: Core

    /// Starts listening at once.
    /// - Parameters:
    ///   - script: answers for the first requests, in order.
    ///   - handler: answers every request after the script, on the connection's thread (it may
    ///     block; keep the wait bounded). Without one, the server answers 404.
    /// - Throws: `FaultServer.SocketError` when the socket cannot be made, bound or listened on.
    public init(script: [Behaviour] = [], handler: (@Sendable (Request) -> Behaviour)? = nil) throws {
        let listener = try Self.makeListeningSocket()
        core = Core(listener: listener.descriptor, script: script,
                    handler: handler ?? { _ in .text("no scripted answer", status: 404) })
        port = listener.port
        core.start()
    }

    deinit { core.stop() }

    /// `http://127.0.0.1:port`
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The server's address for `pathAndQuery` (which starts with `/`).
    public func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")!
    }

    /// Adds answers to the end of the script.
    public func enqueue(_ behaviours: Behaviour...) { core.enqueue(behaviours) }

    /// The requests received so far, in the order they were read.
    public var requests: [Request] { core.receivedRequests }

    /// The most requests the server held at once: each counts from when it has been read until its
    /// answer starts to be written (for `.noAnswer`, until the client hangs up or the server gives up).
    public var peakConcurrentRequests: Int { core.peak }

    /// Stops accepting, shuts every open connection down and waits (at most 5 s) for their threads
    /// to end. Safe to call more than once.
    public func stop() { core.stop() }

    /// A port on 127.0.0.1 that nothing listens on: bound by the system, then closed again.
    /// - Throws: `FaultServer.SocketError` when no socket can be bound.
    public static func closedPort() throws -> UInt16 {
        let listener = try makeBoundSocket()
        close(listener.descriptor)
        return listener.port
    }

    /// A socket call that failed, with `errno`'s text.
    public struct SocketError: Error, CustomStringConvertible {
        public var call: String
        public var code: Int32
        public var description: String { "\(call): \(String(cString: strerror(code)))" }
    }

    // MARK: - Sockets

    private static func check(_ result: Int32, _ call: String) throws(SocketError) {
        if result < 0 { throw SocketError(call: call, code: errno) }
    }

    private static func makeBoundSocket() throws(SocketError) -> (descriptor: Int32, port: UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try check(descriptor, "socket")
        do {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            try check(bound, "bind 127.0.0.1:0")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            try check(named, "getsockname")
            return (descriptor, UInt16(bigEndian: address.sin_port))
        } catch {
            close(descriptor)
            throw error
        }
    }

    private static func makeListeningSocket() throws(SocketError) -> (descriptor: Int32, port: UInt16) {
        let listener = try makeBoundSocket()
        do {
            try check(listen(listener.descriptor, Int32(maximumConnections)), "listen")
            // Non-blocking, so an accept after poll cannot hang if the client has already gone.
            try check(fcntl(listener.descriptor, F_SETFL, O_NONBLOCK), "fcntl O_NONBLOCK")
        } catch {
            close(listener.descriptor)
            throw error
        }
        return listener
    }
}

/// The server's state and threads. The threads hold this, not the `FaultServer`, so releasing the
/// server runs its `deinit`, which stops them.
private final class Core: @unchecked Sendable {
    private let listener: Int32
    private let handler: @Sendable (FaultServer.Request) -> FaultServer.Behaviour
    /// Guards everything below and wakes waiters when the server stops or a thread ends.
    private let condition = NSCondition()
    private var script: [FaultServer.Behaviour]
    private var received: [FaultServer.Request] = []
    private var inFlight = 0
    private var peakInFlight = 0
    private var stopped = false
    /// Descriptors of open connections, shut down by `stop()` to wake their threads.
    private var connections: Set<Int32> = []
    /// The accepting thread and the connection threads still running.
    private var runningThreads = 0

    init(listener: Int32, script: [FaultServer.Behaviour],
         handler: @escaping @Sendable (FaultServer.Request) -> FaultServer.Behaviour) {
        self.listener = listener
        self.script = script
        self.handler = handler
    }

    var receivedRequests: [FaultServer.Request] { condition.withLock { received } }
    var peak: Int { condition.withLock { peakInFlight } }

    func enqueue(_ behaviours: [FaultServer.Behaviour]) { condition.withLock { script += behaviours } }

    func start() {
        condition.withLock { runningThreads += 1 }
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "FaultServer accept"
        thread.start()
    }

    func stop() {
        condition.lock()
        defer { condition.unlock() }
        stopped = true
        for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: 5)
        while runningThreads > 0, condition.wait(until: deadline) {}
    }

    private var isStopped: Bool { condition.withLock { stopped } }

    /// Waits up to `seconds`, less if the server stops. - Returns: whether the server stopped.
    @discardableResult
    private func pause(_ seconds: TimeInterval) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !stopped, condition.wait(until: deadline) {}
        return stopped
    }

    private func threadEnded() {
        condition.withLock {
            runningThreads -= 1
            condition.broadcast()
        }
    }

    private func acceptLoop() {
        defer {
            close(listener)
            threadEnded()
        }
        while !isStopped {
            // Poll with a short timeout rather than block in accept, so stop() is seen within 0.1 s.
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0 else { continue }
            let busy = condition.withLock { connections.count >= FaultServer.maximumConnections }
            if busy {
                pause(0.05)
                continue
            }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            let admitted = condition.withLock {
                guard !stopped else { return false }
                connections.insert(connection)
                runningThreads += 1
                return true
            }
            guard admitted else {
                close(connection)
                break
            }
            let thread = Thread { [self] in serve(connection) }
            thread.name = "FaultServer connection"
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer {
            _ = condition.withLock { connections.remove(connection) }
            close(connection)
            threadEnded()
        }
        var timeout = timeval(tv_sec: Int(FaultServer.readTimeout), tv_usec: 0)
        guard setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size)) == 0,
              let request = readRequest(connection) else { return }
        let scripted: FaultServer.Behaviour? = condition.withLock {
            received.append(request)
            inFlight += 1
            peakInFlight = max(peakInFlight, inFlight)
            return script.isEmpty ? nil : script.removeFirst()
        }
        answer(scripted ?? handler(request), on: connection)
    }

    private func answered() { condition.withLock { inFlight -= 1 } }

    private func answer(_ behaviour: FaultServer.Behaviour, on connection: Int32) {
        switch behaviour {
        case let .respond(status, headers, body):
            answered()
            sendAll(Self.responseBytes(status: status, headers: headers, body: body), on: connection)
            shutdown(connection, Int32(SHUT_WR))
        case let .garbage(bytes):
            answered()
            sendAll(bytes, on: connection)
            shutdown(connection, Int32(SHUT_WR))
        case let .slow(delay, then):
            if pause(delay) {
                answered()
                return
            }
            answer(then, on: connection)
        case .hangUp:
            answered()
        case .noAnswer:
            waitForHangUp(connection, atMost: FaultServer.noAnswerLimit)
            answered()
        case .endless(let chunk):
            answered()
            var head = Self.responseBytes(status: 200, headers: ["Content-Type": "application/json"], body: Data())
            // No Content-Length: the body runs until the connection closes.
            head = Data(String(decoding: head, as: UTF8.self)
                .replacingOccurrences(of: "Content-Length: 0\r\n", with: "").utf8)
            guard sendAll(head, on: connection), !chunk.isEmpty else { return }
            var sent = 0
            while !isStopped, sent < FaultServer.endlessLimit, sendAll(chunk, on: connection) { sent += chunk.count }
            shutdown(connection, Int32(SHUT_WR))
        }
    }

    /// Holds `connection` open until the client closes it, the server stops, or `seconds` pass.
    private func waitForHangUp(_ connection: Int32, atMost seconds: TimeInterval) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !isStopped, Date() < deadline {
            var entry = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0 else { continue }
            // Readable: either more bytes (ignored) or the end of the stream.
            var ignored = Data()
            guard receive(connection, into: &ignored) else { return }
        }
    }

    /// Sends every byte; false when the client went away first.
    @discardableResult
    private func sendAll(_ bytes: Data, on connection: Int32) -> Bool {
        bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Bool in
            guard let base = raw.baseAddress else { return true }
            var offset = 0
            while offset < raw.count {
                // MSG_NOSIGNAL: a client that went away must not kill the test run with SIGPIPE.
                let sent = send(connection, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    /// Reads one request: its head up to the blank line, then `Content-Length` bytes of body.
    /// - Returns: `nil` when the client closes, stalls past the read timeout, or sends too much.
    private func readRequest(_ connection: Int32) -> FaultServer.Request? {
        var buffer = Data()
        let separator = Data("\r\n\r\n".utf8)
        var headEnd: Range<Data.Index>?
        while headEnd == nil {
            guard buffer.count <= FaultServer.maximumHeadSize, receive(connection, into: &buffer) else { return nil }
            headEnd = buffer.range(of: separator)
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[..<headEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        guard length >= 0, length <= FaultServer.maximumBodySize else { return nil }
        var body = Data(buffer[headEnd.upperBound...])
        while body.count < length {
            guard receive(connection, into: &body) else { return nil }
        }
        let target = String(requestLine[1])
        let components = URLComponents(string: target)
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? target
        return FaultServer.Request(method: String(requestLine[0]), target: target, path: path, query: query,
                                   headers: headers, body: body.prefix(length))
    }

    /// Appends what one `recv` returns. - Returns: false on end of stream, error or timeout.
    private func receive(_ connection: Int32, into buffer: inout Data) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = recv(connection, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }

    private static func responseBytes(status: Int, headers: [String: String], body: Data) -> Data {
        var head = "HTTP/1.1 \(status) \(reason(status))\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if !headers.keys.contains(where: { $0.lowercased() == "content-length" }) {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "Connection: close\r\n\r\n"
        return Data(head.utf8) + body
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: "Status \(status)"
        }
    }
}
