import Foundation
import Model

/// Brings a book file of an older schema version up to `Book.currentSchemaVersion` before it is
/// decoded, so the model reads one version only. Each step rewrites the values its version renamed
/// and sets `schemaVersion`; a migrated book is written back in the current version.
enum BookMigration {
    /// The JSON of `data` (a book of schema `version`) as the current version writes it.
    /// - Throws: `FormatError` when the file is not a JSON object.
    static func upgrade(_ data: Data, from version: Int, fileName: String) throws -> Data {
        guard var book = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw FormatError(file: fileName, message: "not a book file: not a JSON object")
        }
        if version < 2 { book = fromVersion1(book) }
        book["schemaVersion"] = Book.currentSchemaVersion
        return try JSONSerialization.data(withJSONObject: book)
    }

    /// Version 1 → 2: a note typed by a person was kind `note`, now `typed`; a handle placed for a
    /// note had origin `courseNote`, now `note`.
    static func fromVersion1(_ book: [String: Any]) -> [String: Any] {
        var book = book
        if let notes = book["notes"] as? [Any] {
            book["notes"] = notes.map { item -> Any in
                guard var note = item as? [String: Any], note["kind"] as? String == "note" else { return item }
                note["kind"] = Note.Kind.typed.rawValue
                return note
            }
        }
        if var plan = book["plan"] as? [String: Any], let handles = plan["handles"] as? [Any] {
            plan["handles"] = handles.map { item -> Any in
                guard var handle = item as? [String: Any], handle["origin"] as? String == "courseNote" else { return item }
                handle["origin"] = Handle.Origin.note.rawValue
                return handle
            }
            book["plan"] = plan
        }
        return book
    }
}
