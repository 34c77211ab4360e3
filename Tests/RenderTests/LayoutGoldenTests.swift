import Layout
import Model
import Testing

/// The page boxes of a small book, as text. When the layout changes on purpose, print
/// `pages[0].dump()` and paste it here after reading the difference line by line.
@Suite struct LayoutGoldenTests {
    static let book = Fixtures.book([
        Fixtures.note(1, at: 500, "DSS at the village square", marker: "DSS", type: .dss, cap: 90, resets: true),
        Fixtures.note(2, at: 1734.5, "Left at the fork onto the gravel track towards the pass", cap: 359.6, danger: 2),
        Fixtures.note(3, at: 3000, "Hairpin"),
    ])

    @Test func firstPageDump() {
        let pages = BookLayout.paginate(book: Self.book, template: Fixtures.a5, measurer: FakeMeasurer())
        #expect(pages.count == 1)
        #expect(pages[0].dump() == Self.golden)
    }

    static let golden = """
        page 1 of 1 size 419.53 x 595.28
        header          22.68 22.68 374.17 42.52
        headerTitle     22.68 22.68 334.17 21.26 14.00pt bold left/bottom "Andorra Rally"
        headerInfo      22.68 44.94 334.17 17.26 8.50pt left/top "Pyrenees Trophy  ·  Stage 2  ·  2026-03-14"
        headerUnits     356.85 22.68 40.00 21.26 14.00pt bold right/bottom "km"
        distanceCell    22.68 65.20 93.54 81.00
        tulipCell       116.22 65.20 138.44 81.00
        notesCell       254.66 65.20 142.19 81.00
        rowNumber       25.68 68.20 31.18 12.00 7.50pt bold left/top "1"
        totalDistance   25.68 80.20 87.54 45.00 20.00pt bold center/middle "0.50"
        partialDistance 69.45 128.20 46.77 18.00 9.00pt center/middle "0.50"
        odometerReset   25.68 128.20 40.77 18.00 6.50pt bold left/middle "RESET"
        waypointType    257.66 68.20 28.80 13.60 8.00pt bold center/middle "DSS"
        marker          289.46 68.20 104.39 13.60 8.00pt bold left/middle "DSS"
        cap             257.66 126.40 36.80 16.80 8.00pt bold center/middle "C.090"
        noteText        257.66 84.80 136.19 38.60 10.00pt left/top "DSS at the village square"
        distanceCell    22.68 146.20 93.54 81.00
        tulipCell       116.22 146.20 138.44 81.00
        notesCell       254.66 146.20 142.19 81.00
        rowNumber       25.68 149.20 31.18 12.00 7.50pt bold left/top "2"
        totalDistance   25.68 161.20 87.54 45.00 20.00pt bold center/middle "1.23"
        partialDistance 69.45 209.20 46.77 18.00 9.00pt center/middle "1.23"
        cap             257.66 207.40 36.80 16.80 8.00pt bold center/middle "C.000"
        danger          363.85 207.40 30.00 16.80 12.00pt bold right/middle "!!"
        noteText        257.66 149.20 136.19 55.20 10.00pt left/top "Left at the fork onto the gravel track towards the pass"
        distanceCell    22.68 227.20 93.54 81.00
        tulipCell       116.22 227.20 138.44 81.00
        notesCell       254.66 227.20 142.19 81.00
        rowNumber       25.68 230.20 31.18 12.00 7.50pt bold left/top "3"
        totalDistance   25.68 242.20 87.54 45.00 20.00pt bold center/middle "2.50"
        partialDistance 69.45 290.20 46.77 18.00 9.00pt center/middle "1.27"
        noteText        257.66 230.20 136.19 75.00 10.00pt left/top "Hairpin"
        footer          22.68 552.76 374.17 19.84 7.50pt center/bottom "page 1 of 1"

        """
}
