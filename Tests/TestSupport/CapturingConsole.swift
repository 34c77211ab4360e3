import RoadbookCLI

/// Keeps what a command writes, for tests: `Roadbook.main(arguments, console:)` in-process.
public final class CapturingConsole: Console {
    public private(set) var output = ""
    public private(set) var errors = ""
    public init() {}
    public func out(_ text: String) { output += text + "\n" }
    public func err(_ text: String) { errors += text + "\n" }
}
