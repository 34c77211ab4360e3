import Foundation
import Formats
import Geo
import Guidance
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

    /// One note as `inspect --json` prints it.
    struct NoteRecord: Encodable {
        var index: Int
        var id: Int
        var distanceAlong: Double
        var kind: String
        var text: String
        var marker: String?
        var waypointType: String?
        var cap: Double?
        var latitude: Double
        var longitude: Double
        var offsetFromRoute: Double
        var onRoute: Bool
        /// Metres, or null where the book has no terrain.
        var elevation: Double?
        /// For a generated turn, where it was read from: `map` or `shape` (`GeneratedTurn.source`).
        var turnSource: String? = nil

        private enum CodingKeys: String, CodingKey {
            case index, id, distanceAlong, kind, text, marker, waypointType, cap, latitude, longitude, offsetFromRoute,
                 onRoute, elevation, turnSource
        }

        /// Writes every key, `null` included, so a script always finds `elevation`.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(index, forKey: .index)
            try c.encode(id, forKey: .id)
            try c.encode(distanceAlong, forKey: .distanceAlong)
            try c.encode(kind, forKey: .kind)
            try c.encode(text, forKey: .text)
            try c.encode(marker, forKey: .marker)
            try c.encode(waypointType, forKey: .waypointType)
            try c.encode(cap, forKey: .cap)
            try c.encode(latitude, forKey: .latitude)
            try c.encode(longitude, forKey: .longitude)
            try c.encode(offsetFromRoute, forKey: .offsetFromRoute)
            try c.encode(onRoute, forKey: .onRoute)
            try c.encode(elevation, forKey: .elevation)
            try c.encode(turnSource, forKey: .turnSource)
        }
    }

    struct BookRecord: Encodable {
        var title: String
        var routeLength: Double
        var climb: Double?
        var descent: Double?
        /// "No terrain for this route" when heights are missing for part of it.
        var terrain: String
        /// Road legs drawn straight ("2 legs straight (no road)"), absent when none.
        var straight: String?
        var notes: [NoteRecord]
    }

    func run(_ console: any Console) async throws {
        let loaded = try BookFile.read(contentsOf: book)
        if explain { return try explainTurns(loaded, console) }
        let length = Polyline(loaded.route.coordinates).length
        let records = loaded.notes.enumerated().map { i, note in
            NoteRecord(index: i + 1, id: note.id, distanceAlong: (note.distanceAlong * 100).rounded() / 100,
                       kind: note.kind.rawValue, text: note.text, marker: note.marker,
                       waypointType: note.waypointType?.rawValue, cap: note.cap.map { ($0 * 10).rounded() / 10 },
                       latitude: note.coordinate.latitude, longitude: note.coordinate.longitude,
                       offsetFromRoute: (note.offsetFromRoute * 100).rounded() / 100,
                       onRoute: note.placement == .onRoute, elevation: note.elevation,
                       turnSource: note.generated?.source)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let terrain = loaded.profile.map { $0.isComplete ? ($0.source ?? "terrain") : "No terrain for this route" } ?? "none"
            let complete = loaded.profile?.isComplete == true
            let data = try encoder.encode(BookRecord(title: loaded.title, routeLength: (length * 100).rounded() / 100,
                                                     climb: complete ? loaded.profile?.climb : nil,
                                                     descent: complete ? loaded.profile?.descent : nil,
                                                     terrain: terrain, straight: loaded.route.straightSummary,
                                                     notes: records))
            console.out(String(decoding: data, as: UTF8.self))
            return
        }
        var heading = String(format: "%@ — %.2f km, %d notes", loaded.title, length / 1000, records.count)
        if let profile = loaded.profile {
            heading += profile.isComplete ? String(format: ", climb %.0f m, descent %.0f m", profile.climb, profile.descent)
                : ", No terrain for this route"
        }
        if let straight = loaded.route.straightSummary { heading += ", " + straight }
        console.out(heading)
        for r in records {
            let cap = r.cap.map { String(format: "C.%03d", Int($0.rounded()) % 360) } ?? "     "
            var flag = r.onRoute ? "" : String(format: "  (off route by %.0f m)", abs(r.offsetFromRoute))
            if r.turnSource == "shape" { flag += "  (from the track's shape)" }
            let height = r.elevation.map { String(format: "%5.0f m  ", $0) } ?? ""
            console.out(String(format: "%3d  %8.2f km  %@%@  %@%@", r.index, r.distanceAlong / 1000, height, cap,
                               [r.marker, r.text].compactMap { $0 }.joined(separator: " — "), flag))
        }
    }

    /// One junction as `inspect --explain --json` prints it.
    struct JunctionRecord: Encodable {
        /// A pass's verdict, and the handler of the pass that gave it (the kind of junction), if any.
        struct Decision: Encodable { var pass: String; var handler: String?; var verdict: String }
        var distanceAlong: Double
        var nodeID: Int64?
        var latitude: Double
        var longitude: Double
        var decisions: [Decision]
        /// The book's row (1-based note index) made from the junction, or nil.
        var row: Int?
    }

    /// Runs the turn detector again over the book's route and says what became of every junction.
    func explainTurns(_ loaded: Book, _ console: any Console) throws {
        let mode = self.mode ?? loaded.travelMode
        // The turns found as `build` finds them: the same stage, with a trace.
        let trace = TurnTrace()
        let found = try TurnReading(osm.map { .map($0) } ?? .shape, mode: mode)
            .find(along: loaded.route.coordinates, drivingSide: loaded.settings.drivingSide, trace: trace)
        // A junction's row: the book's generated note standing on the first junction of the turn
        // made from it (a roundabout's row stands on its entry node).
        func row(of entry: TurnTrace.Entry) -> Int? {
            let same = { (j: Junction) in j.nodeID == entry.nodeID && abs(j.distanceAlong - entry.distanceAlong) < 1 }
            guard let first = found.maneuvers.first(where: { $0.junctions.contains(where: same) })?.junctions.first else { return nil }
            return loaded.notes.firstIndex { note in
                guard let junction = note.generated?.junction else { return false }
                if let id = first.nodeID, junction.nodeID == id { return abs(note.distanceAlong - first.distanceAlong) < 50 }
                return junction.coordinate.distance(to: first.coordinate) < 2
            }.map { $0 + 1 }
        }
        let junctions = trace.byJunction.map { decisions in
            JunctionRecord(distanceAlong: (decisions[0].distanceAlong * 100).rounded() / 100, nodeID: decisions[0].nodeID,
                           latitude: decisions[0].coordinate.latitude, longitude: decisions[0].coordinate.longitude,
                           decisions: decisions.map { .init(pass: $0.pass, handler: $0.handler, verdict: $0.verdict) }, row: row(of: decisions[0]))
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            console.out(String(decoding: try encoder.encode(junctions), as: UTF8.self))
            return
        }
        guard let osm else {
            console.out("No --osm: the turns come from the track's shape, which has no junctions to explain.")
            if let reading = found.reading {
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
            console.out("\(found.maneuvers.count) turns found along the route:")
            for m in found.maneuvers {
                console.out(String(format: "%8.2f km  %@", m.distanceAlong / 1000, Instructions.english.text(for: m)))
            }
            return
        }
        console.out("\(junctions.count) junctions on \(osm.lastPathComponent) along the route (\(mode.rawValue)), "
                    + "\(found.maneuvers.count) turn rows:")
        for j in junctions {
            let node = j.nodeID.map { "node \($0)" } ?? "no node"
            console.out(String(format: "%8.2f km  %@  (%.6f, %.6f)", j.distanceAlong / 1000, node, j.latitude, j.longitude))
            for d in j.decisions { console.out("            \(d.pass)\(d.handler.map { " (\($0))" } ?? ""): \(d.verdict)") }
            if let row = j.row {
                console.out("            → row \(row): \(loaded.notes[row - 1].text)")
            } else if j.decisions.contains(where: { !$0.verdict.hasPrefix("no row") }) {
                console.out("            → no row of the book stands on it (the book was made from another route or map)")
            }
        }
        for range in found.offMap {
            console.out(String(format: "%.2f–%.2f km is not on the map: turns there come from the track's shape",
                               range.lowerBound / 1000, range.upperBound / 1000))
        }
    }
}
