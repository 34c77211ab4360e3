import Geo
import Model
import RouteEditing

/// A warning about one leg of a drawing (a `LegFinding` that `isWarning`): its words as `route`
/// and `handles` print them after the leg, and the point of the leg's road it is about, so a map
/// can show it there.
public struct LegWarning: Sendable, Equatable {
    /// The leg, from 0: leg `i` runs from handle `i` to handle `i + 1`.
    public var leg: Int
    /// The words, as the commands print them.
    public var text: String
    /// The point of the leg's road the warning is about (`RouteEditor.placedFindings`).
    public var place: Coordinate?

    /// The warnings of every leg of `editor`'s plan, leg by leg.
    public static func all(in editor: RouteEditor) -> [LegWarning] {
        editor.plan.legs.indices.flatMap { i in of(leg: i, editor.placedFindings(forLeg: i)) }
    }

    /// The warnings among leg `leg`'s findings.
    static func of(leg: Int, _ findings: [(finding: LegFinding, place: Coordinate?)]) -> [LegWarning] {
        findings.filter(\.finding.isWarning).map { LegWarning(leg: leg, text: $0.finding.message, place: $0.place) }
    }

    /// The warnings of the drawing of `book` that `handles list` shows: `draft`'s when there is
    /// one, else the book's own plan's; none for a book from a track, which has no plan (its
    /// drawing would be traced, and a trace is no drawing to warn about).
    public static func drawing(of book: Book, draft: RouteDraft?) -> [LegWarning] {
        if let draft { return all(in: draft.editor) }
        guard book.plan != nil else { return [] }
        return all(in: RouteDraft.startingEditor(for: book))
    }
}
