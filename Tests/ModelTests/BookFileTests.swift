import Foundation
import Formats
import Geo
import Model
import Testing
import TestSupport

private func sampleBook() -> Book {
    let route = Route(source: "t.gpx", points: [
        RoutePoint(coordinate: Coordinate(latitude: 42.5, longitude: 1.5), elevation: 1020.5),
        RoutePoint(coordinate: Coordinate(latitude: 42.51, longitude: 1.52)),
    ])
    let notes = [
        Note(id: 1, kind: .checkpoint, distanceAlong: 0, coordinate: Coordinate(latitude: 42.5, longitude: 1.5),
             text: "Start", marker: "DSS", waypointType: .dss, cap: 45, resetsOdometer: true),
        Note(id: 2, kind: .waypoint, distanceAlong: 812.25, coordinate: Coordinate(latitude: 42.505, longitude: 1.51),
             offsetFromRoute: -3.5, text: "Piste à gauche — «caillou»", danger: 2),
    ]
    return Book(title: "Test", rally: "Rally", stage: "1", date: "2026-11-29", route: route, notes: notes)
}

@Suite("The book file")
struct BookFileTests {
    @Test("a book survives writing and reading, and two saves give the same bytes")
    func roundTrip() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("book.json")
        let book = sampleBook()
        try BookFile.write(book, to: url)
        let first = try Data(contentsOf: url)
        #expect(try BookFile.read(contentsOf: url) == book)
        try BookFile.write(try BookFile.read(contentsOf: url), to: url)
        #expect(try Data(contentsOf: url) == first)
        #expect(String(decoding: first, as: UTF8.self).contains("\"schemaVersion\" : \(Book.currentSchemaVersion)"))
    }

    @Test("a book of more notes than a book holds is refused at notes, before any is read")
    func tooManyNotes() {
        var book = sampleBook()
        let template = book.notes[1]
        book.notes = (1...(BookLimits.maximumNotes + 1)).map { id in var note = template; note.id = id; return note }
        do {
            try book.validate()
            Issue.record("\(book.notes.count) notes were taken")
        } catch {
            #expect(error.field == "notes" && error.message.contains("10,000"), "\(error)")
        }
        book.notes.removeLast()
        #expect(throws: Never.self) { try book.validate() }
    }

    @Test("a file from a newer roadbook is refused with the version named")
    func newerVersion() throws {
        var json = String(decoding: try BookFile.encode(sampleBook()), as: UTF8.self)
        json = json.replacingOccurrences(of: "\"schemaVersion\" : \(Book.currentSchemaVersion)", with: "\"schemaVersion\" : 7")
        let error = #expect(throws: FormatError.self) { try BookFile.decode(Data(json.utf8), fileName: "b.json") }
        #expect(error?.description.contains("b.json: schemaVersion is 7") == true)
        #expect(error?.description.contains("newer roadbook") == true)
    }

    @Test("a malformed file names the field at fault", arguments: [
        ("\"distanceAlong\" : 812.25", "\"distanceAlong\" : -4", "notes[1].distanceAlong"),
        ("\"latitude\" : 42.505", "\"latitude\" : 142.505", "notes[1].coordinate"),
        ("\"title\" :", "\"titel\" :", "title is missing"),
        ("\"danger\" : 2", "\"danger\" : 9", "notes[1].danger"),
        ("\"kind\" : \"waypoint\"", "\"kind\" : \"banana\"", "notes[1].kind"),
    ])
    func malformed(replace: String, with replacement: String, expected: String) throws {
        let json = String(decoding: try BookFile.encode(sampleBook()), as: UTF8.self)
        #expect(json.contains(replace), "fixture must contain \(replace)")
        let broken = json.replacingOccurrences(of: replace, with: replacement)
        let error = #expect(throws: FormatError.self) { try BookFile.decode(Data(broken.utf8), fileName: "b.json") }
        #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
    }

    @Test("not JSON, or JSON that is not a book, is said to be so")
    func notABook() {
        let garbage = #expect(throws: FormatError.self) { try BookFile.decode(Data("{ nope".utf8), fileName: "x.json") }
        #expect(garbage?.description.hasPrefix("x.json: not JSON: line 1: ") == true, "\(String(describing: garbage))")
        let other = #expect(throws: FormatError.self) { try BookFile.decode(Data("{\"a\":1}".utf8), fileName: "x.json") }
        #expect(other?.description == "x.json: schemaVersion missing: this is not a roadbook book file")
    }

    @Test("a failed write leaves the previous file as it was")
    func atomicWrite() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("book.json")
        try BookFile.write(sampleBook(), to: url)
        let before = try Data(contentsOf: url)
        #expect(throws: FormatError.self) { try BookFile.write(sampleBook(), to: folder.path("missing/book.json")) }
        var changed = sampleBook()
        changed.route.points[0].elevation = .nan   // cannot be encoded as JSON
        #expect(throws: (any Error).self) { try BookFile.write(changed, to: url) }
        #expect(try Data(contentsOf: url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["book.json"])
    }
}
