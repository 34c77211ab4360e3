import Foundation
import Geo
import Guidance
import Model

/// Makes a person's changes to a book's rows (`NoteChange`), each a pure step from a book to a book.
///
/// Rules every change keeps:
/// - a row's words set by a person are theirs from then on (`GeneratedTurn.wordsTyped`): no
///   regeneration rewrites them;
/// - a removed row leaves a tombstone (`DeletedNote`) holding the whole note, so no later Apply or
///   regeneration makes a generated turn or a handle's row again, and `restore` brings it back;
/// - a tulip a person changed is drawn (`Tulip.Origin.drawn`): never redrawn from the road;
/// - notes stay in distance order, and a new note takes an id no note or tombstone has had.
public struct NoteEditor: Sendable {
    /// When the words were changed, ISO 8601 in UTC, written into `Note.wordsEdited`.
    public var now: String

    public init(now: String) {
        self.now = now
    }

    /// The book with `change` made.
    /// - Returns: the step's name and what it touched.
    /// - Throws: `NoteEditError` naming the rows (an unknown, ambiguous or removed row) or the value out of range.
    ///   A change refused leaves `book` as it was.
    public func apply(_ change: NoteChange, to book: inout Book) throws -> NoteStep {
        // Made on a copy: an `inout` is written back even when the change throws halfway (words
        // set, then a danger out of range).
        var changed = book
        let step: NoteStep
        switch change {
        case .add(let place, let fields): step = try add(at: place, fields, to: &changed)
        case .edit(let reference, let fields): step = try edit(reference, fields, in: &changed)
        case .remove(let reference): step = try remove(reference, from: &changed)
        case .restore(let reference): step = try restore(reference, in: &changed)
        case .move(let reference, let shift): step = try move(reference, shift, in: &changed)
        case .tulip(let reference, let edit): step = try correctTulip(reference, edit, in: &changed)
        }
        book = changed
        return step
    }

    // MARK: - The changes

    func add(at place: NotePlace, _ fields: NoteFields, to book: inout Book) throws -> NoteStep {
        guard !(fields.text ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || !(fields.marker ?? "").isEmpty else {
            throw NoteEditError(.notPossible, "a new note needs words or a marker")
        }
        let spot = try locate(place, in: book)
        var note = Note(id: book.nextNoteID, kind: fields.waypointType.map(Self.kind(of:)) ?? .typed,
                        distanceAlong: spot.distanceAlong, coordinate: spot.coordinate,
                        offsetFromRoute: spot.offset, placement: spot.onRoute ? .onRoute : .offRoute, text: "")
        note.cap = Polyline(book.route.coordinates).heading(atDistance: note.distanceAlong, lookahead: Thresholds.capLookahead)
        note.elevation = Self.height(in: book, at: note.distanceAlong)
        try set(fields, on: &note)
        note.wordsEdited = now
        note.tulip = HeadingTulips.tulip(of: note, in: book)
        insert(note, into: &book)
        let off = spot.onRoute ? nil : OffRouteNote(id: note.id, text: note.text, marker: note.marker,
                                                    distanceAlong: spot.distanceAlong, offset: spot.offset, resolution: .keep)
        return NoteStep(name: "Add note \(Self.quoted(note)) at \(Self.km(note.distanceAlong))", noteID: note.id, offRoute: off)
    }

    func edit(_ reference: NoteReference, _ fields: NoteFields, in book: inout Book) throws -> NoteStep {
        guard !fields.isEmpty else { throw NoteEditError(.notPossible, "nothing to change on \(reference)") }
        let i = try resolve(reference, in: book)
        let name = book.rowName(i)
        try set(fields, on: &book.notes[i])
        if fields.text != nil || fields.marker != nil {
            book.notes[i].wordsEdited = now
            book.notes[i].generated?.wordsTyped = true
            book.notes[i].generated?.wordsGiven = nil
        }
        // The average alone, as `note speed` sets it, is named for what it does.
        if let target = fields.targetSpeed, fields == NoteFields(targetSpeed: target) {
            return NoteStep(name: "Set the average to \(target) km/h from \(name)", noteID: book.notes[i].id)
        }
        return NoteStep(name: "Edit \(name)", noteID: book.notes[i].id)
    }

    func remove(_ reference: NoteReference, from book: inout Book) throws -> NoteStep {
        let i = try resolve(reference, in: book)
        let name = book.rowName(i)
        let row = book.printedRow(of: i)
        let note = book.notes.remove(at: i)
        var tombstone = DeletedNote(id: note.id, kind: note.kind, coordinate: note.generated?.junction.coordinate ?? note.coordinate,
                                    handleID: note.handleID, text: note.text)
        tombstone.note = note
        tombstone.row = row
        book.deletedNotes = (book.deletedNotes ?? []) + [tombstone]
        return NoteStep(name: "Remove \(name)", noteID: note.id)
    }

    func restore(_ reference: NoteReference?, in book: inout Book) throws -> NoteStep {
        let deleted = book.deletedNotes ?? []
        let chosen: [Int]
        if let reference {
            chosen = [try resolveRemoved(reference, in: deleted)]
        } else {
            chosen = deleted.indices.filter { deleted[$0].note != nil }
            guard !chosen.isEmpty else { throw NoteEditError(.noSuchRow, "the book has no removed rows to restore") }
        }
        for j in chosen {
            guard let note = deleted[j].note else { continue }
            insert(note, into: &book)
        }
        let left = deleted.indices.filter { !chosen.contains($0) }.map { deleted[$0] }
        book.deletedNotes = left.isEmpty ? nil : left
        let first = deleted[chosen[0]].note
        let name = chosen.count == 1 ? "Restore \(first.map(Self.quoted) ?? "#\(deleted[chosen[0]].id)")" : "Restore \(chosen.count) rows"
        return NoteStep(name: name, noteID: first?.id)
    }

    func move(_ reference: NoteReference, _ shift: NoteShift, in book: inout Book) throws -> NoteStep {
        let i = try resolve(reference, in: book)
        let name = book.rowName(i)
        let target: Metres = switch shift {
        case .to(let d): d
        case .by(let d): book.notes[i].distanceAlong + d
        }
        let line = Polyline(book.route.coordinates)
        guard target.isFinite, (0...line.length).contains(target) else {
            throw NoteEditError(.outOfRange, String(format: "%@ cannot go to %@: the route runs from 0 to %.2f km",
                                                    name, Self.km(target), line.length / 1000))
        }
        var note = book.notes.remove(at: i)
        note.distanceAlong = target
        note.coordinate = line.coordinate(atDistance: target)
        note.offsetFromRoute = 0
        note.placement = .onRoute
        if note.cap != nil { note.cap = line.heading(atDistance: target, lookahead: Thresholds.capLookahead) }
        note.elevation = Self.height(in: book, at: target) ?? note.elevation
        note.tulip = HeadingTulips.tulip(of: note, in: book)
        insert(note, into: &book)
        return NoteStep(name: "Move \(name) to \(Self.km(target))", noteID: note.id)
    }

    func correctTulip(_ reference: NoteReference, _ edit: TulipEdit, in book: inout Book) throws -> NoteStep {
        let i = try resolve(reference, in: book)
        let name = book.rowName(i)
        var note = book.notes[i]
        let what: String
        switch edit {
        case .reset:
            note.tulip = note.generated.flatMap { generated in
                TulipBuilder.tulip(for: generated.junction, roundabout: generated.exitNumber.map {
                    Tulip.Roundabout(exitNumber: $0, clockwise: note.tulip?.roundabout?.clockwise ?? (book.settings.drivingSide == .left))
                })
            }
            // A row with no turn goes back to the arrow along the road, where it has one.
            if note.generated == nil { note.tulip = HeadingTulips.tulip(of: note, in: book) }
            what = "Reset the tulip of"
        case .addRoad(let angle, let roadClass):
            var tulip = note.tulip ?? Self.straightTulip
            guard tulip.roads.count < BookLimits.maximumRoads else {
                throw NoteEditError(.outOfRange, "\(name)'s tulip has \(tulip.roads.count) roads, the most a tulip draws")
            }
            tulip.roads.append(Tulip.Road(role: .side, angle: try Self.turnAngle(angle), roadClass: roadClass))
            note.tulip = Self.drawn(tulip)
            what = "Add a road to the tulip of"
        case .removeRoad(let n):
            var tulip = note.tulip ?? Self.straightTulip
            tulip.roads.remove(at: try Self.sideRoad(n, of: tulip, name: name))
            note.tulip = Self.drawn(tulip)
            what = "Remove a road from the tulip of"
        case .exit(let angle):
            var tulip = note.tulip ?? Self.straightTulip
            let turn = try Self.turnAngle(angle)
            if let e = tulip.roads.firstIndex(where: { $0.role == .exit }) {
                tulip.roads[e].angle = turn
            } else {
                tulip.roads.append(Tulip.Road(role: .exit, angle: turn))
            }
            note.tulip = Self.drawn(tulip)
            what = "Set the exit of the tulip of"
        case .roadClass(let n, let roadClass):
            var tulip = note.tulip ?? Self.straightTulip
            let i = try n.map { try Self.sideRoad($0, of: tulip, name: name) } ?? tulip.roads.firstIndex { $0.role == .exit }
            guard let i else { throw NoteEditError(.notPossible, "\(name)'s tulip has no road taken") }
            tulip.roads[i].roadClass = roadClass
            note.tulip = Self.drawn(tulip)
            what = "Change a road's kind in the tulip of"
        }
        // A person has looked at the tulip and drawn it anew: no longer one to check.
        note.tulipToCheck = nil
        book.notes[i] = note
        return NoteStep(name: "\(what) \(name)", noteID: note.id)
    }

    // MARK: - Rows by reference

    /// The index in `book.notes` of the row `reference` names.
    /// - Throws: `NoteEditError` when no row or several answer to it, with the rows it could mean.
    public func resolve(_ reference: NoteReference, in book: Book) throws -> Int {
        let matches: [Int]
        switch reference {
        case .row(let n):
            let printed = book.notes.indices.filter { book.notes[$0].placement == .onRoute }
            guard n >= 1, n <= printed.count else {
                throw NoteEditError(.noSuchRow, "there is no row \(n): the book prints \(printed.count) row\(printed.count == 1 ? "" : "s")")
            }
            return printed[n - 1]
        case .id(let id):
            matches = book.notes.indices.filter { book.notes[$0].id == id }
        case .marker(let marker):
            matches = book.notes.indices.filter { book.notes[$0].marker?.caseInsensitiveCompare(marker) == .orderedSame }
        }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty {
            let removed = (book.deletedNotes ?? []).contains { Self.answers(reference, $0) }
            throw NoteEditError(.noSuchRow, "no row is \(reference)" + (removed ? ": it was removed (restore brings it back)" : ""))
        }
        let names = matches.map(book.rowName)
        throw NoteEditError(.ambiguous, "\(reference) could be \(names.joined(separator: " or ")): name the row by its number or id",
                            candidates: names)
    }

    func resolveRemoved(_ reference: NoteReference, in deleted: [DeletedNote]) throws -> Int {
        let matches = deleted.indices.filter { deleted[$0].note != nil && Self.answers(reference, deleted[$0]) }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty { throw NoteEditError(.noSuchRow, "no removed row is \(reference)") }
        let names = matches.map { j in "#\(deleted[j].id) \(deleted[j].note.map(Self.quoted) ?? "")" }
        throw NoteEditError(.ambiguous, "\(reference) could be the removed \(names.joined(separator: " or ")): name it by its id",
                            candidates: names)
    }

    static func answers(_ reference: NoteReference, _ tombstone: DeletedNote) -> Bool {
        switch reference {
        case .row(let n): tombstone.row == n
        case .id(let id): tombstone.id == id
        case .marker(let m): tombstone.note?.marker?.caseInsensitiveCompare(m) == .orderedSame
        }
    }
}
