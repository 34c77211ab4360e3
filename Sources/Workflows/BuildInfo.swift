import Foundation
import Render

/// What `roadbook --version` says: the version, a constant here, and the commit the binary was
/// built from.
///
/// The commit is not compiled in: SwiftPM has no way to pass a value into the code without a
/// plugin, and a generated source file would have to be committed (and so go stale) for a plain
/// `swift build` to work. It is found at run time instead, in this order:
///
/// 1. the `VERSION` file in the installed `share/roadbook/` beside the binary
///    (`ResourceFolders.installedShare`), which `scripts/install.sh` writes together with the
///    binary as `VERSION COMMIT`; taken only when its version is this binary's;
/// 2. the checkout around the executable (a folder among its ancestors with `Package.swift` and
///    `.git`), asked of `git`, with `-dirty` when tracked files differ from the commit;
/// 3. neither: nil, printed as "unknown commit".
public enum BuildInfo {
    /// The version of roadbook.
    public static let version = "0.9.0"
    /// The installed file that records the commit, in `share/roadbook/`.
    public static let versionFileName = "VERSION"

    /// The commit the binary at `executable` was built from, or nil when nothing says.
    public static func commit(executable: URL? = Bundle.main.executableURL) -> String? {
        if let share = ResourceFolders.installedShare(executable: executable),
           let commit = installedCommit(versionFile: share.appendingPathComponent(versionFileName)) {
            return commit
        }
        let checkout = ResourceFolders.ancestors(of: executable).first { dir in
            ["Package.swift", ".git"].allSatisfy { FileManager.default.fileExists(atPath: dir.appendingPathComponent($0).path) }
        }
        return checkout.flatMap(checkoutCommit)
    }

    /// The commit a `VERSION` file records, when the file exists and its version is this one.
    static func installedCommit(versionFile: URL) -> String? {
        guard let text = try? String(contentsOf: versionFile, encoding: .utf8) else { return nil }
        let words = text.split(whereSeparator: \.isWhitespace)
        guard words.count == 2, words[0] == version else { return nil }
        return String(words[1])
    }

    /// The checkout's commit (seven digits), with `-dirty` when a tracked file differs from it;
    /// nil when git is missing or refuses the folder.
    static func checkoutCommit(_ root: URL) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", root.path, "status", "--porcelain=v2", "--branch", "--untracked-files=no"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return commit(fromStatus: output)
    }

    /// Reads `git status --porcelain=v2 --branch`: the `# branch.oid` line's first seven digits,
    /// `-dirty` when any change line follows.
    static func commit(fromStatus status: String) -> String? {
        let lines = status.split(separator: "\n")
        guard let oid = lines.first(where: { $0.hasPrefix("# branch.oid ") })?.dropFirst("# branch.oid ".count),
              oid.count >= 7, oid.allSatisfy(\.isHexDigit) else { return nil }
        let dirty = lines.contains { !$0.hasPrefix("#") }
        return String(oid.prefix(7)) + (dirty ? "-dirty" : "")
    }
}
