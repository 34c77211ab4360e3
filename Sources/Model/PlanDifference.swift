import Foundation
import Geo

/// How a drawing differs from the route of a book's plan: what the drawing's status says ("Not
/// applied yet", with what differs) and what Apply asks (a drawing that is the book's route is
/// nothing to apply). Handles are told apart by their `id`; legs and handles are numbered from 1.
///
/// Only what makes the route counts: the handles (where they were placed, their origin and note,
/// their order), the legs' kinds, strokes and roads in the drawing's mode, and the mode. A handle's
/// name, the kind new legs take, the roads kept for other modes and the engine's name do not.
public struct PlanDifference: Sendable, Equatable {
    /// The book has no plan: its route is a recorded track or a line from a file.
    public var bookHasNoPlan = false
    /// Handles of the drawing the book's plan lacks, by their number in the drawing.
    public var added: [Int] = []
    /// Handles of the book's plan the drawing lacks, by their number in the book's plan.
    public var removed: [Int] = []
    /// Handles in both, placed elsewhere in the drawing, by their number in the drawing.
    public var moved: [Int] = []
    /// Handles in both whose note (words or marker, or the note itself) or origin changed, by their
    /// number in the drawing.
    public var changedNotes: [Int] = []
    /// The handles in both come in another order.
    public var reordered = false
    /// Legs between two handles that are in both, unmoved and neighbours in both, whose kind,
    /// stroke or road changed, by their number in the drawing (leg N runs from handle N to N + 1).
    public var changedLegs: [Int] = []
    /// The drawing's mode, when it is not the book's.
    public var mode: TravelMode?
    /// The book's mode, when the drawing's is another.
    public var bookMode: TravelMode?

    /// No difference: the drawing is the book's route.
    public init() {}

    /// How `drawing` differs from `book` (nil for a book without a plan).
    /// - Complexity: O(h + l·p) for h handles, l legs and p points of a leg's road.
    public init(drawing: RoutePlan, book: RoutePlan?) {
        guard let book else {
            bookHasNoPlan = true
            return
        }
        let bookIndex = Dictionary(book.handles.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        let drawingIDs = Set(drawing.handles.map(\.id))
        removed = book.handles.enumerated().filter { !drawingIDs.contains($1.id) }.map { $0.offset + 1 }
        var kept: [Int] = []   // indices in the book, in the drawing's order
        for (i, handle) in drawing.handles.enumerated() {
            guard let j = bookIndex[handle.id] else {
                added.append(i + 1)
                continue
            }
            kept.append(j)
            let old = book.handles[j]
            if old.placed != handle.placed { moved.append(i + 1) }
            if old.note?.text != handle.note?.text || old.note?.marker != handle.note?.marker || old.origin != handle.origin {
                changedNotes.append(i + 1)
            }
        }
        reordered = kept != kept.sorted()
        changedLegs = Self.changedLegs(drawing: drawing, book: book, bookIndex: bookIndex, moved: Set(moved))
        if drawing.mode != book.mode {
            mode = drawing.mode
            bookMode = book.mode
        }
    }

    /// Legs between the same two unmoved neighbours in both plans whose kind, stroke or road (in the
    /// drawing's mode) changed.
    private static func changedLegs(drawing: RoutePlan, book: RoutePlan, bookIndex: [Int: Int], moved: Set<Int>) -> [Int] {
        drawing.legs.indices.compactMap { i -> Int? in
            let from = drawing.handles[i].id, to = drawing.handles[i + 1].id
            guard !moved.contains(i + 1), !moved.contains(i + 2), let j = bookIndex[from], bookIndex[to] == j + 1,
                  j < book.legs.count else { return nil }
            let (new, old) = (drawing.legs[i], book.legs[j])
            let same = new.kind == old.kind && new.stroke == old.stroke && new.state == old.state
                && sameRoad(new.answers[drawing.mode], old.answers[drawing.mode])
            return same ? nil : i + 1
        }
    }

    /// Two roads are the same when their lines are, point for point, within a ten-millionth of a
    /// degree (about 1 cm, how closely a book stores a place).
    private static func sameRoad(_ a: RoadLeg?, _ b: RoadLeg?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a?, let b?):
            return a.line.count == b.line.count && zip(a.line, b.line).allSatisfy {
                abs($0.latitude - $1.latitude) < 1e-7 && abs($0.longitude - $1.longitude) < 1e-7
            }
        default: return false
        }
    }

    /// Nothing differs: the drawing is the book's route.
    public var isEmpty: Bool {
        !bookHasNoPlan && added.isEmpty && removed.isEmpty && moved.isEmpty && changedNotes.isEmpty && !reordered
            && changedLegs.isEmpty && mode == nil
    }

    /// What differs, one line each: "handles added: 6", "handles moved: 2, 4", "legs changed: 1–2",
    /// "mode: cycle (the book's: drive)"; empty when nothing does.
    public var lines: [String] {
        func list(_ numbers: [Int]) -> String { numbers.map(String.init).joined(separator: ", ") }
        var lines: [String] = []
        if bookHasNoPlan { lines.append("the book's route is not drawn through handles (a track or a line from a file)") }
        if !added.isEmpty { lines.append("handles added: \(list(added))") }
        if !moved.isEmpty { lines.append("handles moved: \(list(moved))") }
        if !removed.isEmpty { lines.append("handles removed: \(list(removed)) of the book's route") }
        if !changedNotes.isEmpty { lines.append("handle notes changed: \(list(changedNotes))") }
        if reordered { lines.append("handles in another order") }
        if !changedLegs.isEmpty { lines.append("legs changed: " + changedLegs.map { "\($0)–\($0 + 1)" }.joined(separator: ", ")) }
        if let mode, let bookMode { lines.append("mode: \(mode.rawValue) (the book's: \(bookMode.rawValue))") }
        return lines
    }
}
