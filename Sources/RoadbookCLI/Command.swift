import Foundation

/// Where a command writes: standard output for results, standard error for progress, warnings
/// and errors. Tests hand in a `CapturingConsole`.
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

/// Keeps what a command writes, for tests.
public final class CapturingConsole: Console {
    public private(set) var output = ""
    public private(set) var errors = ""
    public init() {}
    public func out(_ text: String) { output += text + "\n" }
    public func err(_ text: String) { errors += text + "\n" }
}

/// A subcommand: a small type that parses its arguments in `init`, then runs.
/// (The shape of swift-argument-parser's commands, which we cannot import.)
protocol Command {
    /// The word after `roadbook`.
    static var name: String { get }
    /// One line for the list of commands.
    static var abstract: String { get }
    /// The full help text.
    static var help: String { get }
    /// Parses and validates; throws `UsageError` for bad arguments.
    init(_ arguments: inout Arguments) throws
    func run(_ console: any Console) async throws
}

/// A mistake in the command line: exit status 64, with the command's usage.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A failure while running: exit status 1, the message printed as it is.
struct RunError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// The words after the subcommand, taken as options and positionals are recognised.
struct Arguments {
    private var words: [String]
    private var positionals: [String] = []

    init(_ words: [String]) {
        self.words = words
    }

    var wantsHelp: Bool { words.contains("--help") || words.contains("-h") }

    /// Takes `--name VALUE`, `--name=VALUE` or `-s VALUE`; nil when absent.
    mutating func option(_ name: String, short: String? = nil) throws -> String? {
        var value: String? = nil
        var i = 0
        while i < words.count {
            let word = words[i]
            if word == "--" { break }
            if word == "--\(name)" || (short.map { word == "-\($0)" } ?? false) {
                guard i + 1 < words.count, !words[i + 1].hasPrefix("--") else {
                    throw UsageError(message: "\(word) needs a value")
                }
                if value != nil { throw UsageError(message: "--\(name) is given twice") }
                value = words[i + 1]
                words.removeSubrange(i...(i + 1))
            } else if word.hasPrefix("--\(name)=") {
                if value != nil { throw UsageError(message: "--\(name) is given twice") }
                value = String(word.dropFirst(name.count + 3))
                words.remove(at: i)
            } else {
                i += 1
            }
        }
        return value
    }

    /// Takes every `--name VALUE` (or `--name=VALUE`), in order; empty when absent.
    mutating func options(_ name: String) throws -> [String] {
        var values: [String] = []
        var i = 0
        while i < words.count {
            let word = words[i]
            if word == "--" { break }
            if word == "--\(name)" {
                guard i + 1 < words.count, !words[i + 1].hasPrefix("--") else { throw UsageError(message: "\(word) needs a value") }
                values.append(words[i + 1])
                words.removeSubrange(i...(i + 1))
            } else if word.hasPrefix("--\(name)=") {
                values.append(String(word.dropFirst(name.count + 3)))
                words.remove(at: i)
            } else {
                i += 1
            }
        }
        return values
    }

    /// Takes a number option, checking it is finite and within `range`.
    mutating func number(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = try option(name) else { return nil }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError(message: "--\(name) must be a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// Takes a choice among an enumeration's raw values.
    mutating func choice<T: RawRepresentable & CaseIterable>(_ name: String, of type: T.Type) throws -> T?
    where T.RawValue == String {
        guard let text = try option(name) else { return nil }
        guard let value = T(rawValue: text) else {
            throw UsageError(message: "--\(name) must be one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
        }
        return value
    }

    /// Takes a flag such as `--json`.
    mutating func flag(_ name: String) -> Bool {
        guard let i = words.firstIndex(of: "--\(name)") else { return false }
        words.remove(at: i)
        return true
    }

    /// The remaining positional arguments; fails on any unknown option left.
    mutating func finish(positionals expected: ClosedRange<Int>, names: String) throws -> [String] {
        var rest: [String] = []
        var literal = false
        for word in words {
            if !literal && word == "--" { literal = true; continue }
            if !literal && word.hasPrefix("-") && word.count > 1 {
                throw UsageError(message: "unknown option \(word)")
            }
            rest.append(word)
        }
        guard expected.contains(rest.count) else {
            if rest.count < expected.lowerBound { throw UsageError(message: "missing \(names)") }
            throw UsageError(message: "unexpected argument '\(rest[expected.upperBound])'")
        }
        return rest
    }
}
