import Foundation
import Formats
import Model
import RouteEditing
import Testing
import TestSupport
import Workflows

@Suite("Numbers and messages of the command line")
struct HardeningTests {
    func sampleBook(in folder: TemporaryFolder, template: String? = nil) async throws -> URL {
        let sample = packageRoot().appendingPathComponent("samples/andorra-envalira.gpx")
        let book = folder.path("sample.json")
        let r = await roadbook(["build", sample.path, "-o", folder.path("sample.pdf").path, "--book", book.path, "--no-turns"]
                               + (template.map { ["--template", $0] } ?? []))
        #expect(r.status == 0, "\(r.errors)")
        return book
    }

    @Test("--pages with a range to the largest Int is refused before any page is listed", arguments: [
        "1-9223372036854775807", "100001", "2-100001",
    ])
    func hugePages(_ pages: String) async throws {
        let r = await roadbook(["render", "b.json", "--png", "--pages", pages, "-o", "/tmp/never.png"])
        #expect(r.status == 64 && r.errors.hasPrefix("roadbook render: --pages '\(pages)': page "), "\(r.errors)")
        #expect(r.errors.contains("is past 100000"))
    }

    @Test("what the library leaves to its caller is worded here with the option that gives it: --dpi, --dem or --elevation")
    func remediesNameTheOptions() async throws {
        let folder = try TemporaryFolder()
        let book = try await sampleBook(in: folder)
        let png = await roadbook(["render", book.path, "-o", folder.path("p.png").path, "--pages", "1", "--dpi", "2400"])
        #expect(png.status == 1 && png.errors.hasPrefix("roadbook render: \(folder.path("p.png").path): cannot render: renderPNG failed: a page at 2400 dpi would be "), "\(png.errors)")
        #expect(png.errors.hasSuffix("; lower --dpi\n"), "\(png.errors)")
        let profile = await roadbook(["profile", book.path, "-o", folder.path("p.svg").path])
        #expect(profile.errors == "roadbook profile: \(book.path): the book has no terrain: build it with --dem or --elevation\n")
    }

    @Test("a book naming a template by path is refused at its field; the path is never opened")
    func bookTemplatePath() async throws {
        let folder = try TemporaryFolder()
        let book = try await sampleBook(in: folder)
        let text = try String(contentsOf: book, encoding: .utf8)
            .replacingOccurrences(of: "\"template\" : \"a5\"", with: "\"template\" : \"/nonexistent/mine.json\"")
        try text.write(to: book, atomically: true, encoding: .utf8)
        let r = await roadbook(["render", book.path, "-o", folder.path("o.pdf").path])
        #expect(r.status == 1, "\(r.errors)")
        #expect(r.errors == "roadbook render: \(book.path): settings.template '/nonexistent/mine.json' is not a built-in template: use one of a5, roll, a4, a4-2up, letter, letter-2up; give a template file on the command line with --template\n")
        // With the template given on the command line instead, it prints.
        let mine = packageRoot().appendingPathComponent("Templates/roll.json").path
        let fixed = text.replacingOccurrences(of: "\"template\" : \"/nonexistent/mine.json\"", with: "\"template\" : \"a5\"")
        try fixed.write(to: book, atomically: true, encoding: .utf8)
        #expect(await roadbook(["render", book.path, "-o", folder.path("o.pdf").path, "--template", mine]).status == 0)
    }

    @Test("build with a template file prints on it but stores a built-in name in the book")
    func buildTemplateFile() async throws {
        let folder = try TemporaryFolder()
        let mine = folder.path("mine.json")
        try FileManager.default.copyItem(at: packageRoot().appendingPathComponent("Templates/a4.json"), to: mine)
        let book = try await sampleBook(in: folder, template: mine.path)
        #expect(try BookFile.read(contentsOf: book).settings.template == "a5")
    }

    @Test("the elevation cache follows ROADBOOK_CACHE, then XDG_CACHE_HOME, then HOME", arguments: [
        (["ROADBOOK_CACHE": "/c", "XDG_CACHE_HOME": "/x", "HOME": "/h"], "/c/elevation"),
        (["XDG_CACHE_HOME": "/x", "HOME": "/h"], "/x/roadbook/elevation"),
        (["XDG_CACHE_HOME": "relative", "HOME": "/h"], "/h/.cache/roadbook/elevation"),
        (["XDG_CACHE_HOME": "", "HOME": "/h"], "/h/.cache/roadbook/elevation"),
        (["HOME": "/h"], "/h/.cache/roadbook/elevation"),
    ])
    func cacheFolder(environment: [String: String], expected: String) {
        #expect(TerrainRequest.defaultCacheFolder(environment: environment).path == expected)
    }

    @Test("a server error prints the engine's stored reason on one line, not 'Server error'")
    func serverErrorMessage() {
        let body = String(repeating: "b", count: 150)
        let message = RouteMessage.serverError(detail: "OSRM: server error (HTTP 500): «\(body)»")
        #expect(message.text.hasPrefix("OSRM: server error (HTTP 500): «bbbb"))
        #expect(RouteMessage.serverError(detail: "OSRM: server error (HTTP 500)").text == "OSRM: server error (HTTP 500)")
        #expect(RouteMessage.serverError(detail: "line one\nline two").text == "line one line two")
        #expect(RouteMessage.serverError(detail: String(repeating: "x", count: 5_000)).text.count == RouteMessage.maximumDetailLength + 1)
    }

    @Test("a book extreme in a field is refused by render in one line naming the file and the field")
    func renderRefusesExtremeBook() async throws {
        let folder = try TemporaryFolder()
        let book = try await sampleBook(in: folder)
        let text = try String(contentsOf: book, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "\"offRouteDistance\" : 50", with: "\"offRouteDistance\" : 1e400")
        #expect(edited != text)
        try edited.write(to: book, atomically: true, encoding: .utf8)
        let r = await roadbook(["render", book.path, "-o", folder.path("o.pdf").path])
        #expect(r.status == 1 && r.errors == "roadbook render: \(book.path): settings.offRouteDistance: the number 1e400 is out of range (a number here is at most about 1.8e308)\n", "\(r.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("o.pdf").path))
    }
}
