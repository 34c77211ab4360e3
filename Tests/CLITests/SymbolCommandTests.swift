import Foundation
import Formats
import Geo
import Model
import Testing
import TestSupport

/// Symbols on the command line: `note --symbol` takes the library's names in any case and those of
/// a `--symbols` folder, refusing others with the names close to them; `render --symbols` draws a
/// person's pictograms over the library's; a name the library lacks prints with a warning.
@Suite("Symbols on the command line")
struct SymbolCommandTests {
    /// A book of two rows on a 1 km route north, the second carrying a name the library lacks.
    static func book(in folder: TemporaryFolder) throws -> URL {
        let start = Coordinate(latitude: 42.5, longitude: 1.5)
        let points = (0...10).map { RoutePoint(coordinate: Geodesic.wgs84.direct(from: start, bearing: 0, distance: Double($0) * 100).coordinate) }
        let line = Polyline(points.map(\.coordinate))
        let notes = [
            Note(id: 1, kind: .typed, distanceAlong: 100, coordinate: line.coordinate(atDistance: 100), text: "First"),
            Note(id: 2, kind: .typed, distanceAlong: 600, coordinate: line.coordinate(atDistance: 600), text: "Second",
                 symbols: [.ford, NoteSymbol("foo")]),
        ]
        let url = folder.path("book.json")
        try BookFile.write(Book(title: "Symbols", route: Route(points: points), notes: notes), to: url)
        return url
    }

    /// A folder holding `names` as pictograms: a solid pure-red square each.
    static func pictograms(_ names: [String], in folder: TemporaryFolder) throws -> URL {
        let url = folder.path("mine")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for name in names {
            try Data(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="red"/></svg>"#.utf8)
                .write(to: url.appendingPathComponent("\(name).svg"))
        }
        return url
    }

    @Test("--symbol takes the library's names in any case, a folder's names with --symbols, and refuses others with the close ones")
    func noteSymbol() async throws {
        let folder = try TemporaryFolder()
        let book = try Self.book(in: folder)
        let added = await roadbook(["note", book.path, "edit", "1", "--symbol", "Ford,CATTLEGRID"])
        #expect(added.status == 0, "\(added.errors)")
        #expect(try BookFile.read(contentsOf: book).notes[0].symbols == [.ford, .cattleGrid])

        let typo = await roadbook(["note", book.path, "edit", "1", "--symbol", "fordd"])
        #expect(typo.status == 64)
        #expect(typo.errors.hasPrefix("roadbook note: --symbol 'fordd': 'fordd' is not a symbol of the library: did you mean ford"),
                "\(typo.errors)")
        let far = await roadbook(["note", book.path, "edit", "1", "--symbol", "zzzzzzzzzz"])
        #expect(far.status == 64 && far.errors.contains("one of danger1, danger2, danger3, dss"), "\(far.errors)")

        let own = try Self.pictograms(["bikeWash"], in: folder)
        let refused = await roadbook(["note", book.path, "edit", "1", "--symbol", "+bikewash"])
        #expect(refused.status == 64, "without the folder, bikeWash is no symbol")
        let taken = await roadbook(["note", book.path, "edit", "1", "--symbol", "+bikewash", "--symbols", own.path])
        #expect(taken.status == 0, "\(taken.errors)")
        #expect(try BookFile.read(contentsOf: book).notes[0].symbols.map(\.name) == ["ford", "cattleGrid", "bikeWash"])

        // A name the book carries that the library lacks can be taken off.
        let off = await roadbook(["note", book.path, "edit", "2", "--symbol", "-foo"])
        #expect(off.status == 0, "\(off.errors)")
        #expect(try BookFile.read(contentsOf: book).notes[1].symbols == [.ford])

        let nowhere = await roadbook(["note", book.path, "edit", "1", "--symbol", "fuel", "--symbols", folder.path("nowhere").path])
        #expect(nowhere.status == 1 && nowhere.errors.contains(folder.path("nowhere").path) && nowhere.errors.hasSuffix("\n")
                && nowhere.errors.split(separator: "\n").count == 1, "\(nowhere.errors)")
    }

    /// Pixels of `png` that are pure red.
    static func red(_ png: PNGImage) -> Int {
        var count = 0
        for y in 0..<png.height { for x in 0..<png.width where png.pixel(x: x, y: y) & 0xffffff == 0xff0000 { count += 1 } }
        return count
    }

    @Test("render --symbols draws a person's pictogram over the library's, and says which name it printed as text")
    func renderOverride() throws {
        let folder = try TemporaryFolder()
        let book = try Self.book(in: folder)
        let own = try Self.pictograms(["ford"], in: folder)
        let binary = SignalTests.executable.path
        let with = try runProgram(binary, ["render", book.path, "-o", folder.path("with.png").path, "--pages", "2", "--dpi", "72",
                                           "--symbols", own.path])
        #expect(with.status == 0, "\(with.errors)")
        #expect(with.errors.contains("roadbook: warning: R2: symbol 'foo' is not in the library: printed as text"), "\(with.errors)")
        let without = try runProgram(binary, ["render", book.path, "-o", folder.path("without.png").path, "--pages", "2", "--dpi", "72"])
        #expect(without.status == 0, "\(without.errors)")
        // The ford drawn 8 mm square at 72 dpi: 22.68 pixels, some 22 × 22 of them wholly red.
        let drawn = Self.red(try PNGImage(path: folder.path("with.png").path))
        #expect(drawn >= 400, "\(drawn) red pixels")
        #expect(Self.red(try PNGImage(path: folder.path("without.png").path)) < 100)

        let nowhere = try runProgram(binary, ["render", book.path, "-o", folder.path("x.pdf").path, "--symbols", folder.path("nowhere").path])
        #expect(nowhere.status == 1)
        #expect(nowhere.errors == "roadbook render: \(folder.path("nowhere").path): is not a folder of pictograms (NAME.svg files)\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.pdf").path))
    }
}
