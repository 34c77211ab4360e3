import Foundation
import Formats
import Geo
import Model

/// `roadbook inspect`: the notes of a book, for people or for scripts.
struct InspectCommand: Command {
    static let name = "inspect"
    static let abstract = "List a book's notes, as a table or as JSON."
    static let help = """
    Usage: roadbook inspect BOOK.json [--json]

    Options:
      --json       print JSON: the book's title and route length, and per note its index,
                   distanceAlong (metres), kind, text, marker, waypointType, cap (degrees),
                   latitude, longitude, offsetFromRoute (metres, + right of travel), onRoute
      -h, --help   show this help
    """

    var book: URL
    var json: Bool

    init(_ arguments: inout Arguments) throws {
        json = arguments.flag("json")
        book = URL(fileURLWithPath: try arguments.finish(positionals: 1...1, names: "BOOK.json")[0])
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
    }

    struct BookRecord: Encodable {
        var title: String
        var routeLength: Double
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
                       onRoute: note.placement == .onRoute)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(BookRecord(title: loaded.title, routeLength: (length * 100).rounded() / 100,
                                                     notes: records))
            console.out(String(decoding: data, as: UTF8.self))
            return
        }
        console.out(String(format: "%@ — %.2f km, %d notes", loaded.title, length / 1000, records.count))
        for r in records {
            let cap = r.cap.map { String(format: "C.%03d", Int($0.rounded()) % 360) } ?? "     "
            let flag = r.onRoute ? "" : String(format: "  (off route by %.0f m)", abs(r.offsetFromRoute))
            console.out(String(format: "%3d  %8.2f km  %@  %@%@", r.index, r.distanceAlong / 1000, cap,
                               [r.marker, r.text].compactMap { $0 }.joined(separator: " — "), flag))
        }
    }
}
