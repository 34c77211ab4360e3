import Geo
import Layout
import Model
import Testing
import TestSupport

@Suite struct RowContentTests {
    @Test func totalsPartialsAndOdometerReset() {
        let book = Fixtures.book([
            Fixtures.note(1, at: 0, "Start"),
            Fixtures.note(2, at: 1234, "Left"),
            Fixtures.note(3, at: 2500, "DSS", resets: true),
            Fixtures.note(4, at: 3000, "Right"),
            Fixtures.note(5, at: 4567.89, "Fork"),
        ])
        let rows = RowContent.rows(of: book)
        #expect(rows.map(\.number) == [1, 2, 3, 4, 5])
        #expect(rows.map(\.totalText) == ["0.00", "1.23", "2.50", "0.50", "2.07"])
        #expect(rows.map(\.partialText) == ["0.00", "1.23", "1.27", "0.50", "1.57"])
        #expect(rows.map(\.resetsOdometer) == [false, false, true, false, false])
        #expect(abs(rows[4].totalDistance - 2067.89) < 1e-9)
    }

    @Test func milesUseStatuteMiles() {
        let rows = RowContent.rows(of: Fixtures.book([Fixtures.note(1, at: 1609.344, "A"),
                                                      Fixtures.note(2, at: 16093.44, "B")], units: .miles))
        #expect(rows.map(\.totalText) == ["1.00", "10.00"])
        #expect(rows.map(\.partialText) == ["1.00", "9.00"])
        #expect(DistanceFormat.label(.miles) == "mi")
    }

    @Test func capIsThreeRoundedDigits() {
        #expect(CapFormat.text(90) == "C.090")
        #expect(CapFormat.text(5.4) == "C.005")
        #expect(CapFormat.text(0.5) == "C.001")
        #expect(CapFormat.text(359.6) == "C.000")
        #expect(CapFormat.text(360) == "C.000")
        #expect(CapFormat.text(-90) == "C.270")
    }

    @Test func dangerAndOptionalFields() {
        let rows = RowContent.rows(of: Fixtures.book([
            Fixtures.note(1, at: 10, "A", marker: "", cap: nil, danger: 0),
            Fixtures.note(2, at: 20, "B", marker: "CP1", type: .wpv, cap: 12, danger: 3),
        ]))
        #expect(rows[0].dangerText == nil && rows[0].capText == nil && rows[0].marker == nil)
        #expect(rows[1].dangerText == "!!!" && rows[1].capText == "C.012" && rows[1].marker == "CP1")
        #expect(rows[1].waypointType == "WPV")
        #expect(DangerFormat.text(1) == "!" && DangerFormat.text(2) == "!!")
    }

    @Test("a marker that only repeats the waypoint type prints once, in the type's tag")
    func markerRepeatingTheTypePrintsOnce() {
        let rows = RowContent.rows(of: Fixtures.book([
            Fixtures.note(1, at: 0, "Start of the stage", marker: "DSS", type: .dss, resets: true),
            Fixtures.note(2, at: 10, "Checkpoint", marker: "CP1", type: .cp),
            Fixtures.note(3, at: 20, "Finish", marker: " ass ", type: .ass),
            Fixtures.note(4, at: 30, "A marker alone", marker: "DSS"),
        ]))
        #expect(rows.map(\.waypointType) == ["DSS", "CP", "ASS", nil])
        #expect(rows.map(\.marker) == [nil, "CP1", nil, "DSS"])
    }
}

@Suite struct PaginationTests {
    let template = Fixtures.a5

    @Test func a5HoldsSixRowsOnItsPage() {
        #expect(abs(template.pageSize.width - 419.53) < 0.01)
        #expect(abs(template.pageSize.height - 595.28) < 0.01)
        #expect(template.rowsPerPage == 6)
        let columns = template.distanceColumnFraction + template.tulipColumnFraction + template.notesColumnFraction
        #expect(abs(columns - 1) < 1e-9)
    }

    @Test func rowsNeverSplitAcrossPages() {
        let pages = BookLayout.paginate(book: Fixtures.longBook(rows: 13), template: template, measurer: FakeMeasurer())
        #expect(pages.map(\.rowNumbers) == [Array(1...6), Array(7...12), [13]])
        #expect(pages.allSatisfy { $0.pageCount == 3 })
        var pageOfRow: [Int: Int] = [:]
        for page in pages {
            for box in page.boxes {
                guard let row = box.row else { continue }
                #expect(pageOfRow[row, default: page.pageNumber] == page.pageNumber, "row \(row) spans pages")
                pageOfRow[row] = page.pageNumber
                #expect(template.bodyRect.contains(box.rect), "\(box.kind) of row \(row) leaves the body")
            }
        }
        #expect(pageOfRow.count == 13)
    }

    @Test func everyTextStaysInsideItsRow() {
        let long = String(repeating: "Follow the narrow track along the ridge ", count: 3)
        let huge = String(repeating: "Very long instruction that cannot possibly fit ", count: 20)
        let book = Fixtures.book([Fixtures.note(1, at: 100, "Short", cap: 90, danger: 2),
                                  Fixtures.note(2, at: 200, long, marker: "CP1", type: .wpm, cap: 180, danger: 1),
                                  Fixtures.note(3, at: 300, huge, cap: 270)])
        let page = BookLayout.paginate(book: book, template: template, measurer: FakeMeasurer())[0]
        let texts = page.boxes.filter { $0.kind == .noteText }
        #expect(texts.count == 3)
        #expect(texts[0].font?.size == template.fonts.noteText.size && !texts[0].clipped)
        #expect(texts[1].font!.size < template.fonts.noteText.size && !texts[1].clipped)
        #expect(texts[2].font?.size == template.minimumFontSize && texts[2].clipped)
        for box in page.boxes where box.text != nil {
            let cell = page.boxes.first { $0.row == box.row && $0.kind == .notesCell }
            if let row = box.row, let cell, [.noteText, .cap, .danger, .marker, .waypointType].contains(box.kind) {
                #expect(cell.rect.contains(box.rect), "\(box.kind) of row \(row) leaves its cell")
            }
        }
        // No text box overlaps another text box of the same row.
        for row in 1...3 {
            let boxes = page.boxes.filter { $0.row == row && $0.text != nil }
            for (i, a) in boxes.enumerated() {
                for b in boxes[(i + 1)...] {
                    let overlap = a.rect.x < b.rect.maxX && b.rect.x < a.rect.maxX
                        && a.rect.y < b.rect.maxY && b.rect.y < a.rect.maxY
                    #expect(!overlap, "\(a.kind) overlaps \(b.kind) in row \(row)")
                }
            }
        }
    }

    @Test("row 1 of a stage start named DSS prints DSS once")
    func stageStartPrintsDSSOnce() {
        let book = Fixtures.book([Fixtures.note(1, at: 0, "Start of the stage", marker: "DSS", type: .dss, resets: true),
                                  Fixtures.note(2, at: 500, "Turn left", marker: "R1", type: .wpm)])
        let page = BookLayout.paginate(book: book, template: template, measurer: FakeMeasurer())[0]
        let texts = { (row: Int) in page.boxes.filter { $0.row == row }.compactMap(\.text) }
        #expect(texts(1).filter { $0 == "DSS" }.count == 1)
        #expect(page.boxes.contains { $0.row == 1 && $0.kind == .waypointType && $0.text == "DSS" })
        #expect(!page.boxes.contains { $0.row == 1 && $0.kind == .marker })
        // A marker of its own is printed beside the type.
        #expect(texts(2).contains("WPM") && texts(2).contains("R1"))
    }

    @Test func emptyBookStillPrintsOnePage() {
        let pages = BookLayout.paginate(book: Fixtures.book([]), template: template, measurer: FakeMeasurer())
        #expect(pages.count == 1)
        #expect(pages[0].rowNumbers.isEmpty)
        #expect(pages[0].boxes.contains { $0.kind == .footer && $0.text == "page 1 of 1" })
    }
}
