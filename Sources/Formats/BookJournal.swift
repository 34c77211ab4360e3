import AtomicFile
import Foundation
import Model

/// A book's journal: every change made to the book and its unfinished drawing, by name, newest
/// last, with what `undo` takes back and what `redo` makes again. Kept beside the book,
/// `BOOK.journal.json` (`location(of:)`); bounded (`Configuration`), the oldest steps dropped first.
///
/// A step keeps each file it changed as a `LinePatch` with the digests of the file before and
/// after, so an undo gives back the very bytes, and a file changed since by something else (an
/// editor, another program) is noticed and not overwritten.
public struct BookJournal: Codable, Sendable, Equatable {
    /// The journal's bounds, each with its reason.
    public struct Configuration: Sendable, Equatable {
        /// Steps kept: weeks of an organiser's edits, and few enough to read in a moment.
        public var maximumSteps = 500
        /// Bytes the steps' patches hold together: a note's edit takes a few hundred bytes, a new
        /// route its whole line; beyond this the oldest steps are dropped.
        public var maximumBytes = 64 << 20
        public init() {}
    }

    /// What kind of change a step is: `undo-apply` takes back only a change of route.
    public enum Kind: String, Codable, Sendable {
        /// A row added, changed, removed, restored or moved, or its tulip corrected.
        case note
        /// The drawing changed: handles added, moved, removed…
        case handles
        /// A drawing applied, a route retried, a book regenerated onto a new route.
        case apply
        /// The route taken out of the book.
        case removeRoute
        /// Settings of the book (its kind, its title…).
        case book
    }

    /// One file as a step changed it.
    public struct FileChange: Codable, Sendable, Equatable {
        /// `BookJournal.digest` of the file before and after; nil where there was no file.
        public var before: String?
        public var after: String?
        public var patch: LinePatch

        public init(before: Data?, after: Data?) {
            self.before = before.map(BookJournal.digest)
            self.after = after.map(BookJournal.digest)
            patch = LinePatch(from: before.map { String(decoding: $0, as: UTF8.self) } ?? "",
                              to: after.map { String(decoding: $0, as: UTF8.self) } ?? "")
        }
    }

    /// One change.
    public struct Step: Codable, Sendable, Equatable {
        /// "Add note 'Pass left of the well' at 12.34 km".
        public var name: String
        public var kind: Kind
        /// When, ISO 8601 in UTC.
        public var time: String
        /// The book file, when the step changed it.
        public var book: FileChange?
        /// The unfinished drawing (`BOOK.draft.json`), when the step changed it.
        public var draft: FileChange?
        /// For an Apply: the notes it wrote, each as the tombstone it becomes if a person deletes
        /// it from the file by hand; the next Apply keeps those deleted.
        public var written: [DeletedNote]?

        public init(name: String, kind: Kind, time: String, book: FileChange?, draft: FileChange?, written: [DeletedNote]? = nil) {
            self.name = name
            self.kind = kind
            self.time = time
            self.book = book
            self.draft = draft
            self.written = written
        }

        var size: Int { name.utf8.count + (book?.patch.size ?? 0) + (draft?.patch.size ?? 0) + (written?.count ?? 0) * 64 }
    }

    /// The longest step name read: roadbook's names are a row's name and a few words (a marker of up
    /// to 500 characters, the words cut at 60); a longer one is not roadbook's, and would be printed.
    public static let maximumNameLength = 4_000

    /// The value of `format`, telling this file from a book or any other JSON.
    public static let format = "roadbook-journal"
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    /// The `id` of the book the journal belongs to.
    public var bookID: String?
    /// Changes that `undo` takes back, oldest first.
    public var undo: [Step]
    /// Changes undone, that `redo` makes again, the next one last.
    public var redo: [Step]
    /// Steps dropped from the start to keep within the bounds.
    public var dropped: Int

    public init(bookID: String?) {
        format = Self.format
        version = Self.currentVersion
        self.bookID = bookID
        undo = []
        redo = []
        dropped = 0
    }

    /// Records a new change: it is the one `undo` takes back next; what was undone can no longer be
    /// made again. The oldest steps go when the journal would pass its bounds.
    public mutating func record(_ step: Step, configuration: Configuration = Configuration()) {
        undo.append(step)
        redo = []
        var total = undo.reduce(0) { $0 + $1.size }
        while undo.count > 1, undo.count > configuration.maximumSteps || total > configuration.maximumBytes {
            total -= undo.removeFirst().size
            dropped += 1
        }
    }

    /// The newest step that changed the route, and whether any step of another kind came after it.
    public var lastApply: (step: Step, later: [Step])? {
        guard let i = undo.lastIndex(where: { $0.kind == .apply || $0.kind == .removeRoute }) else { return nil }
        return (undo[i], Array(undo[(i + 1)...]))
    }

    /// FNV-1a over 64 bits of a file's bytes, written `fnv1a64:` and 16 hex digits: it tells a file
    /// changed by something else from the one a step wrote; no protection against someone who
    /// wants a different file to pass. O(bytes).
    public static func digest(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        // Over the bytes in place: Data's own iterator costs a call a byte on a drawing's megabytes.
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        let hex = String(hash, radix: 16)
        return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Where the journal of `book` is kept: `out/x.json` → `out/x.journal.json`; a book named without
    /// `.json` gets `.journal.json` added.
    public static func location(of book: URL) -> URL {
        let book = FileName.named(book)
        let base = book.pathExtension.lowercased() == "json" ? book.deletingPathExtension() : book
        return base.deletingLastPathComponent().appendingPathComponent(base.lastPathComponent + ".journal.json")
    }
}

/// Reads and writes `BOOK.journal.json`.
public enum BookJournalFile {
    /// The largest journal read: its bound, and room for the file's own syntax.
    public static let maximumFileSize = 2 * BookJournal.Configuration().maximumBytes

    /// Reads a journal, refusing one that is not roadbook's, is newer than this build, or is damaged.
    /// - Throws: `FormatError` naming the file and what is wrong, in one line.
    public static func read(contentsOf url: URL) throws -> BookJournal {
        try decode(try InputFile.read(url, limit: maximumFileSize, what: "a journal"), fileName: url.path)
    }

    /// Decodes a journal's bytes; `fileName` names it in messages.
    /// - Throws: `FormatError` naming the file and what is wrong, in one line.
    public static func decode(_ data: Data, fileName: String) throws -> BookJournal {
        try DecodedFiles.shared.value(of: data, kind: decodedKind, fileName: fileName) { try decodeBytes(data, fileName: fileName) }
    }

    /// Journals in `DecodedFiles`.
    public static let decodedKind = "journal"

    /// Writes `journal`'s bytes (`encode`) with `write`, and keeps them decoded: the next step of
    /// the same book reads them back without decoding them again.
    public static func write(_ journal: BookJournal, to url: URL, with write: (Data, URL) throws -> Void) throws {
        let bytes = try encode(journal)
        try write(bytes, url)
        DecodedFiles.shared.remember(journal, of: bytes, kind: decodedKind, fileName: url.path)
    }

    static func decodeBytes(_ data: Data, fileName: String) throws -> BookJournal {
        struct Header: Decodable { var format: String?; var version: Int? }
        guard let header = try? JSONDecoder().decode(Header.self, from: data), header.format == BookJournal.format else {
            throw FormatError(file: fileName, message: "not a roadbook journal (it has no \"format\": \"\(BookJournal.format)\")")
        }
        guard let version = header.version, (1...BookJournal.currentVersion).contains(version) else {
            throw FormatError(file: fileName, field: "version", message: "version \(header.version.map(String.init) ?? "missing") is not "
                              + "one this roadbook reads (1 to \(BookJournal.currentVersion))")
        }
        let journal: BookJournal
        do {
            journal = try JSONDecoder().decode(BookJournal.self, from: data)
        } catch {
            throw JSONFile.formatError(error, data: data, fileName: fileName, what: "a roadbook journal",
                                       wholeNumberKeys: ["version", "at", "dropped", "id"])
        }
        try check(journal, file: fileName)
        return journal
    }

    /// The values roadbook never writes: a step's name is what undo and redo print.
    static func check(_ journal: BookJournal, file: String) throws {
        guard journal.dropped >= 0 else {
            throw FormatError(file: file, field: "dropped", message: "dropped is \(journal.dropped); it counts steps, 0 or more")
        }
        for (list, steps) in [("undo", journal.undo), ("redo", journal.redo)] {
            for (i, step) in steps.enumerated() where step.name.count > BookJournal.maximumNameLength {
                throw FormatError(file: file, field: "\(list)[\(i)].name", message: "\(list)[\(i)].name has \(step.name.count) characters; "
                                  + "a step's name has at most \(BookJournal.maximumNameLength)")
            }
        }
    }

    /// The journal's bytes as written.
    public static func encode(_ journal: BookJournal) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(journal)
        data.append(0x0A)
        return data
    }
}
