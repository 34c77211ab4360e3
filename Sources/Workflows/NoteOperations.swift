import AtomicFile
import BookAssembly
import Foundation
import Formats
import Model

// `roadbook note`: a person's change to the rows of a book file, made under the book's lock on the
// book as it is now, checked and saved with its step in the book's journal (`roadbook undo` takes
// it back).

/// What a change of the rows did.
public struct NoteChangeResult: Sendable {
    /// The step as the journal names it, and the note it touched.
    public var step: NoteStep
    /// The book as saved.
    public var book: Book
    /// The printed row number of the note the change touched, when it is printed.
    public var row: Int?

    /// The note the change touched, as it is now.
    public var note: Note? { step.noteID.flatMap { id in book.notes.first { $0.id == id } } }
}

/// Makes `change` to the book file at `url` and saves it with its journal step.
/// - Parameters:
///   - revision: the revision the change was worked out on, when the caller read the book earlier
///     (an editor showing the book): a book at another revision is not changed.
///   - force: replace the book and its journal although they are read-only.
///   - now: when, for `Note.wordsEdited` and the journal.
/// - Throws: `NoteEditError` (a row that does not exist or is ambiguous, a value out of range),
///   `WorkflowError` (a stale revision, a book changed meanwhile, a lock not had), `FormatError`.
public func changeNotes(in url: URL, _ change: NoteChange, revision: Int? = nil, force: Bool = false,
                        now: Date = Date()) throws -> NoteChangeResult {
    try checkJournalledOutputs(url, force: force)
    return try BookLock.hold(url) {
        let read = try BookRead(url)
        try read.check(revision: revision)
        var book = read.book
        let step = try NoteEditor(now: ISO8601DateFormatter().string(from: now)).apply(change.onTracedHandles(of: book), to: &book)
        book.revision = read.revision + 1
        let change = JournalledChange(read: read, name: step.name, kind: .note, time: now)
        try BookCommit(book: read.url, journal: change).commit(book)
        let index = step.noteID.flatMap { id in book.notes.firstIndex { $0.id == id } }
        return NoteChangeResult(step: step, book: book, row: index.flatMap(book.printedRow))
    }
}

extension NoteChange {
    /// The change, a note at a handle of a book without handles (its route a track or a line from a
    /// file) placed where the route reaches that handle of the route traced into handles: the
    /// handles `handles list` shows and a drawing starts from (`RouteDraft.startingEditor`).
    func onTracedHandles(of book: Book) throws -> NoteChange {
        guard book.plan == nil, case .add(.handle(let n), let fields) = self else { return self }
        let distances = RouteDraft.startingEditor(for: book).handleDistances()
        guard n >= 1, n <= distances.count else {
            throw NoteEditError(.noSuchRow, "there is no handle \(n): the route traced into handles has \(distances.count)")
        }
        return .add(.distance(distances[n - 1]), fields)
    }
}

/// `checkOutputs` for a change saved over the book at `url` with its journal.
func checkJournalledOutputs(_ url: URL, force: Bool) throws {
    let journal = BookJournal.location(of: url)
    try checkOutputs([RunOutput(url, .edit(of: url), holdsBook: true), RunOutput(journal, .edit(of: journal))],
                     inputs: [RunInput(url, "the book it reads")], force: force)
}

extension BookRead {
    /// Refuses a change worked out on another revision of the book than the one read now.
    func check(revision expected: Int?) throws {
        guard let expected, expected != revision else { return }
        throw WorkflowError("\(shownPath(url)): the book changed since you read it (revision \(expected), now \(revision)): "
                            + "run the command again")
    }
}
