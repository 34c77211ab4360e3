import Foundation
import Model
import Workflows

/// A message of the command line as a terminal shows it: the names of arguments that were not
/// UTF-8 as they were given (`RawArguments.shown`), control characters quoted (`Printable.quoted`).
func printable(_ text: String, keepingLines: Bool = false) -> String {
    Printable.quoted(RawArguments.shown(text), keepingLines: keepingLines)
}

/// A console that quotes what it is given (`printable`, lines kept) before passing it on:
/// every command writes through one, so no name it echoes reaches the terminal raw.
final class QuotingConsole: Console {
    let console: any Console
    init(_ console: any Console) { self.console = console }
    func out(_ text: String) { console.out(printable(text, keepingLines: true)) }
    func err(_ text: String) { console.err(printable(text, keepingLines: true)) }
    func ask(_ question: String) -> Bool? { console.ask(printable(question, keepingLines: true)) }
    var environment: [String: String] { console.environment }
}

extension Remedy {
    /// How the command line gives what mends a failure (`RemedyCarrying`): its option, named as
    /// declared.
    var words: String {
        switch self {
        case .templateFile: "give a template file on the command line with --\(RenderCommand.templateOption.name)"
        case .lowerResolution: "lower --\(RenderCommand.dpiOption.name)"
        }
    }
}

/// An error as the command line says it: its message, then how to give what mends it when it
/// carries a `Remedy`.
func worded(_ error: any Error) -> String {
    guard let remedy = (error as? any RemedyCarrying)?.remedy else { return "\(error)" }
    return "\(error); \(remedy.words)"
}
