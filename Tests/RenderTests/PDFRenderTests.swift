import Foundation
import Layout
import Model
@testable import Render
import Testing

/// Runs a poppler tool and returns its standard output.
func poppler(_ tool: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(tool) \(arguments) failed")
    return String(decoding: data, as: UTF8.self)
}

func temporaryDirectory() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("roadbook-render-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}

@Suite struct PDFRenderTests {
    @Test func thirtyRowBookPrintsACoverFiveA5PagesAndTheLexicon() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("book.pdf")
        let book = Fixtures.longBook(rows: 30)
        try BookRenderer(template: Fixtures.a5).renderPDF(book, to: url)
        if let keep = ProcessInfo.processInfo.environment["ROADBOOK_KEEP_PDF"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(at: url, to: URL(fileURLWithPath: keep))
        }

        let info = try poppler("pdfinfo", [url.path])
        // The cover, 30 rows six a page, and the lexicon of the symbols the rows print (WPM, the
        // three dangers, the CAP): one page.
        #expect(info.contains("Pages:           7"))
        // pdfinfo prints three decimals here ("419.528 x 595.276 pts"): A5 is 419.53 × 595.28 pt.
        let sizeLine = info.split(separator: "\n").first { $0.hasPrefix("Page size:") } ?? ""
        let numbers = sizeLine.split(separator: " ").compactMap { Double($0) }
        #expect(numbers.count == 2 && abs(numbers[0] - 419.53) < 0.01 && abs(numbers[1] - 595.28) < 0.01, "\(sizeLine)")
        #expect(info.contains("Title:           Andorra Rally"))
        #expect(info.contains("Author:          Pyrenees Trophy"))

        // Wrapped lines join with a space, as the instruction was written.
        let text = try poppler("pdftotext", ["-raw", url.path, "-"])
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let rows = RowContent.rows(of: book)
        for row in rows {
            #expect(text.contains(row.totalText), "total \(row.totalText) of row \(row.number)")
            #expect(text.contains(row.text), "text of row \(row.number)")
        }
        #expect(rows[29].totalText == "35.80" && rows[29].partialText == "1.23")
        for needle in ["C.000", "C.037", "!!!", "WPM", "CP8", "page 2 of 7", "page 6 of 7", "Stage 2", "2026-03-14",
                       "Lexicon", "Masked waypoint", "Danger, take care", "Great danger, very slow", "page 7 of 7"] {
            #expect(text.contains(needle), "\(needle) missing")
        }
        let fonts = try poppler("pdffonts", [url.path])
        #expect(fonts.contains("DejaVuSans-Bold") && fonts.contains("DejaVuSans "))
        #expect(!fonts.contains("no "), "a font is not embedded:\n\(fonts)")
    }

    @Test func sameBookGivesSameBytes() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let book = Fixtures.longBook(rows: 8)
        let a = dir.appendingPathComponent("a.pdf")
        let b = dir.appendingPathComponent("b.pdf")
        try BookRenderer(template: Fixtures.a5).renderPDF(book, to: a)
        try BookRenderer(template: Fixtures.a5).renderPDF(book, to: b)
        let first = try Data(contentsOf: a)
        #expect(first.count > 1000)
        #expect(first == (try Data(contentsOf: b)))
        #expect(String(decoding: first, as: UTF8.self).contains("/CreationDate (20000101000000Z)"))
    }

    @Test func unwritablePathThrowsAndLeavesNothing() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A regular file where a directory should be: unwritable even for root.
        let file = dir.appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: file)
        let inside = file.appendingPathComponent("book.pdf")
        #expect {
            try BookRenderer(template: Fixtures.a5).renderPDF(Fixtures.longBook(rows: 3), to: inside)
        } throws: { error in
            String(describing: error).contains(inside.path)
        }
        // A directory in the way of the target: the render completes, the rename fails, the temporary goes.
        let occupied = dir.appendingPathComponent("occupied.pdf")
        try FileManager.default.createDirectory(at: occupied, withIntermediateDirectories: false)
        #expect {
            try BookRenderer(template: Fixtures.a5).renderPDF(Fixtures.longBook(rows: 3), to: occupied)
        } throws: { error in
            String(describing: error).contains(occupied.path)
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(left == ["not-a-directory", "occupied.pdf"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: occupied.path).isEmpty)
    }

    @Test func bundledFontsAreLoaded() {
        #expect(BundledFonts.directory != nil, "Fonts/ is missing DejaVu Sans: run the setup script")
    }

    @Test func pangoSizesArePoints() throws {
        // At 72 dpi a 20 pt line of DejaVu Sans is 1.16 em high (23.3 pt); PangoCairo's default
        // 96 dpi would give 31 pt.
        let context = try TextContext(fontMap: FontMap())
        let measurer = PangoMeasurer(layout: try TextLayout(context: context))
        let size = measurer.measure("12.34", font: FontSpec(size: 20), width: 500)
        #expect(size.height > 22 && size.height < 25, "line height \(size.height)")
        let wrapped = measurer.measure("Turn right onto the gravel track", font: FontSpec(size: 10), width: 60)
        #expect(wrapped.width <= 60 && wrapped.height > 2 * size.height / 2)
    }
}
