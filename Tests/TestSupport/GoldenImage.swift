import Foundation
import Render
import Testing

/// Where the PNG goldens of a test file live: `Goldens/` beside it.
public func goldenDirectory(for file: StaticString) -> URL {
    URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appendingPathComponent("Goldens")
}

/// Set to 1 to write the goldens from what is rendered now. A recording run fails, so it cannot
/// pass by accident; run again without it to compare.
public let recordGoldensVariable = "ROADBOOK_RECORD_GOLDENS"

/// Compares the PNG at `rendered` with the golden `Goldens/<name>.png` beside the calling test file,
/// within `tolerance`.
///
/// On a mismatch the rendered image and a diff (differing pixels in red) are kept in
/// `$TMPDIR/roadbook-golden-failures/` and the issue says where. With `ROADBOOK_RECORD_GOLDENS=1`
/// the golden is written instead and an issue is recorded.
public func assertPNGGolden(_ rendered: URL, named name: String, tolerance: ImageComparison.Tolerance = .golden,
                            file: StaticString = #filePath, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let goldenDirectory = goldenDirectory(for: file)
    let golden = goldenDirectory.appendingPathComponent("\(name).png")
    let files = FileManager.default
    if ProcessInfo.processInfo.environment[recordGoldensVariable] == "1" {
        try files.createDirectory(at: goldenDirectory, withIntermediateDirectories: true)
        try? files.removeItem(at: golden)
        try files.copyItem(at: rendered, to: golden)
        Issue.record("Recorded \(golden.path); look at it, then run again without \(recordGoldensVariable) to compare.",
                     sourceLocation: sourceLocation)
        return
    }
    guard files.fileExists(atPath: golden.path) else {
        Issue.record("No golden at \(golden.path); record it with \(recordGoldensVariable)=1.",
                     sourceLocation: sourceLocation)
        return
    }
    let failures = files.temporaryDirectory.appendingPathComponent("roadbook-golden-failures")
    try files.createDirectory(at: failures, withIntermediateDirectories: true)
    let diff = failures.appendingPathComponent("\(name)-diff.png")
    let result = try ImageComparison.compare(rendered, with: golden, tolerance: tolerance, diff: diff)
    if result.matches {
        try? files.removeItem(at: diff)
        return
    }
    let actual = failures.appendingPathComponent("\(name)-actual.png")
    try? files.removeItem(at: actual)
    try files.copyItem(at: rendered, to: actual)
    Issue.record("\(name): \(result). Rendered: \(actual.path); diff: \(diff.path); golden: \(golden.path)",
                 sourceLocation: sourceLocation)
}
