import Foundation
@testable import RoadbookCLI
import Testing
import TestSupport
@testable import Workflows

/// What `scripts/install.sh` installs beside the binary, printed by the binary from the commands'
/// declarations: the man page and the shell completions; and `--version`.
/// (`scripts/install-test.sh` installs them and runs the installed binary.)
@Suite("The version, the man page and the completions")
struct InstalledFilesTests {
    static var declarations: [CommandDeclaration] { Roadbook.commands.map { $0.declaration } }

    /// Writes what `roadbook ARGUMENTS` prints to a file in `folder`.
    func printed(_ arguments: [String], to name: String, in folder: TemporaryFolder) async throws -> URL {
        let r = await roadbook(arguments)
        #expect(r.status == 0 && r.errors.isEmpty, "\(r.errors)")
        let url = folder.path(name)
        try r.output.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test("--version prints the version and the checkout's commit")
    func version() async throws {
        let r = await roadbook(["--version"])
        #expect(r.status == 0)
        let match = try #require(r.output.wholeMatch(of: /roadbook (\d+\.\d+\.\d+) \((.+)\)\n/), "\(r.output)")
        #expect(match.1 == BuildInfo.version)
        // The test binary is built in the checkout, so git names its commit.
        let head = try runTool("git", ["-C", packageRoot().path, "rev-parse", "--short=7", "HEAD"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(match.2 == head || match.2 == head + "-dirty", "\(r.output)")
    }

    @Test("git's status gives the commit, dirty when a tracked file changed")
    func commitFromStatus() {
        let oid = "61120d5a8f1b2c3d4e5f60718293a4b5c6d7e8f9"
        #expect(BuildInfo.commit(fromStatus: "# branch.oid \(oid)\n# branch.head install\n") == "61120d5")
        #expect(BuildInfo.commit(fromStatus: "# branch.oid \(oid)\n1 .M N... 100644 100644 100644 a b Package.swift\n")
                == "61120d5-dirty")
        #expect(BuildInfo.commit(fromStatus: "# branch.oid (initial)\n") == nil)
    }

    @Test("an installed VERSION file is taken only for this version")
    func versionFile() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("VERSION")
        try "\(BuildInfo.version) 61120d5\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(BuildInfo.installedCommit(versionFile: file) == "61120d5")
        try "0.0.1 61120d5\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(BuildInfo.installedCommit(versionFile: file) == nil)
        #expect(BuildInfo.installedCommit(versionFile: folder.path("missing")) == nil)
    }

    @Test("the own options refuse what they do not take, in one line", arguments: [
        (["--completions"], "roadbook: --completions needs a value: bash|zsh\n"),
        (["--completions", "fish"], "roadbook: --completions must be one of bash, zsh, not 'fish'\n"),
        (["--man", "roadbook.1"], "roadbook: unexpected argument 'roadbook.1' after --man\n"),
        (["--version", "--json"], "roadbook: unexpected argument '--json' after --version\n"),
    ])
    func ownOptionRefusals(arguments: [String], message: String) async {
        let r = await roadbook(arguments)
        #expect(r.status == 64 && r.errors == message && r.output.isEmpty, "\(r.errors)")
    }

    @Test("the man page has every command and option, and man renders it at 80 columns without a warning")
    func manPage() async throws {
        let folder = try TemporaryFolder()
        let page = try await printed(["--man"], to: "roadbook.1", in: folder)
        let text = try String(contentsOf: page, encoding: .utf8)
        for command in Self.declarations {
            #expect(text.contains("\n.SS \(command.name)\n"), "\(command.name)")
            for option in command.options {
                #expect(text.contains(#"\fB\-\-"# + ManPage.escape(option.name) + #"\fR"#), "\(command.name) --\(option.name)")
            }
        }
        let man = try runProgram("env", ["MANWIDTH=80", "man", "--warnings=w", "-l", page.path])
        #expect(man.status == 0 && man.errors.isEmpty, "\(man.errors)")
        #expect(man.output.contains("ROADBOOK(1)") && man.output.contains("--off-route-distance M"))
    }

    @Test("bash: the completion loads and offers the commands, every command's options and a choice's words")
    func bash() async throws {
        let folder = try TemporaryFolder()
        let script = try await printed(["--completions", "bash"], to: "roadbook.bash", in: folder)
        // Each call completes the last of the words given, split as bash splits them (`--units=m` is
        // three words), and prints the answer.
        var calls = [["roadbook", "bu"], ["roadbook", "help", "ex"], ["roadbook", "--ver"], ["roadbook", "build", "--units", ""],
                     ["roadbook", "build", "--units", "=", "m"], ["roadbook", "route", "--engine", "v"], ["roadbook", "render", "b.json", "--dpi", ""]]
        calls += Self.declarations.map { ["roadbook", $0.name, "b.json", "-"] }
        // handles: the subcommand after the book, options and their values skipped; nothing else.
        let subcommands: [([String], String)] = [
            (["roadbook", "handles", "b.json", ""], HandlesCommand.subcommands.list.names.joined(separator: " ")),
            (["roadbook", "handles", "--engine", "osrm", "--concurrency", "=", "2", "b.json", "re"], "remove reorder reverse redo retry"),
            (["roadbook", "handles", "--help", "b.json", "cl"], "clear"),
            (["roadbook", "handles", ""], ""),
            (["roadbook", "handles", "b.json", "list", ""], ""),
        ]
        calls += subcommands.map(\.0)
        let body = calls.map { words in
            "t " + words.map { "'\($0)'" }.joined(separator: " ")
        }
        let lines = try runTool("bash", ["-c", """
            source "$1" && complete -p roadbook
            t() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _roadbook; echo "${COMPREPLY[*]}"; }
            \(body.joined(separator: "\n"))
            """, "bash", script.path]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(lines.prefix(8)) == ["complete -o default -F _roadbook roadbook", "build", "export", "--version", "km mi", "mi",
                                           "valhalla", ""])
        for (command, line) in zip(Self.declarations, lines.dropFirst(8)) {
            let offered = Set(line.split(separator: " ").map(String.init))
            let declared = (command.options + [.helpFlag]).flatMap { ["--\($0.name)"] + ($0.short.map { ["-\($0)"] } ?? []) }
            #expect(offered == Set(declared), "\(command.name)")
        }
        #expect(lines.count >= 8 + Self.declarations.count + subcommands.count, "\(lines)")
        for ((words, offered), line) in zip(subcommands, lines.dropFirst(8 + Self.declarations.count)) {
            #expect(line == offered, "\(words)")
        }
    }

    @Test("zsh: the completion parses, and registers itself with compinit when sourced")
    func zsh() async throws {
        let folder = try TemporaryFolder()
        let script = try await printed(["--completions", "zsh"], to: "_roadbook", in: folder)
        _ = try runTool("zsh", ["-n", script.path])
        let registered = try runTool("zsh", ["-f", "-c", #"autoload -U compinit && compinit -u -D && source "$1" && print -r -- ${_comps[roadbook]}"#,
                                             "zsh", script.path])
        #expect(registered == "_roadbook\n")
    }
}
