import AtomicFile
import Foundation

/// Something a workflow has to say while it works: a warning (the result is usable but the
/// reader should know something) or a piece of information (such as the climb it found).
public struct WorkflowMessage: Sendable, Equatable, CustomStringConvertible {
    public enum Level: Sendable, Equatable {
        /// The result is usable, but something is missing or was changed.
        case warning
        /// A figure or fact worth telling, nothing wrong.
        case information
    }

    public var level: Level
    /// The message in a reader's words, without a "warning:" prefix.
    public var text: String

    public init(_ level: Level, _ text: String) {
        self.level = level
        self.text = text
    }

    /// `warning: TEXT` for a warning, the text alone otherwise: one line as the command line prints it.
    public var description: String { level == .warning ? "warning: \(text)" : text }
}

/// Where a workflow hands its messages, in the order they arise, as they arise: a run that fails
/// half-way has still said what it found before failing. Workflows never print.
public protocol WorkflowLog: AnyObject {
    func record(_ message: WorkflowMessage)
}

/// Keeps every message, for a program that reads them afterwards.
public final class MessageList: WorkflowLog {
    public private(set) var messages: [WorkflowMessage] = []
    public init() {}
    public func record(_ message: WorkflowMessage) { messages.append(message) }
    /// The warnings alone.
    public var warnings: [WorkflowMessage] { messages.filter { $0.level == .warning } }
}

/// A failure of a workflow that is not a format or engine error: an output that cannot be
/// written, a book without what the workflow needs. The message is one line, ready to print.
public struct WorkflowError: Error, CustomStringConvertible, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Makes SIGINT, SIGTERM and SIGHUP remove the temporary files of outputs being written before
/// the process ends (see `AtomicFile.installSignalCleanup`). For executables, first thing.
public func installOutputCleanup() {
    AtomicFile.installSignalCleanup()
}
