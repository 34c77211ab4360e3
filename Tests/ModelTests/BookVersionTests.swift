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

    @Test("a migrated book writes back in the current version with the new values, and reads back the same")
    func writesBackAsVersionTwo() throws {
        let book = try BookFile.decode(Data(try versionOneText().utf8), fileName: "book-v1.json")
        let written = String(decoding: try BookFile.encode(book), as: UTF8.self)
        #expect(written.contains("\"schemaVersion\" : \(Book.currentSchemaVersion),"))
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

/// `Fixtures/book-v2.json` is a book file of schema version 2, written by `roadbook route` (schema 2
/// code, before version 3) against a loopback OSRM stand-in that answered the first leg with a
/// recorded OSRM route, the second with HTTP 500, the third with HTTP 429 and the fourth with
/// NoRoute: each leg state is stored in Swift's default enum form (`{"serverError": {"_0": …}}`).
/// Kept as written; never regenerated.
private func versionTwoText() throws -> String {
    try String(contentsOf: packageRoot().appendingPathComponent("Tests/ModelTests/Fixtures/book-v2.json"), encoding: .utf8)
}

@Suite("Book files of schema version 2: leg states in Swift's enum form")
struct BookVersionTwoTests {
    @Test("a version-2 book reads with every leg state and the server's reason")
    func readsVersionTwo() throws {
        let text = try versionTwoText()
        #expect(text.contains("\"schemaVersion\" : 2,") && text.contains("\"_0\" : \"OSRM: server error (HTTP 500)\""),
                "the fixture must keep the version-2 form")
        let book = try BookFile.decode(Data(text.utf8), fileName: "book-v2.json")
        let plan = try #require(book.plan)
        #expect(plan.legs.map(\.state) == [.road, .serverError("OSRM: server error (HTTP 500)"), .rateLimited, .noRoad])
        #expect(plan.legs[0].answers[.drive] != nil)
        #expect(plan.handles[0].note == HandleNote(text: "Roundabout exit", marker: "P1"))
    }

    @Test("written back, the states are names with the reason beside them, and read back the same")
    func writesVersionThree() throws {
        let book = try BookFile.decode(Data(try versionTwoText().utf8), fileName: "book-v2.json")
        let written = String(decoding: try BookFile.encode(book), as: UTF8.self)
        #expect(written.contains("\"schemaVersion\" : 3,"))
        #expect(!written.contains("_0") && !written.contains("\"serverError\" : {"))
        #expect(written.contains("\"state\" : \"serverError\"") && written.contains("\"detail\" : \"OSRM: server error (HTTP 500)\""))
        #expect(written.contains("\"state\" : \"road\"") && written.contains("\"state\" : \"rateLimited\"")
                && written.contains("\"state\" : \"noRoad\""))
        #expect(try BookFile.decode(Data(written.utf8), fileName: "book.json") == book)
    }

    @Test("an unreachable leg in the version-2 form migrates with its reason")
    func unreachableMigrates() throws {
        let text = try versionTwoText().replacingOccurrences(of: "\"serverError\" : {", with: "\"unreachable\" : {")
        let book = try BookFile.decode(Data(text.utf8), fileName: "book-v2.json")
        #expect(book.plan?.legs[1].state == .unreachable("OSRM: server error (HTTP 500)"))
    }

    @Test("a version-3 book with an unknown state is refused at that leg's field")
    func unknownState() throws {
        let book = try BookFile.decode(Data(try versionTwoText().utf8), fileName: "book-v2.json")
        let text = String(decoding: try BookFile.encode(book), as: UTF8.self)
            .replacingOccurrences(of: "\"state\" : \"rateLimited\"", with: "\"state\" : \"sleeping\"")
        let error = #expect(throws: FormatError.self) { try BookFile.decode(Data(text.utf8), fileName: "b.json") }
        #expect(error?.description.hasPrefix("b.json: plan.legs[2].state 'sleeping' is not a leg state") == true, "\(String(describing: error))")
    }
}
