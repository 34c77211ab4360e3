import Foundation
import Testing

/// The hostile files of one test target: `Tests/<Target>Tests/Hostile/`, with `expected.tsv`
/// beside them (`file<TAB>text the error must contain`, one line a file; `#` starts a comment).
/// Shared with the corpus runner, which runs the release binary on the same files.
public struct HostileCase: Sendable, CustomTestStringConvertible {
    public var url: URL
    public var expected: String
    public var testDescription: String { url.lastPathComponent }
}

public enum HostileCorpus {
    /// The cases of the `Hostile` folder beside the calling test file.
    public static func cases(file: StaticString = #filePath) -> [HostileCase] {
        cases(at: URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appendingPathComponent("Hostile"))
    }

    /// The cases of a corpus folder given from the package's root (`Tests/FormatsTests/Hostile/books`).
    public static func cases(in folder: String) -> [HostileCase] {
        cases(at: packageRoot().appendingPathComponent(folder))
    }

    /// Texts that belong to Foundation or Swift, never to a message of ours.
    public static let internalTexts = ["NSCocoaErrorDomain", "The data isn", "not in the correct format", "Dictionary<",
                                       "_0", "DecodingError", "EncodingError", "Optional(", "Swift.", "debugDescription",
                                       "valid JSON", "error 256", "No error", "Error Domain="]

    /// A message longer than this is not one line a person reads.
    public static let longestMessage = 400

    private static func cases(at folder: URL) -> [HostileCase] {
        guard let table = try? String(contentsOf: folder.appendingPathComponent("expected.tsv"), encoding: .utf8) else { return [] }
        return table.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            return HostileCase(url: folder.appendingPathComponent(String(parts[0])), expected: String(parts[1]))
        }
    }

    /// Every file in the folder has a line in `expected.tsv`, and every line a file.
    public static func unlisted(file: StaticString = #filePath) -> [String] {
        unlisted(at: URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appendingPathComponent("Hostile"))
    }

    /// `unlisted` for a corpus folder given from the package's root.
    public static func unlisted(in folder: String) -> [String] { unlisted(at: packageRoot().appendingPathComponent(folder)) }

    private static func unlisted(at folder: URL) -> [String] {
        let files = Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).subtracting(["expected.tsv"])
        let listed = Set(cases(at: folder).map(\.url.lastPathComponent))
        return files.symmetricDifference(listed).sorted()
    }

    /// Problems with an error's text: it must be one line, name the file, contain `expected`, and
    /// hold no Foundation or Swift internals.
    public static func problems(with message: String, file: URL, expected: String) -> [String] {
        var found: [String] = []
        if message.contains("\n") { found.append("more than one line") }
        if !message.contains(file.lastPathComponent) { found.append("does not name \(file.lastPathComponent)") }
        if !message.contains(expected) { found.append("does not contain \"\(expected)\"") }
        for leaked in internalTexts where message.contains(leaked) {
            found.append("holds internal text \"\(leaked)\"")
        }
        if message.count > longestMessage { found.append("is \(message.count) characters long") }
        return found
    }
}

extension HostileCorpus {
    /// What is wrong with `message` as the refusal of `hostile`, in one line; nil when it is right.
    public static func problem(_ message: String, for hostile: HostileCase) -> String? {
        let found = problems(with: message, file: hostile.url, expected: hostile.expected)
        return found.isEmpty ? nil : "\(found.joined(separator: "; ")): \(message)"
    }

    /// Checks one case's outcome: `error` is what reading threw (nil when the file was accepted).
    /// Reads `hostile` with `read` and checks that it is refused as `check(_:error:)` requires.
    public static func check(_ hostile: HostileCase, sourceLocation: SourceLocation = #_sourceLocation,
                             reading read: (URL) throws -> Void) {
        do {
            try read(hostile.url)
            check(hostile, error: nil, sourceLocation: sourceLocation)
        } catch {
            check(hostile, error: error, sourceLocation: sourceLocation)
        }
    }

    public static func check(_ hostile: HostileCase, error: (any Error)?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let error else {
            Issue.record("\(hostile.url.lastPathComponent) was accepted; expected an error containing \"\(hostile.expected)\"",
                         sourceLocation: sourceLocation)
            return
        }
        let message = "\(error)"
        if let dump = ProcessInfo.processInfo.environment["ROADBOOK_HOSTILE_DUMP"],
           let handle = FileHandle(forWritingAtPath: dump) {
            handle.seekToEndOfFile()
            handle.write(Data("\(hostile.url.lastPathComponent)\t\(message)\n".utf8))
            handle.closeFile()
        }
        let problems = problems(with: message, file: hostile.url, expected: hostile.expected)
        #expect(problems.isEmpty, "\(hostile.url.lastPathComponent): \(problems.joined(separator: "; ")) — \(message)",
                sourceLocation: sourceLocation)
    }
}
