import Foundation
import Geo
import Model

/// Tulips for rows away from any junction: a waypoint, a checkpoint or a person's note on the
/// road, with no turn of its own. Such a row gets a plain arrow following the road: an entry from
/// the bottom and an exit at the route's change of heading across the row's place, so the rider
/// sees which way the road runs there (straight on, or round a bend).
///
/// The arrow is a generated tulip (`Tulip.Origin.generated`) without a turn (`Note.generated` nil):
/// it belongs to the road, so it is drawn again wherever the route or the row's place changes, and
/// a turn joining the row replaces it (`TurnJoiner`). A tulip a person drew is never replaced.
public enum HeadingTulips {
    /// The heading before a row is read over this much route before its place, the heading after
    /// over this much after it: the stretch a rider sees at the row, long enough that one GPS wobble
    /// of a recorded track does not set it.
    public static let reach: Metres = 30

    /// The arrow at `distance` along `line`: the entry at 180, the exit at the turn from the
    /// heading over the `reach` metres before to the heading over the `reach` metres after, in whole
    /// degrees. Near the start of the route (or its end), with less than half of `reach` of road
    /// before (after), the arrow goes straight on: a metre of line says no heading. Nil on a route
    /// of no length.
    public static func arrow(on line: Polyline, at distance: Metres) -> Tulip? {
        guard line.length > 0, distance.isFinite else { return nil }
        let here = min(max(distance, 0), line.length)
        let from = max(0, here - reach), to = min(line.length, here + reach)
        var turn: Degrees = 0
        if here - from >= reach / 2, to - here >= reach / 2 {
            let a = line.coordinate(atDistance: from), b = line.coordinate(atDistance: here), c = line.coordinate(atDistance: to)
            if a != b, b != c { turn = normalizedTurn((b.bearing(to: c) - a.bearing(to: b)).rounded()) }
        }
        return Tulip(origin: .generated, roads: [Tulip.Road(role: .entry, angle: 180), Tulip.Road(role: .exit, angle: turn)])
    }

    /// Whether `note` is a row the arrow is for: on the route, with no turn (not a turn row, no
    /// generated turn joined), and no tulip of a person's.
    public static func wantsArrow(_ note: Note) -> Bool {
        note.kind != .turn && note.generated == nil && note.placement == .onRoute && note.tulip?.origin != .drawn
    }

    /// `book` with every row that `wantsArrow` given its arrow on the book's route; every other row
    /// as it was. A book whose route was removed (its line only joins the rows left) has no road to
    /// follow: it is returned as it is.
    /// - Parameter again: whether an arrow drawn before is drawn anew, on a route that changed; else
    ///   only rows without a tulip get one (a book read back as it was written keeps its own).
    /// - Complexity: O(notes × log(route points)).
    public static func draw(in book: Book, again: Bool = true) -> Book {
        guard followsRoad(book) else { return book }
        var result = book
        let line = Polyline(book.route.coordinates)
        for i in result.notes.indices where wantsArrow(result.notes[i]) && (again || result.notes[i].tulip == nil) {
            result.notes[i].tulip = arrow(on: line, at: result.notes[i].distanceAlong)
        }
        return result
    }

    /// `note`'s tulip as `draw(in:)` would draw it in `book`: its arrow where it `wantsArrow`, else
    /// the tulip it has.
    public static func tulip(of note: Note, in book: Book) -> Tulip? {
        guard wantsArrow(note), followsRoad(book) else { return note.tulip }
        return arrow(on: Polyline(book.route.coordinates), at: note.distanceAlong)
    }

    /// Whether the book's line is a road to follow: not the line left where its route was removed.
    static func followsRoad(_ book: Book) -> Bool {
        !(book.route.straightStretches ?? []).contains { $0.reason == .removed }
    }
}
