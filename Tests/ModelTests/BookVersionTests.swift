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
private func versionOneBook() throws -> Data {
    try Data(contentsOf: packageRoot().appendingPathComponent("Tests/ModelTests/Fixtures/book-v1.json"))
}

@Suite("Book files of older schema versions")
struct BookVersionTests {
    @Test("a version-1 book reads with its notes, handles and legs")
    func readsVersionOne() throws {
        let book = try BookFile.decode(try versionOneBook(), fileName: "book-v1.json")
        #expect(book.schemaVersion == 1)
        #expect(book.notes.map(\.kind) == [.note, .turn, .turn, .waypoint])
        #expect(book.notes.map(\.text) == ["Chapel on the left", "Bear right onto CG-1", "Bear left onto CG-1", "Roundabout"])
        let plan = try #require(book.plan)
        #expect(plan.handles.map(\.origin) == [.tapped, .courseNote, .waypoint])
        #expect(plan.handles[1].note == HandleNote(text: "Chapel on the left", marker: "P1"))
        #expect(plan.legs.map(\.kind) == [.road, .road])
        #expect(book.notes[1].generated?.maneuver == "turn")
        #expect(book.notes[1].tulip?.roads.map(\.role) == [.side, .exit, .entry])
        #expect(book.notes[1].generated?.junction.spokes.map(\.role) == [.side, .exit, .entry])
    }
}
