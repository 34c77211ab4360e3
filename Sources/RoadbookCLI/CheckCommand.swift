import Foundation
import Model
import Workflows

/// `roadbook check`: the rules of a well-made book (`BookCheck.standard`) applied to a book file,
/// one line a problem. Changes nothing.
struct CheckCommand: Command {
    /// A book with problems: one line each on standard output, then this status.
    static let problemsStatus: Int32 = 1
    /// A file that cannot be read as a book (EX_DATAERR of sysexits.h, beside the 64 of a wrong
    /// command line): told apart from problems found, for a script.
    static let unreadableStatus: Int32 = 65

    static let declaration = CommandDeclaration(
        name: "check",
        abstract: "Check a book for faults a rider or a timekeeper would meet: sections, waypoints, speed zones, tulips, times.",
        positionals: "BOOK.json", positionalCount: 1...1,
        discussion: """
        Each problem is one line on standard output, the rule's name first, naming the rows as
        inspect numbers them. The rules (docs/checking.md says more):
          sections        one DSS then one ASS a section: no DSS left open, no ASS without its DSS
          first-waypoint  the first waypoint after a start stands 100 m beyond its clear radius from it
          speed-zones     every DZ closed by its FZ, every FZ ending a zone
          radii           waypoint radii (a type's defaults where unset) not under 20 m, clear within open
          drawn-tulips    no tulip drawn by hand left unchecked after a route change changed its junction
          contradictions  no two rows closer than 20 m saying left and right, or with two waypoint types
          regularity      in a regularity book, an ideal time on every row of a section
        build and export apply the same rules to the book they write and print what they find as
        warnings. Exit status: 0 when the book keeps every rule, 1 when a rule found a problem, 65
        when the file cannot be read as a book (one line naming it).
        """,
        options: [])

    var book: URL

    init(_ options: ParsedOptions) throws {
        book = URL(fileURLWithPath: options.positionals[0])
    }

    func run(_ console: any Console) async throws {
        let result: BookCheckResult
        do { result = try checkBook(book) } catch {
            throw StatusError(status: Self.unreadableStatus, message: worded(error))
        }
        guard !result.problems.isEmpty else {
            return console.out("\(book.path): no problems in \(result.rows) row\(result.rows == 1 ? "" : "s")")
        }
        for problem in result.problems { console.out(problem.description) }
        let count = result.problems.count
        throw StatusError(status: Self.problemsStatus, message: "\(book.path): \(count) problem\(count == 1 ? "" : "s") found")
    }
}
