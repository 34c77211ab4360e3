import AtomicFile
import Foundation
import Geo
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
        try decode(try InputFile.read(url, limit: maximumFileSize, what: "a book file"), fileName: url.path)
    }

    /// Decodes and checks a book from JSON bytes; `fileName` is used in messages.
    ///
    /// The bytes are parsed once: `schemaVersion` is read first and, when it is the current version
    /// (the usual case), the book is decoded from the same parse; only an older file is migrated and
    /// decoded again. The route's points, most of a long book's bytes, are read by `RoutePointsScan`
    /// without Foundation's decoder when they are plain numbers in range; anything else goes through
    /// the decoder, so its messages still name the field at fault.
    public static func decode(_ data: Data, fileName: String) throws -> Book {
        try DecodedFiles.shared.value(of: data, kind: "book", fileName: fileName) {
            var bytes = data
            return try decode(&bytes, fileName: fileName)
        }
    }

    /// `decode(_:fileName:)` on bytes it may change: the route's points, once read by the scan, are
    /// blanked in place (spaces, newlines kept) so the decoder skips them and a message about
    /// another field keeps its line and column. No copy of the file is made.
    static func decode(_ data: inout Data, fileName: String) throws -> Book {
        let scanned = RoutePointsScan.extract(blanking: &data)
        let envelope: Envelope
        do { envelope = try JSONDecoder().decode(Envelope.self, from: data) } catch let failure as Envelope.BookFailure {
            throw translate(failure.underlying, data: data, fileName: fileName, whole: false)
        } catch let failure as Envelope.HeaderFailure {
            throw translate(failure.underlying, data: data, fileName: fileName, whole: true)
        } catch {
            throw translate(error, data: data, fileName: fileName, whole: true)
        }
        guard let version = envelope.version else {
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
        var book: Book
        if let current = envelope.book {
            book = current
        } else {
            // Migration rewrites the whole file; it reads the original bytes, so a problem it finds
            // is placed on the line the user sees.
            let migrated = try BookMigration.upgrade(data, from: version, fileName: fileName)
            do { book = try JSONDecoder().decode(Book.self, from: migrated) } catch {
                // A migrated file is re-encoded: its problems are diagnosed on the bytes as written.
                throw translate(error, data: data, fileName: fileName, whole: false)
            }
        }
        if let scanned {
            book.route.points = scanned.points
            if let notes = scanned.notes { book.notes = notes }
        }
        do { try book.validate() } catch {
            throw FormatError(file: fileName, field: error.field, message: error.message, remedy: error.remedy)
        }
        return book
    }

    /// The file's `schemaVersion` and, when it is the current version, the book decoded from the
    /// same parse of the bytes. Failures say whether they are the header's or the book's.
    struct Envelope: Decodable {
        struct HeaderFailure: Error { var underlying: any Error }
        struct BookFailure: Error { var underlying: any Error }
        enum Keys: String, CodingKey { case schemaVersion }
        var version: Int?
        var book: Book?

        init(from decoder: any Decoder) throws {
            do {
                version = try decoder.container(keyedBy: Keys.self).decodeIfPresent(Int.self, forKey: .schemaVersion)
            } catch { throw HeaderFailure(underlying: error) }
            guard version == Book.currentSchemaVersion else { book = nil; return }
            do { book = try Book(from: decoder) } catch { throw BookFailure(underlying: error) }
        }
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

    /// The bytes of `book` to save at `url`, once it keeps every rule between its notes
    /// (`Book.checkInvariants()`): a book that breaks one is never written. Every save of a book
    /// goes through here.
    /// - Throws: `FormatError` naming the file, the rule and the rows; or a value no book file can hold.
    public static func dataToSave(_ book: Book, at url: URL) throws -> Data {
        do { try book.checkInvariants() } catch {
            throw FormatError(file: url.path, message: "not written: \(error)")
        }
        do { return try encode(book) } catch let error as EncodingError {
            guard case .invalidValue(let value, let context) = error else { throw FormatError(file: url.path, message: "cannot write the book") }
            let field = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
                .trimmingCharacters(in: CharacterSet(charactersIn: "."))
            throw FormatError(file: url.path, field: field,
                              message: "cannot write: \(field) is \(value), which a book file cannot hold; it must be a finite number")
        }
    }

    /// Writes the book atomically (`dataToSave`): the previous file stays as it was if anything fails.
    public static func write(_ book: Book, to url: URL) throws {
        let data = try dataToSave(book, at: url)
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

/// Reads a book file's `route.points` without Foundation's decoder: a long route is most of a
/// book's bytes, and decoding each `[lat, lon, ele]` as a Swift array through `JSONDecoder` costs
/// about 200 bytes and a few allocations a point. The scan walks the top-level object and the
/// route object byte by byte, skipping every other value, and parses the points list into
/// `RoutePoint`s (32 bytes each: 16 of coordinate, 9 of optional elevation, padding).
///
/// It is a fast path only: it gives up (nil) on anything but the plain form `docs/book-format.md`
/// describes (a key written with escapes, a key twice, a number JSON does not allow, a point that
/// is not two or three numbers, a coordinate out of range), and the caller then decodes the file as
/// it is, so every message about a malformed point still comes from the decoder with its field.
/// O(bytes), one pass.
enum RoutePointsScan {
    /// The points, with their list in `data` turned into an empty one of the same length (`[`,
    /// spaces and the list's newlines, `]`); nil, and `data` unchanged, when the scan gives up.
    ///
    /// In a file of the current version the notes are decoded here too, one at a time, each from
    /// its own bytes, and their list blanked the same way: Foundation's decoder holds a tree of the
    /// whole text it decodes, several times the text's size, and the notes are most of what is left.
    /// When any note fails, the notes are left in place for the decoder to report as it always has.
    static func extract(blanking data: inout Data) -> (points: [RoutePoint], notes: [Note]?)? {
        let scan: (found: (points: [RoutePoint], range: Range<Int>)?, notes: (whole: Range<Int>, items: [Range<Int>])?, current: Bool)
            = data.withUnsafeBytes { raw in
                var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self))
                let found = scanner.scanBook()
                return (found, scanner.notes, scanner.currentVersion)
            }
        guard let found = scan.found else { return nil }
        var notes: [Note]? = nil
        if scan.current, let list = scan.notes {
            let decoder = JSONDecoder()
            notes = try? list.items.map { try decoder.decode(Note.self, from: data[$0]) }
        }
        data.withUnsafeMutableBytes { raw in
            var blank = [found.range]
            if notes != nil, let list = scan.notes { blank.append(list.whole) }
            for range in blank {
                for k in range.dropFirst().dropLast() where raw[k] != 0x0A && raw[k] != 0x0D { raw[k] = 0x20 }
            }
        }
        return (found.points, notes)
    }

    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0
        /// The top-level `notes` list and its items, when written once as a list of objects.
        var notes: (whole: Range<Int>, items: [Range<Int>])? = nil
        /// `schemaVersion` is written as the current version's number.
        var currentVersion = false

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var current: UInt8? { i < bytes.count ? bytes[i] : nil }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }

        mutating func expect(_ c: Character) -> Bool {
            skipSpace()
            guard current == c.asciiValue else { return false }
            i += 1
            return true
        }

        /// The points and the byte range of their list, or nil to let the decoder read the file.
        mutating func scanBook() -> (points: [RoutePoint], range: Range<Int>)? {
            var found: (points: [RoutePoint], range: Range<Int>)? = nil
            guard expect("{") else { return nil }
            if expect("}") { return nil }
            var notesSeen = false
            repeat {
                guard let key = plainKey(), expect(":") else { return nil }
                if key == "route" {
                    guard found == nil, let route = scanRoute() else { return nil }
                    found = route
                } else if key == "notes" {
                    notes = notesSeen ? nil : scanNotes()
                    notesSeen = true
                    guard notes != nil || skipValue() else { return nil }
                } else if key == "schemaVersion" {
                    skipSpace()
                    let start = i
                    guard skipValue() else { return nil }
                    currentVersion = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                        == String(Book.currentSchemaVersion)
                } else {
                    guard skipValue() else { return nil }
                }
            } while expect(",")
            guard expect("}") else { return nil }
            skipSpace()
            guard i == bytes.count else { return nil }
            return found
        }

        /// The notes list's range and each note's, when it is a list; nil (nothing read) otherwise.
        mutating func scanNotes() -> (whole: Range<Int>, items: [Range<Int>])? {
            skipSpace()
            let start = i
            guard current == UInt8(ascii: "[") else { return nil }
            i += 1
            var items: [Range<Int>] = []
            if !expect("]") {
                repeat {
                    skipSpace()
                    let from = i
                    guard current == UInt8(ascii: "{"), skipValue() else { return nil }
                    items.append(from..<i)
                } while expect(",")
                guard expect("]") else { return nil }
            }
            return (start..<i, items)
        }

        mutating func scanRoute() -> (points: [RoutePoint], range: Range<Int>)? {
            var found: (points: [RoutePoint], range: Range<Int>)? = nil
            guard expect("{") else { return nil }
            if expect("}") { return nil }
            repeat {
                guard let key = plainKey(), expect(":") else { return nil }
                if key == "points" {
                    guard found == nil else { return nil }
                    skipSpace()
                    let start = i
                    guard let points = scanPoints() else { return nil }
                    found = (points, start..<i)
                } else {
                    guard skipValue() else { return nil }
                }
            } while expect(",")
            guard expect("}") else { return nil }
            return found
        }

        mutating func scanPoints() -> [RoutePoint]? {
            guard expect("[") else { return nil }
            var points: [RoutePoint] = []
            points.reserveCapacity(bytes.count / 40)
            if expect("]") { return points }
            repeat {
                guard expect("["), let latitude = number(), expect(","), let longitude = number() else { return nil }
                var elevation: Double? = nil
                if expect(",") {
                    skipSpace()
                    if literal("null") { elevation = nil } else {
                        guard let value = number() else { return nil }
                        elevation = value
                    }
                }
                guard expect("]") else { return nil }
                let coordinate = Coordinate(latitude: latitude, longitude: longitude)
                guard coordinate.isValid, elevation?.isFinite ?? true else { return nil }
                points.append(RoutePoint(coordinate: coordinate, elevation: elevation))
            } while expect(",")
            guard expect("]") else { return nil }
            return points
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard i + count <= bytes.count else { return false }
            for k in 0..<count where bytes[i + k] != word.utf8Start[k] { return false }
            i += count
            return true
        }

        /// A key without escapes; nil for one with (the decoder reads those).
        mutating func plainKey() -> String? {
            guard expect("\"") else { return nil }
            let start = i
            while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
                if bytes[i] == UInt8(ascii: "\\") { return nil }
                i += 1
            }
            guard i < bytes.count else { return nil }
            defer { i += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        }

        /// A number as JSON writes it (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`), parsed
        /// with `strtod`, which rounds correctly as the decoder does.
        mutating func number() -> Double? {
            skipSpace()
            let start = i
            func digits() -> Int {
                let from = i
                while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
                return i - from
            }
            if current == UInt8(ascii: "-") { i += 1 }
            if current == UInt8(ascii: "0") { i += 1 } else if digits() == 0 { return nil }
            if current == UInt8(ascii: ".") {
                i += 1
                guard digits() > 0 else { return nil }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                i += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { i += 1 }
                guard digits() > 0 else { return nil }
            }
            let length = i - start
            guard length < 64 else { return nil }
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer -> Double? in
                for k in 0..<length { buffer[k] = CChar(bitPattern: bytes[start + k]) }
                buffer[length] = 0
                let value = strtod(buffer.baseAddress!, nil)
                return value.isFinite ? value : nil
            }
        }

        /// Skips one JSON value of any kind; false when the bytes are not JSON here.
        mutating func skipValue() -> Bool {
            skipSpace()
            guard let c = current else { return false }
            switch c {
            case UInt8(ascii: "\""):
                i += 1
                while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
                    i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard i < bytes.count else { return false }
                i += 1
                return true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                // Brackets are counted; strings inside are skipped whole so their brackets do not count.
                var depth = 0
                while i < bytes.count {
                    switch bytes[i] {
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1; i += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1; i += 1
                        if depth == 0 { return true }
                    case UInt8(ascii: "\""): guard skipValue() else { return false }
                    default: i += 1
                    }
                }
                return false
            default:
                // A number, true, false or null: up to the next delimiter.
                let start = i
                while i < bytes.count, !"{}[],: \n\r\t".utf8.contains(bytes[i]) { i += 1 }
                return i > start
            }
        }
    }
}
