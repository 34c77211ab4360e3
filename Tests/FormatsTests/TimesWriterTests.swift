import Foundation
import Formats
import Geo
import Model
import Testing
import TestSupport

/// The time table of a regularity book (`export --format times`), read back with Python's csv
/// module (a reader we did not write), against times worked out by hand.
@Suite("The times table (CSV)")
struct TimesWriterTests {
    static let grid = MetreGrid()

    /// DSS at 0 at 36 km/h (10 m/s), a row at 2 km, 48 km/h from 5 km (0.075 s a metre), the ASS at
    /// 12.345 km, a liaison row after it. By hand: 0 s; 200 s = 00:03:20; 500 s = 00:08:20;
    /// 500 + 7345 × 0.075 = 1050.875 s → 00:17:31; the liaison none.
    static func book(units: BookSettings.Units = .kilometres) -> Book {
        let route = Route(source: "test", points: grid.line([(0, 0), (13_000, 0)], step: 500).map { RoutePoint(coordinate: $0) })
        var settings = BookSettings(units: units)
        settings.purpose = .regularity
        func note(_ id: Int, _ x: Double, _ text: String, marker: String? = nil, type: WaypointType? = nil, speed: Int? = nil) -> Note {
            Note(id: id, kind: .typed, distanceAlong: x, coordinate: grid(x, 0), text: text, marker: marker, waypointType: type,
                 targetSpeed: speed)
        }
        var notes = [
            note(1, 0, "Start, \"the square\"", marker: "DSS", type: .dss, speed: 36),
            note(2, 2000, "Left at the chapel\nthen right", marker: "R1, \"bend\""),
            note(3, 5000, "Gravel", speed: 48),
            note(4, 12_345, "Finish", marker: "ASS", type: .ass),
            note(5, 12_600, "Liaison"),
        ]
        notes[0].resetsOdometer = true
        return Book(title: "Times", settings: settings, route: route, notes: notes)
    }

    /// The file's rows as Python's csv module reads them.
    static func readBack(_ file: URL) throws -> [[String]] {
        let script = "import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))))"
        let json = try runTool("python3", ["-c", script, file.path])
        return try JSONDecoder().decode([[String]].self, from: Data(json.utf8))
    }

    static func write(_ book: Book) throws -> (URL, [String], TemporaryFolder) {
        let folder = try TemporaryFolder()
        let file = folder.path("times.csv")
        return (file, try TimesWriter.write(book, to: file), folder)
    }

    @Test("a header, then per row its section, number, marker, type, distances, average and ideal time, and its words as written")
    func table() throws {
        let (file, warnings, _folder) = try Self.write(Self.book())
        _ = _folder
        #expect(warnings.isEmpty)
        #expect(try Self.readBack(file) == [
            ["section", "row", "marker", "type", "total_km", "from_start_km", "average_kmh", "ideal_time", "words"],
            ["1", "1", "DSS", "DSS", "0.00", "0.00", "36", "00:00:00", "Start, \"the square\""],
            ["1", "2", "R1, \"bend\"", "", "2.00", "2.00", "36", "00:03:20", "Left at the chapel\nthen right"],
            ["1", "3", "", "", "5.00", "5.00", "48", "00:08:20", "Gravel"],
            ["1", "4", "ASS", "ASS", "12.35", "12.35", "48", "00:17:31", "Finish"],
            ["", "5", "", "", "12.60", "", "", "", "Liaison"],
        ])
    }

    @Test("RFC 4180: CRLF line ends, a field with a comma, a quote or a line break in quotes, its quotes doubled")
    func quoting() throws {
        let (file, _, _folder) = try Self.write(Self.book())
        _ = _folder
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.first == "section,row,marker,type,total_km,from_start_km,average_kmh,ideal_time,words")
        #expect(lines[1] == "1,1,DSS,DSS,0.00,0.00,36,00:00:00,\"Start, \"\"the square\"\"\"")
        #expect(lines[2] == "1,2,\"R1, \"\"bend\"\"\",,2.00,2.00,36,00:03:20,\"Left at the chapel\nthen right\"")
        #expect(lines[3] == "1,3,,,5.00,5.00,48,00:08:20,Gravel")
        #expect(text.hasSuffix(",,,Liaison\r\n") && !text.hasPrefix("\u{FEFF}"))
        #expect(TimesWriter.csvField("plain words") == "plain words")
        #expect(TimesWriter.csvField("a \"quote\"") == "\"a \"\"quote\"\"\"")
        #expect(TimesWriter.csvField("e\u{301}\",x") == "\"e\u{301}\"\",x\"", "a quote after a combining accent is still doubled")
        #expect(TimesWriter.csvField("=SUM(A1)") == "=SUM(A1)", "a person's words as they are")
    }

    @Test("miles: distances in miles (1609.344 m), the header says so; the total restarts after a reset")
    func milesAndResets() throws {
        var book = Self.book(units: .miles)
        book.notes[2].resetsOdometer = true   // the odometer restarts at 5 km
        let (file, _, _folder) = try Self.write(book)
        _ = _folder
        let rows = try Self.readBack(file)
        #expect(rows[0][4] == "total_mi" && rows[0][5] == "from_start_mi")
        // 2000 m = 1.2427 mi; 12 345 m = 7.6707 mi; from the reset at 5000 m: 7345 m = 4.5640 mi.
        #expect(rows.map { $0[4] } == ["total_mi", "0.00", "1.24", "3.11", "4.56", "4.72"])
        #expect(rows.map { $0[5] } == ["from_start_mi", "0.00", "1.24", "3.11", "7.67", ""])
        #expect(rows[4][7] == "00:17:31", "the times do not depend on the units")
    }

    @Test("a navigation book is refused, in words that follow the book's name; a note off the route is named as left out")
    func refusals() throws {
        var book = Self.book()
        #expect(TimesWriter.refusal(for: book) == nil)
        book.notes[1].placement = .offRoute
        let (file, warnings, _folder) = try Self.write(book)
        _ = _folder
        #expect(warnings == ["The times table: 1 note off the route is not written (only rows on the route are)"])
        #expect(try Self.readBack(file).map { $0[1] } == ["row", "1", "2", "3", "4"])
        book.settings.purpose = .navigation
        #expect(TimesWriter.refusal(for: book) == "is a navigation book: only a regularity book has ideal times to write")
        #expect(BookFormats.writer(named: "times", for: URL(fileURLWithPath: "t.txt")).map { $0.formatName } == "times")
        #expect(BookFormats.writer(named: nil, for: URL(fileURLWithPath: "t.CSV")).map { $0.formatName } == "times")
    }
}
