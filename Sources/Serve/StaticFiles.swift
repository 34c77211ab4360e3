import Foundation
import Render

/// The page's files, served as they are from one folder (`Sources/Serve/Page/` in a checkout,
/// `share/roadbook/Page/` where `scripts/install.sh` puts them): `GET /` is its `index.html`,
/// `GET /static/NAME` any file under it. A path that is not a plain name under the folder (`..`,
/// a hidden file, a link leading out of it) is not found.
public struct StaticFiles: Sendable {
    public let folder: URL
    /// The largest file served, in bytes: the page and Leaflet are a few hundred kilobytes.
    public static let maximumFileSize = 16 << 20

    public init(folder: URL) {
        self.folder = folder.standardizedFileURL.resolvingSymlinksInPath()
    }

    /// Where the page's folder is looked for, in order: `ROADBOOK_PAGE` when set, `share/roadbook/Page`
    /// beside the executable, `Sources/Serve/Page` in the checkout the executable was built in or
    /// the current directory is (as `ResourceFolders` finds `Templates/`).
    public static func candidates(environment: [String: String] = ProcessInfo.processInfo.environment,
                                  currentDirectory: String = FileManager.default.currentDirectoryPath,
                                  executable: URL? = Bundle.main.executableURL) -> [URL] {
        if let explicit = environment["ROADBOOK_PAGE"], !explicit.isEmpty { return [URL(fileURLWithPath: explicit, isDirectory: true)] }
        let installed = ResourceFolders.installedShare(executable: executable).map { [$0.appendingPathComponent("Page", isDirectory: true)] } ?? []
        let checkouts = ResourceFolders.ancestors(of: executable) + [URL(fileURLWithPath: currentDirectory, isDirectory: true)]
        return installed + checkouts.map { $0.appendingPathComponent("Sources/Serve/Page", isDirectory: true) }
    }

    /// The first candidate that holds an `index.html`.
    public static func find(_ candidates: [URL] = candidates()) -> StaticFiles? {
        candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("index.html").path) }.map(StaticFiles.init)
    }

    /// The answer to `GET /` (the page) or `GET /static/NAME`; nil for another path.
    public func response(for path: String) -> ServerResponse? {
        let name: String
        if path == "/" || path == "/index.html" {
            name = "index.html"
        } else if path.hasPrefix("/static/") {
            name = String(path.dropFirst("/static/".count))
        } else {
            return nil
        }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") && !$0.contains("\\") && !$0.contains("\0") }) else {
            return .text(404, "not found: \(name.prefix(100))")
        }
        let file = parts.reduce(folder) { $0.appendingPathComponent(String($1)) }.resolvingSymlinksInPath()
        var isFolder: ObjCBool = false
        guard file.path.hasPrefix(folder.path + "/"), FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder),
              !isFolder.boolValue,
              let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int, size <= Self.maximumFileSize,
              let data = try? Data(contentsOf: file) else {
            return .text(404, "not found: \(name.prefix(100))")
        }
        return ServerResponse(status: 200, headers: [.init("Content-Type", Self.contentType(of: file.pathExtension)),
                                                     .init("Cache-Control", "no-cache")], body: data)
    }

    /// The Content-Type of a file by its extension.
    public static func contentType(of pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "html", "htm": "text/html; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json", "map": "application/json; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "ico": "image/x-icon"
        case "woff2": "font/woff2"
        case "woff": "font/woff"
        case "txt", "md": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}
