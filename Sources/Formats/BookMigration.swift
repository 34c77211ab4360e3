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
            if let problem = JSONScanner.problem(in: data, wholeNumberKeys: BookFile.wholeNumberKeys) {
                throw FormatError(file: fileName, field: problem.field, message: (problem.field == nil ? "not JSON: " : "") + problem.description)
            }
            throw FormatError(file: fileName, message: "not a book file: it must be a JSON object")
        }
        if version < 2 { book = fromVersion1(book) }
        if version < 3 { book = fromVersion2(book) }
        book["schemaVersion"] = Book.currentSchemaVersion
        return try JSONSerialization.data(withJSONObject: book)
    }

    /// Version 2 → 3: a leg's state was Swift's default encoding of an enum, `{"road": {}}` or
    /// `{"serverError": {"_0": "OSRM: server error (HTTP 500)"}}`; it is now the name,
    /// `"state": "serverError"`, with the reason in `"detail"`. A state that is not an object of one
    /// key is left for the decoder to refuse at its field.
    static func fromVersion2(_ book: [String: Any]) -> [String: Any] {
        guard var plan = book["plan"] as? [String: Any], let legs = plan["legs"] as? [Any] else { return book }
        var book = book
        plan["legs"] = legs.map { item -> Any in
            guard var leg = item as? [String: Any], let state = leg["state"] as? [String: Any], state.count == 1,
                  let (name, value) = state.first else { return item }
            leg["state"] = name
            if let detail = (value as? [String: Any])?["_0"] as? String { leg["detail"] = detail }
            return leg
        }
        book["plan"] = plan
        return book
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
