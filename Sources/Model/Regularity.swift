import Foundation
import Geo

/// The ideal times of a regularity book: where each timed section runs, and for every printed row
/// the time a crew holding the set averages reaches it.
///
/// - A **section** opens at a DSS row and closes at the next ASS row. When the first of the book's
///   DSS and ASS rows is an ASS, or it has none, the first section opens at the start of the book
///   (0 m). A DSS that comes while a section is open opens a new one; a section no ASS closes runs
///   to the end of the book. Rows after an ASS and before the next DSS (a liaison) belong to no
///   section and have no ideal time.
/// - An **average** (`Note.targetSpeed`, km/h) holds from the row that sets it to the next row of
///   its section that sets one. Averages do not carry from one section into the next.
/// - The **ideal time** at a row is the time from the start of its section's clock, the stretches
///   between changes of average each driven at its average: `Σ length × 3.6 / km/h` seconds,
///   rounded to the nearest second, halves up (`roundedSeconds`). The clock starts where the
///   section's first average is set: at its first row when that row sets one (the rule), else at
///   the first row that does; the rows before it have no ideal time (`untimed`), and
///   `RegularityTimes` (a `roadbook check` rule) says so.
///
/// Distances are along the route (`Note.distanceAlong`): an odometer reset changes what is printed,
/// not where a row is. Pure and O(notes).
public struct RegularitySchedule: Sendable, Equatable {
    /// How a row stands in its section.
    public enum Mark: String, Sendable, Equatable {
        /// The section's first row: its DSS, or for a section opened by the start of the book, the
        /// book's first row.
        case start
        /// The ASS row that closes the section.
        case finish
    }

    /// One printed row, timed.
    public struct Row: Sendable, Equatable {
        /// The note's index in `Book.notes`.
        public var note: Int
        /// The printed row number, from 1 (the notes on the route in order, as the PDF numbers them).
        public var number: Int
        /// The section the row stands in, from 1; nil outside every section.
        public var section: Int?
        /// Metres from the start of the row's section (its DSS, or 0 for a section opened by the
        /// start of the book); nil outside every section.
        public var fromSectionStart: Metres?
        /// The average in force at the row (km/h): the one it sets, else the last one its section set
        /// before it; nil before the section's first.
        public var speed: Int?
        /// The average the row sets (km/h), when it stands in a section.
        public var setsSpeed: Int?
        /// Seconds from the start of the section's clock, rounded to the nearest second, halves up;
        /// nil where no average is in force.
        public var idealTime: Int?
        /// Whether the row opens or closes its section.
        public var mark: Mark?
    }

    /// One section.
    public struct Section: Sendable, Equatable {
        /// From 1, in the order of the book.
        public var number: Int
        /// Metres along the route where the section starts: its DSS, or 0.
        public var start: Metres
        /// The index in `rows` of its first row, nil for a section with none (a book without rows).
        public var firstRow: Int?
        /// The index in `rows` of the row that sets its first average, nil when none does.
        public var clockRow: Int?
        /// The indices in `rows` of its rows before its first average (all its rows when it has none).
        public var untimed: [Int]
    }

    /// Every printed row, in order.
    public private(set) var rows: [Row] = []
    public private(set) var sections: [Section] = []
    /// The indices in `rows` of rows that set an average outside every section: it times nothing.
    public private(set) var unusedSpeeds: [Int] = []

    /// Seconds at `speed` km/h over `metres`: metres × 3.6 / km/h.
    public static func seconds(_ metres: Metres, at speed: Int) -> Double { metres * 3.6 / Double(speed) }

    /// Seconds rounded to the nearest second, halves up (00:08:19.5 is 00:08:20). A billionth of a
    /// second is added first, so a half that floating point holds as 0.4999999… still goes up.
    public static func roundedSeconds(_ seconds: Double) -> Int { Int((seconds + 0.5 + 1e-9).rounded(.down)) }

    /// The schedule of `book`, whatever its purpose (`BookSettings.purpose` decides whether it is printed).
    public init(book: Book) {
        let printed = book.notes.indices.filter { book.notes[$0].placement == .onRoute }
        let firstMarker = printed.first { [.dss, .ass].contains(book.notes[$0].waypointType) }
        // The clock of the open section: its average, where that average began, and the unrounded
        // seconds at that place.
        struct Clock { var speed: Int; var from: Metres; var elapsed: Double }
        var open: (index: Int, clock: Clock?)?
        func openSection(at start: Metres) {
            sections.append(Section(number: sections.count + 1, start: start, untimed: []))
            open = (sections.count - 1, nil)
        }
        if firstMarker.map({ book.notes[$0].waypointType != .dss }) ?? true { openSection(at: 0) }
        for (k, i) in printed.enumerated() {
            let note = book.notes[i]
            var row = Row(note: i, number: k + 1)
            if note.waypointType == .dss { openSection(at: note.distanceAlong) }
            if let (s, clock) = open {
                let distance = note.distanceAlong
                row.section = sections[s].number
                row.fromSectionStart = max(0, distance - sections[s].start)
                if sections[s].firstRow == nil {
                    sections[s].firstRow = rows.count
                    row.mark = .start
                }
                var elapsed: Double? = clock.map { $0.elapsed + Self.seconds(max(0, distance - $0.from), at: $0.speed) }
                if let speed = note.targetSpeed {
                    row.setsSpeed = speed
                    if clock == nil {
                        sections[s].clockRow = rows.count
                        elapsed = 0
                    }
                    open?.clock = Clock(speed: speed, from: distance, elapsed: elapsed ?? 0)
                }
                row.speed = open?.clock?.speed
                row.idealTime = elapsed.map(Self.roundedSeconds)
                if row.idealTime == nil { sections[s].untimed.append(rows.count) }
                if note.waypointType == .ass {
                    row.mark = .finish
                    open = nil
                }
            } else if note.targetSpeed != nil {
                unusedSpeeds.append(rows.count)
            }
            rows.append(row)
        }
    }
}

/// Ideal times as printed and written: `hh:mm:ss`.
public enum IdealTime {
    /// `seconds` as "00:08:20"; hours take more digits past 99.
    public static func text(_ seconds: Int) -> String {
        let s = max(0, seconds)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        return "\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60))"
    }
}
