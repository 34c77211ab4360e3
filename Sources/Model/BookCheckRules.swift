import Foundation
import Geo

// The rules of `roadbook check` (`BookCheck.standard`), one type a rule.

/// A section opens at one DSS and closes at one ASS: a DSS no ASS closes, an ASS no DSS opened, and
/// two DSS (or two ASS) in a row are each named.
public struct SectionMarkers: BookCheckRule {
    public let name = "sections"
    public init() {}

    public func problems(in book: Book) -> [BookProblem] {
        var problems: [BookProblem] = []
        var open: Int?         // the DSS of the open section
        var lastFinish: Int?   // the ASS that closed the last section, while no DSS has come since
        for i in book.rowIndices {
            switch book.notes[i].waypointType {
            case .dss?:
                if let o = open {
                    problems.append(BookProblem(rule: name, notes: [o, i],
                        "\(book.rowName(o)) and \(book.rowName(i)) are two starts (DSS) with no finish (ASS) between"))
                }
                open = i
                lastFinish = nil
            case .ass?:
                if open == nil {
                    if let f = lastFinish {
                        problems.append(BookProblem(rule: name, notes: [f, i],
                            "\(book.rowName(f)) and \(book.rowName(i)) are two finishes (ASS) with no start (DSS) between"))
                    } else {
                        problems.append(BookProblem(rule: name, notes: [i], "\(book.rowName(i)) is a finish (ASS) with no start (DSS) before it"))
                    }
                }
                open = nil
                lastFinish = i
            default:
                break
            }
        }
        if let o = open {
            problems.append(BookProblem(rule: name, notes: [o], "\(book.rowName(o)) is a start (DSS) with no finish (ASS) after it"))
        }
        return problems
    }
}

/// The first waypoint a rider's device clears (a WP type) after the start of the route, and after
/// each DSS, stands at least `margin` beyond its clear radius from that start, in a straight line:
/// riders waiting to start must not clear it.
public struct FirstWaypointDistance: BookCheckRule {
    public let name = "first-waypoint"
    /// Metres beyond the waypoint's clear radius: 100 m keeps a start area of riders and vehicles,
    /// and a receiver's error, outside the circle.
    public var margin: Metres = 100
    public init() {}

    public func problems(in book: Book) -> [BookProblem] {
        var problems: [BookProblem] = []
        // The start's name is worded only when a problem names it: `rowName` counts the rows before.
        var waiting: (at: Coordinate, row: Int?)? = book.route.coordinates.first.map { ($0, nil) }
        for i in book.rowIndices {
            let note = book.notes[i]
            guard let type = note.waypointType else { continue }
            if type == .dss {
                waiting = (note.coordinate, i)
                continue
            }
            guard type.isClearedByDevice, let start = waiting else { continue }
            waiting = nil
            let clear = note.clearRadius ?? type.defaultRadii.clear
            let needed = Double(clear) + margin
            let distance = start.at.distance(to: note.coordinate)
            guard distance < needed else { continue }
            let radius = note.clearRadius == nil ? "the \(type.rawValue) default clear radius of \(clear) m" : "its clear radius of \(clear) m"
            problems.append(BookProblem(rule: name, notes: [start.row, i].compactMap { $0 }, String(format:
                "%@, the first waypoint after %@, is %.0f m from it: riders waiting to start would clear it; keep it at least %.0f m away (%.0f m beyond %@)",
                book.rowName(i), start.row.map(book.rowName) ?? "the start of the route", distance, needed, margin, radius)))
        }
        return problems
    }
}

/// Every speed zone is closed: a DZ is followed by its FZ before the next DZ and before the end of
/// the book, and every FZ ends a zone a DZ opened.
public struct SpeedZonesClosed: BookCheckRule {
    public let name = "speed-zones"
    public init() {}

    public func problems(in book: Book) -> [BookProblem] {
        var problems: [BookProblem] = []
        var open: Int?
        for i in book.rowIndices {
            switch book.notes[i].waypointType {
            case .dz?:
                if let o = open {
                    problems.append(BookProblem(rule: name, notes: [o, i],
                        "\(book.rowName(o)) opens a speed zone (DZ) that no FZ closes before \(book.rowName(i)) opens another"))
                }
                open = i
            case .fz?:
                if open == nil {
                    problems.append(BookProblem(rule: name, notes: [i], "\(book.rowName(i)) ends a speed zone (FZ) that no DZ opened"))
                }
                open = nil
            default:
                break
            }
        }
        if let o = open {
            problems.append(BookProblem(rule: name, notes: [o], "\(book.rowName(o)) opens a speed zone (DZ) that no FZ closes"))
        }
        return problems
    }
}

/// A waypoint's radii, its type's defaults where its row sets none (`WaypointType.defaultRadii`):
/// no radius set below `floor`, and the clear radius no larger than the open radius.
public struct WaypointRadii: BookCheckRule {
    public let name = "radii"
    /// Metres: one fix a second at 100 km/h lands every 28 m, so a circle narrower than 40 m
    /// across, less a receiver's few metres of error, may be crossed with no fix inside it.
    public var floor = 20
    public init() {}

    public func problems(in book: Book) -> [BookProblem] {
        var problems: [BookProblem] = []
        for i in book.rowIndices {
            let note = book.notes[i]
            guard let type = note.waypointType else { continue }
            for (what, radius) in [("open", note.openRadius), ("clear", note.clearRadius)] {
                if let radius, radius < floor {
                    problems.append(BookProblem(rule: name, notes: [i],
                        "\(book.rowName(i)) has \(what == "open" ? "an" : "a") \(what) radius of \(radius) m, under \(floor) m: a rider's device may pass it with no fix inside"))
                }
            }
            guard note.openRadius != nil || note.clearRadius != nil else { continue }
            let defaults = type.defaultRadii
            let open = note.openRadius ?? defaults.open, clear = note.clearRadius ?? defaults.clear
            if clear > open {
                func said(_ radius: Int, set: Bool) -> String { set ? "\(radius) m" : "\(radius) m, the \(type.rawValue) default" }
                problems.append(BookProblem(rule: name, notes: [i],
                    "\(book.rowName(i)) has a clear radius (\(said(clear, set: note.clearRadius != nil))) larger than its open radius "
                    + "(\(said(open, set: note.openRadius != nil))): it would count as passed before the device shows it"))
            }
        }
        return problems
    }
}

/// No row keeps a tulip a person drew at a junction a route change has since changed, unchecked:
/// the rows `regenerate` and `apply` named with "check it" (`Note.tulipToCheck`), until a person
/// changes the tulip again.
public struct DrawnTulipsToCheck: BookCheckRule {
    public let name = "drawn-tulips"
    public init() {}

    public func problems(in book: Book) -> [BookProblem] {
        book.rowIndices.filter { book.notes[$0].tulipToCheck == true && book.notes[$0].tulip?.origin == .drawn }.map { i in
            BookProblem(rule: name, notes: [i], "\(book.rowName(i)): \(book.notes[i].drawnTulipCheck)")
        }
    }
}

/// No two rows closer than `distance` along the route say contradictory things: one sends the
/// rider left and the other right, or they carry two different waypoint types at one place.
public struct NearbyContradictions: BookCheckRule {
    public let name = "contradictions"
    /// Metres along the route: closer than 20 m, two rows are one place to a rider reading them.
    public var distance: Metres = 20
    /// Degrees: a tulip's exit within this of straight on reads as straight on, neither left nor right.
    public var straightOn: Degrees = 20
    public init() {}

    public func problems(in book: Book) -> [BookProblem] {
        var problems: [BookProblem] = []
        // Each row against the nearest row before it, within `distance`, of every other waypoint
        // type and of the other side: at most two problems a row, and linear however many rows
        // stand on one spot (a row of each type and side remembered, not every pair compared).
        var lastOfType: [WaypointType: Int] = [:]
        var lastOfSide: [Int: Int] = [:]
        func within(_ a: Int, _ b: Int) -> Bool { book.notes[b].distanceAlong - book.notes[a].distanceAlong < distance }
        func apart(_ a: Int, _ b: Int) -> String {
            String(format: "%.0f m apart", max(0, book.notes[b].distanceAlong - book.notes[a].distanceAlong))
        }
        for b in book.rowIndices {
            let note = book.notes[b]
            if let type = note.waypointType {
                let other = lastOfType.filter { $0.key != type && within($0.value, b) }.max { $0.value < $1.value }
                if let (t, a) = other {
                    problems.append(BookProblem(rule: name, notes: [a, b],
                        "\(book.rowName(a)) is a \(t.rawValue) and \(book.rowName(b)) a \(type.rawValue), \(apart(a, b)): one place has one waypoint type"))
                }
                lastOfType[type] = b
            }
            let s = side(of: note)
            if s != 0 {
                if let a = lastOfSide[-s], within(a, b) {
                    func word(_ s: Int) -> String { s < 0 ? "left" : "right" }
                    problems.append(BookProblem(rule: name, notes: [a, b],
                        "\(book.rowName(a)) says \(word(-s)) and \(book.rowName(b)) says \(word(s)), \(apart(a, b))"))
                }
                lastOfSide[s] = b
            }
        }
        return problems
    }

    /// Where a row sends the rider: −1 left, +1 right, 0 straight on or not said. Its tulip's exit
    /// when it has one (not a roundabout, whose exits are counted), else its generated turn, else
    /// its words ("left" or "right" as a word, not both).
    public func side(of note: Note) -> Int {
        if let tulip = note.tulip, let exit = tulip.exit {
            guard tulip.roundabout == nil, abs(exit.angle) > straightOn, abs(exit.angle) < 180 else { return 0 }
            return exit.angle < 0 ? -1 : 1
        }
        if let generated = note.generated {
            let words = generated.modifier.split(separator: " ")
            return words.contains("left") ? -1 : words.contains("right") ? 1 : 0
        }
        let tokens = note.text.lowercased().split { !$0.isLetter }
        let left = tokens.contains("left"), right = tokens.contains("right")
        return left == right ? 0 : left ? -1 : 1
    }
}

/// In a regularity book, every row of a section has its ideal time (`RegularitySchedule`): a
/// section's rows before its first average, or all its rows when it sets none, are named, as is
/// an average set outside every section. In a navigation book, averages set on rows are named:
/// they are neither printed nor timed.
public struct RegularityTimes: BookCheckRule {
    public let name = "regularity"
    public init() {}

    public func problems(in book: Book) -> [BookProblem] {
        guard book.settings.purpose == .regularity else {
            let speeds = book.rowIndices.filter { book.notes[$0].targetSpeed != nil }
            guard let first = speeds.first else { return [] }
            let more = speeds.count > 1 ? " and \(speeds.count - 1) more row\(speeds.count == 2 ? "" : "s")" : ""
            return [BookProblem(rule: name, notes: speeds,
                "the book is for navigation: the average set at \(book.rowName(first))\(more) is neither printed nor timed (only a regularity book prints and times averages)")]
        }
        let schedule = RegularitySchedule(book: book)
        var problems: [BookProblem] = []
        for section in schedule.sections where !section.untimed.isEmpty {
            let untimed = section.untimed.map { schedule.rows[$0].note }
            let one = untimed.count == 1
            let span = one ? book.rowName(untimed[0])
                : "\(untimed.count) rows, \(book.rowName(untimed[0])) to \(book.rowName(untimed[untimed.count - 1]))"
            let none = one ? "has no ideal time" : "have no ideal time"
            if let clock = section.clockRow {
                let at = book.rowName(schedule.rows[clock].note)
                problems.append(BookProblem(rule: name, notes: untimed,
                    "section \(section.number): \(span) \(one ? "comes" : "come") before its first average, set at \(at), and "
                    + "\(none); the section's clock starts at that row: set the average on the section's first row"))
            } else {
                problems.append(BookProblem(rule: name, notes: untimed,
                    "section \(section.number) sets no average: \(span) \(none); set one on its first row"))
            }
        }
        for k in schedule.unusedSpeeds {
            let i = schedule.rows[k].note
            problems.append(BookProblem(rule: name, notes: [i],
                "\(book.rowName(i)) sets an average of \(book.notes[i].targetSpeed ?? 0) km/h outside every section (after an ASS, before the next DSS): it times nothing"))
        }
        return problems
    }
}
