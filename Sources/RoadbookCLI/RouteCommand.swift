import Foundation
import Model
import Workflows

/// `roadbook route`: builds a route through handles, each road leg asked of a routing engine.
struct RouteCommand: Command {
    static let declaration = CommandDeclaration(
        name: "route",
        abstract: "Build a route through handles, legs asked of OSRM, Valhalla, GraphHopper or the embedded router.",
        positionals: "HANDLES.geojson|HANDLES.gpx|HANDLES.txt", positionalCount: 0...1,
        forms: [UsageForm(required: ["engine"]), UsageForm(positionals: false, required: ["engine", "handle"]),
                UsageForm(positionals: false, required: ["engine", "retry"]), UsageForm(required: ["legs"])],
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
        the handle; in a file, blank lines and lines starting with # are skipped. With --osm,
        --handle also takes a place's name (a text without digits, "Canillo"), looked up in the
        extract's places, then its roads.

        A route whose legs still wait for the engine is not finished: nothing is written and the
        command fails, naming the engine, unless --use-straight draws those legs straight for now
        (they still wait in the book: --retry asks them again). --retry is an Apply on the book: every
        note, word, danger and header field of the book is kept, and the legs are asked in the
        plan's own mode unless --mode is given; the book keeps its own header and settings, and
        --off-route decides what becomes of a note the new route no longer passes. --book never
        replaces another book without --force.

        A route whose legs are all straight or as drawn (--legs straight or as-drawn) asks no engine:
        --engine may be left out.

        The book options (--rally, --stage, --date, --units, --template, --no-cover, --symbols,
        --off-route-distance, --off-route) are those of 'roadbook build'.
        """,
        options: [
            EngineOptions.engine(required: false, help: "the routing engine the road legs are asked of (none needed for straight\nor as-drawn legs)"), EngineOptions.url, EngineOptions.apiKey, EngineOptions.osm,
            .choice("mode", of: TravelMode.self, help: """
                travel mode of every road leg (default: the mode last given to a
                command, else drive; with --retry the plan's)
                """),
            .choice("legs", of: LegKindWord.self, default: .road, help: "what new legs do"),
            EngineOptions.concurrency,
            Option("handle", .repeatable, value: "COORD", help: """
                a handle, typed (repeatable, in route order), instead of a
                handles file: COORD, COORD | NOTE or COORD | NOTE | MARKER;
                a place's name instead of COORD with --osm
                """),
            Option("max-stops", .integer(2...RouteWorkflow.maximumHandles), value: "N", help: """
                refuse a route of more than N handles (stops), as a route tool
                with a limit would, and keep N in the book for 'handles add'
                (default 14, as the route tool takes; a GPX track traced into
                handles has no limit unless given; 1000 is none)
                """),
            Option("book", value: "BOOK.json", required: true, help: "the book file to write"),
            Option("output", short: "o", value: "BOOK.pdf", help: "also print the road book as PDF"),
            Option("retry", .flag, help: "ask again the legs of --book that wait, keeping everything else in the book"),
            Option("use-straight", .flag, help: "finish the route with the legs that wait drawn straight"),
            Option("force", .flag, help: "replace an existing --book that is not the one being retried, or a\nread-only output"),
            Option("no-turns", .flag, help: "no turn notes from the junctions (kept in the book: later\napplies add none unless told to)"),
        ] + TerrainOptions.declarations + [
            Option("title", value: "TEXT", help: """
                title of the book (default: "Start → End" from the first and
                last handles' names, else the handles file's name)
                """),
        ] + BookOptions.declarations)

    /// Where the handles come from.
    enum Handles {
        case file(URL)
        /// Typed with --handle: coordinates, or places to find by name in --osm.
        case typed([TypedInput.TypedHandle])
        /// The book's own, for --retry.
        case stored
    }

    var handles: Handles
    /// nil for a route of straight or as-drawn legs, which asks no engine.
    var engine: EngineSettings?
    var mode: TravelMode?
    var legKind: LegKind
    var useStraight: Bool
    var force: Bool
    var book: URL
    var output: URL?
    var title: String?
    /// The extract places are looked up in by name (and the embedded router's roads).
    var extract: URL?
    /// The most handles a new route may have, when limited.
    var maxStops: Int?
    var bookOptions: BookOptions
    var turns: Bool
    var terrain: TerrainOptions

    init(_ options: ParsedOptions) throws {
        // --osm looks places up by name without an engine too: straight and as-drawn legs ask none.
        engine = try EngineOptions.settings(options, osmIsShared: true)
        extract = options.file("osm")
        mode = options.choice("mode", as: TravelMode.self)
        useStraight = options.flag("use-straight")
        force = options.flag("force")
        let legs = try options.choice(always: "legs", as: LegKindWord.self)
        legKind = legs.kind
        book = try options.file(always: "book")
        output = options.file("output")
        title = options.string("title")
        maxStops = options.integer("max-stops")
        bookOptions = try BookOptions(options)
        turns = !options.flag("no-turns")
        terrain = try TerrainOptions(options)
        handles = try Self.handles(options, maxStops: maxStops)
        if engine == nil, legKind == .road || options.flag("retry") {
            let missing = EngineOptions.engine(required: true).missing.message
            throw UsageError(message: missing + ": road legs are asked of an engine (--legs straight or as-drawn asks none)")
        }
        if case .typed(let typed) = handles, extract == nil,
           case .place(let name, _)? = typed.first(where: { if case .place = $0 { true } else { false } }) {
            throw UsageError(message: "--handle '\(name)' is not a coordinate; to look a place up by name, give --osm EXTRACT")
        }
    }

    /// Where the handles come from: a file, `--handle` typed, or the book's own (`--retry`).
    private static func handles(_ options: ParsedOptions, maxStops: Int?) throws -> Handles {
        let typed = try options.strings("handle").enumerated().map { i, text in
            do { return try TypedInput.handleOrPlace(text, id: i + 1) } catch {
                throw UsageError(message: "--handle '\(text)': \(error)")
            }
        }
        switch (options.flag("retry"), options.positionals.first, typed.isEmpty) {
        case (true, let file?, _): throw UsageError(message: "unexpected argument '\(file)'")
        case (true, nil, false): throw UsageError(message: "--retry asks again the legs of --book; leave out --handle")
        case (true, nil, true):
            if maxStops != nil { throw UsageError(message: "--max-stops is for a new route; --retry keeps the book's handles") }
            return .stored
        case (false, let file?, true): return .file(URL(fileURLWithPath: file))
        case (false, _?, false): throw UsageError(message: "give a handles file or --handle, not both")
        case (false, nil, false): return .typed(typed)
        case (false, nil, true): throw UsageError(message: "missing HANDLES.geojson (or --handle COORD)")
        }
    }

    func run(_ console: any Console) async throws {
        var settings = engine
        settings?.maximumAnswerSize = terrain.request.maximumAnswerSize
        settings?.drivingSide = bookOptions.settings.drivingSide
        let handles: RouteRun.Request.Handles
        switch self.handles {
        case .stored:
            guard let settings else { preconditionFailure("--retry without --engine is refused when parsed") }
            return try await retry(console, engine: settings)
        case .file(let file): handles = .file(file)
        case .typed(let typed): handles = .typed(try Self.found(typed, extract: extract, console: console))
        }
        let request = RouteRun.Request(handles: handles, engine: settings, mode: LastTravelMode.mode(mode, console: console),
                                       legKind: legKind, book: book,
                                       pdf: output, title: title, maximumStops: maxStops, options: bookOptions.routeBook,
                                       turns: turns, terrain: terrain.request, replaceBook: force)
        let run: RouteRun
        do { run = try await RouteRun.start(request, log: ConsoleLog(console)) } catch let exists as RouteRun.BookExists {
            throw RunError(message: "\(book.path) exists\(exists.notes.map { " (\($0) notes)" } ?? ""): --force replaces it; "
                           + "to change its route, use 'roadbook handles' and 'roadbook apply', or --retry")
        }
        for line in Self.describe(run.summary) { console.out(line) }
        try checkFinished(run.summary, engine: settings)
        let result = try await run.finish(log: ConsoleLog(console))
        if let printed = result.printed, let output { console.out("\(output.path): \(printed.rows) rows, \(printed.pages) pages") }
        console.out("\(book.path): \(result.notes) notes, route \(String(format: "%.2f", result.distance / 1000)) km")
        LastTravelMode.remember(mode, console: console)
    }

    /// The typed handles, each place name found in `extract` (`PlaceSearch`) and said where: a
    /// handle there, named after it, that moves onto the road as a tapped one does.
    static func found(_ typed: [TypedInput.TypedHandle], extract: URL?, console: any Console) throws -> [Handle] {
        try typed.enumerated().map { i, typed in
            switch typed {
            case .handle(let handle): return handle
            case .place(let name, let note):
                guard let extract else { throw UsageError(message: "--handle '\(name)' is not a coordinate; to look a place up by name, give --osm EXTRACT") }
                let place = try PlaceSearch.place(named: name, extract: extract, log: ConsoleLog(console))
                console.out("\(place.name) (\(place.kind)): \(TypedInput.text(of: place.coordinate))")
                return Handle(id: i + 1, coordinate: place.coordinate, origin: .tapped, note: note, name: place.name)
            }
        }
    }

    /// A route whose legs still wait for the engine is not finished: nothing is written (no book,
    /// no PDF, no terrain over straight lines), unless --use-straight draws those legs straight
    /// (the book then keeps them waiting, for --retry).
    /// - Throws: `RunError` naming the engine and the legs.
    func checkFinished(_ route: RouteSummary, engine settings: EngineSettings?) throws {
        guard !useStraight else { return }
        let waiting = route.waitingLegs
        guard !waiting.isEmpty else { return }
        let engine = route.engineName ?? settings?.kind.rawValue ?? "the routing engine"
        let legs = RoutePlan.legNames(waiting)
        throw RunError(message: "\(engine) did not answer for leg\(waiting.count == 1 ? "" : "s") \(legs): the route is not "
                       + "finished and nothing was written; run again later, or give --use-straight to draw "
                       + "\(waiting.count == 1 ? "it" : "them") straight for now (--retry asks again)")
    }

    /// `--retry`: the waiting legs asked again, in the plan's mode unless --mode is given, and the
    /// result applied to the book, so every note, word and header field stays.
    func retry(_ console: any Console, engine settings: EngineSettings) async throws {
        let retry = try await RouteRetry.start(book: book, pdf: output, template: bookOptions.template, engine: settings,
                                               mode: mode, terrain: terrain.request, force: force, log: ConsoleLog(console))
        for line in Self.describe(retry.summary) { console.out(line) }
        try checkFinished(retry.summary, engine: settings)
        var options = ApplyOptions()
        // An Apply on the book: its own choice of turn notes, unless --no-turns says none.
        options.turns = turns ? .fromBook : .none
        options.useStraight = true
        options.offRoute = bookOptions.offRoute
        options.terrain = terrain.request
        let (report, printed) = try await retry.finish(options: options, pdf: output, template: bookOptions.template,
                                                       cover: bookOptions.cover, symbols: bookOptions.symbols,
                                                       log: ConsoleLog(console))
        if let printed, let output { console.out("\(output.path): \(printed.rows) rows, \(printed.pages) pages") }
        console.out(report.summary)
        LastTravelMode.remember(mode, console: console)
    }

    /// Each leg's state and findings, the messages, and the totals, as lines.
    static func describe(_ route: RouteSummary) -> [String] {
        var lines = route.legs.enumerated().map { i, leg in
            var line = String(format: "leg %d–%d: %@, %.2f km", i + 1, i + 2, state(of: leg), leg.length / 1000)
            if !leg.findings.isEmpty { line += " — " + leg.findings.joined(separator: "; ") }
            return line
        }
        lines += route.messages
        let minutes = Int((route.travelTime / 60).rounded())
        lines.append(String(format: "total %.2f km, %dh %02dm", route.distance / 1000, minutes / 60, minutes % 60)
                     + (route.straightLegs > 0 ? ", \(route.straightLegs) straight leg\(route.straightLegs == 1 ? "" : "s")" : ""))
        return lines
    }

    /// A leg's state in words.
    private static func state(of leg: RouteSummary.Leg) -> String {
        switch (leg.kind, leg.state) {
        case (.straight, _): "straight"
        case (.asDrawn, _): "as drawn"
        case (.road, .road?): "road"
        case (.road, .noRoad?): "no road (straight)"
        case (.road, .rateLimited?): "waiting: limiting requests (straight for now)"
        case (.road, .serverError?): "waiting: server error (straight for now)"
        case (.road, .unreachable?): "waiting: unreachable (straight for now)"
        case (.road, .asked?), (.road, nil): "asked"
        }
    }
}

/// Leg kinds as typed (`--legs`, `handles … kind`): `road`, `straight`, `as-drawn`.
enum LegKindWord: String, CaseIterable {
    case road, straight
    case asDrawn = "as-drawn"

    static var words: [String] { allCases.map(\.rawValue) }

    /// The word of `kind`.
    init(_ kind: LegKind) {
        switch kind {
        case .road: self = .road
        case .straight: self = .straight
        case .asDrawn: self = .asDrawn
        }
    }

    var kind: LegKind {
        switch self {
        case .road: .road
        case .straight: .straight
        case .asDrawn: .asDrawn
        }
    }
}
