import BookAssembly
import Foundation
import Geo
import Guidance
import Model
import OSM
import Testing
import TestSupport

/// Regeneration after a route change, on a drawn road network:
///
///     grid: 40 m
///               d
///
///     a         b         c
///
///               e         f
///
///               g
///
/// Route 1 a→b→d turns left at b. Route 2 (a changed leg) a→b→e→f turns right at b, then left at e.
@Suite("Regenerating turn notes after a route change")
struct RegenerationTests {
    static let map = AsciiMap(gridSize: 40, """
                  d

        a         b         c

                  e         f

                  g
        """, ways: [("abc", ["highway": "primary", "name": "Main"]), ("db", ["highway": "residential", "name": "North"]),
                    ("beg", ["highway": "track", "name": "South"]), ("ef", ["highway": "track", "name": "East"])])

    func route(_ letters: String) -> Route {
        Route(points: Self.map.route(Array(letters)).line.map { RoutePoint(coordinate: $0) })
    }

    func turns(_ letters: String) -> [Maneuver] { maneuvers(Self.map, Self.map.route(Array(letters))) }

    /// A book on route 1 with its turn notes, and optionally a note a person typed at b.
    func book(withPersonNote: Bool = false) -> Book {
        let inputs = withPersonNote
            ? [NoteInput(coordinate: Self.map["b"].coordinate, text: "Chapel on the corner", marker: "P1")] : []
        var book = assembleBook(title: "Regen", route: route("abd"), notes: inputs).book
        book.notes = TurnJoiner().join(turns("abd"), into: book.notes)
        return book
    }

    @Test("the book starts with one generated row: turn left at b")
    func start() throws {
        let notes = book().notes
        #expect(notes.count == 1 && notes[0].kind == .turn && notes[0].text == "Turn left onto North")
        #expect(notes[0].tulip?.origin == .generated && notes[0].generated != nil)
    }

    @Test("a changed leg: the note at b no longer describes the road and is regenerated; e gets a new row")
    func changedLeg() throws {
        let (book, report) = Regenerator().regenerate(book(), route: route("abef"), maneuvers: turns("abef"))
        #expect(report.changed.map(\.before) == ["Turn left onto North"])
        #expect(report.changed.map(\.after) == ["Turn right onto South"])
        #expect(report.added.map(\.text) == ["Turn left onto East"])
        #expect(book.notes.map(\.text) == ["Turn right onto South", "Turn left onto East"])
        let b = book.notes[0]
        #expect(b.tulip?.origin == .generated && b.tulip?.exit.map { $0.angle > 0 } == true, "redrawn: the exit is to the right now")
        #expect(b.generated?.modifier == "right")
        #expect(report.tulipsRedrawn == 2 && report.removed.isEmpty)
    }

    @Test("a new row never takes the id of a note a person deleted (its tombstone holds the highest id)")
    func newRowSkipsDeletedIDs() throws {
        var old = book()
        old.deletedNotes = [DeletedNote(id: 7, kind: .typed, coordinate: Self.map["g"].coordinate, text: "Gone")]
        let (book, report) = Regenerator().regenerate(old, route: route("abef"), maneuvers: turns("abef"))
        #expect(report.added.map(\.text) == ["Turn left onto East"])
        #expect(report.added.map(\.id) == [8], "the first id past every note's and every tombstone's")
    }

    @Test("a reversed route: every turn is regenerated for the other direction")
    func reversed() throws {
        let (book, report) = Regenerator().regenerate(book(), route: route("dba"), maneuvers: turns("dba"))
        #expect(report.changed.count == 1)
        #expect(book.notes.map(\.text) == ["Turn right onto Main"])
        #expect(abs(book.notes[0].distanceAlong - 80) < 0.5, "b is 80 m from d")
    }

    @Test("words a person typed on a changed junction stay; the generated tulip is redrawn")
    func personsWords() throws {
        var start = book()
        start.notes[0].text = "Left at the chapel"
        let (book, report) = Regenerator().regenerate(start, route: route("abef"), maneuvers: turns("abef"))
        #expect(book.notes[0].text == "Left at the chapel")
        #expect(report.changed.first?.wordsKept == true)
        #expect(book.notes[0].tulip?.exit.map { $0.angle > 0 } == true)
        #expect(book.notes[0].generated?.text == "Turn right onto South", "the new words are on record, not printed")
    }

    @Test("a person's own note at a changed junction keeps its words; its joined tulip follows the road")
    func personsNote() throws {
        let start = book(withPersonNote: true)
        #expect(start.notes.count == 1 && start.notes[0].marker == "P1", "the turn joined the person's note")
        let (book, _) = Regenerator().regenerate(start, route: route("abef"), maneuvers: turns("abef"))
        let p1 = try #require(book.notes.first { $0.marker == "P1" })
        #expect(p1.text == "Chapel on the corner" && p1.kind == .waypoint)
        #expect(p1.tulip?.exit.map { $0.angle > 0 } == true)
    }

    @Test("a tulip a person drew is never changed")
    func drawnTulip() throws {
        var start = book()
        let drawn = Tulip(origin: .drawn, roads: [.init(role: .entry, angle: 180), .init(role: .exit, angle: -45)],
                          strokes: [[.init(x: 0, y: 0), .init(x: 0.5, y: 0.5)]])
        start.notes[0].tulip = drawn
        let (book, report) = Regenerator().regenerate(start, route: route("abef"), maneuvers: turns("abef"))
        #expect(book.notes[0].tulip == drawn)
        #expect(book.notes[0].text == "Turn right onto South", "unedited words are regenerated")
        #expect(report.drawnTulipsKept == 1)
    }

    @Test("a turn that is gone: an untouched row is removed, an edited one is kept without its tulip")
    func vanished() throws {
        // Route a→b→c goes straight through b past a side road at 90°: no row there.
        let (plain, r1) = Regenerator().regenerate(book(), route: route("abc"), maneuvers: turns("abc"))
        #expect(plain.notes.isEmpty && r1.removed.count == 1)
        var edited = book()
        edited.notes[0].text = "Watch the dog"
        let (kept, r2) = Regenerator().regenerate(edited, route: route("abc"), maneuvers: turns("abc"))
        #expect(kept.notes.map(\.text) == ["Watch the dog"] && r2.keptWithoutTurn.count == 1)
        #expect(kept.notes[0].tulip == nil && kept.notes[0].generated == nil)
    }

    @Test("the same route again changes nothing")
    func unchanged() throws {
        let start = book()
        let (book, report) = Regenerator().regenerate(start, route: route("abd"), maneuvers: turns("abd"))
        #expect(report.isEmpty)
        #expect(book.notes == start.notes)
    }
}
