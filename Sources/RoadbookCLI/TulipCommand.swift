import Foundation
import Formats
import Layout
import Model
import Render
import Workflows

/// `roadbook tulip`: one row's tulip alone, or every tulip of a book on one sheet.
struct TulipCommand: Command {
    static let name = "tulip"
    static let abstract = "Preview tulips: one row's as PNG or SVG, or all of a book's on a contact sheet."
    static let help = """
    Usage: roadbook tulip BOOK.json --row N -o TULIP.png|TULIP.svg [--size N]
           roadbook tulip BOOK.json --sheet -o SHEET.png [--size N] [--columns N]

    Options:
      --row N        the row (as printed, from 1) whose tulip to draw
      --sheet        every tulip of the book on one PNG, labelled with its row number
      -o, --output   the file to write; .svg writes SVG, anything else PNG
      --size N       pixels (PNG) or points (SVG) on a side; on a sheet, of each cell (default 300, 160)
      --columns N    tulips per line on a sheet (default 6)
      -h, --help     show this help
    """

    var book: URL
    var output: URL
    var row: Int?
    var size: Double?
    var columns: Int

    init(_ arguments: inout Arguments) throws {
        guard let output = try arguments.option("output", short: "o") else { throw UsageError(message: "missing -o FILE") }
        self.output = URL(fileURLWithPath: output)
        let sheet = arguments.flag("sheet")
        row = try arguments.number("row", in: 1...1_000_000).map { Int($0) }
        size = try arguments.number("size", in: 16...4000)
        columns = Int(try arguments.number("columns", in: 1...50) ?? 6)
        guard sheet != (row != nil) else { throw UsageError(message: "give either --row N or --sheet") }
        if sheet && self.output.pathExtension.lowercased() == "svg" { throw UsageError(message: "a contact sheet is a PNG") }
        book = URL(fileURLWithPath: try arguments.finish(positionals: 1...1, names: "BOOK.json")[0])
    }

    func run(_ console: any Console) async throws {
        try checkWritable([output])
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
