import BookAssembly
import Foundation
import Formats
import Geo
import Guidance
import Model
import RouteEditing

/// The stages every operation on a book runs, in this one order:
///
///     read route → collapse stand-still places → place notes → find turns (map, engine or shape)
///       → join turns to notes → terrain → validate → commit
///
/// An operation is a configuration of it, not a script of its own: where its route comes from,
/// how its notes are placed (and so how turns join them), where its turns are read from, what
/// becomes of the heights, and what is written. Each operation's configuration is made by one
/// function (`build`, `regenerate`, `apply`, `route`, `removeRoute`, `explain`;
/// docs/architecture.md has the table), which the operations' entry points (`buildBook`,
/// `Regeneration`, `ApplyWorkflow.applyFile`, `RouteRun`, …) call.
///
/// `prepare` runs the stages up to joining the turns, so a caller can show what changed before the
/// slower terrain; `finish` runs terrain, validation and the commit; `run` runs them all.
public struct BookPipeline: Sendable {
    /// Where the route comes from: the "read route" stage (and for a recorded track, "collapse
    /// stand-still places").
    public enum RouteSource: Sendable {
        /// A route file in any format `build` reads (`readRoute`): its line with its stand-still
        /// places collapsed, and its waypoints, or the whole book it carries.
        case track(URL)
        /// A changed route line: a file in any format `build` reads, or a GeoJSON line
        /// (`Regeneration.readNewRoute`).
        case changedLine(URL)
        /// The line of a drawing through handles, its road legs answered (`RouteEditor.line()`).
        case drawing(RouteEditor)
        /// The book's own route.
        case book
    }

    /// How the notes are placed on the route: the "place notes" stage, and with it how the turns
    /// join them.
    public enum NotePlacement: Sendable {
        /// A new book of a track's waypoints (`assembleBook`), those off the route resolved, or of
        /// the rows of the book the file carries; turns joined by `TurnJoiner`. The book is
        /// travelled in the turns' mode.
        case waypoints(NewBook, offRoute: OffRouteResolution)
        /// A new book of a drawing's handle notes, each where the route reaches its handle
        /// (`assembleRouteBook`); turns joined by `TurnJoiner`.
        case handles(NewBook)
        /// The book's notes moved onto the changed route by `Regenerator`, which joins the turns in
        /// the same pass (where a note lands decides which turn is its); the book is travelled in
        /// the turns' mode, and its handles dropped.
        case moved
        /// The drawing applied to the book (`ApplyWorkflow`): its handles' rows at their handles,
        /// every other note moved and the turns joined by `Regenerator`, the notes off the route
        /// resolved as the options say. `lastWritten`: the notes the last Apply wrote, to find
        /// the ones deleted since.
        case applied(ApplyOptions, lastWritten: [DeletedNote])
        /// The route removed (`ApplyWorkflow.removeRoute`): turn and handle rows out, the notes
        /// that stay on a straight line through them.
        case routeRemoved
        /// The notes as they are; the turns are read, not joined (`inspect --explain`).
        case kept
    }

    /// What becomes of the book's heights: the "terrain" stage.
    public enum Terrain: Sendable {
        /// Heights fetched for the route when the request names sources; none otherwise.
        case fetch(TerrainRequest)
        /// Heights fetched for the changed route, or without sources the old route's dropped, with
        /// a warning (`TerrainRequest.fetchOrDrop`).
        case fetchOrDrop(TerrainRequest)
        /// None: the route they belonged to is gone.
        case drop
        /// As they are.
        case keep
    }

    /// The header and the settings of a new book.
    public struct NewBook: Sendable {
        /// nil for a track's own name (its GPX name, its first track's name, else the file's name).
        public var title: String?
        public var rally: String?
        public var stage: String?
        public var date: String?
        public var settings: BookSettings

        public init(title: String?, rally: String? = nil, stage: String? = nil, date: String? = nil,
                    settings: BookSettings = BookSettings()) {
            self.title = title
            self.rally = rally
            self.stage = stage
            self.date = date
            self.settings = settings
        }
    }

    // Set by the operations' configurations (`BookPipeline.build`, …), read by anyone.

    /// The book the operation changes, as read; nil for a new book.
    public internal(set) var book: Book?
    public internal(set) var route: RouteSource
    public internal(set) var notes: NotePlacement
    /// The "find turns" stage: where the turns are read from, in which mode.
    public internal(set) var turns: TurnReading
    /// Where the turn passes record what they decide about each junction, when asked.
    public internal(set) var trace: TurnTrace? = nil
    public internal(set) var terrain: Terrain
    /// The "validate" and "commit" stages: what is written; nil for nothing.
    public var commit: BookCommit?

    /// What the stages made: the book, and what each stage found for the organiser.
    public struct Outcome: Sendable {
        /// The book as the stages left it: without terrain until `finish`.
        public internal(set) var book: Book
        /// The turns found along the route.
        public internal(set) var turns = FoundTurns(maneuvers: [], source: "none")
        /// A new book's waypoints found off the route, each with what became of it.
        public internal(set) var offRoute: [OffRouteNote] = []
        /// A new book's route length, as measured placing its notes.
        public internal(set) var routeLength: Metres = 0
        /// What moving the notes onto a changed route did (`NotePlacement.moved`).
        public internal(set) var regeneration = RegenerationReport()
        /// Whether the book's handles were dropped, its route now coming from a file (`moved`).
        public internal(set) var planDropped = false
        /// What applying a drawing did (`NotePlacement.applied`).
        public internal(set) var applied = ApplyReport()
        /// What removing the route did (`NotePlacement.routeRemoved`).
        public internal(set) var removal = RemoveRouteReport()
        /// The pages of the PDF, once committed with one.
        public internal(set) var pages: Int?
        /// What the notes' stage says last, after the terrain's figures: a new book's waypoints off
        /// the route, an Apply's legs drawn straight.
        var closing: [WorkflowMessage] = []
    }

    /// The route as read, for the stages after it.
    struct ReadRoute {
        /// nil for a drawing, whose route is made as its notes are placed.
        var route: Route?
        /// The line the turns are read along.
        var line: [Coordinate]
        /// A track's file: its waypoints, or the book it carries.
        var file: RouteFile?
        /// The file read, if any.
        var url: URL?
        /// The route as warnings about its turns name it.
        var name: String
    }

    /// Runs the stages from reading the route to joining the turns: what a caller shows before
    /// the slower terrain.
    /// - Parameter log: where the stages say what they find, as they find it.
    /// - Throws: the route file's, the map's and the stages' errors (`WorkflowError`).
    public func prepare(log: any WorkflowLog) throws -> Outcome {
        let read = try readRoute(log: log)
        var placed = try placeNotes(on: read, log: log)
        let found = try findTurns(along: read, for: &placed.outcome.book, log: log)
        try joinTurns(found, read: read, to: &placed, log: log)
        placed.outcome.turns = found
        return placed.outcome
    }

    /// Runs the stages after joining the turns: terrain, then what the notes' stage says last,
    /// then validation and the commit.
    /// - Throws: the terrain sources', the book's (it would not be valid) and the outputs' errors;
    ///   nothing is written then.
    public func finish(_ outcome: inout Outcome, log: any WorkflowLog) async throws {
        try await addTerrain(to: &outcome, log: log)
        for message in outcome.closing { log.record(message) }
        outcome.pages = try commit?.commit(outcome.book)
    }

    /// Every stage, in order.
    public func run(log: any WorkflowLog) async throws -> Outcome {
        var outcome = try prepare(log: log)
        try await finish(&outcome, log: log)
        return outcome
    }

    // MARK: The stages shared by every operation

    /// "read route" (and for a track, "collapse stand-still places", in `readRoute`).
    func readRoute(log: any WorkflowLog) throws -> ReadRoute {
        switch route {
        case .track(let url):
            let (file, route, warnings) = try Workflows.readRoute(url)
            for warning in warnings { log.record(WorkflowMessage(.warning, warning)) }
            return ReadRoute(route: route, line: route.coordinates, file: file, url: url, name: url.lastPathComponent)
        case .changedLine(let url):
            let read = try Regeneration.readNewRoute(url)
            if let warning = read.warning { log.record(WorkflowMessage(.warning, warning)) }
            return ReadRoute(route: read.route, line: read.route.coordinates, url: url, name: url.lastPathComponent)
        case .drawing(let editor):
            return ReadRoute(line: editor.line(), name: "the drawn route")
        case .book:
            let route = changed.route
            return ReadRoute(route: route, line: route.coordinates, name: route.source ?? "the book's route")
        }
    }

    /// "find turns", from the map, the engine or the shape (`TurnReading`): the side of the road
    /// the map's roundabouts say settled into the book's settings, and how the turns were read
    /// said when worth a warning.
    func findTurns(along read: ReadRoute, for book: inout Book, log: any WorkflowLog) throws -> FoundTurns {
        var reading = turns
        // A file that carries a whole book: its rows are the organiser's, so turns come only from a map.
        if read.file?.book != nil, case .shape = reading.source { reading.source = .none }
        let found = try reading.find(along: read.line, drivingSide: book.settings.drivingSide, trace: trace, log: log)
        found.settleDrivingSide(of: &book.settings, given: self.book == nil ? "--driving-side" : "the book says", log: log)
        for warning in found.warnings(file: read.name) { log.record(warning) }
        return found
    }

    /// "terrain".
    func addTerrain(to outcome: inout Outcome, log: any WorkflowLog) async throws {
        switch terrain {
        case .fetch(let request):
            try await request.apply(to: &outcome.book, log: log)
        case .fetchOrDrop(let request):
            let dropped = try await request.fetchOrDrop(for: &outcome.book, oldRoute: book?.route.coordinates, log: log)
            // Said once, as it is dropped; an Apply's report keeps it with its other notices.
            if let dropped, case .applied = notes { outcome.applied.notices.append(dropped) }
        case .drop:
            TerrainRequest.dropHeights(of: &outcome.book)
        case .keep:
            break
        }
    }

    /// The book being changed; only a configuration of a new book (`build`, `route`) has none.
    var changed: Book {
        guard let book else { preconditionFailure("the configuration changes a book, and was given none") }
        return book
    }

    /// The drawing the route comes from; only `route` and `apply` place notes for one.
    var drawing: RouteEditor {
        guard case .drawing(let editor) = route else { preconditionFailure("the notes of a drawing need its route") }
        return editor
    }
}
