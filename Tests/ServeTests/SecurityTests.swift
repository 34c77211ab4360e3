import Foundation
import Serve
import Testing
import TestSupport

/// The checks every request passes: the token, the Host (against DNS rebinding) and the Origin
/// (against other sites), each refusal a 403 with one line; and the page's files, no path out of
/// their folder.
@Suite("The editor's security checks and static files")
struct SecurityTests {
    let host = "127.0.0.1:\(ServeBook.port)"
    let cookie = "roadbook_token=\(ServeBook.token)"

    func answer(_ path: String, method: String = "GET", query: [String: String] = [:], headers: [String: String]) throws -> ServerResponse {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        return ServeBook.editor(book: book, page: page)
            .respond(to: ServerRequest(method: method, path: path, query: query, headers: headers))
    }

    @Test("no token, a wrong one, a token of another length: 403 with one line of text")
    func token() throws {
        for headers in [["Host": host], ["Host": host, "Cookie": "roadbook_token=ffffffffffffffffffffffffffffffff"],
                        ["Host": host, "Cookie": "roadbook_token=\(ServeBook.token)0"], ["Host": host, "X-Roadbook-Token": "0"],
                        ["Host": host, "Cookie": "other=\(ServeBook.token)"]] {
            let response = try answer("/api/book", headers: headers)
            #expect(response.status == 403, "\(headers)")
            #expect(response.header("Content-Type")?.hasPrefix("text/plain") == true)
            #expect(String(decoding: response.body, as: UTF8.self).filter { $0 == "\n" }.count == 1)
        }
        #expect(try answer("/api/book", query: ["token": "nope"], headers: ["Host": host]).status == 403)
    }

    @Test("the token in the cookie, the header or the query is taken; the query sets the cookie, HttpOnly and SameSite=Strict")
    func tokenTaken() throws {
        #expect(try answer("/api/book", headers: ["Host": host, "Cookie": "a=b; \(cookie); c=d"]).status == 200)
        #expect(try answer("/api/book", headers: ["Host": host, "X-Roadbook-Token": ServeBook.token]).status == 200)
        let first = try answer("/", query: ["token": ServeBook.token], headers: ["Host": host])
        #expect(first.status == 200)
        let set = try #require(first.header("Set-Cookie"))
        #expect(set.hasPrefix("roadbook_token=\(ServeBook.token);"))
        for part in ["HttpOnly", "SameSite=Strict", "Path=/"] { #expect(set.contains(part), "\(set)") }
        #expect(try answer("/api/book", headers: ["Host": host, "Cookie": cookie]).header("Set-Cookie") == nil)
    }

    @Test("a Host that is not the server's (DNS rebinding) is refused, the token notwithstanding",
          arguments: ["evil.example:8123", "127.0.0.1:8124", "127.0.0.1", "localhost.evil.example:8123", "", "127.0.0.2:8123"])
    func wrongHost(_ host: String) throws {
        let response = try answer("/api/book", headers: ["Host": host, "Cookie": cookie])
        #expect(response.status == 403)
        #expect(String(decoding: response.body, as: UTF8.self).contains("Host"))
    }

    @Test("localhost and [::1] with the port are the server too")
    func loopbackNames() throws {
        for name in ["localhost:8123", "LOCALHOST:8123", "[::1]:8123"] {
            #expect(try answer("/api/book", headers: ["Host": name, "Cookie": cookie]).status == 200, "\(name)")
        }
        #expect(try answer("/api/book", headers: ["Cookie": cookie]).status == 403, "no Host at all")
    }

    @Test("a request from another site (its Origin) is refused; one from the editor's own page is answered")
    func origin() throws {
        for origin in ["http://evil.example", "http://127.0.0.1:8124", "https://127.0.0.1:8123", "null", "http://localhost:8123"] {
            let response = try answer("/api/notes", method: "POST", headers: ["Host": host, "Cookie": cookie, "Origin": origin])
            #expect(response.status == 403, "\(origin)")
        }
        let own = try answer("/api/book", headers: ["Host": host, "Cookie": cookie, "Origin": "http://\(host)"])
        #expect(own.status == 200)
    }

    @Test("the token is 32 hexadecimal digits, a new one each time")
    func newToken() {
        let tokens = (0..<50).map { _ in EditorSecurity.newToken() }
        #expect(Set(tokens).count == 50)
        for token in tokens {
            #expect(token.count == 32)
            #expect(token.allSatisfy { "0123456789abcdef".contains($0) })
        }
    }

    @Test("the page and its files, each with its Content-Type")
    func staticFiles() throws {
        let headers = ["Host": host, "Cookie": cookie]
        let index = try answer("/", headers: headers)
        #expect(index.status == 200)
        #expect(index.header("Content-Type") == "text/html; charset=utf-8")
        #expect(String(decoding: index.body, as: UTF8.self).contains("<title>roadbook</title>"))
        let script = try answer("/static/app.js", headers: headers)
        #expect(script.status == 200)
        #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(String(decoding: script.body, as: UTF8.self) == "console.log('editor')")
        let css = try answer("/static/leaflet/leaflet.css", headers: headers)
        #expect(css.status == 200)
        #expect(css.header("Content-Type") == "text/css; charset=utf-8")
    }

    @Test("no path leads out of the page's folder",
          arguments: ["/static/../secret.txt", "/static/leaflet/../../secret.txt", "/static/..", "/static/", "/static//etc/passwd",
                      "/static/.hidden", "/static/leaflet", "/static/nothing.js", "/static/a\\..\\secret.txt", "/static/out/secret.txt"])
    func outOfFolder(_ path: String) throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        try Data("hidden".utf8).write(to: page.appendingPathComponent(".hidden"))
        // A link inside the folder to the folder above it: followed, it leads out.
        try FileManager.default.createSymbolicLink(at: page.appendingPathComponent("out"), withDestinationURL: folder.url)
        let response = ServeBook.editor(book: book, page: page)
            .respond(to: ServerRequest(method: "GET", path: path, headers: ["Host": host, "Cookie": cookie]))
        #expect(response.status == 404)
        #expect(!String(decoding: response.body, as: UTF8.self).contains("secret\n"))
        #expect(String(decoding: response.body, as: UTF8.self) != "secret")
    }
}
