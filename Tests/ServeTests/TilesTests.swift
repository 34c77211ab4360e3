import Foundation
import Serve
import Testing
import TestSupport
import Workflows

/// `roadbook serve --tiles URL`: the address checked, told to the page by GET /api/settings, and
/// the one origin the Content-Security-Policy lets images come from besides the server itself.
@Suite("The editor's map tiles and Content-Security-Policy")
struct TilesTests {
    /// The policy without tiles, written out here: the page's own files and requests, nothing else.
    static let policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    func editor(tiles: String?) throws -> (TemporaryFolder, Editor) {
        let (folder, book, page) = try ServeBook.folder()
        let settings = Editor.Settings(book: book, page: StaticFiles(folder: page), tiles: try tiles.map { try TileTemplate($0) })
        return (folder, Editor(settings: settings, security: EditorSecurity(token: ServeBook.token, port: ServeBook.port)))
    }

    @Test("without --tiles: the page, its files and the API allow images, scripts, styles and requests from the server only")
    func policyWithoutTiles() throws {
        let (folder, editor) = try editor(tiles: nil)
        defer { _ = folder }
        for path in ["/", "/static/app.js", "/api/book", "/api/settings", "/nowhere"] {
            let response = editor.respond(to: ServeBook.request("GET", path))
            #expect(response.header("Content-Security-Policy") == Self.policy, "\(path)")
        }
    }

    @Test("with --tiles: images may come from the tile server's origin too, and nothing else changes")
    func policyWithTiles() throws {
        let (folder, editor) = try editor(tiles: "https://Tile.Example.org:8443/base/{z}/{x}/{y}.png?key=a1")
        defer { _ = folder }
        for path in ["/", "/api/book"] {
            let policy = try #require(editor.respond(to: ServeBook.request("GET", path)).header("Content-Security-Policy"))
            #expect(policy == Self.policy.replacingOccurrences(of: "img-src 'self';", with: "img-src 'self' https://tile.example.org:8443;"))
            // No other directive names the tile server, nor any other origin.
            let others = policy.split(separator: ";").filter { !$0.contains("img-src") }
            #expect(!others.contains { $0.contains("tile.example") || $0.contains("http") }, "\(policy)")
        }
    }

    @Test("GET /api/settings: the tile address as given, or null")
    func settings() throws {
        let template = "http://127.0.0.1:8765/{z}/{x}/{y}.png"
        let (folder, withTiles) = try editor(tiles: template)
        defer { _ = folder }
        let answer = withTiles.respond(to: ServeBook.request("GET", "/api/settings"))
        #expect(answer.status == 200)
        #expect(try object(answer)["tiles"] as? String == template)
        let (other, without) = try editor(tiles: nil)
        defer { _ = other }
        let none = without.respond(to: ServeBook.request("GET", "/api/settings"))
        #expect(String(decoding: none.body, as: UTF8.self) == #"{"tiles":null}"#)
        #expect(without.respond(to: ServeBook.request("POST", "/api/settings", body: "{}")).status == 405)
    }

    @Test("tile addresses taken, with the origin images may come from", arguments: [
        ("https://tile.example.org/{z}/{x}/{y}.png", "https://tile.example.org"),
        ("HTTP://Tiles.Example:8080/{z}/{x}/{y}.png", "http://tiles.example:8080"),
        ("http://127.0.0.1:8765/{z}/{x}/{y}.png", "http://127.0.0.1:8765"),
        ("http://[::1]:8765/t/{z}/{x}/{y}", "http://[::1]:8765"),
        ("https://tile.example/wmts?layer=a&z={z}&x={x}&y={y}&key=a%20b", "https://tile.example"),
    ])
    func taken(template: String, origin: String) throws {
        let tiles = try TileTemplate(template)
        #expect(tiles.origin == origin)
        #expect(tiles.template == template)
    }

    @Test("tile addresses refused, with the reason", arguments: [
        ("ftp://tile.example/{z}/{x}/{y}.png", "it is not an http:// or https:// address"),
        ("tile.example/{z}/{x}/{y}.png", "it is not an http:// or https:// address"),
        ("javascript:alert(1)//{z}/{x}/{y}", "it is not an http:// or https:// address"),
        ("https://{s}.tile.example/{z}/{x}/{y}.png", "its server has a placeholder: name one server, the page loads images from that one only"),
        ("https://user:secret@tile.example/{z}/{x}/{y}.png", "it names a user: a tile server is asked without one"),
        ("https://tile.example/{z}/{y}.png", "it has no {x}: Leaflet fills in {z}, {x} and {y}"),
        ("https://tile.example/tiles.png", "it has no {z} or {x} or {y}: Leaflet fills in {z}, {x} and {y}"),
        ("https://tile.example/{z}/{x}/{y}{r}.png", "{r} is not one of {z}, {x} and {y}"),
        ("https://tile.example:0/{z}/{x}/{y}.png", "'tile.example:0' is not a server name or address (with a port, if any)"),
        ("https://tile.example:+80/{z}/{x}/{y}.png", "'tile.example:+80' is not a server name or address (with a port, if any)"),
        ("https://tile.example;img-src */{z}/{x}/{y}.png", "'tile.example;img-src *' is not a server name or address (with a port, if any)"),
        ("https:///{z}/{x}/{y}.png", "'' is not a server name or address (with a port, if any)"),
        ("https://tile.example/{z}/{x}/{y}.png\r\nX: y", "it is not a valid address (spaces or other characters to percent-encode)"),
        ("https://tile.example/{z} /{x}/{y}.png", "it is not a valid address (spaces or other characters to percent-encode)"),
    ])
    func refused(template: String, reason: String) {
        #expect(throws: TileTemplate.Refusal(reason: reason)) { _ = try TileTemplate(template) }
    }
}
