import Foundation
import Workflows

/// `roadbook export`: a book in another tool's format.
struct ExportCommand: Command {
    static var declaration: CommandDeclaration {
        let formats = exportFormats.map { "  \($0.name) (.\($0.fileExtensions.joined(separator: ", ."))): \($0.summary)" }
        return CommandDeclaration(
            name: "export",
            abstract: "Write a book for other tools: road-book readers, GPS units, GIS.",
            positionals: "BOOK.json", positionalCount: 1...1,
            forms: [UsageForm(optional: ["format"])],
            discussion: """
            The output's extension chooses the format unless --format names one. What a format cannot hold
            of the book is printed as a warning. The formats:
            \(formats.joined(separator: "\n"))
            """,
            options: [
                Option("output", short: "o", value: "FILE", required: true, help: "the file to write"),
                Option("format", value: "NAME", help: "the format, when the extension does not say it"),
                Option("drawing", .flag, help: """
                    the drawing beside the book ('roadbook handles'), not yet
                    applied, as apply would make the book
                    """),
                .symbols,
                .force,
            ])
    }

    var book: URL
    var output: URL
    var format: String?
    var force: Bool
    /// A folder of pictograms over the library's, drawn in OpenRally's notes drawings.
    var symbols: URL?
    /// The drawing not yet applied, not the book.
    var drawing: Bool

    init(_ options: ParsedOptions) throws {
        drawing = options.flag("drawing")
        output = try options.file(always: "output")
        format = options.string("format")
        book = URL(fileURLWithPath: options.positionals[0])
        force = options.flag("force")
        symbols = try options.file("symbols").map { _ = try symbolNames(in: $0); return $0 }
    }

    func run(_ console: any Console) async throws {
        let result = drawing ? try await exportDrawing(of: book, to: output, format: format, symbols: symbols, force: force)
            : try exportBook(book, to: output, format: format, symbols: symbols, force: force)
        for warning in result.warnings + result.problems.map(\.description) { console.err("warning: \(warning)") }
        console.out("\(output.path): \(result.format)")
    }
}
