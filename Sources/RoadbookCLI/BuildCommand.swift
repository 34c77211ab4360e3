import Foundation
import Formats
import Geo
import Model
import Pipeline
import Workflows

/// `roadbook build`: a recorded track becomes the route, its waypoints the rows.
struct BuildCommand: Command {
    static let name = "build"
    static let abstract = "Make a road book from a recorded track (GPX): PDF, and the book file."
    static let help = """
    Usage: roadbook build TRACK.gpx -o BOOK.pdf [--book BOOK.json] [options]

    The track becomes the route and each of its waypoints a row, placed by distance along the
    route. A waypoint farther from the route than --off-route-distance is reported. Turn notes
    with tulips are generated at the junctions the route passes (matched onto --osm EXTRACT), or
    from the track's shape alone without one; a turn near a waypoint joins that waypoint's row.

    Options:
      -o, --output PATH            the PDF road book to write (required)
      --book PATH                  also write the book file (JSON), to render or inspect later
      --osm EXTRACT                OpenStreetMap extract (.osm.pbf, .osm, .osm.gz) of the route's
                                   area: turns come from its junctions
      --no-turns                   no generated turn notes, only the waypoints
    \(TerrainOptions.help)
      --title TEXT                 title in the page header (default: the GPX name or file name)
      --rally TEXT, --stage TEXT, --date TEXT
                                   printed in the page header
      --units km|mi                printed distances (default km)
      --template T                 page template: a5 (default), roll, a4, a4-2up, letter,
                                   letter-2up, or a template file (see Templates/README.md)
      --no-cover                   leave out the cover page
      --off-route-distance M       metres from the route beyond which a waypoint is off it (default 50)
      --off-route keep|move|drop   an off-route waypoint is kept in the book file but not printed
                                   (keep, default), printed at the nearest place on the route
                                   (move), or left out (drop)
      -h, --help                   show this help
    """

    var track: URL
    var output: URL
    var bookOutput: URL?
    var title: String?
    var rally: String?
    var stage: String?
    var date: String?
    var settings = BookSettings()
    var offRoutePolicy: OffRoutePolicy
    var cover: Bool
    var osm: URL?
    var turns: Bool
    var terrain: TerrainOptions

    init(_ arguments: inout Arguments) throws {
        guard let output = try arguments.option("output", short: "o") else {
            throw UsageError(message: "missing -o BOOK.pdf")
        }
        self.output = URL(fileURLWithPath: output)
        bookOutput = try arguments.option("book").map { URL(fileURLWithPath: $0) }
        title = try arguments.option("title")
        rally = try arguments.option("rally")
        stage = try arguments.option("stage")
        date = try arguments.option("date")
        if let units = try arguments.choice("units", of: BookSettings.Units.self) { settings.units = units }
        if let template = try arguments.option("template") { settings.template = template }
        cover = !arguments.flag("no-cover")
        osm = try arguments.option("osm").map { URL(fileURLWithPath: $0) }
        turns = !arguments.flag("no-turns")
        terrain = try TerrainOptions(&arguments)
        if osm != nil && !turns { throw UsageError(message: "--osm is for turn notes; it makes no sense with --no-turns") }
        if let distance = try arguments.number("off-route-distance", in: 1...100_000) {
            settings.offRouteDistance = distance
        }
        offRoutePolicy = try arguments.choice("off-route", of: OffRoutePolicy.self) ?? .keep
        track = URL(fileURLWithPath: try arguments.finish(positionals: 1...1, names: "TRACK.gpx")[0])
        if let bookOutput, bookOutput.standardizedFileURL == self.output.standardizedFileURL {
            throw UsageError(message: "--book and -o name the same file")
        }
        for input in [self.output, bookOutput].compactMap({ $0 }) where input.standardizedFileURL == track.standardizedFileURL {
            throw UsageError(message: "an output would overwrite the input \(track.path)")
        }
    }

    func run(_ console: any Console) async throws {
        let request = BuildRequest(track: track, pdf: output, bookFile: bookOutput, title: title, rally: rally, stage: stage,
                                   date: date, settings: settings, offRoute: offRoutePolicy, cover: cover, turns: turns, osm: osm,
                                   terrain: terrain.request)
        let result = try await buildBook(request, log: ConsoleLog(console))
        console.out(String(format: "%@: %d rows, %d pages, route %.2f km", output.path, result.rows, result.pages ?? 0,
                           result.routeLength / 1000))
    }
}
