import Foundation

/// Finds the package's resource folders (`Fonts/`, `Templates/`) at run time: an environment
/// variable first, then the current directory, then the executable's directory and its
/// ancestors (a build in `.build/release` finds the checkout's folders).
public enum ResourceFolders {
    /// Where folder `name` is looked for, in order.
    public static func candidates(named name: String, environmentVariable: String,
                                  environment: [String: String] = ProcessInfo.processInfo.environment,
                                  currentDirectory: String = FileManager.default.currentDirectoryPath,
                                  executable: URL? = Bundle.main.executableURL) -> [URL] {
        if let explicit = environment[environmentVariable], !explicit.isEmpty {
            return [URL(fileURLWithPath: explicit, isDirectory: true)]
        }
        var list = [URL(fileURLWithPath: currentDirectory, isDirectory: true).appendingPathComponent(name)]
        var dir = executable?.resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            guard let current = dir, current.path != "/" else { break }
            list.append(current.appendingPathComponent(name))
            dir = current.deletingLastPathComponent()
        }
        return list
    }
}
