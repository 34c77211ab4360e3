import Foundation
import Formats
import HTTP
import RoadbookCLI
import Serve
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The editor on a real socket: started on a free port of 127.0.0.1 and asked with the project's
/// own HTTP client (libcurl), or with raw sockets where a client misbehaves on purpose.
@Suite("The editor's server on a socket", .serialized)
struct ServerTests {
    static func start(_ book: URL, page: URL, configure: (inout HTTPServer.Configuration) -> Void = { _ in }) throws -> EditorServer {
        var configuration = HTTPServer.Configuration()
        configure(&configuration)
        return try EditorServer(settings: Editor.Settings(book: book, page: StaticFiles(folder: page)), configuration: configuration)
    }

    func send(_ server: EditorServer, _ method: HTTPRequest.Method, _ path: String, body: Data? = nil,
              headers: [String: String]? = nil) async throws -> HTTP.HTTPResponse {
        let client = try CurlHTTPClient()
        let url = try #require(URL(string: "http://127.0.0.1:\(server.server.port)\(path)"))
        return try await client.send(HTTPRequest(method: method, url: url,
                                                 headers: headers ?? ["X-Roadbook-Token": server.editor.security.token],
                                                 body: body, timeout: 20))
    }

    @Test("the URL printed opens the page and sets the cookie; a row's words edited over HTTP are in the book file; a `note` command's change shows in GET /api/book")
    func endToEnd() async throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let server = try Self.start(book, page: page)
        defer { server.stop() }
        #expect(server.server.port != 0)
        #expect(server.url == "http://127.0.0.1:\(server.server.port)/?token=\(server.editor.security.token)")

        let client = try CurlHTTPClient()
        let first = try await client.send(HTTPRequest(url: try #require(URL(string: server.url))))
        #expect(first.status == 200)
        #expect(first.headers["set-cookie"]?.contains("HttpOnly") == true)
        #expect(String(decoding: first.body, as: UTF8.self).contains("<title>roadbook</title>"))

        let id = try #require(try BookFile.read(contentsOf: book).notes.first { $0.text == "Cattle grid" }?.id)
        let edit = try await send(server, .post, "/api/notes",
                                  body: Data(##"{"op":"edit","row":"#\##(id)","text":"Cattle grid: slow down"}"##.utf8),
                                  headers: ["Cookie": "roadbook_token=\(server.editor.security.token)", "Content-Type": "application/json"])
        #expect(edit.status == 200, "\(String(decoding: edit.body, as: UTF8.self))")
        #expect(try BookFile.read(contentsOf: book).notes.first { $0.id == id }?.text == "Cattle grid: slow down")

        let before = try await send(server, .get, "/api/book")
        let tag = try #require(before.headers["etag"])
        let unchanged = try await send(server, .get, "/api/book",
                                       headers: ["X-Roadbook-Token": server.editor.security.token, "If-None-Match": tag])
        #expect(unchanged.status == 304)

        // A change made in a terminal meanwhile: the page's next poll sees it.
        let console = CapturingConsole()
        let status = await Roadbook.main(["note", book.path, "edit", "#\(id)", "--text", "Cattle grid, typed in a terminal"], console: console)
        #expect(status == 0, "\(console.errors)")
        let after = try await send(server, .get, "/api/book",
                                   headers: ["X-Roadbook-Token": server.editor.security.token, "If-None-Match": tag])
        #expect(after.status == 200)
        let rows = try #require((try JSONSerialization.jsonObject(with: after.body) as? [String: Any])?["rows"] as? [[String: Any]])
        #expect(rows.first { $0["id"] as? Int == id }?["text"] as? String == "Cattle grid, typed in a terminal")
    }

    @Test("a 2 MiB body is refused with 413, declared or sent in chunks; the book unchanged")
    func tooLarge() async throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let server = try Self.start(book, page: page)
        defer { server.stop() }
        let before = try Data(contentsOf: book)
        // On a raw socket, as the chunked one below: the server answers 413 once it has the head and
        // may close before the body is all sent, which a client like curl reports as a failed send
        // instead of the answer.
        let declared = try rawExchange(port: server.server.port, """
            POST /api/notes HTTP/1.1\r\nHost: 127.0.0.1:\(server.server.port)\r\nX-Roadbook-Token: \(server.editor.security.token)\r\n\
            Content-Length: \(2 << 20)\r\nConnection: close\r\n\r\n
            """, then: String(repeating: " ", count: 2 << 20))
        #expect(declared.hasPrefix("HTTP/1.1 413"), "\(declared.prefix(80))")
        let chunked = try rawExchange(port: server.server.port, """
            POST /api/notes HTTP/1.1\r\nHost: 127.0.0.1:\(server.server.port)\r\nX-Roadbook-Token: \(server.editor.security.token)\r\n\
            Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n
            """, then: (0..<40).map { _ in "10000\r\n" + String(repeating: " ", count: 0x10000) + "\r\n" }.joined() + "0\r\n\r\n")
        #expect(chunked.hasPrefix("HTTP/1.1 413"), "\(chunked.prefix(80))")
        #expect(try Data(contentsOf: book) == before)
    }

    @Test("without the token, from a wrong Host, the socket answers 403")
    func refusedOnTheWire() async throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let server = try Self.start(book, page: page)
        defer { server.stop() }
        #expect(try await send(server, .get, "/api/book", headers: [:]).status == 403)
        let rebinding = try rawExchange(port: server.server.port, """
            GET /api/book HTTP/1.1\r\nHost: evil.example:\(server.server.port)\r\nX-Roadbook-Token: \(server.editor.security.token)\r\n\
            Connection: close\r\n\r\n
            """)
        #expect(rebinding.hasPrefix("HTTP/1.1 403"))
        let climbing = try rawExchange(port: server.server.port, """
            GET /static/../../secret.txt HTTP/1.1\r\nHost: 127.0.0.1:\(server.server.port)\r\nX-Roadbook-Token: \(server.editor.security.token)\r\n\
            Connection: close\r\n\r\n
            """)
        #expect(climbing.hasPrefix("HTTP/1.1 404"), "\(climbing.prefix(60))")
        #expect(!climbing.hasSuffix("secret"))
    }

    @Test("1,000 requests at once from loopback: every one answered, the server still up", arguments: [1_000, 100])
    func thousandAtOnce(limit: Int) async throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        // With a limit of 100 connections, the other 900 wait in the listening socket's queue.
        let server = try Self.start(book, page: page) { $0.connectionLimit = limit }
        defer { server.stop() }
        let port = server.server.port
        let request = "GET /api/book HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Roadbook-Token: \(server.editor.security.token)\r\nConnection: close\r\n\r\n"
        // Every connection opened and its request sent before any answer is read.
        var sockets: [Int32] = []
        defer { for s in sockets { close(s) } }
        for _ in 0..<1_000 {
            let s = try connectLoopback(port: port)
            sockets.append(s)
            try sendAll(s, Data(request.utf8))
        }
        var answered = 0
        for s in sockets {
            let answer = try receiveAll(s)
            if answer.hasPrefix("HTTP/1.1 200") && answer.contains("\"Serve test\"") { answered += 1 }
        }
        #expect(answered == 1_000)
        #expect(try await send(server, .get, "/api/book").status == 200)
    }

    @Test("a client that sends half a request and waits is dropped after the timeout; others are answered meanwhile")
    func slowClient() async throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let server = try Self.start(book, page: page) { $0.timeout = 1 }
        defer { server.stop() }
        let slow = try connectLoopback(port: server.server.port)
        defer { close(slow) }
        try sendAll(slow, Data("GET /api/book HTTP/1.1\r\nHost: 127.0".utf8))
        #expect(try await send(server, .get, "/api/book").status == 200)
        let started = Date()
        let rest = try receiveAll(slow, timeout: 10)
        #expect(rest.isEmpty || !rest.hasPrefix("HTTP/1.1 200"))
        #expect(Date().timeIntervalSince(started) < 8, "the slow client was dropped")
    }

    @Test("stopped, the port takes no connection: the listening socket is closed, not left to the kernel's queue")
    func stopClosesThePort() async throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let server = try Self.start(book, page: page)
        let port = server.server.port
        #expect(try await send(server, .get, "/api/book").status == 200)
        server.stop()
        #expect(throws: (any Error).self) { close(try connectLoopback(port: port)) }
    }
}

// Raw sockets, for clients that misbehave on purpose.

func connectLoopback(port: UInt16) throws -> Int32 {
    let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard s >= 0 else { throw Failure("socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let done = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    guard done == 0 else {
        close(s)
        throw Failure("connect: \(String(cString: strerror(errno)))")
    }
    return s
}

func sendAll(_ s: Int32, _ data: Data) throws {
    try data.withUnsafeBytes { bytes in
        var sent = 0
        while sent < bytes.count {
            let n = send(s, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            if n <= 0 { throw Failure("send: \(String(cString: strerror(errno)))") }
            sent += n
        }
    }
}

/// Everything the server sends until it closes the connection (or `timeout` seconds pass).
func receiveAll(_ s: Int32, timeout: Int = 30) throws -> String {
    var wait = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = recv(s, &buffer, buffer.count, 0)
        if n <= 0 { break }
        data.append(contentsOf: buffer[0..<n])
    }
    return String(decoding: data, as: UTF8.self)
}

/// Sends `head` then `body` on a new connection (a send failing once the server answered and
/// closed is not an error) and returns the answer.
func rawExchange(port: UInt16, _ head: String, then body: String = "") throws -> String {
    let s = try connectLoopback(port: port)
    defer { close(s) }
    try sendAll(s, Data(head.utf8))
    if !body.isEmpty { try? sendAll(s, Data(body.utf8)) }
    return try receiveAll(s)
}

@Suite("roadbook serve as a process")
struct ServeProcessTests {
    static var executable: URL { packageRoot().appendingPathComponent(".build/debug/roadbook") }

    @Test("prints the URL with its token, answers on it, and on SIGINT or SIGTERM stops with status 0", arguments: [SIGINT, SIGTERM])
    func stopsCleanly(signal: Int32) async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path), "build the package first")
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["serve", book.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["ROADBOOK_PAGE": page.path]) { $1 }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // The first line: "roadbook serve: http://127.0.0.1:PORT/?token=TOKEN".
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let prefix = "roadbook serve: http://127.0.0.1:"
        #expect(text.hasPrefix(prefix), "\(text)")
        let token = try #require(text.split(separator: "=").last.map(String.init))
        #expect(token.count == 32 && token.allSatisfy(\.isHexDigit))
        let answer = try await CurlHTTPClient().send(HTTPRequest(url: try #require(URL(string: String(text.dropFirst("roadbook serve: ".count))))))
        #expect(answer.status == 200)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.contains("roadbook serve: stopped"), "\(said)")
    }
}
