import RoadbookCLI

/// Keeps what a command writes, for tests: `Roadbook.main(arguments, console:)` in-process.
public final class CapturingConsole: Console {
    public private(set) var output = ""
    public private(set) var errors = ""
    /// The answers of a person at a terminal, in turn; nil for no terminal (nothing is asked).
    public var answers: [Bool]?
    /// The questions put, in turn.
    public private(set) var questions: [String] = []
    /// The environment a command sees: empty unless a test gives one, so no test reads or writes the
    /// settings of the person running the tests (`UserSettings`).
    public var environment: [String: String]
    public init(answers: [Bool]? = nil, environment: [String: String] = [:]) {
        self.answers = answers
        self.environment = environment
    }
    public func out(_ text: String) { output += text + "\n" }
    public func err(_ text: String) { errors += text + "\n" }
    public func ask(_ question: String) -> Bool? {
        guard answers != nil else { return nil }
        questions.append(question)
        return answers?.isEmpty == false ? answers?.removeFirst() : false
    }
}
