import Foundation
import Layout
import Model
@testable import Render
import Testing
import TestSupport

@Suite("Page templates as data")
struct TemplateTests {
    @Test("every built-in template loads, by name and by path", arguments: TemplateLibrary.builtInNames)
    func builtIn(name: String) throws {
        let path = packageRoot().appendingPathComponent("Templates/\(name).json").path
        let template = try TemplateLibrary.load(path)
        #expect(template.name == name)
        #expect(template.rowsPerPage >= 6)
        let sum = template.distanceColumnFraction + template.tulipColumnFraction + template.notesColumnFraction
        #expect(abs(sum - 1) < 1e-9)
    }

    @Test("A5 is 148 × 210 mm with six rows; A4 two-up holds two columns of six")
    func sizes() {
        let a5 = Fixtures.a5
        #expect(abs(a5.pageSize.width - 419.53) < 0.01 && abs(a5.pageSize.height - 595.28) < 0.01)
        #expect(a5.rowsPerPage == 6)
        let twoUp = Fixtures.template("a4-2up")
        #expect(twoUp.sheetColumns == 2 && twoUp.rowsPerPage == 12)
        #expect(twoUp.columnRect(1).x > twoUp.columnRect(0).maxX)
    }

    @Test("a roll is one long page, or cut every N rows, each page as long as its rows")
    func roll() throws {
        var roll = Fixtures.template("roll")
        #expect(roll.rowsPerPage > 150, "a continuous roll holds as many rows as 5.08 m allow")
        let book = Fixtures.longBook(rows: 25)
        var pages = BookLayout.paginate(book: book, template: roll, measurer: FakeMeasurer())
        #expect(pages.count == 1 && pages[0].rowNumbers.count == 25)
        let chrome = roll.margins.top + roll.margins.bottom + roll.headerHeight + roll.footerHeight
        #expect(abs(pages[0].size.height - (chrome + 25 * roll.rowHeight)) < 1e-6)
        roll.roll = PageTemplate.Roll(rowsPerCut: 10)
        pages = BookLayout.paginate(book: book, template: roll, measurer: FakeMeasurer())
        #expect(pages.map(\.rowNumbers.count) == [10, 10, 5])
        #expect(pages[2].size.height < pages[0].size.height)
        #expect(pages[2].boxes.contains { $0.kind == .footer && $0.rect.maxY <= pages[2].size.height })
    }

    @Test("two columns: rows fill the left column, then the right")
    func twoColumns() {
        let template = Fixtures.template("a4-2up")
        let page = BookLayout.paginate(book: Fixtures.longBook(rows: 9), template: template, measurer: FakeMeasurer())[0]
        let cells = page.boxes.filter { $0.kind == .distanceCell }
        #expect(cells.count == 9)
        #expect(cells[0..<6].allSatisfy { $0.rect.x == cells[0].rect.x })
        #expect(cells[6].rect.x > cells[5].rect.maxX && cells[6].rect.y == cells[0].rect.y)
    }

    @Test("a template written before the time column reads, its time column 0.16 of the row")
    func withoutTime() throws {
        let old = Self.a5Text.replacingOccurrences(of: "\"notes\": 0.38,\n    \"time\": 0.16", with: "\"notes\": 0.38")
        #expect(!old.contains("\"time\""))
        let template = try TemplateFile.decode(Data(old.utf8), fileName: "old.json")
        #expect(template.timeColumnFraction == PageTemplate.defaultTimeColumnFraction && template.timeColumnFraction == 0.16)
        let a4 = Fixtures.template("a4")
        #expect(a4.timeColumnFraction == 0.12, "the built-in templates give theirs")
    }

    static let a5Text: String = {
        let url = packageRoot().appendingPathComponent("Templates/a5.json")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    @Test("a mistake in a template names the field", arguments: [
        ("\"header\": 15,", "\"header\": 15, \"colour\": 1,", "colour is not a template field"),
        // A key with a line break (`\n` in the file) is shown escaped: the message stays one line.
        ("\"header\": 15,", "\"header\": 15, \"col\\nour\": 1,", "col\\nour is not a template field"),
        ("\"height\": 28.6", "\"heigth\": 28.6", "rows.heigth is not a template field"),
        ("\"top\": 8,", "\"top\": -8,", "margins.top must be from 0 to 2000 millimetres, found -8"),
        ("\"height\": 28.6", "\"height\": 250", "rows.height 250 mm does not fit between header and footer"),
        ("\"distance\": 0.25", "\"distance\": 0.45", "columns must add up to 1"),
        ("\"tulip\": 0.37,\n    \"notes\": 0.38", "\"tulip\": 0.71,\n    \"notes\": 0.04", "columns.notes is 5"),
        ("\"cap\": \"#FFD500\"", "\"cap\": \"yellow\"", "colours.cap must be a colour written #RRGGBB"),
        ("\"bold\": true", "\"bold\": 1", "must be true or false"),
        ("\"sheetColumns\": 1", "\"sheetColumns\": 1.5", "sheetColumns must be a whole number"),
        ("\"width\": 148", "\"width\": 60", "mm wide on this page"),
        ("\"time\": 0.16", "\"time\": 0.05", "columns.time is 6.60 mm wide on this page; it needs at least 12 mm"),
        ("\"time\": 0.16", "\"time\": 0.3", "columns.time leaves the notes 10.56 mm in a regularity book; they need at least 15 mm"),
        ("\"time\": 0.16", "\"time\": 1.2", "columns.time must be a share of the row between 0 and 1"),
    ])
    func mistakes(find: String, replace: String, expected: String) {
        #expect(Self.a5Text.contains(find), "fixture must contain \(find)")
        let broken = Self.a5Text.replacingOccurrences(of: find, with: replace)
        let error = #expect(throws: TemplateError.self) { try TemplateFile.decode(Data(broken.utf8), fileName: "my.json") }
        #expect(error?.description.hasPrefix("my.json: ") == true)
        #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
    }

    @Test("an unknown template name lists the built-in ones; a file that is not JSON says so")
    func unknown() throws {
        let error = #expect(throws: TemplateError.self) { try TemplateLibrary.load("a3") }
        #expect(error?.description.contains("a5, roll, a4") == true)
        let folder = try TemporaryFolder()
        try "{ nope".write(to: folder.path("t.json"), atomically: true, encoding: .utf8)
        let notJSON = #expect(throws: TemplateError.self) { try TemplateLibrary.load(folder.path("t.json").path) }
        #expect(notJSON?.description.contains("is not JSON") == true)
    }
}
