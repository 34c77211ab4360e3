import Foundation
import Layout
import Model
@testable import Render
import Testing
import TestSupport

/// Collects warnings from a renderer.
final class Warnings: @unchecked Sendable {
    private var list: [String] = []
    private let lock = NSLock()
    var all: [String] { lock.lock(); defer { lock.unlock() }; return list }
    var sink: @Sendable (String) -> Void { { [self] message in lock.lock(); list.append(message); lock.unlock() } }
}

@Suite("Outputs: PDF in every template, PNG and SVG pages, goldens, warnings")
struct OutputTests {
    @Test("the row-features book prints in every template: fonts embedded, qpdf clean, same bytes twice",
          arguments: TemplateLibrary.builtInNames)
    func everyTemplate(name: String) throws {
        let folder = try TemporaryFolder()
        let renderer = BookRenderer(template: Fixtures.template(name))
        let book = RowFeatureTests.book
        let a = folder.path("a.pdf"), b = folder.path("b.pdf")
        let pages = try renderer.renderPDF(book, to: a)
        try renderer.renderPDF(book, to: b)
        #expect(try Data(contentsOf: a) == Data(contentsOf: b), "two renders give identical bytes")
        #expect(pages == renderer.pageCount(of: book))
        #expect(try runTool("pdfinfo", [a.path]).contains("Pages:           \(pages)"))
        _ = try runTool("qpdf", ["--check", a.path])
        let fonts = try runTool("pdffonts", [a.path]).split(separator: "\n").dropFirst(2)
        #expect(!fonts.isEmpty)
        for line in fonts {
            let columns = line.split(separator: " ")
            #expect(columns.contains("yes") && line.contains("DejaVuSans"), "font not embedded or not ours: \(line)")
        }
        let text = try runTool("pdftotext", ["-raw", a.path, "-"])
        #expect(text.contains("Ford — deep after rain") && text.contains("C.095"))
    }

    @Test("pages as PNG at a chosen resolution, named by page when there are several")
    func png() throws {
        let folder = try TemporaryFolder()
        let renderer = BookRenderer(template: Fixtures.a5)
        let files = try renderer.renderPNG(Fixtures.longBook(rows: 14), pages: [2, 4], dpi: 100, to: folder.path("p.png"))
        #expect(files.map(\.lastPathComponent) == ["p-2.png", "p-4.png"])
        let info = try runTool("file", [files[0].path])
        #expect(info.contains("583 x 827"), "A5 at 100 dpi is 583 × 827 pixels: \(info)")
        let one = try renderer.renderPNG(Fixtures.longBook(rows: 3), pages: [1], dpi: 72, to: folder.path("one.png"))
        #expect(one.map(\.lastPathComponent) == ["one.png"])
    }

    @Test("a page that does not exist is refused before anything is written")
    func badPage() throws {
        let folder = try TemporaryFolder()
        let renderer = BookRenderer(template: Fixtures.a5)
        #expect(throws: RenderError.self) {
            try renderer.renderPNG(Fixtures.longBook(rows: 3), pages: [1, 9], dpi: 72, to: folder.path("p.png"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test("a page image larger than an image may be is refused before it is allocated, with the resolution to lower")
    func hugeImage() throws {
        let folder = try TemporaryFolder()
        let renderer = BookRenderer(template: Fixtures.a5)
        // A5 at 2,400 dpi is about 14,000 × 19,800 pixels: 277 million, over the limit.
        let error = #expect(throws: RenderError.self) {
            try renderer.renderPNG(Fixtures.longBook(rows: 3), pages: [1], dpi: 2400, to: folder.path("p.png"))
        }
        // The resolution to lower is data: the command line words it with its option.
        #expect(error?.remedy == .lowerResolution)
        #expect(!"\(error.map { "\($0)" } ?? "")".contains("--"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test("pages as SVG: well-formed, one file per page")
    func svg() throws {
        let folder = try TemporaryFolder()
        let files = try BookRenderer(template: Fixtures.a5, warn: { _ in }).renderSVG(RowFeatureTests.book, to: folder.path("b.svg"))
        #expect(files.count == 3, "the cover, the page of rows, the lexicon")
        for file in files { _ = try runTool("xmllint", ["--noout", file.path]) }
        #expect(try String(contentsOf: files[1], encoding: .utf8).contains("width=\"419.5275"))
    }

    @Test("a page of rows and a cover compare with their PNG goldens")
    func pageGoldens() throws {
        let folder = try TemporaryFolder()
        // Without pictograms and the lexicon, so the goldens are the pages as text and frames draw
        // them whatever the library's art (SymbolTests draws the pictograms).
        let renderer = BookRenderer(template: Fixtures.a5, symbols: SymbolLibrary.none, includeLexicon: false, warn: { _ in })
        let files = try renderer.renderPNG(RowFeatureTests.book, pages: [1, 2], dpi: 72, to: folder.path("page.png"))
        try assertPNGGolden(files[0], named: "page-cover")
        try assertPNGGolden(files[1], named: "page-row-features")
    }

    @Test("a character no font has, and a family that is not installed, are warnings")
    func missingGlyphAndFont() throws {
        let folder = try TemporaryFolder()
        let warnings = Warnings()
        var book = Fixtures.book([Fixtures.note(1, at: 10, "Tourner à droite 右转")])
        try BookRenderer(template: Fixtures.a5, includeCover: false, warn: warnings.sink).renderPDF(book, to: folder.path("a.pdf"))
        #expect(warnings.all.contains { $0.contains("右转") && $0.contains("missing from the font") }, "\(warnings.all)")
        var template = Fixtures.a5
        template.fonts.noteText.family = "No Such Sans"
        book.notes[0].text = "Plain"
        try BookRenderer(template: template, includeCover: false, warn: warnings.sink).renderPDF(book, to: folder.path("b.pdf"))
        #expect(warnings.all.contains { $0.contains("\"No Such Sans\" is not installed") }, "\(warnings.all)")
    }
}
