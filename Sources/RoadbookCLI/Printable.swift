import Foundation

/// Text as a terminal shows it, one place for every message: control characters written as `\n`,
/// `\r`, `\t`, `\xHH` (the other C0 controls and DEL) or `\u{HH}` (C1 controls), so a file name,
/// a zip entry's name or an argument holding a line feed cannot forge a line of its own
/// (`roadbook: …`), and one holding ESC or BEL cannot drive the terminal. Backslashes are left as
/// they are: quoting twice changes nothing. A name given in bytes that are not UTF-8 is shown as
/// given (`RawArguments.shown`).
enum Printable {
    /// `text` with its control characters quoted; line feeds kept when `keepingLines` (text of
    /// several lines, each quoted), else quoted too (a message that must stay one line).
    static func quoted(_ text: String, keepingLines: Bool = false) -> String {
        let text = RawArguments.shown(text)
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

/// A console that quotes what it is given (`Printable.quoted`, lines kept) before passing it on:
/// every command writes through one, so no name it echoes reaches the terminal raw.
final class QuotingConsole: Console {
    let console: any Console
    init(_ console: any Console) { self.console = console }
    func out(_ text: String) { console.out(Printable.quoted(text, keepingLines: true)) }
    func err(_ text: String) { console.err(Printable.quoted(text, keepingLines: true)) }
}
