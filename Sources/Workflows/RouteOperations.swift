import Foundation
import Formats
import Geo
import Layout
import Model
import OSM
import BookAssembly
import Guidance
import RouteEditing

// The operations on a route through handles that the command line runs: `route` (a new book, or
// `--retry` of a book's waiting legs), `apply` (the drawing becomes the book's route) and
// `regenerate` with a handles file. `route` runs in two steps, as `Regeneration` does, so the
// caller can show every leg (and refuse a route whose legs still wait) before the book is made.

/// What a book printed with its route came to.
public struct PrintedBook: Sendable, Equatable {
    public var rows: Int
    public var pages: Int
}

/// Checked before any engine is asked: the outputs can be written and are none of the inputs
/// (`RouteWorkflow.checkFiles`), and the template a PDF would be printed on loads.
private func checkFiles(book: URL, pdf: URL?, handlesFile: URL?, engine: EngineSettings?, terrain: TerrainRequest,
                        template: String?, retry: Bool, force: Bool) throws {
    try RouteWorkflow.checkFiles(book: book, pdf: pdf, handlesFile: handlesFile, engine: engine, terrain: terrain,
                                 template: template, retry: retry, force: force)
    if pdf != nil, let template { try RouteWorkflow.checkTemplate(template) }
}

/// A new route through handles, its road legs asked of an engine, made into a book: `start` reads
/// the handles and asks the engine; `finish` makes the book (turns, terrain) and writes it with
/// its PDF.
public struct RouteRun: Sendable {
    public struct Request: Sendable {
        public enum Handles: Sendable {
            /// A handles file (`HandlesFile`): GeoJSON, GPX or typed coordinates.
            case file(URL)
            /// Handles typed one by one.
            case typed([Handle])
        }

        public var handles: Handles
        /// The engine the road legs are asked of; nil for a route of straight or as-drawn legs,
        /// which asks none.
        public var engine: EngineSettings?
        public var mode: TravelMode
        /// What new legs do.
        public var legKind: LegKind
        /// The book file written.
        public var book: URL
        /// The PDF printed with it, if any.
        public var pdf: URL?
        /// nil for "Start → End" from the ends' names (`RouteWorkflow.title`).
        public var title: String?
        /// The most handles the route may have, remembered in its plan for the handles added later;
        /// nil for the default: `RouteWorkflow.defaultMaximumStops` for handles, none for a track
        /// traced into handles. `RouteWorkflow.maximumHandles` is no limit but the file's.
        public var maximumStops: Int?
        public var options: RouteBookOptions
        /// Whether turn notes are made from the junctions.
        public var turns: Bool
        public var terrain: TerrainRequest
        /// Whether an existing book file is replaced.
        public var replaceBook: Bool

        public init(handles: Handles, engine: EngineSettings?, mode: TravelMode = .drive, legKind: LegKind = .road, book: URL,
                    pdf: URL? = nil, title: String? = nil, maximumStops: Int? = nil, options: RouteBookOptions = RouteBookOptions(),
                    turns: Bool = true, terrain: TerrainRequest = TerrainRequest(), replaceBook: Bool = false) {
            self.handles = handles
            self.engine = engine
            self.mode = mode
            self.legKind = legKind
            self.book = book
            self.pdf = pdf
            self.title = title
            self.maximumStops = maximumStops
            self.options = options
            self.turns = turns
            self.terrain = terrain
            self.replaceBook = replaceBook
        }
    }

    /// The book file is there and `replaceBook` is not set: nothing was asked or written.
    public struct BookExists: Error, Sendable, Equatable {
        public var book: URL
        /// Its notes, when it reads as a book.
        public var notes: Int?
    }

    /// What `finish` wrote.
    public struct Result: Sendable, Equatable {
        /// The notes of the book written.
        public var notes: Int
        /// Metres along the route.
        public var distance: Metres
        /// The PDF's rows and pages, when one was printed.
        public var printed: PrintedBook?
    }

    public let request: Request
    /// The route as the engine answered.
    public let summary: RouteSummary
    private let editor: RouteEditor
    /// How the map's roundabouts turn, for the side traffic keeps to.
    private let rings: RingTurning?
    private let fileName: String?

    /// Checks the outputs, reads the handles and asks the engine for every road leg.
    /// - Throws: `BookExists`; `WorkflowError` for an output that cannot be written or more handles
    ///   than `maximumStops`; the template's and the handles file's errors; the engine's construction errors.
    public static func start(_ request: Request, log: any WorkflowLog) async throws -> RouteRun {
        let handlesFile: URL? = if case .file(let file) = request.handles { file } else { nil }
        try checkFiles(book: request.book, pdf: request.pdf, handlesFile: handlesFile, engine: request.engine, terrain: request.terrain,
                       template: request.options.template, retry: false, force: request.replaceBook)
        if !request.replaceBook, FileManager.default.fileExists(atPath: request.book.path) {
            throw BookExists(book: request.book, notes: (try? BookFile.read(contentsOf: request.book))?.notes.count)
        }
        var editor: RouteEditor
        var fileName: String?
        let source: String
        var traced = false
        switch request.handles {
        case .file(let file):
            let input = try HandlesFile.read(contentsOf: file)
            editor = RouteWorkflow.editor(for: input, mode: request.mode, legKind: request.legKind)
            fileName = file.deletingPathExtension().lastPathComponent
            source = file.path
            traced = input.lineIsTrack
        case .typed(let typed):
            editor = RouteWorkflow.editor(for: HandlesInput(handles: typed), mode: request.mode, legKind: request.legKind)
            source = "the route"
        }
        let limit = request.maximumStops ?? (traced ? nil : RouteWorkflow.defaultMaximumStops)
        try RouteWorkflow.checkStops(editor, maximum: limit, source: source)
        editor.setMaximumStops(limit)
        guard let engine = request.engine else {
            guard editor.plan.waitingLegs.isEmpty else {
                throw WorkflowError("the road legs of \(source) are asked of an engine: give one, or make the legs straight or as drawn")
            }
            return RouteRun(request: request, summary: RouteSummary(editor), editor: editor, rings: nil, fileName: fileName)
        }
        let rings = try await RouteWorkflow.resolve(&editor, engine: engine, nameHandles: true, log: log)
        return RouteRun(request: request, summary: RouteSummary(editor), editor: editor, rings: rings, fileName: fileName)
    }

    /// Makes the book (the side traffic keeps to settled from the map, as `build --osm` does) and
    /// writes it, with its PDF when one is asked for: `BookPipeline.route`.
    /// - Throws: the terrain's, the book's and the PDF's errors; nothing is written then.
    public func finish(log: any WorkflowLog) async throws -> Result {
        var options = request.options
        if let rings { settleDrivingSide(of: &options.settings, from: rings, log: log) }
        if !request.turns { options.settings.noTurnNotes = true }
        let title = request.title ?? RouteWorkflow.title(of: editor, fileName: fileName)
        var pipeline = BookPipeline.route(editor, book: options.newBook(title: title), turns: request.turns,
                                          terrain: request.terrain, commit: nil)
        var built = try pipeline.prepare(log: log)
        // The PDF is printed on the template named, else the book's own (`RouteWorkflow.renderer`).
        let pdf = try request.pdf.map {
            ($0, try RouteWorkflow.renderer(for: built.book, bookFile: request.book, template: options.template, cover: options.cover,
                                            symbols: options.symbols))
        }
        let source: String = if case .file(let file) = request.handles { file.path } else { "the handles" }
        let engine = editor.engineName ?? request.engine?.kind.rawValue
        pipeline.commit = BookCommit(book: request.book, madeFrom: engine.map { "\(source) routed by \($0)" } ?? "\(source) drawn straight",
                                     pdf: pdf)
        try await pipeline.finish(&built, log: log)
        return Result(notes: built.book.notes.count, distance: editor.totals.distance,
                      printed: built.pages.map { PrintedBook(rows: RowContent.count(of: built.book), pages: $0) })
    }
}

/// The legs of a book's route that wait for the engine, asked again and applied to the book, so
/// every note, word and header field stays: `start` asks, `finish` applies and prints.
public struct RouteRetry: Sendable {
    public let book: URL
    /// The route as the engine answered.
    public let summary: RouteSummary
    private let stored: Book
    private let editor: RouteEditor

    /// Checks the outputs, reads the book and asks the engine again for its waiting legs, in
    /// `mode` (the plan's own when nil), the book keeping the side traffic keeps to.
    /// - Parameters:
    ///   - pdf: the PDF `finish` will print, checked writable now; `template` its template.
    /// - Throws: `WorkflowError` when the book's route was not built from handles, or for an output
    ///   that cannot be written; the book's and the template's errors; the engine's construction errors.
    public static func start(book: URL, pdf: URL?, template: String?, engine: EngineSettings, mode: TravelMode?,
                             terrain: TerrainRequest = TerrainRequest(), force: Bool = false,
                             log: any WorkflowLog) async throws -> RouteRetry {
        try checkFiles(book: book, pdf: pdf, handlesFile: nil, engine: engine, terrain: terrain, template: template,
                       retry: true, force: force)
        let stored = try BookFile.read(contentsOf: book)
        guard let plan = stored.plan else {
            throw WorkflowError("\(book.path): this book's route was not built from handles; nothing to retry")
        }
        var editor = RouteEditor(plan: plan)
        if let mode { editor.setMode(mode) }
        editor.retry()
        var engine = engine
        engine.drivingSide = stored.settings.drivingSide
        try await RouteWorkflow.resolve(&editor, engine: engine, log: log)
        return RouteRetry(book: book, summary: RouteSummary(editor), stored: stored, editor: editor)
    }

    /// Applies the route to the book (`ApplyWorkflow.applyFile`), then prints the book as written
    /// when `pdf` is given.
    /// - Returns: the Apply's report, and the PDF's rows and pages.
    public func finish(options: ApplyOptions, pdf: URL?, template: String?, cover: Bool, symbols: URL? = nil,
                       log: any WorkflowLog) async throws -> (report: ApplyReport, printed: PrintedBook?) {
        let report = try await ApplyWorkflow.applyFile(book, editor: editor, options: options,
                                                       name: "Retry the route's legs", log: log)
        let printed = try pdf.map { pdf in
            let (rows, pages) = try RouteWorkflow.print(try BookFile.read(contentsOf: book), bookFile: book, to: pdf,
                                                        template: template, cover: cover, symbols: symbols)
            return PrintedBook(rows: rows, pages: pages)
        }
        return (report, printed)
    }
}

extension ApplyWorkflow {
    /// `apply`: the drawing beside `book` (`roadbook handles`) becomes the book's route. Only a
    /// drawing that differs from the book's route is applied (`PlanDifference`): without a draft,
    /// or with one that has the book's handles, legs and mode, there is nothing to apply. The
    /// draft is deleted once the book is written over itself.
    /// - Throws: `WorkflowError` in one line when there is nothing to apply; `applyFile`'s errors.
    public static func applyDrawing(to book: URL, options: ApplyOptions, output: URL? = nil, force: Bool = false,
                                    log: any WorkflowLog) async throws -> ApplyReport {
        // First, so an Apply a killed run left half written is finished before the drawing is compared.
        try checkApplyOutputs(book: book, target: output ?? book, options: options, force: force)
        return try await BookLock.hold(book) {
            let stored = try BookFile.read(contentsOf: book)
            guard let (drawing, bytes) = try RouteDraft.read(for: book, expecting: stored.id) else {
                guard let plan = stored.plan else {
                    throw WorkflowError("\(book.path): no drawn route to apply (no draft beside it, and the book has no plan)")
                }
                throw nothingToApply(book, waiting: plan.waitingLegs)
            }
            guard !PlanDifference(drawing: drawing.editor.plan, of: stored).isEmpty else {
                throw nothingToApply(book, waiting: drawing.editor.plan.waitingLegs)
            }
            // The drawing is now the book's route: the draft goes with the Apply (undo brings it
            // back), kept when the result went elsewhere.
            let ended = output == nil || output?.standardizedFileURL == book.standardizedFileURL
            let draft: (before: Data?, after: Data?)? = ended ? (bytes, nil) : nil
            return try await applyFile(book, editor: drawing.editor, options: options, output: output, force: force,
                                       draft: draft, log: log)
        }
    }

    /// The refusal of an Apply of the book's own route, in one line; with the legs that wait for the
    /// engine, how to ask them again.
    static func nothingToApply(_ book: URL, waiting: [Int]) -> WorkflowError {
        let legs = RoutePlan.legNames(waiting)
        let retry = waiting.isEmpty ? ""
            : "; leg\(waiting.count == 1 ? "" : "s") \(legs) wait\(waiting.count == 1 ? "s" : "") for the engine: `roadbook route --retry --book \(book.path)` asks again"
        return WorkflowError("\(book.path): the drawing is the book's route: nothing to apply" + retry)
    }
}

extension ApplyReport {
    /// The lines before the summary: the generated turns that no longer describe the road
    /// (`RegenerationReport.changeLines`), then the notes off the route, each with what became of
    /// it. The warnings (notes that contradict their turn, `notices`) are not among them: the Apply
    /// records them in its log, once (`BookPipeline.joinApplied`).
    public var details: [String] {
        turns.changeLines + offRoute.map { "off the route: \($0)" }
    }
}

/// The handles of a handles file given to `regenerate` as its new route (`Regeneration.handles(in:)`).
public struct HandlesRoute: Sendable {
    let input: HandlesInput
    /// The handles file, an input no output may be.
    let file: URL

    /// The handles in `url` when it is a handles file (GeoJSON points, or typed coordinates in a
    /// `.txt` file); nil for a route line.
    /// - Throws: `FormatError` naming the file.
    public init?(file url: URL) throws {
        guard let input = try Regeneration.handles(in: url) else { return nil }
        self.input = input
        file = url
    }

    /// Brings the book file `book` onto the route through these handles (`Regeneration.regenerate`).
    /// - Returns: the legs as asked, and the Apply's report.
    public func regenerate(_ book: URL, engine: EngineSettings, mode: TravelMode?, options: ApplyOptions, output: URL?,
                           force: Bool = false, log: any WorkflowLog) async throws -> (route: RouteSummary, report: ApplyReport) {
        let (editor, report) = try await Regeneration.regenerate(book, handles: input, engine: engine, mode: mode,
                                                                 options: options, output: output, handlesFile: file, force: force,
                                                                 log: log)
        return (RouteSummary(editor), report)
    }
}

extension RegenerationReport {
    /// The report in lines an organiser reads.
    public var lines: [String] {
        var lines: [String] = []
        if isEmpty { lines.append("Every note still describes the road.") }
        lines += changeLines
        for n in added { lines.append("added at \(Self.km(n.distanceAlong)): \"\(n.text)\"") }
        for o in offRoute { lines.append("off the route: \(o.foundDescription)") }
        lines.append("\(tulipsRedrawn) tulips redrawn from the road, \(drawnTulipsKept) drawn by a person kept")
        return lines
    }

    /// The generated turns that no longer describe the road, one line each, as `regenerate` and
    /// `apply` name them: those whose turn changed, those gone with their turn (removed, or kept for
    /// a person's words), and those whose turn joined a person's note nearby.
    public var changeLines: [String] {
        var lines = changed.map { c in
            "changed at \(Self.km(c.distanceAlong)): \"\(c.before)\" → \"\(c.after)\"" + (c.wordsKept ? " (the note's own words kept)" : "")
        }
        lines += removed.map { "removed at \(Self.km($0.distanceAlong)): \"\($0.text)\" (no turn there any more)" }
        lines += keptWithoutTurn.map {
            "kept at \(Self.km($0.distanceAlong)): \"\($0.text)\" (no turn there any more; its words were not generated)"
        }
        lines += joined.map { "joined at \(Self.km($0.note.distanceAlong)): \"\($0.turn.text)\" now in the note \"\($0.note.text)\" (one row)" }
        lines += drawnTulipsToCheck.map { "check: " + $0.drawnTulipCheck }
        return lines
    }

    private static func km(_ metres: Metres) -> String { String(format: "%.2f km", metres / 1000) }

    /// The report in one line: what changed, counted.
    public var summary: String {
        let kept = changed.filter(\.wordsKept).count
        let parts: [(Int, String, String)] = [
            (changed.count, "turn", "regenerated"), (kept, "note", "kept its words although the turn changed"),
            (added.count, "turn", "added"), (removed.count, "turn", "removed"), (joined.count, "turn", "joined a note nearby"),
            (keptWithoutTurn.count, "note", "kept without its turn"), (offRoute.count, "note", "off the route"),
            (tulipsRedrawn, "tulip", "redrawn"),
        ]
        let said = parts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s") \($0.2)" }
        return said.isEmpty ? "nothing changed" : said.joined(separator: ", ")
    }
}
