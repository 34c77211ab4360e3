import Foundation
import Formats
import Geo
import Model
import Pipeline
import Workflows

/// `roadbook regenerate`: brings a book's turn notes onto a changed route.
struct RegenerateCommand: Command {
    static let name = "regenerate"
    static let abstract = "Bring a book onto a changed route: regenerate the turn notes that no longer fit."
    static let help = """
    Usage: roadbook regenerate BOOK.json --route NEW.gpx [--osm EXTRACT] [-o OUT.json] [--dry-run]

    Every note is placed on the new route. Generated turn notes whose junction or turn changed are
    regenerated, every tulip generated from the road is redrawn from the new road, and new turns get
    rows (or join a note nearby). Words a person typed and tulips a person drew are never changed.
    The report lists what changed; the book is written back (or to -o).

    Options:
      --route PATH    the changed route: a GPX track (or route)
      --osm EXTRACT   OpenStreetMap extract for the junctions; without it, turns come from the
                      route's shape
      -o, --output    write the book here instead of over BOOK.json
      --dem, --elevation, --profile-spacing
                      heights for the new route, as for build; without them a book that had terrain
                      loses it (its heights belonged to the old route)
      --dry-run       report what would change, write nothing
      -h, --help      show this help
    """

    var book: URL
    var route: URL
    var osm: URL?
    var output: URL?
    var dryRun: Bool
    var terrain: TerrainOptions

    init(_ arguments: inout Arguments) throws {
        guard let route = try arguments.option("route") else { throw UsageError(message: "missing --route NEW.gpx") }
        self.route = URL(fileURLWithPath: route)
        osm = try arguments.option("osm").map { URL(fileURLWithPath: $0) }
        output = try arguments.option("output", short: "o").map { URL(fileURLWithPath: $0) }
        dryRun = arguments.flag("dry-run")
        terrain = try TerrainOptions(&arguments)
        book = URL(fileURLWithPath: try arguments.finish(positionals: 1...1, names: "BOOK.json")[0])
        if dryRun && output != nil { throw UsageError(message: "--dry-run writes nothing; leave out -o") }
    }

    func run(_ console: any Console) async throws {
        var regeneration = try Regeneration(RegenerateRequest(book: book, route: route, osm: osm, output: output,
                                                              terrain: terrain.request), writing: !dryRun)
        for line in Self.describe(regeneration.report) { console.out(line) }
        try await regeneration.finish(write: !dryRun, log: ConsoleLog(console))
    }

    /// The report in lines an organiser reads.
    static func describe(_ report: RegenerationReport) -> [String] {
        func km(_ metres: Metres) -> String { String(format: "%.2f km", metres / 1000) }
        var lines: [String] = []
        if report.isEmpty { lines.append("Every note still describes the road.") }
        for c in report.changed {
            lines.append("changed at \(km(c.distanceAlong)): \"\(c.before)\" → \"\(c.after)\"" + (c.wordsKept ? " (the note's own words kept)" : ""))
        }
        for n in report.removed { lines.append("removed at \(km(n.distanceAlong)): \"\(n.text)\" (no turn there any more)") }
        for n in report.keptWithoutTurn {
            lines.append("kept at \(km(n.distanceAlong)): \"\(n.text)\" (no turn there any more; its words were not generated)")
        }
        for n in report.added { lines.append("added at \(km(n.distanceAlong)): \"\(n.text)\"") }
        for o in report.offRoute { lines.append("off the route: \(o.description)") }
        lines.append("\(report.tulipsRedrawn) tulips redrawn from the road, \(report.drawnTulipsKept) drawn by a person kept")
        return lines
    }
}
