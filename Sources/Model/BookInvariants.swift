import Foundation
import Geo

/// A rule every saved book keeps, whatever made it: checked before each save, so a book that breaks
/// one is never written (`Book.checkInvariants()`). The ranges of single values are
/// `Book.validate()`'s; these are the rules between notes.
public enum BookInvariant: String, Sendable, CaseIterable {
    /// Two notes never share an id: undo, tombstones and handle links find notes by id.
    case uniqueNoteIDs = "unique note ids"
    /// One note is one row: two notes of the same kind, words, marker and waypoint type on one
    /// spot at one distance along the route, or two rows of one handle, are one note printed twice.
    case oneNotePerSource = "one note per source and place"
    /// Notes stand in the order the rider reaches them, so each row's partial distance is the
    /// distance from the row printed before it.
    case distanceOrder = "notes in distance order"
    /// A row made from a handle note points to a handle of the book's route (`Note.handleID`):
    /// Apply places it where the route reaches that handle.
    case handleNotesHaveHandles = "handle notes point to existing handles"
    /// A special stage opens at a DSS and closes at an ASS: two starts, or two finishes, in a row
    /// along the route leave a stage without its start or its finish.
    case stagesAlternate = "DSS and ASS alternate along the route"
}

/// A book that breaks an invariant: which one and the rows that break it, in words that name them
/// as `roadbook inspect` numbers them.
public struct BookInvariantError: Error, Sendable, Equatable, CustomStringConvertible {
    public var invariant: BookInvariant
    /// The notes at fault, by index in `Book.notes` (0-based).
    public var notes: [Int]
    /// What is wrong, naming the rows.
    public var problem: String

    public init(_ invariant: BookInvariant, notes: [Int], _ problem: String) {
        self.invariant = invariant
        self.notes = notes
        self.problem = problem
    }

    /// "the book breaks the rule 'one note per source and place': rows 5 and 19 …".
    public var description: String { "the book breaks the rule '\(invariant.rawValue)': \(problem)" }
}

extension Book {
    /// Thresholds of the invariants, each with its reason.
    public enum InvariantLimits {
        /// Two copies of one note stand within this of each other along the route: a note placed
        /// twice lands on the same metre, while two real notes a rider must read apart are tens of
        /// metres apart.
        public static let samePlace: Metres = 1
        /// Distances may step back by this much and still be in order: placing notes rounds to
        /// millimetres.
        public static let orderTolerance: Metres = 0.01
    }

    /// Checks the rules between notes that every saved book keeps (`BookInvariant`), in the order
    /// the cases are declared.
    /// - Throws: `BookInvariantError` for the first rule broken, naming the rows.
    /// - Complexity: O(n log n) in the notes.
    public func checkInvariants() throws(BookInvariantError) {
        for invariant in BookInvariant.allCases {
            if let error = violation(of: invariant) { throw error }
        }
    }

    /// The first breach of `invariant`, or nil when the book keeps it.
    public func violation(of invariant: BookInvariant) -> BookInvariantError? {
        switch invariant {
        case .uniqueNoteIDs: duplicateID()
        case .oneNotePerSource: duplicateNote()
        case .distanceOrder: outOfOrder()
        case .handleNotesHaveHandles: orphanHandleNote()
        case .stagesAlternate: stagesOutOfTurn()
        }
    }

    /// "row 5 (#7 R2 'Bear left onto CG-1' at 2.74 km)": the row as the page prints it and `inspect`
    /// and `note` number it (notes on the route, from 1); a note off the route, which no page
    /// prints, is "the note off the route (#9 'Well' at 3.74 km)".
    /// - Complexity: O(index).
    public func rowName(_ index: Int) -> String {
        let note = notes[index]
        let words = [note.marker, "'\(note.text.count > 60 ? note.text.prefix(57) + "…" : note.text)'"].compactMap { $0 }
        let detail = String(format: "(#%d %@ at %.2f km)", note.id, words.joined(separator: " "), note.distanceAlong / 1000)
        guard let row = printedRow(of: index) else { return "the note off the route " + detail }
        return "row \(row) " + detail
    }

    /// The row number the page prints for the note at `index`, from 1, or nil for a note off the
    /// route (kept in the book, not printed). O(index).
    public func printedRow(of index: Int) -> Int? {
        guard notes[index].placement == .onRoute else { return nil }
        return notes[..<index].reduce(1) { $0 + ($1.placement == .onRoute ? 1 : 0) }
    }

    private func duplicateID() -> BookInvariantError? {
        var first: [Int: Int] = [:]
        for (i, note) in notes.enumerated() {
            if let j = first[note.id] {
                return BookInvariantError(.uniqueNoteIDs, notes: [j, i], "\(rowName(j)) and \(rowName(i)) have one id")
            }
            first[note.id] = i
        }
        return nil
    }

    private func duplicateNote() -> BookInvariantError? {
        var byHandle: [Int: Int] = [:]
        for (i, note) in notes.enumerated() {
            guard let handle = note.handleID else { continue }
            if let j = byHandle[handle] {
                return BookInvariantError(.oneNotePerSource, notes: [j, i],
                                          "\(rowName(j)) and \(rowName(i)) are both rows of handle \(handle)")
            }
            byHandle[handle] = i
        }
        // One source twice: the same kind, words, marker and type, standing on the same spot
        // (coordinates to about a metre) at the same distance along. Hashed, so a book of
        // thousands of notes sharing their words is checked in linear time.
        struct Source: Hashable {
            var kind: Note.Kind, text: String, marker: String?, type: WaypointType?, placement: Note.Placement
            var latitude: Int64, longitude: Int64
        }
        var seen: [Source: [Int]] = [:]
        for (i, note) in notes.enumerated() {
            let key = Source(kind: note.kind, text: note.text, marker: note.marker, type: note.waypointType, placement: note.placement,
                             latitude: Int64((note.coordinate.latitude * 1e5).rounded()),
                             longitude: Int64((note.coordinate.longitude * 1e5).rounded()))
            if let j = seen[key]?.first(where: { abs(notes[$0].distanceAlong - note.distanceAlong) <= InvariantLimits.samePlace }) {
                return BookInvariantError(.oneNotePerSource, notes: [j, i], "\(rowName(j)) and \(rowName(i)) are one note printed twice")
            }
            seen[key, default: []].append(i)
        }
        return nil
    }

    private func outOfOrder() -> BookInvariantError? {
        // Rows are the notes on the route; a note off it keeps the distance of its nearest place
        // and is not printed, so it may stand anywhere.
        var previous: Int?
        for (i, note) in notes.enumerated() where note.placement == .onRoute {
            if let p = previous, note.distanceAlong < notes[p].distanceAlong - InvariantLimits.orderTolerance {
                return BookInvariantError(.distanceOrder, notes: [p, i], "\(rowName(p)) stands before \(rowName(i))")
            }
            previous = i
        }
        return nil
    }

    private func orphanHandleNote() -> BookInvariantError? {
        let handles = Set((plan?.handles ?? []).map(\.id))
        guard let i = notes.firstIndex(where: { $0.handleID.map { !handles.contains($0) } ?? false }) else { return nil }
        let id = notes[i].handleID ?? 0
        let has = plan.map { "its route has handles \($0.handles.map { String($0.id) }.joined(separator: ", "))" } ?? "the book has no handles"
        return BookInvariantError(.handleNotesHaveHandles, notes: [i], "\(rowName(i)) is the row of handle \(id), and \(has)")
    }

    private func stagesOutOfTurn() -> BookInvariantError? {
        var last: Int?
        for (i, note) in notes.enumerated() where note.placement == .onRoute {
            guard let type = note.waypointType, type == .dss || type == .ass else { continue }
            if let l = last, notes[l].waypointType == type {
                let what = type == .dss ? "two starts (DSS) with no finish (ASS) between" : "two finishes (ASS) with no start (DSS) between"
                return BookInvariantError(.stagesAlternate, notes: [l, i], "\(rowName(l)) and \(rowName(i)) are \(what)")
            }
            last = i
        }
        return nil
    }
}
