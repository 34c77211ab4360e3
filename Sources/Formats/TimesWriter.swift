import Foundation
import Geo
import Model

/// The time table of a regularity book, for the timekeepers: CSV as RFC 4180 writes it (fields
/// separated by commas, lines ended by CRLF, a field holding a comma, a double quote, CR or LF in
/// double quotes with its quotes doubled), UTF-8 without a byte-order mark.
///
/// A header line, then one line a printed row, in the book's order:
///
/// | column | what |
/// |---|---|
/// | `section` | the section the row stands in, from 1; empty outside every section |
/// | `row` | the printed row number, as the PDF numbers it |
/// | `marker` | the row's marker (`CP1`), as the person wrote it |
/// | `type` | the waypoint type (`DSS`, `CP`), empty for none |
/// | `total_km` (`total_mi`) | the total distance as printed in the row (the odometer: it restarts after a row that resets it), in the book's units, two decimals |
/// | `from_start_km` (`from_start_mi`) | the distance from the section's start, as above; empty outside every section |
/// | `average_kmh` | the average in force at the row, km/h; empty before the section's first |
/// | `ideal_time` | hh:mm:ss from the start of the section's clock, rounded to the nearest second, halves up; empty where no average is in force |
/// | `words` | the row's words, as the person wrote them |
///
/// The times are `RegularitySchedule`'s, the same as the printed column. A navigation book has no
/// times: `refusal(for:)` says so, and `export` writes nothing.
public enum TimesWriter: BookWriter {
    public static let formatName = "times"
    public static let fileExtensions = ["csv"]
    public static let summary = "a regularity book's time table for the timekeepers (CSV): per row its section, distances, average and ideal time"

    public static func refusal(for book: Book) -> String? {
        book.settings.purpose == .regularity ? nil
            : "is a navigation book: only a regularity book has ideal times to write"
    }

    public static func write(_ book: Book, to file: URL) throws -> [String] {
        let out = try TextFileSink(creating: file)
        let unit = book.settings.units.rawValue
        try out.write(["section", "row", "marker", "type", "total_\(unit)", "from_start_\(unit)", "average_kmh", "ideal_time", "words"]
            .joined(separator: ",") + "\r\n")
        let perUnit = book.settings.units.metres
        func distance(_ metres: Metres) -> String { RouteText.fixed(metres / perUnit, digits: 2) }
        // The odometer as the printed row shows it (`RowContent`): from the start, or from the last
        // row that reset it.
        var odometerOrigin: Metres = 0
        for row in RegularitySchedule(book: book).rows {
            let note = book.notes[row.note]
            let section: String = row.section.map { String($0) } ?? ""
            let total: String = distance(max(0, note.distanceAlong - odometerOrigin))
            let fromStart: String = row.fromSectionStart.map(distance) ?? ""
            let speed: String = row.speed.map { String($0) } ?? ""
            let time: String = row.idealTime.map(IdealTime.text) ?? ""
            let fields: [String] = [section, String(row.number), note.marker ?? "", note.waypointType?.rawValue ?? "",
                                    total, fromStart, speed, time, note.text]
            try out.write(fields.map(csvField).joined(separator: ",") + "\r\n")
            if note.resetsOdometer { odometerOrigin = note.distanceAlong }
        }
        try out.finish()
        return RouteRow.warnings(for: book, format: "The times table")
    }

    /// `text` as one CSV field (RFC 4180): in double quotes, its quotes doubled, when it holds a
    /// comma, a double quote, a carriage return or a line feed; as it is otherwise.
    public static func csvField(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }) else { return text }
        var quoted = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" { quoted.unicodeScalars.append(scalar) }
            quoted.unicodeScalars.append(scalar)
        }
        return quoted + "\""
    }
}
