import Foundation
import Formats
import Layout
import Model
import Render
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
        output = options.file("output")!
        let sheet = options.flag("sheet")
        row = options.integer("row")
        size = options.number("size")
        columns = options.integer("columns")!
        guard sheet != (row != nil) else { throw UsageError(message: "give either --row N or --sheet") }
        if sheet && output.pathExtension.lowercased() == "svg" { throw UsageError(message: "a contact sheet is a PNG") }
        book = URL(fileURLWithPath: options.positionals[0])
        force = options.flag("force")
    }

    func run(_ console: any Console) async throws {
        try checkOutputs([RunOutput(output)], inputs: [RunInput(book, "the book it reads")], force: force)
        let loaded = try BookFile.read(contentsOf: book)
        let rows = RowContent.rows(of: loaded)
        if let row {
            guard row <= rows.count else {
                throw RunError(message: "\(book.path): there is no row \(row); the book has \(rows.count) rows")
            }
            guard let tulip = rows[row - 1].tulip else {
                throw RunError(message: "\(book.path): row \(row) has no tulip")
            }
            if output.pathExtension.lowercased() == "svg" {
                try TulipImage.writeSVG(tulip, size: size ?? 300, to: output)
            } else {
                try TulipImage.writePNG(tulip, size: Int(size ?? 300), to: output)
            }
            console.out(output.path)
            return
        }
        let tulips = rows.compactMap { row in row.tulip.map { (label: String(row.number), tulip: $0) } }
        guard !tulips.isEmpty else { throw RunError(message: "\(book.path): no row has a tulip") }
        try TulipImage.writeContactSheet(tulips, cellSize: Int(size ?? 160), columns: columns, to: output)
        console.out("\(output.path): \(tulips.count) tulips")
    }
}
