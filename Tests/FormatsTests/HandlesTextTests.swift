import Foundation
import Formats
import Geo
import Model
import Testing
import TestSupport

@Suite("Handles typed as text, one coordinate a line")
struct HandlesTextTests {
    /// Two places near Andorra la Vella in every format the Geo parser reads; the UTM and MGRS
    /// forms, and the seconds, are GeographicLib's GeoConvert's for the decimal degrees.
    static let first = Coordinate(latitude: 42.5063, longitude: 1.5218)
    static let second = Coordinate(latitude: 42.51, longitude: 1.53)

    @Test("each coordinate format is a surveyed handle at its place", arguments: [
        ("42.5063, 1.5218", first),
        ("N42°30.378' E001°31.308'", first),
        ("42°30'22.68\"N 1°31'18.48\"E", first),
        ("31T 378553 4707051", first),
        ("31TCH7855307051", first),
        ("42.51 1.53", second),
        ("31T 379234 4707450", second),
        ("31TCH7923307450", second),
    ])
    func format(text: String, expected: Coordinate) throws {
        let handle = try HandlesFile.handle(from: text, id: 7)
        #expect(handle.id == 7 && handle.origin == .coordinate && handle.note == nil)
        // UTM and MGRS are written to the metre: the place is within a metre and a half.
        #expect(handle.coordinate.distance(to: expected) < 1.5, "\(text): \(handle.coordinate)")
    }

    @Test("a file: comments and blank lines skipped, notes and markers after '|', handles numbered in order")
    func file() throws {
        let folder = try TemporaryFolder()
        let text = """
        # Envalira, copied from the paper book
        N42°30.378' E001°31.308'

          31T 379234 4707450 | Chapel on the left | P1\r
        31TCH7855307051 | Fuel
        """
        try text.write(to: folder.path("h.txt"), atomically: true, encoding: .utf8)
        let input = try HandlesFile.read(contentsOf: folder.path("h.txt"))
        #expect(input.handles.map(\.id) == [1, 2, 3])
        #expect(input.handles.map(\.origin) == [.coordinate, .coordinate, .coordinate])
        #expect(input.handles.map(\.note) == [nil, HandleNote(text: "Chapel on the left", marker: "P1"),
                                              HandleNote(text: "Fuel")])
        #expect(input.handles[1].coordinate.distance(to: Self.second) < 1.5)
        #expect(input.line.isEmpty && !input.lineIsTrack)
    }

    @Test("a UTF-8 byte order mark (as Windows editors write) is no part of the first line")
    func byteOrderMark() throws {
        let input = try HandlesFile.fromText("\u{FEFF}42.5063 1.5218\r\n42.51 1.53\r\n", fileName: "h.txt")
        #expect(input.handles.count == 2)
    }

    @Test("a mistake names the file and the line, with the parser's reason", arguments: [
        ("42.5 1.5\n# fine\nnot a place\n", 3, nil),
        ("42.5 1.5\n42.6 1.6 | \n", 2, "the note after '|' is empty"),
        ("42.5 1.5 | a | b | c\n42.6 1.6\n", 1, "write COORDINATE, COORDINATE | NOTE or COORDINATE | NOTE | MARKER"),
        ("95 1.5\n42.6 1.6\n", 1, nil),
        ("# only one\n42.5 1.5\n", nil, "needs two handles or more, one coordinate a line"),
    ] as [(String, Int?, String?)])
    func mistakes(text: String, line: Int?, message: String?) throws {
        let error = #expect(throws: FormatError.self) { try HandlesFile.fromText(text, fileName: "h.txt") }
        #expect(error?.file == "h.txt" && error?.line == line, "\(String(describing: error))")
        if let message {
            #expect(error?.message == message)
        } else {
            // The coordinate's own refusal, from the Geo parser.
            let bad = text.split(separator: "\n")[line! - 1]
            let reason = try #require(throws: CoordinateParseError.self) { try CoordinateFormat.parse(String(bad)) }
            #expect(error?.message == reason.description)
        }
    }

    @Test("a .txt file is read as text; another extension is refused, naming the three")
    func extensions() throws {
        let folder = try TemporaryFolder()
        try "42.5 1.5\n42.6 1.6\n".write(to: folder.path("h.TXT"), atomically: true, encoding: .utf8)
        #expect(try HandlesFile.read(contentsOf: folder.path("h.TXT")).handles.count == 2)
        let error = #expect(throws: FormatError.self) { try HandlesFile.read(contentsOf: folder.path("h.kml")) }
        #expect(error?.message == "is neither GeoJSON (.geojson), GPX (.gpx) nor text (.txt)")
    }
}
