import Foundation
import Workflows

/// `roadbook tulip`: one row's tulip alone, or every tulip of a book on one sheet.
struct TulipCommand: Command {
    static let declaration = CommandDeclaration(
        name: "tulip",
        abstract: "Preview tulips: one row's as PNG or SVG, or all of a book's on a contact sheet.",
        positionals: "BOOK.json", positionalCount: 1...1,
        forms: [UsageForm(required: ["row"], optional: ["size"]), UsageForm(required: ["sheet"], optional: ["size", "columns"])],
        options: [
            Option("row", .integer(1...1_000_000), value: "N", help: "the row (as printed, from 1) whose tulip to draw"),
            Option("sheet", .flag, help: "every tulip of the book on one PNG, labelled with its row number"),
            Option("output", short: "o", value: "FILE", required: true, help: "the file to write; .svg writes SVG, anything else PNG"),
            Option("size", .number(16...4000), value: "N", help: """
                pixels (PNG) or points (SVG) on a side; on a sheet, of each cell (default 300, 160)
                """),
            Option("columns", .integer(1...50), value: "N", default: "6", help: "tulips per line on a sheet"),
            .force,
        ])

    var book: URL
    var output: URL
    var row: Int?
    var size: Double?
    var columns: Int
    var force: Bool

    init(_ options: ParsedOptions) throws {
        output = try options.file(always: "output")
        let sheet = options.flag("sheet")
        row = options.integer("row")
        size = options.number("size")
        columns = try options.integer(always: "columns")
        guard sheet != (row != nil) else { throw UsageError(message: "give either --row N or --sheet") }
        if sheet && output.pathExtension.lowercased() == "svg" { throw UsageError(message: "a contact sheet is a PNG") }
        book = URL(fileURLWithPath: options.positionals[0])
        force = options.flag("force")
    }

    func run(_ console: any Console) async throws {
        if let row {
            try drawTulip(ofRow: row, book: book, size: size ?? BookDrawings.tulipSize, to: output, force: force)
            console.out(output.path)
        } else {
            let count = try drawTulipSheet(book: book, cellSize: Int(size ?? 160), columns: columns, to: output, force: force)
            console.out("\(output.path): \(count) tulips")
        }
    }
}
