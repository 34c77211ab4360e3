import Foundation
import Formats
import Model

// `roadbook check`: the rules of a well-made book (`BookCheck.standard`) applied to a book file.
// `build` and `export` apply the same rules to the book they write and say what they find as
// warnings; `render` says what the regularity rule finds, the ideal times its pages leave blank.

/// What `checkBook` found.
public struct BookCheckResult: Sendable {
    /// Every fault, rule by rule (`Book.problems()`); empty for a book that keeps every rule.
    public var problems: [BookProblem]
    /// The book's printed rows.
    public var rows: Int
}

/// Reads the book file `url` and applies every rule of `BookCheck.standard` to it. Changes nothing.
/// - Throws: `FormatError` naming the file when it cannot be read as a book.
public func checkBook(_ url: URL) throws -> BookCheckResult {
    let book = try BookFile.read(contentsOf: url)
    return BookCheckResult(problems: book.problems(), rows: book.notes.filter { $0.placement == .onRoute }.count)
}

extension WorkflowLog {
    /// Records what `rules` find in `book`, one warning a problem.
    func recordProblems(of book: Book, checking rules: [any BookCheckRule] = BookCheck.standard) {
        for problem in book.problems(checking: rules) { record(WorkflowMessage(.warning, problem.description)) }
    }
}
