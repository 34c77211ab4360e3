import Foundation

/// Names as a map gives them (OpenStreetMap's `name` and `ref`), kept only when they name
/// something: mappers leave placeholders in them ("FIXME", "TODO", "unknown", "noname", "?") for a
/// name they did not know, and a row that says "Turn left onto FIXME", or a handle named "?", tells
/// a crew nothing. https://wiki.openstreetmap.org/wiki/Key:fixme asks for such notes in `fixme=*`,
/// and `noname=yes` for a road known to have no name, but the placeholders are still found in
/// `name` and `ref`.
public enum MapNames {
    /// Whole values that stand for "no name known", compared without case, spaces, dots or
    /// underscores: "No name", "n/a" and "N.A." are all one.
    static let placeholders: Set<String> = [
        "fixme", "todo", "tbd", "unknown", "unknownname", "noname", "nonamed", "unnamed", "name", "none", "null",
        "nil", "n/a", "notknown", "placeholder",
    ]

    /// `text` trimmed, or nil when it is empty or a placeholder: a value of only punctuation ("?",
    /// "-", "..."), one of `placeholders`, or one starting with the word "FIXME" or "TODO"
    /// ("FIXME: check name").
    public static func usable(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        guard trimmed.unicodeScalars.contains(where: { CharacterSet.alphanumerics.contains($0) }) else { return nil }
        let folded = trimmed.lowercased()
        let key = String(folded.unicodeScalars.filter { !" ._-".unicodeScalars.contains($0) }.map(Character.init))
        if placeholders.contains(key) { return nil }
        let firstWord = folded.prefix { $0.isLetter }
        if firstWord == "fixme" || firstWord == "todo" { return nil }
        return trimmed
    }
}
