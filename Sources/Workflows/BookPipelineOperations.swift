import Foundation
import Guidance
import Model
import RouteEditing

// Each operation on a book as a configuration of `BookPipeline`: which route, how the notes are
// placed, which turns, what becomes of the heights, what is written. docs/architecture.md has them
// as a table.

extension BookPipeline {
    /// `build`: a track file, its stand-still places collapsed → its waypoints placed, those off the
    /// route resolved → turns from `turns` (the map or the shape), joined → heights fetched when
    /// sources are given → `commit` (the book file and its PDF).
    public static func build(track: URL, book: NewBook, offRoute: OffRouteResolution, turns: TurnReading,
                             terrain: TerrainRequest, commit: BookCommit?) -> BookPipeline {
        BookPipeline(book: nil, route: .track(track), notes: .waypoints(book, offRoute: offRoute), turns: turns,
                     terrain: .fetch(terrain), commit: commit)
    }

    /// `route`: a drawing whose legs an engine answered → its handle notes at their handles → the
    /// engine's junctions, joined (none when `turns` is off) → heights fetched when sources are
    /// given → `commit` (the book file and its PDF).
    public static func route(_ drawing: RouteEditor, book: NewBook, turns: Bool, terrain: TerrainRequest,
                             commit: BookCommit?) -> BookPipeline {
        let reading = TurnReading(turns ? .engine(drawing.geometry()) : .none, mode: drawing.plan.mode)
        return BookPipeline(book: nil, route: .drawing(drawing), notes: .handles(book), turns: reading,
                            terrain: .fetch(terrain), commit: commit)
    }

    /// `regenerate`: a changed route file → the book's notes moved onto it and its turns (from
    /// `turns`: the map or the shape) joined, by `Regenerator` → heights fetched, or the old ones
    /// dropped → `commit` (the book and its undo file).
    public static func regenerate(_ book: Book, route: URL, turns: TurnReading, terrain: TerrainRequest,
                                  commit: BookCommit?) -> BookPipeline {
        BookPipeline(book: book, route: .changedLine(route), notes: .moved, turns: turns, terrain: .fetchOrDrop(terrain),
                     commit: commit)
    }

    /// `apply`, `route --retry` and `regenerate --route HANDLES`: a drawing → the book's notes
    /// moved, handle rows at their handles, notes off the route resolved → turns from the map, the
    /// engine or the shape (`TurnReading.of`; none when the book's choice is none) → heights fetched or
    /// dropped → `commit` (the book and its undo file).
    /// - Parameter lastWritten: the notes the last Apply wrote, to find those deleted since.
    public static func apply(_ drawing: RouteEditor, to book: Book, options: ApplyOptions, lastWritten: [DeletedNote],
                             commit: BookCommit?) -> BookPipeline {
        BookPipeline(book: book, route: .drawing(drawing), notes: .applied(options, lastWritten: lastWritten),
                     turns: .of(drawing, map: options.osm, turns: options.turns(for: book) != .none),
                     terrain: .fetchOrDrop(options.terrain), commit: commit)
    }

    /// `remove-route`: the book's route → turn and handle rows out, a straight line through the
    /// notes that stay → no turns → heights dropped → `commit` (the book and its undo file).
    public static func removeRoute(of book: Book, commit: BookCommit?) -> BookPipeline {
        BookPipeline(book: book, route: .book, notes: .routeRemoved, turns: TurnReading(.none, mode: book.travelMode),
                     terrain: .drop, commit: commit)
    }

    /// `inspect --explain`: the book's route → its notes as they are → turns from the map or the
    /// shape, their passes' decisions in `trace` → not joined, nothing written.
    public static func explain(_ book: Book, map: URL?, mode: TravelMode, trace: TurnTrace) -> BookPipeline {
        BookPipeline(book: book, route: .book, notes: .kept, turns: TurnReading(map.map { .map($0) } ?? .shape, mode: mode),
                     trace: trace, terrain: .keep, commit: nil)
    }
}
