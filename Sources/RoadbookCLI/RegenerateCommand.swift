import Foundation
import Model
import Workflows

/// `roadbook regenerate`: brings a book's turn notes onto a changed route.
struct RegenerateCommand: Command {
    static let declaration = CommandDeclaration(
        name: "regenerate",
        abstract: "Bring a book onto a changed route: regenerate the turn notes that no longer fit.",
        positionals: "BOOK.json", positionalCount: 1...1,
        forms: [UsageForm(optional: ["osm", "output", "dry-run"])],
        discussion: """
        Every note is placed on the new route. Generated turn notes whose junction or turn changed are
        regenerated, every tulip generated from the road is redrawn from the new road, and new turns get
        rows (or join a note nearby). Words a person typed and tulips a person drew are never changed.
        The report lists what changed; the book is written back (or to -o). Heights for the new route
        come from --dem and --elevation, as for build; without them a book that had terrain loses it
        (its heights belonged to the old route). A handles file (GeoJSON points, or a .txt of typed
        coordinates) is a route to ask of --engine: its legs follow the road and it is applied as
        'roadbook apply' applies a drawing, the handles becoming the book's. Undo with undo-apply.
        """,
        options: [
            Option("route", value: "NEW.gpx", required: true, help: """
                the changed route: a track or line in any format build reads
                (GPX, GeoJSON…), or a handles file
                """),
            Option("osm", value: "EXTRACT", help: """
                OpenStreetMap extract for the junctions (and the embedded router's
                map); without it, turns come from the route's shape
                """),
            EngineOptions.engine(required: false, help: "for a handles file: the routing engine its legs are asked of"),
            EngineOptions.url, EngineOptions.apiKey, EngineOptions.concurrency,
            Option("use-straight", .flag, help: "for a handles file: apply although legs wait for the engine"),
            Option("output", short: "o", value: "OUT.json", help: "write the book here instead of over BOOK.json"),
            .force,
            .choice("mode", of: TravelMode.self, help: """
                how the route is travelled (default: the book's): at a junction,
                only roads the mode may take are choices
                """),
            .language(help: """
                the language the book prints in from now on (default: the book's):
                its generated turn words are written again in it, a person's never
                """),
        ] + TerrainOptions.declarations + [
            Option("dry-run", .flag, help: "report what would change, write nothing"),
        ])

    var book: URL
    var route: URL
    var osm: URL?
    var output: URL?
    var dryRun: Bool
    var mode: TravelMode?
    var language: BookLanguage?
    var terrain: TerrainOptions
    var engine: EngineSettings?
    var useStraight: Bool
    var force: Bool

    init(_ options: ParsedOptions) throws {
        route = try options.file(always: "route")
        osm = options.file("osm")
        output = options.file("output")
        dryRun = options.flag("dry-run")
        mode = options.choice("mode", as: TravelMode.self)
        language = options.choice("language", as: BookLanguage.self)
        terrain = try TerrainOptions(options)
        engine = try EngineOptions.settings(options, osmIsShared: true)
        useStraight = options.flag("use-straight")
        force = options.flag("force")
        book = URL(fileURLWithPath: options.positionals[0])
        if dryRun && output != nil { throw UsageError(message: "--dry-run writes nothing; leave out -o") }
    }

    func run(_ console: any Console) async throws {
        if let handles = try HandlesRoute(file: route) { return try await regenerate(through: handles, console) }
        if engine != nil || useStraight {
            throw RunError(message: "\(route.path) is a route line, not handles: --engine and --use-straight are for a handles file")
        }
        var request = RegenerateRequest(book: book, route: route, osm: osm, output: output, terrain: terrain.request, mode: mode)
        request.language = language
        request.force = force
        var regeneration = try Regeneration(request, writing: !dryRun)
        for line in regeneration.report.lines { console.out(line) }
        if regeneration.planDropped {
            console.out("the book's handles are dropped: its route now comes from \(route.lastPathComponent) ('roadbook handles' traces it into new ones)")
        }
        try await regeneration.finish(write: !dryRun, log: ConsoleLog(console))
        console.out(regeneration.report.summary)
        sayLanguage(console)
        LastTravelMode.remember(mode, console: console)
    }

    /// A handles file: its legs asked of --engine, then applied as `apply` applies a drawing.
    func regenerate(through handles: HandlesRoute, _ console: any Console) async throws {
        guard !dryRun else {
            throw RunError(message: "\(route.path) holds handles: --dry-run is for a route line; 'roadbook handles' shows a drawing before it is applied")
        }
        guard let engine else {
            throw RunError(message: "\(route.path) holds handles, to be routed: give --engine (and --osm for the embedded router)")
        }
        var options = ApplyOptions(turns: .fromBook, osm: osm, terrain: terrain.request)
        options.useStraight = useStraight
        options.language = language
        let (legs, report) = try await handles.regenerate(book, engine: engine, mode: mode, options: options, output: output,
                                                          force: force, log: ConsoleLog(console))
        for line in RouteCommand.describe(legs) + report.details { console.out(line) }
        console.out(report.summary)
        sayLanguage(console)
        LastTravelMode.remember(mode, console: console)
    }

    /// With --language, what became of the words.
    func sayLanguage(_ console: any Console) {
        guard let language else { return }
        console.out("the book \(dryRun ? "would print" : "prints") in \(language.name) from now on: its generated turn words "
                    + "are written in it; a person's words stay as written")
    }
}
