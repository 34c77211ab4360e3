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
        do {
            let command = try type.parse(rest)
            try await command.run(console)
            return 0
        } catch let error as UsageError {
            // The refusal, then the usage lines alone: the full help is one command away.
            console.err("roadbook \(type.name): \(error.message)\n\n\(type.declaration.usage)\nRun 'roadbook \(type.name) --help' for its options.")
            return 64
        } catch {
            console.err("roadbook \(type.name): \(error)")
            return 1
        }
    }
}
