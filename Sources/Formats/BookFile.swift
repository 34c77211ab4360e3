import AtomicFile
import Foundation
import Model

/// Reads and writes the book file: UTF-8 JSON, described in `docs/book-format.md`.
public enum BookFile {
    /// Reads a book, refusing a file written by a newer roadbook, migrating one written by an older
    /// (see `BookMigration`), and naming the field at fault in a malformed one.
    /// - Throws: `FormatError` naming the file and the field.
    public static func read(contentsOf url: URL) throws -> Book {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw FormatError(file: url.path, message: "cannot read: \(reason(error))")
        }
        return try decode(data, fileName: url.path)
    }

    /// Decodes a book from JSON bytes; `fileName` is used in messages.
    public static func decode(_ data: Data, fileName: String) throws -> Book {
        struct Header: Decodable { var schemaVersion: Int? }
        let header: Header
        do { header = try JSONDecoder().decode(Header.self, from: data) } catch {
            throw FormatError(file: fileName, message: "not a book file: \(describe(error))")
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
        do {
            return try JSONDecoder().decode(Book.self, from: current)
        } catch let error as DecodingError {
            let (field, message) = fieldAndMessage(error)
            throw FormatError(file: fileName, field: field, message: field.map { "\($0) \(message)" } ?? message)
        } catch {
            throw FormatError(file: fileName, message: describe(error))
        }
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
        let data = try encode(book)
        do { try AtomicFile.write(data, to: url) } catch let error as AtomicFile.WriteError {
            throw FormatError(file: url.path, message: "cannot write: \(error.reason)")
        }
    }

    private static func fieldAndMessage(_ error: DecodingError) -> (String?, String) {
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
            return (path(context.codingPath), "has the wrong type (expected \(type))")
        case .valueNotFound(let type, let context):
            return (path(context.codingPath), "is null (expected \(type))")
        case .dataCorrupted(let context):
            return (path(context.codingPath), context.debugDescription)
        @unknown default:
            return (nil, String(describing: error))
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let decoding = error as? DecodingError, case .dataCorrupted(let context) = decoding {
            if let underlying = context.underlyingError as NSError?,
               let detail = underlying.userInfo[NSDebugDescriptionErrorKey] as? String {
                return detail
            }
            return context.debugDescription
        }
        return reason(error)
    }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}
