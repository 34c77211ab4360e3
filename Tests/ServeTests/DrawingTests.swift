import Foundation
import Formats
import Model
@testable import Serve
import Testing
import TestSupport

/// The editor's drawings (`GET /api/tulip/ID.svg`, `/api/page/N.png`, `/api/book.pdf`), checked
/// with tools roadbook did not write (xmllint, pdfinfo, the PNG header read by hand) and against
/// what the `roadbook` binary writes for the same book.
@Suite("The editor's drawings: tulips, pages and the PDF")
struct DrawingTests {
    /// The test book with a tulip on row 2 ("Cattle grid"): the road in from below, the exit right
    /// and a gravel road left; returns the note's id.
    static func bookWithTulip(_ book: URL) throws -> Int {
        var loaded = try BookFile.read(contentsOf: book)
        let index = try #require(loaded.notes.firstIndex { $0.text == "Cattle grid" })
        loaded.notes[index].tulip = Tulip(origin: .drawn, roads: [Tulip.Road(role: .entry, angle: 180), Tulip.Road(role: .exit, angle: 90),
                                                                 Tulip.Road(role: .side, angle: -90, roadClass: .gravel)])
        try BookFile.write(loaded, to: book)
        return loaded.notes[index].id
    }

    static var executable: URL { packageRoot().appendingPathComponent(".build/debug/roadbook") }

    /// The `d` of every path of the SVG at `file`, read by xmllint.
    static func paths(_ file: URL) throws -> [String] {
        let out = try runTool("xmllint", ["--xpath", "//*[local-name()='path']/@d", file.path])
        return out.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test("GET /api/tulip/ID.svg: an SVG xmllint reads, drawing the paths `roadbook tulip --row` draws, whatever ?revision says")
    func tulip() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path), "build the package first")
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let id = try Self.bookWithTulip(book)
        let editor = ServeBook.editor(book: book, page: page)
        var request = ServeBook.request("GET", "/api/tulip/\(id).svg")
        request.query = ["revision": "7"]
        let response = editor.respond(to: request)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "image/svg+xml")
        let served = folder.path("served.svg")
        try response.body.write(to: served)
        // Well-formed XML whose root is an <svg> of 300 pt, the size `tulip --row` draws by default.
        let root = try runTool("xmllint", ["--xpath", "concat(local-name(/*), ' ', /*/@width)", served.path])
        #expect(root.trimmingCharacters(in: .whitespacesAndNewlines) == "svg 300pt")
        let drawn = folder.path("cli.svg")
        _ = try runTool(Self.executable.path, ["tulip", book.path, "--row", "2", "-o", drawn.path])
        let expected = try Self.paths(drawn)
        // The entry, the exit with its arrow and the side road: more than three strokes.
        #expect(expected.count >= 3)
        #expect(try Self.paths(served) == expected)
        // Asked again (the page asks each time it shows the row): the same bytes.
        #expect(editor.respond(to: ServeBook.request("GET", "/api/tulip/\(id).svg")).body == response.body)
    }

    @Test("GET /api/tulip/ID.svg answers 404 with one line for a row without a tulip, an unknown id and a malformed one")
    func tulipNotFound() throws {
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let id = try Self.bookWithTulip(book)
        let withoutTulip = try #require(try BookFile.read(contentsOf: book).notes.first { $0.text == "End of the stage" }?.id)
        let editor = ServeBook.editor(book: book, page: page)
        for path in ["/api/tulip/\(withoutTulip).svg", "/api/tulip/999999.svg", "/api/tulip/x\(id).svg", "/api/tulip/\(id).png",
                     "/api/tulip/-\(id).svg", "/api/tulip/.svg"] {
            let response = editor.respond(to: ServeBook.request("GET", path))
            #expect(response.status == 404, "\(path)")
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(text.hasSuffix("\n") && text.dropLast().contains("\n") == false, "\(path): \(text)")
        }
        #expect(editor.respond(to: ServeBook.request("POST", "/api/tulip/\(id).svg")).status == 405)
    }

    /// Width and height of the PNG `data`, read from its IHDR chunk.
    static func pngSize(_ data: Data) throws -> (width: Int, height: Int) {
        let bytes = [UInt8](data)
        try #require(bytes.count > 24)
        #expect(bytes[0..<8] == [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
        #expect(String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR")
        func big(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (big(16), big(20))
    }

    @Test("GET /api/page/N.png: each page of the PDF as a PNG of an A5 sheet at 100 dpi, as `roadbook render --dpi 100` draws it; 404 past the last")
    func pages() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path), "build the package first")
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let editor = ServeBook.editor(book: book, page: page)
        let pdf = editor.respond(to: ServeBook.request("GET", "/api/book.pdf"))
        try pdf.body.write(to: folder.path("served.pdf"))
        let info = try runTool("pdfinfo", [folder.path("served.pdf").path])
        let count = try #require(info.split(separator: "\n").first { $0.hasPrefix("Pages:") }
            .flatMap { Int($0.dropFirst("Pages:".count).trimmingCharacters(in: .whitespaces)) })
        #expect(count >= 2, "the cover and the rows")
        // A5 is 148 × 210 mm: at 100 dpi, 148 / 25.4 × 100 = 582.7 and 210 / 25.4 × 100 = 826.8 pixels.
        for number in 1...count {
            let response = editor.respond(to: ServeBook.request("GET", "/api/page/\(number).png"))
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "image/png")
            let size = try Self.pngSize(response.body)
            #expect(size.width == 583 && size.height == 827, "page \(number): \(size)")
        }
        let drawn = folder.path("cli.png")
        _ = try runTool(Self.executable.path, ["render", book.path, "-o", drawn.path, "--pages", "2", "--dpi", "100"])
        #expect(editor.respond(to: ServeBook.request("GET", "/api/page/2.png")).body == (try Data(contentsOf: drawn)))
        for path in ["/api/page/\(count + 1).png", "/api/page/0.png", "/api/page/two.png", "/api/page/1.svg"] {
            let response = editor.respond(to: ServeBook.request("GET", path))
            #expect(response.status == 404, "\(path)")
            #expect(response.header("Content-Type")?.hasPrefix("text/plain") == true)
        }
    }

    @Test("GET /api/book.pdf: the PDF `roadbook render` writes, as an attachment named after the book")
    func pdf() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path), "build the package first")
        let (folder, book, page) = try ServeBook.folder()
        defer { _ = folder }
        let editor = ServeBook.editor(book: book, page: page)
        let response = editor.respond(to: ServeBook.request("GET", "/api/book.pdf"))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/pdf")
        #expect(response.header("Content-Disposition") == "attachment; filename=\"Serve test.pdf\"")
        let served = folder.path("served.pdf")
        try response.body.write(to: served)
        let drawn = folder.path("cli.pdf")
        _ = try runTool(Self.executable.path, ["render", book.path, "-o", drawn.path])
        let pages = { (file: URL) in try runTool("pdfinfo", [file.path]).split(separator: "\n").first { $0.hasPrefix("Pages:") } }
        #expect(try pages(served) != nil)
        #expect(try pages(served) == (try pages(drawn)))
        #expect(response.body == (try Data(contentsOf: drawn)))
        // Nothing written beside the book.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(names == ["book.json", "cli.pdf", "page", "secret.txt", "served.pdf"])
    }

    @Test("the download's name: plain ASCII as given, quotes and other letters written _ with the UTF-8 name beside")
    func attachmentName() {
        #expect(Editor.attachment("Stage 1.pdf") == "attachment; filename=\"Stage 1.pdf\"")
        #expect(Editor.attachment("Étape \"2\".pdf") == "attachment; filename=\"_tape _2_.pdf\"; filename*=UTF-8''%C3%89tape%20%222%22%2Epdf")
    }
}
