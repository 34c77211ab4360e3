import AtomicFile
import BookAssembly
import Foundation
import Formats
import Geo
import HTTP
import Layout
import Model
import OSM
import Render
import RouteEditing
import Routing

/// The routing engines a route's road legs can be asked of.
public enum EngineKind: String, CaseIterable, Sendable {
    case osrm, valhalla, graphhopper, embedded

    /// Where the engine listens when no address is given (none for the embedded router).
    public var defaultURL: URL? {
        switch self {
        case .osrm: URL(string: "http://127.0.0.1:5000")
        case .valhalla: URL(string: "http://127.0.0.1:8002")
        case .graphhopper: URL(string: "http://127.0.0.1:8989")
        case .embedded: nil
        }
    }
}

/// Which engine, and how to reach it.
public struct EngineSettings: Sendable {
    public var kind: EngineKind
    /// The engine's address; nil for `kind.defaultURL`.
    public var url: URL?
    /// GraphHopper's key, when the server needs one.
    public var apiKey: String?
    /// The extract the embedded router routes on (required for it, unused by the others).
    public var osm: URL?
    /// Requests at once.
    public var concurrency: Int
    /// The largest answer, in bytes, taken from the engine.
    public var maximumAnswerSize = CurlHTTPClient.defaultMaximumAnswerSize
    /// How to raise `maximumAnswerSize`, in the caller's words (the command line names its option),
    /// told after the size of an answer too large; nil tells the size alone.
    public var answerLimitAdvice: String?
    /// The side of the road traffic keeps to, for the embedded router's turn costs (an engine over
    /// HTTP has its own, from its profile); nil for the side the map's roundabouts say.
    public var drivingSide: DrivingSide?

    public init(kind: EngineKind, url: URL? = nil, apiKey: String? = nil, osm: URL? = nil, concurrency: Int = 4) {
        self.kind = kind
        self.url = url
        self.apiKey = apiKey
        self.osm = osm
        self.concurrency = concurrency
    }

    private func client() throws -> CurlHTTPClient {
        try CurlHTTPClient(maximumConcurrentRequests: concurrency, maximumAnswerSize: maximumAnswerSize)
    }

    /// The engine the legs are asked of.
    /// - Parameter handles: the route's handles: the embedded router reads the extract's region
    ///   around them (`ExtractRouter`), widening it when a leg needs more.
    /// - Throws: `WorkflowError` when the embedded router has no extract; the extract's or libcurl's errors.
    /// - Parameter log: where the embedded router notes a prepared graph made again (`MapExtract`).
    public func makeEngine(around handles: [Coordinate] = [], log: (any WorkflowLog)? = nil) throws -> any RoutingEngine {
        switch kind {
        case .embedded:
            guard let osm else { throw WorkflowError("the embedded router needs an OpenStreetMap extract") }
            let map = MapExtract(osm)
            var region = ExtractRouter.Configuration()
            region.drivingSide = drivingSide
            return ExtractRouter(extract: map, hasPrepared: try map.refreshPrepared(log: log) != nil, around: handles,
                                 configuration: region)
        case .osrm:
            return advised(OSRMEngine(client: try client(), baseURL: url ?? kind.defaultURL!))
        case .valhalla:
            return advised(ValhallaEngine(client: try client(), baseURL: url ?? kind.defaultURL!))
        case .graphhopper:
            return advised(GraphHopperEngine(client: try client(),
                                             baseURL: url ?? kind.defaultURL!, apiKey: apiKey))
        }
    }
}

/// The header and print settings of a book built from handles, as `build` takes them for a track.
public struct RouteBookOptions: Sendable {
    public var rally: String?
    public var stage: String?
    public var date: String?
    /// Units, a built-in template and the off-route distance, stored in the book.
    public var settings: BookSettings
    /// The template the PDF is printed on, by built-in name or path, when not `settings.template`;
    /// a path is never stored in the book.
    public var template: String?
    /// Whether the PDF has its cover page.
    public var cover: Bool
    /// A folder of pictograms over the library's (`BuildRequest.symbols`).
    public var symbols: URL?

    public init(rally: String? = nil, stage: String? = nil, date: String? = nil, settings: BookSettings = BookSettings(),
                template: String? = nil, cover: Bool = true, symbols: URL? = nil) {
        self.rally = rally
        self.stage = stage
        self.date = date
        self.settings = settings
        self.template = template
        self.cover = cover
        self.symbols = symbols
    }

    /// The header and the settings of the book, titled `title`, as the pipeline makes it.
    func newBook(title: String) -> BookPipeline.NewBook {
        BookPipeline.NewBook(title: title, rally: rally, stage: stage, date: date, settings: settings)
    }
}

/// Building a route through handles: start an editor (from handles, or from a book whose legs
/// wait), ask the engine for the legs, then make and write the book.
public enum RouteWorkflow {
    /// An editor for new handles: a traced track (its legs set to `legKind` unless that is
    /// as-drawn), a drawn stroke, or the handles in order.
    public static func editor(for input: HandlesInput, mode: TravelMode, legKind: LegKind) -> RouteEditor {
        var editor: RouteEditor
        if input.lineIsTrack {
            editor = RouteEditor.traced(from: input.line, mode: mode)
            if legKind != .asDrawn {
                for i in editor.plan.legs.indices { editor.setLegKind(i, to: legKind) }
            }
        } else {
            editor = RouteEditor()
            editor.setMode(mode)
            editor.setDefaultLegKind(legKind)
            if input.handles.isEmpty {
                editor.addStroke(input.line)
            } else {
                for handle in input.handles { editor.addHandle(at: handle.coordinate, origin: handle.origin, note: handle.note) }
                editor = named(editor, like: input.handles)
            }
        }
        return editor
    }

    /// The editor with each handle's name and waypoint type taken from `handles` (same order), which
    /// adding a handle does not carry. A new editor: the route is new, so there is no step to undo.
    static func named(_ editor: RouteEditor, like handles: [Handle]) -> RouteEditor {
        guard handles.contains(where: { $0.name != nil || $0.waypointType != nil }) else { return editor }
        var plan = editor.plan
        for (i, handle) in handles.enumerated() where i < plan.handles.count {
            plan.handles[i].name = handle.name
            plan.handles[i].waypointType = handle.waypointType
        }
        return RouteEditor(plan: plan)
    }

    /// An editor for the book's stored handles, its waiting legs marked to be asked again.
    /// - Returns: the editor, the book's title and its identity (for the rebuilt book to keep).
    /// - Throws: `WorkflowError` when the book's route was not built from handles; `FormatError`.
    public static func retryEditor(book url: URL, mode: TravelMode) throws -> (editor: RouteEditor, title: String, id: String?) {
        let existing = try BookFile.read(contentsOf: url)
        guard let plan = existing.plan else {
            throw WorkflowError("\(url.path): this book's route was not built from handles; nothing to retry")
        }
        var editor = RouteEditor(plan: plan)
        editor.setMode(mode)
        editor.retry()
        return (editor, existing.title, existing.id)
    }

    /// Asks the engine for every leg that needs it.
    /// - Parameter nameHandles: whether handles without a name are first named from the extract
    ///   (`PlaceNames`), when the settings have one; the extract is read once for both.
    /// - Throws: `WorkflowError` when there are fewer than two handles; the engine's construction errors.
    /// - Parameter log: where a prepared graph made again is noted (`MapExtract`).
    /// - Returns: with `nameHandles` and an extract, how the roundabouts of the map read for the
    ///   names turn (`RingTurning`), for the side traffic keeps to; else nil.
    @discardableResult
    public static func resolve(_ editor: inout RouteEditor, engine settings: EngineSettings,
                               nameHandles: Bool = false, log: (any WorkflowLog)? = nil) async throws -> RingTurning? {
        guard editor.plan.handles.count >= 2 else { throw WorkflowError("a route needs two handles or more") }
        let handles = editor.plan.handles.map(\.coordinate)
        let engine = try settings.makeEngine(around: handles, log: log)
        var rings: RingTurning?
        if nameHandles, let osm = settings.osm {
            let graph: RoadGraph
            if let router = engine as? ExtractRouter {
                // The router reads only the handles' region of the extract; the names come from it.
                graph = try await router.regionGraph()
            } else {
                var near = RouteCorridor.Configuration()
                near.width = ExtractRouter.Configuration().minimumMargin
                graph = try MapExtract(osm).graph(in: RouteCorridor(route: handles, configuration: near), log: log)
            }
            editor = PlaceNames(graph: graph).naming(editor)
            rings = graph.ringTurning()
        }
        await editor.resolve(using: engine, concurrency: settings.concurrency)
        return rings
    }

    /// The most handles (stops) a route through handles may have unless told otherwise, as the
    /// route tool a road book's route is often shared with takes: 14. A track traced into handles
    /// (up to 40) has no limit unless one is given.
    public static let defaultMaximumStops = 14

    /// Refuses a route of more handles (stops) than `maximum`, in one line naming the count: a
    /// route made for a tool with a limit on stops (the route tool takes 14) is checked before any
    /// engine is asked, and so is each handle added to a drawing (`handles add`, `split`).
    /// - Parameter source: what the handles came from, for the message (a file's path).
    /// - Throws: `WorkflowError`.
    public static func checkStops(_ editor: RouteEditor, maximum: Int?, source: String) throws {
        let count = editor.plan.handles.count
        guard let maximum, count > maximum else { return }
        throw WorkflowError("\(source) has \(count) stops, more than --max-stops \(maximum): remove \(count - maximum), or raise --max-stops")
    }

    /// The title of a route's book given no `--title`: "Start → End" from the ends' names, else
    /// the handles file's name, else the travel mode and the length ("Drive, 12.3 km").
    public static func title(of editor: RouteEditor, fileName: String?) -> String {
        RouteNaming.name(of: editor.plan.handles) ?? fileName
            ?? RouteNaming.name(mode: editor.plan.mode, length: editor.totals.distance)
    }

    /// The book of a resolved route: notes at the handles, turn notes from the junctions (when
    /// `turns`), and terrain.
    /// - Parameter options: the header and the settings the book gets.
    public static func makeBook(title: String, editor: RouteEditor, options: RouteBookOptions = RouteBookOptions(),
                                turns: Bool, terrain: TerrainRequest, log: any WorkflowLog) async throws -> Book {
        try await BookPipeline.route(editor, book: options.newBook(title: title), turns: turns, terrain: terrain, commit: nil)
            .run(log: log).book
    }

    /// `checkOutputs` for `route`: the book (new, or with `retry` the one read and written again) and
    /// the PDF written; the handles file, the engine's extract (whose prepared graph may be made
    /// again), the terrain files and a template file read.
    /// - Parameter force: replace a read-only book or PDF.
    public static func checkFiles(book: URL, pdf: URL?, handlesFile: URL?, engine: EngineSettings?, terrain: TerrainRequest,
                                  template: String?, retry: Bool, force: Bool) throws {
        let bookOutput = retry ? RunOutput(book, .edit(of: book)) : RunOutput(book)
        var inputs = (handlesFile.map { [RunInput($0, "the handles file it reads")] } ?? []) + RunInput.extract(engine?.osm)
        inputs += RunInput.terrain(terrain) + RunInput.template(template)
        if retry { inputs.append(RunInput(book, "the book it reads")) }
        try checkOutputs([bookOutput] + (pdf.map { [RunOutput($0)] } ?? []) + RunOutput.preparedGraph(engine?.osm), inputs: inputs, force: force)
    }

    /// Loads the template a PDF would be printed on, so a mistake in it is refused before any
    /// engine is asked.
    /// - Throws: `TemplateError`.
    public static func checkTemplate(_ template: String) throws {
        _ = try TemplateLibrary.load(template)
    }

    /// Writes the book file and, when `pdf` is given, prints it; the two replace the old ones
    /// together, the book first (see `OutputSet`). The template is loaded before anything is
    /// written, so a template mistake writes nothing.
    /// - Parameters:
    ///   - template: a built-in template's name or a template file's path; nil for the book's own.
    ///   - cover: whether the PDF has its cover page.
    ///   - symbols: a folder of pictograms over the library's.
    /// - Returns: the rows and pages of the PDF, when one was printed.
    ///   - madeFrom: what the route was made from ("handles.txt routed by OSRM"), named should the
    ///     book not be valid.
    public static func write(_ book: Book, to url: URL, pdf: URL?, template: String? = nil,
                             cover: Bool = true, symbols: URL? = nil, madeFrom: String? = nil) throws -> (rows: Int, pages: Int)? {
        let printed = try pdf.map {
            ($0, try Self.renderer(for: book, bookFile: url, template: template, cover: cover, symbols: symbols))
        }
        let pages = try BookCommit(book: url, madeFrom: madeFrom, pdf: printed).commit(book)
        return pages.map { (RowContent.count(of: book), $0) }
    }

    /// Prints a book already written to `bookFile` (its template found from there when it names a
    /// file), without writing the book again.
    /// - Returns: the rows and pages printed.
    public static func print(_ book: Book, bookFile: URL, to pdf: URL, template: String? = nil,
                             cover: Bool = true, symbols: URL? = nil) throws -> (rows: Int, pages: Int) {
        let pages = try renderer(for: book, bookFile: bookFile, template: template, cover: cover, symbols: symbols)
            .renderPDF(book, to: pdf)
        return (RowContent.count(of: book), pages)
    }

    /// The renderer of `book`: `template` (a built-in name or a file), else the book's own; the
    /// symbol library with `symbols` over it.
    static func renderer(for book: Book, bookFile: URL, template: String?, cover: Bool, symbols: URL? = nil) throws -> BookRenderer {
        BookRenderer(template: try template.map(TemplateLibrary.load) ?? TemplateLibrary.template(of: book, bookFile: bookFile.path),
                     includeCover: cover, symbols: try SymbolLibrary.standard(adding: symbols))
    }
}
