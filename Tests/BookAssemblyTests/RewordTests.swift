import BookAssembly
import Foundation
import Geo
import Guidance
import Model
import Testing

/// A book printed in another language: only words generated from the road and left as generated
/// are written again; a person's words never.
@Suite("Rewording a book")
struct RewordTests {
    static let place = Coordinate(latitude: 42.5, longitude: 1.5)

    static func generated(_ text: String, exit: Int? = nil) -> GeneratedTurn {
        GeneratedTurn(maneuver: exit == nil ? "turn" : "roundabout", modifier: "right", exitNumber: exit,
                      junction: Junction(coordinate: place, distanceAlong: 0, spokes: []), text: text)
    }

    static func note(_ id: Int, _ kind: Note.Kind, _ text: String, generated: GeneratedTurn? = nil) -> Note {
        Note(id: id, kind: kind, distanceAlong: Double(id) * 100, coordinate: place, text: text, generated: generated)
    }

    static func book() -> Book {
        var typed = note(3, .turn, "Bear left", generated: generated("Bear left"))
        typed.generated?.wordsTyped = true
        var given = note(4, .waypoint, "Roundabout, 2nd exit", generated: generated("Roundabout, 2nd exit", exit: 2))
        given.generated?.wordsGiven = true
        return Book(title: "T", route: Route(points: [RoutePoint(coordinate: place)]), notes: [
            note(1, .turn, "Turn right onto CG-1", generated: generated("Turn right onto CG-1")),
            note(2, .turn, "Right at the bakery", generated: generated("Turn right")),       // words changed by a person
            typed,                                                                          // typed, though as generated
            given,                                                                          // blank words, given the turn's
            note(5, .waypoint, "Turn left", generated: generated("Turn left")),             // a person's, as generated
            note(6, .typed, "Fuel here"),
            note(7, .turn, "Go left", generated: generated("Go left")),                     // an older roadbook's words
        ])
    }

    @Test("to Spanish: generated words rewritten, a person's kept, the language remembered")
    func toSpanish() {
        let book = Self.book()
        let result = rewordBook(book, in: .es)
        #expect(result.book.notes.map(\.text) == ["Girar a la derecha por CG-1", "Right at the bakery", "Bear left",
                                                  "Rotonda, 2.ª salida", "Turn left", "Fuel here", "Go left"])
        #expect(result.book.notes[0].generated?.text == "Girar a la derecha por CG-1")
        #expect(result.book.notes[3].generated?.text == "Rotonda, 2.ª salida")
        #expect(result.book.notes.map(\.wordsArePersons) == book.notes.map(\.wordsArePersons))
        #expect(result.rewritten == 2 && result.unrecognised == [7])
        #expect(result.book.settings.language == .es)
        // Nothing but the words and the language.
        var expected = book
        expected.settings.language = .es
        for i in [0, 3] {
            expected.notes[i].text = result.book.notes[i].text
            expected.notes[i].generated?.text = result.book.notes[i].text
        }
        #expect(result.book == expected)
    }

    @Test("back to English gives the book it was; English is not written")
    func roundTrip() {
        let there = rewordBook(Self.book(), in: .pt).book
        #expect(there.notes[0].text == "Virar à direita para CG-1")
        let back = rewordBook(there, in: .en)
        #expect(back.book == Self.book())
        #expect(back.book.settings.language == nil)
    }

    @Test("words generated in another language than the book names are read too")
    func mixed() {
        var book = Self.book()
        book.notes[0].text = "Tourner à droite sur CG-1"
        book.notes[0].generated?.text = "Tourner à droite sur CG-1"
        #expect(rewordBook(book, in: .it).book.notes[0].text == "Svoltare a destra su CG-1")
    }
}
