import AtomicFile
import Foundation
import Model
import BookAssembly
import Guidance
import OSM
import Routing
import RouteEditing

// `handles BOOK SUBCOMMAND`: each subcommand opens the book's draft (`DraftSession`), makes one
// change or none, saves it, and returns the drawing as the command shows it (`RouteSummary`).

/// What `DraftSession.clear(book:log:)` did.
public enum DrawingCleared: Sendable, Equatable {
    /// A draft of another book, or a broken one, was deleted: it cannot be cleared step by step.
    /// `reason` is why it could not be opened.
    case discarded(draft: URL, reason: String)
    /// The drawing had no handles.
    case nothingToClear
    /// Cleared as one undoable step, named `undoName`.
    case cleared(undoName: String?)
}

extension DraftSession {
    /// The drawing of `book`, as the draft beside it has it (or as a new draft would start).
    /// - Throws: `DraftSession.open`'s errors.
    /// - Parameter extract: when given, handles without a name are named from it (`PlaceNames`,
    ///   read round the handles) for the listing; nothing is saved.
    public static func summary(of book: URL, naming extract: URL? = nil, log: any WorkflowLog) throws -> RouteSummary {
        var editor = try open(book: book, log: log).draft.editor
        if let extract, !editor.plan.handles.isEmpty {
            var near = RouteCorridor.Configuration()
            near.width = ExtractRouter.Configuration().minimumMargin
            let handles = editor.plan.handles.map(\.placed)
            let graph = try MapExtract(extract).graph(in: RouteCorridor(route: handles, configuration: near), log: log)
            editor = PlaceNames(graph: graph).naming(editor)
        }
        return RouteSummary(editor)
    }

    /// Whether the drawing of `book` is the book's route, and if not, what differs (the draft beside
    /// the book, or the drawing a new draft would start with: the book's own plan, or for a book
    /// from a track its route traced into handles).
    /// - Throws: `DraftSession.open`'s errors.
    public static func status(of book: URL, log: any WorkflowLog) throws -> PlanDifference {
        try open(book: book, log: log).difference
    }

    /// Makes `edit` on the drawing of `book`, asks `engine` for the legs it changed, and saves the draft.
    /// - Parameter maximumStops: the most handles the route may have from now on (kept with the
    ///   drawing); nil for the limit it has.
    /// - Returns: the drawing after the edit, with the legs the edit asked of the engine.
    /// - Throws: `perform`'s errors; nothing is saved then.
    public static func edit(_ book: URL, _ edit: HandleEdit, engine: EngineSettings?, maximumStops: Int? = nil,
                            log: any WorkflowLog) async throws -> RouteSummary {
        try await BookLock.hold(book) {
            var session = try open(book: book, log: log)
            let asked = try await session.perform(edit, engine: engine, maximumStops: maximumStops, log: log)
            var summary = RouteSummary(session.draft.editor)
            summary.askedLegs = asked
            return summary
        }
    }

    /// Clears the drawing of `book` as one undoable step; the book keeps its route. A draft that
    /// cannot be opened (another book's, or a broken one) is deleted instead.
    /// - Throws: `open`'s errors when there is no draft; `perform`'s and `RouteDraft.remove`'s errors.
    public static func clear(_ book: URL, log: any WorkflowLog) async throws -> DrawingCleared {
        try await BookLock.hold(book) { try await clearLocked(book, log: log) }
    }

    private static func clearLocked(_ book: URL, log: any WorkflowLog) async throws -> DrawingCleared {
        let draft = RouteDraft.url(for: book)
        let session: DraftSession
        do { session = try open(book: book, log: log) } catch let error where FileName.exists(draft.path) {
            try RouteDraft.remove(for: book)
            return .discarded(draft: draft, reason: "\(error)")
        }
        guard !session.draft.editor.plan.handles.isEmpty else { return .nothingToClear }
        var cleared = session
        try await cleared.perform(.clear, engine: nil, log: log)
        return .cleared(undoName: cleared.draft.editor.undoName)
    }
}

extension PlanDifference {
    /// How `drawing` differs from the route of `book`: from its plan, or for a book whose route is
    /// a track or a line from a file, from the handles that route traces into (where a new drawing
    /// starts), so a drawing traced and not changed, or changed and undone, is the book's route.
    public init(drawing: RoutePlan, of book: Book) {
        self.init(drawing: drawing, book: RouteDraft.plan(of: book))
    }

    /// "This is the book's route", or "Not applied yet: APPLY makes the drawing the book's route"
    /// and what differs, one line each: what `handles status` prints and the editor shows.
    /// - Parameter applyCommand: how the person applies the drawing (`roadbook apply BOOK`, or a button).
    public func statusLines(applyCommand: String) -> [String] {
        guard !isEmpty else { return ["This is the book's route"] }
        return ["Not applied yet: \(applyCommand) makes the drawing the book's route"] + lines
    }
}
