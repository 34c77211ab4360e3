// The editor's requests (Serve.Editor.respond(to:)): the security checks (Host, Origin, token),
// the routing of paths and methods, the JSON bodies (RequestBody), the notes, undo, redo, handles
// and apply changes, the drawings, and the page's files (StaticFiles), against a small book made
// once and put back before every input, so each input is a session of up to four requests on the
// same book.
//
// The input: requests separated by the byte 0x1E. Each starts with a byte of flags:
//   bits 0-2  the method: GET, POST, HEAD, PUT, DELETE, OPTIONS, get, or (7) the first field
//   bits 3-4  where the token goes: 0 the cookie, 1 the X-Roadbook-Token header, 2 `?token=`, 3 nowhere
//   bit 5     no Host header added (the input may give its own)
//   bit 6     an Origin header naming the server, as the page's own requests send it
//   bit 7     If-None-Match: the last ETag answered
// then NUL-separated fields: [the method], the path with its query, headers `Name: value`, an
// empty field, and the body (the rest, NULs and all). A header the input gives wins over the one
// added. The path and the query's arguments are percent-decoded but for %2F and %00, and end at a
// NUL, as libmicrohttpd hands them to the server.
//
// Any status may come back. A trap, a hang or memory that keeps growing is a finding, and so is:
// an answer of 400 or more whose body is not one line (text, or JSON `{"error": "…"}`); a request
// answered though its Host is not the server's, its Origin another site's, or the token nowhere in
// it; a 304 with a body; the file beside the page's folder served.
import Foundation
import BookAssembly
import Formats
import Geo
import Model
import Serve
import Workflows

private let token = "0123456789abcdef0123456789abcdef"
private let port: UInt16 = 8123
private let hostNames: Set<String> = ["127.0.0.1:8123", "localhost:8123", "[::1]:8123"]
private let secret = Data("the file beside the page's folder: never served\n".utf8)

/// The book and the page's folder, and the editor over them.
private final class Setup: @unchecked Sendable {
    let bookFolder: URL
    let book: URL
    let bookBytes: Data
    let editor: Editor
    var lastTag: String?

    init() {
        let root = fuzzFolder.appendingPathComponent("serve")
        bookFolder = root.appendingPathComponent("book")
        book = bookFolder.appendingPathComponent("book.json")
        let page = root.appendingPathComponent("page")
        let fm = FileManager.default
        try? fm.createDirectory(at: bookFolder, withIntermediateDirectories: true)
        try? fm.createDirectory(at: page.appendingPathComponent("leaflet"), withIntermediateDirectories: true)
        _ = fm.createFile(atPath: page.appendingPathComponent("index.html").path, contents: Data("<!doctype html><title>roadbook</title>\n".utf8))
        _ = fm.createFile(atPath: page.appendingPathComponent("app.js").path, contents: Data("console.log('editor')\n".utf8))
        _ = fm.createFile(atPath: page.appendingPathComponent("leaflet/leaflet.css").path, contents: Data(".leaflet-container{}\n".utf8))
        _ = fm.createFile(atPath: root.appendingPathComponent("secret.txt").path, contents: secret)
        // Links leading out of the page's folder: a file and a folder.
        try? fm.createSymbolicLink(atPath: page.appendingPathComponent("link.txt").path, withDestinationPath: "../secret.txt")
        try? fm.createSymbolicLink(atPath: page.appendingPathComponent("leaflet/up").path, withDestinationPath: "../..")

        // A route 3 km east, then 1 km north, with four rows and three handles joined by straight legs.
        let frame = LocalFrame(origin: Coordinate(latitude: 42.5, longitude: 1.5))
        func at(_ x: Double, _ y: Double) -> Coordinate { frame.unproject(x: x, y: y) }
        var line: [Coordinate] = []
        for k in 0..<300 { line.append(at(Double(k) * 10, 0)) }
        for k in 0...100 { line.append(at(3000, Double(k) * 10)) }
        let notes = [NoteInput(coordinate: at(0, 0), text: "Start of the stage", marker: "DSS", waypointType: .dss),
                     NoteInput(coordinate: at(1000, 0), text: "Cattle grid", marker: "CP1", waypointType: .cp),
                     NoteInput(coordinate: at(3000, 500), text: "Chapel on the left", marker: "W1", waypointType: .wpv),
                     NoteInput(coordinate: at(3000, 1000), text: "End of the stage", marker: "ASS", waypointType: .ass)]
        var made = assembleBook(title: "Fuzz", route: Route(points: line.map { RoutePoint(coordinate: $0) }), notes: notes).book
        made.plan = RoutePlan(handles: [(0.0, 0.0), (3000, 0), (3000, 1000)].enumerated().map { i, xy in
            Handle(id: i + 1, coordinate: at(xy.0, xy.1), origin: .tapped)
        }, legs: [PlannedLeg(kind: .straight), PlannedLeg(kind: .straight)])
        do {
            try BookFile.write(made, to: book)
            bookBytes = try Data(contentsOf: book)
        } catch {
            fatalError("serve harness: the book could not be written: \(error)")
        }
        let terrain = TerrainRequest(cacheFolder: root.appendingPathComponent("cache"))
        editor = Editor(settings: Editor.Settings(book: book, page: StaticFiles(folder: page), terrain: terrain),
                        security: EditorSecurity(token: token, port: port))
    }

    /// The book folder as it was made: the book's bytes, and nothing beside it (journal, draft, lock).
    func restore() {
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: bookFolder.path)) ?? [] where name != "book.json" {
            try? fm.removeItem(at: bookFolder.appendingPathComponent(name))
        }
        if (try? Data(contentsOf: book)) != bookBytes { _ = fm.createFile(atPath: book.path, contents: bookBytes) }
    }
}

private let setup = Setup()
/// `SERVE_FUZZ_TRACE=1` prints each request's method, path and answer, to see what an input does.
private let trace = ProcessInfo.processInfo.environment["SERVE_FUZZ_TRACE"] == "1"

/// `bytes` with `%XX` decoded (other `%` kept), up to a NUL, as UTF-8 with bad bytes replaced.
private func unescaped<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
    let input = Array(bytes)
    var output: [UInt8] = []
    var i = 0
    func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }
    while i < input.count {
        // %2F and %00 stay as written, as the server's decoder (cmhd_unescape) keeps them.
        if input[i] == 0x25, i + 2 < input.count, let high = hex(input[i + 1]), let low = hex(input[i + 2]),
           high << 4 | low != 0, high << 4 | low != 0x2F {
            output.append(high << 4 | low)
            i += 3
        } else {
            output.append(input[i])
            i += 1
        }
    }
    if let nul = output.firstIndex(of: 0) { output.removeSubrange(nul...) }
    return String(decoding: output, as: UTF8.self)
}

/// One request of the input, and whether the input itself holds the token anywhere.
private func request(from bytes: ArraySlice<UInt8>) -> ServerRequest? {
    guard let flags = bytes.first else { return nil }
    var fields = bytes.dropFirst().split(separator: 0, maxSplits: 64, omittingEmptySubsequences: false)[...]
    // The body: everything after the first empty field that follows the path.
    var body = Data()
    let methods = ["GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "get"]
    var method = Int(flags & 7) < methods.count ? methods[Int(flags & 7)] : ""
    if flags & 7 == 7 { method = fields.popFirst().map { String(decoding: $0, as: UTF8.self) } ?? "" }
    let target = fields.popFirst() ?? []
    var headers: [String: String] = [:]
    while let field = fields.popFirst() {
        if field.isEmpty {
            // The rest, with the NULs between its fields, is the body.
            var rest: [UInt8] = []
            for (n, piece) in fields.enumerated() {
                if n > 0 { rest.append(0) }
                rest.append(contentsOf: piece)
            }
            body = Data(rest)
            break
        }
        let text = String(decoding: field, as: UTF8.self)
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
        let value = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        if headers[name] == nil { headers[name] = value }
    }
    var path = unescaped(target)
    var query: [String: String] = [:]
    if let mark = target.firstIndex(of: UInt8(ascii: "?")) {
        path = unescaped(target[..<mark])
        for pair in target[(mark + 1)...].split(separator: UInt8(ascii: "&")) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = unescaped(parts[0])
            if query[name] == nil { query[name] = parts.count > 1 ? unescaped(parts[1]) : "" }
        }
    }
    if path.isEmpty { path = "/" }
    switch (flags >> 3) & 3 {
    case 0: if headers["cookie"] == nil { headers["cookie"] = "other=1; \(EditorSecurity.cookieName)=\(token)" }
    case 1: if headers["x-roadbook-token"] == nil { headers["x-roadbook-token"] = token }
    case 2: if query["token"] == nil { query["token"] = token }
    default: break
    }
    if flags & 0x20 == 0, headers["host"] == nil { headers["host"] = "127.0.0.1:\(port)" }
    if flags & 0x40 != 0, headers["origin"] == nil { headers["origin"] = "http://\(headers["host"] ?? "127.0.0.1:\(port)")" }
    if flags & 0x80 != 0, headers["if-none-match"] == nil, let tag = setup.lastTag { headers["if-none-match"] = tag }
    return ServerRequest(method: method, path: path, query: query, headers: headers, body: body)
}

/// Stops the run with `what` and the request, so libFuzzer keeps the input.
private func finding(_ what: String, _ request: ServerRequest, _ response: ServerResponse) -> Never {
    let body = String(decoding: response.body.prefix(400), as: UTF8.self)
    fatalError("serve: \(what): \(request.method) \(request.path) \(request.query) \(request.headers) -> \(response.status) \(body)")
}

/// Whether `body` is one line: some text without control characters, ending with at most one
/// line break; JSON with a non-empty string `error`.
private func isOneLineError(_ response: ServerResponse) -> Bool {
    var text = String(decoding: response.body, as: UTF8.self)
    guard Data(text.utf8) == response.body else { return false }
    if text.hasSuffix("\n") { text.removeLast() }
    guard !text.isEmpty, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return false }
    if response.header("Content-Type")?.hasPrefix("application/json") == true {
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
              let message = object["error"] as? String, !message.isEmpty,
              !message.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return false }
    }
    return true
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: bytes, count: size))
    setup.restore()
    setup.lastTag = nil
    for piece in input.split(separator: 0x1E, maxSplits: 3, omittingEmptySubsequences: true).prefix(4) {
        guard let request = request(from: piece) else { continue }
        let response = setup.editor.respond(to: request)
        if let tag = response.header("ETag") { setup.lastTag = tag }
        if trace {
            print("\(request.method) \(request.path) \(request.query.keys.sorted()) -> \(response.status) \(response.body.count) bytes: "
                  + String(decoding: response.body.prefix(trace ? 600 : 120), as: UTF8.self).replacingOccurrences(of: "\n", with: " "))
        }

        guard (100..<600).contains(response.status) else { finding("a status out of HTTP's range", request, response) }
        if response.status >= 400, !isOneLineError(response) { finding("an error whose body is not one line", request, response) }
        if response.status == 304, !response.body.isEmpty { finding("a 304 with a body", request, response) }
        if response.body == secret { finding("the file beside the page's folder was served", request, response) }

        // The security checks, told from the request as the docs state them.
        let host = request.header("host")?.lowercased()
        let hostOK = host.map(hostNames.contains) ?? false
        let originOK = request.header("origin").map { $0.lowercased() == "http://\(host ?? "")" } ?? true
        let tokenSomewhere = request.headers.values.contains { $0.contains(token) } || request.query.values.contains(token)
        if !(hostOK && originOK && tokenSomewhere), response.status != 403 {
            finding("answered though the Host, the Origin or the token is wrong", request, response)
        }
    }
    return 0
}
