/// A font as Layout asks for it; Render turns it into a Pango font description.
public struct FontSpec: Sendable, Hashable {
    /// Font family name, as fontconfig knows it.
    public var family: String
    /// Size in points (1/72 inch).
    public var size: Double
    public var bold: Bool

    public init(family: String = FontSpec.defaultFamily, size: Double, bold: Bool = false) {
        self.family = family
        self.size = size
        self.bold = bold
    }

    /// The family every template uses unless it says otherwise: shipped in `Fonts/` so output
    /// does not depend on the fonts of the machine.
    public static let defaultFamily = "DejaVu Sans"

    /// The same font at another size.
    public func resized(_ size: Double) -> FontSpec {
        FontSpec(family: family, size: size, bold: bold)
    }
}

/// The extent of a laid-out text, in points.
public struct TextSize: Sendable, Equatable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// Measures text the way the renderer will draw it. Layout knows no Cairo: Render hands in a
/// Pango-backed measurer, tests hand in a fake.
public protocol TextMeasurer {
    /// The logical size of `text` drawn in `font`, wrapped at word (or, for a long word,
    /// character) boundaries to at most `width` points.
    func measure(_ text: String, font: FontSpec, width: Double) -> TextSize
}
