import CMicroHTTPD
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP server on libmicrohttpd: one thread watches every connection (epoll), at most
/// `connectionLimit` at once, a connection idle or slow for `timeout` seconds closed, a body larger
/// than `maximumBody` refused with 413 without being kept. Every request is answered by `handler`,
/// a function from a request value to a response value, run on a Dispatch queue while its
/// connection waits (suspended), so a slow operation (an Apply asking an engine) holds no other
/// connection up.
public final class HTTPServer: @unchecked Sendable {
    /// How the server listens and what it bears.
    public struct Configuration: Sendable {
        /// The address listened on: an IPv4 or IPv6 address (`127.0.0.1`, `::1`); `localhost` is `127.0.0.1`.
        public var host: String = "127.0.0.1"
        /// The port; 0 lets the system choose a free one (`HTTPServer.port` tells which).
        public var port: UInt16 = 0
        /// Connections served at once; a browser opens about six. Each takes a file descriptor and
        /// up to `memoryPerConnection`; more wait in the listening socket's queue until one ends.
        public var connectionLimit: Int = 256
        /// Seconds a connection may stay without sending or taking anything before it is closed,
        /// so a slow client does not hold a thread.
        public var timeout: Int = 20
        /// The largest request body, in bytes: 1 MiB, far more than any edit the editor sends.
        public var maximumBody: Int = 1 << 20
        /// Memory for one connection's request line, headers and buffers, in bytes.
        public var memoryPerConnection: Int = 32 << 10

        public init(host: String = "127.0.0.1", port: UInt16 = 0) {
            self.host = host
            self.port = port
        }
    }

    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible, Sendable, Equatable {
        public enum Reason: Sendable, Equatable {
            /// The host is not an IPv4 or IPv6 address (nor `localhost`).
            case notAnAddress
            /// The system refused to listen: its reason (`strerror`).
            case cannotListen(String)
        }
        public var host: String
        public var port: UInt16
        public var reason: Reason

        public var description: String {
            switch reason {
            case .notAnAddress: "'\(host)' is not an IP address (such as 127.0.0.1 or ::1)"
            case .cannotListen(let why): "cannot listen on \(host) port \(port): \(why)"
            }
        }
    }

    /// The port listened on.
    public let port: UInt16
    public let configuration: Configuration
    private var daemon: OpaquePointer?
    private let context: Unmanaged<Dispatcher>
    private let lock = NSLock()

    /// Starts listening at once.
    /// - Throws: `StartError` for a host that is not an address, or a port that cannot be listened on.
    public init(_ configuration: Configuration, handler: @escaping @Sendable (ServerRequest) -> ServerResponse) throws {
        self.configuration = configuration
        let dispatcher = Dispatcher(handler: handler, maximumBody: configuration.maximumBody)
        let context = Unmanaged.passRetained(dispatcher)
        self.context = context
        var flags = UInt32(MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_AUTO.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue)
        let host = configuration.host == "localhost" ? "127.0.0.1" : configuration.host
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let started: OpaquePointer?
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = configuration.port.bigEndian
            started = withUnsafePointer(to: &v4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Self.start(flags, $0, configuration, context.toOpaque()) }
            }
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = configuration.port.bigEndian
            flags |= UInt32(MHD_USE_IPv6.rawValue)
            started = withUnsafePointer(to: &v6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Self.start(flags, $0, configuration, context.toOpaque()) }
            }
        } else {
            context.release()
            throw StartError(host: configuration.host, port: configuration.port, reason: .notAnAddress)
        }
        guard let started else {
            context.release()
            throw StartError(host: configuration.host, port: configuration.port, reason: .cannotListen(String(cString: strerror(errno))))
        }
        daemon = started
        port = cmhd_bound_port(started)
    }

    private static func start(_ flags: UInt32, _ address: UnsafePointer<sockaddr>, _ configuration: Configuration,
                              _ context: UnsafeMutableRawPointer) -> OpaquePointer? {
        cmhd_start(flags, address, answer, context, completed, UInt32(configuration.connectionLimit),
                   UInt32(configuration.timeout), configuration.memoryPerConnection)
    }

    /// Stops listening, lets the requests under way end (a request coming meanwhile is answered
    /// 503), then closes every connection. Called again, does nothing.
    public func stop() {
        lock.lock()
        let running = daemon
        daemon = nil
        lock.unlock()
        guard let running else { return }
        context.takeUnretainedValue().drain()
        // The listening socket is handed back to us: closed after the daemon stops (its threads
        // may use it until then), or the port would keep taking connections nobody answers.
        let listening = MHD_quiesce_daemon(running)
        context.takeUnretainedValue().drain()
        MHD_stop_daemon(running)
        if listening >= 0 { close(listening) }
    }

    deinit {
        stop()
        context.release()
    }
}

/// The handler and the body limit, reached from libmicrohttpd's callbacks through their context
/// pointer; the handlers running, so the server stops after them.
private final class Dispatcher: @unchecked Sendable {
    let handler: @Sendable (ServerRequest) -> ServerResponse
    let maximumBody: Int
    private let running = DispatchGroup()
    private let lock = NSLock()
    private var stopping = false

    init(handler: @escaping @Sendable (ServerRequest) -> ServerResponse, maximumBody: Int) {
        self.handler = handler
        self.maximumBody = maximumBody
    }

    /// Runs the handler for `request` on a Dispatch queue, then `done` with its response; false
    /// (nothing run) once the server is stopping.
    func dispatch(_ request: ServerRequest, done: @escaping @Sendable (ServerResponse) -> Void) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !stopping else { return false }
        running.enter()
        DispatchQueue.global().async { [handler, running] in
            done(handler(request))
            running.leave()
        }
        return true
    }

    /// Refuses new requests and waits for those running.
    func drain() {
        lock.withLock { stopping = true }
        running.wait()
    }
}

/// One request being received: its body so far, or that it was too large (then nothing more is
/// kept); then its answer, made on another thread while the connection is suspended (libmicrohttpd
/// resumes it after, which orders the two threads' use of it).
private final class Reception: @unchecked Sendable {
    var body = Data()
    var tooLarge = false
    /// An answer was queued already (413 on a declared length): what arrives after is dropped.
    var answered = false
    /// The handler was started.
    var dispatched = false
    /// The handler's answer, to queue when the connection is resumed.
    var response: ServerResponse?
}

/// A connection handed to the thread that resumes it.
private struct Suspended: @unchecked Sendable {
    let connection: OpaquePointer
}

/// libmicrohttpd's access handler: called first with no context (headers read), then with each
/// piece of the body, then once with none left, when the answer is queued.
private let answer: MHD_AccessHandlerCallback = { cls, connection, url, method, version, data, size, state in
    guard let cls, let connection, let state else { return .NO }
    let dispatcher = Unmanaged<Dispatcher>.fromOpaque(cls).takeUnretainedValue()
    guard let pointer = state.pointee else {
        let reception = Reception()
        state.pointee = Unmanaged.passRetained(reception).toOpaque()
        // The head is judged before any of the body is read: a request the protocol refuses, or
        // whose body could not be told from the next request, is answered at once and its
        // connection closed.
        let head = request(connection, url: url, method: method, version: version, body: Data())
        if var refusal = head.protocolRefusal() {
            reception.answered = true
            refusal.headers.append(.init("Connection", "close"))
            return queue(refusal, on: connection)
        }
        if let length = head.header("content-length"), let declared = Int(length.trimmingCharacters(in: .whitespaces)),
           declared > dispatcher.maximumBody {
            reception.answered = true
            return queue(tooLarge(dispatcher), on: connection)
        }
        return .YES
    }
    let reception = Unmanaged<Reception>.fromOpaque(pointer).takeUnretainedValue()
    if let size, size.pointee > 0 {
        if !reception.tooLarge, !reception.answered, let data {
            if reception.body.count + size.pointee > dispatcher.maximumBody {
                reception.tooLarge = true
                reception.body = Data()
            } else {
                reception.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: size.pointee)
            }
        }
        size.pointee = 0
        return .YES
    }
    if reception.answered { return .YES }
    if let response = reception.response {
        reception.answered = true
        return queue(response, on: connection)
    }
    if reception.dispatched { return .YES }
    if reception.tooLarge {
        reception.answered = true
        return queue(tooLarge(dispatcher), on: connection)
    }
    let request = request(connection, url: url, method: method, version: version, body: reception.body)
    reception.dispatched = true
    MHD_suspend_connection(connection)
    let suspended = Suspended(connection: connection)
    let started = dispatcher.dispatch(request) { response in
        reception.response = response
        MHD_resume_connection(suspended.connection)
    }
    if !started {
        reception.response = .text(503, "the server is stopping")
        MHD_resume_connection(connection)
    }
    return .YES
}

private func tooLarge(_ dispatcher: Dispatcher) -> ServerResponse {
    .text(413, "the request's body is larger than \(dispatcher.maximumBody / 1024) KiB")
}

/// Called when a request ends, answered or not (a client gone, a timeout): the reception is freed.
private let completed: MHD_RequestCompletedCallback = { _, _, state, _ in
    guard let state, let pointer = state.pointee else { return }
    Unmanaged<Reception>.fromOpaque(pointer).release()
    state.pointee = nil
}

/// The request libmicrohttpd received on `connection`, its target in origin form (`ServerRequest.received`).
private func request(_ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
                     version: UnsafePointer<CChar>?, body: Data) -> ServerRequest {
    ServerRequest.received(method: method.map { String(cString: $0) } ?? "", target: url.map { String(cString: $0) } ?? "/",
                           version: version.map { String(cString: $0) } ?? "", query: values(of: connection, .GET_ARGUMENT_KIND),
                           headers: values(of: connection, .HEADER_KIND), body: body)
}

/// The headers or query arguments of a request: names of headers in lower case; each value whole,
/// with any NUL it holds (libmicrohttpd gives its length), so a value is never cut short at one;
/// a repeated name's values joined as HTTP joins them (`ServerRequest.joined`), so no value is
/// left out unseen.
private func values(of connection: OpaquePointer, _ kind: MHD_ValueKind) -> [String: String] {
    final class Collected { var values: [String: String] = [:]; var headers = false }
    let collected = Collected()
    collected.headers = kind == .HEADER_KIND
    let box = Unmanaged.passUnretained(collected).toOpaque()
    _ = MHD_get_connection_values_n(connection, kind, { cls, _, key, keySize, value, valueSize in
        guard let cls, let key else { return .YES }
        let collected = Unmanaged<Collected>.fromOpaque(cls).takeUnretainedValue()
        func text(_ pointer: UnsafePointer<CChar>, _ count: Int) -> String {
            String(decoding: UnsafeRawBufferPointer(start: pointer, count: count), as: UTF8.self)
        }
        var name = text(key, keySize)
        if collected.headers { name = name.lowercased() }
        let given = value.map { text($0, valueSize) } ?? ""
        collected.values[name] = collected.values[name].map { ServerRequest.joined($0, given, name: collected.headers ? name : nil) } ?? given
        return .YES
    }, box)
    return withExtendedLifetime(collected) { collected.values }
}

/// Queues `response` on `connection`.
private func queue(_ response: ServerResponse, on connection: OpaquePointer) -> MHD_Result {
    let made = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let made else { return .NO }
    defer { MHD_destroy_response(made) }
    for header in response.headers {
        // A value with a line break would split the header: never sent (libmicrohttpd refuses it too).
        guard !header.value.contains(where: { $0.isNewline }) else { continue }
        _ = MHD_add_response_header(made, header.name, header.value)
    }
    return MHD_queue_response(connection, UInt32(response.status), made)
}
