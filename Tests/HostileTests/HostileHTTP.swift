import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The `http` kind: hostile requests to `roadbook serve` (Tests/Hostile/http/*.http, the raw bytes
/// of a request with placeholders, and the `http` rows of large.tsv, made at run time). One real
/// server is started for the batch on a copy of seeds/draft-book.json and its draft in a fresh
/// folder; each case is sent over a socket and judged:
///
/// - the answer's status is the row's (`status=403`, `4xx`, `400|close`; without it, 2xx for `ok`
///   and 4xx for `fail`); an answer of 400 or more carries one line (text, or JSON
///   `{"error": "…"}`) of no Foundation or Swift internal text; a 405 names what it allows;
/// - after the case the server still answers a good `GET /api/book` with 200, the book and its
///   draft hold the seeds' bytes and nothing else is in the folder (no journal, lock or
///   temporary file): every case must be refused, and one that changed something is named;
/// - the server's peak resident memory (VmHWM) stays under 512 MiB.
///
/// Then the server is stopped with SIGTERM: it must end with status 0 within 5 s, by no signal,
/// the book as it was. That is judged as a case of its own, `http-server`. The `changes=` rows
/// (the controls, good changes) run each on a server of its own and must change the file named.
struct HTTPHostileRunner: Sendable {
    let binary: URL
    let root: URL
    let scratch: URL

    /// The server's idle timeout (HTTPServer.Configuration.timeout, docs/editor.md): a client that
    /// sends nothing for this long is closed.
    static let serverTimeout = 20.0
    /// Seconds a case of a file may take before it counts as a hang.
    static let caseTimeout = 15.0
    /// Seconds the server has to stop after SIGTERM.
    static let stopTimeout = 5.0

    var seeds: URL { root.appendingPathComponent("Tests/Hostile/seeds") }
    /// The files the folder holds, as copied from the seeds: nothing may change them.
    var seedFiles: [(name: String, source: String)] { [("book.json", "draft-book.json"), ("book.draft.json", "draft-book.draft.json")] }

    /// The environment of the server: its caches in the case's folder, the page from the checkout.
    func environment(cache: URL) -> [String: String] {
        var environment = ["PATH": "/usr/bin:/bin", "HOME": cache.path, "XDG_CACHE_HOME": cache.path, "ROADBOOK_CACHE": cache.path,
                           "LANG": "C.UTF-8", "MALLOC_ARENA_MAX": "2",
                           "ROADBOOK_PAGE": root.appendingPathComponent("Sources/Serve/Page").path]
        if let fonts = ProcessInfo.processInfo.environment["ROADBOOK_FONTS"], !fonts.isEmpty { environment["ROADBOOK_FONTS"] = fonts }
        return environment
    }

    /// A fresh folder `name` with the seeds, and `roadbook serve` started on its book.
    func startServer(in name: String) throws -> (Folder, ServeProcess) {
        let folder = try Folder(scratch.appendingPathComponent(name), seeds: seedFiles, from: seeds)
        let server = try ServeProcess(binary: binary, book: "book.json", folder: folder.work, logs: folder.logs,
                                      environment: environment(cache: folder.cache))
        return (folder, server)
    }

    /// Runs every case; the results in the cases' order, then `http-server`'s.
    func run(_ cases: [HostileCase]) -> [HostileResult] {
        var results = [HostileResult?](repeating: nil, count: cases.count)
        let controls = cases.indices.filter { cases[$0].options["changes"] != nil }
        let background = cases.indices.filter { Self.isBackground(cases[$0]) && !controls.contains($0) }
        let sequential = cases.indices.filter { !controls.contains($0) && !background.contains($0) }
        let batch = HostileCase(kind: "http", file: nil, name: "http-server", expect: .ok, options: [:], flags: [],
                                why: "the batch's server: started, under 512 MiB, the book unchanged, ends with 0 within 5 s of SIGTERM",
                                origin: "Tests/Hostile/http", generator: nil)
        var serverResult = HostileResult(hostileCase: batch, problems: [], peakRSS: 0, seconds: 0, skipped: nil)
        let started = Date()
        do {
            let (folder, server) = try startServer(in: "http-batch")
            let state = BatchState(server: server)
            // The slow cases run beside the others from the start: each takes the server's timeout.
            let group = DispatchGroup()
            let store = ResultStore()
            for i in background {
                group.enter()
                Thread.detachNewThread {
                    store.put(i, runBackground(cases[i], state: state))
                    group.leave()
                }
            }
            for i in sequential {
                var result = runCase(cases[i], state: state)
                checkAfter(&result, folder: folder, state: state)
                results[i] = result
            }
            group.wait()
            for (i, result) in store.all {
                var result = result
                checkAfter(&result, folder: folder, state: state)
                results[i] = result
            }
            let live = state.current
            serverResult.peakRSS = max(state.peak, live.highWaterMark())
            if serverResult.peakRSS > HostileRunner.residentLimit {
                serverResult.problems.append((.memory, "the server's peak resident memory was \(serverResult.peakRSS >> 20) MiB"))
            }
            stop(live, into: &serverResult)
            serverResult.problems += folder.problems(extra: [])
            for restart in state.restarts { serverResult.problems.append((.crash, restart)) }
        } catch {
            serverResult.problems.append((.status, "the test could not run the batch: \(error)"))
        }
        serverResult.seconds = Date().timeIntervalSince(started)
        for i in controls { results[i] = runControl(cases[i], index: i) }
        return cases.indices.map { results[$0] ?? HostileResult(hostileCase: cases[$0], problems: [(.status, "not run: the batch did not start")],
                                                                  peakRSS: 0, seconds: 0, skipped: nil) } + [serverResult]
    }

    // MARK: One case

    /// What a row accepts: statuses (`403`), classes (`4xx`), `close` (the connection closed without
    /// an answer) and `none` (the client leaves: no answer is read).
    struct Accepted: CustomStringConvertible {
        var words: [String]
        init(_ c: HostileCase) {
            if let given = c.options["status"] {
                words = given.split(separator: "|").map { $0.lowercased() }
            } else {
                switch c.expect {
                case .ok: words = ["2xx"]
                case .fail: words = ["4xx"]
                case .any: words = ["1xx", "2xx", "3xx", "4xx", "5xx", "close"]
                }
            }
        }
        func accepts(_ status: Int) -> Bool {
            words.contains { $0 == String(status) || ($0.count == 3 && $0.hasSuffix("xx") && $0.first == String(status).first) }
        }
        var acceptsClose: Bool { words.contains("close") }
        var description: String { words.joined(separator: "|") }
    }

    /// Sends a case of a file, or a large.tsv case made at run time, and judges the answer.
    func runCase(_ c: HostileCase, state: BatchState) -> HostileResult {
        var result = HostileResult(hostileCase: c, problems: [], peakRSS: 0, seconds: 0, skipped: nil)
        let started = Date()
        let server = state.current
        do {
            if let generator = c.generator, generator.hasPrefix("http-connections:") {
                let count = Int(generator.dropFirst("http-connections:".count)) ?? 0
                try manyConnections(count, server: server, into: &result)
            } else if let generator = c.generator, generator.hasPrefix("http-close:") {
                try closeEarly(String(generator.dropFirst("http-close:".count)), server: server)
            } else {
                let bytes = try request(of: c, server: server)
                let answer = Exchange.send(bytes, port: server.port, timeout: Self.caseTimeout)
                judge(answer, of: c, request: bytes, into: &result)
            }
        } catch {
            result.problems.append((.status, "the test could not run the case: \(error)"))
        }
        result.seconds = Date().timeIntervalSince(started)
        return result
    }

    /// The bytes a case sends: its file with the placeholders filled in, or a large.tsv request.
    func request(of c: HostileCase, server: ServeProcess) throws -> Data {
        if let file = c.file { return server.filled(try Data(contentsOf: file)) }
        let generator = c.generator ?? ""
        let parts = generator.split(separator: ":", maxSplits: 1).map(String.init)
        let size = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        switch parts[0] {
        case "http-body":
            // A good edit whose words make the body `size` bytes, sent whole after its length.
            let head = Data(##"{"op":"edit","row":"#1","text":""##.utf8), tail = Data(#""}"#.utf8)
            var body = head
            body.append(Data(repeating: UInt8(ascii: "x"), count: max(0, size - head.count - tail.count)))
            body.append(tail)
            return server.filled(Data("POST /api/notes HTTP/1.1\r\nHost: {{HOST}}\r\nX-Roadbook-Token: {{TOKEN}}\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8)) + body
        case "http-chunked":
            // The same edit in chunks of 64 KiB.
            var body = Data(##"{"op":"edit","row":"#1","text":""##.utf8)
            body.append(Data(repeating: UInt8(ascii: "x"), count: max(0, size - body.count - 2)))
            body.append(Data(#""}"#.utf8))
            var wire = server.filled(Data("POST /api/notes HTTP/1.1\r\nHost: {{HOST}}\r\nX-Roadbook-Token: {{TOKEN}}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".utf8))
            var offset = 0
            while offset < body.count {
                let chunk = body[offset..<min(offset + 65536, body.count)]
                wire.append(Data((String(chunk.count, radix: 16) + "\r\n").utf8))
                wire.append(chunk)
                wire.append(Data("\r\n".utf8))
                offset += chunk.count
            }
            wire.append(Data("0\r\n\r\n".utf8))
            return wire
        default:
            throw ToolError(message: "large.tsv: unknown http generator \(generator)")
        }
    }

    /// The answer against the row: its status, and its message when it refuses.
    func judge(_ answer: Exchange, of c: HostileCase, request: Data, into result: inout HostileResult) {
        let accepted = Accepted(c)
        if let error = answer.error {
            result.problems.append((.status, "the exchange failed: \(error)"))
            return
        }
        guard let status = answer.status else {
            if answer.timedOut {
                result.problems.append((.hang, "no answer within \(Int(Self.caseTimeout)) s (expected \(accepted))"))
            } else if !accepted.acceptsClose {
                let got = answer.raw.isEmpty ? "the connection closed without an answer" : "an answer that is not HTTP: \(Self.shown(answer.raw))"
                result.problems.append((.status, "\(got) (expected \(accepted))"))
            }
            return
        }
        let message = Self.message(of: answer)
        if !accepted.accepts(status) {
            let problem: HostileProblem = status >= 500 && status != 501 && status != 505 ? .crash : .status
            result.problems.append((problem, "answered \(status), expected \(accepted): \(message.prefix(160))"))
        }
        let isHead = request.starts(with: Data("HEAD ".utf8))
        if status >= 400 && !isHead {
            let lines = message.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" }
            if message.isEmpty {
                result.problems.append((.message, "\(status) with no message"))
            } else if lines.count != 1 {
                result.problems.append((.message, "\(status) with \(lines.count) lines: \(message.prefix(160).debugDescription)"))
            } else if message.count > 2000 {
                result.problems.append((.message, "\(status) with a message of \(message.count) characters: \(message.prefix(80))…"))
            }
            if let bad = HostileRunner.internals.first(where: { message.contains($0) }) {
                result.problems.append((.message, "internal text \"\(bad)\": \(message.prefix(160))"))
            }
        }
        if status == 405, answer.headers["allow"] == nil {
            result.problems.append((.message, "405 without an Allow header"))
        }
    }

    /// The words of an answer: `error` of a JSON body, else the body, its one final line feed taken off.
    static func message(of answer: Exchange) -> String {
        if answer.headers["content-type"]?.hasPrefix("application/json") == true,
           let object = try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any], let error = object["error"] as? String {
            return error
        }
        var text = String(decoding: answer.body, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// Bytes as a report shows them: the first 80, quoted.
    static func shown(_ data: Data) -> String { String(decoding: data.prefix(80), as: UTF8.self).debugDescription }

    /// After a case: the server still answers a good GET /api/book with 200 (else it is started
    /// again, so the cases after are judged), the folder holds the seeds' bytes and nothing else
    /// (else they are put back), and the server's peak memory.
    func checkAfter(_ result: inout HostileResult, folder: Folder, state: BatchState) {
        let server = state.current
        let good = server.filled(Data("GET /api/book HTTP/1.1\r\nHost: {{HOST}}\r\nX-Roadbook-Token: {{TOKEN}}\r\nConnection: close\r\n\r\n".utf8))
        let answer = Exchange.send(good, port: server.port, timeout: 10)
        if answer.status != 200 {
            if let end = server.ended() {
                result.problems.append((.crash, "the server ended after this case (\(end)): \(server.errors.prefix(160))"))
            } else {
                let got = answer.status.map { "answered \($0)" } ?? (answer.timedOut ? "no answer in 10 s" : "closed without an answer")
                result.problems.append((.hang, "a good GET /api/book after this case: \(got)"))
            }
            state.restart(after: result.hostileCase.name)
        }
        result.problems += folder.problems(extra: [])
        let peak = state.current.highWaterMark()
        let before = state.note(peak: peak)
        result.peakRSS = peak
        if peak > HostileRunner.residentLimit && before <= HostileRunner.residentLimit {
            result.problems.append((.memory, "the server's peak resident memory passed 512 MiB in this case: \(peak >> 20) MiB"))
        }
    }

    // MARK: Cases made at run time

    /// Whether a large.tsv case runs beside the others (it waits for the server's timeout).
    static func isBackground(_ c: HostileCase) -> Bool {
        guard let generator = c.generator else { return false }
        return generator.hasPrefix("http-slow-headers:") || generator.hasPrefix("http-stalled-body:")
    }

    /// A client that sends its head one byte a second for N seconds (`http-slow-headers:N`), or a
    /// good edit's head and its first N bytes (`http-stalled-body:N`), then nothing: the server
    /// must close it within its timeout, answering nothing or 408, while it answers the others.
    func runBackground(_ c: HostileCase, state: BatchState) -> HostileResult {
        var result = HostileResult(hostileCase: c, problems: [], peakRSS: 0, seconds: 0, skipped: nil)
        let started = Date()
        let server = state.current
        let generator = c.generator ?? ""
        let parts = generator.split(separator: ":", maxSplits: 1).map(String.init)
        let count = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        do {
            let socket = try Exchange.connect(port: server.port)
            defer { close(socket) }
            var lastSent = Date()
            if parts[0] == "http-slow-headers" {
                let head = server.filled(Data("GET /api/book HTTP/1.1\r\nHost: {{HOST}}\r\nX-Roadbook-Token: {{TOKEN}}\r\nConnection: close\r\n\r\n".utf8))
                for byte in head.prefix(count) {
                    guard Exchange.sendAll(socket, Data([byte])) else {
                        result.problems.append((.status, "the server closed the connection after \(Int(Date().timeIntervalSince(started))) s of a head sent a byte a second"))
                        break
                    }
                    lastSent = Date()
                    Thread.sleep(forTimeInterval: 1)
                }
            } else {
                let body = Data(##"{"op":"edit","row":"#2","text":"a body that never finishes"}"##.utf8)
                let head = server.filled(Data("POST /api/notes HTTP/1.1\r\nHost: {{HOST}}\r\nX-Roadbook-Token: {{TOKEN}}\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8))
                _ = Exchange.sendAll(socket, head + body.prefix(count))
                lastSent = Date()
            }
            // Then silence: closed after the timeout, counted from the last byte.
            let answer = Exchange.receive(socket, until: lastSent.addingTimeInterval(Self.serverTimeout + 10))
            if answer.timedOut {
                result.problems.append((.hang, "still open \(Int(Self.serverTimeout + 10)) s after the client's last byte (the timeout is \(Int(Self.serverTimeout)) s)"))
            } else if let status = answer.status, status != 408 {
                result.problems.append((.status, "answered \(status) to a request that never finished: \(Self.message(of: answer).prefix(160))"))
            } else if answer.status == nil && !answer.raw.isEmpty {
                result.problems.append((.status, "an answer that is not HTTP: \(Self.shown(answer.raw))"))
            }
        } catch {
            result.problems.append((.status, "the test could not run the case: \(error)"))
        }
        result.seconds = Date().timeIntervalSince(started)
        return result
    }

    /// `count` connections opened at once, each asking GET /api/book before any answer is read:
    /// every one must be answered 200.
    func manyConnections(_ count: Int, server: ServeProcess, into result: inout HostileResult) throws {
        let request = server.filled(Data("GET /api/book HTTP/1.1\r\nHost: {{HOST}}\r\nX-Roadbook-Token: {{TOKEN}}\r\nConnection: close\r\n\r\n".utf8))
        var sockets: [Int32] = []
        defer { for s in sockets { close(s) } }
        for _ in 0..<count {
            let s = try Exchange.connect(port: server.port)
            sockets.append(s)
            _ = Exchange.sendAll(s, request)
        }
        let deadline = Date().addingTimeInterval(60)
        var statuses: [String: Int] = [:]
        for s in sockets {
            let answer = Exchange.receive(s, until: deadline)
            let key = answer.status.map(String.init) ?? (answer.timedOut ? "no answer" : "closed")
            statuses[key, default: 0] += 1
        }
        let answered = statuses["200"] ?? 0
        if answered != count {
            let others = statuses.filter { $0.key != "200" }.map { "\($0.value) \($0.key)" }.sorted().joined(separator: ", ")
            result.problems.append((statuses["no answer"] != nil ? .hang : .status, "\(answered) of \(count) answered 200; \(others)"))
        }
    }

    /// A client that leaves mid-request: half a head (`headers`), a good edit's head and half its
    /// body (`body`), or after 100 bytes of the PDF's answer (`answer`). Nothing may change, and the
    /// server goes on (checked after every case).
    func closeEarly(_ what: String, server: ServeProcess) throws {
        let socket = try Exchange.connect(port: server.port)
        switch what {
        case "headers":
            let head = server.filled(Data("GET /api/book HTTP/1.1\r\nHost: {{HOST}}\r\nX-Roadbook-Token: {{TOKEN}}\r\n".utf8))
            _ = Exchange.sendAll(socket, head.prefix(head.count / 2))
        case "body":
            let body = Data(##"{"op":"edit","row":"#2","text":"half a body"}"##.utf8)
            let head = server.filled(Data("POST /api/notes HTTP/1.1\r\nHost: {{HOST}}\r\nX-Roadbook-Token: {{TOKEN}}\r\nContent-Length: \(body.count)\r\n\r\n".utf8))
            _ = Exchange.sendAll(socket, head + body.prefix(body.count / 2))
        case "answer":
            let request = server.filled(Data("GET /api/book.pdf HTTP/1.1\r\nHost: {{HOST}}\r\nX-Roadbook-Token: {{TOKEN}}\r\nConnection: close\r\n\r\n".utf8))
            _ = Exchange.sendAll(socket, request)
            var buffer = [UInt8](repeating: 0, count: 100)
            var wait = timeval(tv_sec: 15, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            _ = recv(socket, &buffer, buffer.count, 0)
        default:
            close(socket)
            throw ToolError(message: "large.tsv: unknown http-close:\(what)")
        }
        // Gone at once: a reset rather than a goodbye, as a client killed mid-request leaves.
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(socket)
        // The server has a moment to notice before the check that follows.
        Thread.sleep(forTimeInterval: 0.2)
    }

    // MARK: The controls

    /// A good change (`changes=FILE:WORDS`), on a server of its own in a folder of its own: it must
    /// be answered 2xx and FILE must hold WORDS after, where the seed did not: the runner sees a
    /// change when there is one.
    func runControl(_ c: HostileCase, index: Int) -> HostileResult {
        var result = HostileResult(hostileCase: c, problems: [], peakRSS: 0, seconds: 0, skipped: nil)
        let started = Date()
        do {
            let (folder, server) = try startServer(in: "http-control-\(index)")
            let bytes = try request(of: c, server: server)
            let answer = Exchange.send(bytes, port: server.port, timeout: Self.caseTimeout)
            judge(answer, of: c, request: bytes, into: &result)
            let given = c.options["changes"] ?? ""
            let parts = given.split(separator: ":", maxSplits: 1).map(String.init)
            let name = parts[0], words = parts.count > 1 ? parts[1] : ""
            let seed = seedFiles.first { $0.name == name }.flatMap { try? Data(contentsOf: seeds.appendingPathComponent($0.source)) }
            let now = (try? Data(contentsOf: folder.work.appendingPathComponent(name))) ?? Data()
            if now == seed {
                result.problems.append((.status, "a good change left \(name) as it was"))
            } else if !words.isEmpty, String(decoding: now, as: UTF8.self).range(of: words) == nil {
                result.problems.append((.status, "\(name) changed but does not hold '\(words)'"))
            }
            result.peakRSS = server.highWaterMark()
            var stopped = HostileResult(hostileCase: c, problems: [], peakRSS: 0, seconds: 0, skipped: nil)
            stop(server, into: &stopped)
            result.problems += stopped.problems
        } catch {
            result.problems.append((.status, "the test could not run the case: \(error)"))
        }
        result.seconds = Date().timeIntervalSince(started)
        return result
    }

    /// SIGTERM: the server must end with status 0 within `stopTimeout`, by no signal, saying it stopped.
    func stop(_ server: ServeProcess, into result: inout HostileResult) {
        switch server.terminate(within: Self.stopTimeout) {
        case .exited(0):
            break
        case .exited(let status):
            result.problems.append((.status, "SIGTERM: exit \(status): \(server.errors.prefix(160))"))
        case .signalled(let signal):
            result.problems.append((.crash, "SIGTERM: ended by \(String(cString: strsignal(signal))) (signal \(signal)): \(server.errors.prefix(160))"))
        case .timedOut:
            result.problems.append((.hang, "SIGTERM: still running after \(Int(Self.stopTimeout)) s"))
        }
        let errors = server.errors
        if let bad = HostileRunner.internals.first(where: { errors.contains($0) }) {
            result.problems.append((.message, "internal text \"\(bad)\" on standard error: \(errors.prefix(160))"))
        }
        let lines = errors.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !HostileRunner.isWarning($0) }
        if lines != ["roadbook serve: stopped (SIGTERM)"] {
            result.problems.append((.message, "standard error is not (besides warnings) the one line 'roadbook serve: stopped (SIGTERM)': \(errors.prefix(160).debugDescription)"))
        }
    }
}

// MARK: - The folder, the server, the exchanges

/// The batch's folder: `work` (the book and its draft, copied from the seeds), `logs` and `cache`
/// beside it, so neither the logs nor a cache is taken for a leftover.
struct Folder: Sendable {
    let work: URL, logs: URL, cache: URL
    let seeds: [(name: String, bytes: Data)]

    init(_ base: URL, seeds files: [(name: String, source: String)], from seedFolder: URL) throws {
        work = base.appendingPathComponent("work")
        logs = base.appendingPathComponent("logs")
        cache = base.appendingPathComponent("cache")
        for folder in [work, logs, cache] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        seeds = try files.map { ($0.name, try Data(contentsOf: seedFolder.appendingPathComponent($0.source))) }
        for (name, bytes) in seeds { try bytes.write(to: work.appendingPathComponent(name)) }
    }

    /// What differs from the seeds: a file changed or gone, a file more (a journal, a lock, a
    /// temporary file). Each found is put back as it was, so the cases after are judged alone.
    func problems(extra allowed: [String]) -> [(HostileProblem, String)] {
        var found: [(HostileProblem, String)] = []
        for (name, bytes) in seeds {
            let url = work.appendingPathComponent(name)
            if (try? Data(contentsOf: url)) != bytes {
                found.append((.modified, "\(name) changed"))
                try? bytes.write(to: url)
            }
        }
        let names = CaseName.names(in: work)
        for name in names.sorted() where !seeds.contains(where: { $0.name == name }) && !allowed.contains(name) {
            found.append((.leftover, "left \(name) in the book's folder"))
            try? FileManager.default.removeItem(at: work.appendingPathComponent(name))
        }
        return found
    }
}

/// The results of the cases run beside the others.
private final class ResultStore: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Int: HostileResult] = [:]
    func put(_ i: Int, _ result: HostileResult) { lock.withLock { results[i] = result } }
    var all: [(Int, HostileResult)] { lock.withLock { results.sorted { $0.key < $1.key } } }
}

/// The batch's server, started again when a case ended it (so the cases after are judged), and
/// the peak memory of every server it ran.
final class BatchState: @unchecked Sendable {
    private let lock = NSLock()
    private var server: ServeProcess
    private(set) var peak = 0
    private(set) var restarts: [String] = []

    init(server: ServeProcess) { self.server = server }

    var current: ServeProcess { lock.withLock { server } }

    /// Keeps the larger peak; returns the one before.
    @discardableResult
    func note(peak value: Int) -> Int {
        lock.withLock {
            defer { peak = max(peak, value) }
            return peak
        }
    }

    /// Ends the server (when it has not ended) and starts another on the same folder.
    func restart(after name: String) {
        lock.withLock {
            peak = max(peak, server.highWaterMark())
            _ = server.terminate(within: 1)
            if let again = try? ServeProcess(binary: server.binary, book: server.book, folder: server.folder, logs: server.logs,
                                             environment: server.environment) {
                restarts.append("the server stopped answering after \(name): started again")
                server = again
            } else {
                restarts.append("the server stopped answering after \(name) and could not be started again")
            }
        }
    }
}

/// One `roadbook serve BOOK` run: started in `folder` with standard output on a pipe (the URL is
/// read from it) and standard error in a file of `logs`.
final class ServeProcess: @unchecked Sendable {
    enum End: Equatable, CustomStringConvertible {
        case exited(Int32), signalled(Int32), timedOut
        var description: String {
            switch self {
            case .exited(let s): "exit \(s)"
            case .signalled(let s): "signal \(s), \(String(cString: strsignal(s)))"
            case .timedOut: "still running"
            }
        }
    }

    let binary: URL, book: String, folder: URL, logs: URL
    let environment: [String: String]
    let pid: pid_t
    let port: UInt16
    let token: String
    private let lock = NSLock()
    private var end: End?

    init(binary: URL, book: String, folder: URL, logs: URL, environment: [String: String]) throws {
        self.binary = binary
        self.book = book
        self.folder = folder
        self.logs = logs
        self.environment = environment
        // Both outputs go to files: a pipe read once and closed would end the server by SIGPIPE
        // if it wrote again.
        let out = logs.appendingPathComponent("stdout")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, logs.appendingPathComponent("stderr").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // env enters the folder and execs roadbook: one process id throughout.
        let argv = ["/usr/bin/env", "-C", folder.path, binary.path, "serve", book]
        let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        let cEnv: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in cArgs { free(p) }
            for p in cEnv { free(p) }
        }
        var pid: pid_t = 0
        let spawned = LimitedRun.spawning.withLock { posix_spawn(&pid, "/usr/bin/env", &actions, nil, cArgs, cEnv) }
        guard spawned == 0 else { throw ToolError(message: "cannot start roadbook serve: \(String(cString: strerror(spawned)))") }
        self.pid = pid
        // The first line: "roadbook serve: http://127.0.0.1:PORT/?token=TOKEN".
        var line = Data()
        let deadline = Date().addingTimeInterval(20)
        while !line.contains(UInt8(ascii: "\n")) && Date() < deadline {
            usleep(20_000)
            line = (try? Data(contentsOf: out)) ?? Data()
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                end = (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
                break
            }
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let prefix = "roadbook serve: http://127.0.0.1:"
        guard text.hasPrefix(prefix), let port = UInt16(text.dropFirst(prefix.count).prefix { $0.isNumber }),
              let token = text.components(separatedBy: "/?token=").last, token.count == 32 else {
            if end == nil {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                waitpid(pid, &status, 0)
            }
            let errors = (try? String(contentsOf: logs.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
            throw ToolError(message: "roadbook serve did not print its address: \(text.prefix(120).debugDescription) \(errors.prefix(200))")
        }
        self.port = port
        self.token = token
    }

    /// `data` with the placeholders of the corpus filled in.
    func filled(_ data: Data) -> Data {
        var out = data
        for (name, value) in [("{{HOST}}", "127.0.0.1:\(port)"), ("{{PORT}}", "\(port)"), ("{{TOKEN_UPPER}}", token.uppercased()),
                              ("{{TOKEN}}", token), ("{{COOKIE}}", "roadbook_token=\(token)"), ("{{ORIGIN}}", "http://127.0.0.1:\(port)")] {
            out = Self.replacing(Data(name.utf8), with: Data(value.utf8), in: out)
        }
        return out
    }

    static func replacing(_ pattern: Data, with value: Data, in data: Data) -> Data {
        guard data.range(of: pattern) != nil else { return data }
        var out = Data()
        var rest = data[...]
        while let found = rest.range(of: pattern) {
            out.append(rest[rest.startIndex..<found.lowerBound])
            out.append(value)
            rest = rest[found.upperBound...]
        }
        out.append(rest)
        return out
    }

    /// How it ended, when it has (reaped once).
    func ended() -> End? {
        lock.withLock {
            if let end { return end }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
            let signal = status & 0x7f
            end = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
            return end
        }
    }

    /// SIGTERM, then up to `seconds` for it to end; SIGKILL after.
    func terminate(within seconds: Double) -> End {
        if let end = ended() { return end }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let end = ended() { return end }
            usleep(20_000)
        }
        kill(pid, SIGKILL)
        while ended() == nil { usleep(20_000) }
        return .timedOut
    }

    /// VmHWM of /proc/PID/status, in bytes; 0 once it has ended.
    func highWaterMark() -> Int {
        guard ended() == nil else { return 0 }
        return LimitedRun.highWaterMark(of: pid, program: String(binary.lastPathComponent.prefix(15)))
    }

    var errors: String { (try? String(contentsOf: logs.appendingPathComponent("stderr"), encoding: .utf8)) ?? "" }
}

/// One request sent on a new connection and what came back.
struct Exchange {
    var raw = Data()
    var status: Int?
    /// Header names in lower case.
    var headers: [String: String] = [:]
    var body = Data()
    var timedOut = false
    var error: String?

    /// Sends `bytes` (from a thread of its own, so an answer sent before the request ends is read)
    /// and reads the answer until the server closes, the answer is whole, or `timeout` seconds pass.
    static func send(_ bytes: Data, port: UInt16, timeout: Double) -> Exchange {
        let socket: Int32
        do { socket = try connect(port: port) } catch { return Exchange(error: "\(error)") }
        let sent = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = sendAll(socket, bytes)
            sent.signal()
        }
        let isHead = bytes.starts(with: Data("HEAD ".utf8))
        let answer = receive(socket, until: Date().addingTimeInterval(timeout), head: isHead)
        // A writer still blocked (the server stopped reading) is woken before the socket is closed.
        shutdown(socket, Int32(SHUT_RDWR))
        sent.wait()
        close(socket)
        return answer
    }

    static func connect(port: UInt16) throws -> Int32 {
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard s >= 0 else { throw ToolError(message: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let done = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard done == 0 else {
            let reason = String(cString: strerror(errno))
            close(s)
            throw ToolError(message: "connect to 127.0.0.1:\(port): \(reason)")
        }
        return s
    }

    /// Whether every byte was sent (false once the server closed or reset the connection).
    @discardableResult
    static func sendAll(_ s: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let n = Glibc.send(s, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                sent += n
            }
            return true
        }
    }

    /// Reads until the server closes, the answer is whole (by its Content-Length; a HEAD's has no
    /// body; a 100 Continue is skipped), or `deadline`.
    static func receive(_ s: Int32, until deadline: Date, head: Bool = false) -> Exchange {
        var answer = Exchange()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if answer.parse(head: head) { return answer }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                answer.timedOut = true
                return answer
            }
            var descriptor = pollfd(fd: s, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(left, 1) * 1000))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let n = recv(s, &buffer, buffer.count, 0)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                _ = answer.parse(head: head, closed: true)
                return answer
            }
            answer.raw.append(contentsOf: buffer[0..<n])
        }
    }

    /// Reads the status, headers and body out of `raw`; true when the answer is whole.
    mutating func parse(head: Bool, closed: Bool = false) -> Bool {
        var data = raw[...]
        while true {
            guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return false }
            let lines = String(decoding: data[data.startIndex..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            let words = lines[0].split(separator: " ", maxSplits: 2)
            guard words.count >= 2, words[0].hasPrefix("HTTP/1."), let code = Int(words[1]) else { return closed }
            var fields: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let rest = data[end.upperBound...]
            if code == 100 {
                data = rest
                continue
            }
            status = code
            headers = fields
            if head || code == 204 || code == 304 {
                body = Data()
                return true
            }
            if let length = fields["content-length"].flatMap(Int.init) {
                body = Data(rest.prefix(length))
                return rest.count >= length
            }
            body = Data(rest)
            return closed
        }
    }
}
