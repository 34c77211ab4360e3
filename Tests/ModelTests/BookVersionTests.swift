import Foundation
import Formats
import Geo
import Model
import Testing
import TestSupport

/// `Fixtures/book-v1.json` is a book file of schema version 1, written by `roadbook route` (embedded
/// router over the Andorra extract) from three handles near Sant Julià de Lòria: a tapped one, one
/// placed for a note ("Chapel on the left") and a waypoint ("Roundabout"). It is kept as written so
/// that every later roadbook is checked against a real version-1 file; it is never regenerated.
private func versionOneText() throws -> String {
    try String(contentsOf: packageRoot().appendingPathComponent("Tests/ModelTests/Fixtures/book-v1.json"), encoding: .utf8)
}

@Suite("Book files of older schema versions")
struct BookVersionTests {
    @Test("a version-1 book reads with its notes, handles and legs, its renamed values migrated")
    func readsVersionOne() throws {
        let text = try versionOneText()
        #expect(text.contains("\"schemaVersion\" : 1,") && text.contains("\"kind\" : \"note\"")
                && text.contains("\"origin\" : \"courseNote\""), "the fixture must keep the version-1 values")
        let book = try BookFile.decode(Data(text.utf8), fileName: "book-v1.json")
        #expect(book.schemaVersion == Book.currentSchemaVersion)
        #expect(book.notes.map(\.kind) == [.typed, .turn, .turn, .waypoint])
        #expect(book.notes.map(\.text) == ["Chapel on the left", "Bear right onto CG-1", "Bear left onto CG-1", "Roundabout"])
        let plan = try #require(book.plan)
        #expect(plan.handles.map(\.origin) == [.tapped, .note, .waypoint])
        #expect(plan.handles[1].note == HandleNote(text: "Chapel on the left", marker: "P1"))
        #expect(plan.legs.map(\.kind) == [.road, .road])
        #expect(book.notes[1].generated?.maneuver == "turn")
        #expect(book.notes[1].tulip?.roads.map(\.role) == [.side, .exit, .entry])
        #expect(book.notes[1].generated?.junction.spokes.map(\.role) == [.side, .exit, .entry])
    }

    @Test("migrating changes the renamed values only: every other value reads as the file has it")
    func migrationKeepsValues() throws {
        let text = try versionOneText()
        let migrated = try BookFile.decode(Data(text.utf8), fileName: "book-v1.json")
        // The same file with the version-2 values written in by hand: read without any migration.
        let byHand = text
            .replacingOccurrences(of: "\"schemaVersion\" : 1,", with: "\"schemaVersion\" : 2,")
            .replacingOccurrences(of: "\"kind\" : \"note\"", with: "\"kind\" : \"typed\"")
            .replacingOccurrences(of: "\"origin\" : \"courseNote\"", with: "\"origin\" : \"note\"")
        #expect(migrated == (try BookFile.decode(Data(byHand.utf8), fileName: "book-v2.json")))
    }

    @Test("a migrated book writes back as version 2 with the new values, and reads back the same")
    func writesBackAsVersionTwo() throws {
        let book = try BookFile.decode(Data(try versionOneText().utf8), fileName: "book-v1.json")
        let written = String(decoding: try BookFile.encode(book), as: UTF8.self)
        #expect(written.contains("\"schemaVersion\" : 2,"))
        #expect(written.contains("\"kind\" : \"typed\"") && !written.contains("\"kind\" : \"note\""))
        #expect(written.contains("\"origin\" : \"note\"") && !written.contains("courseNote"))
        #expect(try BookFile.decode(Data(written.utf8), fileName: "book.json") == book)
    }

    @Test("version 2 has no `note` kind: a file claiming version 2 with one is refused at that note")
    func oldValueInNewVersion() throws {
        let text = try versionOneText()
            .replacingOccurrences(of: "\"schemaVersion\" : 1,", with: "\"schemaVersion\" : 2,")
            .replacingOccurrences(of: "\"origin\" : \"courseNote\"", with: "\"origin\" : \"note\"")
        let error = #expect(throws: FormatError.self) { try BookFile.decode(Data(text.utf8), fileName: "b.json") }
        #expect(error?.description.contains("notes[0].kind") == true, "\(String(describing: error))")
    }
}
