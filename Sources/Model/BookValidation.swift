import Foundation
import Geo

/// The ranges a book's values must lie in, each with its reason. A book read from a file is checked
/// against them (`Book.validate()`) before any stage uses it, so no number from a file reaches an
/// `Int` conversion, an allocation or a drawing out of range, and a book that passed renders.
public enum BookLimits {
    /// Heights (profile samples, route points, notes): the lowest dry land is the Dead Sea shore
    /// (−430 m), the highest summit 8,849 m; DEM "no data" values (−32768, −9999, ±3.4e38) fall outside.
    public static let heights: ClosedRange<Metres> = -1_000...10_000
    /// Climb and descent: a thousand times Everest, far above any rally's total.
    public static let climb: ClosedRange<Metres> = 0...10_000_000
    /// Profile spacing: below 1 m a DEM has no more detail; above 100 km a profile shows nothing.
    public static let profileSpacing: ClosedRange<Metres> = 1...100_000
    /// A route this long goes two and a half times round the Earth: longer than any rally.
    public static let maximumRouteLength: Metres = 100_000_000
    /// Half the Earth's circumference: no point is farther than this from a route.
    public static let maximumOffset: Metres = 20_040_000
    /// A waypoint 10 km from the route is not near it at all.
    public static let offRouteDistance: ClosedRange<Metres> = 0...10_000
    /// A roundabout with more than 50 exits does not exist; the drawing spaces the exits evenly.
    public static let exitNumber: ClosedRange<Int> = 1...50
    /// More roads than this at one junction cannot be drawn apart in a tulip.
    public static let maximumRoads = 32
    /// A row holds a few lines; a longer text is a file pasted by mistake and costs layout time.
    public static let maximumNoteLength = 4_000
    /// Symbols of one row: more than a notes cell can show side by side, twice over.
    public static let maximumSymbols = 32
    /// Titles, markers, names and other one-line texts.
    public static let maximumLineLength = 500
    /// Leg durations: a year of travel is more than any leg takes.
    public static let maximumDuration: TimeInterval = 31_536_000
    /// The most notes (rows) a book holds: twice a whole rally's road book (a dozen stages of a few
    /// hundred rows), some 1,700 pages. Each row costs layout and drawing time and memory, so a file
    /// of hundreds of thousands of rows is refused before it is laid out, not printed for minutes.
    public static let maximumNotes = 10_000
    /// The most handles a route may have: every edit and every leg costs per handle, and a route
    /// of rally stages is built from tens of them, not thousands.
    public static let maximumHandles = 1_000
    /// A note may sit this far past the route's computed end: stored coordinates are rounded to
    /// about 1 cm each, which moves the end by centimetres; 10 m is far above that and below a row.
    public static let endTolerance: Metres = 10
}

/// A value of a book out of its range: the JSON path of the field and what is wrong with it.
public struct BookValidationError: Error, Sendable, Equatable, CustomStringConvertible, RemedyCarrying {
    /// The field, as a path into the book file: `notes[3].tulip.roundabout.exitNumber`.
    public var field: String
    /// What is wrong and what would be right, starting with the field.
    public var message: String
    /// What the caller can give to mend it, when the book alone cannot (a template file).
    public var remedy: Remedy?
    public var description: String { message }

    public init(field: String, _ problem: String, remedy: Remedy? = nil) {
        self.field = field
        self.message = "\(field) \(problem)"
        self.remedy = remedy
    }
}

extension Book {
    /// Checks every value a stage relies on: a route of two distinct points or more, notes within
    /// the route, heights, angles, counts and texts in range, identities unique, one leg between
    /// each two handles. A book that passes renders and regenerates without trapping.
    /// - Throws: `BookValidationError` for the first value out of range.
    public func validate() throws(BookValidationError) {
        func fail(_ field: String, _ problem: String) -> BookValidationError { BookValidationError(field: field, problem) }
        if let id, UUID(uuidString: id) == nil {
            throw fail("id", "'\(short(id))' is not a UUID (such as 5C0B7E0A-9A4B-4B8E-8D4C-2F1A3E6B7C9D)")
        }
        try checkLine(title, "title")
        for (value, key) in [(rally, "rally"), (stage, "stage"), (date, "date"), (description, "description"),
                             (route.source, "route.source")] {
            if let value { try checkLine(value, key) }
        }
        guard BookLimits.offRouteDistance.contains(settings.offRouteDistance) else {
            throw fail("settings.offRouteDistance", "\(number(settings.offRouteDistance)) m must be from 0 to \(number(BookLimits.offRouteDistance.upperBound)) m")
        }
        guard BookSettings.builtInTemplates.contains(settings.template) else {
            // The caller says how to give a template file instead (`Remedy.templateFile`).
            throw BookValidationError(field: "settings.template", "'\(short(settings.template))' is not a built-in template: use one of \(BookSettings.builtInTemplates.joined(separator: ", "))",
                                      remedy: .templateFile)
        }

        // The route.
        guard route.points.count >= 2 else {
            throw fail("route.points", "has \(route.points.count) point\(route.points.count == 1 ? "" : "s"): a route needs two distinct points or more")
        }
        for (i, point) in route.points.enumerated() {
            if let e = point.elevation, !BookLimits.heights.contains(e) {
                throw fail("route.points[\(i)]", "elevation \(number(e)) m is outside \(range(BookLimits.heights)) m")
            }
        }
        let line = Polyline(route.coordinates)
        let length = line.length
        guard length.isFinite, length > 0 else {
            throw fail("route.points", "are all the same place: a route needs two distinct points or more")
        }
        guard length <= BookLimits.maximumRouteLength else {
            throw fail("route.points", "make a route \(number((length / 1000).rounded())) km long, more than \(number(BookLimits.maximumRouteLength / 1000)) km")
        }

        // The profile.
        if let profile {
            guard BookLimits.profileSpacing.contains(profile.spacing) else {
                throw fail("profile.spacing", "\(number(profile.spacing)) m must be from \(range(BookLimits.profileSpacing)) m")
            }
            for (i, height) in profile.heights.enumerated() {
                if let height, !BookLimits.heights.contains(height) {
                    throw fail("profile.heights[\(i)]", "\(number(height)) m is outside \(range(BookLimits.heights)) m")
                }
            }
            for (value, key) in [(profile.climb, "profile.climb"), (profile.descent, "profile.descent")]
            where !BookLimits.climb.contains(value) {
                throw fail(key, "\(number(value)) m must be from \(range(BookLimits.climb)) m")
            }
            if let source = profile.source { try checkLine(source, "profile.source") }
        }

        // The notes.
        guard notes.count <= BookLimits.maximumNotes else {
            throw fail("notes", "are \(number(Double(notes.count))), more than the \(number(Double(BookLimits.maximumNotes))) a book holds; split it into several books (one per stage)")
        }
        var ids: [Int: Int] = [:]
        for (i, note) in notes.enumerated() {
            let at = "notes[\(i)]"
            if let first = ids[note.id] {
                throw fail("\(at).id", "\(note.id) is also the id of notes[\(first)]: every note needs its own id")
            }
            ids[note.id] = i
            guard note.distanceAlong <= length + BookLimits.endTolerance else {
                throw fail("\(at).distanceAlong", "\(number(note.distanceAlong)) is beyond the route's end (\(number(length.rounded())) m)")
            }
            guard note.offsetFromRoute.isFinite, abs(note.offsetFromRoute) <= BookLimits.maximumOffset else {
                throw fail("\(at).offsetFromRoute", "\(number(note.offsetFromRoute)) m is farther than any place is from the route")
            }
            if let cap = note.cap, !(cap >= 0 && cap < 360) {
                throw fail("\(at).cap", "\(number(cap)) must be a heading in degrees from 0 up to (not including) 360")
            }
            if let e = note.elevation, !BookLimits.heights.contains(e) {
                throw fail("\(at).elevation", "\(number(e)) m is outside \(range(BookLimits.heights)) m")
            }
            guard note.text.count <= BookLimits.maximumNoteLength else {
                throw fail("\(at).text", "has \(note.text.count) characters; a note holds at most \(BookLimits.maximumNoteLength)")
            }
            if let marker = note.marker { try checkLine(marker, "\(at).marker") }
            guard note.symbols.count <= BookLimits.maximumSymbols else {
                throw fail("\(at).symbols", "has \(note.symbols.count) symbols; a row prints at most \(BookLimits.maximumSymbols)")
            }
            for (k, symbol) in note.symbols.enumerated() where !NoteSymbol.isWellFormed(symbol.name) {
                throw fail("\(at).symbols[\(k)]", "'\(symbol.name.prefix(40))' is not a symbol's name: 1 to \(NoteSymbol.maximumNameLength) letters, digits, - and _")
            }
            if let tulip = note.tulip { try check(tulip, "\(at).tulip") }
            if let generated = note.generated {
                if let exit = generated.exitNumber, !BookLimits.exitNumber.contains(exit) {
                    throw fail("\(at).generated.exitNumber", "\(exit) must be from \(BookLimits.exitNumber.lowerBound) to \(BookLimits.exitNumber.upperBound)")
                }
                try check(generated.junction, "\(at).generated.junction")
                try checkLine(generated.maneuver, "\(at).generated.maneuver")
                try checkLine(generated.modifier, "\(at).generated.modifier")
                guard generated.text.count <= BookLimits.maximumNoteLength else {
                    throw fail("\(at).generated.text", "has \(generated.text.count) characters; a note holds at most \(BookLimits.maximumNoteLength)")
                }
            }
        }

        // The plan.
        if let plan { try check(plan) }

        // What Apply keeps beside the notes.
        for (i, note) in notes.enumerated() {
            if let edited = note.wordsEdited { try checkTimestamp(edited, "notes[\(i)].wordsEdited") }
        }
        for (i, deleted) in (deletedNotes ?? []).enumerated() {
            try checkCoordinate(deleted.coordinate, "deletedNotes[\(i)].coordinate")
            if let text = deleted.text, text.count > BookLimits.maximumNoteLength {
                throw fail("deletedNotes[\(i)].text", "has \(text.count) characters; a note holds at most \(BookLimits.maximumNoteLength)")
            }
        }
        for (i, stretch) in (route.straightStretches ?? []).enumerated() {
            guard stretch.start.isFinite, stretch.end.isFinite, stretch.start >= 0, stretch.start <= stretch.end,
                  stretch.end <= length + BookLimits.endTolerance else {
                throw fail("route.straightStretches[\(i)]", "must run from 0 m up to the route's end (\(number(length.rounded())) m), start before end")
            }
        }
    }

    /// An ISO 8601 time in UTC, such as `2026-03-14T10:00:00Z`.
    private func checkTimestamp(_ text: String, _ at: String) throws(BookValidationError) {
        guard text.count <= 64, ISO8601DateFormatter().date(from: text) != nil else {
            throw BookValidationError(field: at, "'\(short(text))' must be a time written like 2026-03-14T10:00:00Z")
        }
    }

    fileprivate func check(_ plan: RoutePlan) throws(BookValidationError) {
        func fail(_ field: String, _ problem: String) -> BookValidationError { BookValidationError(field: field, problem) }
        guard plan.handles.count <= BookLimits.maximumHandles else {
            throw fail("plan.handles", "has \(plan.handles.count) handles; a route has at most \(BookLimits.maximumHandles)")
        }
        guard plan.legs.isEmpty || plan.legs.count == plan.handles.count - 1 else {
            throw fail("plan.legs", "has \(plan.legs.count) legs for \(plan.handles.count) handles: there is one leg between each two handles")
        }
        var ids: [Int: Int] = [:]
        for (i, handle) in plan.handles.enumerated() {
            let at = "plan.handles[\(i)]"
            if let first = ids[handle.id] {
                throw fail("\(at).id", "\(handle.id) is also the id of plan.handles[\(first)]: every handle needs its own id")
            }
            ids[handle.id] = i
            try checkCoordinate(handle.coordinate, "\(at).coordinate")
            try checkCoordinate(handle.placed, "\(at).placed")
            if let name = handle.name { try checkLine(name, "\(at).name") }
            if let note = handle.note {
                guard note.text.count <= BookLimits.maximumNoteLength else {
                    throw fail("\(at).note.text", "has \(note.text.count) characters; a note holds at most \(BookLimits.maximumNoteLength)")
                }
                if let marker = note.marker { try checkLine(marker, "\(at).note.marker") }
                if let edited = note.wordsEdited { try checkTimestamp(edited, "\(at).note.wordsEdited") }
            }
        }
        for (i, leg) in plan.legs.enumerated() {
            let at = "plan.legs[\(i)]"
            for (j, c) in (leg.stroke ?? []).enumerated() { try checkCoordinate(c, "\(at).stroke[\(j)]") }
            if case .serverError(let detail)? = leg.state { try checkLine(detail, "\(at).detail") }
            if case .unreachable(let detail)? = leg.state { try checkLine(detail, "\(at).detail") }
            for mode in TravelMode.allCases {
                guard let road = leg.answers[mode] else { continue }
                let where_ = "\(at).answers.\(mode.rawValue)"
                for (j, c) in road.line.enumerated() { try checkCoordinate(c, "\(where_).line[\(j)]") }
                guard road.distance.isFinite, road.distance >= 0, road.distance <= BookLimits.maximumRouteLength else {
                    throw fail("\(where_).distance", "\(number(road.distance)) m must be from 0 to \(number(BookLimits.maximumRouteLength)) m")
                }
                guard road.duration.isFinite, road.duration >= 0, road.duration <= BookLimits.maximumDuration else {
                    throw fail("\(where_).duration", "\(number(road.duration)) s must be from 0 to \(number(BookLimits.maximumDuration)) s")
                }
                for (j, junction) in road.junctions.enumerated() { try check(junction, "\(where_).junctions[\(j)]") }
            }
        }
    }

    private func check(_ tulip: Tulip, _ at: String) throws(BookValidationError) {
        guard tulip.roads.count <= BookLimits.maximumRoads else {
            throw BookValidationError(field: "\(at).roads", "has \(tulip.roads.count) roads; a tulip draws at most \(BookLimits.maximumRoads)")
        }
        if let r = tulip.roundabout, !BookLimits.exitNumber.contains(r.exitNumber) {
            throw BookValidationError(field: "\(at).roundabout.exitNumber",
                                      "\(r.exitNumber) must be from \(BookLimits.exitNumber.lowerBound) to \(BookLimits.exitNumber.upperBound)")
        }
        for (s, stroke) in tulip.strokes.enumerated() {
            for (p, point) in stroke.enumerated() where !(abs(point.x) <= 1 && abs(point.y) <= 1) {
                throw BookValidationError(field: "\(at).strokes[\(s)][\(p)]",
                                          "(\(number(point.x)), \(number(point.y))) must lie in the tulip's square: x and y from −1 to 1")
            }
        }
    }

    private func check(_ junction: Junction, _ at: String) throws(BookValidationError) {
        try checkCoordinate(junction.coordinate, "\(at).coordinate")
        guard junction.distanceAlong.isFinite, junction.distanceAlong >= 0, junction.distanceAlong <= BookLimits.maximumRouteLength else {
            throw BookValidationError(field: "\(at).distanceAlong", "\(number(junction.distanceAlong)) must be a distance from 0 to \(number(BookLimits.maximumRouteLength)) m")
        }
        guard junction.spokes.count <= BookLimits.maximumRoads else {
            throw BookValidationError(field: "\(at).spokes", "has \(junction.spokes.count) roads; a junction has at most \(BookLimits.maximumRoads)")
        }
        for (i, spoke) in junction.spokes.enumerated() where !(spoke.bearing >= 0 && spoke.bearing <= 360) {
            throw BookValidationError(field: "\(at).spokes[\(i)].bearing", "\(number(spoke.bearing)) must be a bearing in degrees from 0 to 360")
        }
        let arms = junction.ringArms ?? []
        guard arms.count <= BookLimits.maximumRoads else {
            throw BookValidationError(field: "\(at).ringArms", "has \(arms.count) roads; a ring has at most \(BookLimits.maximumRoads)")
        }
        for (i, spoke) in arms.enumerated() where !(spoke.bearing >= 0 && spoke.bearing <= 360) {
            throw BookValidationError(field: "\(at).ringArms[\(i)].bearing", "\(number(spoke.bearing)) must be a bearing in degrees from 0 to 360")
        }
    }

    private func checkCoordinate(_ c: Coordinate, _ at: String) throws(BookValidationError) {
        guard c.isValid else {
            throw BookValidationError(field: at, "latitude \(number(c.latitude)), longitude \(number(c.longitude)): latitude must be within ±90 and longitude within ±180")
        }
    }

    private func checkLine(_ text: String, _ at: String) throws(BookValidationError) {
        guard text.count <= BookLimits.maximumLineLength else {
            throw BookValidationError(field: at, "has \(text.count) characters; at most \(BookLimits.maximumLineLength)")
        }
    }

    private func short(_ text: String) -> String { text.count > 80 ? String(text.prefix(80)) + "…" : text }
    private func range(_ r: ClosedRange<Double>) -> String { "\(number(r.lowerBound)) to \(number(r.upperBound))" }
}

/// A number as messages print it: whole numbers grouped by thousands (`38,912`), others as Swift
/// writes them (`1e+308`, `0.5`).
func number(_ value: Double) -> String {
    guard value.isFinite, value == value.rounded(), abs(value) < 1e15 else { return "\(value)" }
    let digits = String(Int(abs(value)))
    var grouped = ""
    for (i, ch) in digits.enumerated() {
        if i > 0, (digits.count - i) % 3 == 0 { grouped += "," }
        grouped.append(ch)
    }
    return (value < 0 ? "-" : "") + grouped
}

extension RoutePlan {
    /// Checks the plan as `Book.validate()` checks a book's `plan`: at most
    /// `BookLimits.maximumHandles` handles, one leg between each two, handle ids unique, coordinates,
    /// texts, roads and junctions in range. Fields are named from `plan` (`plan.legs[2].stroke[0]`).
    /// For a plan stored outside a book (a route draft).
    /// - Throws: `BookValidationError` for the first value out of range.
    public func validate() throws(BookValidationError) {
        // The book's own checks, on a book that holds nothing else.
        try Book(title: "", route: Route(points: [])).check(self)
    }
}
