import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a command writes: standard output for results, standard error for progress, warnings
/// and errors; and where it asks a person a question, when one is at the terminal. Tests hand in a
/// `CapturingConsole` (Tests/TestSupport/CapturingConsole.swift).
public protocol Console: AnyObject {
    func out(_ text: String)
    func err(_ text: String)
    /// Asks `question` of the person at the terminal, yes or no (no unless they say yes). Nil when
    /// nobody can answer (standard input is not a terminal): the question is not put.
    func ask(_ question: String) -> Bool?
    /// The environment the command runs in: where the person's settings are kept (`UserSettings`).
    var environment: [String: String] { get }
}

extension Console {
    /// Nobody to ask.
    public func ask(_ question: String) -> Bool? { nil }
    /// The process's environment.
    public var environment: [String: String] { ProcessInfo.processInfo.environment }
}

/// Writes to the process's standard output and standard error; asks on standard error and reads
/// the answer from standard input when it is a terminal.
public final class StandardConsole: Console {
    public init() {}
    public func out(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
    public func err(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }
    public func ask(_ question: String) -> Bool? {
        guard isatty(0) != 0 else { return nil }
        FileHandle.standardError.write(Data((question + " ").utf8))
        guard let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return answer == "y" || answer == "yes"
    }
}

/// A console's question, to be put from a workflow's callback (`ApplyOptions.confirmTurns`), which
/// may be called from any task: the command waits for the workflow, so the console is used by
/// one task at a time.
final class ConsoleQuestion: @unchecked Sendable {
    private let console: any Console
    init(_ console: any Console) { self.console = console }
    func ask(_ question: String) -> Bool? { console.ask(question) }
}

/// A subcommand: its declaration (options, positionals, help) and a type built from the parsed
/// values, which checks what one option cannot check alone, then runs.
/// (The shape of swift-argument-parser's commands, which we cannot import.)
protocol Command {
    /// Everything the command line knows of the command: parsing, help and usage come from it.
    static var declaration: CommandDeclaration { get }
    /// Takes the parsed values; throws `UsageError` for combinations that make no sense.
    init(_ options: ParsedOptions) throws
    func run(_ console: any Console) async throws
}

extension Command {
    static var name: String { declaration.name }

    /// Parses `words` (the arguments after the command's name) and builds the command.
    /// - Throws: `UsageError` with the one-line message the command line prints.
    static func parse(_ words: [String]) throws -> Self {
        try Self(declaration.parse(words))
    }
}

/// A mistake in the command line: exit status 64, with the command's usage.
struct UsageError: Error, CustomStringConvertible, Equatable {
    var message: String
    var description: String { message }
}

/// A failure while running: exit status 1, the message printed as it is.
struct RunError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A run that ends with an exit status of its own, its message printed as `RunError`'s: `check`'s
/// 1 for problems found and 65 for a book it cannot read.
struct StatusError: Error, CustomStringConvertible {
    var status: Int32
    var message: String
    var description: String { message }
}
