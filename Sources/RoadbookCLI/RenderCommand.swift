import Foundation
import Formats
import Model
import Render

/// `roadbook render`: prints a book file.
struct RenderCommand: Command {
    static let name = "render"
    static let abstract = "Print a book file as a PDF road book."
    static let help = """
    Usage: roadbook render BOOK.json -o BOOK.pdf

    Options:
      -o, --output PATH   the PDF to write (required)
      -h, --help          show this help
    """

    var book: URL
    var output: URL

    init(_ arguments: inout Arguments) throws {
        guard let output = try arguments.option("output", short: "o") else {
            throw UsageError(message: "missing -o BOOK.pdf")
        }
        self.output = URL(fileURLWithPath: output)
        book = URL(fileURLWithPath: try arguments.finish(positionals: 1...1, names: "BOOK.json")[0])
        if book.standardizedFileURL == self.output.standardizedFileURL {
            throw UsageError(message: "-o would overwrite the book file \(book.path)")
        }
    }

    func run(_ console: any Console) throws {
        try checkWritable([output])
        let loaded = try BookFile.read(contentsOf: book)
        let pages = try PDFBookRenderer().render(loaded, to: output)
        console.out("\(output.path): \(pages) pages")
    }
}
