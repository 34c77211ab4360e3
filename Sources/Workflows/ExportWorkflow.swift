import AtomicFile
import Foundation
import Formats
import Model
import Render

/// What `export` wrote.
public struct ExportResult: Sendable {
    /// The format's name (`BookWriter.formatName`).
    public var format: String
    /// What the format could not hold of the book, one line each.
    public var warnings: [String]
    /// What `roadbook check`'s rules find in the book written (`Book.problems()`): said, not refused.
    public var problems: [BookProblem] = []
}

/// Writes the book file `book` as `output` in `format` (a `BookFormats` writer's name), or in the
/// format `output`'s extension names. The file is written whole or not at all: a temporary file
/// beside it, renamed into place when the writer has finished.
/// - Parameters:
///   - symbols: a folder of pictograms over the library's, for the formats that draw symbols
///     (OpenRally's notes drawings).
///   - force: replace `output` although it is read-only.
/// - Throws: `WorkflowError` when no format is named and the extension names none (the message
///   lists the formats), or when the format has no place for the book (`BookWriter.refusal(for:)`:
///   the times table of a navigation book); `checkOutputs`' errors (an output that is the book, or
///   read-only); `FormatError` for the book, the writer's errors; `SymbolFolderError` for `symbols`.
public func exportBook(_ book: URL, to output: URL, format: String? = nil, symbols: URL? = nil, force: Bool = false) throws -> ExportResult {
    let writer = try exportWriter(named: format, for: output)
    try checkOutputs([RunOutput(output)], inputs: [RunInput(book, "the book it reads")], force: force)
    let loaded = try BookFile.read(contentsOf: book)
    return try export(loaded, named: book.path, with: writer, to: output, symbols: symbols)
}

/// Writes `book` (the file `name`) with `writer` into `output`, whole or not at all, unless the
/// format refuses it; with what `roadbook check` finds in it. OpenRally's notes drawings get the
/// pictograms of the symbols the rows carry, from the library with `symbols` over it; a pictogram
/// that cannot be read is drawn as its name, with a warning.
func export(_ book: Book, named name: String, with writer: any BookWriter.Type, to output: URL, symbols: URL? = nil) throws -> ExportResult {
    if let refusal = writer.refusal(for: book) { throw WorkflowError("\(name) \(refusal)") }
    guard writer is OpenRallyWriter.Type else {
        let warnings = try AtomicFile.write(to: output) { try writer.write(book, to: $0) }
        return ExportResult(format: writer.formatName, warnings: warnings, problems: book.problems())
    }
    let used = book.notes.flatMap(\.symbols)
    let library = used.isEmpty ? SymbolLibrary.none : try SymbolLibrary.standard(adding: symbols)
    let (pictograms, unreadable) = library.pictogramFiles(for: used)
    let warnings = try AtomicFile.write(to: output) { try OpenRallyWriter.write(book, to: $0, pictograms: pictograms) }
    return ExportResult(format: writer.formatName, warnings: unreadable + warnings, problems: book.problems())
}

/// The writer of `format`, or of the format `output`'s extension names.
/// - Throws: `WorkflowError` listing the formats when there is none.
func exportWriter(named format: String?, for output: URL) throws -> any BookWriter.Type {
    guard let writer = BookFormats.writer(named: format, for: output) else {
        let known = BookFormats.writers.map { "\($0.formatName) (.\($0.fileExtensions.joined(separator: ", .")))" }
        let what = format.map { "'\($0)' is not a format export writes" }
            ?? "\(output.path): the extension names no format export writes; give --format"
        throw WorkflowError("\(what); the formats: \(known.joined(separator: ", "))")
    }
    return writer
}
