import AtomicFile
import CCairo
import CPango
import Foundation
import Layout
import Model

/// Prints a book: lays it out on a template and draws the pages with Cairo and Pango, as a PDF,
/// as PNG images or as SVG files. Pages are laid out and drawn one at a time, so memory stays
/// flat however long the book is.
public struct BookRenderer: Sendable {
    /// Written as the PDF's creation and modification dates, so the same book gives the same
    /// bytes; a road book's date is the rally's, printed in its header.
    public static let fixedDocumentDate = "2000-01-01T00:00:00Z"

    public var template: PageTemplate
    /// Print a cover page first: the route to scale, the totals, the elevation profile and the
    /// legend of the symbols the book uses.
    public var includeCover: Bool
    /// The pictograms and meanings of the symbols; `SymbolLibrary.standard()` (the library's
    /// `Symbols/`) unless another is given.
    public var symbols: SymbolLibrary
    /// Print the lexicon last: every symbol the book uses, with its pictogram and its meaning in the
    /// book's language (`BookSettings.language`; English where the library gives none in it).
    public var includeLexicon: Bool
    /// Receives warnings (a glyph missing from the fonts, a symbol printed as text); standard
    /// error by default.
    public var warn: @Sendable (String) -> Void

    /// - Parameter symbols: nil for `SymbolLibrary.standard()`, or `SymbolLibrary.none` when the
    ///   library's folder cannot be listed.
    public init(template: PageTemplate, includeCover: Bool = true, symbols: SymbolLibrary? = nil,
                includeLexicon: Bool = true,
                warn: @escaping @Sendable (String) -> Void = BookRenderer.standardError) {
        self.template = template
        self.includeCover = includeCover
        self.symbols = symbols ?? (try? SymbolLibrary.standard()) ?? .none
        self.includeLexicon = includeLexicon
        self.warn = warn
    }

    public static let standardError: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data("roadbook: warning: \(message)\n".utf8))
    }

    /// Number of pages `book` prints on, the cover and the lexicon included.
    public func pageCount(of book: Book) -> Int {
        BookLayout.pageCount(rows: RowContent.count(of: book), template: template) + (includeCover ? 1 : 0)
            + LexiconLayout.pageCount(lexicon(of: book), template: template)
    }

    /// The lexicon's sections for `book`; none when it is left out.
    func lexicon(of book: Book) -> [LexiconSection] {
        includeLexicon ? Lexicon.sections(for: book, catalogue: symbols.catalogue) : []
    }

    /// The template the cover is laid out on: the sheet itself, or for a roll a page as wide as
    /// the roll in the proportions of ISO paper (the roll's page is as long as its rows).
    var coverTemplate: PageTemplate {
        guard template.roll != nil else { return template }
        var cover = template
        cover.pageSize = PageSize(width: template.pageSize.width, height: (template.pageSize.width * 2.0.squareRoot()).rounded())
        return cover
    }

    /// One page of the printed document.
    enum DocumentPage {
        case cover(CoverPage)
        case rows(PageLayout)

        var size: PageSize {
            switch self {
            case .cover(let page): page.size
            case .rows(let page): page.size
            }
        }
    }

    /// The pages of the printed document, laid out on demand: the cover (if any), the rows, then
    /// the lexicon (if the book uses symbols).
    struct Document {
        let renderer: BookRenderer
        let book: Book
        let rows: BookPages<PangoMeasurer>
        let measurer: PangoMeasurer
        let lexicon: [LexiconSection]
        let lexiconPages: Int
        let pictograms: Set<NoteSymbol>

        init(renderer: BookRenderer, book: Book, measurer: PangoMeasurer, pictograms: Set<NoteSymbol>) {
            self.renderer = renderer
            self.book = book
            self.measurer = measurer
            self.pictograms = pictograms
            lexicon = renderer.lexicon(of: book)
            lexiconPages = LexiconLayout.pageCount(lexicon, template: renderer.template)
            rows = BookLayout.pages(book: book, template: renderer.template, measurer: measurer,
                                    precedingPages: renderer.includeCover ? 1 : 0, followingPages: lexiconPages,
                                    pictograms: pictograms)
        }

        var cover: Int { renderer.includeCover ? 1 : 0 }
        var count: Int { cover + rows.count + lexiconPages }

        /// Page `number`, 1-based.
        func page(_ number: Int) -> DocumentPage {
            if renderer.includeCover, number == 1 {
                return .cover(CoverLayout.layout(book: book, template: renderer.coverTemplate, measurer: measurer))
            }
            let index = number - cover - 1
            if index < rows.count { return .rows(rows.page(index)) }
            let lexicon = LexiconLayout.pages(self.lexicon, book: book, template: renderer.template, measurer: measurer,
                                              firstPageNumber: cover + rows.count + 1, pageCount: count, pictograms: pictograms)
            return .rows(lexicon[index - rows.count])
        }
    }

    /// Renders `book` to a PDF at `url`. The file appears only when complete: a failed render
    /// leaves whatever was at `url` before and no temporary file.
    /// - Returns: the number of pages.
    /// - Throws: `AtomicFile.WriteError` or `RenderError`, both naming the path.
    @discardableResult
    public func renderPDF(_ book: Book, to url: URL) throws -> Int {
        let outputs = OutputSet()
        do {
            let count = try renderPDF(book, to: url, in: outputs)
            try outputs.commit()
            return count
        } catch {
            outputs.discard()
            throw error
        }
    }

    /// Renders `book` as a PDF into `outputs`, to be renamed onto `url` with the run's other
    /// outputs when the caller commits them.
    /// - Returns: the number of pages.
    /// - Throws: `AtomicFile.WriteError` or `RenderError`, both naming the path.
    @discardableResult
    public func renderPDF(_ book: Book, to url: URL, in outputs: OutputSet) throws -> Int {
        let temporary = try outputs.add(url)
        return try renaming(to: url) {
            try drawPDF(book) { try PDFSurface(path: temporary.path, width: $0, height: $1) }.pages
        }
    }

    /// `book` as the bytes of the PDF `renderPDF` writes, kept in memory.
    /// - Returns: the bytes and the number of pages.
    /// - Throws: `RenderError`.
    public func pdfData(_ book: Book) throws -> (data: Data, pages: Int) {
        let (surface, pages) = try drawPDF(book) { try PDFSurface(width: $0, height: $1) }
        return (surface.data, pages)
    }

    /// Draws every page of `book` on the surface `makeSurface` makes for the first page's size
    /// (points), and finishes it.
    private func drawPDF(_ book: Book, makeSurface: (Double, Double) throws -> PDFSurface) throws -> (surface: PDFSurface, pages: Int) {
        let first = includeCover ? coverTemplate.pageSize : template.pageSize(rows: template.rowsPerPage)
        let surface = try makeSurface(first.width, first.height)
        try setMetadata(of: book, on: surface)
        let count: Int
        do {
            let cairo = try CairoContext(surface: surface)
            let pictograms = Pictograms(for: book, library: symbols, warn: warn)
            let painter = try PagePainter(cairo: cairo, template: template, pictograms: pictograms, warn: warn)
            let document = Document(renderer: self, book: book, measurer: painter.measurer, pictograms: pictograms.names)
            for number in 1...document.count {
                let page = document.page(number)
                try surface.setPageSize(width: page.size.width, height: page.size.height)
                try painter.draw(page)
                try cairo.showPage()
            }
            count = document.count
        }
        try surface.finish()
        return (surface, count)
    }

    /// Renders pages as PNG images at `dpi`. One page goes to `url`; several go to files named
    /// after it with the page number (`book-2.png`, `book-3.png`).
    /// - Parameter pages: page numbers (1-based) to render; nil for all.
    /// - Returns: the files written.
    @discardableResult
    public func renderPNG(_ book: Book, pages: [Int]? = nil, dpi: Double, to url: URL) throws -> [URL] {
        try Self.checkResolution(dpi, path: url.path)
        return try renderEach(book, pages: pages, to: url) { page, pictograms, temporary in
            try drawImage(page, pictograms: pictograms, dpi: dpi, path: url.path).writePNG(to: temporary.path)
        }
    }

    /// Page `number` (1-based, the cover first) of `book` as the bytes of the PNG `renderPNG`
    /// writes, kept in memory.
    /// - Throws: `NoSuchPage` for a page the book does not print; `RenderError`.
    public func pngData(_ book: Book, page number: Int, dpi: Double) throws -> Data {
        try Self.checkResolution(dpi, path: "")
        let (document, pictograms) = try document(of: book)
        guard (1...document.count).contains(number) else { throw NoSuchPage(page: number, count: document.count) }
        return try drawImage(document.page(number), pictograms: pictograms, dpi: dpi, path: "").pngData()
    }

    /// A page asked for that the book does not print.
    public struct NoSuchPage: Error, CustomStringConvertible, Equatable, Sendable {
        public var page: Int
        /// The pages the book prints.
        public var count: Int
        public var description: String { "page \(page) does not exist; the book has \(count) page\(count == 1 ? "" : "s")" }
    }

    private static func checkResolution(_ dpi: Double, path: String) throws {
        guard dpi >= 10, dpi <= 2400 else {
            throw RenderError(call: "renderPNG", reason: "a resolution of \(dpi) dpi is outside 10…2400", path: path)
        }
    }

    /// `page` drawn on an image at `dpi`; `path` names the file in messages.
    private func drawImage(_ page: DocumentPage, pictograms: Pictograms, dpi: Double, path: String) throws -> ImageSurface {
        let scale = dpi / 72
        let width = (page.size.width * scale).rounded(), height = (page.size.height * scale).rounded()
        if let excess = ImageLimits.excess(width: width, height: height) {
            throw RenderError(call: "renderPNG", reason: "a page at \(Int(dpi)) dpi would be \(excess)", path: path,
                              remedy: .lowerResolution)
        }
        let surface = try ImageSurface(width: max(1, Int(width)), height: max(1, Int(height)))
        let cairo = try CairoContext(surface: surface)
        cairo_scale(cairo.handle, scale, scale)
        try PagePainter(cairo: cairo, template: template, pictograms: pictograms, warn: warn).draw(page)
        return surface
    }

    /// Renders pages as SVG files, named as `renderPNG` names them.
    @discardableResult
    public func renderSVG(_ book: Book, pages: [Int]? = nil, to url: URL) throws -> [URL] {
        try renderEach(book, pages: pages, to: url) { page, pictograms, temporary in
            let surface = try SVGSurface(path: temporary.path, width: page.size.width, height: page.size.height)
            let cairo = try CairoContext(surface: surface)
            try PagePainter(cairo: cairo, template: template, pictograms: pictograms, warn: warn).draw(page)
            try surface.finish()
        }
    }

    /// Lays out the chosen pages one by one and hands each to `draw` with a temporary path that is
    /// renamed onto its file when drawn. Checks every page number before writing anything.
    private func renderEach(_ book: Book, pages wanted: [Int]?, to url: URL,
                            draw: (DocumentPage, Pictograms, URL) throws -> Void) throws -> [URL] {
        let (pages, pictograms) = try document(of: book)
        let numbers = wanted ?? Array(1...pages.count)
        if let bad = numbers.first(where: { !(1...pages.count).contains($0) }) {
            throw RenderError(call: "pages", reason: "page \(bad) does not exist; the book has \(pages.count) page\(pages.count == 1 ? "" : "s")",
                              path: url.path)
        }
        // Every page goes to a temporary file first; the files are renamed together when all are
        // drawn, so a render that fails half-way leaves none of its pages.
        let outputs = OutputSet()
        var written: [URL] = []
        do {
            for number in numbers {
                let target = numbers.count == 1 ? url : Self.numbered(url, number)
                let temporary = try outputs.add(target)
                try renaming(to: target) { try draw(pages.page(number), pictograms, temporary) }
                written.append(target)
            }
            try outputs.commit()
        } catch {
            outputs.discard()
            throw error
        }
        return written
    }

    /// The pages of `book`, laid out as they are drawn one at a time, and its pictograms.
    private func document(of book: Book) throws -> (Document, Pictograms) {
        // Measuring needs a Pango context; an image surface of one pixel gives the same metrics
        // as the drawing surfaces (metrics are unhinted at 72 dpi).
        let pictograms = Pictograms(for: book, library: symbols, warn: warn)
        let measuring = try PagePainter(cairo: CairoContext(surface: ImageSurface(width: 1, height: 1)),
                                        template: template, pictograms: pictograms, warn: warn)
        return (Document(renderer: self, book: book, measurer: measuring.measurer, pictograms: pictograms.names), pictograms)
    }

    /// `book.png` with page 3 → `book-3.png`.
    public static func numbered(_ url: URL, _ page: Int) -> URL {
        let ext = url.pathExtension
        let base = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent().appendingPathComponent("\(base)-\(page)" + (ext.isEmpty ? "" : ".\(ext)"))
    }

    /// Runs `body`, reporting a render error against the file the user named, not the hidden
    /// temporary one.
    private func renaming<T>(to url: URL, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as RenderError {
            throw error.naming(url.path)
        }
    }

    private func setMetadata(of book: Book, on surface: PDFSurface) throws {
        try surface.setMetadata(CAIRO_PDF_METADATA_TITLE, book.title)
        if let rally = book.rally, !rally.isEmpty {
            try surface.setMetadata(CAIRO_PDF_METADATA_AUTHOR, rally)
        }
        if let stage = book.stage, !stage.isEmpty {
            try surface.setMetadata(CAIRO_PDF_METADATA_SUBJECT, stage)
        }
        try surface.setMetadata(CAIRO_PDF_METADATA_CREATOR, "roadbook")
        try surface.setMetadata(CAIRO_PDF_METADATA_CREATE_DATE, Self.fixedDocumentDate)
        try surface.setMetadata(CAIRO_PDF_METADATA_MOD_DATE, Self.fixedDocumentDate)
    }
}
