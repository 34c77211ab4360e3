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
        let folder = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appendingPathComponent("Hostile")
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
        let folder = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appendingPathComponent("Hostile")
        let files = Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).subtracting(["expected.tsv"])
        let listed = Set(cases(file: file).map(\.url.lastPathComponent))
        return files.symmetricDifference(listed).sorted()
    }

    /// Problems with an error's text: it must be one line, name the file, contain `expected`, and
    /// hold no Foundation or Swift internals.
    public static func problems(with message: String, file: URL, expected: String) -> [String] {
        var found: [String] = []
        if message.contains("\n") { found.append("more than one line") }
        if !message.contains(file.lastPathComponent) { found.append("does not name \(file.lastPathComponent)") }
        if !message.contains(expected) { found.append("does not contain \"\(expected)\"") }
        for leaked in ["NSCocoaErrorDomain", "The data isn't in the correct format", "_0", "Swift.", "Error Domain="]
        where message.contains(leaked) {
            found.append("holds internal text \"\(leaked)\"")
        }
        return found
    }
}

extension HostileCorpus {
    /// Checks one case's outcome: `error` is what reading threw (nil when the file was accepted).
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
