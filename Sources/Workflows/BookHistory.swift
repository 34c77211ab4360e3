import AtomicFile
import Foundation
import Formats
import Model

/// `roadbook undo` and `roadbook redo`: a book's changes taken back and made again, one step at a
/// time, from its journal (`BookJournal`): notes, handles and Applies alike. Each gives back the
/// very bytes the book and its drawing had, and refuses when a file was changed since by something
/// else (an editor, another program), which the step would overwrite.
public enum BookHistory {
    /// What an undo or redo did.
    public struct Result: Sendable, Equatable {
        /// The step's name: "Add note 'Pass left of the well' at 12.34 km".
        public var name: String
        public var kind: BookJournal.Kind
        /// Steps left to undo, and to redo, after it.
        public var undoable: Int
        public var redoable: Int

        /// "undone: Add note 'Pass left of the well' at 12.34 km (3 more to undo, 1 to redo)":
        /// what `undo` and `redo` print and the editor shows.
        /// - Parameter done: "undone" or "redone".
        public func line(_ done: String) -> String {
            "\(done): \(name) (\(undoable) more to undo, \(redoable) to redo)"
        }
    }

    /// Takes back the last change of the book at `url`.
    /// - Parameter routeOnly: take back only a change of route (an Apply, a regeneration, the
    ///   route removed): `undo-apply`; a later change of another kind is refused, naming it.
    /// - Throws: `WorkflowError` when there is nothing to undo, the book or its drawing changed
    ///   since, or the journal does not fit them; `FormatError` for a journal that does not read.
    public static func undo(_ url: URL, routeOnly: Bool = false, force: Bool = false) throws -> Result {
        try checkJournalledOutputs(url, force: force)
        return try BookLock.hold(url) {
            let read = try BookRead(url)
            var journal = read.journal
            guard let step = journal.undo.last else { throw nothingTo("undo", read) }
            if routeOnly, step.kind != .apply, step.kind != .removeRoute {
                throw WorkflowError("\(shownPath(url)): the last change is '\(Printable.quoted(step.name))', not a change of route: "
                                    + "'roadbook undo' takes back one change at a time")
            }
            journal.undo.removeLast()
            journal.redo.append(step)
            try write(step, back: true, over: read, journal: journal)
            return Result(name: step.name, kind: step.kind, undoable: journal.undo.count, redoable: journal.redo.count)
        }
    }

    /// Makes again the last change undone.
    /// - Throws: as `undo`.
    public static func redo(_ url: URL, force: Bool = false) throws -> Result {
        try checkJournalledOutputs(url, force: force)
        return try BookLock.hold(url) {
            let read = try BookRead(url)
            var journal = read.journal
            guard let step = journal.redo.last else { throw nothingTo("redo", read) }
            journal.redo.removeLast()
            journal.undo.append(step)
            try write(step, back: false, over: read, journal: journal)
            return Result(name: step.name, kind: step.kind, undoable: journal.undo.count, redoable: journal.redo.count)
        }
    }

    /// The steps of the book's journal: what `undo` takes back (newest last) and what `redo` makes again.
    public static func steps(of url: URL) throws -> (undo: [BookJournal.Step], redo: [BookJournal.Step], dropped: Int) {
        let read = try BookRead(url)
        return (read.journal.undo, read.journal.redo, read.journal.dropped)
    }

    private static func nothingTo(_ what: String, _ read: BookRead) -> WorkflowError {
        let dropped = read.journal.dropped > 0 && what == "undo"
            ? " (its \(read.journal.dropped) oldest change\(read.journal.dropped == 1 ? " was" : "s were") dropped to keep the journal small)" : ""
        return WorkflowError("\(shownPath(read.url)): nothing to \(what)\(dropped)")
    }

    /// Writes the book and its drawing as they were before `step` (`back`) or after it, and the
    /// journal with the step moved.
    private static func write(_ step: BookJournal.Step, back: Bool, over read: BookRead, journal: BookJournal) throws {
        let draftURL = RouteDraft.url(for: read.url)
        let draftNow = FileName.exists(draftURL.path)
            ? try InputFile.read(draftURL, limit: RouteDraft.Configuration().maximumFileSize, what: "a draft file") : nil
        // Words of a note in a step's name may hold a line feed: quoted, as a message is one line.
        let name = Printable.quoted(step.name)
        let book = try step.book.map { try turn($0, back: back, current: read.bytes, file: read.url, step: name) }
        if let book, book == nil {
            // No step removes a book: a journal saying so is damaged, and the book stays.
            throw WorkflowError("\(shownPath(BookJournal.location(of: read.url))): the journal's step '\(name)' is damaged: "
                                + "it leaves no book \(back ? "before" : "after") it")
        }
        let draft = try step.draft.map { try turn($0, back: back, current: draftNow, file: draftURL, step: name) }
        // The journal names the book it leaves: the first drawing of a book without an id gave it
        // one, and undoing it gives back the book without, which the journal must then accept.
        var journal = journal
        if let bytes = book ?? nil { journal.bookID = try BookFile.decode(bytes, fileName: read.url.path).id }
        let outputs = OutputSet()
        do {
            if let book = book ?? nil { try outputs.write(book, to: read.url) }
            if let draft, let bytes = draft { try outputs.write(bytes, to: draftURL) }
            try outputs.write(try BookJournalFile.encode(journal), to: BookJournal.location(of: read.url))
            try outputs.commit()
        } catch {
            outputs.discard()
            throw error
        }
        if let draft, draft == nil { try RouteDraft.remove(for: read.url) }
    }

    /// The bytes of one file before (`back`) or after a step, from the bytes it has now.
    /// - Throws: `WorkflowError` when the file is not what the step left (changed since) or the
    ///   patch does not give what the step recorded (a damaged journal).
    private static func turn(_ change: BookJournal.FileChange, back: Bool, current: Data?, file: URL, step: String) throws -> Data? {
        let expected = back ? change.after : change.before, wanted = back ? change.before : change.after
        // A drawing an Apply ended is deleted after its files are committed: a run killed between
        // the two leaves it as it was, which is what undo would give back anyway.
        if back, change.after == nil, current.map(BookJournal.digest) == wanted { return current }
        guard current.map(BookJournal.digest) == expected else {
            throw WorkflowError("\(shownPath(file)) was changed since '\(step)' by something other than roadbook: "
                                + "\(back ? "undo" : "redo") would lose that change")
        }
        let text = String(decoding: current ?? Data(), as: UTF8.self)
        guard let result = back ? change.patch.revert(text) : change.patch.apply(to: text) else {
            throw WorkflowError("\(shownPath(BookJournal.location(of: file))): the journal's step '\(step)' does not fit \(shownPath(file))")
        }
        let bytes = Data(result.utf8)
        guard wanted.map({ $0 == BookJournal.digest(bytes) }) ?? true else {
            throw WorkflowError("\(shownPath(BookJournal.location(of: file))): the journal's step '\(step)' is damaged")
        }
        return wanted == nil ? nil : bytes
    }
}
