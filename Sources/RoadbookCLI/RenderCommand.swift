import Foundation
import Formats
import Layout
import Model
import Render
import Workflows

/// `roadbook render`: prints a book file as a PDF, or pages of it as PNG or SVG.
struct RenderCommand: Command {
    static let declaration = CommandDeclaration(
        name: "render",
        abstract: "Print a book file: PDF road book, or pages as PNG or SVG.",
        positionals: "BOOK.json", positionalCount: 1...1,
        forms: [UsageForm(optional: ["template"]), UsageForm(required: ["png"], optional: ["dpi", "pages"]),
                UsageForm(required: ["svg"], optional: ["pages"])],
        options: [
            Option("output", short: "o", value: "OUT", required: true, help: """
                the file to write; with several pages, PNG and SVG pages are written
                beside it as OUT-2.png, OUT-3.png, …
                """),
            Option("template", value: "T", help: """
                a5 (default: the book's), roll, a4, a4-2up, letter, letter-2up, or a
                template file (see Templates/README.md)
                """),
            Option("png", .flag, help: "write pages as PNG images"),
            Option("svg", .flag, help: "write pages as SVG"),
            Option("dpi", .number(10...2400), value: "N", help: "PNG resolution (default 150)"),
            Option("pages", value: "LIST", help: """
                pages to write, such as 1, 2-4 or 1,3,5-7 (default: all); page 1 is
                the cover
                """),
            Option("no-cover", .flag, help: "leave out the cover page (route map, totals, profile, legend)"),
            .force,
        ])

    enum Output { case pdf, png(dpi: Double), svg }

    var book: URL
    var output: URL
    var format: Output
    var template: String?
    var pages: [Int]?
    var cover: Bool
    var force: Bool

    init(_ options: ParsedOptions) throws {
        output = options.file("output")!
        template = options.string("template")
        cover = !options.flag("no-cover")
        let png = options.flag("png"), svg = options.flag("svg")
        let dpi = options.number("dpi")
        if png && svg { throw UsageError(message: "choose one of --png and --svg") }
        if dpi != nil && !png { throw UsageError(message: "--dpi is for --png") }
        format = png ? .png(dpi: dpi ?? 150) : svg ? .svg : .pdf
        pages = try options.string("pages").map(PageList.parse)
        if pages != nil, case .pdf = format { throw UsageError(message: "--pages is for --png and --svg; a PDF holds every page") }
        book = URL(fileURLWithPath: options.positionals[0])
        force = options.flag("force")
    }

    func run(_ console: any Console) async throws {
        try checkOutputs([RunOutput(output)], inputs: [RunInput(book, "the book it reads")] + RunInput.template(template), force: force)
        let loaded = try BookFile.read(contentsOf: book)
        let renderer = BookRenderer(template: try template.map(TemplateLibrary.load)
                                        ?? TemplateLibrary.template(of: loaded, bookFile: book.path),
                                    includeCover: cover)
        switch format {
        case .pdf:
            let count = try renderer.renderPDF(loaded, to: output)
            console.out("\(output.path): \(count) pages")
        case .png(let dpi):
            let files = try renderer.renderPNG(loaded, pages: pages, dpi: dpi, to: output)
            console.out(files.map(\.path).joined(separator: "\n"))
        case .svg:
            let files = try renderer.renderSVG(loaded, pages: pages, to: output)
            console.out(files.map(\.path).joined(separator: "\n"))
        }
    }
}

/// Page lists as people type them: `3`, `2-5`, `1,3,6-8`.
enum PageList {
    /// No book prints more pages (5,000 rows cut one a page is 5,000); a typed range beyond it is a
    /// mistake, and would be listed page by page.
    static let maximumPage = 100_000

    static func parse(_ text: String) throws -> [Int] {
        var pages: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = part.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
            switch ends.count {
            case 1 where ends[0].map({ $0 >= 1 }) == true:
                pages.append(ends[0]!)
            case 2 where ends[0].map({ $0 >= 1 }) == true && ends[1].map({ $0 >= ends[0]! }) == true:
                // Checked before the range is listed: 1-9223372036854775807 must not allocate.
                guard ends[1]! <= maximumPage else {
                    throw UsageError(message: "--pages '\(text)': page \(ends[1]!) is past \(maximumPage), more pages than any book has")
                }
                pages.append(contentsOf: ends[0]!...ends[1]!)
            default:
                throw UsageError(message: "--pages '\(text)': write pages as 3, 2-5 or 1,3,6-8 (pages count from 1)")
            }
            if let last = pages.last, last > maximumPage {
                throw UsageError(message: "--pages '\(text)': page \(last) is past \(maximumPage), more pages than any book has")
            }
            if pages.count > maximumPage {
                throw UsageError(message: "--pages '\(text)' lists more than \(maximumPage) pages")
            }
        }
        return pages
    }
}
