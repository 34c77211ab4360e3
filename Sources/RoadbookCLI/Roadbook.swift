import Foundation
import Workflows

/// The `roadbook` command line: finds the subcommand, parses, runs, and turns errors into exit
/// statuses (64 for a wrong command line, 1 for a failure).
public enum Roadbook {
    static var commands: [any Command.Type] { [BuildCommand.self, RenderCommand.self, InspectCommand.self, TulipCommand.self, ProfileCommand.self, RegenerateCommand.self, RouteCommand.self, HandlesCommand.self, ApplyCommand.self, UndoApplyCommand.self, RemoveRouteCommand.self, ExportCommand.self, LinksCommand.self, PrepareCommand.self] }

    static var help: String {
        let width = commands.map { $0.name.count }.max() ?? 0
        let list = commands.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.declaration.abstract)" }
        return """
        roadbook: turns a route into a printable rally road book.

        Usage: roadbook <command> [options]

        Commands:
        \(list.joined(separator: "\n"))

        Run 'roadbook <command> --help' for a command's options.
        """
    }

    /// Makes an interrupted run (SIGINT, SIGTERM, SIGHUP) remove its temporary files before it
    /// ends; the `roadbook` executable calls it before `main`.
    public static func installSignalCleanup() {
        installOutputCleanup()
    }

    /// Runs this process's command line, its arguments taken as bytes (`RawArguments`): a file
    /// name that is not UTF-8 is read byte for byte.
    /// - Returns: the process exit status.
    public static func main(console: any Console = StandardConsole()) async -> Int32 {
        do {
            return await main(try RawArguments.strings(RawArguments.process()), console: console)
        } catch {
            console.err("roadbook: \(printable("\(error)"))")
            return 64
        }
    }

    /// Runs the command line `arguments` (without the program name).
    /// - Returns: the process exit status.
    public static func main(_ arguments: [String], console: any Console = StandardConsole()) async -> Int32 {
        guard let first = arguments.first, first != "--help", first != "-h", first != "help" else {
            if arguments.count > 1, let command = commands.first(where: { $0.name == arguments[1] }) {
                console.out(command.declaration.help)
            } else {
                console.out(help)
            }
            return 0
        }
        guard let type = commands.first(where: { $0.name == first }) else {
            console.err("roadbook: unknown command '\(first)'\n\n\(help)")
            return 64
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            console.out(type.declaration.help)
            return 0
        }
        var parsed: ParsedOptions?
        do {
            parsed = try type.declaration.parse(rest)
            let command = try type.init(parsed!)
            try await command.run(QuotingConsole(console))
            return 0
        } catch let error as UsageError {
            // The refusal, then the usage lines alone: the full help is one command away.
            console.err("roadbook \(type.name): \(printable(error.message))\n\n\(type.declaration.usage)\nRun 'roadbook \(type.name) --help' for its options.")
            return 64
        } catch let error as OutputIsInput {
            console.err("roadbook \(type.name): \(printable(Self.option(naming: error.output, in: parsed) + error.description))")
            return 1
        } catch {
            console.err("roadbook \(type.name): \(printable("\(error)"))")
            return 1
        }
    }

    /// `-o ` (the short form when there is one, with a space) when an option of `parsed` names
    /// `url`, so a message says the output as it was given; empty otherwise.
    static func option(naming url: URL, in parsed: ParsedOptions?) -> String {
        guard let parsed else { return "" }
        let wanted = url.standardizedFileURL
        // Outputs first: `regenerate B --route s.gpx -o s.gpx` names s.gpx twice.
        let options = parsed.declaration.options.filter { ["output", "book"].contains($0.name) }
            + parsed.declaration.options.filter { !["output", "book"].contains($0.name) }
        for option in options where option.takesValue {
            if parsed.strings(option.name).contains(where: { URL(fileURLWithPath: $0).standardizedFileURL == wanted }) {
                return (option.short.map { "-\($0)" } ?? "--\(option.name)") + " "
            }
        }
        return ""
    }
}
