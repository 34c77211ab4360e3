import Foundation
import Layout
import Model
@testable import Render
import Testing
import TestSupport

/// The symbol library: SVG pictograms read through librsvg (a broken, huge or outward-reaching file
/// included), drawn in the rows and the lexicon, a person's folder over the library's, and the
/// warnings when a symbol prints as text.
@Suite("Symbols: pictograms, lexicon, a person's folder")
struct SymbolTests {
    /// The test pictograms (ford, fuel, danger2, reset, speedLimit, dss) and their `symbols.json`.
    static let fixtures = packageRoot().appendingPathComponent("Tests/RenderTests/Fixtures/Symbols")

    static func library(user: URL? = nil) throws -> SymbolLibrary {
        try SymbolLibrary(library: fixtures, searched: [fixtures], user: user)
    }

    /// Draws `image` into a `size` × `size` image (transparent before), written as PNG and read back.
    static func drawn(_ image: SVGImage, size: Int = 100, in folder: TemporaryFolder) throws -> PNGImage {
        let surface = try ImageSurface(width: size, height: size)
        let cairo = try CairoContext(surface: surface)
        try image.draw(in: Rect(x: 0, y: 0, width: Double(size), height: Double(size)), on: cairo.handle)
        let url = folder.path("drawn-\(UUID().uuidString).png")
        try surface.writePNG(to: url.path)
        return try PNGImage(path: url.path)
    }

    static func rgb(_ pixel: UInt32) -> (Int, Int, Int) {
        (Int(pixel >> 16 & 0xff), Int(pixel >> 8 & 0xff), Int(pixel & 0xff))
    }

    // MARK: Reading SVG

    @Test("a pictogram file draws fitted to its rectangle: dss.svg's green square and white triangle where the file puts them")
    func goodFile() throws {
        let folder = try TemporaryFolder()
        let image = try SVGImage(contentsOf: Self.fixtures.appendingPathComponent("dss.svg"))
        let png = try Self.drawn(image, in: folder)
        // dss.svg, viewBox 0 0 100 100: a #1e8c3a square from 8 to 92 (corners rounded by 10), a
        // white triangle (30,25) (75,50) (30,75); outside the square nothing.
        #expect(png.pixel(x: 3, y: 3) >> 24 == 0, "outside the square: transparent")
        #expect(Self.rgb(png.pixel(x: 20, y: 50)) == (0x1e, 0x8c, 0x3a))
        #expect(Self.rgb(png.pixel(x: 45, y: 50)) == (255, 255, 255))
        #expect(Self.rgb(png.pixel(x: 85, y: 50)) == (0x1e, 0x8c, 0x3a))
    }

    @Test("a broken file is refused in one line naming it", arguments: [
        ("truncated.svg", #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect x="1" y="#),
        ("not-svg.svg", "PK\u{3}\u{4} this is a zip, not a picture"),
        ("html.svg", "<html><body>not svg</body></html>"),
        ("empty.svg", ""),
    ])
    func brokenFile(name: String, content: String) throws {
        let folder = try TemporaryFolder()
        let url = folder.path(name)
        try Data(content.utf8).write(to: url)
        let error = #expect(throws: SVGError.self) { _ = try SVGImage(contentsOf: url) }
        let line = "\(error.map { "\($0)" } ?? "")"
        #expect(line.hasPrefix(url.path + ": "), "\(line)")
        #expect(!line.contains("\n"), "one line: \(line)")
    }

    @Test("a file larger than a pictogram may be is refused before it is read, on disk or in memory")
    func hugeFile() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("huge.svg")
        // 100 MB of holes: refused by its size, never read (reading it would take the memory).
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 100_000_000)
        try handle.close()
        let error = #expect(throws: SVGError.self) { _ = try SVGImage(contentsOf: url) }
        #expect(error?.message.contains("100000000 bytes, more than the 1048576") == true, "\(String(describing: error))")
        var big = Data(#"<svg xmlns="http://www.w3.org/2000/svg"><desc>"#.utf8)
        big.append(Data(repeating: UInt8(ascii: "x"), count: SVGImage.maximumBytes))
        big.append(Data("</desc></svg>".utf8))
        #expect(throws: SVGError.self) { _ = try SVGImage(data: big, name: "big.svg") }
        // A named pipe is not read (it would wait for a writer for ever).
        let fifo = folder.path("pipe.svg")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let pipe = #expect(throws: SVGError.self) { _ = try SVGImage(contentsOf: fifo) }
        #expect(pipe?.message == "is not a regular file")
    }

    @Test("a file that names another file or a web address draws only itself: librsvg fetches nothing for bytes read from memory")
    func externalReferences() throws {
        let folder = try TemporaryFolder()
        // A red PNG beside the SVG, drawn from a red square.
        let red = try SVGImage(data: Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>"#.utf8),
                               name: "red")
        let surface = try ImageSurface(width: 10, height: 10)
        let context = try CairoContext(surface: surface)
        try red.draw(in: Rect(x: 0, y: 0, width: 10, height: 10), on: context.handle)
        let png = folder.path("red.png")
        try surface.writePNG(to: png.path)
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect id="r" width="10" height="10" fill="red"/></svg>"#.utf8)
            .write(to: folder.path("other.svg"))
        func redPixels(_ svg: String) throws -> Int {
            let image = try SVGImage(data: Data(svg.utf8), name: folder.path("hostile.svg").path)
            let drawn = try Self.drawn(image, size: 20, in: folder)
            var count = 0
            for y in 0..<20 { for x in 0..<20 where Self.rgb(drawn.pixel(x: x, y: y)) == (255, 0, 0) { count += 1 } }
            return count
        }
        let head = #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">"#
        // The control: the same picture inside the file, as a data: URL, is drawn.
        let inline = try Data(contentsOf: png).base64EncodedString()
        #expect(try redPixels(head + #"<image width="10" height="10" xlink:href="data:image/png;base64,\#(inline)"/></svg>"#) == 400)
        for reference in [png.absoluteString, png.path, "red.png", "other.svg#r", "http://127.0.0.1:9/red.png"] {
            let image = head + #"<image width="10" height="10" xlink:href="\#(reference)"/><use xlink:href="\#(reference)"/></svg>"#
            #expect(try redPixels(image) == 0, "\(reference) was fetched")
        }
        let include = head + #"<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="\#(folder.path("other.svg").path)"/></svg>"#
        #expect(((try? redPixels(include)) ?? 0) == 0, "an XInclude of another file is not followed")
    }

    @Test("a picture of uses of uses is refused before librsvg reads it (10^11 paths would take gigabytes); a few uses draw")
    func uses() throws {
        var fanout = #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><defs><path id="u0" d="M0 0 L9 9"/>"#
        for k in 1...11 { fanout += "<g id=\"u\(k)\">" + String(repeating: "<use xlink:href=\"#u\(k - 1)\"/>", count: 10) + "</g>" }
        fanout += ##"</defs><use xlink:href="#u11"/></svg>"##
        let error = #expect(throws: SVGError.self) { _ = try SVGImage(data: Data(fanout.utf8), name: "fanout.svg") }
        #expect(error?.description == "fanout.svg: has 111 <use> elements, more than the 16 a pictogram may have (each may draw the others many times over)")
        let few = ##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><rect id="r" width="1" height="1"/><use xlink:href="#r" x="2"/><svg:use xmlns:svg="http://www.w3.org/2000/svg" xlink:href="#r" x="4"/></svg>"##
        _ = try SVGImage(data: Data(few.utf8), name: "few.svg")
        // Counted on the bytes: a use with a prefix, or ended by a line, counts; <user> and a text "use" do not.
        #expect(SVGImage.useCount(Data("<use/><svg:use\nx='1'/><user/><text>use</text><use>".utf8)) == 3)
    }

    // MARK: Rows

    static func book(_ symbols: [NoteSymbol], danger: Int = 0) -> Book {
        var note = Fixtures.note(1, at: 100, "Cross the river")
        note.symbols = symbols
        note.danger = danger
        return Fixtures.book([note])
    }

    /// Pixels of the page that are strongly blue (the ford's waves are #0050c8; nothing else on a
    /// page without waypoint types is blue).
    static func bluePixels(_ png: PNGImage) -> Int {
        var count = 0
        for y in 0..<png.height {
            for x in 0..<png.width {
                let (r, g, b) = rgb(png.pixel(x: x, y: y))
                if b > 150 && r < 60 && g < 120 { count += 1 }
            }
        }
        return count
    }

    @Test("a row with the ford's pictogram differs from the row without it, where the pictogram is drawn")
    func rowPixels() throws {
        let folder = try TemporaryFolder()
        func render(_ library: SymbolLibrary, _ name: String) throws -> PNGImage {
            let renderer = BookRenderer(template: Fixtures.a5, includeCover: false, symbols: library, includeLexicon: false,
                                        warn: { _ in })
            let files = try renderer.renderPNG(Self.book([.ford]), pages: [1], dpi: 72, to: folder.path(name))
            return try PNGImage(path: files[0].path)
        }
        let with = try render(try Self.library(), "with.png")
        let without = try render(.none, "without.png")
        #expect(Self.bluePixels(without) == 0)
        // At 72 dpi the pictogram is 22.68 pt = 23 pixels square; its two waves, 8 % of it wide
        // (1.8 px) and about its width long, are some 80 pixels of ink, their cores fully blue.
        let blue = Self.bluePixels(with)
        #expect(blue > 30, "\(blue) blue pixels")
        // Where: inside the first row's notes cell (x from 254.66 to 396.85 pt, y from 65.20 to 146.27 pt).
        var outside = 0
        for y in 0..<with.height {
            for x in 0..<with.width where !(255...397).contains(x) || !(65...147).contains(y) {
                let (r, g, b) = Self.rgb(with.pixel(x: x, y: y))
                if b > 150 && r < 60 && g < 120 { outside += 1 }
            }
        }
        #expect(outside == 0)
    }

    @Test("pictograms sit 8 mm square side by side in the notes cell, wrap onto a second line, and a name without one is a tag")
    func layout() throws {
        let pictograms: Set<NoteSymbol> = [.ford, .fuel, .gate, .hole, .hump, .sand, .dunes, .stones, .bridge, .well]
        let page = BookLayout.paginate(book: Self.book([.ford, .fuel, NoteSymbol("foo")]), template: Fixtures.a5,
                                       measurer: FakeMeasurer())[0]
        #expect(page.boxes.filter { $0.kind == .symbol }.compactMap(\.text) == ["FORD", "FUEL", "FOO"], "no pictograms: tags")
        let drawn = BookLayout.pages(book: Self.book([.ford, .fuel, NoteSymbol("foo")]), template: Fixtures.a5,
                                     measurer: FakeMeasurer(), pictograms: pictograms).page(0)
        let symbols = drawn.boxes.filter { $0.kind == .symbol }
        #expect(symbols.map { $0.symbol?.name ?? $0.text ?? "" } == ["ford", "fuel", "FOO"])
        let side = 8 * 72 / 25.4, padding = 72 / 25.4   // 8 mm; the A5 template's cell padding, 1 mm
        #expect(abs(symbols[0].rect.width - side) < 1e-9 && abs(symbols[0].rect.height - side) < 1e-9)
        // Side by side, the cell's padding between; the notes cell (its left at 22.68 + 374.17 × 0.62)
        // holds them inside its padding.
        #expect(abs(symbols[0].rect.x - (Fixtures.a5.margins.left + 374.17 * 0.62 + padding)) < 0.01)
        #expect(abs(symbols[1].rect.x - (symbols[0].rect.maxX + padding)) < 1e-9)
        #expect(symbols[2].symbol == nil && symbols[2].rect.x > symbols[1].rect.maxX)

        // Ten: the cell's inside is 142.19 − 2 × 2.83 = 136.52 pt wide; five 22.68 pt squares and
        // four gaps take 124.72 pt, six would take 150.23: two lines of five, 25.51 pt apart.
        let ten = Array(pictograms).sorted { $0.name < $1.name }
        let wrapped = BookLayout.pages(book: Self.book(ten), template: Fixtures.a5, measurer: FakeMeasurer(), pictograms: pictograms)
            .page(0).boxes.filter { $0.kind == .symbol }
        #expect(wrapped.count == 10)
        let lines = Dictionary(grouping: wrapped) { ($0.rect.y * 100).rounded() / 100 }
        #expect(lines.count == 2 && lines.values.allSatisfy { $0.count == 5 })
        let tops = lines.keys.sorted()
        #expect(abs(tops[1] - tops[0] - (side + padding)) < 0.01)
        // The text keeps its place above them.
        let text = try #require(drawn.boxes.first { $0.kind == .noteText })
        #expect(text.rect.maxY <= symbols[0].rect.y)
    }

    @Test("the fields draw as the library's pictograms where they print: type, speed sign with its limit, reset, CAP, danger")
    func fieldPictograms() throws {
        var dz = Fixtures.note(1, at: 0, "Zone", type: .dz, cap: 90, danger: 2, resets: true)
        dz.speedLimit = 50
        var fz = Fixtures.note(2, at: 900, "End", type: .fz, cap: 90)
        fz.speedLimit = 50
        let book = Fixtures.book([dz, fz])
        let all: Set<NoteSymbol> = [.dz, .fz, .speedLimit, .reset, .cap, .danger2]
        let boxes = BookLayout.pages(book: book, template: Fixtures.a5, measurer: FakeMeasurer(), pictograms: all).page(0).boxes
        func row(_ n: Int, _ kind: Box.Kind) -> [Box] { boxes.filter { $0.row == n && $0.kind == kind } }
        #expect(row(1, .waypointType).map(\.symbol) == [.dz] && row(1, .waypointType)[0].text == nil)
        let sign = try #require(row(1, .speedLimit).first)
        #expect(sign.symbol == .speedLimit && sign.text == "50", "the limit drawn in the sign's ring")
        #expect(row(1, .odometerReset).map(\.symbol) == [.reset])
        #expect(row(1, .cap).map { $0.symbol?.name ?? $0.text ?? "" } == ["cap", "C.090"], "the CAP's pictogram, then its heading")
        #expect(row(1, .danger).map(\.symbol) == [.danger2] && row(1, .dangerHigh).isEmpty)
        #expect(row(2, .waypointType).map(\.symbol) == [.fz])
        #expect(row(2, .speedLimitEnd).map(\.text) == ["50"] && row(2, .speedLimitEnd)[0].symbol == nil,
                "an FZ's limit stays struck through")
        // Without the files, the texts as before.
        let plain = BookLayout.pages(book: book, template: Fixtures.a5, measurer: FakeMeasurer()).page(0).boxes
        #expect(!plain.contains { $0.symbol != nil })
        #expect(plain.filter { $0.row == 1 && $0.kind == .waypointType }.map(\.text) == ["DZ"])
        #expect(plain.filter { $0.row == 1 && $0.kind == .odometerReset }.map(\.text) == ["RESET"])
    }

    @Test("a symbol's tag is its name's words in capitals")
    func labels() {
        #expect(SymbolFormat.label(.cattleGrid) == "CATTLE GRID")
        #expect(SymbolFormat.label(.danger2) == "DANGER 2")
        #expect(SymbolFormat.label(.tJunction) == "T JUNCTION")
        #expect(SymbolFormat.label(.viewpoint) == "VIEW")
        #expect(SymbolFormat.label(NoteSymbol("my_own-sign2")) == "MY OWN SIGN 2")
    }

    // MARK: The library and a person's folder

    @Test("a person's folder replaces the library's pictograms by name, adds new names and meanings, and passes over names no symbol has")
    func userFolder() throws {
        let folder = try TemporaryFolder()
        let user = folder.path("mine")
        try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
        let square = #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>"#
        for name in ["ford.svg", "bikeWash.svg", "two words.svg"] { try Data(square.utf8).write(to: user.appendingPathComponent(name)) }
        try Data(#"{"version": 1, "symbols": [{"name": "bikeWash", "group": "service", "meaning": {"en": "Bike wash", "fr": "Lavage"}}, {"name": "ford", "group": "water", "meaning": {"fr": "Gué profond"}}]}"#.utf8)
            .write(to: user.appendingPathComponent("symbols.json"))
        let library = try Self.library(user: user)
        #expect(library.files[.ford] == user.appendingPathComponent("ford.svg"))
        #expect(library.files[.fuel] == Self.fixtures.appendingPathComponent("fuel.svg"))
        #expect(library.files[NoteSymbol("bikeWash")] == user.appendingPathComponent("bikeWash.svg"))
        #expect(library.problems.count == 1 && library.problems[0].contains("'two words.svg'"), "\(library.problems)")
        #expect(library.catalogue.meaning(of: .ford, language: "fr") == "Gué profond")
        #expect(library.catalogue.meaning(of: .ford, language: "en") == "Ford", "the library's English meaning stays")
        #expect(library.catalogue.meaning(of: NoteSymbol("bikeWash"), language: "fr") == "Lavage")
        #expect(try SymbolLibrary.names(in: user).map(\.name) == ["bikeWash", "ford"])
        let missing = #expect(throws: SymbolFolderError.self) { _ = try Self.library(user: folder.path("nowhere")) }
        #expect(missing?.folder == folder.path("nowhere").path)
    }

    @Test("a symbols.json with a mistake names the field; the library's English meanings stand in")
    func catalogueMistakes() throws {
        func decode(_ text: String) -> String {
            do { _ = try SymbolCatalogue.decode(Data(text.utf8), fileName: "s.json"); return "ok" } catch { return "\(error)" }
        }
        #expect(decode(#"{"version": 2}"#) == "s.json: version is 2; this roadbook reads version 1")
        #expect(decode(#"{"version": 1, "symbols": [{"name": "ford", "meaning": {"fr": 3}}]}"#)
                == "s.json: symbols[0].meaning.fr must be a string")
        #expect(decode(#"{"version": 1, "symbols": [{"name": "../x", "meaning": {}}]}"#).hasPrefix("s.json: symbols[0].name must be"))
        #expect(decode(#"{"version": 1, "groups": [{"id": "water"}]}"#).hasPrefix("s.json: groups[0].meaning must be"))
        #expect(decode("{\"version\": 1,") .hasPrefix("s.json: is not JSON"))
        // The file's own language key with a line break, and a backslash before a line feed, are
        // shown escaped: each message is one line.
        #expect(decode(#"{"version": 1, "symbols": [{"name": "ford", "meaning": {"fr\n": 3}}]}"#)
                == #"s.json: symbols[0].meaning.fr\n must be a string"#)
        #expect(decode("{\"version\": 1, \"s\\\n\": 1}") == #"s.json: is not JSON: line 1: \ followed by byte 0x0A is not an escape JSON knows"#)
        let folder = try TemporaryFolder()
        let broken = folder.path("lib")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try Data(#"{"version": 1, "symbols": 3}"#.utf8).write(to: broken.appendingPathComponent("symbols.json"))
        let library = try SymbolLibrary(library: broken, searched: [broken])
        #expect(library.problems == ["\(broken.path)/symbols.json: symbols must be a list; the symbols' meanings are the library's English ones"])
        #expect(library.catalogue.meaning(of: .ford, language: "fr") == "Ford")
    }

    // MARK: Warnings

    @Test("a name the library lacks prints as text with a warning naming the row; a missing library is said once")
    func warnings() throws {
        let folder = try TemporaryFolder()
        var notes = [Fixtures.note(1, at: 0, "One"), Fixtures.note(2, at: 500, "Two"), Fixtures.note(3, at: 900, "Three")]
        notes[1].symbols = [.ford, NoteSymbol("foo")]
        notes[2].symbols = [.gate]
        let book = Fixtures.book(notes)
        let said = Warnings()
        let lost = try SymbolLibrary(library: nil, searched: [folder.path("Symbols")])
        try BookRenderer(template: Fixtures.a5, symbols: lost, warn: said.sink).renderPDF(book, to: folder.path("a.pdf"))
        let symbolWarnings = said.all.filter { $0.contains("symbol") }
        #expect(symbolWarnings.filter { $0.contains("was not found") }.count == 1, "\(said.all)")
        #expect(symbolWarnings.contains("R2: symbol 'foo' is not in the library: printed as text"), "\(said.all)")
        #expect(symbolWarnings.count == 2, "nothing said twice, nothing said of the library's own names: \(symbolWarnings)")
        let text = try runTool("pdftotext", ["-raw", folder.path("a.pdf").path, "-"])
        #expect(text.contains("FOO") && text.contains("FORD") && text.contains("not in the library") && text.contains("Lexicon"))

        // With the library, its names draw; one it has no file for is said once; a broken file is named.
        let user = folder.path("mine")
        try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
        try Data("<svg".utf8).write(to: user.appendingPathComponent("gate.svg"))
        let again = Warnings()
        try BookRenderer(template: Fixtures.a5, symbols: try Self.library(user: user), warn: again.sink)
            .renderPDF(book, to: folder.path("b.pdf"))
        #expect(again.all.contains { $0.hasPrefix(user.appendingPathComponent("gate.svg").path + ": ") && $0.hasSuffix(": 'gate' printed as its name") },
                "\(again.all)")
        #expect(!again.all.contains { $0.contains("'ford'") }, "ford has its pictogram: \(again.all)")
        #expect(again.all.contains("R2: symbol 'foo' is not in the library: printed as text"))
    }

    // MARK: The lexicon

    @Test("the lexicon lists every symbol the book uses by group in the library's order, in the book's language, English where there is none")
    func lexicon() throws {
        var notes = [Fixtures.note(1, at: 0, "Start", type: .dss), Fixtures.note(2, at: 500, "Ford", danger: 2),
                     Fixtures.note(3, at: 900, "Fuel")]
        notes[1].symbols = [.ford, NoteSymbol("foo")]
        notes[2].symbols = [.fuel, .ford]
        let book = Fixtures.book(notes)
        let catalogue = try Self.library().catalogue
        // In French: the fixture's French meanings and group titles; where it gives none, English
        // (the waypoints' title is the library's own); the lexicon's own words from the phrasebook.
        let french = Lexicon.sections(for: book, catalogue: catalogue, words: .french)
        #expect(french.map(\.title) == ["Danger", "Waypoints", "Services", "Eau", "Autres symboles"])
        #expect(french.flatMap(\.entries).map(\.symbol.name) == ["danger2", "dss", "fuel", "ford", "foo"])
        #expect(french.flatMap(\.entries).map(\.meaning)
                == ["Danger, ralentir", "Start of selective section", "Carburant", "Gué", "absent de la bibliothèque"])
        #expect(french.last?.entries.map(\.known) == [false])
        // The book's own language decides when none is given.
        var inFrench = book
        inFrench.settings.language = .fr
        #expect(Lexicon.sections(for: inFrench, catalogue: catalogue) == french)
        let english = Lexicon.sections(for: book, catalogue: catalogue)
        #expect(english.map(\.title).last == "Other symbols")
        #expect(english.flatMap(\.entries).map(\.meaning)
                == ["Danger, slow down", "Start of selective section", "Fuel", "Ford", "not in the library"])
        #expect(Lexicon.sections(for: Fixtures.book([Fixtures.note(1, at: 0, "Plain")]), catalogue: catalogue).isEmpty)
    }

    @Test("the lexicon flows down the page and onto the next, a group's title never ending a page, and the footers count its pages")
    func lexiconPages() throws {
        // Fourteen landmarks and ten tracks. A5: the column between header and footer is
        // 595.28 − 2 × 22.68 − 42.52 − 19.84 = 487.56 pt; the title takes 14 × 1.8 = 25.2, a group's
        // title 8 × 2.4 = 19.2, a symbol 22.68 + 2 × 2.83 = 28.35. Page 1: the title, "Landmarks"
        // and 14 symbols end at 441.3; "Tracks" would fit (19.2) but not with its first symbol
        // (47.55), so it starts page 2 with the ten tracks.
        let landmarks = NoteSymbol.entries.filter { $0.group == .landmark }.map(\.symbol)
        let tracks = NoteSymbol.entries.filter { $0.group == .track }.map(\.symbol)
        #expect(landmarks.count == 19 && tracks.count == 14)
        var note = Fixtures.note(1, at: 0, "Everything")
        note.symbols = Array(landmarks.prefix(14))
        var second = Fixtures.note(2, at: 500, "More")
        second.symbols = Array(tracks.prefix(10))
        let book = Fixtures.book([note, second])
        let sections = Lexicon.sections(for: book, catalogue: SymbolCatalogue())
        #expect(LexiconLayout.pageCount(sections, template: Fixtures.a5) == 2)
        let pages = LexiconLayout.pages(sections, book: book, template: Fixtures.a5, measurer: FakeMeasurer(), firstPageNumber: 3,
                                        pageCount: 4, pictograms: Set(landmarks))
        #expect(pages.count == 2)
        #expect(pages[0].boxes.filter { $0.kind == .lexiconMeaning }.count == 14)
        #expect(pages[0].boxes.filter { $0.kind == .lexiconGroup }.compactMap(\.text) == ["Landmarks"])
        #expect(pages[1].boxes.filter { $0.kind == .lexiconMeaning }.count == 10)
        #expect(pages[1].boxes.filter { $0.kind == .lexiconGroup }.compactMap(\.text) == ["Tracks"])
        #expect(pages[0].boxes.filter { $0.kind == .symbol }.allSatisfy { $0.symbol != nil }, "landmarks drawn")
        #expect(pages[1].boxes.filter { $0.kind == .symbol && $0.symbol == nil }.count == 10, "tracks without files: tags")
        #expect(pages.map { $0.boxes.last?.text } == ["page 3 of 4", "page 4 of 4"])
        // The renderer counts them: a cover, a page of rows, two of lexicon.
        let renderer = BookRenderer(template: Fixtures.a5, symbols: .none, warn: { _ in })
        #expect(renderer.pageCount(of: book) == 4)
        let rows = BookLayout.pages(book: book, template: Fixtures.a5, measurer: FakeMeasurer(), precedingPages: 1, followingPages: 2)
        #expect(rows.page(0).boxes.last?.text == "page 2 of 4")
    }
}
