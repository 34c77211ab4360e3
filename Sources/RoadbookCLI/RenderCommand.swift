import Foundation
import Model
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
                the file to write: .pdf, .png or .svg, its extension choosing the format
                unless --png or --svg does; with several pages, PNG and SVG pages are
                written beside it as OUT-2.png, OUT-3.png, …
                """),
            templateOption,
            Option("png", .flag, help: "write pages as PNG images, whatever OUT's extension"),
            Option("svg", .flag, help: "write pages as SVG, whatever OUT's extension"),
            dpiOption,
            Option("pages", value: "LIST", help: """
                pages to write, such as 1, 2-4 or 1,3,5-7 (default: all); page 1 is
                the cover
                """),
            Option("no-cover", .flag, help: "leave out the cover page (route map, totals, profile, legend)"),
            .symbols,
            .language(help: """
                print in this language (default: the book's): page labels and
                generated turn words; the book file is not changed, and a
                person's words print as written
                """),
            .force,
        ])

    static let templateOption = Option("template", value: "T", help: """
        a5 (default: the book's), roll, a4, a4-2up, letter, letter-2up, or a
        template file (see Templates/README.md)
        """)
    static let dpiOption = Option("dpi", .number(10...2400), value: "N", help: "PNG resolution (default 150)")

    /// The formats, each named by its extension.
    enum Format: String, CaseIterable { case pdf, png, svg }

    var book: URL
    var output: URL
    var format: RenderRequest.Format
    var template: String?
    var pages: [Int]?
    var cover: Bool
    var symbols: URL?
    var language: BookLanguage?
    var force: Bool

    init(_ options: ParsedOptions) throws {
        output = try options.file(always: "output")
        language = options.choice("language", as: BookLanguage.self)
        book = URL(fileURLWithPath: options.positionals[0])
        template = options.string("template")
        cover = !options.flag("no-cover")
        symbols = try options.file("symbols").map { _ = try symbolNames(in: $0); return $0 }
        let png = options.flag("png"), svg = options.flag("svg")
        let dpi = options.number("dpi")
        if png && svg { throw UsageError(message: "choose one of --png and --svg") }
        let chosen = png ? .png : svg ? .svg : try Self.format(of: options.string("output") ?? "")
        if dpi != nil && chosen != .png { throw UsageError(message: "--dpi is for PNG pages (-o OUT.png, or --png)") }
        format = switch chosen {
        case .pdf: .pdf
        case .png: .png(dpi: dpi ?? 150)
        case .svg: .svg
        }
        pages = try options.string("pages").map(PageList.parse)
        if pages != nil && chosen == .pdf { throw UsageError(message: "--pages is for PNG and SVG pages; a PDF holds every page") }
        force = options.flag("force")
    }

    /// The format `output`'s extension names, as export, tulip and profile read theirs.
    /// - Throws: `UsageError` naming the extension and the ones render writes.
    static func format(of output: String) throws -> Format {
        let ext = URL(fileURLWithPath: output).pathExtension
        if let format = Format(rawValue: ext.lowercased()) { return format }
        let choices = Format.allCases.map { ".\($0.rawValue)" }.joined(separator: ", ")
        let what = ext.isEmpty ? "has no extension" : "ends in .\(ext), not a format render writes"
        throw UsageError(message: "-o \(output) \(what): use \(choices), or give --png or --svg")
    }

    func run(_ console: any Console) async throws {
        var request = RenderRequest(book: book, output: output, format: format, template: template, pages: pages, cover: cover)
        request.language = language
        request.force = force
        request.symbols = symbols
        switch try renderBook(request, log: ConsoleLog(console)) {
        case .pdf(let pages): console.out("\(output.path): \(pages) pages")
        case .images(let files): console.out(files.map(\.path).joined(separator: "\n"))
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
            guard ends.count <= 2, let first = ends.first ?? nil, first >= 1, let last = ends.last ?? nil, last >= first else {
                throw UsageError(message: "--pages '\(text)': write pages as 3, 2-5 or 1,3,6-8 (pages count from 1)")
            }
            // Checked before the range is listed: 1-9223372036854775807 must not allocate.
            guard last <= maximumPage else {
                throw UsageError(message: "--pages '\(text)': page \(last) is past \(maximumPage), more pages than any book has")
            }
            pages.append(contentsOf: first...last)
            if pages.count > maximumPage {
                throw UsageError(message: "--pages '\(text)' lists more than \(maximumPage) pages")
            }
        }
        return pages
    }
}
