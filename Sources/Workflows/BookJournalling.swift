import AtomicFile
import Foundation
import Formats
import Model

/// A book as a change reads it: the bytes of the file, the book they hold and its journal, so the
/// change is saved only over those very bytes and recorded as a step of that journal.
public struct BookRead: Sendable {
    public var url: URL
    /// The file's bytes as read.
    public var bytes: Data
    public var book: Book
    public var journal: BookJournal

    /// Reads the book at `url` and its journal (`BookJournal.location`).
    /// - Throws: `FormatError` naming the book or the journal (damaged, not roadbook's, or another
    ///   book's).
    public init(_ url: URL) throws {
        self.url = url
        bytes = try InputFile.read(url, limit: BookFile.maximumFileSize, what: "a book file")
        book = try BookFile.decode(bytes, fileName: url.path)
        journal = try Self.journal(of: url, bookID: book.id)
    }

    /// The journal beside `url`, or a new one.
    static func journal(of url: URL, bookID: String?) throws -> BookJournal {
        let location = BookJournal.location(of: url)
        guard FileName.exists(location.path) else { return BookJournal(bookID: bookID) }
        let journal = try BookJournalFile.read(contentsOf: location)
        // A journal begun before the book had an id belongs to it once it has one.
        guard journal.bookID == nil || journal.bookID == bookID else {
            throw FormatError(file: location.path, message: "this journal belongs to book \(journal.bookID ?? "without an id"), "
                              + "not to \(shownPath(url)) (book \(bookID ?? "without an id")); move it away to keep it, and the book starts a new one")
        }
        return journal
    }

    /// The revision the book was read at.
    public var revision: Int { book.revision ?? 0 }

    /// Refuses when the file no longer holds the bytes read: another program changed it since.
    /// - Throws: `WorkflowError` saying to run the command again.
    public func checkUnchanged() throws {
        let now = try? InputFile.read(url, limit: BookFile.maximumFileSize, what: "a book file")
        guard now == bytes else {
            throw WorkflowError("\(shownPath(url)): the book changed since it was read (revision \(revision)): run the command again")
        }
    }
}

/// One step for a book's journal: its name and kind, and the drawing's bytes before and after when
/// the step changed the drawing.
public struct JournalEntry: Sendable {
    public var name: String
    public var kind: BookJournal.Kind
    /// The unfinished drawing before and after (nil where there was none, or is none after); nil
    /// when the step did not change it.
    public var draft: (before: Data?, after: Data?)?
    /// For an Apply: the notes it wrote (`BookJournal.Step.written`).
    public var written: [DeletedNote]?

    public init(_ name: String, kind: BookJournal.Kind, draft: (before: Data?, after: Data?)? = nil, written: [DeletedNote]? = nil) {
        self.name = name
        self.kind = kind
        self.draft = draft
        self.written = written
    }

    /// The step from `before` to `after` of the book file (nil where the book did not change).
    func step(bookBefore before: Data?, after: Data?, time: Date = Date()) -> BookJournal.Step {
        let book = after.map { BookJournal.FileChange(before: before, after: $0) }
        let drawing = draft.map { BookJournal.FileChange(before: $0.before, after: $0.after) }
        return BookJournal.Step(name: name, kind: kind, time: ISO8601DateFormatter().string(from: time), book: book,
                                draft: drawing, written: written)
    }

    /// Writes the journal of `book` with this step added into `outputs`, and the drawing after it
    /// when the step changed it (a drawing there is none of afterwards is deleted by `finish`).
    func write(into outputs: OutputSet, book: URL, journal: BookJournal, bookBefore: Data?, bookAfter: Data?,
               time: Date = Date()) throws {
        var journal = journal
        journal.record(step(bookBefore: bookBefore, after: bookAfter, time: time))
        try BookJournalFile.write(journal, to: BookJournal.location(of: book)) { try outputs.write($0, to: $1) }
        if let after = draft?.after { try outputs.write(after, to: RouteDraft.url(for: book)) }
    }

    /// After the outputs are committed: the drawing the step ended is deleted.
    func finish(book: URL) throws {
        if let draft, draft.after == nil, draft.before != nil { try RouteDraft.remove(for: book) }
    }
}
