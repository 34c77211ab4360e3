import BookAssembly
import Foundation
import Formats
import Layout
import Model
import Render

// Printing a book file already written: its pages (`render`), its tulips (`tulip`) and its
// elevation profile (`profile`). Each checks its output (`checkOutputs`: writable, not the book it
// reads, read-only only with `force`) before reading the book.

/// A book file printed as a PDF, or pages of it as PNG or SVG images.
public struct RenderRequest: Sendable {
    public enum Format: Sendable, Equatable {
        case pdf
        /// Pages as PNG images at `dpi`.
        case png(dpi: Double)
        case svg
    }

    public var book: URL
    /// The file written; with several PNG or SVG pages, the others are numbered beside it
    /// (`BookRenderer.numbered`).
    public var output: URL
    public var format: Format
    /// A built-in template's name or a template file's path; nil for the book's own.
    public var template: String?
    /// Pages (from 1) of a PNG or SVG render; nil for all.
    public var pages: [Int]?
    /// Whether the cover page is printed.
    public var cover: Bool
    /// A folder of pictograms over the library's (`BuildRequest.symbols`).
    public var symbols: URL?
    /// The language to print in; nil for the book's own. The book file is not changed: its
    /// generated turn words are printed in this language (`rewordBook`), a person's words as written.
    public var language: BookLanguage?
    /// Replace the output although it is read-only.
    public var force = false

    public init(book: URL, output: URL, format: Format, template: String? = nil, pages: [Int]? = nil, cover: Bool = true) {
        self.book = book
        self.output = output
        self.format = format
        self.template = template
        self.pages = pages
        self.cover = cover
    }
}

/// The pictograms of a person's folder (`--symbols DIR`: `NAME.svg` files), by name: the names
/// `note --symbol` takes besides the library's.
/// - Throws: `SymbolFolderError` naming the folder when it is not a folder that can be listed.
public func symbolNames(in folder: URL) throws -> [NoteSymbol] {
    try SymbolLibrary.names(in: folder)
}

/// What `renderBook` wrote.
public enum RenderResult: Sendable, Equatable {
    /// A PDF of this many pages.
    case pdf(pages: Int)
    /// Page images, one file a page.
    case images([URL])
}

/// Prints the book file of `request` in its format, in its language or the one asked for.
/// - Parameter log: told of generated words that could not be printed in the language asked for,
///   and of the rows of a regularity book printed without an ideal time (`RegularityTimes`, the
///   rule `roadbook check` applies).
/// - Throws: `WorkflowError` for an output that cannot be written; `FormatError` for the book;
///   `TemplateError`; `RenderError` naming the output.
public func renderBook(_ request: RenderRequest, log: any WorkflowLog = MessageList()) throws -> RenderResult {
    try checkOutputs([RunOutput(request.output)], inputs: [RunInput(request.book, "the book it reads")] + RunInput.template(request.template),
                     force: request.force)
    var book = try BookFile.read(contentsOf: request.book)
    log.recordProblems(of: book, checking: [RegularityTimes()])
    if let language = request.language {
        let reworded = rewordBook(book, in: language)
        book = reworded.book
        if let message = reworded.unrecognisedMessage(file: request.book) { log.record(WorkflowMessage(.warning, message)) }
    }
    let renderer = try printer(of: book, bookFile: request.book, template: request.template, cover: request.cover,
                               symbols: request.symbols)
    switch request.format {
    case .pdf:
        return .pdf(pages: try renderer.renderPDF(book, to: request.output))
    case .png(let dpi):
        return .images(try renderer.renderPNG(book, pages: request.pages, dpi: dpi, to: request.output))
    case .svg:
        return .images(try renderer.renderSVG(book, pages: request.pages, to: request.output))
    }
}

/// The renderer that prints `book` (read from `bookFile`): on the template named, or the book's
/// own; with the pictograms of `symbols` over the library's.
func printer(of book: Book, bookFile: URL, template: String? = nil, cover: Bool = true, symbols: URL? = nil) throws -> BookRenderer {
    BookRenderer(template: try template.map(TemplateLibrary.load) ?? TemplateLibrary.template(of: book, bookFile: bookFile.path),
                 includeCover: cover, symbols: try SymbolLibrary.standard(adding: symbols))
}

/// The drawings of a book kept in memory, for a program that answers with them rather than writing
/// files (the editor's server): a row's tulip, a printed page, the whole PDF, each the drawing
/// `tulip --row`, `render --png` and `render` write, on the book's own template and in its language.
public enum BookDrawings {
    /// Points (SVG) or pixels (PNG) on a side of a tulip drawn alone when no size is asked for.
    public static let tulipSize = 300.0

    /// The tulip of the note `id` as SVG, `size` points on a side; nil when no printed row is that
    /// note (no such note, or one off the route) or its row has no tulip.
    /// - Throws: `RenderError` when Cairo fails.
    public static func tulipSVG(ofNote id: Int, in book: Book, size: Double = tulipSize) throws -> Data? {
        guard let note = book.notes.first(where: { $0.id == id && $0.placement == .onRoute }), let tulip = note.tulip else { return nil }
        return try TulipImage.svgData(tulip, size: size)
    }

    /// Page `number` of `book` as printed (the cover is 1) as PNG at `dpi`; nil when the book does
    /// not print that page.
    /// - Parameter bookFile: where the book was read, for its template's messages.
    /// - Throws: `TemplateError`; `RenderError` (a page too large at `dpi`, Cairo failing).
    public static func pagePNG(_ number: Int, of book: Book, bookFile: URL, dpi: Double) throws -> Data? {
        do {
            return try printer(of: book, bookFile: bookFile).pngData(book, page: number, dpi: dpi)
        } catch is BookRenderer.NoSuchPage {
            return nil
        }
    }

    /// `book` printed as a PDF: its bytes and its number of pages.
    /// - Parameter bookFile: where the book was read, for its template's messages.
    /// - Throws: `TemplateError`; `RenderError`.
    public static func pdf(of book: Book, bookFile: URL) throws -> (data: Data, pages: Int) {
        try printer(of: book, bookFile: bookFile).pdfData(book)
    }
}

/// Draws the tulip of one row of the book file `book` (as printed, from 1): SVG when `output` ends
/// in `.svg`, else PNG.
/// - Parameter size: pixels (PNG) or points (SVG) on a side.
/// - Throws: `WorkflowError` for a row the book does not have or one without a tulip, or an output
///   that cannot be written; `FormatError` for the book; the image's errors.
public func drawTulip(ofRow row: Int, book: URL, size: Double, to output: URL, force: Bool = false) throws {
    try checkOutputs([RunOutput(output)], inputs: [RunInput(book, "the book it reads")], force: force)
    let rows = RowContent.rows(of: try BookFile.read(contentsOf: book))
    guard row <= rows.count else {
        throw WorkflowError("\(book.path): there is no row \(row); the book has \(rows.count) rows")
    }
    guard let tulip = rows[row - 1].tulip else { throw WorkflowError("\(book.path): row \(row) has no tulip") }
    if output.pathExtension.lowercased() == "svg" {
        try TulipImage.writeSVG(tulip, size: size, to: output)
    } else {
        try TulipImage.writePNG(tulip, size: Int(size), to: output)
    }
}

/// Draws every tulip of the book file `book` on one PNG, labelled with its row number.
/// - Parameters:
///   - cellSize: pixels on a side of each tulip's cell.
///   - columns: tulips a line.
/// - Returns: how many tulips the sheet has.
/// - Throws: `WorkflowError` when no row has a tulip, or for an output that cannot be written;
///   `FormatError` for the book; the image's errors.
public func drawTulipSheet(book: URL, cellSize: Int, columns: Int, to output: URL, force: Bool = false) throws -> Int {
    try checkOutputs([RunOutput(output)], inputs: [RunInput(book, "the book it reads")], force: force)
    let rows = RowContent.rows(of: try BookFile.read(contentsOf: book))
    let tulips = rows.compactMap { row in row.tulip.map { (label: String(row.number), tulip: $0) } }
    guard !tulips.isEmpty else { throw WorkflowError("\(book.path): no row has a tulip") }
    try TulipImage.writeContactSheet(tulips, cellSize: cellSize, columns: columns, to: output)
    return tulips.count
}

/// Draws the elevation profile of the book file `book` (PNG, SVG or PDF by `output`'s extension),
/// `width` by `height` points.
/// - Returns: the profile drawn, for its climb and descent.
/// - Throws: `WorkflowError` naming the book when it has no complete profile, or for an output that
///   cannot be written; `FormatError` for the book; `RenderError` naming the output.
@discardableResult
public func drawProfile(book: URL, to output: URL, width: Double, height: Double, force: Bool = false) throws -> Profile? {
    try checkOutputs([RunOutput(output)], inputs: [RunInput(book, "the book it reads")], force: force)
    let loaded = try BookFile.read(contentsOf: book)
    do {
        try ProfileImage.write(loaded, to: output, width: width, height: height)
    } catch ProfileImage.NoTerrain.missing {
        throw WorkflowError("\(book.path): \(ProfileImage.NoTerrain.missing): build it with --dem or --elevation")
    } catch let error as ProfileImage.NoTerrain {
        throw WorkflowError("\(book.path): \(error)")
    }
    return loaded.profile
}

extension RewordedBook {
    /// The warning for generated words no language's phrases make, naming their rows as printed;
    /// nil when there are none.
    func unrecognisedMessage(file: URL) -> String? {
        guard !unrecognised.isEmpty else { return nil }
        let ids = Set(unrecognised)
        let rows = book.notes.filter { $0.placement == .onRoute }.enumerated()
            .compactMap { ids.contains($0.element.id) ? String($0.offset + 1) : nil }
        guard !rows.isEmpty else { return nil }
        let language = book.settings.language ?? .en
        return "\(file.path): the generated words of row\(rows.count == 1 ? "" : "s") \(rows.joined(separator: ", ")) "
            + "are not phrases roadbook writes today: they stay as they are, not in \(language.name) "
            + "('roadbook regenerate' writes them again)"
    }
}
