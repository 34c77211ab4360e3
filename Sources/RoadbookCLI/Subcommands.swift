import Foundation

/// A command's subcommands as help, the man page and the completions show them (`handles BOOK
/// SUBCOMMAND ARGS`): the same table parses them (`SubcommandTable`).
struct SubcommandList: Sendable {
    /// One line of the list: one subcommand, or several sharing their help (`undo, redo`).
    struct Row: Sendable {
        /// The names that call it.
        var names: [String]
        /// The arguments as help shows them (`COORD [--at N]`).
        var arguments: String
        /// One line.
        var help: String

        /// `add COORD [--at N]`, `undo, redo`.
        var label: String { names.joined(separator: ", ") + (arguments.isEmpty ? "" : " " + arguments) }
    }

    /// The line above the list.
    var heading: String
    var rows: [Row]
    /// Which positional (from 0) is the subcommand's name: `handles BOOK.json SUBCOMMAND` has it second.
    var position: Int

    /// Where the help starts in the list (after two spaces of indent), as `roadbook handles --help`
    /// has always printed it; a label wider than the column sits on its own line.
    static let column = 29

    /// Every name, in the order of the list.
    var names: [String] { rows.flatMap(\.names) }

    /// The block `--help` prints before the discussion.
    var help: String {
        heading + "\n" + twoColumns(rows.map { ($0.label, [$0.help]) }, column: Self.column)
    }
}

/// Subcommands that parse into `Action`, each declared once with its row of the help: how many
/// arguments it takes, and what its words become.
struct SubcommandTable<Action>: Sendable {
    struct Subcommand: Sendable {
        var row: SubcommandList.Row
        /// How many arguments it takes.
        var arguments: ClosedRange<Int>
        /// What it takes, in the refusal of the wrong number: "add takes one coordinate: add COORD".
        var takes: String
        /// The action, from the name it was called by, its arguments and the command's options.
        var make: @Sendable (_ name: String, _ arguments: [String], _ options: ParsedOptions) throws -> Action
    }

    var list: SubcommandList
    var subcommands: [Subcommand]

    init(heading: String, position: Int, _ subcommands: [Subcommand]) {
        self.subcommands = subcommands
        list = SubcommandList(heading: heading, rows: subcommands.map(\.row), position: position)
    }

    /// The action `words` (the subcommand's name, then its arguments) ask for.
    /// - Throws: `UsageError` for an unknown name, the wrong number of arguments, or what `make` refuses.
    func parse(_ words: [String], options: ParsedOptions) throws -> Action {
        guard let name = words.first else { throw UsageError(message: "missing SUBCOMMAND") }
        guard let subcommand = subcommands.first(where: { $0.row.names.contains(name) }) else {
            let names = list.names
            let use = names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
            throw UsageError(message: "unknown subcommand '\(name)': use \(use)")
        }
        let arguments = Array(words.dropFirst())
        guard subcommand.arguments.contains(arguments.count) else { throw UsageError(message: "\(name) takes \(subcommand.takes)") }
        return try subcommand.make(name, arguments, options)
    }
}
