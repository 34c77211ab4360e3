import Foundation
import Formats
import Geo
import Model
import Pipeline
import Workflows

/// `roadbook route`: builds a route through handles, each road leg asked of a routing engine.
struct RouteCommand: Command {
    static let name = "route"
    static let abstract = "Build a route through handles, legs asked of OSRM, Valhalla, GraphHopper or the embedded router."
    static let help = """
    Usage: roadbook route HANDLES.geojson|HANDLES.gpx --engine ENGINE --book BOOK.json [options]
           roadbook route --retry --book BOOK.json --engine ENGINE [options]

    The handles (GeoJSON points, GPX route points or waypoints; a GeoJSON line is a drawn stroke
    and a GPX track is traced into handles about 400 m apart) are joined by legs; each road leg is
    asked of the engine on its own, several at once. Tapped and drawn handles move onto the road;
    coordinates and waypoints are surveyed and never move. Prints each leg's state and the
    warnings, writes the book (with its handles, so the route reopens editable) and, with -o, the
    PDF with turn notes from the engine's junctions. A leg the engine could not answer (limiting
    requests, a server error, unreachable) is straight for now and waits: --retry asks it again.

    Options:
      --engine osrm|valhalla|graphhopper|embedded
      --url URL                the engine's address (default OSRM http://127.0.0.1:5000,
                               Valhalla http://127.0.0.1:8002, GraphHopper http://127.0.0.1:8989)
      --api-key KEY            GraphHopper's key, when the server needs one
      --osm EXTRACT            the OpenStreetMap extract the embedded router routes on
      --mode drive|cycle|walk  travel mode of every road leg (default drive)
      --legs road|straight|as-drawn
                               what new legs do (default road)
      --concurrency N          legs asked at once (default 4)
      --book PATH              the book file to write (required)
      -o, --output PATH        also print the road book as PDF
      --title TEXT             title of the book (default: the handles file's name)
      --retry                  ask again the legs of --book that wait
      --no-turns               no turn notes from the junctions
    \\(TerrainOptions.help)
      -h, --help               show this help
    """

    var handles: URL?
    var engine: EngineKind
    var url: URL?
    var apiKey: String?
    var osm: URL?
    var mode: TravelMode
    var legKind: LegKind
    var concurrency: Int
    var book: URL
    var output: URL?
    var title: String?
    var retry: Bool
    var turns: Bool
    var terrain: TerrainOptions

    init(_ arguments: inout Arguments) throws {
        guard let engine = try arguments.choice("engine", of: EngineKind.self) else {
            throw UsageError(message: "missing --engine osrm|valhalla|graphhopper|embedded")
        }
        self.engine = engine
        url = try arguments.option("url").map { text in
            guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
                throw UsageError(message: "--url '\(text)' is not an http(s) URL")
            }
            return url
        }
        apiKey = try arguments.option("api-key")
        osm = try arguments.option("osm").map { URL(fileURLWithPath: $0) }
        mode = try arguments.choice("mode", of: TravelMode.self) ?? .drive
        let legs = try arguments.option("legs") ?? "road"
        guard let kind = ["road": LegKind.road, "straight": .straight, "as-drawn": .asDrawn][legs] else {
            throw UsageError(message: "--legs must be one of road, straight, as-drawn, not '\(legs)'")
        }
        legKind = kind
        concurrency = Int(try arguments.number("concurrency", in: 1...64) ?? 4)
        guard let book = try arguments.option("book") else { throw UsageError(message: "missing --book BOOK.json") }
        self.book = URL(fileURLWithPath: book)
        output = try arguments.option("output", short: "o").map { URL(fileURLWithPath: $0) }
        title = try arguments.option("title")
        retry = arguments.flag("retry")
        turns = !arguments.flag("no-turns")
        terrain = try TerrainOptions(&arguments)
        let rest = try arguments.finish(positionals: retry ? 0...0 : 1...1, names: "HANDLES.geojson")
        handles = rest.first.map { URL(fileURLWithPath: $0) }
        if engine == .embedded && osm == nil { throw UsageError(message: "the embedded router needs --osm EXTRACT") }
        if engine != .embedded && osm != nil { throw UsageError(message: "--osm is for --engine embedded") }
    }

    func run(_ console: any Console) async throws {
        try checkWritable([book] + [output].compactMap { $0 })
        var editor: RouteEditor
        var bookTitle = title
        if retry {
            let stored = try RouteWorkflow.retryEditor(book: book, mode: mode)
            editor = stored.editor
            bookTitle = bookTitle ?? stored.title
        } else {
            editor = RouteWorkflow.editor(for: try HandlesFile.read(contentsOf: handles!), mode: mode, legKind: legKind)
            bookTitle = bookTitle ?? handles!.deletingPathExtension().lastPathComponent
        }
        try await RouteWorkflow.resolve(&editor, engine: EngineSettings(kind: engine, url: url, apiKey: apiKey, osm: osm,
                                                                        concurrency: concurrency))
        for line in Self.describe(editor) { console.out(line) }
        let built = try await RouteWorkflow.makeBook(title: bookTitle ?? "Route", editor: editor, turns: turns,
                                                     terrain: terrain.request, log: ConsoleLog(console))
        if let printed = try RouteWorkflow.write(built, to: book, pdf: output), let output {
            console.out("\(output.path): \(printed.rows) rows, \(printed.pages) pages")
        }
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
