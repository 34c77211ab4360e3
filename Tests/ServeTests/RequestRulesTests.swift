import Foundation
import Serve
import Testing
import TestSupport

/// What the HTTP corpus of Tests/Hostile/http found the server answering against the rules of HTTP
/// (RFC 9110, RFC 9112) or its own docs (docs/editor.md), each fixed and kept here: values read
/// two ways (two Host headers, two tokens, a field given twice), bodies whose length is told two
/// ways or none, methods it does not implement, a path whose encoded slash or NUL was decoded.
@Suite("HTTP's rules, held before the editor answers")
struct RequestRulesTests {
    static let host = "127.0.0.1:\(ServeBook.port)"

    func head(_ headers: [String: String], path: String = "/api/notes", version: String = "HTTP/1.1") -> ServerRequest {
        ServerRequest.received(method: "POST", target: path, version: version, query: [:], headers: headers, body: Data())
    }

    @Test("refused before the body is read: 400 for what can be read two ways, 501 for a coding not supported",
          arguments: [
            (["host": host, "transfer-encoding": "gzip"], 400),
            (["host": host, "transfer-encoding": "chunked, gzip"], 400),
            (["host": host, "transfer-encoding": "chunked, chunked"], 400),
            (["host": host, "transfer-encoding": "gzip, chunked"], 501),
            (["host": host, "transfer-encoding": "chunked", "content-length": "2"], 400),
            (["host": host, "content-length": "2, 30"], 400),
            (["host": "\(host), evil.example:8123"], 400),
            (["host": "127.0.0.1:8123@evil.example"], 400),
            (["host": "127.0.0.1:8123 x"], 400),
            (["host": host, "x-roadbook-token": "\(ServeBook.token)\0junk"], 400),
            ([:], 400),
          ] as [([String: String], Int)])
    func refused(_ headers: [String: String], _ status: Int) throws {
        let refusal = try #require(head(headers).protocolRefusal(), "\(headers)")
        #expect(refusal.status == status, "\(headers)")
        let text = String(decoding: refusal.body, as: UTF8.self)
        #expect(text.hasSuffix("\n") && text.filter { $0 == "\n" }.count == 1, "\(text)")
    }

    @Test("kept to: a chunked body, a Content-Length, HTTP/1.0 without Host (the editor's check refuses it, 403), an empty Host")
    func kept() {
        #expect(head(["host": Self.host, "transfer-encoding": "Chunked"]).protocolRefusal() == nil)
        #expect(head(["host": Self.host, "content-length": "27"]).protocolRefusal() == nil)
        #expect(head(["host": "[::1]:8123"]).protocolRefusal() == nil)
        #expect(head([:], version: "HTTP/1.0").protocolRefusal() == nil)
        #expect(head(["host": ""]).protocolRefusal() == nil)
    }

    @Test("a target in absolute form: its host is the request's Host, its path the path; any other target is 400")
    func absoluteForm() throws {
        let own = head(["host": "evil.example:8123"], path: "http://\(Self.host)/api/book")
        #expect(own.path == "/api/book")
        #expect(own.header("host") == Self.host)
        let foreign = head(["host": Self.host], path: "HTTP://evil.example:8123")
        #expect(foreign.path == "/")
        #expect(foreign.header("host") == "evil.example:8123")
        for target in ["*", "file:///etc/passwd", "127.0.0.1:80", "api/book", "http://"] {
            #expect(head(["host": Self.host], path: target).protocolRefusal()?.status == 400, "\(target)")
        }
    }

    @Test("a token given twice with two values is no token: two cookies, two headers joined, two query arguments")
    func twoTokens() throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let editor = ServeBook.editor(book: book, page: page)
        let good = ServeBook.token, bad = "ffffffffffffffffffffffffffffffff"
        for headers in [["Host": Self.host, "Cookie": "roadbook_token=\(good); roadbook_token=\(bad)"],
                        ["Host": Self.host, "Cookie": ServerRequest.joined("roadbook_token=\(good)", "roadbook_token=\(bad)", name: "cookie")],
                        ["Host": Self.host, "X-Roadbook-Token": ServerRequest.joined(good, bad, name: "x-roadbook-token")]] {
            #expect(editor.respond(to: ServerRequest(method: "GET", path: "/api/book", headers: headers)).status == 403, "\(headers)")
        }
        let query = ["token": ServerRequest.joined(good, bad, name: nil)]
        #expect(editor.respond(to: ServerRequest(method: "GET", path: "/api/book", query: query, headers: ["Host": Self.host])).status == 403)
        // The same token twice is still the token.
        #expect(editor.respond(to: ServerRequest(method: "GET", path: "/api/book",
                                                 headers: ["Host": Self.host, "Cookie": "roadbook_token=\(good); a=b; roadbook_token=\(good)"])).status == 200)
    }

    @Test("a method the editor takes on no path is 501; one it takes elsewhere is 405 with the path's Allow")
    func methods() throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let editor = ServeBook.editor(book: book, page: page)
        for method in ["PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "FOO", "get"] {
            let response = editor.respond(to: ServeBook.request(method, "/api/notes"))
            #expect(response.status == 501, "\(method)")
            #expect(String(decoding: response.body, as: UTF8.self).contains(method), "\(method)")
        }
        for (method, path, allow) in [("POST", "/api/book", "GET, HEAD"), ("GET", "/api/notes", "POST"), ("HEAD", "/api/undo", "POST"),
                                      ("POST", "/api/tulip/1.svg", "GET, HEAD"), ("POST", "/static/app.js", "GET, HEAD")] {
            let response = editor.respond(to: ServeBook.request(method, path))
            #expect(response.status == 405, "\(method) \(path)")
            #expect(response.header("Allow") == allow, "\(method) \(path)")
        }
    }

    @Test("a field given twice, a NUL in a text, a row named by 40,000 characters or by nothing, a body in UTF-16: refused, the book unchanged")
    func bodies() throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let editor = ServeBook.editor(book: book, page: page)
        let before = try Data(contentsOf: book)
        let long = String(repeating: "9", count: 40_000)
        for (body, status, words) in [(##"{"op":"remove","row":"#99","row":"1"}"##, 400, "'row' is given twice"),
                                      (#"{"op":"edit","row":"1","text":"a\u0000b"}"#, 400, "'text' holds a NUL"),
                                      (#"{"op":"add","at":100,"text":"x\u0000"}"#, 400, "'text' holds a NUL"),
                                      ("{\"op\":\"edit\",\"row\":\"\(long)\",\"text\":\"a\"}", 422, "no row is '9999")] {
            let response = editor.respond(to: ServeBook.request("POST", "/api/notes", body: body))
            #expect(response.status == status, "\(body.prefix(60))")
            let message = try #require(object(response)["error"] as? String)
            #expect(message.contains(words), "\(message.prefix(200))")
            #expect(message.count < 200, "the reference is not repeated whole")
        }
        // UTF-16 and UTF-32, which Foundation would read: a row removed by a body the docs do not take.
        for encoding in [String.Encoding.utf16LittleEndian, .utf16, .utf32] {
            let body = try #require(#"{"op":"remove","row":"1"}"#.data(using: encoding))
            let response = editor.respond(to: ServerRequest(method: "POST", path: "/api/notes", headers: ServeBook.request("POST", "/").headers, body: body))
            #expect(response.status == 400, "\(encoding)")
            #expect((try object(response)["error"] as? String) == "the body is not JSON in UTF-8")
        }
        let empty = editor.respond(to: ServeBook.request("POST", "/api/notes", body: #"{"op":"remove","row":" "}"#))
        #expect(empty.status == 400)
        #expect((try object(empty)["error"] as? String)?.contains("'row' is empty") == true)
        #expect(try Data(contentsOf: book) == before)
    }

    @Test("a box of roads over 2° a side is 400 with or without --osm")
    func worldBox() throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let editor = ServeBook.editor(book: book, page: page)
        for query in [["south": "-90", "west": "-180", "north": "90", "east": "180"], ["south": "42", "west": "1", "north": "42.5", "east": "3.5"]] {
            let response = editor.respond(to: ServerRequest(method: "GET", path: "/api/roads", query: query, headers: ServeBook.request("GET", "/").headers))
            #expect(response.status == 400, "\(query)")
            #expect((try object(response)["error"] as? String)?.contains("up to 2°") == true)
        }
    }
}

/// The same on a socket: what libmicrohttpd decodes or lets through before the editor sees it.
@Suite("HTTP's rules on a socket", .serialized)
struct RequestRulesOnTheWireTests {
    func exchange(_ server: EditorServer, _ lines: [String], body: String = "") throws -> String {
        try rawExchange(port: server.server.port, lines.joined(separator: "\r\n") + "\r\n\r\n" + body)
    }

    @Test("an encoded slash or NUL in a path is not decoded: /api%2Fbook and /api/book%00.svg are not /api/book")
    func encodedSlashAndNUL() throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let server = try ServerTests.start(book, page: page)
        defer { server.stop() }
        let host = "Host: 127.0.0.1:\(server.server.port)", token = "X-Roadbook-Token: \(server.editor.security.token)"
        for target in ["/api%2Fbook", "/api%2fbook", "/api/book%00.svg", "/static/leaflet%2Fleaflet.css", "/static/app.js%00"] {
            let answer = try exchange(server, ["GET \(target) HTTP/1.1", host, token, "Connection: close"])
            #expect(answer.hasPrefix("HTTP/1.1 404"), "\(target): \(answer.prefix(60))")
        }
        // The same paths written plainly, and a digit encoded, are found.
        for target in ["/api/book", "/static/leaflet/leaflet.css", "/api/%62ook"] {
            let answer = try exchange(server, ["GET \(target) HTTP/1.1", host, token, "Connection: close"])
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(target): \(answer.prefix(60))")
        }
        // A token cut short at an encoded NUL is not the token.
        let cut = try exchange(server, ["GET /api/book?token=\(server.editor.security.token)%00x HTTP/1.1", host, "Connection: close"])
        #expect(cut.hasPrefix("HTTP/1.1 403"), "\(cut.prefix(60))")
    }

    @Test("a body in a coding it cannot read is answered at once (501), not after the 20 s timeout; two Host lines are 400")
    func framing() throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let server = try ServerTests.start(book, page: page)
        defer { server.stop() }
        let before = try Data(contentsOf: book)
        let host = "Host: 127.0.0.1:\(server.server.port)", token = "X-Roadbook-Token: \(server.editor.security.token)"
        let started = Date()
        let gzip = try exchange(server, ["POST /api/notes HTTP/1.1", host, token, "Transfer-Encoding: gzip, chunked", "Connection: close"],
                                body: "1b\r\n{\"op\":\"remove\",\"row\":\"#1\"}\r\n0\r\n\r\n")
        #expect(gzip.hasPrefix("HTTP/1.1 501"), "\(gzip.prefix(60))")
        let notLast = try exchange(server, ["POST /api/notes HTTP/1.1", host, token, "Transfer-Encoding: gzip", "Connection: close"], body: "{}")
        #expect(notLast.hasPrefix("HTTP/1.1 400"), "\(notLast.prefix(60))")
        #expect(Date().timeIntervalSince(started) < 5)
        let both = try exchange(server, ["POST /api/notes HTTP/1.1", host, token, "Content-Length: 27", "Transfer-Encoding: chunked", "Connection: close"],
                                body: "1b\r\n{\"op\":\"remove\",\"row\":\"#1\"}\r\n0\r\n\r\n")
        #expect(both.hasPrefix("HTTP/1.1 400"), "\(both.prefix(60))")
        let twoHosts = try exchange(server, ["GET /api/book HTTP/1.1", host, "Host: evil.example:\(server.server.port)", token, "Connection: close"])
        #expect(twoHosts.hasPrefix("HTTP/1.1 400"), "\(twoHosts.prefix(60))")
        let twoTokens = try exchange(server, ["GET /api/book HTTP/1.1", host, token, "X-Roadbook-Token: 0", "Connection: close"])
        #expect(twoTokens.hasPrefix("HTTP/1.1 403"), "\(twoTokens.prefix(60))")
        let absolute = try exchange(server, ["GET http://127.0.0.1:\(server.server.port)/api/book HTTP/1.1", host, token, "Connection: close"])
        #expect(absolute.hasPrefix("HTTP/1.1 200"), "\(absolute.prefix(60))")
        let elsewhere = try exchange(server, ["GET http://evil.example:\(server.server.port)/api/book HTTP/1.1", host, token, "Connection: close"])
        #expect(elsewhere.hasPrefix("HTTP/1.1 403"), "\(elsewhere.prefix(60))")
        #expect(try Data(contentsOf: book) == before)
    }
}
