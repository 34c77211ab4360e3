import Layout
import Model
import Testing
import TestSupport

/// The page boxes of a small book, as text.
@Suite struct LayoutGoldenTests {
    static let book = Fixtures.book([
        Fixtures.note(1, at: 500, "DSS at the village square", marker: "DSS", type: .dss, cap: 90, resets: true),
        Fixtures.note(2, at: 1734.5, "Left at the fork onto the gravel track towards the pass", cap: 359.6, danger: 2),
        Fixtures.note(3, at: 3000, "Hairpin"),
    ])

    /// Recorded with `ROADBOOK_RECORD_GOLDENS=1`; read the difference line by line before recording.
    @Test func firstPageDump() {
        let pages = BookLayout.paginate(book: Self.book, template: Fixtures.a5, measurer: FakeMeasurer())
        #expect(pages.count == 1)
        if let mismatch = goldenMismatch(pages[0].dump(), named: "first-page.txt") { Issue.record("\(mismatch)") }
    }
}
