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
    /// The same for Pango markup (`<b>`, `<i>`, entities).
    func measure(markup: String, font: FontSpec, width: Double) -> TextSize
}

extension TextMeasurer {
    /// Measures Pango markup (`<b>`, `<i>`). This default measures the text without its tags in the
    /// plain font; a measurer backed by Pango overrides it to measure the styled runs exactly.
    public func measure(markup: String, font: FontSpec, width: Double) -> TextSize {
        measure(NoteMarkup.plainText(ofMarkup: markup), font: font, width: width)
    }
}

/// The light markup of note text: `**bold**` and `_italic_`, as organisers type them. Turned into
/// Pango markup for drawing; everything else is text (`<` and `&` included).
public enum NoteMarkup {
    /// Pango markup for `text`: reserved characters escaped, `**…**` bold, `_…_` italic. An
    /// unpaired marker is kept as typed. O(characters): whether a marker closes later is read from
    /// where the last one is, found once.
    public static func pango(from text: String) -> String {
        // Most instructions have no marker and nothing to escape: they are their own markup, and
        // looking at their bytes costs far less than breaking them into characters.
        if !text.utf8.contains(where: { $0 == 0x2A || $0 == 0x5F || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E }) {  // * _ & < >
            return text
        }
        var out = ""
        var bold = false, italic = false
        let chars = Array(text)
        // Markers only count when closed later on: look ahead so a lone "**" stays literal.
        var lastDoubleStar = -1, lastUnderscore = -1
        for k in chars.indices {
            if chars[k] == "_" { lastUnderscore = k }
            if chars[k] == "*", k + 1 < chars.count, chars[k + 1] == "*" { lastDoubleStar = k }
        }
        func closes(_ marker: String, after i: Int) -> Bool {
            (marker == "**" ? lastDoubleStar : lastUnderscore) >= i
        }
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "*", i + 1 < chars.count, chars[i + 1] == "*", bold || closes("**", after: i + 2) {
                out += bold ? "</b>" : "<b>"
                bold.toggle()
                i += 2
                continue
            }
            if c == "_", (italic && isWordEnd(chars, i)) || (!italic && isWordStart(chars, i) && i + 1 < chars.count && closes("_", after: i + 1)) {
                out += italic ? "</i>" : "<i>"
                italic.toggle()
                i += 1
                continue
            }
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(c)
            }
            i += 1
        }
        if italic { out += "</i>" }
        if bold { out += "</b>" }
        return out
    }

    private static func isWordStart(_ chars: [Character], _ i: Int) -> Bool {
        i == 0 || chars[i - 1].isWhitespace || chars[i - 1].isPunctuation
    }

    private static func isWordEnd(_ chars: [Character], _ i: Int) -> Bool {
        i + 1 == chars.count || chars[i + 1].isWhitespace || chars[i + 1].isPunctuation
    }

    /// `markup` without its tags and with entities resolved.
    public static func plainText(ofMarkup markup: String) -> String {
        var out = ""
        var inTag = false
        for c in markup {
            if c == "<" { inTag = true } else if c == ">" { inTag = false } else if !inTag { out.append(c) }
        }
        return out.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
