import Foundation
import Workflows

/// `roadbook undo` and `roadbook redo`: the book's last change taken back, or made again, from its
/// journal: a note, a handle, an Apply alike.
struct UndoCommand: Command {
    static let declaration = CommandDeclaration(
        name: "undo",
        abstract: "Take back the book's last change (a note, a handle, an apply), one step at a time.",
        positionals: "BOOK.json", positionalCount: 1...1,
        discussion: """
        Every change a command makes to a book or its drawing is a named step in BOOK.journal.json
        beside it, which keeps the last 500 steps. undo takes back the newest and prints its name;
        redo makes it again, until another change is made. Refused when the book or its drawing was
        changed since by something other than roadbook (an editor): undoing would lose that change.
        --list prints the steps, oldest first.
        """,
        options: [Option("list", .flag, help: "print the steps undo and redo would take, change nothing"), .force])

    var target: HistoryTarget
    var list: Bool
    var book: URL { target.book }

    init(_ parsed: ParsedOptions) throws {
        target = HistoryTarget(parsed)
        list = parsed.flag("list")
    }

    func run(_ console: any Console) async throws {
        if list {
            for line in try Self.steps(of: book) { console.out(line) }
            return
        }
        console.out(try BookHistory.undo(book, force: target.force).line("undone"))
    }

    /// The journal's steps, one a line: those undo takes back, then those redo makes again.
    static func steps(of book: URL) throws -> [String] {
        let steps = try BookHistory.steps(of: book)
        var lines = steps.undo.enumerated().map { "\($0.offset + 1 + steps.dropped). \($0.element.time)  \($0.element.name)" }
        if lines.isEmpty { lines = ["nothing to undo"] }
        lines += steps.redo.reversed().map { "redo: \($0.time)  \($0.name)" }
        return lines
    }

}

/// `roadbook redo`: the last change undone, made again.
struct RedoCommand: Command {
    static let declaration = CommandDeclaration(
        name: "redo",
        abstract: "Make again the last change undone.",
        positionals: "BOOK.json", positionalCount: 1...1,
        discussion: """
        Makes again the step the last undo took back. Another change made since undo ends what can
        be redone. Refused, as undo is, when the book was changed since by something else.
        """,
        options: [.force])

    var target: HistoryTarget

    init(_ parsed: ParsedOptions) throws {
        target = HistoryTarget(parsed)
    }

    func run(_ console: any Console) async throws {
        console.out(try BookHistory.redo(target.book, force: target.force).line("redone"))
    }
}

/// `roadbook undo-apply`: the last change of route taken back (`undo`, for an Apply).
struct UndoApplyCommand: Command {
    static let declaration = CommandDeclaration(
        name: "undo-apply",
        abstract: "Put back the route, notes and terrain as they were before the last apply or remove-route.",
        positionals: "BOOK.json", positionalCount: 1...1,
        discussion: """
        Takes back the newest step of the book's journal when it is a change of route (an apply,
        a regenerate, a route --retry, a remove-route), with the drawing it ended; `roadbook undo`
        takes back any change. Refused when there is nothing to undo, when the newest step is a
        change of another kind (undo it first), or when the book was changed since by something
        other than roadbook: undoing would lose that change.
        """,
        options: [.force])

    var target: HistoryTarget

    init(_ parsed: ParsedOptions) throws {
        target = HistoryTarget(parsed)
    }

    func run(_ console: any Console) async throws {
        console.out(try ApplyWorkflow.undoApply(target.book, force: target.force))
    }
}

/// The book a history command moves through, and whether a read-only book is replaced.
struct HistoryTarget {
    var book: URL
    var force: Bool

    init(_ parsed: ParsedOptions) {
        book = URL(fileURLWithPath: parsed.positionals[0])
        force = parsed.flag("force")
    }
}
