import Foundation
import Formats
import Geo
import Model

/// `roadbook inspect`: the notes of a book, for people or for scripts.
struct InspectCommand: Command {
    static let declaration = CommandDeclaration(
        name: "inspect",
        abstract: "List a book's notes, as a table or as JSON.",
        positionals: "BOOK.json", positionalCount: 1...1,
        forms: [UsageForm(optional: ["json"])],
        options: [
            Option("json", .flag, help: """
                print JSON: the book's title and route length, and per note its index,
                distanceAlong (metres), kind, text, marker, waypointType, cap (degrees),
                latitude, longitude, offsetFromRoute (metres, + right of travel), onRoute,
                elevation (metres, or null without terrain), turnSource (for a generated
                turn: map or shape, else null); and the climb and descent
                """),
        ])

    var book: URL
    var json: Bool

    init(_ options: ParsedOptions) throws {
        json = options.flag("json")
        book = URL(fileURLWithPath: options.positionals[0])
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
        var notes: [NoteRecord]
    }

    func run(_ console: any Console) async throws {
        let loaded = try BookFile.read(contentsOf: book)
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
                                                     terrain: terrain, notes: records))
            console.out(String(decoding: data, as: UTF8.self))
            return
        }
        var heading = String(format: "%@ — %.2f km, %d notes", loaded.title, length / 1000, records.count)
        if let profile = loaded.profile {
            heading += profile.isComplete ? String(format: ", climb %.0f m, descent %.0f m", profile.climb, profile.descent)
                : ", No terrain for this route"
        }
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
}
