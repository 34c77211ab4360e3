import Foundation
import Layout
import Model
import Testing
import TestSupport

/// Each feature of a row, checked on its own and together in a text-dump golden.
@Suite("Row features")
struct RowFeatureTests {
    static let tulip = Tulip(origin: .generated, roads: [
        Tulip.Road(role: .entry, angle: 180), Tulip.Road(role: .exit, angle: -90, roadClass: .gravel),
        Tulip.Road(role: .side, angle: 0, roadClass: .tarmac),
    ])

    static var book: Book {
        var notes = [
            Fixtures.note(1, at: 0, "Start at the **village square**", marker: "DSS", type: .dss, cap: 10, resets: true),
            Fixtures.note(2, at: 250, "Left onto the _gravel_ track", cap: 270, danger: 1),
            Fixtures.note(3, at: 1900, "Speed zone through the village", type: .dz, cap: 300),
            Fixtures.note(4, at: 2600, "End of speed zone", type: .fz, cap: 305),
            Fixtures.note(5, at: 4321, "Ford — deep after rain", cap: 95, danger: 3),
            Fixtures.note(6, at: 5000, "Hairpin", marker: "WP1", type: .wpm, cap: 181),
        ]
        notes[1].tulip = tulip
        notes[2].speedLimit = 50
        notes[3].speedLimit = 50
        notes[4].symbols = [.ford, .stones]
        for i in notes.indices { notes[i].elevation = 1000 + Double(i) * 123.4 }
        var book = Fixtures.book(notes)
        book.profile = Profile(spacing: 10, heights: [1000, 1100, 1200], climb: 200, descent: 0)
        return book
    }

    var page: PageLayout { BookLayout.paginate(book: Self.book, template: Fixtures.a5, measurer: FakeMeasurer())[0] }
    func boxes(_ kind: Box.Kind) -> [Box] { page.boxes.filter { $0.kind == kind } }

    @Test("the distance cell is highlighted when the next row is closer than 300 m")
    func nearNext() {
        #expect(boxes(.nearNext).compactMap(\.row) == [1])
    }

    @Test("the odometer's hundredths are set apart, smaller, after the decimal point")
    func hundredths() throws {
        let whole = boxes(.totalDistance), small = boxes(.totalDistanceHundredths)
        #expect(whole.compactMap(\.text) == ["0.", "0.", "1.", "2.", "4.", "5."])
        #expect(small.compactMap(\.text) == ["00", "25", "90", "60", "32", "00"])
        let a = try #require(whole.first?.font), b = try #require(small.first?.font)
        #expect(b.size < a.size)
        #expect(abs(small[0].rect.x - whole[0].rect.maxX) < 1e-9 && small[0].rect.maxY == whole[0].rect.maxY)
    }

    @Test("a reset restarts the total distance and is marked")
    func reset() {
        #expect(boxes(.odometerReset).compactMap(\.row) == [1])
    }

    @Test("danger ! and !!, and !!! framed")
    func danger() {
        #expect(boxes(.danger).compactMap(\.text) == ["!"])
        #expect(boxes(.dangerHigh).compactMap(\.text) == ["!!!"])
    }

    @Test("speed zones show their limit: a sign at DZ, struck through at FZ")
    func speedZones() {
        #expect(boxes(.speedLimit).map { "\($0.row!):\($0.text!)" } == ["3:50"])
        #expect(boxes(.speedLimitEnd).map { "\($0.row!):\($0.text!)" } == ["4:50"])
    }

    @Test("symbols print as tags; text keeps its bold and italic runs")
    func symbolsAndMarkup() {
        #expect(boxes(.symbol).compactMap(\.text) == ["FORD", "STONES"])
        let texts = boxes(.noteText)
        #expect(texts.allSatisfy { $0.markup })
        #expect(texts[0].text == "Start at the <b>village square</b>")
        #expect(texts[1].text == "Left onto the <i>gravel</i> track")
        #expect(texts[4].text == "Ford — deep after rain")
    }

    @Test("the tulip cell carries the note's tulip, and only that")
    func tulips() {
        let cells = boxes(.tulipCell)
        #expect(cells.count == 6)
        #expect(cells.filter { $0.tulip != nil }.compactMap(\.row) == [2])
        #expect(cells[1].tulip == Self.tulip)
    }

    @Test("heights print only when the whole route has terrain")
    func elevation() {
        #expect(boxes(.elevation).compactMap(\.text).first == "1\u{2009}000 m")
        var book = Self.book
        book.profile?.heights[1] = nil
        let without = BookLayout.paginate(book: book, template: Fixtures.a5, measurer: FakeMeasurer())[0]
        #expect(!without.boxes.contains { $0.kind == .elevation })
    }

    @Test("waypoint types are tagged with their type")
    func waypointTypes() {
        #expect(boxes(.waypointType).compactMap(\.text) == ["DSS", "DZ", "FZ", "WPM"])
        let colours = Fixtures.a5.colours.waypoints
        #expect(colours[.wpm] != colours[.wpv] && colours[.dss] != nil)
    }

    @Test("the whole page, as a text dump")
    func golden() {
        if let mismatch = goldenMismatch(page.dump(), named: "row-features.txt") { Issue.record("\(mismatch)") }
    }

    @Test("note markup: bold, italic, escaping, and unpaired markers kept")
    func markup() {
        #expect(NoteMarkup.pango(from: "a **b** _c_ <d> & e") == "a <b>b</b> <i>c</i> &lt;d&gt; &amp; e")
        #expect(NoteMarkup.pango(from: "2 * 3 ** 4") == "2 * 3 ** 4")
        #expect(NoteMarkup.pango(from: "snake_case_name") == "snake_case_name")
        #expect(NoteMarkup.plainText(ofMarkup: "a <b>b</b> &lt;d&gt;") == "a b <d>")
    }
}
