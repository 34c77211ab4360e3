import Foundation
import Model
import Workflows

/// `roadbook note BOOK.json SUBCOMMAND`: a person's change to the book's rows (`changeNotes`), one
/// step of the book's journal a command (`roadbook undo` takes it back).
struct NoteCommand: Command {
    /// What the command does: one change, or (`restore --all`) every removed row back.
    typealias Action = NoteChange

    static let subcommands = SubcommandTable<Action>(
        heading: "Subcommands (ROW is the printed row number, its marker such as R12 or CP2, or #ID):", position: 1, [
            .init(row: .init(names: ["add"], arguments: "WORDS", help: "a typed note, at --at, --at-row or --at-handle"),
                  arguments: 1...1, takes: "the note's words: add WORDS --at 12.34km", make: added),
            .init(row: .init(names: ["edit"], arguments: "ROW", help: "change the row's words, marker, danger, symbols, type, CAP"),
                  arguments: 1...1, takes: "a row: edit ROW --text WORDS", make: edited),
            .init(row: .init(names: ["remove"], arguments: "ROW", help: "remove the row (it stays removed when the route changes)"),
                  arguments: 1...1, takes: "a row: remove ROW", make: { _, words, _ in .remove(NoteReference(words[0])) }),
            .init(row: .init(names: ["restore"], arguments: "ROW|--all", help: "put a removed row back, by the number or marker it had"),
                  arguments: 0...1, takes: "a removed row, or --all: restore ROW", make: restored),
            .init(row: .init(names: ["move"], arguments: "ROW", help: "move the row along the route: --to 12.40km or --by +30m"),
                  arguments: 1...1, takes: "a row: move ROW --to 12.40km", make: moved),
            .init(row: .init(names: ["tulip"], arguments: "ROW EDIT",
                             help: "add-road ANGLE [CLASS], remove-road N, exit ANGLE, class N|exit CLASS or reset; the tulip is yours from then on"),
                  arguments: 2...4, takes: "a row and an edit: tulip ROW add-road ANGLE [CLASS]", make: tulip),
            .init(row: .init(names: ["speed"], arguments: "ROW KMH", help: "the average to hold from the row on (regularity)"),
                  arguments: 2...2, takes: "a row and a speed: speed ROW 45", make: speed),
        ])

    /// Which subcommands take each option.
    static let optionUse: [String: Set<String>] = [
        "at": ["add"], "at-row": ["add"], "at-handle": ["add"], "text": ["edit"], "marker": ["add", "edit"],
        "danger": ["add", "edit"], "symbol": ["add", "edit"], "symbols": ["add", "edit"], "type": ["add", "edit"], "cap": ["edit"],
        "speed": ["add", "edit"], "zone": ["add", "edit"], "reset": ["add", "edit"], "to": ["move"], "by": ["move"], "all": ["restore"],
    ]

    static let declaration = CommandDeclaration(
        name: "note",
        abstract: "Add, change, remove, restore or move a row of the book, or correct its tulip (undo with undo).",
        positionals: "BOOK.json SUBCOMMAND [ARGS]", positionalCount: 2...6,
        subcommands: subcommands.list,
        discussion: """
        Each change is saved in the book at once, as one step of its journal (BOOK.journal.json):
        `roadbook undo BOOK.json` takes it back, `roadbook redo BOOK.json` makes it again. Words a
        person sets are theirs: regenerating the turn notes never rewrites them. A removed row stays
        removed when the route changes, until it is restored. A tulip a person changed is never
        redrawn from the road; when the road later changes at its junction, the change's report
        asks you to check it. Two commands changing one book at once wait for each other.

        --at takes a distance with its unit (12.34km, 500m) or a coordinate (as `handles` reads
        them); a coordinate off the route is reported with how far off it is, and the note is kept
        without being printed. ANGLE is degrees from straight on: 0 ahead, 90 right, -90 left.
        """,
        options: [
            Option("at", value: "DISTANCE|COORD", help: "add: where the note goes (12.34km, or a coordinate)"),
            Option("at-row", value: "ROW", help: "add: at the place of this row"),
            Option("at-handle", .integer(1...BookLimits.maximumHandles), value: "N", help: "add: where the route reaches handle N"),
            Option("text", value: "WORDS", help: "edit: the row's words"),
            Option("marker", value: "TEXT", help: "the marker printed before the words, such as CP1 (empty: none)"),
            Option("danger", .integer(Note.dangers), value: "0-3", help: "danger: 0 none, 1 !, 2 !!, 3 !!!"),
            Option("symbol", value: "LIST", help: """
                symbols to add (fuel,ford) or change (+gate,-fuel): the library's
                names (docs/printing.md lists them), in any case
                """),
            Option("symbols", value: "DIR", help: "a folder of pictograms (NAME.svg) whose names --symbol takes too"),
            Option("type", value: "TYPE", help: "the waypoint type: " + WaypointType.allCases.map(\.rawValue).joined(separator: ", ")),
            Option("cap", .number(0...360), value: "DEGREES", help: "edit: the heading printed (CAP)"),
            Option("speed", .integer(Note.speeds), value: "KMH", help: "a speed zone's limit, with --zone"),
            .choice("zone", of: SpeedZone.self, help: "the row starts or ends a speed zone"),
            .choice("reset", of: OdometerReset.self, help: "the odometer restarts at the row (RESET), or not"),
            Option("to", value: "DISTANCE", help: "move: to this distance from the start (12.40km)"),
            Option("by", value: "DISTANCE", help: "move: by this much (+30m, -0.1km)"),
            Option("all", .flag, help: "restore: every removed row"),
            Option("revision", .integer(0...Int(Int32.max)), value: "N",
                   help: "change only a book still at revision N (as an editor read it)"),
            .force,
        ])

    var book: URL
    var change: NoteChange
    var revision: Int?
    var force: Bool

    init(_ options: ParsedOptions) throws {
        book = URL(fileURLWithPath: options.positionals[0])
        let words = Array(options.positionals.dropFirst())
        if let name = words.first, Self.subcommands.list.names.contains(name) {
            for (option, use) in Self.optionUse.sorted(by: { $0.key < $1.key }) where !use.contains(name) && options.string(option) != nil {
                throw UsageError(message: "--\(option) goes with \(use.sorted().joined(separator: " or ")), not \(name)")
            }
        }
        change = try Self.subcommands.parse(words, options: options)
        revision = options.integer("revision")
        force = options.flag("force")
    }

    func run(_ console: any Console) async throws {
        let result = try changeNotes(in: book, try Self.readingStandardInput(change), revision: revision, force: force)
        if let off = result.step.offRoute {
            console.err("roadbook: warning: \(off.foundDescription); kept in the book file, not printed")
        }
        console.out(result.step.name)
        if let note = result.note {
            let row = result.row.map { "row \($0)" } ?? "not printed"
            console.out(String(format: "%@ at %.2f km: %@", row, note.distanceAlong / 1000, Printable.quoted(note.text)))
        }
        console.out("revision \(result.book.revision ?? 0); `roadbook undo \(book.relativePath)` takes it back")
    }
}
