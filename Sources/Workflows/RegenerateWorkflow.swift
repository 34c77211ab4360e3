import BookAssembly
import Foundation
import Formats
import Model
import RouteEditing

/// What `regenerate` brings onto a changed route.
public struct RegenerateRequest: Sendable {
    /// The book file to bring onto the new route.
    public var book: URL
    /// The changed route: a GPX track (or route), or a GeoJSON line.
    public var route: URL
    /// An OpenStreetMap extract for the junctions; nil for the route's shape.
    public var osm: URL?
    /// Where the book is written; nil for over `book`.
    public var output: URL?
    /// Heights for the new route; empty to drop the old route's terrain.
    public var terrain: TerrainRequest
    /// How the route is travelled; nil for the book's own (`Book.travelMode`).
    public var mode: TravelMode?
    /// Whether the book and its undo file are replaced although they are read-only.
    public var force = false

    public init(book: URL, route: URL, osm: URL? = nil, output: URL? = nil, terrain: TerrainRequest = TerrainRequest(),
                mode: TravelMode? = nil) {
        self.book = book
        self.route = route
        self.osm = osm
        self.output = output
        self.terrain = terrain
        self.mode = mode
    }
}

/// Brings a book onto a changed route in two steps, so a caller can show the report before the
/// slower terrain step: `regenerate` places every note on the new route and regenerates the turn
/// notes, `finish` fetches (or drops) the terrain and writes the book.
public struct Regeneration: Sendable {
    public var request: RegenerateRequest
    /// The book on the new route, without terrain yet.
    public var book: Book
    /// What changed.
    public var report: RegenerationReport
    /// Set when the new route file's `<rte>` stood in for its track; `finish` logs it.
    public var routeWarning: String?
    /// What reading the new route's turns said, in order: a prepared graph made again, what the
    /// map's roundabouts said of the side traffic keeps to (`settleDrivingSide`), and how the turns
    /// were read when worth a warning (`FoundTurns.warnings`); `finish` logs them.
    public var turnMessages: [WorkflowMessage] = []

    /// Reads the book and the new route and regenerates the turn notes.
    /// - Parameter writing: whether `finish` will write; the output is checked writable first.
    /// - Throws: `WorkflowError`, `FormatError` (the book or the GPX), the map's errors.
    public init(_ request: RegenerateRequest, writing: Bool = true) throws {
        self.request = request
        if writing {
            let inputs = [RunInput(request.route, "the route it reads")] + RunInput.extract(request.osm) + RunInput.terrain(request.terrain)
            try ApplyWorkflow.checkBookOutputs(book: request.book, target: request.output ?? request.book, inputs: inputs,
                                               graph: request.osm, force: request.force)
        } else {
            try checkOutputs(RunOutput.preparedGraph(request.osm), inputs: [RunInput(request.book, "the book it reads"),
                                                                            RunInput(request.route, "the route it reads")])
        }
        let old = try BookFile.read(contentsOf: request.book)
        original = old
        let read = try Self.readNewRoute(request.route)
        let newRoute = read.route
        routeWarning = read.warning
        let mode = request.mode ?? old.travelMode
        // What the turn stage says (a prepared graph made again, the side of the road, stretches off
        // the map), in build's order; `finish` logs it.
        let said = MessageList()
        let found = try TurnReading(request.osm.map { .map($0) } ?? .shape, mode: mode)
            .find(along: newRoute.coordinates, drivingSide: old.settings.drivingSide, log: said)
        let regenerator = Regenerator()
        (book, report) = regenerator.regenerate(old, route: newRoute, maneuvers: found.maneuvers)
        // A turn a person deleted stays deleted (the book's tombstones).
        _ = regenerator.keepDeleted(&book, added: &report.added, deleted: old.deletedNotes ?? [])
        book.settings.travelMode = mode == .drive ? nil : mode
        found.settleDrivingSide(of: &book.settings, given: "the book says", log: said)
        for warning in found.warnings(file: request.route.lastPathComponent) { said.record(warning) }
        turnMessages = said.messages
        // The route now comes from the file, not from the handles: a plan kept would bring the old
        // route back at the next --retry or Apply. `roadbook handles` traces the new one when asked.
        if book.plan != nil {
            book.plan = nil
            planDropped = true
            // Rows of handle notes become notes of their own, placed by position: with no handles
            // left, a later plan's handle that happens to reuse an id must not claim (or remove) them,
            // nor be kept from its own note by an old tombstone.
            for i in book.notes.indices { book.notes[i].handleID = nil }
            if let deleted = book.deletedNotes { book.deletedNotes = deleted.map { var d = $0; d.handleID = nil; return d } }
        }
    }

    /// The book as it was read, for `undo-apply`.
    private let original: Book

    /// Set when the book's handles were dropped because its route now comes from the file.
    public var planDropped = false

    /// The handles in `url` when it is a handles file (GeoJSON points, or typed coordinates in a
    /// `.txt` file): a route to ask of an engine (`regenerate(_:handles:…)`), not a line to follow.
    /// - Returns: nil for a route line (GPX, a GeoJSON line, any other format `build` reads).
    /// - Throws: `FormatError` naming the file.
    public static func handles(in url: URL) throws -> HandlesInput? {
        var kind = url.pathExtension.lowercased()
        if kind.isEmpty {
            // Standard input or a pipe, told by its first bytes: a format `build` reads (but GeoJSON,
            // which may hold handles) is a route line.
            let head = try InputFile.read(url, prefix: RouteFormats.sniffLength)
            if RouteFormats.readers.contains(where: { $0 != GeoJSONFileReader.self && $0.recognises(head: head) }) { return nil }
            kind = try HandlesFile.kind(of: url)
        }
        switch kind {
        case "txt": return try HandlesFile.read(contentsOf: url)
        case "geojson", "json":
            let input = try HandlesFile.read(contentsOf: url)
            return input.handles.isEmpty ? nil : input
        default: return nil
        }
    }

    /// The new route: a route line in any format `build` reads (a GPX track or route, a GeoJSON
    /// line, KML…).
    /// - Throws: `FormatError` naming the file.
    static func readNewRoute(_ url: URL) throws -> (route: Route, warning: String?) {
        if ["geojson", "json"].contains(url.pathExtension.lowercased()) {
            let input = try HandlesFile.read(contentsOf: url)
            if input.handles.isEmpty, input.line.count >= 2 {
                return (Route(source: url.lastPathComponent, points: input.line.map { RoutePoint(coordinate: $0) }), nil)
            }
        }
        let read = try readRoute(url)
        return (read.route, read.warnings.isEmpty ? nil : read.warnings.joined(separator: "; "))
    }

    /// Brings the book file `book` onto the route through `handles`: their legs asked of `engine`
    /// in `mode` (the book's own when nil), then applied as `apply` does, so every note comes along
    /// and the book's plan becomes these handles (`undo-apply` takes it back).
    /// - Parameters:
    ///   - handlesFile: the file `handles` were read from, which no output may be.
    ///   - force: replace the book and its undo file although they are read-only.
    /// - Returns: the legs as asked (for their states) and the Apply's report.
    /// - Throws: `WorkflowError` when legs could not be asked and `options.useStraight` is not set;
    ///   the book's, the engine's and `ApplyWorkflow.applyFile`'s errors.
    public static func regenerate(_ book: URL, handles: HandlesInput, engine: EngineSettings, mode: TravelMode?,
                                  options: ApplyOptions, output: URL? = nil, handlesFile: URL? = nil, force: Bool = false,
                                  log: any WorkflowLog) async throws -> (editor: RouteEditor, report: ApplyReport) {
        let inputs = (handlesFile.map { [RunInput($0, "the handles file it reads")] } ?? []) + RunInput.extract(options.osm)
            + RunInput.terrain(options.terrain)
        try ApplyWorkflow.checkBookOutputs(book: book, target: output ?? book, inputs: inputs, graph: options.osm, force: force)
        let stored = try BookFile.read(contentsOf: book)
        var editor = RouteWorkflow.editor(for: handles, mode: mode ?? stored.travelMode, legKind: .road)
        var engine = engine
        engine.drivingSide = stored.settings.drivingSide
        try await RouteWorkflow.resolve(&editor, engine: engine, nameHandles: true, log: log)
        let report = try await ApplyWorkflow.applyFile(book, read: stored, editor: editor, options: options, output: output,
                                                       force: force, log: log)
        return (editor, report)
    }

    /// Gives the book terrain for the new route, or, without terrain sources, drops the old
    /// route's heights (with a warning when it had some); then writes the book unless `write` is false.
    /// - Returns: the finished book.
    @discardableResult
    public mutating func finish(write: Bool = true, log: any WorkflowLog) async throws -> Book {
        if let routeWarning { log.record(WorkflowMessage(.warning, routeWarning)) }
        for message in turnMessages { log.record(message) }
        try await request.terrain.fetchOrDrop(for: &book, log: log)
        // Regeneration is an Apply: `undo-apply` takes it back.
        if write { try BookCommit(book: request.output ?? request.book, undo: (original, .apply)).commit(book) }
        return book
    }
}
