import Foundation
import Layout
import Model
@testable import Render
import Testing
import TestSupport

/// A regularity book prints each row's ideal time in a column of its own, at the right of the
/// row; a navigation book has no such column. Times worked out by hand.
@Suite("Regularity pages: the ideal-time column")
struct RegularityPageTests {
    /// A section of 12.345 km: 36 km/h from its DSS, 48 km/h from 5 km, then a liaison row after its ASS.
    /// By hand (36 km/h = 10 m/s; 48 km/h = 0.075 s a metre):
    ///   0 m 00:00:00; 2000 m 200 s = 00:03:20; 5000 m 500 s = 00:08:20;
    ///   8000 m 500 + 3000 × 0.075 = 725 s = 00:12:05; 12 345 m 500 + 7345 × 0.075 = 1050.875 s → 00:17:31;
    ///   12 600 m: after the ASS, no time.
    static func book(purpose: BookSettings.Purpose = .regularity) -> Book {
        var notes = [
            Fixtures.note(1, at: 0, "Start of the regularity", marker: "DSS", type: .dss),
            Fixtures.note(2, at: 2000, "Left at the chapel"),
            Fixtures.note(3, at: 5000, "Right onto the gravel track"),
            Fixtures.note(4, at: 8000, "Straight on past the farm"),
            Fixtures.note(5, at: 12_345, "Finish of the regularity", marker: "ASS", type: .ass),
            Fixtures.note(6, at: 12_600, "Liaison to the park"),
        ]
        notes[0].targetSpeed = 36
        notes[2].targetSpeed = 48
        var book = Fixtures.book(notes)
        book.settings.purpose = purpose
        return book
    }

    static let times = ["00:00:00", "00:03:20", "00:08:20", "00:12:05", "00:17:31"]

    @Test("each timed row shows its time; a new average is shown '→ 48 km/h'; the section's first row and its ASS are tagged")
    func column() throws {
        let page = BookLayout.paginate(book: Self.book(), template: Fixtures.a5, measurer: FakeMeasurer())[0]
        func boxes(_ kind: Box.Kind) -> [Box] { page.boxes.filter { $0.kind == kind } }
        #expect(boxes(.timeCell).compactMap(\.row) == [1, 2, 3, 4, 5, 6], "every row has the column, blank or not")
        #expect(boxes(.idealTime).compactMap(\.text) == Self.times)
        #expect(boxes(.idealTime).compactMap(\.row) == [1, 2, 3, 4, 5], "the liaison row after the ASS has no time")
        #expect(boxes(.idealTime).allSatisfy { $0.font?.bold == true && !$0.clipped })
        #expect(boxes(.speedChange).map { "\($0.row ?? 0) \($0.text ?? "")" } == ["1 → 36 km/h", "3 → 48 km/h"])
        #expect(boxes(.speedChange).allSatisfy { $0.font?.bold == true })
        #expect(boxes(.sectionStart).map { "\($0.row ?? 0) \($0.text ?? "")" } == ["1 START"])
        #expect(boxes(.sectionFinish).map { "\($0.row ?? 0) \($0.text ?? "")" } == ["5 FINISH"])
        #expect(boxes(.headerTime).compactMap(\.text) == ["Time"])

        // The column is the row's right-hand 0.16 (the A5 template's columns.time), out of the notes.
        let template = Fixtures.a5
        #expect(template.timeColumnFraction == 0.16)
        let cell = try #require(boxes(.timeCell).first), notes = try #require(boxes(.notesCell).first)
        let row = template.columnRect(0)
        #expect(abs(cell.rect.maxX - row.maxX) < 1e-9 && abs(cell.rect.width - row.width * 0.16) < 1e-9)
        #expect(abs(notes.rect.maxX - cell.rect.x) < 1e-9)
        #expect(abs(notes.rect.width - row.width * (template.notesColumnFraction - 0.16)) < 1e-9)
        let header = try #require(boxes(.headerTime).first)
        #expect(abs(header.rect.x - cell.rect.x) < 1e-9 && header.rect.maxY <= row.y)
        for box in boxes(.idealTime) + boxes(.speedChange) + boxes(.sectionStart) + boxes(.sectionFinish) {
            #expect(box.rect.x >= cell.rect.x && box.rect.maxX <= cell.rect.maxX + 1e-9, "\(box.kind) inside the time column")
        }
    }

    @Test("a navigation book has no time column: the notes take the whole of their share")
    func navigation() throws {
        let page = BookLayout.paginate(book: Self.book(purpose: .navigation), template: Fixtures.a5, measurer: FakeMeasurer())[0]
        let kinds: Set<Box.Kind> = [.timeCell, .idealTime, .speedChange, .sectionStart, .sectionFinish, .headerTime]
        #expect(!page.boxes.contains { kinds.contains($0.kind) })
        let notes = try #require(page.boxes.first { $0.kind == .notesCell })
        #expect(abs(notes.rect.maxX - Fixtures.a5.columnRect(0).maxX) < 1e-9)
    }

    @Test("two columns a sheet: 'Time' over each")
    func twoUp() {
        let page = BookLayout.paginate(book: Self.book(), template: Fixtures.template("a4-2up"), measurer: FakeMeasurer())[0]
        #expect(page.boxes.filter { $0.kind == .headerTime }.count == 2)
    }

    @Test("the PDF of a regularity book shows the column's words and times (pdftotext); a navigation book's does not")
    func pdf() throws {
        let folder = try TemporaryFolder()
        let regularity = folder.path("regularity.pdf"), navigation = folder.path("navigation.pdf")
        try BookRenderer(template: Fixtures.a5, includeCover: false).renderPDF(Self.book(), to: regularity)
        try BookRenderer(template: Fixtures.a5, includeCover: false).renderPDF(Self.book(purpose: .navigation), to: navigation)
        let timed = try runTool("pdftotext", ["-layout", regularity.path, "-"])
        for needle in Self.times + ["Time", "START", "FINISH", "→ 36 km/h", "→ 48 km/h"] {
            #expect(timed.contains(needle), "\(needle) missing from:\n\(timed)")
        }
        let plain = try runTool("pdftotext", ["-layout", navigation.path, "-"])
        for needle in Self.times + ["Time", "START", "FINISH", "km/h"] {
            #expect(!plain.contains(needle), "\(needle) in a navigation book")
        }
        #expect(plain.contains("Left at the chapel") && plain.contains("Liaison to the park"))
    }
}
