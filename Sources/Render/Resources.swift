import Foundation

/// Finds the package's resource folders (`Fonts/`, `Templates/`) at run time. The order:
///
/// 1. the environment variable (`ROADBOOK_FONTS`, `ROADBOOK_TEMPLATES`) when it is set and not
///    empty: then it is the only place looked at, so a folder given explicitly is never passed
///    over for another;
/// 2. `share/roadbook/` beside the executable's `bin/` folder (the executable's symbolic links
///    resolved): where `scripts/install.sh` puts them, so an installed binary finds its own
///    folders whatever the current directory;
/// 3. the executable's folder and its ancestors: a build in `.build/release` finds the checkout's
///    folders;
/// 4. the current directory: a binary copied elsewhere and run from a checkout.
public enum ResourceFolders {
    /// Where folder `name` is looked for, in order.
    public static func candidates(named name: String, environmentVariable: String,
                                  environment: [String: String] = ProcessInfo.processInfo.environment,
                                  currentDirectory: String = FileManager.default.currentDirectoryPath,
                                  executable: URL? = Bundle.main.executableURL) -> [URL] {
        if let explicit = environment[environmentVariable], !explicit.isEmpty {
            return [URL(fileURLWithPath: explicit, isDirectory: true)]
        }
        let installed = installedShare(executable: executable).map { [$0] } ?? []
        return (installed + ancestors(of: executable) + [URL(fileURLWithPath: currentDirectory, isDirectory: true)])
            .map { $0.appendingPathComponent(name, isDirectory: true) }
    }

    /// `PREFIX/share/roadbook` for an executable at `PREFIX/bin/roadbook`: the folder of an
    /// installed binary's templates, fonts and `VERSION` file.
    public static func installedShare(executable: URL? = Bundle.main.executableURL) -> URL? {
        executable.map {
            $0.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("share/roadbook", isDirectory: true)
        }
    }

    /// The executable's folder and up to four of its ancestors, short of `/`: where a build in
    /// a checkout's `.build/` finds the checkout.
    public static func ancestors(of executable: URL?) -> [URL] {
        var list: [URL] = []
        var dir = executable?.resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            guard let current = dir, current.path != "/" else { break }
            list.append(current)
            dir = current.deletingLastPathComponent()
        }
        return list
    }
}
