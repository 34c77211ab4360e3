import Foundation
import Geo
import Model

/// What one road-book row shows, computed from the book: numbers already formatted in the
/// book's units, so layout and drawing only place text.
public struct RowContent: Sendable, Equatable {
    /// 1-based position in the book.
    public var number: Int
    /// Odometer reading at the note, in metres: distance from the start of the route, or from
    /// the last note that reset the odometer.
    public var totalDistance: Metres
    /// Distance since the previous row (from the start of the route for the first row), in metres.
    public var partialDistance: Metres
    /// `totalDistance` formatted in the book's units, for example "12.34".
    public var totalText: String
    /// `partialDistance` formatted in the book's units.
    public var partialText: String
    /// The instruction.
    public var text: String
    /// The note's marker ("CP1", "R3"), nil when it has none or it only repeats the waypoint type:
    /// a start waypoint named "DSS" of type DSS prints "DSS" once, in the type's tag.
    public var marker: String?
    /// The waypoint type as printed, for example "WPM".
    public var waypointType: String?
    /// The CAP heading as printed, for example "C.090".
    public var capText: String?
    /// Danger as printed: "!", "!!" or "!!!"; nil when the note carries no danger.
    public var dangerText: String?
    /// The odometer restarts at 0 after this row.
    public var resetsOdometer: Bool
    /// The next row is closer than the template's `highlightNextWithin`: the distance cell is
    /// highlighted.
    public var nextIsNear: Bool = false
    /// Height at the row as printed ("1 234 m"), when the book has terrain.
    public var elevationText: String? = nil
    /// Speed limit of a DZ/FZ row, km/h.
    public var speedLimit: Int? = nil
    /// Symbols printed in the notes cell: the note's own, each once, leaving out those its fields
    /// already print (`fieldSymbols`).
    public var symbols: [NoteSymbol] = []
    /// The symbols the note's fields print as (`Note.fieldSymbols`): its waypoint type, a DZ's
    /// speed limit, the reset, the CAP and the danger, drawn as pictograms where the library has them.
    public var fieldSymbols: [NoteSymbol] = []
    /// The junction drawing the note carries.
    public var tulip: Tulip? = nil
    /// In a regularity book, the ideal time at the row as printed ("00:08:20"); nil where it has
    /// none (before its section's first average, outside every section) and in a navigation book.
    public var idealTimeText: String? = nil
    /// In a regularity book, the average the row sets, km/h (printed "→ 42 km/h").
    public var speedChange: Int? = nil
    /// In a regularity book, whether the row opens or closes its section.
    public var sectionMark: RegularitySchedule.Mark? = nil

    public init(number: Int, totalDistance: Metres, partialDistance: Metres, totalText: String, partialText: String,
                text: String, marker: String?, waypointType: String?, capText: String?, dangerText: String?,
                resetsOdometer: Bool) {
        self.number = number
        self.totalDistance = totalDistance
        self.partialDistance = partialDistance
        self.totalText = totalText
        self.partialText = partialText
        self.text = text
        self.marker = marker
        self.waypointType = waypointType
        self.capText = capText
        self.dangerText = dangerText
        self.resetsOdometer = resetsOdometer
    }

    /// Number of rows `book` prints: its notes on the route. O(notes), nothing copied.
    public static func count(of book: Book) -> Int {
        book.notes.reduce(0) { $0 + ($1.placement == .onRoute ? 1 : 0) }
    }

    /// Whether a row after the first is closer than `distance` to the row before it (its partial
    /// distance is shorter). O(notes), nothing copied.
    public static func hasRowCloser(than distance: Metres, in book: Book) -> Bool {
        var previous: Metres?
        for note in book.notes where note.placement == .onRoute {
            if let previous, max(0, note.distanceAlong - previous) < distance { return true }
            previous = note.distanceAlong
        }
        return false
    }

    /// The rows of `book`, one per note on the route in the book's order. O(notes).
    ///
    /// A note that resets the odometer shows the reading on arrival; the rows after it count
    /// from its position. The partial distance is always the distance from the previous row.
    /// - Parameter nearNextWithin: metres; a row whose next row is closer is marked `nextIsNear`.
    public static func rows(of book: Book, nearNextWithin: Metres = 300) -> [RowContent] {
        let units = book.settings.units
        // Heights are printed only when the whole route has terrain ("No terrain for this route"
        // otherwise): a book never mixes rows with and without elevation.
        let hasTerrain = book.profile?.isComplete ?? false
        var rows: [RowContent] = []
        rows.reserveCapacity(book.notes.count)
        var odometerOrigin: Metres = 0
        var previous: Metres = 0
        // A note off the route has no place in the rows: it is listed by `roadbook build` and kept
        // in the book file until someone moves it onto the route or removes it.
        // Positions, not a filtered copy: a note is about a kilobyte, a book's notes many megabytes.
        let notes = book.notes.indices.filter { book.notes[$0].placement == .onRoute }
        // A regularity book's times, one a printed row in the same order.
        let timed = book.settings.purpose == .regularity ? RegularitySchedule(book: book).rows : nil
        for (index, position) in notes.enumerated() {
            let note = book.notes[position]
            let total = max(0, note.distanceAlong - odometerOrigin)
            let partial = max(0, note.distanceAlong - previous)
            var row = RowContent(
                number: index + 1,
                totalDistance: total,
                partialDistance: partial,
                totalText: DistanceFormat.text(total, units: units),
                partialText: DistanceFormat.text(partial, units: units),
                text: note.text,
                marker: printedMarker(note),
                waypointType: note.waypointType?.rawValue,
                capText: note.cap.map(CapFormat.text),
                dangerText: DangerFormat.text(note.danger),
                resetsOdometer: note.resetsOdometer)
            if index + 1 < notes.count {
                row.nextIsNear = book.notes[notes[index + 1]].distanceAlong - note.distanceAlong < nearNextWithin
            }
            if hasTerrain, let height = note.elevation { row.elevationText = ElevationFormat.text(height) }
            if note.waypointType == .dz || note.waypointType == .fz { row.speedLimit = note.speedLimit }
            row.fieldSymbols = note.fieldSymbols
            var seen = Set(row.fieldSymbols)
            row.symbols = note.symbols.filter { seen.insert($0).inserted }
            row.tulip = note.tulip
            if let time = timed?[index] {
                row.idealTimeText = time.idealTime.map(IdealTime.text)
                row.speedChange = time.setsSpeed
                row.sectionMark = time.mark
            }
            rows.append(row)
            previous = note.distanceAlong
            if note.resetsOdometer { odometerOrigin = note.distanceAlong }
        }
        return rows
    }
}

/// The marker a note's row prints: none for an empty one, nor for one that says only the waypoint
/// type the row's tag already shows (letter case and spaces aside).
func printedMarker(_ note: Note) -> String? {
    guard let marker = note.marker, !marker.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
    if let type = note.waypointType,
       marker.trimmingCharacters(in: .whitespaces).caseInsensitiveCompare(type.rawValue) == .orderedSame { return nil }
    return marker
}

/// Printed heights.
public enum ElevationFormat {
    /// Whole metres, thousands set apart by a thin space: "1 234 m".
    public static func text(_ metres: Metres) -> String {
        let whole = Int(metres.rounded())
        let digits = String(abs(whole))
        var grouped = ""
        for (i, ch) in digits.reversed().enumerated() {
            if i > 0 && i % 3 == 0 { grouped.append("\u{2009}") }
            grouped.append(ch)
        }
        return (whole < 0 ? "−" : "") + String(grouped.reversed()) + " m"
    }
}

/// Printed distances.
public enum DistanceFormat {
    /// Metres in one statute mile.
    public static let metresPerMile: Metres = 1609.344

    /// `metres` in `units` with two decimals ("12.34"); the hundredths are the last two digits.
    public static func text(_ metres: Metres, units: BookSettings.Units) -> String {
        let value: Double
        switch units {
        case .kilometres: value = metres / 1000
        case .miles: value = metres / metresPerMile
        }
        // Whole hundredths (rounded first, so -0.001 does not print as "-0.00"), written with
        // integer arithmetic: a book formats thousands of these, and Foundation's printf-style
        // formatting costs ten times as much.
        let hundredths = Int((value * 100).rounded())
        let whole = abs(hundredths) / 100, fraction = abs(hundredths) % 100
        return (hundredths < 0 ? "-" : "") + String(whole) + (fraction < 10 ? ".0" : ".") + String(fraction)
    }

    /// The unit label printed in the header.
    public static func label(_ units: BookSettings.Units) -> String {
        switch units {
        case .kilometres: "km"
        case .miles: "mi"
        }
    }
}

/// The words of a regularity book's time column, in the book's language (its times are `IdealTime.text`'s).
public enum IdealTimeFormat {
    /// The column's header, in the page header over the column.
    public static func header(in words: Phrasebook = .english) -> String { words[.timeHeader] }

    /// The tag on a section's first row and on the ASS that closes it.
    public static func label(_ mark: RegularitySchedule.Mark, in words: Phrasebook = .english) -> String {
        switch mark {
        case .start: words[.sectionStart]
        case .finish: words[.sectionFinish]
        }
    }

    /// A new average from this row on: "→ 42 km/h".
    public static func speedChange(_ kmh: Int, in words: Phrasebook = .english) -> String {
        words.text(.speedChange, ["speed": String(kmh)])
    }
}

/// Printed CAP headings.
public enum CapFormat {
    /// A heading as "C.090": whole degrees, three digits, 360 written as 000.
    public static func text(_ heading: Degrees) -> String {
        var whole = Int(normalizedBearing(heading).rounded())
        if whole == 360 { whole = 0 }
        return "C." + (whole < 10 ? "00" : whole < 100 ? "0" : "") + String(whole)
    }
}

/// Printed danger levels.
public enum DangerFormat {
    /// "!", "!!" or "!!!" for levels 1 to 3; nil for 0. Levels outside 0...3 are clamped.
    public static func text(_ level: Int) -> String? {
        let n = min(3, max(0, level))
        return n == 0 ? nil : String(repeating: "!", count: n)
    }
}
