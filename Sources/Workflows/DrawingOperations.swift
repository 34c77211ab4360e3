import AtomicFile
import Foundation
import Formats
import Model
import Render
import RouteEditing

// What can be seen of a drawing before it is applied: its elevation profile with a tick for each
// handle (`profile BOOK --drawing`), and the book it would make, exported (`export BOOK --drawing`).
// Both run the Apply's stages without a commit, so what is shown is what `apply` would write.

extension DraftSession {
    /// The book as its drawing would make it, nothing written: the drawing beside the book (or the
    /// one a new draft starts with: the book's own plan, or its route traced into handles) through
    /// the Apply's stages (`BookPipeline.apply`, no commit), the legs that wait drawn straight, the
    /// turn notes as an Apply nobody is asked about makes them. When the drawing is the book's
    /// route, the book itself.
    /// - Parameter terrain: heights for the drawing's route; without sources, none (and for the
    ///   book's own route, its own).
    /// - Returns: the book, and the drawing (for the places of its handles).
    /// - Throws: `open`'s errors; `WorkflowError` for a drawing of fewer than two handles; the map's
    ///   and the terrain sources' errors.
    public static func drawnBook(_ url: URL, terrain: TerrainRequest = TerrainRequest(),
                                 log: any WorkflowLog) async throws -> (book: Book, drawing: RouteEditor) {
        let session = try open(book: url, log: MessageList())
        let drawing = session.draft.editor
        guard !session.difference.isEmpty else {
            var book = session.book
            if !terrain.isEmpty { try await terrain.apply(to: &book, log: log) }
            return (book, drawing)
        }
        let options = ApplyOptions(turns: .fromBook, useStraight: true, terrain: terrain)
        // Without sources the old route's heights are dropped: said only when heights were asked for.
        let said = terrain.isEmpty ? MessageList() : log
        let drawn = try await BookPipeline.apply(drawing, to: session.book, options: options, lastWritten: [], commit: nil)
            .run(log: said)
        return (drawn.book, drawing)
    }
}

/// The files a command that shows the drawing of `book` reads.
private func drawingInputs(of book: URL) -> [RunInput] {
    [RunInput(book, "the book it reads"), RunInput(RouteDraft.url(for: book), "the drawing it reads")]
}

/// Draws the elevation profile of the drawing beside `book`, not yet applied, as `drawProfile`
/// draws a book's (PNG, SVG or PDF by the extension), with a tick and its number for each handle
/// where it fits.
/// - Parameter terrain: where the heights come from; required unless the drawing is the book's
///   route and the book has terrain.
/// - Returns: the profile, and how many handles are ticked.
/// - Throws: `WorkflowError` when the drawing has no heights; `DraftSession.drawnBook`'s errors;
///   `RenderError`.
public func drawDrawingProfile(book: URL, to output: URL, width: Double, height: Double, terrain: TerrainRequest,
                               force: Bool = false, log: any WorkflowLog) async throws -> (profile: Profile, handles: Int) {
    try checkOutputs([RunOutput(output)], inputs: drawingInputs(of: book) + RunInput.terrain(terrain), force: force)
    var (drawn, drawing) = try await DraftSession.drawnBook(book, terrain: terrain, log: log)
    guard let profile = drawn.profile, profile.isComplete else {
        throw WorkflowError(drawn.profile == nil
            ? "\(book.path): the drawing has no terrain yet: give --dem or --elevation for its heights"
            : "\(book.path): the drawing's terrain is incomplete: some of its route has no height")
    }
    let distances = drawing.handleDistances()
    drawn.notes = drawing.plan.handles.enumerated().map { i, handle in
        Note(id: i + 1, kind: .waypoint, distanceAlong: i < distances.count ? distances[i] : 0, coordinate: handle.coordinate,
             text: handle.name ?? "handle \(i + 1)", marker: "\(i + 1)")
    }
    try ProfileImage.write(drawn, to: output, width: width, height: height)
    return (profile, drawing.plan.handles.count)
}

/// Writes the book the drawing beside `book` would make (`DraftSession.drawnBook`), not yet
/// applied, as `exportBook` writes a book: in `format`, or the one `output`'s extension names.
/// - Throws: as `exportBook`; `DraftSession.drawnBook`'s errors.
public func exportDrawing(of book: URL, to output: URL, format: String? = nil, symbols: URL? = nil,
                          force: Bool = false) async throws -> ExportResult {
    let writer = try exportWriter(named: format, for: output)
    try checkOutputs([RunOutput(output)], inputs: drawingInputs(of: book), force: force)
    let drawn = try await DraftSession.drawnBook(book, log: MessageList()).book
    return try export(drawn, named: "the drawing beside \(book.path)", with: writer, to: output, symbols: symbols)
}
