import AtomicFile
import Foundation
import Model

/// What undoing the last Apply (or removal of the route) needs: the book as it was before, and
/// how to tell whether the book was changed by hand since. Kept beside the book as
/// `BOOK.before-apply.json` until the next Apply or until it is undone (see docs/book-format.md).
public struct BeforeApply: Codable, Sendable, Equatable {
    /// The operation that wrote the book.
    public enum Operation: String, Codable, Sendable {
        case apply
        case removeRoute
    }

    /// The value of `format`, telling this file from a book or any other JSON.
    public static let format = "roadbook-before-apply"
    /// The newest version of this file that this build reads and writes.
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    public var operation: Operation
    /// `digest(of:)` of the book file the operation wrote: a book whose bytes differ was changed since.
    public var bookDigest: String
    /// The book before the operation, restored by undo.
    public var previous: Book
    /// The notes the operation wrote, each as the tombstone it becomes if a person deletes it: the
    /// next Apply finds the ones missing from the book and keeps them deleted.
    public var written: [DeletedNote]

    public init(operation: Operation, bookDigest: String, previous: Book, written: [DeletedNote]) {
        self.format = Self.format
        self.version = Self.currentVersion
        self.operation = operation
        self.bookDigest = bookDigest
        self.previous = previous
        self.written = written
    }

    /// A digest of a book file's bytes: FNV-1a over 64 bits, written `fnv1a64:` and 16 hex digits.
    /// It tells a book edited by hand from the one an operation wrote; it is no protection against
    /// someone who wants a different file to pass. O(bytes).
    public static func digest(of data: Data) -> String { BookJournal.digest(data) }

    /// Where the undo of `book` is kept: `BOOK.before-apply.json` beside it (`BOOK` without `.json`).
    public static func location(of book: URL) -> URL {
        let book = FileName.named(book)
        let name = book.lastPathComponent
        let stem = name.lowercased().hasSuffix(".json") ? String(name.dropLast(5)) : name
        return book.deletingLastPathComponent().appendingPathComponent(stem + ".before-apply.json")
    }
}

/// Reads and writes `BOOK.before-apply.json`.
public enum BeforeApplyFile {
    /// Twice the largest book: the previous book and the list of written notes.
    public static let maximumFileSize = 2 * BookFile.maximumFileSize

    /// Reads an undo file, refusing one that is not roadbook's, is newer than this build, or holds a
    /// book that would not read as a book file.
    /// - Throws: `FormatError` naming the file and the field, in one line.
    public static func read(contentsOf url: URL) throws -> BeforeApply {
        let data = try InputFile.read(url, limit: maximumFileSize, what: "an undo file")
        return try decode(data, fileName: url.path)
    }

    /// Decodes and checks an undo file from its bytes; `fileName` is used in messages.
    public static func decode(_ data: Data, fileName: String) throws -> BeforeApply {
        struct Header: Decodable { var format: String?; var version: Int? }
        let header: Header
        do { header = try JSONDecoder().decode(Header.self, from: data) } catch {
            throw translate(error, data: data, fileName: fileName, whole: true)
        }
        guard header.format == BeforeApply.format else {
            throw FormatError(file: fileName, field: "format",
                              message: "not an undo file of roadbook: its \"format\" must be \"\(BeforeApply.format)\"")
        }
        guard let version = header.version, version >= 1 else {
            throw FormatError(file: fileName, field: "version", message: "version must be a whole number, 1 or more")
        }
        guard version <= BeforeApply.currentVersion else {
            throw FormatError(file: fileName, field: "version",
                              message: "version is \(version), but this roadbook reads undo files up to version \(BeforeApply.currentVersion); use a newer roadbook")
        }
        let record: BeforeApply
        do { record = try JSONDecoder().decode(BeforeApply.self, from: data) } catch {
            throw translate(error, data: data, fileName: fileName, whole: false)
        }
        guard record.previous.schemaVersion <= Book.currentSchemaVersion else {
            throw FormatError(file: fileName, field: "previous.schemaVersion",
                              message: "previous.schemaVersion is \(record.previous.schemaVersion); this roadbook reads books up to version \(Book.currentSchemaVersion)")
        }
        do { try record.previous.validate() } catch {
            throw FormatError(file: fileName, field: "previous.\(error.field)", message: "previous.\(error.message)", remedy: error.remedy)
        }
        let hex = record.bookDigest.dropFirst("fnv1a64:".count)
        guard record.bookDigest.hasPrefix("fnv1a64:"), hex.count == 16, hex.allSatisfy(\.isHexDigit) else {
            throw FormatError(file: fileName, field: "bookDigest", message: "bookDigest must be fnv1a64: and 16 hex digits")
        }
        for (i, note) in record.written.enumerated() where !note.coordinate.isValid {
            throw FormatError(file: fileName, field: "written[\(i)].coordinate",
                              message: "written[\(i)].coordinate: latitude must be within ±90 and longitude within ±180")
        }
        return record
    }

    /// A decoding failure said as an undo file's (`JSONFile.formatError`, with a book's whole-number keys).
    private static func translate(_ error: any Error, data: Data, fileName: String, whole: Bool) -> FormatError {
        JSONFile.formatError(error, data: data, fileName: fileName, what: "an undo file of roadbook",
                             wholeNumberKeys: BookFile.wholeNumberKeys, otherwise: whole ? nil : "not a valid book file")
    }

    /// The undo file's JSON: keys sorted and indented, as a book's.
    public static func encode(_ record: BeforeApply) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(record)
        data.append(0x0A)
        return data
    }
}
