import Foundation
import Layout
import Testing

@Suite("Note markup in linear time")
struct MarkupLinearTests {
    @Test("200 KB of alternating ** and _ markup parses, and each marker still pairs")
    func longAlternatingMarkup() {
        // Quadratic look-ahead took 19 s for 40 KB; this is five times that.
        let unit = "**b** _i_ x "
        let text = String(repeating: unit, count: 200_000 / unit.count)
        let markup = NoteMarkup.pango(from: text)
        #expect(markup.hasPrefix("<b>b</b> <i>i</i> x "))
        #expect(markup.components(separatedBy: "<b>").count - 1 == 200_000 / unit.count)
        #expect(NoteMarkup.pango(from: "a ** lone") == "a ** lone")
        #expect(NoteMarkup.pango(from: "snake_case_name") == "snake_case_name")
    }
}
