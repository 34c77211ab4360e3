import Foundation
import Formats
import Model
import RoadbookCLI
import Testing
import TestSupport

/// Runs `roadbook` in-process.
func roadbook(_ arguments: [String]) async -> (status: Int32, output: String, errors: String) {
    let console = CapturingConsole()
    let status = await Roadbook.main(arguments, console: console)
    return (status, console.output, console.errors)
}

private let track = """
<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
  <wpt lat="42.5000" lon="1.5010"><name>CP1</name><desc>Cattle grid</desc><type>CP</type></wpt>
  <wpt lat="42.5300" lon="1.5000"><name>Far away</name></wpt>
  <wpt lat="42.5000" lon="1.5060"><name>Turn left at the chapel</name></wpt>
  <trk><name>Short</name><trkseg>
    <trkpt lat="42.5000" lon="1.5000"/><trkpt lat="42.5000" lon="1.5050"/><trkpt lat="42.5000" lon="1.5100"/>
  </trkseg></trk>
</gpx>
"""

@Suite("The command line")
struct CommandLineTests {
    @Test("help lists the commands, and each command has its own help")
    func help() async {
        let top = await roadbook(["--help"])
        #expect(top.status == 0)
        if let mismatch = goldenMismatch(top.output, named: "help.txt") { Issue.record("\(mismatch)") }
        for command in ["build", "render", "inspect", "check", "tulip", "profile", "regenerate", "route", "handles", "apply", "undo-apply", "remove-route", "serve"] {
            let r = await roadbook([command, "--help"])
            #expect(r.status == 0 && r.output.hasPrefix("Usage: roadbook \(command)"))
            if let mismatch = goldenMismatch(r.output, named: "help-\(command).txt") { Issue.record("\(mismatch)") }
        }
    }

    @Test("a wrong command line exits 64 with the usage", arguments: [
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["build", "t.gpx"], "missing -o BOOK.pdf"),
        (["build", "t.gpx", "-o", "b.pdf", "--colour", "red"], "unknown option --colour"),
        (["build", "t.gpx", "-o", "b.pdf", "--off-route-distance", "nan"], "--off-route-distance must be a number"),
        (["build", "t.gpx", "-o", "b.pdf", "--off-route", "maybe"], "--off-route must be one of move, remove, keep"),
        (["build", "-o", "b.pdf"], "missing TRACK"),
        (["inspect"], "missing BOOK.json"),
        (["serve", "b.json", "--tiles", "https://{s}.tile.example/{z}/{x}/{y}.png"], "roadbook serve: --tiles 'https://{s}.tile.example/{z}/{x}/{y}.png' is not a tile address"),
    ])
    func usage(arguments: [String], message: String) async {
        let r = await roadbook(arguments)
        #expect(r.status == 64)
        #expect(r.errors.contains(message), "\(r.errors)")
    }

    @Test("an output that is one of the command's inputs is refused in one line, naming the option; the input stays")
    func outputIsInput() async throws {
        let folder = try TemporaryFolder()
        try track.write(to: folder.path("t.gpx"), atomically: true, encoding: .utf8)
        let book = folder.path("b.json").path
        #expect(await roadbook(["build", folder.path("t.gpx").path, "-o", folder.path("b.pdf").path, "--book", book]).status == 0)
        symlink(book, folder.path("link.json").path)
        let before = try Data(contentsOf: URL(fileURLWithPath: book))
        let link = folder.path("link.json").path
        for (words, message) in [
            (["export", book, "-o", book, "--format", "gpx"], "roadbook export: -o \(book) is the book it reads (an input): choose another output"),
            (["export", book, "-o", link, "--format", "kml"], "roadbook export: -o \(link) is the book it reads"),
            (["render", book, "-o", link, "--png"], "roadbook render: -o \(link) is the book it reads"),
            (["tulip", book, "--sheet", "-o", book], "roadbook tulip: -o \(book) is the book it reads"),
            (["profile", book, "-o", link], "roadbook profile: -o \(link) is the book it reads"),
            (["build", folder.path("t.gpx").path, "-o", folder.path("t.gpx").path], "roadbook build: -o \(folder.path("t.gpx").path) is the track it reads"),
            (["regenerate", book, "--route", folder.path("t.gpx").path, "-o", folder.path("t.gpx").path], "is the route it reads"),
            (["remove-route", book, "-o", folder.path("t.gpx").path], "holds a GPX route, not a book: --force replaces it"),
        ] {
            let r = await roadbook(words)
            #expect(r.status == 1 && r.errors.contains(message), "\(words): \(r.errors)")
            #expect(r.errors.split(separator: "\n").filter { !$0.contains("warning:") }.count == 1, "\(r.errors)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: book)) == before)
        #expect(try String(contentsOf: folder.path("t.gpx"), encoding: .utf8) == track)
    }

    @Test("build writes the PDF and the book; inspect --json lists the notes")
    func buildAndInspect() async throws {
        let folder = try TemporaryFolder()
        try track.write(to: folder.path("t.gpx"), atomically: true, encoding: .utf8)
        let r = await roadbook(["build", folder.path("t.gpx").path, "-o", folder.path("b.pdf").path,
                          "--book", folder.path("b.json").path])
        #expect(r.status == 0, "\(r.errors)")
        #expect(r.errors.contains("t.gpx:4: Far away is"), "the off-route waypoint is reported with its line: \(r.errors)")
        #expect(FileManager.default.fileExists(atPath: folder.path("b.pdf").path))

        let inspect = await roadbook(["inspect", folder.path("b.json").path, "--json"])
        #expect(inspect.status == 0)
        struct Listing: Decodable {
            struct Row: Decodable {
                var index: Int; var distanceAlong: Double; var kind: String; var text: String; var cap: Double?
                var latitude: Double; var longitude: Double; var offsetFromRoute: Double; var onRoute: Bool
            }
            var title: String; var notes: [Row]
        }
        let listing = try JSONDecoder().decode(Listing.self, from: Data(inspect.output.utf8))
        #expect(listing.title == "Short")
        // Sorted by distance: the off-route note sits at its nearest place, the start.
        #expect(listing.notes.map(\.text) == ["Far away", "Cattle grid", "Turn left at the chapel"])
        #expect(listing.notes.map(\.kind) == ["waypoint", "checkpoint", "waypoint"])
        #expect(listing.notes.map(\.onRoute) == [false, true, true])
        #expect(listing.notes[0].distanceAlong == 0)
        #expect(abs(listing.notes[0].offsetFromRoute) > 3000)
        // 0.001° of longitude at 42.5° N is 82.2 m on WGS84.
        #expect(abs(listing.notes[1].distanceAlong - 82.2) < 0.5)
        #expect(abs(listing.notes[2].distanceAlong - 493.1) < 0.5)
        #expect(listing.notes[1].cap.map { abs($0 - 90) < 0.5 } == true)

        let table = await roadbook(["inspect", folder.path("b.json").path])
        #expect(table.output.contains("C.090"))
        #expect(table.output.contains("off route by"))
    }

    @Test("off-route waypoints can be moved onto the route or removed (drop, the former word, still taken)")
    func offRoutePolicies() async throws {
        let folder = try TemporaryFolder()
        try track.write(to: folder.path("t.gpx"), atomically: true, encoding: .utf8)
        for (policy, count, placement) in [("move", 3, Note.Placement.onRoute), ("remove", 2, nil), ("drop", 2, nil)] {
            let book = folder.path("\(policy).json")
            let r = await roadbook(["build", folder.path("t.gpx").path, "-o", folder.path("\(policy).pdf").path,
                              "--book", book.path, "--off-route", policy])
            #expect(r.status == 0)
            let notes = try BookFile.read(contentsOf: book).notes
            #expect(notes.count == count)
            if let placement { #expect(notes.allSatisfy { $0.placement == placement }) }
        }
    }
}

@Suite("Bad input: one line naming the file and line or field, non-zero exit, no output")
struct BadInputTests {
    static let cases: [(name: String, content: String, expected: String)] = [
        ("truncated", #"<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"# +
            "\n<trkpt lat=\"42.5\" lon=\"1.5\"/>\n<trkpt lat=", "bad.gpx:3"),
        ("not XML", "lat,lon\n42.5,1.5\n", "bad.gpx:1"),
        ("wrong root", #"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>"#, "<svg>"),
        ("NaN", #"<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"# +
            "\n<trkpt lat=\"NaN\" lon=\"1.5\"/><trkpt lat=\"42.5\" lon=\"1.6\"/></trkseg></trk></gpx>", "bad.gpx:2"),
        ("out of range", #"<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"# +
            "\n\n<trkpt lat=\"42.5\" lon=\"181\"/><trkpt lat=\"42.5\" lon=\"1.6\"/></trkseg></trk></gpx>", "bad.gpx:3"),
        ("empty track", #"<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg></trkseg></trk></gpx>"#,
            "bad.gpx"),
        ("one point", #"<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"# +
            #"<trkpt lat="42.5" lon="1.5"/></trkseg></trk></gpx>"#, "one point"),
        ("billion laughs", """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
            <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="1" lon="1"><name>&lol3;</name></wpt></gpx>
            """, "DOCTYPE"),
    ]

    @Test("each bad track fails cleanly", arguments: cases.indices)
    func badTrack(_ i: Int) async throws {
        let (name, content, expected) = Self.cases[i]
        let folder = try TemporaryFolder()
        let input = folder.path("bad.gpx")
        try content.write(to: input, atomically: true, encoding: .utf8)
        let r = await roadbook(["build", input.path, "-o", folder.path("b.pdf").path, "--book", folder.path("b.json").path])
        #expect(r.status == 1, "\(name)")
        let lines = r.errors.split(separator: "\n")
        #expect(lines.count == 1, "\(name): one line, got \(r.errors)")
        #expect(r.errors.contains(input.path) && r.errors.contains(expected), "\(name): \(r.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["bad.gpx"], "\(name): no output")
        #expect(try String(contentsOf: input, encoding: .utf8) == content, "the input is never modified")
    }

    @Test("an output folder that does not exist, or cannot be written, fails before anything is written")
    func unwritableOutput() async throws {
        let folder = try TemporaryFolder()
        try track.write(to: folder.path("t.gpx"), atomically: true, encoding: .utf8)
        let r = await roadbook(["build", folder.path("t.gpx").path, "-o", folder.path("t.pdf").path,
                          "--book", folder.path("no/such/b.json").path])
        #expect(r.status == 1)
        #expect(r.errors.contains("no/such/b.json: cannot write"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["t.gpx"])
        let missing = await roadbook(["build", folder.path("nope.gpx").path, "-o", folder.path("t.pdf").path])
        #expect(missing.status == 1 && missing.errors.contains("nope.gpx"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["t.gpx"])
    }

    @Test("a book file that is not one fails with its name")
    func badBook() async throws {
        let folder = try TemporaryFolder()
        try "{\"schemaVersion\": 99}".write(to: folder.path("b.json"), atomically: true, encoding: .utf8)
        let r = await roadbook(["render", folder.path("b.json").path, "-o", folder.path("b.pdf").path])
        #expect(r.status == 1 && r.errors.contains("b.json: schemaVersion is 99"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("b.pdf").path))
    }
}

@Suite("roadbook render")
struct RenderCommandTests {
    /// The sample's book file, built once per test.
    func sampleBook(in folder: TemporaryFolder) async throws -> URL {
        let sample = packageRoot().appendingPathComponent("samples/andorra-envalira.gpx")
        let book = folder.path("sample.json")
        // Waypoint rows only: these tests are about printing, not about turn notes.
        let r = await roadbook(["build", sample.path, "-o", folder.path("sample.pdf").path, "--book", book.path, "--no-turns"])
        #expect(r.status == 0, "\(r.errors)")
        return book
    }

    @Test("the sample book renders in every template: fonts embedded, qpdf clean, identical twice",
          arguments: ["a5", "roll", "a4", "a4-2up", "letter", "letter-2up"])
    func everyTemplate(template: String) async throws {
        let folder = try TemporaryFolder()
        let book = try await sampleBook(in: folder)
        let a = folder.path("a.pdf"), b = folder.path("b.pdf")
        #expect(await roadbook(["render", book.path, "-o", a.path, "--template", template]).status == 0)
        #expect(await roadbook(["render", book.path, "-o", b.path, "--template", template]).status == 0)
        #expect(try Data(contentsOf: a) == Data(contentsOf: b))
        _ = try runTool("qpdf", ["--check", a.path])
        for line in try runTool("pdffonts", [a.path]).split(separator: "\n").dropFirst(2) {
            #expect(line.split(separator: " ").contains("yes"), "not embedded: \(line)")
        }
        let text = try runTool("pdftotext", [a.path, "-"])
        for marker in ["DSS", "CP1", "CP2", "R10", "ASS", "38.92"] { #expect(text.contains(marker), "\(template): \(marker)") }
    }

    @Test("PNG and SVG pages, with a page list; without the cover")
    func images() async throws {
        let folder = try TemporaryFolder()
        let book = try await sampleBook(in: folder)
        let png = await roadbook(["render", book.path, "-o", folder.path("p.png").path, "--png", "--dpi", "60", "--pages", "1,3-4"])
        #expect(png.status == 0, "\(png.errors)")
        #expect(png.output.split(separator: "\n").map { URL(fileURLWithPath: String($0)).lastPathComponent } == ["p-1.png", "p-3.png", "p-4.png"])
        let svg = await roadbook(["render", book.path, "-o", folder.path("p.svg").path, "--svg", "--pages", "2", "--no-cover"])
        #expect(svg.status == 0 && svg.output.hasSuffix("p.svg\n"))
        _ = try runTool("xmllint", ["--noout", folder.path("p.svg").path])
        let plain = await roadbook(["render", book.path, "-o", folder.path("n.pdf").path, "--no-cover"])
        // Three pages of rows and the lexicon of the symbols the rows use.
        #expect(plain.output.contains("4 pages"))
    }

    @Test("render's own mistakes: unknown template, bad page list, page out of range, unknown extension", arguments: [
        ("out.png", ["--template", "a3"], 1, "a3: is not a template"),
        ("out.png", ["--png", "--pages", "2-1"], 64, "--pages '2-1'"),
        ("out.png", ["--png", "--pages", "9"], 1, "page 9 does not exist; the book has 5 pages"),
        ("out.pdf", ["--pages", "1"], 64, "--pages is for PNG and SVG pages"),
        ("out.png", ["--png", "--svg"], 64, "choose one of --png and --svg"),
        ("out.svg", ["--dpi", "100"], 64, "--dpi is for PNG pages"),
        ("out.tiff", [], 64, "ends in .tiff, not a format render writes: use .pdf, .png, .svg"),
    ])
    func mistakes(output: String, extra: [String], status: Int32, message: String) async throws {
        let folder = try TemporaryFolder()
        let book = try await sampleBook(in: folder)
        let r = await roadbook(["render", book.path, "-o", folder.path(output).path] + extra)
        #expect(r.status == status, "\(r.errors)")
        #expect(r.errors.contains(message), "\(r.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.path(output).path))
    }

    @Test("render writes what the output's extension names")
    func formatFromExtension() async throws {
        let folder = try TemporaryFolder()
        let book = try await sampleBook(in: folder)
        let png = await roadbook(["render", book.path, "-o", folder.path("page.png").path, "--pages", "1", "--dpi", "40"])
        #expect(png.status == 0, "\(png.errors)")
        #expect(try Data(contentsOf: folder.path("page.png")).starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG signature")
        let svg = await roadbook(["render", book.path, "-o", folder.path("page.svg").path, "--pages", "2"])
        #expect(svg.status == 0, "\(svg.errors)")
        _ = try runTool("xmllint", ["--noout", folder.path("page.svg").path])
    }

    @Test("a broken template file names its field")
    func brokenTemplate() async throws {
        let folder = try TemporaryFolder()
        let book = try await sampleBook(in: folder)
        var text = try String(contentsOf: packageRoot().appendingPathComponent("Templates/a5.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: "\"header\": 15", with: "\"header\": -15")
        try text.write(to: folder.path("mine.json"), atomically: true, encoding: .utf8)
        let r = await roadbook(["render", book.path, "-o", folder.path("o.pdf").path, "--template", folder.path("mine.json").path])
        #expect(r.status == 1 && r.errors.contains("mine.json: header must be from 0 to 2000 millimetres, found -15"), "\(r.errors)")
    }
}
