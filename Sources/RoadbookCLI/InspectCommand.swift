import Foundation
import Model
import Workflows

/// `roadbook inspect`: the notes of a book, for people or for scripts.
struct InspectCommand: Command {
    static let declaration = CommandDeclaration(
        name: "inspect",
        abstract: "List a book's notes, as a table or as JSON.",
        positionals: "BOOK.json", positionalCount: 1...1,
        forms: [UsageForm(optional: ["json"]), UsageForm(required: ["explain"], optional: ["osm", "mode", "json"])],
        options: [
            Option("json", .flag, help: """
                print JSON: the book's title and route length, and per note its index,
                distanceAlong (metres), kind, text, marker, waypointType, cap (degrees),
                latitude, longitude, offsetFromRoute (metres, + right of travel), onRoute,
                elevation (metres, or null without terrain), turnSource (for a generated
                turn: map or shape, else null); and the climb and descent
                """),
            Option("explain", .flag, help: """
                for every junction the route passes, which pass of the turn
                detector kept, merged or dropped it and why, and the book's row
                it became (run again over --osm EXTRACT, or the track's shape)
                """),
            Option("osm", value: "EXTRACT", help: "with --explain: the extract the book's turns came from"),
            .choice("mode", of: TravelMode.self, help: "with --explain: the travel mode (default: the book's)"),
        ])

    var book: URL
    var json: Bool
    var explain: Bool
    var osm: URL?
    var mode: TravelMode?

    init(_ options: ParsedOptions) throws {
        json = options.flag("json")
        explain = options.flag("explain")
        osm = options.file("osm")
        mode = options.choice("mode", as: TravelMode.self)
        book = URL(fileURLWithPath: options.positionals[0])
        if !explain && (osm != nil || mode != nil) { throw UsageError(message: "--osm and --mode are for --explain") }
    }

    func run(_ console: any Console) async throws {
        if explain { return try explainTurns(console) }
        let inspection = try inspectBook(book)
        if json { return console.out(try Self.json(inspection.record)) }
        let notes = inspection.record.notes
        var heading = String(format: "%@ — %.2f km, %d notes", inspection.record.title, inspection.routeLength / 1000, notes.count)
        if let profile = inspection.profile {
            heading += profile.isComplete ? String(format: ", climb %.0f m, descent %.0f m", profile.climb, profile.descent)
                : ", No terrain for this route"
        }
        if let straight = inspection.record.straight { heading += ", " + straight }
        console.out(heading)
        for r in notes {
            let cap = r.cap.map { String(format: "C.%03d", Int($0.rounded()) % 360) } ?? "     "
            var flag = r.onRoute ? "" : String(format: "  (off route by %.0f m)", abs(r.offsetFromRoute))
            if r.turnSource == "shape" { flag += "  (from the track's shape)" }
            let height = r.elevation.map { String(format: "%5.0f m  ", $0) } ?? ""
            // A note off the route is listed without a number: no page prints it.
            let row = r.row.map { String(format: "%3d", $0) } ?? "  –"
            console.out(String(format: "%@  %8.2f km  %@%@  %@%@", row, r.distanceAlong / 1000, height, cap,
                               [r.marker, r.text].compactMap { $0 }.joined(separator: " — "), flag))
        }
    }

    /// `value` as `--json` prints it: pretty, keys sorted, slashes as they are.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Runs the turn detector again over the book's route and says what became of every junction.
    func explainTurns(_ console: any Console) throws {
        let explained = try Workflows.explainTurns(ofBook: book, map: osm, mode: mode)
        if json { return console.out(try Self.json(explained.junctions)) }
        guard let osm else { return Self.printShapeTurns(explained, console) }
        console.out("\(explained.junctions.count) junctions on \(osm.lastPathComponent) along the route (\(explained.mode.rawValue)), "
                    + "\(explained.turns.count) turn rows:")
        for j in explained.junctions {
            let node = j.nodeID.map { "node \($0)" } ?? "no node"
            console.out(String(format: "%8.2f km  %@  (%.6f, %.6f)", j.distanceAlong / 1000, node, j.latitude, j.longitude))
            for d in j.decisions { console.out("            \(d.pass)\(d.handler.map { " (\($0))" } ?? ""): \(d.verdict)") }
            if let row = j.row {
                console.out("            → row \(row): \(j.rowText ?? "")")
            } else if j.decisions.contains(where: { !$0.verdict.hasPrefix("no row") }) {
                console.out("            → no row of the book stands on it (the book was made from another route or map)")
            }
        }
        for range in explained.offMap {
            console.out(String(format: "%.2f–%.2f km is not on the map: turns there come from the track's shape",
                               range.lowerBound / 1000, range.upperBound / 1000))
        }
    }

    /// Without a map: how the track reads, and the turns its shape gives.
    static func printShapeTurns(_ explained: TurnExplanation, _ console: any Console) {
        console.out("No --osm: the turns come from the track's shape, which has no junctions to explain.")
        if let reading = explained.reading {
            let kind = switch reading.kind {
            case .clean: "a routed or drawn line"
            case .jittered: "a receiver's track, whose error drifts slowly and moves about a metre from one fix to the next"
            case .scattered: "scattered: metres of independent error at every fix, in which small roundabouts passed nearly "
                + "straight and jogs of the road are lost"
            }
            let averaged = reading.averagedOver.map { String(format: ", read from the means of its fixes over %.0f m", $0) } ?? ""
            console.out(String(format: "The track reads as %@ (%.2f m from its smoothed line at the median%@).",
                               kind, reading.scatter, averaged))
        }
        console.out("\(explained.turns.count) turns found along the route:")
        for turn in explained.turns {
            console.out(String(format: "%8.2f km  %@", turn.distanceAlong / 1000, turn.text))
        }
    }
}
