import BookAssembly
import Foundation
import Geo
import Guidance
import Model
import RouteEditing

// Apply in the pipeline's stages (`BookPipeline`): the notes placed for the drawing (deletions
// found, each handle's row linked and given its words), the drawing's line as the book's route,
// then the turns joined and every other note moved onto the route (`Regenerator`), the handle rows
// put at their handles and the notes off the route resolved.

extension ApplyWorkflow {
    /// The book's notes as a drawing places them, before the new route's turns are joined: every
    /// handle's row linked to its handle and given its latest words, rows whose handle is gone left
    /// out, and the notes a person deleted found.
    struct Placement: Sendable {
        /// The book's notes with the handle rows, not yet on the new route.
        var notes: [Note]
        /// Every tombstone, those found just now too.
        var deleted: [DeletedNote]
        /// The least id a new note may take: past every note's and every tombstone's.
        var reserved: Int
        /// The drawing's plan, its handles' notes as the rows now say them.
        var plan: RoutePlan
        /// Each handle row's note id, with its handle's index in `plan`.
        var handleRows: [Int: Int] = [:]
        var report = ApplyReport()

        /// A new note id, never a deleted note's.
        mutating func freshID() -> Int {
            defer { reserved += 1 }
            return reserved
        }
    }

    /// The "place notes" stage of an Apply (see `apply(book:editor:options:maneuvers:…)`).
    /// - Parameter lastWritten: the notes the last Apply wrote (from its undo file), to find deletions.
    static func place(book: Book, editor: RouteEditor, lastWritten: [DeletedNote],
                      configuration: Configuration = Configuration()) -> Placement {
        var placement = Placement(notes: book.notes, deleted: book.deletedNotes ?? [], reserved: book.nextNoteID, plan: editor.plan)
        findDeletions(book: book, lastWritten: lastWritten, into: &placement)
        linkTracedHandles(&placement)
        linkRows(to: book.plan?.handles ?? [], configuration: configuration, &placement)
        placeHandleNotes(base: book.plan?.handles ?? [], &placement)
        return placement
    }

    /// Notes the last Apply wrote that are gone from the book were deleted by a person. A book no
    /// Apply has written yet (fresh from `route`) had its turns from its plan's road legs: those the
    /// book no longer has were deleted too. Tombstones found now may hold ids past the book's: new
    /// notes start after them too.
    private static func findDeletions(book: Book, lastWritten: [DeletedNote], into placement: inout Placement) {
        let present = Set(placement.notes.map(\.id)), tombstoned = Set(placement.deleted.map(\.id))
        let written = lastWritten.isEmpty ? turnsFromPlan(of: book) : lastWritten
        for written in written where !present.contains(written.id) && !tombstoned.contains(written.id) {
            placement.deleted.append(written)
            placement.report.newlyDeleted.append(written)
        }
        placement.reserved = max(placement.reserved, (placement.deleted.map(\.id).max() ?? 0) + 1)
    }

    /// A handle traced from a row (`Handle.noteID`) is that row's handle: the row is kept, with
    /// everything a person set on it, rather than a second row made from the handle's words. A
    /// traced row a person deleted since stays deleted: its handle keeps no note.
    private static func linkTracedHandles(_ placement: inout Placement) {
        for h in placement.plan.handles.indices {
            guard let id = placement.plan.handles[h].noteID else { continue }
            placement.plan.handles[h].noteID = nil
            if let i = placement.notes.firstIndex(where: { $0.id == id }) {
                if placement.notes[i].handleID == nil { placement.notes[i].handleID = placement.plan.handles[h].id }
            } else if placement.plan.handles[h].note != nil {
                placement.plan.handles[h].note = nil
                placement.report.stayedDeleted += 1
            }
        }
    }

    /// Links each row to its handle of the book's plan (`base`): by its handle id, or (older books)
    /// by place and words. A handle whose row is gone had it deleted by a person: a tombstone.
    private static func linkRows(to base: [Handle], configuration: Configuration, _ placement: inout Placement) {
        for handle in base {
            guard let note = handle.note, !placement.notes.contains(where: { $0.handleID == handle.id }) else { continue }
            if let i = placement.notes.firstIndex(where: { $0.handleID == nil && $0.kind != .turn && $0.text == note.text
                && $0.coordinate.distance(to: handle.coordinate) <= configuration.sameHandleDistance }) {
                placement.notes[i].handleID = handle.id
            } else if !placement.deleted.contains(where: { $0.handleID == handle.id }) {
                // The row is gone: a person deleted it.
                let tombstone = DeletedNote(id: placement.freshID(), kind: handle.origin == .waypoint ? .waypoint : .typed,
                                            coordinate: handle.coordinate, handleID: handle.id, text: note.text)
                placement.deleted.append(tombstone)
                placement.report.newlyDeleted.append(tombstone)
            }
        }
    }

    /// Handle notes: rows with the latest words, at their handle; rows whose handle is gone, or
    /// whose handle no longer carries a note, go with it.
    /// - Parameter base: the handles of the book's plan, whose notes were the words last applied.
    private static func placeHandleNotes(base: [Handle], _ placement: inout Placement) {
        let baseNotes = Dictionary(base.compactMap { h in h.note.map { (h.id, $0) } }, uniquingKeysWith: { a, _ in a })
        var keptRows = Set<Int>()
        for h in placement.plan.handles.indices {
            let handle = placement.plan.handles[h]
            guard let draft = handle.note else { continue }
            if let t = placement.deleted.firstIndex(where: { $0.handleID == handle.id }) {
                if placement.deleted[t].text == nil || placement.deleted[t].text == draft.text {
                    placement.plan.handles[h].note = nil   // the handle stays, its note stays deleted
                    placement.report.stayedDeleted += 1
                    continue
                }
                placement.deleted.remove(at: t)   // new words on the handle: a new note
            }
            if let r = placement.notes.firstIndex(where: { $0.handleID == handle.id }) {
                updateRow(r, handle: h, base: baseNotes[handle.id], &placement)
                keptRows.insert(placement.notes[r].id)
            } else {
                let note = Note(id: placement.freshID(), kind: handle.origin == .waypoint ? .waypoint : .typed, distanceAlong: 0,
                                coordinate: handle.coordinate, text: draft.text, marker: draft.marker,
                                waypointType: handle.waypointType, cap: 0,
                                handleID: handle.id, wordsEdited: draft.wordsEdited)
                placement.notes.append(note)
                placement.handleRows[note.id] = h
                keptRows.insert(note.id)
                placement.report.handleNotesAdded += 1
            }
        }
        let before = placement.notes.count
        placement.notes.removeAll { $0.handleID != nil && !keptRows.contains($0.id) }
        placement.report.handleNotesRemoved = before - placement.notes.count
    }

    /// The row `r` of handle `h`, with the latest of the handle's and the row's words (`latestWords`).
    private static func updateRow(_ r: Int, handle h: Int, base: HandleNote?, _ placement: inout Placement) {
        let handle = placement.plan.handles[h]
        guard let draft = handle.note else { return }
        let words = latestWords(base: base, handle: draft, row: placement.notes[r], report: &placement.report, handleNumber: h + 1)
        if words.text != placement.notes[r].text || words.marker != placement.notes[r].marker { placement.report.wordsFromHandles += 1 }
        placement.notes[r].text = words.text
        placement.notes[r].marker = words.marker
        placement.notes[r].wordsEdited = words.wordsEdited
        placement.notes[r].coordinate = handle.coordinate
        placement.plan.handles[h].note = words
        placement.handleRows[placement.notes[r].id] = h
    }

    /// The drawing's line as the book's route, its road legs drawn straight marked (and listed in
    /// the report).
    static func route(of editor: RouteEditor, replacing book: Book, report: inout ApplyReport) -> Route {
        let line = editor.line()
        let distances = editor.handleDistances()
        for i in editor.plan.legs.indices where editor.plan.legs[i].kind == .road && editor.road(ofLeg: i) == nil {
            report.straight.append(StraightStretch(start: distances[i], end: distances[i + 1],
                                                   reason: editor.plan.legs[i].state == .noRoad ? .noRoad : .waiting, leg: i + 1))
        }
        let source = editor.engineName.map { Route.handlesSource(roadsBy: $0) } ?? book.plan.flatMap { _ in book.route.source } ?? "handles"
        return Route(source: source, points: line.map { RoutePoint(coordinate: $0) },
                     straightStretches: report.straight.isEmpty ? nil : report.straight)
    }

    /// The "join turns to notes" stage of an Apply with the turn notes `options` choose for the book
    /// (`ApplyOptions.turns(for:)`): for `ask`, a book without generated turn notes yet gets the
    /// new route's only when `confirmTurns` says yes, with how many (else they are counted in
    /// `turnsNotAdded`); a book with some has them regenerated. A choice given other than `ask` is
    /// remembered in the book's settings (`noTurnNotes`).
    static func joinChoosing(_ maneuvers: [Maneuver], to placement: Placement, of book: Book, route: Route, editor: RouteEditor,
                             options: ApplyOptions, configuration: Configuration = Configuration()) -> (book: Book, report: ApplyReport) {
        var chosen = options
        let choice = options.turns(for: book)
        chosen.turns = choice
        var joined = join(choice == .none ? [] : maneuvers, to: placement, of: book, route: route, editor: editor, options: chosen,
                          configuration: configuration)
        let offered = joined.report.turns.added.count
        if choice == .ask, offered > 0, !book.notes.contains(where: { $0.generated != nil }), options.confirmTurns?(offered) != true {
            chosen.turns = .none
            joined = join([], to: placement, of: book, route: route, editor: editor, options: chosen, configuration: configuration)
            joined.report.turnSource = "none"
            joined.report.turnsNotAdded = offered
        }
        switch options.turns {
        case .none: joined.book.settings.noTurnNotes = true
        case .all, .addWithoutTulips: joined.book.settings.noTurnNotes = nil
        case .ask, .fromBook: break
        }
        return joined
    }

    /// The "join turns to notes" stage of an Apply: every note onto the new route with the turns
    /// regenerated (`Regenerator`; a turn at a deleted turn's junction stays deleted), the handle
    /// rows exactly where the route reaches their handles, the notes off the route resolved as
    /// `options` say, and the notes in route order.
    static func join(_ maneuvers: [Maneuver], to placement: Placement, of book: Book, route: Route, editor: RouteEditor,
                     options: ApplyOptions, configuration: Configuration = Configuration()) -> (book: Book, report: ApplyReport) {
        var report = placement.report
        // With every tombstone, found just now too, so the new turns' ids skip the deleted notes'.
        var working = book
        working.notes = placement.notes
        working.deletedNotes = placement.deleted
        let regenerator = Regenerator(joiner: TurnJoiner(instructions: Instructions(language: book.settings.language)))
        var (result, turns) = regenerator.regenerate(working, route: route, maneuvers: maneuvers, firstID: placement.reserved)
        report.stayedDeleted += regenerator.keepDeleted(&result, added: &turns.added, deleted: placement.deleted)
        if options.turns == .addWithoutTulips {
            for i in result.notes.indices where result.notes[i].generated != nil && result.notes[i].tulip?.origin == .generated {
                result.notes[i].tulip = nil
            }
        }
        let polyline = Polyline(route.coordinates)
        placeHandleRows(&result, placement: placement, at: editor.handleDistances(), on: polyline)
        resolveOffRoute(&result, on: polyline, options: options, report: &report)
        result.notes = result.notes.enumerated()
            .sorted { ($0.element.distanceAlong, $0.offset) < ($1.element.distanceAlong, $1.offset) }.map(\.element)
        let old = Dictionary(book.notes.map { ($0.id, $0.distanceAlong) }, uniquingKeysWith: { a, _ in a })
        report.moved = result.notes.filter { n in
            n.kind != .turn && old[n.id].map { abs($0 - n.distanceAlong) > configuration.movedDistance } == true
        }.count
        report.turns = turns
        refreshHeader(&result, was: book, editor: editor)
        result.plan = placement.plan
        result.deletedNotes = placement.deleted.isEmpty ? nil : placement.deleted
        return (result, report)
    }

    /// The header follows the new route where the program wrote it: a description no person gave
    /// (none, or the one `route` or an Apply wrote for the old route) names the new route's roads
    /// and engine (`RouteNaming.description(of:engine:)`); a title holding the old route's length
    /// ("Drive, 12.3 km", in the book's units or in kilometres) gets the new length.
    static func refreshHeader(_ book: inout Book, was old: Book, editor: RouteEditor) {
        let generated = old.description.map { text in
            old.plan.map { RouteNaming.isGenerated(text, for: $0, engine: $0.engine ?? old.route.engineName) } ?? false
        } ?? true
        if generated { book.description = RouteNaming.description(of: editor.geometry(), engine: editor.engineName) }
        let before = Polyline(old.route.coordinates).length, after = Polyline(book.route.coordinates).length
        for units in [old.settings.units, .kilometres] {
            let was = RouteNames.distanceText(before, units: units), now = RouteNames.distanceText(after, units: units)
            guard was != now, book.title.contains(was) else { continue }
            book.title = book.title.replacingOccurrences(of: was, with: now)
            return
        }
    }

    /// Handle rows sit exactly where the route reaches their handle (`distances`, by handle).
    private static func placeHandleRows(_ book: inout Book, placement: Placement, at distances: [Metres], on polyline: Polyline) {
        for i in book.notes.indices {
            guard let h = placement.handleRows[book.notes[i].id] else { continue }
            book.notes[i].distanceAlong = distances[h]
            book.notes[i].coordinate = placement.plan.handles[h].coordinate
            book.notes[i].offsetFromRoute = 0
            book.notes[i].placement = .onRoute
            book.notes[i].cap = polyline.heading(atDistance: distances[h], lookahead: Thresholds.capLookahead)
        }
    }

    /// Notes off the route, each resolved (its own resolution, else `options.offRoute`) and listed.
    private static func resolveOffRoute(_ book: inout Book, on polyline: Polyline, options: ApplyOptions, report: inout ApplyReport) {
        var removed = Set<Int>()
        for i in book.notes.indices where book.notes[i].placement == .offRoute {
            let note = book.notes[i]
            let resolution = options.resolutions[note.id] ?? options.offRoute
            report.offRoute.append(OffRouteNote(id: note.id, text: note.text, marker: note.marker, distanceAlong: note.distanceAlong,
                                                offset: note.offsetFromRoute, resolution: resolution))
            switch resolution {
            case .move:
                book.notes[i].coordinate = polyline.coordinate(atDistance: note.distanceAlong)
                book.notes[i].offsetFromRoute = 0
                book.notes[i].placement = .onRoute
            case .remove: removed.insert(note.id)
            case .keep: break
            }
        }
        book.notes.removeAll { removed.contains($0.id) }
    }
}
