import Foundation
import Geo
import Guidance
import Model

/// What regeneration did to a book, for the organiser to read.
public struct RegenerationReport: Sendable, Equatable {
    /// A generated note whose turn changed under it.
    public struct Change: Sendable, Equatable {
        public var id: Int
        /// The generated words before and after. When `wordsKept`, a person had edited the printed
        /// words and they stay as they were.
        public var before: String
        public var after: String
        public var wordsKept: Bool
        public var distanceAlong: Metres
    }

    /// Generated notes that no longer described the road, regenerated.
    public var changed: [Change] = []
    /// Generated turn rows whose turn is gone from the new road, removed (nobody had edited them).
    public var removed: [Note] = []
    /// Notes whose turn is gone but which a person had edited: kept, without the generated tulip.
    public var keptWithoutTurn: [Note] = []
    /// New turn rows (or turns joined into existing notes) on the new road.
    public var added: [Note] = []
    /// Generated tulips drawn again from the new road that came out different (new rows' included).
    public var tulipsRedrawn = 0
    /// Tulips drawn by a person, left as they were.
    public var drawnTulipsKept = 0
    /// Notes whose tulip a person drew (or changed) at a junction the new road changed, or left:
    /// their drawing stays, and the organiser should check it.
    public var drawnTulipsToCheck: [Note] = []
    /// Notes that no longer lie on the route: kept, off it. A generated turn row off the route is
    /// removed with its turn (`removed`), never listed here too.
    public var offRoute: [OffRouteNote] = []
    /// Notes whose own words contradict the turn now generated at their junction (their words stay).
    public var contradictions: [JoinContradiction] = []
    /// Generated turn rows that gave their turn to a person's note nearby: the turn joined the note
    /// (one place on the road, one row) and the row went.
    public var joined: [Joined] = []

    /// A generated turn row whose turn joined a person's note.
    public struct Joined: Sendable, Equatable {
        /// The row that went.
        public var turn: Note
        /// The note that took its turn, as it now is.
        public var note: Note
    }

    /// An empty report.
    public init() {}

    /// Nothing changed in what the book says.
    public var isEmpty: Bool {
        changed.isEmpty && removed.isEmpty && keptWithoutTurn.isEmpty && added.isEmpty && offRoute.isEmpty && joined.isEmpty
    }
}

/// Brings a book with generated turn notes onto a changed route: every note is placed on the new
/// route, the generated notes that no longer describe the road are regenerated, every tulip that was
/// generated is redrawn from the new road, and nothing a person wrote or drew is changed: a tulip
/// generated from the road belongs to the road and follows it, a tulip a person drew is theirs and
/// stays as drawn.
public struct Regenerator: Sendable {
    /// Thresholds of regeneration, each with its reason.
    public struct Configuration: Sendable, Equatable {
        /// A generated note and a turn on the new road this close along the route (metres) are the
        /// same junction: about the size of a junction plus GPS error.
        public var sameJunctionDistance: Metres = 30
        public init() {}
    }

    public var configuration: Configuration
    public var joiner: TurnJoiner

    public init(configuration: Configuration = Configuration(), joiner: TurnJoiner = TurnJoiner()) {
        self.configuration = configuration
        self.joiner = joiner
    }

    /// Takes out of `book` the turn notes among `added` that stand at a deleted turn's junction
    /// (a `deletedNotes` tombstone of kind turn, within `sameJunctionDistance`): a turn a person
    /// deleted stays deleted whatever regenerates the book. `added` keeps the others.
    /// - Returns: how many stayed deleted.
    public func keepDeleted(_ book: inout Book, added: inout [Note], deleted: [DeletedNote]) -> Int {
        let deletedTurns = deleted.filter { $0.kind == .turn }
        guard !deletedTurns.isEmpty else { return 0 }
        let again = Set(added.filter { note in
            note.kind == .turn && deletedTurns.contains {
                $0.coordinate.distance(to: note.coordinate) <= configuration.sameJunctionDistance
            }
        }.map(\.id))
        book.notes.removeAll { again.contains($0.id) }
        added.removeAll { again.contains($0.id) }
        return again.count
    }

    /// The book on `route` with its turn notes brought up to date.
    /// - Parameters:
    ///   - book: the book as it was, with its generated notes.
    ///   - route: the changed route.
    ///   - maneuvers: the turns of the changed route (from its junctions, or its track geometry).
    ///   - firstID: new turn rows get ids from here on, or past the book's (`Book.nextNoteID`) when
    ///     that is higher: a caller that took notes out of the book passes the ids it had, so none is reused.
    /// - Complexity: O(notes × maneuvers) plus locating the notes.
    public func regenerate(_ book: Book, route: Route, maneuvers: [Maneuver], firstID: Int = 0) -> (book: Book, report: RegenerationReport) {
        var report = RegenerationReport()
        let line = Polyline(route.coordinates)
        let locator = NoteLocator(route: line, configuration: .init(offRouteDistance: book.settings.offRouteDistance))
        let locations = locator.locate(book.notes.map(\.coordinate))

        var notes: [Note] = []
        var used = Set<Int>()   // maneuvers already given to a note
        // Where a person's notes lie on the new route: a turn that close joins one (`TurnJoiner`), on
        // every regeneration, so a generated turn row there gives its turn up and goes.
        let persons = zip(book.notes, locations).compactMap { note, location in
            note.generated == nil && note.kind != .turn && location.isOnRoute ? location.distanceAlong : nil
        }
        var givenUp: [Int: Note] = [:]   // by maneuver, the turn row that gave it up
        for (old, location) in zip(book.notes, locations) {
            var note = old
            note.distanceAlong = location.distanceAlong
            note.offsetFromRoute = location.offsetFromRoute
            if !location.isOnRoute {
                note.placement = .offRoute
                report.offRoute.append(OffRouteNote(id: old.id, text: old.text, marker: old.marker,
                                                    distanceAlong: location.distanceAlong, offset: location.offsetFromRoute,
                                                    resolution: .keep))
            } else {
                note.placement = .onRoute
            }
            if old.cap != nil, old.kind != .turn {
                note.cap = line.heading(atDistance: note.distanceAlong, lookahead: Thresholds.capLookahead)
            }
            guard let previous = old.generated else {
                if old.tulip?.origin == .drawn { report.drawnTulipsKept += 1 }
                notes.append(note)
                continue
            }
            // A person's note keeps its words unless they were blank and the turn's were given it.
            let wordsEdited = old.wordsArePersons
            // The turn on the new road at the same place, if there is one.
            let match = maneuvers.indices.filter { !used.contains($0) && location.isOnRoute
                && abs(maneuvers[$0].distanceAlong - note.distanceAlong) <= configuration.sameJunctionDistance }
                .min { abs(maneuvers[$0].distanceAlong - note.distanceAlong) < abs(maneuvers[$1].distanceAlong - note.distanceAlong) }
            // A turn row nobody touched: it belongs to the road alone.
            let untouched = old.kind == .turn && !wordsEdited && old.tulip?.origin != .drawn && !Self.hasPersonsContent(old)
            if let m = match, untouched,
               persons.contains(where: { abs($0 - maneuvers[m].distanceAlong) <= joiner.configuration.joinDistance }) {
                givenUp[m] = old
                continue
            }
            guard let m = match else {
                if untouched {
                    // Removed, so not also listed as off the route: one note, one line.
                    report.offRoute.removeAll { $0.id == old.id }
                    report.removed.append(old)
                    continue
                }
                note.generated = nil
                if note.tulip?.origin == .generated { note.tulip = nil }
                if note.tulip?.origin == .drawn {
                    report.drawnTulipsKept += 1
                    note.tulipToCheck = true
                    report.drawnTulipsToCheck.append(note)
                }
                report.keptWithoutTurn.append(note)
                notes.append(note)
                continue
            }
            used.insert(m)
            let maneuver = maneuvers[m]
            let (text, tulip, generated) = joiner.describe(maneuver)
            // At a roundabout the exit number is the turn; elsewhere the side and sharpness too.
            let sameTurn = previous.maneuver == generated.maneuver && previous.exitNumber == generated.exitNumber
                && (generated.maneuver == Maneuver.Kind.roundabout.rawValue || previous.modifier == generated.modifier)
            // A row joined to a turn sits at its junction, as `TurnJoiner` places it.
            if old.kind == .turn || TurnJoiner.sitsAtJunction(maneuver) { note.distanceAlong = maneuver.distanceAlong }
            if old.kind == .turn {
                note.coordinate = maneuver.coordinate
                note.offsetFromRoute = 0
                note.cap = maneuver.junctions.last?.exit?.bearing ?? note.cap
            }
            if !wordsEdited { note.text = text }
            if wordsEdited, let conflict = JoinContradiction.conflict(words: note.text, maneuver: maneuver) {
                report.contradictions.append(JoinContradiction(noteID: note.id, marker: note.marker,
                    distanceAlong: note.distanceAlong, words: note.text, generatedText: text, conflict: conflict))
            }
            if !sameTurn {
                // The generated words before and after tell the organiser what changed, even where a
                // person's words stay printed.
                report.changed.append(.init(id: old.id, before: previous.text, after: text, wordsKept: wordsEdited,
                                            distanceAlong: note.distanceAlong))
            }
            if old.tulip?.origin == .drawn {
                report.drawnTulipsKept += 1
                if !sameTurn || !previous.junction.sameRoads(as: generated.junction) {
                    // Kept in the book too, so `roadbook check` names it until a person changes the tulip.
                    note.tulipToCheck = true
                    report.drawnTulipsToCheck.append(note)
                }
            } else {
                // Counted only when it comes out different: the same road draws the same tulip.
                if note.tulip != tulip { report.tulipsRedrawn += 1 }
                note.tulip = tulip
            }
            note.generated = generated
            if old.kind != .turn { note.generated?.wordsGiven = previous.wordsGiven }
            note.generated?.wordsTyped = previous.wordsTyped
            notes.append(note)
        }
        // Turns of the new road that no note describes yet: joined into a note nearby, or new rows.
        let freshIndices = maneuvers.indices.filter { !used.contains($0) }
        let before = Dictionary(uniqueKeysWithValues: notes.map { ($0.id, $0) })
        let joined = joiner.joinReporting(freshIndices.map { maneuvers[$0] }, into: notes, firstID: max(firstID, book.nextNoteID))
        notes = joined.notes
        report.contradictions += joined.contradictions
        let joinedFromRows = Self.settle(givenUp, joined: joined, fresh: freshIndices, maneuvers: maneuvers, notes: &notes,
                                         report: &report)
        for note in notes where note.generated != nil && before[note.id]?.generated == nil && !joinedFromRows.contains(note.id) {
            report.added.append(note)
            report.tulipsRedrawn += note.tulip?.origin == .generated ? 1 : 0
        }
        var result = book
        result.route = route
        result.notes = notes.enumerated().sorted { ($0.element.distanceAlong, $0.offset) < ($1.element.distanceAlong, $1.offset) }
            .map(\.element)
        return (result, report)
    }

    /// The turn rows that gave their turn up (`givenUp`, by maneuver): where the turn joined a
    /// person's note, the row is reported joined to it; where another turn took that note first, the
    /// turn's new row keeps the old row's id, so the row stays the one it was.
    /// - Returns: the ids of the notes the given-up turns joined.
    private static func settle(_ givenUp: [Int: Note], joined: JoinResult, fresh: [Int], maneuvers: [Maneuver],
                               notes: inout [Note], report: inout RegenerationReport) -> Set<Int> {
        var noteOfManeuver: [Int: Int] = [:]
        for (k, id) in joined.joinedNotes { noteOfManeuver[fresh[k]] = id }
        var ids = Set<Int>()
        for (m, row) in givenUp.sorted(by: { $0.key < $1.key }) {
            if let id = noteOfManeuver[m], let note = notes.first(where: { $0.id == id }) {
                report.joined.append(.init(turn: row, note: note))
                ids.insert(id)
            } else if let i = notes.firstIndex(where: { $0.kind == .turn && $0.coordinate == maneuvers[m].coordinate
                                                         && $0.id != row.id && $0.generated != nil }) {
                notes[i].id = row.id
            }
        }
        return ids
    }

    /// A person added something to the note beyond the generated words: a marker, a type, symbols,
    /// a danger level.
    static func hasPersonsContent(_ note: Note) -> Bool {
        note.marker != nil || note.waypointType != nil || !note.symbols.isEmpty || note.danger > 0
    }
}
