import Foundation

/// One file of a hostile-input corpus (`Tests/…/Hostile/KIND/NN-what.ext`) and the text its
/// refusal must contain, as the folder's `expected.tsv` lists them (file TAB substring).
public struct HostileCase: Sendable, CustomStringConvertible {
    public var file: URL
    public var expected: String
    public var description: String { file.lastPathComponent }
}

/// The cases of a corpus folder, from its `expected.tsv`; every file of the folder must be listed.
public func hostileCases(_ folder: String) -> [HostileCase] {
    let root = packageRoot().appendingPathComponent(folder)
    guard let text = try? String(contentsOf: root.appendingPathComponent("expected.tsv"), encoding: .utf8) else { return [] }
    return text.split(separator: "\n").compactMap { line in
        let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        return HostileCase(file: root.appendingPathComponent(parts[0]), expected: parts[1])
    }
}

/// Texts that belong to Foundation or Swift, never to a message of ours.
public let internalTexts = ["NSCocoaErrorDomain", "The data isn", "not in the correct format", "Dictionary<", "_0",
                            "DecodingError", "EncodingError", "Optional(", "Swift.", "debugDescription", "valid JSON",
                            "error 256", "No error"]

/// What is wrong with `message` as the refusal of `hostile`, or nil when it is right: one line,
/// naming the file and containing the expected text, with no internal wording.
public func refusalProblem(_ message: String, for hostile: HostileCase) -> String? {
    if message.contains("\n") { return "more than one line: \(message)" }
    if !message.hasPrefix(hostile.file.path) { return "does not start with the file's path: \(message)" }
    if !message.contains(hostile.expected) { return "does not contain «\(hostile.expected)»: \(message)" }
    if let bad = internalTexts.first(where: message.contains) { return "contains «\(bad)»: \(message)" }
    if message.count > 400 { return "is \(message.count) characters long" }
    return nil
}
