import Foundation
import Model
import Workflows

/// `roadbook build`: a recorded track becomes the route, its waypoints the rows.
struct BuildCommand: Command {
    static let declaration = CommandDeclaration(
        name: "build",
        abstract: "Make a road book from a track (GPX, KML, KMZ, GeoJSON, RN2): PDF, and the book file.",
        positionals: "TRACK", positionalCount: 1...1,
        forms: [UsageForm(optional: ["book"])],
        discussion: """
        The file's format is told by its first bytes, then by its extension. The track (or line)
        becomes the route and each of its waypoints (or points) a row, placed by distance along the
        route. An existing --book is replaced only with --force, unless it is the very book this build
        makes. A waypoint farther from the route than --off-route-distance is reported. Turn notes
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
            .choice("mode", of: TravelMode.self, help: """
                how the route is travelled: at a junction, only roads the mode
                may take are choices (others are drawn); default: the mode last
                given to a command, else drive
                """),
            Option("no-turns", .flag, help: "no generated turn notes, only the waypoints (kept in the book:\nlater applies add none unless told to)"),
            Option("force", .flag, help: "replace an existing --book that differs from the one built now, or a\nread-only output"),
        ] + TerrainOptions.declarations + [
            Option("title", value: "TEXT", help: "title in the page header (default: the GPX name or file name)"),
        ] + BookOptions.declarations)

    var track: URL
    var output: URL
    var bookOutput: URL?
    var title: String?
    var book: BookOptions
    // The book options by their former names, as the parsing tests read them.
    var rally: String? { book.rally }
    var stage: String? { book.stage }
    var date: String? { book.date }
    var settings: BookSettings { book.settings }
    var template: String? { book.template }
    var cover: Bool { book.cover }
    var offRoute: OffRouteResolution { book.offRoute }
    var osm: URL?
    var turns: Bool
    /// nil for the mode last given (`LastTravelMode`).
    var mode: TravelMode?
    var terrain: TerrainOptions
    var force: Bool

    init(_ options: ParsedOptions) throws {
        output = try options.file(always: "output")
        bookOutput = options.file("book")
        title = options.string("title")
        book = try BookOptions(options)
        osm = options.file("osm")
        turns = !options.flag("no-turns")
        force = options.flag("force")
        mode = options.choice("mode", as: TravelMode.self)
        terrain = try TerrainOptions(options)
        if osm != nil && !turns { throw UsageError(message: "--osm is for turn notes; it makes no sense with --no-turns") }
        track = URL(fileURLWithPath: options.positionals[0])
        if let bookOutput, bookOutput.standardizedFileURL == output.standardizedFileURL {
            throw UsageError(message: "--book and -o name the same file")
        }
    }

    func run(_ console: any Console) async throws {
        var request = BuildRequest(track: track, pdf: output, bookFile: bookOutput, title: title, rally: book.rally,
                                   stage: book.stage, date: book.date, settings: book.settings, template: book.template,
                                   offRoute: book.offRoute, cover: book.cover, turns: turns,
                                   osm: osm, terrain: terrain.request, mode: LastTravelMode.mode(mode, console: console))
        request.replaceBook = force
        request.symbols = book.symbols
        let result = try await buildBook(request, log: ConsoleLog(console))
        LastTravelMode.remember(mode, console: console)
        console.out(String(format: "%@: %d rows, %d pages, route %.2f km", output.path, result.rows, result.pages ?? 0,
                           result.routeLength / 1000))
    }
}
