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
    /// The language the book prints in from now on, its generated turn words written again in it
    /// (a person's never); nil for the book's own (`BookSettings.language`).
    public var language: BookLanguage?
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
/// slower terrain step: `init` places every note on the new route and regenerates the turn notes
/// (`BookPipeline.prepare`), `finish` fetches (or drops) the terrain and writes the book
/// (`BookPipeline.finish`). The stages are `BookPipeline.regenerate`.
public struct Regeneration: Sendable {
    public var request: RegenerateRequest
    /// The stages, configured for this regeneration.
    private var pipeline: BookPipeline
    /// What the stages up to joining the turns made.
    private var outcome: BookPipeline.Outcome
    /// What those stages said, in order (the new route's warnings, what reading its turns said);
    /// `finish` logs it, so the report is shown first.
    private let said: [WorkflowMessage]

    /// The book on the new route, without terrain until `finish`.
    public var book: Book { outcome.book }
    /// What changed.
    public var report: RegenerationReport { outcome.regeneration }
    /// Set when the book's handles were dropped because its route now comes from the file.
    public var planDropped: Bool { outcome.planDropped }

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
        let read = try BookRead(request.book)
        var old = read.book
        var reworded: RewordedBook?
        if let language = request.language {
            // Every generated word first, so a row the new route does not regenerate (kept without
            // its turn) reads in the new language too; the rows regenerated are then written in it.
            reworded = rewordBook(old, in: language)
            old = reworded?.book ?? old
        }
        let turns = TurnReading(request.osm.map { .map($0) } ?? .shape, mode: request.mode ?? old.travelMode)
        // Regeneration is an Apply: `undo-apply` takes it back.
        pipeline = .regenerate(old, route: request.route, turns: turns, terrain: request.terrain,
                               commit: BookCommit(book: request.output ?? request.book, journal: JournalledChange(
                                   read: read, name: "Regenerate onto \(request.route.lastPathComponent)", kind: .apply)))
        let log = MessageList()
        if let message = reworded?.unrecognisedMessage(file: request.book) { log.record(WorkflowMessage(.warning, message)) }
        outcome = try pipeline.prepare(log: log)
        said = log.messages
    }

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
        let report = try await ApplyWorkflow.applyFile(book, editor: editor, options: options, output: output,
                                                       force: force, log: log)
        return (editor, report)
    }

    /// Gives the book terrain for the new route, or, without terrain sources, drops the old
    /// route's heights (with a warning when it had some); then writes the book unless `write` is false.
    /// - Returns: the finished book.
    @discardableResult
    public mutating func finish(write: Bool = true, log: any WorkflowLog) async throws -> Book {
        for message in said { log.record(message) }
        if !write { pipeline.commit = nil }
        try await pipeline.finish(&outcome, log: log)
        return outcome.book
    }
}
