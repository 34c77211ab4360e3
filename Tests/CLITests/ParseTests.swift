import AtomicFile
import Foundation
import Geo
import Model
@testable import RoadbookCLI
import Testing
import TestSupport
import Workflows

/// Each command's declaration, parsed without running: accepted command lines give the values the
/// command runs with; refused ones give exactly the one line the command line prints.
@Suite("Parsing the command line")
struct ParseTests {
    static var commands: [any Command.Type] { Roadbook.commands }

    @Test("build: values, defaults, the terrain group")
    func build() throws {
        let plain = try BuildCommand.parse(["t.gpx", "-o", "b.pdf"])
        #expect(plain.track.path.hasSuffix("/t.gpx") && plain.output.lastPathComponent == "b.pdf")
        #expect(plain.bookOutput == nil && plain.cover && plain.turns && plain.osm == nil)
        #expect(plain.settings.units == .kilometres && plain.settings.offRouteDistance == 50 && plain.offRoute == .keep)
        #expect(plain.terrain.request.isEmpty && plain.terrain.request.spacing == 15)

        let full = try BuildCommand.parse(["--output=b.pdf", "--book", "b.json", "--title", "Stage 3", "--rally", "R", "--stage", "3",
                                           "--date", "today", "--units", "mi", "--template", "roll", "--no-cover",
                                           "--off-route-distance", "120", "--off-route", "drop", "--osm", "a.osm.pbf",
                                           "--dem", "a.hgt", "--dem", "tiles", "--elevation", "valhalla:http://127.0.0.1:8002",
                                           "--profile-spacing", "30", "--", "-odd.gpx"])
        #expect(full.track.lastPathComponent == "-odd.gpx", "after -- a word is a positional")
        #expect(full.bookOutput?.lastPathComponent == "b.json" && full.title == "Stage 3" && full.rally == "R")
        #expect(full.stage == "3" && full.date == "today" && !full.cover && full.osm?.lastPathComponent == "a.osm.pbf")
        #expect(full.settings.units == .miles && full.settings.template == "roll" && full.settings.offRouteDistance == 120)
        #expect(full.offRoute == .remove, "drop, the former word for remove, is still taken")
        #expect(try BuildCommand.parse(["t.gpx", "-o", "b.pdf", "--off-route", "remove"]).offRoute == .remove)
        #expect(full.terrain.request.dems.map(\.lastPathComponent) == ["a.hgt", "tiles"])
        #expect(full.terrain.request.services.map(\.text) == ["valhalla:http://127.0.0.1:8002"])
        #expect(full.terrain.request.spacing == 30)
    }

    @Test("build's refusals, word for word", arguments: [
        ([], "missing -o BOOK.pdf"),
        (["-o", "b.pdf"], "missing TRACK"),
        (["t.gpx", "-o"], "-o needs a value"),
        (["t.gpx", "-o", "--book"], "-o needs a value"),
        (["t.gpx", "-o", "b.pdf", "-o", "c.pdf"], "--output is given twice"),
        (["t.gpx", "-o", "b.pdf", "u.gpx"], "unexpected argument 'u.gpx'"),
        (["t.gpx", "-o", "b.pdf", "--colour", "red"], "unknown option --colour"),
        (["t.gpx", "-o", "b.pdf", "-x"], "unknown option -x"),
        (["t.gpx", "-o", "b.pdf", "--no-cover=yes"], "unknown option --no-cover=yes"),
        (["t.gpx", "-o", "b.pdf", "--units", "furlongs"], "--units must be one of km, mi, not 'furlongs'"),
        (["t.gpx", "-o", "b.pdf", "--off-route-distance", "nan"], "--off-route-distance must be a number from 1.0 to 100000.0, not 'nan'"),
        (["t.gpx", "-o", "b.pdf", "--off-route-distance", "0"], "--off-route-distance must be a number from 1.0 to 100000.0, not '0'"),
        (["t.gpx", "-o", "b.pdf", "--off-route", "maybe"], "--off-route must be one of move, remove, keep, not 'maybe'"),
        (["t.gpx", "-o", "b.pdf", "--osm", "a.osm", "--no-turns"], "--osm is for turn notes; it makes no sense with --no-turns"),
        (["t.gpx", "-o", "b.pdf", "--book", "b.pdf"], "--book and -o name the same file"),
        (["t.gpx", "-o", "b.pdf", "--profile-spacing", "5000"], "--profile-spacing must be a number from 1.0 to 1000.0, not '5000'"),
        (["t.gpx", "-o", "b.pdf", "--elevation", "srtm"], "--elevation 'srtm': write opentopodata:URL, open-elevation:URL or valhalla:URL"),
        (["t.gpx", "-o", "b.pdf", "--elevation", "opentopodata:https://x.org/srtm"],
         "--elevation 'opentopodata:https://x.org/srtm': an OpenTopoData URL ends in /v1/DATASET"),
        (["t.gpx", "-o", "b.pdf", "--elevation", "gmaps:https://x.org"],
         "--elevation 'gmaps:https://x.org': unknown service 'gmaps'; use opentopodata, open-elevation or valhalla"),
    ])
    func buildRefusals(words: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try BuildCommand.parse(words) }
    }

    @Test("render: PDF, PNG with dpi and pages, SVG")
    func render() throws {
        let pdf = try RenderCommand.parse(["b.json", "-o", "b.pdf", "--template", "a4"])
        guard case .pdf = pdf.format else { Issue.record("\(pdf.format)"); return }
        #expect(pdf.template == "a4" && pdf.pages == nil && pdf.cover)
        let png = try RenderCommand.parse(["b.json", "-o", "p.png", "--png", "--dpi", "60", "--pages", "1,3-4", "--no-cover"])
        guard case .png(let dpi) = png.format else { Issue.record("\(png.format)"); return }
        #expect(dpi == 60 && png.pages == [1, 3, 4] && !png.cover)
        guard case .png(150) = try RenderCommand.parse(["b.json", "-o", "p.png", "--png"]).format else { Issue.record("dpi 150"); return }
        let svg = try RenderCommand.parse(["b.json", "-o", "p.svg", "--svg", "--pages", "2"])
        guard case .svg = svg.format else { Issue.record("\(svg.format)"); return }
    }

    @Test("render: without --png or --svg, the output's extension chooses the format", arguments: [
        ("page.png", "png(dpi: 150.0)"), ("PAGE.PNG", "png(dpi: 150.0)"), ("page.svg", "svg"), ("book.pdf", "pdf"),
        ("dir.v2/book.Pdf", "pdf"),
    ])
    func renderFormatFromExtension(output: String, format: String) throws {
        #expect("\(try RenderCommand.parse(["b.json", "-o", output]).format)" == format)
    }

    @Test("render: --dpi and --pages follow the format the extension chose; a flag overrides the extension")
    func renderExtensionWithOptions() throws {
        let png = try RenderCommand.parse(["b.json", "-o", "p.png", "--dpi", "60", "--pages", "2"])
        guard case .png(60) = png.format else { Issue.record("\(png.format)"); return }
        #expect(png.pages == [2])
        guard case .svg = try RenderCommand.parse(["b.json", "-o", "p.png", "--svg"]).format else { Issue.record("--svg"); return }
        guard case .png = try RenderCommand.parse(["b.json", "-o", "pages", "--png"]).format else { Issue.record("--png"); return }
    }

    @Test("render's refusals, word for word", arguments: [
        (["b.json"], "missing -o OUT"),
        (["b.json", "-o", "p.png", "--png", "--svg"], "choose one of --png and --svg"),
        (["b.json", "-o", "p.pdf", "--dpi", "100"], "--dpi is for PNG pages (-o OUT.png, or --png)"),
        (["b.json", "-o", "p.png", "--svg", "--dpi", "100"], "--dpi is for PNG pages (-o OUT.png, or --png)"),
        (["b.json", "-o", "p.png", "--png", "--dpi", "5"], "--dpi must be a number from 10.0 to 2400.0, not '5'"),
        (["b.json", "-o", "p.pdf", "--pages", "1"], "--pages is for PNG and SVG pages; a PDF holds every page"),
        (["b.json", "-o", "page.jpg"], "-o page.jpg ends in .jpg, not a format render writes: use .pdf, .png, .svg, or give --png or --svg"),
        (["b.json", "-o", "out/book"], "-o out/book has no extension: use .pdf, .png, .svg, or give --png or --svg"),
        (["b.json", "-o", "p.png", "--png", "--pages", "2-1"], "--pages '2-1': write pages as 3, 2-5 or 1,3,6-8 (pages count from 1)"),
    ])
    func renderRefusals(words: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try RenderCommand.parse(words) }
    }

    @Test("inspect, tulip, profile: values and defaults")
    func smallCommands() throws {
        #expect(try InspectCommand.parse(["b.json", "--json"]).json)
        #expect(try !InspectCommand.parse(["b.json"]).json)
        let row = try TulipCommand.parse(["b.json", "--row", "3", "-o", "t.svg", "--size", "200"])
        #expect(row.row == 3 && row.size == 200 && row.columns == 6)
        let sheet = try TulipCommand.parse(["b.json", "--sheet", "-o", "s.png", "--columns", "4"])
        #expect(sheet.row == nil && sheet.size == nil && sheet.columns == 4)
        let profile = try ProfileCommand.parse(["b.json", "-o", "p.png"])
        #expect(profile.width == 720 && profile.height == 260)
        #expect(try ProfileCommand.parse(["b.json", "-o", "p.png", "--width", "1000", "--height=300"]).height == 300)
    }

    @Test("serve: the book, a port (0 by default: a free one), the host, --open")
    func serve() throws {
        let plain = try ServeCommand.parse(["b.json"])
        #expect(plain.book.lastPathComponent == "b.json" && plain.port == 0 && plain.host == "127.0.0.1" && !plain.open)
        let given = try ServeCommand.parse(["b.json", "--port", "8080", "--host", "::1", "--open"])
        #expect(given.port == 8080 && given.host == "::1" && given.open)
        #expect(plain.tiles == nil)
        let tiles = try ServeCommand.parse(["b.json", "--tiles", "https://tile.example.org/{z}/{x}/{y}.png"]).tiles
        #expect(tiles?.template == "https://tile.example.org/{z}/{x}/{y}.png" && tiles?.origin == "https://tile.example.org")
    }

    @Test("serve's refusals, word for word", arguments: [
        (["serve"], "missing BOOK.json"),
        (["serve", "b.json", "--port", "65536"], "--port must be a whole number from 0 to 65535, not '65536'"),
        (["serve", "b.json", "--port", "http"], "--port must be a whole number from 0 to 65535, not 'http'"),
        (["serve", "b.json", "c.json"], "unexpected argument 'c.json'"),
        (["serve", "b.json", "--tiles", "https://tile.example.org/{z}/{x}.png"],
         "--tiles 'https://tile.example.org/{z}/{x}.png' is not a tile address: it has no {y}: Leaflet fills in {z}, {x} and {y} (such as https://tile.example.org/{z}/{x}/{y}.png)"),
        (["serve", "b.json", "--tiles", "file:///tmp/{z}/{x}/{y}.png"],
         "--tiles 'file:///tmp/{z}/{x}/{y}.png' is not a tile address: it is not an http:// or https:// address (such as https://tile.example.org/{z}/{x}/{y}.png)"),
    ])
    func serveRefusals(words: [String], message: String) {
        #expect(throws: UsageError(message: message)) { _ = try ServeCommand.parse(Array(words.dropFirst())) }
    }

    @Test("inspect, tulip, profile: refusals, word for word", arguments: [
        (["inspect"], "missing BOOK.json"),
        (["inspect", "b.json", "--json", "--json"], "--json is given twice"),
        (["tulip", "b.json", "-o", "t.png"], "give either --row N or --sheet"),
        (["tulip", "b.json", "-o", "t.png", "--row", "1", "--sheet"], "give either --row N or --sheet"),
        (["tulip", "b.json", "-o", "t.svg", "--sheet"], "a contact sheet is a PNG"),
        (["tulip", "b.json", "--row", "1"], "missing -o FILE"),
        (["tulip", "b.json", "-o", "t.png", "--sheet", "--columns", "51"], "--columns must be a whole number from 1 to 50, not '51'"),
        (["tulip", "b.json", "-o", "t.png", "--row", "2.9"], "--row must be a whole number from 1 to 1000000, not '2.9'"),
        (["tulip", "b.json", "-o", "t.png", "--sheet", "--columns", "2.5"], "--columns must be a whole number from 1 to 50, not '2.5'"),
        (["tulip", "b.json", "-o", "t.png", "--row", "1e3"], "--row must be a whole number from 1 to 1000000, not '1e3'"),
        (["profile", "b.json"], "missing -o FILE"),
        (["profile", "b.json", "-o", "p.png", "--width", "100"], "--width must be a number from 200.0 to 5000.0, not '100'"),
    ])
    func smallRefusals(words: [String], message: String) {
        let type = Self.commands.first { $0.name == words[0] }!
        #expect(throws: UsageError(message: message)) { _ = try type.parse(Array(words.dropFirst())) }
    }

    @Test("an argument that is not UTF-8 names its file through /proc/self/fd, and is shown as given; one naming nothing keeps its bytes")
    func rawArguments() throws {
        let folder = FileManager.default.temporaryDirectory.path + "/roadbook-raw-\(UUID().uuidString)"
        mkdir(folder, 0o755)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let name = Array((folder + "/caf").utf8) + [0xE9] + Array(".gpx".utf8)
        let fd = (name + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) } }
        _ = write(fd, "<gpx/>", 6)
        close(fd)
        let strings = RawArguments.strings([Array("build".utf8), name])
        #expect(strings[0] == "build" && strings[1].hasPrefix("/proc/self/fd/"))
        #expect(try String(contentsOfFile: strings[1], encoding: .utf8) == "<gpx/>")
        #expect(RoadbookCLI.printable("\(strings[1]): cannot read") == "\(folder)/caf\\xe9.gpx: cannot read")
        #expect(RawArguments.escaped(Array("é".utf8) + [0xFF, 0x41]) == "é\\xffA")
        // An output to make: its bytes kept as FileName's stand-ins, shown as given.
        let output = RawArguments.strings([Array("x".utf8) + [0xFF]])[0]
        #expect(FileName.bytes(of: output) == Array("x".utf8) + [0xFF])
        #expect(RoadbookCLI.printable("\(output): 1 page") == "x\\xff: 1 page")
    }

    @Test("control characters in a message are quoted, so a name cannot forge a line or drive the terminal")
    func printable() {
        #expect(Printable.quoted("a\nroadbook: forged.gpx") == "a\\nroadbook: forged.gpx")
        #expect(Printable.quoted("\u{1B}[31mred\u{07}.gpx\t\r\u{7F}\u{9B}") == "\\x1b[31mred\\x07.gpx\\t\\r\\x7f\\u{9b}")
        #expect(Printable.quoted("two\nlines\u{1B}", keepingLines: true) == "two\nlines\\x1b")
        #expect(Printable.quoted("Pas de la Casa — «col» \\n") == "Pas de la Casa — «col» \\n", "text and backslashes stay as they are")
        #expect(Printable.quoted(Printable.quoted("a\nb")) == Printable.quoted("a\nb"))
    }

    @Test("regenerate: values; the terrain group as for build")
    func regenerate() throws {
        let r = try RegenerateCommand.parse(["b.json", "--route", "n.gpx", "--osm", "a.osm", "-o", "c.json", "--dem", "t.hgt"])
        #expect(r.book.lastPathComponent == "b.json" && r.route.lastPathComponent == "n.gpx" && r.osm != nil)
        #expect(r.output?.lastPathComponent == "c.json" && !r.dryRun && r.terrain.request.dems.count == 1)
        #expect(try RegenerateCommand.parse(["b.json", "--route", "n.gpx", "--dry-run"]).dryRun)
    }

    @Test("regenerate's refusals, word for word", arguments: [
        (["b.json"], "missing --route NEW.gpx"),
        (["b.json", "--route", "n.gpx", "--dry-run", "-o", "c.json"], "--dry-run writes nothing; leave out -o"),
        (["--route", "n.gpx"], "missing BOOK.json"),
    ])
    func regenerateRefusals(words: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try RegenerateCommand.parse(words) }
    }

    @Test("route: a handles file, typed handles in every coordinate format, or --retry")
    func route() throws {
        let file = try RouteCommand.parse(["h.txt", "--engine", "osrm", "--book", "b.json"])
        guard case .file(let url) = file.handles else { Issue.record("\(file.handles)"); return }
        #expect(url.lastPathComponent == "h.txt" && file.mode == nil && file.legKind == .road && file.engine?.concurrency == 4)
        #expect(file.engine?.url == nil && file.turns)

        // The same place (42.5063° N, 1.5218° E) five ways; UTM and MGRS from GeographicLib's GeoConvert.
        let typed = try RouteCommand.parse(["--engine", "valhalla", "--book", "b.json", "--mode", "cycle", "--legs", "as-drawn",
                                            "--handle", "42.5063, 1.5218", "--handle", "N42°30.378' E001°31.308' | Chapel | P1",
                                            "--handle", "42°30'22.68\"N 1°31'18.48\"E", "--handle", "31T 378553 4707051",
                                            "--handle", "31TCH7855307051 | Fuel"])
        guard case .typed(let typedHandles) = typed.handles else { Issue.record("\(typed.handles)"); return }
        let handles = typedHandles.compactMap { if case .handle(let handle) = $0 { handle } else { nil } }
        #expect(handles.count == 5, "every text that reads as a coordinate stays one")
        #expect(typed.mode == .cycle && typed.legKind == .asDrawn)
        #expect(handles.map(\.id) == [1, 2, 3, 4, 5])
        #expect(handles.allSatisfy { $0.origin == .coordinate }, "typed coordinates are surveyed")
        for handle in handles {
            #expect(handle.coordinate.distance(to: Coordinate(latitude: 42.5063, longitude: 1.5218)) < 2, "\(handle.coordinate)")
        }
        #expect(handles[1].note == HandleNote(text: "Chapel", marker: "P1"))
        #expect(handles[4].note == HandleNote(text: "Fuel"))

        let retry = try RouteCommand.parse(["--retry", "--engine", "graphhopper", "--api-key", "k", "--book", "b.json",
                                            "--url", "http://h:1", "--concurrency", "8", "-o", "b.pdf", "--no-turns"])
        guard case .stored = retry.handles else { Issue.record("\(retry.handles)"); return }
        #expect(retry.engine?.apiKey == "k" && retry.engine?.url?.absoluteString == "http://h:1" && retry.engine?.concurrency == 8 && !retry.turns)
        #expect(retry.output?.lastPathComponent == "b.pdf")
    }

    @Test("route's refusals, word for word", arguments: [
        (["h.geojson", "--book", "b.json"], "missing --engine osrm|valhalla|graphhopper|embedded: road legs are asked of an engine (--legs straight or as-drawn asks none)"),
        (["--retry", "--book", "b.json", "--legs", "straight"], "missing --engine osrm|valhalla|graphhopper|embedded: road legs are asked of an engine (--legs straight or as-drawn asks none)"),
        (["h.geojson", "--engine", "osrm"], "missing --book BOOK.json"),
        (["h.geojson", "--engine", "bike", "--book", "b.json"], "--engine must be one of osrm, valhalla, graphhopper, embedded, not 'bike'"),
        (["h.geojson", "--engine", "embedded", "--book", "b.json"], "the embedded router needs --osm EXTRACT"),
        (["h.geojson", "--engine", "osrm", "--book", "b.json", "--mode", "fly"], "--mode must be one of drive, cycle, walk, not 'fly'"),
        (["h.geojson", "--engine", "osrm", "--book", "b.json", "--legs", "wiggly"], "--legs must be one of road, straight, as-drawn, not 'wiggly'"),
        (["h.geojson", "--engine", "osrm", "--book", "b.json", "--url", "ftp://x"], "--url 'ftp://x' is not an http(s) URL"),
        (["h.geojson", "--engine", "osrm", "--book", "b.json", "--concurrency", "0"], "--concurrency must be a whole number from 1 to 64, not '0'"),
        (["--engine", "osrm", "--book", "b.json"], "missing HANDLES.geojson (or --handle COORD)"),
        (["--retry", "h.geojson", "--engine", "osrm", "--book", "b.json"], "unexpected argument 'h.geojson'"),
        (["--retry", "--handle", "42.5 1.5", "--engine", "osrm", "--book", "b.json"], "--retry asks again the legs of --book; leave out --handle"),
        (["h.txt", "--handle", "42.5 1.5", "--engine", "osrm", "--book", "b.json"], "give a handles file or --handle, not both"),
        (["--handle", "42.5 1.5 | a | b | c", "--engine", "osrm", "--book", "b.json"],
         "--handle '42.5 1.5 | a | b | c': write COORDINATE, COORDINATE | NOTE or COORDINATE | NOTE | MARKER"),
        (["--handle", "42.5 1.5 |", "--engine", "osrm", "--book", "b.json"], "--handle '42.5 1.5 |': the note after '|' is empty"),
    ])
    func routeRefusals(words: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try RouteCommand.parse(words) }
    }

    @Test("a coordinate --handle cannot read is refused with the Geo parser's reason; a name without --osm asks for it")
    func unreadableHandle() throws {
        let reason = try #require(throws: CoordinateParseError.self) { try CoordinateFormat.parse("north pole 90") }
        #expect(throws: UsageError(message: "--handle 'north pole 90': \(reason)")) {
            try RouteCommand.parse(["--handle", "north pole 90", "--engine", "osrm", "--book", "b.json"])
        }
        #expect(throws: UsageError(message: "--handle 'north pole' is not a coordinate; to look a place up by name, give --osm EXTRACT")) {
            try RouteCommand.parse(["--handle", "north pole", "--engine", "osrm", "--book", "b.json"])
        }
    }

    @Test("help and usage come from the declaration: every option listed once, required ones in every usage line")
    func helpFromDeclarations() {
        for command in Self.commands {
            let declaration = command.declaration
            let help = declaration.help
            #expect(!help.contains("\\("), "\(command.name): an interpolation left in the help")
            #expect(help.hasPrefix(declaration.usage + "\n\n"))
            for option in declaration.options {
                let lines = help.split(separator: "\n").filter { $0.hasPrefix("  \(option.label) ") || $0 == "  \(option.label)" }
                #expect(lines.count == 1, "\(command.name): --\(option.name) listed \(lines.count) times")
                if option.required {
                    for line in declaration.usage.split(separator: "\n") {
                        #expect(line.contains(" \(option.short.map { "-\($0)" } ?? "--\(option.name)") "), "\(command.name): \(line)")
                    }
                }
            }
            #expect(Set(declaration.options.map(\.name)).count == declaration.options.count, "\(command.name): a name declared twice")
        }
    }

    @Test("every usage form names options its command declares")
    func formsNameDeclaredOptions() {
        for command in Self.commands {
            for form in command.declaration.forms {
                for name in form.required + form.optional {
                    #expect(command.declaration.option(named: name) != nil, "\(command.name): a usage form names --\(name)")
                }
            }
        }
    }

    @Test("handles: every subcommand of the table parses into its change", arguments: [
        (["list"], HandlesCommand.Action.list),
        (["status"], HandlesCommand.Action.status),
        (["clear"], .clear),
        (["reverse"], .edit(.reverse)),
        (["undo"], .edit(.undo)),
        (["redo"], .edit(.redo)),
        (["retry"], .edit(.retry)),
        (["remove", "2"], .edit(.remove(handle: 2))),
        (["reorder", "1", "3"], .edit(.reorder(handle: 1, to: 3))),
        (["split", "1"], .edit(.split(leg: 1, at: nil))),
        (["split", "1", "--", "-42.5 1.5"], .edit(.split(leg: 1, at: Coordinate(latitude: -42.5, longitude: 1.5)))),
        (["move", "2", "42.5,1.5"], .edit(.move(handle: 2, to: Coordinate(latitude: 42.5, longitude: 1.5)))),
        (["kind", "1", "as-drawn"], .edit(.kind(leg: 1, .asDrawn))),
        (["mode", "walk"], .edit(.mode(.walk))),
        (["add", "42.5 1.5 | Chapel | P1", "--at", "2"],
         .edit(.add(Coordinate(latitude: 42.5, longitude: 1.5), position: 2, origin: .coordinate, note: HandleNote(text: "Chapel", marker: "P1")))),
        (["add", "42.5 1.5", "--note", "Ford"],
         .edit(.add(Coordinate(latitude: 42.5, longitude: 1.5), position: nil, origin: .coordinate, note: HandleNote(text: "Ford", marker: nil)))),
    ])
    func handlesSubcommands(words: [String], action: HandlesCommand.Action) throws {
        #expect(try HandlesCommand.parse(["b.json"] + words).action == action)
    }

    @Test("handles' refusals, word for word", arguments: [
        (["fly"], "unknown subcommand 'fly': use list, status, add, move, remove, split, reorder, reverse, kind, mode, note, unnote, new-legs, undo, redo, retry or clear"),
        (["list", "x"], "list takes no arguments"),
        (["undo", "2"], "undo takes no arguments"),
        (["add"], "add takes one coordinate or place: add COORD|PLACE [--at N] [--note TEXT]"),
        (["move", "2"], "move takes a handle and a coordinate: move N COORD"),
        (["split"], "split takes a leg and, if you like, a coordinate: split LEG [COORD]"),
        (["reorder", "1"], "reorder takes two handles: reorder N M"),
        (["kind", "1"], "kind takes a leg and a kind: kind LEG road|straight|as-drawn"),
        (["mode"], "mode takes a mode: mode drive|cycle|walk"),
        (["remove", "x"], "handle 'x' is not a number from 1"),
        (["split", "0"], "leg '0' is not a number from 1"),
        (["reorder", "1", "0"], "position '0' is not a number from 1"),
        (["kind", "1", "fast"], "kind 'fast' is not one of road, straight, as-drawn"),
        (["mode", "fly"], "mode 'fly' is not one of drive, cycle, walk"),
        (["add", "42.5 1.5 |"], "'42.5 1.5 |': the note after '|' is empty"),
        (["remove", "1", "--at", "2"], "--at goes with add"),
        (["fly", "--marker", "P1"], "--marker goes with add or note"),
    ])
    func handlesRefusals(words: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try HandlesCommand.parse(["b.json"] + words) }
    }

    @Test("handles: a coordinate the subcommand cannot read is refused with the Geo parser's reason")
    func handlesUnreadableCoordinate() throws {
        let reason = try #require(throws: CoordinateParseError.self) { try CoordinateFormat.parse("north pole") }
        #expect(throws: UsageError(message: "'north pole' is not a coordinate: \(reason)")) {
            try HandlesCommand.parse(["b.json", "move", "1", "north pole"])
        }
    }

    @Test("handles: the help lists every subcommand the table parses, each with its help, in the table's order")
    func handlesHelpIsTheTable() {
        let help = HandlesCommand.declaration.help
        let list = HandlesCommand.subcommands.list
        #expect(help.contains("\n\n" + list.heading + "\n"))
        var rest = Substring(help)
        for row in list.rows {
            guard let label = rest.range(of: "\n  " + row.label) else {
                Issue.record("\(row.label) is not in the help, or out of order")
                continue
            }
            rest = rest[label.upperBound...]
            #expect(rest.drop { $0 == " " || $0 == "\n" }.hasPrefix(row.help), "\(row.label): its help")
        }
        #expect(Set(list.names).count == list.names.count, "a subcommand named twice")
    }

    @Test("a refusal prints the message and the usage lines, not the whole help")
    func refusalShowsUsage() async {
        let console = CapturingConsole()
        let status = await Roadbook.main(["render", "b.json"], console: console)
        #expect(status == 64)
        #expect(console.errors == "roadbook render: missing -o OUT\n\n\(RenderCommand.declaration.usage)\n"
                + "Run 'roadbook render --help' for its options.\n")
    }
}
