import BookAssembly
import Foundation
import Geo
import Guidance
import Model
import Testing
import TestSupport

/// The arrow of a row away from any junction (`HeadingTulips`), on the note editor's small book:
/// a route 3 km east, then 1 km north. Its turns are worked out from the grid: 30 m before the
/// corner the road runs east (90°), 30 m after it north (0°), a turn of −90°.
@Suite("A row away from any junction gets an arrow along the road")
struct HeadingTulipsTests {
    static func arrow(_ exit: Degrees) -> Tulip {
        Tulip(origin: .generated, roads: [Tulip.Road(role: .entry, angle: 180), Tulip.Road(role: .exit, angle: exit)])
    }

    let line = Polyline(NoteBook.route.coordinates)
    /// The corner, measured along the route (the grid's metres are the ground's to a few parts in a million).
    let corner = NoteBook.distance(of: NoteBook.grid(3000, 0))

    @Test("straight on along a straight road, left at the corner, half left 15 m before it, straight on at either end")
    func arrows() {
        #expect(HeadingTulips.arrow(on: line, at: 1_000) == Self.arrow(0))
        // At the corner: 30 m before it the road heads east, 30 m after it north.
        #expect(HeadingTulips.arrow(on: line, at: corner) == Self.arrow(-90))
        // 15 m before it: from (2955, 0) east to (2985, 0), then to (3000, 15): north-east, 45°.
        #expect(HeadingTulips.arrow(on: line, at: corner - 15) == Self.arrow(-45))
        #expect(HeadingTulips.arrow(on: line, at: 0) == Self.arrow(0))
        #expect(HeadingTulips.arrow(on: line, at: line.length) == Self.arrow(0))
        // A metre or a few short of an end, the road there says no heading: straight on.
        #expect(HeadingTulips.arrow(on: line, at: line.length - 1) == Self.arrow(0))
        #expect(HeadingTulips.arrow(on: line, at: 14) == Self.arrow(0))
        #expect(HeadingTulips.arrow(on: Polyline([NoteBook.grid(0, 0)]), at: 0) == nil)
    }

    @Test("rows with no turn and no drawing of a person's get the arrow; turn rows, drawn tulips and rows off the route keep theirs")
    func drawInBook() {
        var book = NoteBook.make()
        let drawn = Tulip(origin: .drawn, roads: [Tulip.Road(role: .entry, angle: 180), Tulip.Road(role: .exit, angle: 30)])
        // W1 was drawn by a person; the ASS row stands off the route; the DSS row carries an arrow
        // drawn on an old route, to be drawn again.
        book.notes[3].tulip = drawn
        book.notes[4].placement = .offRoute
        book.notes[0].tulip = Self.arrow(45)
        let turn = book.notes[2].tulip
        let result = HeadingTulips.draw(in: book)
        #expect(result.notes[0].tulip == Self.arrow(0), "the start, drawn again")
        #expect(result.notes[1].tulip == Self.arrow(0), "R2, 1 km along the straight first leg")
        #expect(result.notes[2].tulip == turn && turn?.roads.count == 3, "the turn row keeps its junction's tulip")
        #expect(result.notes[3].tulip == drawn)
        #expect(result.notes[4].tulip == nil)
        #expect(HeadingTulips.draw(in: result) == result, "drawing again changes nothing")
        // Not drawn again, the old arrow stays; a row without a tulip still gets one.
        let kept = HeadingTulips.draw(in: book, again: false)
        #expect(kept.notes[0].tulip == Self.arrow(45) && kept.notes[1].tulip == Self.arrow(0))
    }

    @Test("a book whose route was removed has no road to follow: no arrow")
    func removedRoute() {
        var book = NoteBook.make()
        book.route.straightStretches = [StraightStretch(start: 0, end: NoteBook.length, reason: .removed, leg: 1)]
        #expect(HeadingTulips.draw(in: book) == book)
    }

    @Test("a note added at the corner by the note editor gets the arrow turning left; moved 15 m back, half left")
    func addedAndMoved() throws {
        var book = NoteBook.make()
        let editor = NoteEditor(now: NoteBook.now)
        _ = try editor.apply(.add(.distance(corner), NoteFields(text: "Cattle grid at the corner")), to: &book)
        let added = try #require(book.notes.first { $0.text == "Cattle grid at the corner" })
        #expect(added.tulip == Self.arrow(-90))
        _ = try editor.apply(.move(.id(added.id), .to(corner - 15)), to: &book)
        #expect(book.notes.first { $0.id == added.id }?.tulip == Self.arrow(-45))
    }
}
