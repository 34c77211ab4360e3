import Foundation
import Geo
import Model

// The parts `NoteEditor`'s changes share: where a new note stands, the fields a change sets (each
// checked against the range a book keeps), and keeping the rows in distance order.

extension NoteEditor {
    /// Where a new note stands on the route.
    struct Spot {
        var distanceAlong: Metres
        var coordinate: Coordinate
        var offset: Metres
        var onRoute: Bool
    }

    func locate(_ place: NotePlace, in book: Book) throws -> Spot {
        let line = Polyline(book.route.coordinates)
        switch place {
        case .distance(let d):
            guard d.isFinite, (0...line.length).contains(d) else {
                throw NoteEditError(.outOfRange, String(format: "%@ is not on the route: it runs from 0 to %.2f km", Self.km(d), line.length / 1000))
            }
            return Spot(distanceAlong: d, coordinate: line.coordinate(atDistance: d), offset: 0, onRoute: true)
        case .coordinate(let c):
            guard c.isValid else { throw NoteEditError(.outOfRange, "latitude must be within ±90 and longitude within ±180") }
            let locator = NoteLocator(route: line, configuration: .init(offRouteDistance: book.settings.offRouteDistance))
            let at = locator.locate([c])[0]
            return Spot(distanceAlong: at.distanceAlong, coordinate: c, offset: at.offsetFromRoute, onRoute: at.isOnRoute)
        case .row(let reference):
            let note = book.notes[try resolve(reference, in: book)]
            return Spot(distanceAlong: note.distanceAlong, coordinate: note.coordinate, offset: note.offsetFromRoute,
                        onRoute: note.placement == .onRoute)
        case .handle(let n):
            let handles = book.plan?.handles ?? []
            guard n >= 1, n <= handles.count else {
                throw NoteEditError(.noSuchRow, handles.isEmpty ? "the book's route has no handles (it was not drawn through handles)"
                                    : "there is no handle \(n): the route has \(handles.count)")
            }
            let at = NoteLocator(route: line).locate([handles[n - 1].placed])[0]
            return Spot(distanceAlong: at.distanceAlong, coordinate: handles[n - 1].placed, offset: 0, onRoute: true)
        }
    }

    /// Sets every field `fields` gives on `note`, each checked against the range a book keeps.
    func set(_ fields: NoteFields, on note: inout Note) throws {
        if let text = fields.text {
            guard text.count <= BookLimits.maximumNoteLength else {
                throw NoteEditError(.outOfRange, "the words are \(text.count) characters long; a row holds at most \(BookLimits.maximumNoteLength)")
            }
            note.text = text
        }
        if let marker = fields.marker {
            guard marker.count <= BookLimits.maximumLineLength, !marker.contains(where: \.isNewline) else {
                throw NoteEditError(.outOfRange, "a marker is one line of at most \(BookLimits.maximumLineLength) characters")
            }
            note.marker = marker.isEmpty ? nil : marker
        }
        if let danger = fields.danger {
            guard Note.dangers.contains(danger) else { throw NoteEditError(.outOfRange, "danger is 0, 1, 2 or 3, not \(danger)") }
            note.danger = danger
        }
        // A name the library lacks may be taken away only from a row that carries it: elsewhere it
        // is a mistyped name, not a symbol.
        for symbol in fields.removeSymbols where !symbol.isKnown && !note.symbols.contains(symbol) {
            throw NoteEditError(.notPossible, "'\(symbol.name.prefix(40))' is not a symbol of the library, nor one this row carries")
        }
        note.symbols.removeAll { fields.removeSymbols.contains($0) }
        for symbol in fields.addSymbols where !note.symbols.contains(symbol) { note.symbols.append(symbol) }
        if fields.clearType { note.waypointType = nil }
        if let type = fields.waypointType { note.waypointType = type }
        if let cap = fields.cap {
            guard cap.isFinite, (0...360).contains(cap) else { throw NoteEditError(.outOfRange, "a heading (CAP) is 0 to 360 degrees") }
            note.cap = cap.truncatingRemainder(dividingBy: 360)
        }
        try setSpeeds(fields, on: &note)
    }

    private func setSpeeds(_ fields: NoteFields, on note: inout Note) throws {
        for speed in [fields.speedLimit, fields.targetSpeed].compactMap({ $0 }) where !Note.speeds.contains(speed) {
            throw NoteEditError(.outOfRange, "a speed is \(Note.speeds.lowerBound) to \(Note.speeds.upperBound) km/h, not \(speed)")
        }
        if let zone = fields.zone {
            note.waypointType = zone.waypointType
            note.speedLimit = fields.speedLimit ?? note.speedLimit
            guard zone == .end || note.speedLimit != nil else {
                throw NoteEditError(.notPossible, "a speed zone's start needs its limit")
            }
        } else if let limit = fields.speedLimit {
            guard note.waypointType == .dz || note.waypointType == .fz else {
                throw NoteEditError(.notPossible, "a speed limit belongs to the start or end of a speed zone (say which)")
            }
            note.speedLimit = limit
        }
        if let target = fields.targetSpeed { note.targetSpeed = target }
        if let reset = fields.resetsOdometer { note.resetsOdometer = reset }
    }

    /// Puts `note` among the book's notes at its distance, after any already there.
    func insert(_ note: Note, into book: inout Book) {
        let at = book.notes.firstIndex { $0.distanceAlong > note.distanceAlong } ?? book.notes.endIndex
        book.notes.insert(note, at: at)
    }

    /// A waypoint type's kind of note: a control point or a waypoint.
    static func kind(of type: WaypointType) -> Note.Kind {
        switch type {
        case .dss, .ass, .cp, .wpc: .checkpoint
        default: .waypoint
        }
    }

    /// The height at `distance` along the book's route, from its profile.
    static func height(in book: Book, at distance: Metres) -> Metres? {
        book.profile?.height(atDistance: distance, routeLength: Polyline(book.route.coordinates).length)
    }

    static let straightTulip = Tulip(origin: .drawn, roads: [Tulip.Road(role: .entry, angle: 180), Tulip.Road(role: .exit, angle: 0)])

    /// The index in `tulip.roads` of the other road number `n` (from 1).
    static func sideRoad(_ n: Int, of tulip: Tulip, name: String) throws -> Int {
        let sides = tulip.roads.indices.filter { tulip.roads[$0].role == .side }
        guard n >= 1, n <= sides.count else {
            throw NoteEditError(.noSuchRow, "\(name)'s tulip has \(sides.count) other road\(sides.count == 1 ? "" : "s"); there is no road \(n)")
        }
        return sides[n - 1]
    }

    static func drawn(_ tulip: Tulip) -> Tulip {
        var t = tulip
        t.origin = .drawn
        return t
    }

    /// A turn angle as tulips keep it, in (−180, 180].
    static func turnAngle(_ degrees: Degrees) throws -> Degrees {
        guard degrees.isFinite, (-360...360).contains(degrees) else {
            throw NoteEditError(.outOfRange, "an angle is -180 to 180 degrees (0 ahead, 90 right, -90 left), not \(degrees)")
        }
        return normalizedTurn(degrees)
    }

    /// `'Pass left of the well'`, or the marker for a row without words; long words cut.
    static func quoted(_ note: Note) -> String {
        let words = note.text.isEmpty ? (note.marker ?? "") : note.text
        return "'\(words.count > 60 ? words.prefix(57) + "…" : words)'"
    }

    static func km(_ metres: Metres) -> String { String(format: "%.2f km", metres / 1000) }
}
