import AtomicFile
import BookAssembly
import Foundation
import Formats
import Geo
import Guidance
import Model
import OSM
import RouteEditing

/// How an Apply treats what the new route changes.
public struct ApplyOptions: Sendable {
    /// Which generated turn notes the new route gets.
    public enum Turns: String, CaseIterable, Sendable {
        /// A book with generated turn notes has them regenerated (as `all`); a book without any yet
        /// is asked whether to add the new route's (`confirmTurns`, with how many), and gets none
        /// unless the answer is yes.
        case ask
        /// Turn notes added or regenerated, with their tulips.
        case all
        /// Turn notes added or regenerated, without generated tulips (tulips a person drew stay).
        case addWithoutTulips = "add-without-tulips"
        /// No generated turns: unedited turn rows go, rows a person wrote in stay.
        case none
        /// The book's own choice (`ApplyOptions.turns(for:)`): none for a book that keeps no turn
        /// notes, else `ask`. Not a word of the command line: what it does without `--turns`.
        case fromBook = "book"

        /// `all`'s former name, still read.
        public static let add = Turns.all

        /// The choices a person gives (`fromBook` is what giving none means).
        public static var allCases: [Turns] { [.ask, .all, .addWithoutTulips, .none] }
    }

    /// What becomes of every note the new route no longer passes, without a resolution of its own.
    public var offRoute: OffRouteResolution
    /// Per note, by id: overrides `offRoute`.
    public var resolutions: [Int: OffRouteResolution]
    /// The turn notes asked for, or `fromBook` for the book's own choice (`turns(for:)`). A choice
    /// given other than `ask` is remembered in the book (`BookSettings.noTurnNotes`).
    public var turns: Turns
    /// Asked, with the number of turn notes the Apply would add, whether to add them: when the choice
    /// is `ask` and the book has no generated turn notes yet. Nil answers no.
    public var confirmTurns: (@Sendable (Int) -> Bool)?
    /// Apply although legs wait for the engine: they are drawn straight and marked so.
    public var useStraight: Bool
    /// An OpenStreetMap extract the turns are read from; without it the engine's junctions, else the shape.
    public var osm: URL?
    /// Heights for the new route; empty to drop the old route's heights (with a notice).
    public var terrain: TerrainRequest
    /// The language the book prints in from now on, its generated turn words written again in it
    /// (a person's never); nil for the book's own (`BookSettings.language`).
    public var language: BookLanguage?

    public init(offRoute: OffRouteResolution = .keep, resolutions: [Int: OffRouteResolution] = [:], turns: Turns = .all,
                useStraight: Bool = false, osm: URL? = nil, terrain: TerrainRequest = TerrainRequest()) {
        self.offRoute = offRoute
        self.resolutions = resolutions
        self.turns = turns
        self.useStraight = useStraight
        self.osm = osm
        self.terrain = terrain
    }

    /// The turn notes an Apply to `book` makes: those asked for, else none for a book that keeps no
    /// turn notes (`BookSettings.noTurnNotes`), else `ask`.
    public func turns(for book: Book) -> Turns {
        turns != .fromBook ? turns : book.settings.noTurnNotes == true ? .none : .ask
    }
}

/// What an Apply did to the book, for the organiser to read.
public struct ApplyReport: Sendable, Equatable {
    /// Notes (not generated turn rows) whose place along the route changed.
    public var moved = 0
    /// Notes the new route no longer passes, each with its resolution.
    public var offRoute: [OffRouteNote] = []
    /// The turn notes brought onto the new route (see `RegenerationReport`).
    public var turns = RegenerationReport()
    /// Where the turns were read from: `map`, `engine`, `shape`, or `none`.
    public var turnSource = "none"
    /// Handle notes that became rows, and rows whose handle or handle note is gone.
    public var handleNotesAdded = 0
    public var handleNotesRemoved = 0
    /// Rows whose words were taken from the handle note (changed there since the last Apply).
    public var wordsFromHandles = 0
    /// Deleted notes (handle rows and generated turns) not brought back.
    public var stayedDeleted = 0
    /// Turn notes the new route has that were offered and not added (`ApplyOptions.Turns.ask`
    /// answered no, or with nobody to answer).
    public var turnsNotAdded = 0
    /// Notes found deleted by hand since the last Apply, recorded so they stay deleted.
    public var newlyDeleted: [DeletedNote] = []
    /// Road legs drawn straight.
    public var straight: [StraightStretch] = []
    /// Warnings that are not counts (words changed in two places, terrain dropped), each also
    /// recorded once in the Apply's log: a caller that prints the log need not print these.
    public var notices: [String] = []

    /// One line: "3 notes moved, 1 off the route kept, 4 turns regenerated, 2 words kept although
    /// the turn changed". Parts that are zero are left out.
    public var summary: String {
        func count(_ n: Int, _ one: String, _ many: String) -> String? { n == 0 ? nil : "\(n) \(n == 1 ? one : many)" }
        let byResolution = { (r: OffRouteResolution) in self.offRoute.filter { $0.resolution == r }.count }
        let regenerated = turns.changed.count + turns.added.count
        let parts = [
            count(moved, "note moved", "notes moved"),
            count(byResolution(.keep), "off the route kept", "off the route kept"),
            count(byResolution(.move), "off the route moved onto it", "off the route moved onto it"),
            count(byResolution(.remove), "off the route removed", "off the route removed"),
            count(regenerated, "turn regenerated", "turns regenerated"),
            count(turns.removed.count, "turn removed", "turns removed"),
            count(turns.joined.count, "turn joined a note nearby", "turns joined notes nearby"),
            count(turns.changed.filter { $0.wordsKept }.count, "words kept although the turn changed",
                  "words kept although the turn changed"),
            count(turns.contradictions.count, "note contradicts its turn", "notes contradict their turns"),
            count(handleNotesAdded, "handle note added", "handle notes added"),
            count(handleNotesRemoved, "handle note removed", "handle notes removed"),
            count(wordsFromHandles, "note took its handle's words", "notes took their handle's words"),
            count(stayedDeleted, "deleted note stays deleted", "deleted notes stay deleted"),
            count(turnsNotAdded, "turn note not added", "turn notes not added"),
            count(straight.count, "leg straight", "legs straight"),
        ].compactMap { $0 }
        return parts.isEmpty ? "route applied; no note changed" : parts.joined(separator: ", ")
    }
}

/// What removing the route did.
public struct RemoveRouteReport: Sendable, Equatable {
    /// Generated turn rows that went.
    public var turnsRemoved = 0
    /// Rows made from handle notes that went.
    public var handleNotesRemoved = 0
    /// Notes that stay: typed, checkpoints and other imported waypoints.
    public var kept = 0

    /// "route removed: 12 turns and 3 handle notes went, 5 notes stay".
    public var summary: String {
        "route removed: \(turnsRemoved) turn\(turnsRemoved == 1 ? "" : "s") and \(handleNotesRemoved) handle note\(handleNotesRemoved == 1 ? "" : "s") went, \(kept) note\(kept == 1 ? "" : "s") stay\(kept == 1 ? "s" : "")"
    }
}

/// Apply (the route of a plan replaces the book's route and every note is brought along), undo
/// of the last Apply, and removal of the route. The operations on values print nothing and do no
/// I/O; the `…File` operations read and write the book and its undo file (`BeforeApply`).
public enum ApplyWorkflow {
    /// Thresholds of Apply, each with its reason.
    public struct Configuration: Sendable {
        /// A note whose place along the route changed by more than this counts as moved: less is the
        /// rounding of a re-drawn line, not a change a person needs to hear of.
        public var movedDistance: Metres = 1
        /// A handle's row without its link to the handle (books written before the link) is the one
        /// within this of the handle, with the handle note's words: stored coordinates are rounded to
        /// about 1 cm, so 1 m is a wide margin and far below the distance between two rows.
        public var sameHandleDistance: Metres = 1
        public init() {}
    }

    // MARK: Apply

    /// Refuses an Apply while road legs wait for the engine, unless `useStraight`.
    /// - Throws: `WorkflowError` naming the legs.
    public static func checkReady(_ editor: RouteEditor, useStraight: Bool) throws {
        guard editor.plan.handles.count >= 2 else {
            let undo = editor.undoName == "Clear the drawing" ? "; the drawing was cleared: `roadbook handles BOOK undo` brings it back" : ""
            throw WorkflowError("the route needs two handles or more to apply\(undo)")
        }
        let waiting = editor.plan.waitingLegs
        guard !waiting.isEmpty, !useStraight else { return }
        let names = RoutePlan.legNames(waiting)
        throw WorkflowError("leg\(waiting.count == 1 ? "" : "s") \(names) still wait\(waiting.count == 1 ? "s" : "") for the routing engine; ask again, or apply with --use-straight to draw \(waiting.count == 1 ? "it" : "them") straight")
    }

    /// The turns of the editor's route: from the extract's map when one is given, else from the
    /// engine's junctions on the road legs, else from the line's shape.
    /// - Throws: the map's errors.
    /// - Parameter drivingSide: the side traffic keeps to, for small roundabouts read from the shape;
    ///   nil for the map's (see `RouteTurns.maneuvers`), else the right.
    /// - Returns: the turns, where they come from, and with a map how its roundabouts turn (for the
    ///   side traffic keeps to, `settleDrivingSide`).
    /// - Parameter log: where a prepared graph made again is noted.
    public static func maneuvers(for editor: RouteEditor, options: ApplyOptions, drivingSide: DrivingSide? = nil,
                                 log: (any WorkflowLog)? = nil) throws -> FoundTurns {
        try TurnReading.of(editor, map: options.osm, turns: options.turns != .none)
            .find(along: editor.line(), drivingSide: drivingSide, log: log)
    }

    /// The book with the editor's route applied, without terrain (the route's points carry no
    /// heights; see `apply(book:editor:options:lastWritten:log:)` for the heights).
    ///
    /// The route and its plan replace the book's; each handle note is a row exactly where the route
    /// reaches its handle (its words the latest of the handle's and the row's); every other note is
    /// placed on the new route by its position; notes off the route are resolved as `options` say;
    /// generated turns are regenerated (`Regenerator`): words a person typed and tulips a person drew
    /// never change. A deleted note (a tombstone in `deletedNotes`, a handle row missing from the
    /// book, or a note of `lastWritten` missing from it) is not brought back.
    /// - Parameters:
    ///   - lastWritten: the notes the last Apply wrote (from its undo file), to find deletions.
    ///   - maneuvers: the new route's turns (`maneuvers(for:options:)`).
    /// - Throws: `WorkflowError` while legs wait (see `checkReady`).
    /// - Complexity: O(notes × maneuvers + handles × notes) plus locating the notes.
    public static func apply(book: Book, editor: RouteEditor, options: ApplyOptions, maneuvers: [Maneuver],
                             turnSource: String = "none", lastWritten: [DeletedNote] = [],
                             configuration: Configuration = Configuration()) throws -> (book: Book, report: ApplyReport) {
        try checkReady(editor, useStraight: options.useStraight)
        var placement = place(book: book, editor: editor, lastWritten: lastWritten, configuration: configuration)
        placement.report.turnSource = turnSource
        let route = route(of: editor, replacing: book, report: &placement.report)
        return joinChoosing(maneuvers, to: placement, of: book, route: route, editor: editor, options: options,
                            configuration: configuration)
    }

    /// The words of a handle's row after an Apply: the handle note's when only the handle's were
    /// changed since the last Apply, the row's when only the row's were, and when both were, the
    /// later edit (`wordsEdited`; an edit without a time counts as older). Without a time on either,
    /// the row's words, with a notice.
    static func latestWords(base: HandleNote?, handle: HandleNote, row: Note, report: inout ApplyReport,
                            handleNumber: Int) -> HandleNote {
        let rowWords = HandleNote(text: row.text, marker: row.marker, wordsEdited: row.wordsEdited)
        if handle.text == row.text && handle.marker == row.marker { return rowWords.wordsEdited == nil ? handle : rowWords }
        let handleChanged = base.map { $0.text != handle.text || $0.marker != handle.marker } ?? true
        let rowChanged = base.map { $0.text != row.text || $0.marker != row.marker } ?? true
        if handleChanged && !rowChanged { return handle }
        if rowChanged && !handleChanged { return rowWords }
        let formatter = ISO8601DateFormatter()
        let handleTime = handle.wordsEdited.flatMap(formatter.date(from:))
        let rowTime = row.wordsEdited.flatMap(formatter.date(from:))
        switch (handleTime, rowTime) {
        case (let h?, let r?) where h > r: return handle
        case (_?, nil): return handle
        case (nil, nil):
            report.notices.append("handle \(handleNumber)'s note was changed on the handle and in the book; the book's words '\(row.text)' are kept")
            return rowWords
        default: return rowWords
        }
    }

    /// `apply(book:editor:options:maneuvers:…)` with the turns read as `options` say and the heights
    /// fetched for the new route, or the old heights dropped with a notice: `BookPipeline.apply`,
    /// nothing written.
    /// - Throws: `WorkflowError`, the map's and the terrain sources' errors.
    public static func apply(book: Book, editor: RouteEditor, options: ApplyOptions, lastWritten: [DeletedNote] = [],
                             log: any WorkflowLog) async throws -> (book: Book, report: ApplyReport) {
        let applied = try await BookPipeline.apply(editor, to: book, options: options, lastWritten: lastWritten, commit: nil)
            .run(log: log)
        return (applied.book, applied.applied)
    }

    /// Applies `editor` to the book file at `url` and writes the result to `output` (or over `url`),
    /// as a step of the book's journal (`BookPipeline.apply`); the book is read under its lock.
    /// - Parameters:
    ///   - force: replace the book and its journal although they are read-only.
    ///   - name: the step's name; nil for "Apply the drawing (N handles, X km)".
    ///   - draft: the drawing's bytes before and after, when the Apply ends or changes it.
    /// - Throws: `WorkflowError`, `FormatError`, the map's and the terrain sources' errors.
    public static func applyFile(_ url: URL, editor: RouteEditor, options: ApplyOptions, output: URL? = nil,
                                 force: Bool = false, name: String? = nil, draft: (before: Data?, after: Data?)? = nil,
                                 log: any WorkflowLog) async throws -> ApplyReport {
        let target = output ?? url
        try checkApplyOutputs(book: url, target: target, options: options, force: force)
        return try await BookLock.hold(url) {
            let read = try BookRead(url)
            let lastWritten = read.journal.lastApply?.step.written ?? previousUndo(of: url, log: log)?.written ?? []
            let step = name ?? "Apply the drawing (\(editor.plan.handles.count) handles, "
                + String(format: "%.2f km)", editor.totals.distance / 1000)
            let change = JournalledChange(read: read, name: step, kind: .apply, draft: draft)
            var book = read.book
            if let language = options.language {
                let reworded = rewordBook(book, in: language)
                book = reworded.book
                if let message = reworded.unrecognisedMessage(file: url) { log.record(WorkflowMessage(.warning, message)) }
            }
            let applied = try await BookPipeline.apply(editor, to: book, options: options, lastWritten: lastWritten,
                                                       commit: BookCommit(book: target, journal: change)).run(log: log)
            return applied.applied
        }
    }

    /// The turn notes a book drawn from handles was given when it was made (`assembleRouteBook`:
    /// the turns at its road legs' junctions), each as the tombstone it becomes once deleted; a
    /// turn the book still has (a generated note within `Regenerator`'s same-junction distance) is
    /// given that note's id, one it lacks an id no note has. Empty for a book without a plan or
    /// without any generated note (made with no turn notes).
    static func turnsFromPlan(of book: Book) -> [DeletedNote] {
        guard let plan = book.plan, book.notes.contains(where: { $0.generated != nil }) else { return [] }
        let reach = Regenerator().configuration.sameJunctionDistance
        var unused = book.nextNoteID
        return TurnDetector().maneuvers(in: RouteEditor(plan: plan).geometry()).map { turn in
            let id = book.notes.first { $0.generated != nil && $0.coordinate.distance(to: turn.coordinate) <= reach }?.id
            defer { if id == nil { unused += 1 } }
            return DeletedNote(id: id ?? unused, kind: .turn, coordinate: turn.coordinate)
        }
    }

    /// The undo file an Apply of an earlier roadbook left beside `url` (`BOOK.before-apply.json`),
    /// when it reads: the notes it wrote, for a book whose journal has no Apply yet. One that does
    /// not read is ignored with a warning.
    static func previousUndo(of url: URL, log: any WorkflowLog) -> BeforeApply? {
        let location = BeforeApply.location(of: url)
        guard FileName.exists(location.path) else { return nil }
        do { return try BeforeApplyFile.read(contentsOf: location) } catch {
            log.record(WorkflowMessage(.warning, "\(error); notes deleted by hand since the last Apply are not known"))
            return nil
        }
    }

    /// `checkBookOutputs` for an Apply of the drawing beside `book` written to `target`: the drawing,
    /// the map and the terrain files are read too. An Apply a killed run left half written is
    /// finished first.
    static func checkApplyOutputs(book: URL, target: URL, options: ApplyOptions, force: Bool) throws {
        let inputs = [RunInput(RouteDraft.url(for: book), "the drawing it applies")] + RunInput.extract(options.osm)
            + RunInput.terrain(options.terrain)
        try checkBookOutputs(book: book, target: target, inputs: inputs, graph: options.osm, force: force)
    }

    /// `checkOutputs` for an operation that writes `target` (the book read from `book`, or a new
    /// version of it elsewhere) and its journal, reading the book and `inputs`.
    static func checkBookOutputs(book: URL, target: URL, inputs: [RunInput], graph: URL? = nil, force: Bool) throws {
        let journal = BookJournal.location(of: book)
        try checkOutputs([RunOutput(target, .edit(of: book), holdsBook: true), RunOutput(BookJournal.location(of: target), .edit(of: journal))]
                             + RunOutput.preparedGraph(graph),
                         inputs: [RunInput(book, "the book it reads"), RunInput(journal, "the journal of the book it reads")] + inputs,
                         force: force)
    }

    // MARK: Undo

    /// Puts back the book as it was before the last Apply or removal of the route, and forgets the
    /// undo: the next undo has nothing to undo.
    /// - Returns: one line saying what came back.
    /// - Throws: `WorkflowError` in one line when there is nothing to undo or the book was changed
    ///   since (its bytes differ from what the operation wrote); `FormatError` for an undo file that
    ///   does not read.
    public static func undoApply(_ url: URL, force: Bool = false) throws -> String {
        // The journal, unless it is empty and an earlier roadbook's undo file is there; a journal that
        // does not read is refused as such, not taken for "nothing to undo".
        if try !FileName.exists(BeforeApply.location(of: url).path) || !BookHistory.steps(of: url).undo.isEmpty {
            let undone = try BookHistory.undo(url, routeOnly: true, force: force)
            return "undone: \(undone.name)"
        }
        let location = BeforeApply.location(of: url)
        // First, so an Apply killed between its two renames is finished before its undo file is looked for.
        try checkOutputs([RunOutput(url, .edit(of: url))], inputs: [RunInput(location, "the undo file it reads")], force: force)
        guard FileName.exists(location.path) else {
            throw WorkflowError("\(url.path): nothing to undo: no Apply or remove-route since the last undo (\(location.lastPathComponent) is absent)")
        }
        let record = try BeforeApplyFile.read(contentsOf: location)
        let current = try InputFileBytes.read(url)
        guard BeforeApply.digest(of: current) == record.bookDigest else {
            throw WorkflowError("\(url.path): changed since the last \(record.operation == .apply ? "Apply" : "remove-route") (not the book it wrote); undo-apply would lose that change, so it is refused — delete \(location.lastPathComponent) to forget the undo")
        }
        try BookFile.write(record.previous, to: url)
        try? FileManager.default.removeItem(at: location)
        let notes = record.previous.notes.count
        return "undone: the route (\(String(format: "%.2f km", Polyline(record.previous.route.coordinates).length / 1000))), \(notes) note\(notes == 1 ? "" : "s") and \(record.previous.profile == nil ? "no terrain" : "the terrain") are back as before the last \(record.operation == .apply ? "Apply" : "remove-route")"
    }

    // MARK: Remove the route

    /// The book without its route: generated turn rows and rows made from handle notes go; notes a
    /// person typed, checkpoints and other imported waypoints (a waypoint type) stay. A turn row whose
    /// words a person changed stays as their note. A book needs a line, so the route becomes a
    /// straight line through the notes that stay (or from the old start to the old end when fewer
    /// than two places stay), marked straight; the plan and the terrain go.
    public static func removeRoute(_ book: Book) -> (book: Book, report: RemoveRouteReport) {
        var report = RemoveRouteReport()
        var kept: [Note] = []
        let handleIDs = Set((book.plan?.handles ?? []).compactMap { $0.note == nil ? nil : $0.id })
        for var note in book.notes {
            let imported = note.kind == .checkpoint || note.waypointType != nil
            let wordsEdited = note.generated.map { $0.text != note.text } ?? false
            if note.kind == .turn && !wordsEdited && !imported {
                report.turnsRemoved += 1
                continue
            }
            let fromHandle = note.handleID.map(handleIDs.contains) ?? false
                || (note.handleID == nil && book.plan?.handles.contains {
                    $0.note?.text == note.text && $0.coordinate.distance(to: note.coordinate) <= Configuration().sameHandleDistance
                } == true)
            if fromHandle && !imported {
                report.handleNotesRemoved += 1
                continue
            }
            note.handleID = nil
            note.generated = nil
            if note.tulip?.origin == .generated { note.tulip = nil }
            note.elevation = nil
            if note.kind == .turn { note.kind = .typed }
            kept.append(note)
        }
        report.kept = kept.count
        var line: [Coordinate] = []
        for note in kept where line.last != note.coordinate { line.append(note.coordinate) }
        if Polyline(line).length <= 0, let first = book.route.points.first?.coordinate, let last = book.route.points.last?.coordinate {
            line = [first, last]
        }
        let polyline = Polyline(line)
        var result = book
        result.route = Route(source: "no route: removed", points: line.map { RoutePoint(coordinate: $0) },
                             straightStretches: [StraightStretch(start: 0, end: polyline.length, reason: .removed, leg: 1)])
        result.plan = nil
        result.profile = nil
        var k = 0
        result.notes = kept.map { note in
            var note = note
            while k < line.count - 1 && line[k] != note.coordinate { k += 1 }
            note.distanceAlong = line[k] == note.coordinate ? polyline.cumulativeDistances[k] : 0
            note.offsetFromRoute = 0
            note.placement = .onRoute
            return note
        }
        return (result, report)
    }

    /// Removes the route of the book file at `url`, written to `output` (or over `url`) with its undo
    /// file; `force` replaces them although they are read-only (`BookPipeline.removeRoute`).
    /// - Returns: the report.
    public static func removeRouteFile(_ url: URL, output: URL? = nil, force: Bool = false) async throws -> RemoveRouteReport {
        let target = output ?? url
        try checkBookOutputs(book: url, target: target, inputs: [], force: force)
        return try await BookLock.hold(url) {
            let read = try BookRead(url)
            let change = JournalledChange(read: read, name: "Remove the route from the book", kind: .removeRoute)
            // No stage of it reads a map or fetches heights: nothing waits, and nothing is said.
            return try await BookPipeline.removeRoute(of: read.book, commit: BookCommit(book: target, journal: change))
                .run(log: MessageList()).removal
        }
    }
}

/// The bytes of a book file as they are, for its digest.
enum InputFileBytes {
    static func read(_ url: URL) throws -> Data {
        do { return try Data(contentsOf: url) } catch {
            throw WorkflowError("\(url.path): cannot read the book")
        }
    }
}
