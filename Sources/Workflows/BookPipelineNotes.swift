import BookAssembly
import Foundation
import Formats
import Geo
import Guidance
import Model
import RouteEditing

// The "place notes" and "join turns to notes" stages of `BookPipeline`, for each way of placing
// notes (`BookPipeline.NotePlacement`). The two go together: a changed route's notes are moved and
// its turns joined in one pass (`Regenerator`), and an Apply's handle rows are placed before the
// turns are read and put at their handles after.

extension BookPipeline {
    /// The book as the notes are placed, and what is placed for the join.
    struct Placed {
        var outcome: Outcome
        /// An Apply's notes, placed for the drawing, and the drawing's route.
        var applying: (placement: ApplyWorkflow.Placement, route: Route)?
    }

    /// "place notes".
    func placeNotes(on read: ReadRoute, log: any WorkflowLog) throws -> Placed {
        switch notes {
        case .waypoints(let new, let offRoute):
            return Placed(outcome: try placeWaypoints(of: read, new, offRoute: offRoute, log: log))
        case .handles(let new):
            let title = new.title ?? RouteWorkflow.title(of: drawing, fileName: nil)
            return Placed(outcome: Outcome(book: assembleRouteBook(title: title, editor: drawing, settings: new.settings, turns: false)))
        case .moved, .kept:
            return Placed(outcome: Outcome(book: changed))
        case .applied(let options, let lastWritten):
            try ApplyWorkflow.checkReady(drawing, useStraight: options.useStraight)
            var placement = ApplyWorkflow.place(book: changed, editor: drawing, lastWritten: lastWritten)
            let route = ApplyWorkflow.route(of: drawing, replacing: changed, report: &placement.report)
            return Placed(outcome: Outcome(book: changed), applying: (placement, route))
        case .routeRemoved:
            var outcome = Outcome(book: changed)
            (outcome.book, outcome.removal) = ApplyWorkflow.removeRoute(changed)
            return Placed(outcome: outcome)
        }
    }

    /// "join turns to notes", then the arrow of every row on the route with no turn and no tulip
    /// of a person's, drawn from the route's heading there (`HeadingTulips`): a new book's rows
    /// without a tulip (a book a file carries keeps the arrows it was written with), every such row
    /// of a changed route drawn again.
    func joinTurns(_ found: FoundTurns, read: ReadRoute, to placed: inout Placed, log: any WorkflowLog) throws {
        try joinOnly(found, read: read, to: &placed, log: log)
        switch notes {
        case .waypoints, .handles: placed.outcome.book = HeadingTulips.draw(in: placed.outcome.book, again: false)
        case .moved, .applied: placed.outcome.book = HeadingTulips.draw(in: placed.outcome.book)
        case .routeRemoved, .kept: break
        }
    }

    /// "join turns to notes", by the way the notes were placed.
    private func joinOnly(_ found: FoundTurns, read: ReadRoute, to placed: inout Placed, log: any WorkflowLog) throws {
        switch notes {
        case .waypoints:
            joinWaypoints(found, carried: read.file?.book != nil, to: &placed.outcome.book, log: log)
        case .handles(let new):
            if found.source != "none" {
                placed.outcome.book.notes = TurnJoiner(instructions: Instructions(language: placed.outcome.book.settings.language))
                    .join(found.maneuvers, into: placed.outcome.book.notes)
            }
            placed.outcome.book.rally = new.rally
            placed.outcome.book.stage = new.stage
            placed.outcome.book.date = new.date
            placed.outcome.book.id = Book.derivedID(from: try BookFile.encode(placed.outcome.book))
        case .moved:
            guard let route = read.route else { preconditionFailure("a changed route is read before its notes move") }
            moveNotes(onto: route, joining: found, &placed.outcome)
        case .applied(let options, _):
            guard let (placement, route) = placed.applying else { preconditionFailure("an Apply's notes are placed before they join") }
            joinApplied(found, placement: placement, route: route, options: options, &placed.outcome)
        case .routeRemoved, .kept:
            break
        }
    }

    // MARK: A track's waypoints (build)

    /// The waypoints of a track as a new book's notes (`assembleBook`), those off the route resolved;
    /// or the rows of the book the file carries, as they are, in its units. The book is known by
    /// what it is made of (its id, derived before any turn joins it), then given its header.
    func placeWaypoints(of read: ReadRoute, _ new: NewBook, offRoute: OffRouteResolution, log: any WorkflowLog) throws -> Outcome {
        guard let file = read.file, let route = read.route, let url = read.url else { preconditionFailure("waypoints come from a track file") }
        let document = file.document
        let name = new.title ?? document.name ?? document.tracks.first?.name ?? url.deletingPathExtension().lastPathComponent
        var settings = new.settings
        settings.travelMode = turns.mode == .drive ? nil : turns.mode
        var assembled: AssembledBook
        if var carried = file.book {
            settings.units = carried.settings.units
            carried.settings = settings
            carried.title = name
            assembled = assembleBook(title: name, route: route, notes: [], settings: settings, offRoute: offRoute)
            assembled.book = carried
            let off = carried.notes.filter { $0.placement == .offRoute }
            if !off.isEmpty {
                log.record(WorkflowMessage(.warning, "\(read.name): \(off.count) row\(off.count == 1 ? " is" : "s are") farther than "
                    + "\(Int(settings.offRouteDistance)) m from the track; kept in the book file, not printed"))
            }
        } else {
            let notes = document.waypoints.map { noteInput(from: $0, file: read.name) }
            assembled = assembleBook(title: name, route: route, notes: notes, settings: settings, offRoute: offRoute)
        }
        assembled.book.id = Book.derivedID(from: try BookFile.encode(assembled.book))
        assembled.book.rally = new.rally
        assembled.book.stage = new.stage
        assembled.book.date = new.date
        var outcome = Outcome(book: assembled.book, offRoute: assembled.offRoute, routeLength: assembled.routeLength)
        outcome.closing = assembled.offRoute.map { WorkflowMessage(.warning, $0.foundDescription + Self.fate(of: $0.resolution)) }
        return outcome
    }

    /// What became of a waypoint off the route, as build's warning ends.
    static func fate(of resolution: OffRouteResolution) -> String {
        switch resolution {
        case .move: "; moved onto the route"
        case .remove: "; left out"
        case .keep: "; kept in the book file, not printed"
        }
    }

    /// The turns joined to a new book's waypoints (`TurnJoiner`, in the book's language); a person's
    /// words are printed as written, and where they contradict the road the organiser is told. A
    /// carried book's own turn rows stay: a turn found where one already is is not added again.
    func joinWaypoints(_ found: FoundTurns, carried: Bool, to book: inout Book, log: any WorkflowLog) {
        guard found.source != "none" else { return }
        let joiner = TurnJoiner(instructions: Instructions(language: book.settings.language))
        var maneuvers = found.maneuvers
        if carried {
            let turns = book.notes.filter { $0.kind == .turn || $0.generated != nil }.map(\.distanceAlong)
            maneuvers.removeAll { m in turns.contains { abs($0 - m.distanceAlong) <= joiner.configuration.joinDistance } }
        }
        let joined = joiner.joinReporting(maneuvers, into: book.notes)
        book.notes = joined.notes
        for contradiction in joined.contradictions { log.record(WorkflowMessage(.warning, contradiction.description)) }
    }

    // MARK: A changed route (regenerate)

    /// Every note onto the changed route and its turns regenerated (`Regenerator`, in the book's
    /// language: a generated turn's words are written again in it, a person's never); a turn a person
    /// deleted stays deleted (the book's tombstones). The route now comes from the file, not from
    /// handles: a plan kept would bring the old route back at the next --retry or Apply, so it goes
    /// (`roadbook handles` traces the new one when asked).
    func moveNotes(onto route: Route, joining found: FoundTurns, _ outcome: inout Outcome) {
        let regenerator = Regenerator(joiner: TurnJoiner(instructions: Instructions(language: outcome.book.settings.language)))
        var (book, report) = regenerator.regenerate(outcome.book, route: route, maneuvers: found.maneuvers)
        _ = regenerator.keepDeleted(&book, added: &report.added, deleted: outcome.book.deletedNotes ?? [])
        book.settings.travelMode = turns.mode == .drive ? nil : turns.mode
        if book.plan != nil {
            book.plan = nil
            outcome.planDropped = true
            // Rows of handle notes become notes of their own, placed by position: with no handles
            // left, a later plan's handle that happens to reuse an id must not claim (or remove) them,
            // nor be kept from its own note by an old tombstone.
            for i in book.notes.indices { book.notes[i].handleID = nil }
            if let deleted = book.deletedNotes { book.deletedNotes = deleted.map { var d = $0; d.handleID = nil; return d } }
        }
        outcome.book = book
        outcome.regeneration = report
    }

    // MARK: A drawing applied (apply)

    /// The turns joined and the notes resolved for an Apply (`ApplyWorkflow.join`); its warnings
    /// (words changed in two places, notes that contradict their turn, legs drawn straight) are said
    /// last, each once: the report's lines do not repeat them.
    func joinApplied(_ found: FoundTurns, placement: ApplyWorkflow.Placement, route: Route, options: ApplyOptions,
                     _ outcome: inout Outcome) {
        var placement = placement
        placement.report.turnSource = found.source
        (outcome.book, outcome.applied) = ApplyWorkflow.joinChoosing(found.maneuvers, to: placement, of: outcome.book, route: route,
                                                                     editor: drawing, options: options)
        let applied = outcome.applied
        outcome.closing = applied.notices.map { WorkflowMessage(.warning, $0) }
            + applied.turns.contradictions.map { WorkflowMessage(.warning, $0.description) }
            + applied.straight.map { stretch in
                WorkflowMessage(.warning, String(format: "leg %d is straight (%@), %.2f–%.2f km", stretch.leg,
                    stretch.reason == .noRoad ? "no road" : "used straight while waiting", stretch.start / 1000, stretch.end / 1000))
            }
    }
}
