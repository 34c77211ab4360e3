import Foundation
import Model
import Workflows

/// `roadbook apply`: the drawn route replaces the book's route; every note comes along.
struct ApplyCommand: Command {
    static let declaration = CommandDeclaration(
        name: "apply",
        abstract: "Make the drawn route the book's route, bringing every note along (undo with undo-apply).",
        positionals: "BOOK.json", positionalCount: 1...1,
        discussion: """
        Only a drawing that differs from the book's route is applied: without a draft beside the
        book, or with one that has the book's handles, legs and mode ('roadbook handles BOOK.json
        status' says which), the command fails with "nothing to apply" and writes nothing.

        Every note is placed on the new route: a handle's note exactly where the route reaches its
        handle, the others by their position. Notes the route no longer passes are listed with their
        distance along and how far off they are, and are kept, moved onto the route or removed
        (--off-route for all, --resolve ID=… for one). Generated turn notes are regenerated (from
        --osm's map, else from the engine's junctions, else from the route's shape); words a person
        typed and tulips a person drew never change. A note deleted from the book stays deleted.
        Heights for the new route come from --dem and --elevation; without them the old heights are
        dropped. Refused while legs wait for the engine, unless --use-straight. The book as it was is
        kept in BOOK.before-apply.json for undo-apply. Prints a one-line summary.
        """,
        options: [
            .choice("off-route", of: OffRouteResolution.self, default: .keep,
                    help: "what becomes of notes the new route no longer passes"),
            Option("resolve", .repeatable, value: "ID=move|remove|keep",
                   help: "one note's resolution, by its id (repeatable; overrides --off-route)"),
            .choice("turns", of: ApplyOptions.Turns.self, oldSpellings: ["add": .all], help: """
                the generated turn notes: ask (a book without any yet is asked,
                on a terminal, whether to add them; one with some has them
                regenerated), all, add-without-tulips or none (default: none
                for a book made with --no-turns or last applied with --turns
                none, else ask; a choice given is kept for later applies)
                """),
            Option("use-straight", .flag, help: "apply although legs wait for the engine: they are drawn straight"),
            Option("osm", value: "EXTRACT", help: "OpenStreetMap extract the turns are read from"),
            Option("output", short: "o", value: "OUT.json", help: "write the book here instead of over BOOK.json"),
            .force,
        ] + TerrainOptions.declarations)

    var book: URL
    var output: URL?
    var options: ApplyOptions
    var force: Bool

    init(_ parsed: ParsedOptions) throws {
        book = URL(fileURLWithPath: parsed.positionals[0])
        output = parsed.file("output")
        var resolutions: [Int: OffRouteResolution] = [:]
        for text in parsed.strings("resolve") {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let id = Int(parts[0]), let resolution = OffRouteResolution(rawValue: parts[1]) else {
                throw UsageError(message: "--resolve '\(text)' must be ID=move, ID=remove or ID=keep")
            }
            resolutions[id] = resolution
        }
        options = ApplyOptions(offRoute: try parsed.choice(always: "off-route", as: OffRouteResolution.self),
                               resolutions: resolutions, turns: parsed.choice("turns", as: ApplyOptions.Turns.self) ?? .fromBook,
                               useStraight: parsed.flag("use-straight"), osm: parsed.file("osm"),
                               terrain: try TerrainOptions(parsed).request)
        force = parsed.flag("force")
    }

    func run(_ console: any Console) async throws {
        var options = options
        let question = ConsoleQuestion(console)
        options.confirmTurns = { count in question.ask("Add \(count) turn note\(count == 1 ? "" : "s")? (y/N)") == true }
        let report = try await ApplyWorkflow.applyDrawing(to: book, options: options, output: output, force: force,
                                                            log: ConsoleLog(console))
        for line in report.details { console.out(line) }
        console.out(report.summary)
    }
}

/// `roadbook remove-route`: the route and the notes that existed only because of it go.
struct RemoveRouteCommand: Command {
    static let declaration = CommandDeclaration(
        name: "remove-route",
        abstract: "Remove the route with its generated turns and handle notes; typed notes and checkpoints stay.",
        positionals: "BOOK.json", positionalCount: 1...1,
        discussion: """
        Generated turn notes and the notes made from handles go with the route and its plan; notes a
        person typed, checkpoints and other imported waypoints stay, joined by a straight line marked as
        such. undo-apply puts everything back.
        """,
        options: [
            Option("output", short: "o", value: "OUT.json", help: "write the book here instead of over BOOK.json"),
            .force,
        ])

    var book: URL
    var output: URL?
    var force: Bool

    init(_ parsed: ParsedOptions) throws {
        book = URL(fileURLWithPath: parsed.positionals[0])
        output = parsed.file("output")
        force = parsed.flag("force")
    }

    func run(_ console: any Console) async throws {
        console.out(try await ApplyWorkflow.removeRouteFile(book, output: output, force: force).summary)
    }
}
