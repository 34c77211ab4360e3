import Foundation

/// Where a command writes: standard output for results, standard error for progress, warnings
/// and errors. Tests hand in a `CapturingConsole` (Tests/TestSupport/CapturingConsole.swift).
public protocol Console: AnyObject {
    func out(_ text: String)
    func err(_ text: String)
}

/// Writes to the process's standard output and standard error.
public final class StandardConsole: Console {
    public init() {}
    public func out(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
    public func err(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }
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
