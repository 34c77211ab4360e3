import Foundation
import Formats
import Geo
import Model
import Pipeline
import Workflows

/// `roadbook route`: builds a route through handles, each road leg asked of a routing engine.
struct RouteCommand: Command {
    static let declaration = CommandDeclaration(
        name: "route",
        abstract: "Build a route through handles, legs asked of OSRM, Valhalla, GraphHopper or the embedded router.",
        positionals: "HANDLES.geojson|HANDLES.gpx|HANDLES.txt", positionalCount: 0...1,
        forms: [UsageForm(), UsageForm(positionals: false, required: ["handle"]),
                UsageForm(positionals: false, required: ["retry"])],
        discussion: """
        The handles (GeoJSON points, GPX route points or waypoints, with their names and waypoint
        types; a GeoJSON line is a drawn stroke and a GPX track is traced into handles about 400 m
        apart) are joined by legs; each road leg is
        asked of the engine on its own, several at once. Tapped and drawn handles move onto the road;
        coordinates and waypoints are surveyed and never move. Prints each leg's state and the
        warnings, writes the book (with its handles, so the route reopens editable) and, with -o, the
        PDF with turn notes from the engine's junctions. A leg the engine could not answer (limiting
        requests, a server error, unreachable) is straight for now and waits: --retry asks it again.

        Typed coordinates are handles too, in decimal degrees (42.5063 1.5218), degrees and minutes
        (N42°30.378' E001°31.308'), degrees, minutes and seconds (42°30'22.7"N 1°31'18.5"E), UTM
        (31T 378553 4707051) or MGRS (31TCH7855307051): one a line in a .txt file, or each given
        with --handle. A coordinate may be followed by " | NOTE" and " | MARKER", a handle note on
        the handle; in a file, blank lines and lines starting with # are skipped.

        A route whose legs still wait for the engine is not finished: nothing is written and the
        command fails, naming the engine, unless --use-straight draws those legs straight for now
        (they still wait in the book: --retry asks them again). --retry is an Apply on the book: every
        note, word, danger and header field of the book is kept, and the legs are asked in the
        plan's own mode unless --mode is given; the book keeps its own header and settings, and
        --off-route decides what becomes of a note the new route no longer passes. --book never
        replaces another book without --force.

        The book options (--rally, --stage, --date, --units, --template, --no-cover,
        --off-route-distance, --off-route) are those of 'roadbook build'.
        """,
        options: [
            EngineOptions.engine(required: true), EngineOptions.url, EngineOptions.apiKey, EngineOptions.osm,
            .choice("mode", of: TravelMode.self, help: "travel mode of every road leg (default: drive, or the plan's with --retry)"),
            Option("legs", .choice(["road", "straight", "as-drawn"]), default: "road", help: "what new legs do"),
            EngineOptions.concurrency,
            Option("handle", .repeatable, value: "COORD", help: """
                a handle, typed (repeatable, in route order), instead of a
                handles file: COORD, COORD | NOTE or COORD | NOTE | MARKER
                """),
            Option("max-stops", .integer(2...HandlesFile.maximumHandles), value: "N", help: """
                refuse a route of more than N handles (stops), as a route tool
                with a limit would (14 for the route tool); default no limit
                """),
            Option("book", value: "BOOK.json", required: true, help: "the book file to write"),
            Option("output", short: "o", value: "BOOK.pdf", help: "also print the road book as PDF"),
            Option("retry", .flag, help: "ask again the legs of --book that wait, keeping everything else in the book"),
            Option("use-straight", .flag, help: "finish the route with the legs that wait drawn straight"),
            Option("force", .flag, help: "replace an existing --book that is not the one being retried, or a\nread-only output"),
            Option("no-turns", .flag, help: "no turn notes from the junctions"),
        ] + TerrainOptions.declarations + [
            Option("title", value: "TEXT", help: """
                title of the book (default: "Start → End" from the first and
                last handles' names, else the handles file's name)
                """),
        ] + BookOptions.declarations)

    /// Where the handles come from.
    enum Handles {
        case file(URL)
        /// Typed with --handle.
        case typed([Handle])
        /// The book's own, for --retry.
        case stored
    }

    var handles: Handles
    var engine: EngineSettings
    var mode: TravelMode?
    var legKind: LegKind
    var useStraight: Bool
    var force: Bool
    var book: URL
    var output: URL?
    var title: String?
    /// The most handles a new route may have, when limited.
    var maxStops: Int?
    var bookOptions: BookOptions
    var turns: Bool
    var terrain: TerrainOptions

    init(_ options: ParsedOptions) throws {
        engine = try EngineOptions.settings(options)!
        mode = options.choice("mode", as: TravelMode.self)
        useStraight = options.flag("use-straight")
        force = options.flag("force")
        legKind = ["road": LegKind.road, "straight": .straight, "as-drawn": .asDrawn][options.string("legs")!]!
        book = options.file("book")!
        output = options.file("output")
        title = options.string("title")
        maxStops = options.integer("max-stops")
        bookOptions = BookOptions(options)
        turns = !options.flag("no-turns")
        terrain = try TerrainOptions(options)
        let typed = try options.strings("handle").enumerated().map { i, text in
            do { return try HandlesFile.handle(from: text, id: i + 1) } catch let error as HandleTextError {
                throw UsageError(message: "--handle '\(text)': \(error.description)")
            }
        }
        switch (options.flag("retry"), options.positionals.first, typed.isEmpty) {
        case (true, let file?, _): throw UsageError(message: "unexpected argument '\(file)'")
        case (true, nil, false): throw UsageError(message: "--retry asks again the legs of --book; leave out --handle")
        case (true, nil, true):
            if maxStops != nil { throw UsageError(message: "--max-stops is for a new route; --retry keeps the book's handles") }
            handles = .stored
        case (false, let file?, true): handles = .file(URL(fileURLWithPath: file))
        case (false, _?, false): throw UsageError(message: "give a handles file or --handle, not both")
        case (false, nil, false): handles = .typed(typed)
        case (false, nil, true): throw UsageError(message: "missing HANDLES.geojson (or --handle COORD)")
        }
    }

    func run(_ console: any Console) async throws {
        let handlesFile: URL? = if case .file(let file) = handles { file } else { nil }
        try RouteWorkflow.checkFiles(book: book, pdf: output, handlesFile: handlesFile, engine: engine, terrain: terrain.request,
                                     template: bookOptions.template, retry: { if case .stored = handles { true } else { false } }(), force: force)
        if output != nil, let template = bookOptions.template { try RouteWorkflow.checkTemplate(template) }
        var settings = engine
        settings.maximumAnswerSize = terrain.request.maximumAnswerSize
        settings.drivingSide = bookOptions.settings.drivingSide
        if case .stored = handles { return try await retry(console, engine: settings) }
        if !force, FileManager.default.fileExists(atPath: book.path) {
            let notes = (try? BookFile.read(contentsOf: book)).map { " (\($0.notes.count) notes)" } ?? ""
            throw RunError(message: "\(book.path) exists\(notes): --force replaces it; to change its route, "
                           + "use 'roadbook handles' and 'roadbook apply', or --retry")
        }
        var editor: RouteEditor
        var fileName: String?
        switch handles {
        case .stored: return
        case .file(let file):
            editor = RouteWorkflow.editor(for: try HandlesFile.read(contentsOf: file), mode: mode ?? .drive, legKind: legKind)
            fileName = file.deletingPathExtension().lastPathComponent
        case .typed(let typed):
            editor = RouteWorkflow.editor(for: HandlesInput(handles: typed), mode: mode ?? .drive, legKind: legKind)
        }
        let source: String = switch handles {
        case .file(let file): file.path
        default: "the route"
        }
        try RouteWorkflow.checkStops(editor, maximum: maxStops, source: source)
        let rings = try await RouteWorkflow.resolve(&editor, engine: settings, nameHandles: true, log: ConsoleLog(console))
        for line in Self.describe(editor) { console.out(line) }
        try checkFinished(editor, engine: settings)
        // The book keeps the side the map's roundabouts say, as `build --osm` does.
        var bookSettings = bookOptions.routeBook
        if let rings { settleDrivingSide(of: &bookSettings.settings, from: rings, log: ConsoleLog(console)) }
        let built = try await RouteWorkflow.makeBook(title: title ?? RouteWorkflow.title(of: editor, fileName: fileName), editor: editor, options: bookSettings,
                                                     turns: turns, terrain: terrain.request, log: ConsoleLog(console))
        if let printed = try RouteWorkflow.write(built, to: book, pdf: output, template: bookOptions.template,
                                                 cover: bookOptions.cover), let output {
            console.out("\(output.path): \(printed.rows) rows, \(printed.pages) pages")
        }
        console.out("\(book.path): \(built.notes.count) notes, route \(String(format: "%.2f", editor.totals.distance / 1000)) km")
    }

    /// A route whose legs still wait for the engine is not finished: nothing is written (no book,
    /// no PDF, no terrain over straight lines), unless --use-straight draws those legs straight
    /// (the book then keeps them waiting, for --retry).
    /// - Throws: `RunError` naming the engine and the legs.
    func checkFinished(_ editor: RouteEditor, engine settings: EngineSettings) throws {
        guard !useStraight else { return }
        let waiting = editor.plan.legs.indices.filter { editor.plan.legs[$0].state?.waitsForRetry == true }
        guard !waiting.isEmpty else { return }
        let engine = editor.engineName ?? settings.kind.rawValue
        let legs = waiting.prefix(5).map { "\($0 + 1)–\($0 + 2)" }.joined(separator: ", ") + (waiting.count > 5 ? ", …" : "")
        throw RunError(message: "\(engine) did not answer for leg\(waiting.count == 1 ? "" : "s") \(legs): the route is not "
                       + "finished and nothing was written; run again later, or give --use-straight to draw "
                       + "\(waiting.count == 1 ? "it" : "them") straight for now (--retry asks again)")
    }

    /// `--retry`: the waiting legs asked again, in the plan's mode unless --mode is given, and the
    /// result applied to the book, so every note, word and header field stays.
    func retry(_ console: any Console, engine settings: EngineSettings) async throws {
        let stored = try BookFile.read(contentsOf: book)
        guard let plan = stored.plan else {
            throw RunError(message: "\(book.path): this book's route was not built from handles; nothing to retry")
        }
        var editor = RouteEditor(plan: plan)
        if let mode { editor.setMode(mode) }
        editor.retry()
        // The book keeps its settings, the side traffic keeps to among them.
        var settings = settings
        settings.drivingSide = stored.settings.drivingSide
        try await RouteWorkflow.resolve(&editor, engine: settings, log: ConsoleLog(console))
        for line in Self.describe(editor) { console.out(line) }
        try checkFinished(editor, engine: settings)
        var options = ApplyOptions()
        options.turns = turns ? .add : .none
        options.useStraight = true
        options.offRoute = switch bookOptions.offRoute {
        case .keep: .keep
        case .move: .move
        case .drop: .remove
        }
        options.terrain = terrain.request
        let report = try await ApplyWorkflow.applyFile(book, read: stored, editor: editor, options: options, log: ConsoleLog(console))
        if let output {
            let printed = try RouteWorkflow.print(try BookFile.read(contentsOf: book), bookFile: book, to: output,
                                                  template: bookOptions.template, cover: bookOptions.cover)
            console.out("\(output.path): \(printed.rows) rows, \(printed.pages) pages")
        }
        console.out(report.summary)
    }

    /// Each leg's state and findings, the messages, and the totals, as lines.
    static func describe(_ editor: RouteEditor) -> [String] {
        var lines: [String] = []
        let plan = editor.plan
        for (i, leg) in plan.legs.enumerated() {
            let length = Polyline(editor.legLine(i)).length
            var state: String
            switch (leg.kind, leg.state) {
            case (.straight, _): state = "straight"
            case (.asDrawn, _): state = "as drawn"
            case (.road, .road?): state = "road"
            case (.road, .noRoad?): state = "no road (straight)"
            case (.road, .rateLimited?): state = "waiting: limiting requests (straight for now)"
            case (.road, .serverError?): state = "waiting: server error (straight for now)"
            case (.road, .unreachable?): state = "waiting: unreachable (straight for now)"
            case (.road, .asked?), (.road, nil): state = "asked"
            }
            var line = String(format: "leg %d–%d: %@, %.2f km", i + 1, i + 2, state, length / 1000)
            let findings = editor.findings(forLeg: i)
            if !findings.isEmpty { line += " — " + findings.map(\.message).joined(separator: "; ") }
            lines.append(line)
        }
        for message in editor.messages() { lines.append(message.text) }
        let totals = editor.totals
        let minutes = Int((totals.travelTime / 60).rounded())
        lines.append(String(format: "total %.2f km, %dh %02dm", totals.distance / 1000, minutes / 60, minutes % 60)
                     + (totals.straightLegs > 0 ? ", \(totals.straightLegs) straight leg\(totals.straightLegs == 1 ? "" : "s")" : ""))
        return lines
    }
}
