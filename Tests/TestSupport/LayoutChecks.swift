import Layout
import Model

// Layout helpers only the tests use; the library lays pages out one at a time
// (`BookLayout.pages(book:template:measurer:)`).

extension BookLayout {
    /// Lays out every page of `book` at once, for tests that look at pages by index.
    public static func paginate(book: Book, template: PageTemplate, measurer: some TextMeasurer,
                                precedingPages: Int = 0) -> [PageLayout] {
        Array(pages(book: book, template: template, measurer: measurer, precedingPages: precedingPages))
    }
}

extension PageTemplate {
    /// The area rows are laid out in, on the first sheet column: between header and footer,
    /// inside the margins.
    public var bodyRect: Rect { columnRect(0) }
}

extension RoundNumber {
    /// True when `value` is 1, 2 or 5 × 10ⁿ (to one part in a million).
    public static func isRound(_ value: Double) -> Bool {
        guard value > 0, value.isFinite else { return false }
        return abs(atMost(value) - value) <= value * 1e-6
    }
}
