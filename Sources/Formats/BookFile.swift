import AtomicFile
import Foundation
import Model

/// Reads and writes the book file: UTF-8 JSON, described in `docs/book-format.md`.
public enum BookFile {
    /// The largest book file read: a book of a million route points and ten thousand notes is
    /// under 100 MB; a larger file is not a book, and reading it would cost several times its size.
    public static let maximumFileSize = 256_000_000

    /// Keys whose values are whole numbers in a book: a fraction or a 30-digit number under one of
    /// them is named, not reported as "not valid JSON".
    static let wholeNumberKeys: Set<String> = ["schemaVersion", "id", "danger", "speedLimit", "exitNumber", "nodeID"]

    /// Reads a book, refusing a file written by a newer roadbook, migrating one written by an older
    /// (see `BookMigration`), naming the field at fault in a malformed one, and checking every value
    /// against its range (`Book.validate()`), so a book that reads also renders.
    /// - Throws: `FormatError` naming the file and the field, in one line.
    public static func read(contentsOf url: URL) throws -> Book {
        let data = try InputFile.read(url, limit: maximumFileSize, what: "a book file")
        return try decode(data, fileName: url.path)
    }

    /// Decodes and checks a book from JSON bytes; `fileName` is used in messages.
    public static func decode(_ data: Data, fileName: String) throws -> Book {
        struct Header: Decodable { var schemaVersion: Int? }
        let header: Header
        do { header = try JSONDecoder().decode(Header.self, from: data) } catch {
            throw translate(error, data: data, fileName: fileName, whole: true)
        }
        guard let version = header.schemaVersion else {
            throw FormatError(file: fileName, field: "schemaVersion",
                              message: "schemaVersion missing: this is not a roadbook book file")
        }
        guard version <= Book.currentSchemaVersion else {
            throw FormatError(file: fileName, field: "schemaVersion",
                              message: "schemaVersion is \(version), but this roadbook reads books up to version \(Book.currentSchemaVersion); use a newer roadbook")
        }
        guard version >= 1 else {
            throw FormatError(file: fileName, field: "schemaVersion", message: "schemaVersion must be 1 or more, found \(version)")
        }
        let current = version < Book.currentSchemaVersion
            ? try BookMigration.upgrade(data, from: version, fileName: fileName) : data
        let book: Book
        do { book = try JSONDecoder().decode(Book.self, from: current) } catch {
            // A migrated file is re-encoded: its problems are diagnosed on the bytes as written.
            throw translate(error, data: data, fileName: fileName, whole: false)
        }
        do { try book.validate() } catch {
            throw FormatError(file: fileName, field: error.field, message: error.message)
        }
        return book
    }

    /// A decoding failure as one line, `FILE: FIELD what was expected`, with no Swift or Foundation
    /// wording: type names are said in words and "not valid JSON" becomes the syntax error or the
    /// number out of range, with its field or line.
    /// - Parameter whole: the failure is the whole file's (the header), not a field's.
    static func translate(_ error: any Error, data: Data, fileName: String, whole: Bool) -> FormatError {
        JSONFile.formatError(error, data: data, fileName: fileName, what: "a book file", wholeNumberKeys: wholeNumberKeys,
                             otherwise: whole ? nil : "not a valid book file")
    }

    /// The book as JSON: keys sorted and indented, so the file diffs well and two saves of the same
    /// book give the same bytes.
    public static func encode(_ book: Book) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(book)
        data.append(0x0A)
        return data
    }

    /// Writes the book atomically: the previous file stays as it was if anything fails.
    public static func write(_ book: Book, to url: URL) throws {
        let data: Data
        do { data = try encode(book) } catch let error as EncodingError {
            guard case .invalidValue(let value, let context) = error else { throw FormatError(file: url.path, message: "cannot write the book") }
            let field = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
                .trimmingCharacters(in: CharacterSet(charactersIn: "."))
            throw FormatError(file: url.path, field: field,
                              message: "cannot write: \(field) is \(value), which a book file cannot hold; it must be a finite number")
        }
        do { try AtomicFile.write(data, to: url) } catch let error as AtomicFile.WriteError {
            throw FormatError(file: url.path, message: "cannot write: \(error.reason)")
        }
    }

    static func fieldAndMessage(_ error: DecodingError) -> (String?, String) {
        func path(_ keys: [any CodingKey]) -> String? {
            var text = ""
            for key in keys {
                if let i = key.intValue { text += "[\(i)]" } else { text += text.isEmpty ? key.stringValue : ".\(key.stringValue)" }
            }
            return text.isEmpty ? nil : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            return (path(context.codingPath + [key]), "is missing")
        case .typeMismatch(let type, let context):
            return (path(context.codingPath), "must be \(words(for: type))")
        case .valueNotFound(let type, let context):
            return (path(context.codingPath), "is null; it must be \(words(for: type))")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return (nil, "it is not a JSON object") }
            var detail = context.debugDescription
            // Foundation's own words for an unknown enum value name the Swift type: say the value.
            if detail.hasPrefix("Cannot initialize") {
                detail = "has a value this field does not take (see docs/book-format.md)"
            }
            return (path(context.codingPath), detail)
        @unknown default:
            return (nil, "it is not a book file")
        }
    }

    /// A Swift type as a person says it: "a number", "a list", "an object".
    static func words(for type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Dictionary") { return "an object" }
        if name.hasPrefix("Array") { return "a list" }
        switch name {
        case "String": return "a text in quotes"
        case "Bool": return "true or false"
        case "Int", "Int64", "Int32", "UInt": return "a whole number"
        case "Double", "Float": return "a number"
        default: return "an object"
        }
    }
}
