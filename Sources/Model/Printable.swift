import Foundation

/// Text as a terminal shows it, one place for every message: control characters written as `\n`,
/// `\r`, `\t`, `\xHH` (the other C0 controls and DEL) or `\u{HH}` (C1 controls), so a file name,
/// a zip entry's name or an argument holding a line feed cannot forge a line of its own
/// (`roadbook: …`), and one holding ESC or BEL cannot drive the terminal. Backslashes are left as
/// they are: quoting twice changes nothing. `FormatError` quotes its message with it, and the
/// command line every line it prints.
public enum Printable {
    /// `text` with its control characters quoted; line feeds kept when `keepingLines` (text of
    /// several lines, each quoted), else quoted too (a message that must stay one line).
    public static func quoted(_ text: String, keepingLines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && !(keepingLines && $0 == "\n") }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n" where keepingLines: result.unicodeScalars.append(scalar)
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: result += String(format: "\\x%02x", scalar.value)
            case _ where isControl(scalar): result += String(format: "\\u{%02x}", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
