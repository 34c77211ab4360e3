import Foundation
import Formats
import Geo
import Model
import Pipeline
import Workflows

/// `roadbook build`: a recorded track becomes the route, its waypoints the rows.
struct BuildCommand: Command {
    static let declaration = CommandDeclaration(
        name: "build",
        abstract: "Make a road book from a recorded track (GPX): PDF, and the book file.",
        positionals: "TRACK.gpx", positionalCount: 1...1,
        forms: [UsageForm(optional: ["book"])],
        discussion: """
        The track becomes the route and each of its waypoints a row, placed by distance along the
        route. A waypoint farther from the route than --off-route-distance is reported. Turn notes
        with tulips are generated at the junctions the route passes (matched onto --osm EXTRACT), or
        from the track's shape alone without one; a turn near a waypoint joins that waypoint's row.
        """,
        options: [
            Option("output", short: "o", value: "BOOK.pdf", required: true, help: "the PDF road book to write"),
            Option("book", value: "BOOK.json", help: "also write the book file (JSON), to render or inspect later"),
            Option("osm", value: "EXTRACT", help: """
                OpenStreetMap extract (.osm.pbf, .osm, .osm.gz) of the route's
                area: turns come from its junctions
                """),
            .choice("mode", of: TravelMode.self, default: .drive, help: """
                how the route is travelled: at a junction, only roads the mode
                may take are choices (others are drawn)
                """),
            Option("no-turns", .flag, help: "no generated turn notes, only the waypoints"),
        ] + TerrainOptions.declarations + [
            Option("title", value: "TEXT", help: "title in the page header (default: the GPX name or file name)"),
            Option("rally", value: "TEXT", help: "printed in the page header"),
            Option("stage", value: "TEXT", help: "printed in the page header"),
            Option("date", value: "TEXT", help: "printed in the page header"),
            .choice("units", of: BookSettings.Units.self, default: .kilometres, help: "printed distances"),
            Option("template", value: "T", help: """
                page template: a5 (default), roll, a4, a4-2up, letter,
                letter-2up, or a template file (see Templates/README.md)
                """),
            Option("no-cover", .flag, help: "leave out the cover page"),
            Option("off-route-distance", .number(1...100_000), value: "M", default: String(format: "%g", Thresholds.offRouteDistance),
                   help: "metres from the route beyond which a waypoint is off it"),
            .choice("off-route", of: OffRoutePolicy.self, default: .keep, help: """
                an off-route waypoint is, with keep: kept in the book file but
                not printed; with move: printed at the nearest place on the
                route; with drop: left out
                """),
        ])

    var track: URL
    var output: URL
    var bookOutput: URL?
    var title: String?
    var rally: String?
    var stage: String?
    var date: String?
    var settings = BookSettings()
    var template: String?
    var offRoutePolicy: OffRoutePolicy
    var cover: Bool
    var osm: URL?
    var turns: Bool
    var mode: TravelMode
    var terrain: TerrainOptions

    init(_ options: ParsedOptions) throws {
        output = options.file("output")!
        bookOutput = options.file("book")
        title = options.string("title")
        rally = options.string("rally")
        stage = options.string("stage")
        date = options.string("date")
        settings.units = options.choice("units", as: BookSettings.Units.self)!
        // A built-in template is the book's; a template file prints this PDF only (a book never stores a path).
        template = options.string("template")
        if let template, BookSettings.builtInTemplates.contains(template) { settings.template = template }
        settings.offRouteDistance = options.number("off-route-distance")!
        cover = !options.flag("no-cover")
        osm = options.file("osm")
        turns = !options.flag("no-turns")
        mode = options.choice("mode", as: TravelMode.self)!
        terrain = try TerrainOptions(options)
        if osm != nil && !turns { throw UsageError(message: "--osm is for turn notes; it makes no sense with --no-turns") }
        offRoutePolicy = options.choice("off-route", as: OffRoutePolicy.self)!
        track = URL(fileURLWithPath: options.positionals[0])
        if let bookOutput, bookOutput.standardizedFileURL == output.standardizedFileURL {
            throw UsageError(message: "--book and -o name the same file")
        }
        for input in [output, bookOutput].compactMap({ $0 }) where input.standardizedFileURL == track.standardizedFileURL {
            throw UsageError(message: "an output would overwrite the input \(track.path)")
        }
    }

    func run(_ console: any Console) async throws {
        let request = BuildRequest(track: track, pdf: output, bookFile: bookOutput, title: title, rally: rally, stage: stage,
                                   date: date, settings: settings, template: template, offRoute: offRoutePolicy, cover: cover, turns: turns,
                                   osm: osm, terrain: terrain.request, mode: mode)
        let result = try await buildBook(request, log: ConsoleLog(console))
        console.out(String(format: "%@: %d rows, %d pages, route %.2f km", output.path, result.rows, result.pages ?? 0,
                           result.routeLength / 1000))
    }
}
