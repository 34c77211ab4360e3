import Foundation
import Workflows

/// The `roadbook` command line: finds the subcommand, parses, runs, and turns errors into exit
/// statuses (64 for a wrong command line, 1 for a failure, a command's own: `check`'s 65).
public enum Roadbook {
    static var commands: [any Command.Type] { [BuildCommand.self, RenderCommand.self, InspectCommand.self, CheckCommand.self, TulipCommand.self, ProfileCommand.self, RegenerateCommand.self, RouteCommand.self, HandlesCommand.self, NoteCommand.self, ApplyCommand.self, UndoCommand.self, RedoCommand.self, UndoApplyCommand.self, RemoveRouteCommand.self, ExportCommand.self, LinksCommand.self, PrepareCommand.self, ServeCommand.self] }

    /// What roadbook is, in the help's first line and the man page's NAME.
    static let summary = "turns a route into a printable rally road book"

    /// `roadbook`'s own options, given instead of a command; the help, the man page and the
    /// completions list them.
    static let ownOptions = [Option("version", .flag, help: "print the version and the commit it was built from"), Option.helpFlag]

    /// Given instead of a command, and left out of the help: `scripts/install.sh` runs them to
    /// write the man page and the completions from the same declarations as the help.
    static let hiddenOptions = [Option("man", .flag, help: "print the manual page (roff)"),
                                Option("completions", .choice(Completions.Shell.allCases.map(\.rawValue)),
                                       help: "print the completion script for the shell")]

    static var help: String {
        let width = commands.map { $0.name.count }.max() ?? 0
        let list = commands.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.declaration.abstract)" }
        return """
        roadbook: \(summary).

        Usage: roadbook <command> [options]
               roadbook --version

        Commands:
        \(list.joined(separator: "\n"))

        Options:
        \(Option.list(ownOptions))

        Run 'roadbook <command> --help' for a command's options.
        """
    }

    /// `roadbook --version`'s line: `roadbook 0.9.0 (61120d5)`.
    static var versionLine: String { "roadbook \(BuildInfo.version) (\(BuildInfo.commit() ?? "unknown commit"))" }

    /// Answers `--version`, `--man` and `--completions SHELL`; nil when `arguments` start with none.
    private static func ownOption(_ arguments: [String], console: any Console) -> Int32? {
        guard let first = arguments.first, first != "--help",
              let option = (ownOptions + hiddenOptions).first(where: { "--\($0.name)" == first }) else { return nil }
        let words = Array(arguments.dropFirst())
        var shell: Completions.Shell? = nil
        if option.takesValue {
            guard let given = words.first else {
                console.err("roadbook: --\(option.name) needs a value: \(option.spelledValue)")
                return 64
            }
            do { try option.check(given) } catch {
                console.err("roadbook: \(error)")
                return 64
            }
            shell = Completions.Shell(rawValue: given)
        }
        let extra = option.takesValue ? 1 : 0
        if words.count > extra {
            console.err("roadbook: unexpected argument '\(words[extra])' after --\(option.name)")
            return 64
        }
        let declarations = commands.map { $0.declaration }
        if let shell {
            console.out(Completions.script(for: shell, commands: declarations, ownOptions: ownOptions))
        } else if option.name == "man" {
            console.out(ManPage.text(commands: declarations, ownOptions: ownOptions))
        } else {
            console.out(versionLine)
        }
        return 0
    }

    /// Makes an interrupted run (SIGINT, SIGTERM, SIGHUP) remove its temporary files before it
    /// ends; the `roadbook` executable calls it before `main`.
    public static func installSignalCleanup() {
        installOutputCleanup()
    }

    /// The editor `roadbook serve` starts, for the run of one command line: `main`'s `editor`.
    @TaskLocal static var editor: (any EditorLauncher)?

    /// Runs this process's command line, its arguments taken as bytes (`RawArguments`): a file
    /// name that is not UTF-8 is read and written byte for byte.
    /// - Parameter editor: what `roadbook serve` starts the web editor with (the `roadbook`
    ///   executable passes `Serve`'s `HTTPEditorLauncher`); without one, `serve` fails in one line.
    /// - Returns: the process exit status.
    public static func main(console: any Console = StandardConsole(), editor: (any EditorLauncher)? = nil) async -> Int32 {
        await main(RawArguments.strings(RawArguments.process()), console: console, editor: editor)
    }

    /// Runs the command line `arguments` (without the program name).
    /// - Parameter editor: as for `main(console:editor:)`.
    /// - Returns: the process exit status.
    public static func main(_ arguments: [String], console: any Console = StandardConsole(),
                            editor: (any EditorLauncher)? = nil) async -> Int32 {
        await $editor.withValue(editor) { await run(arguments, console: console) }
    }

    private static func run(_ arguments: [String], console: any Console) async -> Int32 {
        if let status = ownOption(arguments, console: console) { return status }
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
        } catch let error as StatusError {
            console.err("roadbook \(type.name): \(printable(error.message))")
            return error.status
        } catch let error as OutputIsInput {
            console.err("roadbook \(type.name): \(printable(Self.option(naming: error.output, in: parsed) + error.description))")
            return 1
        } catch {
            console.err("roadbook \(type.name): \(printable(worded(error)))")
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
