import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes outputs so that a failed run leaves the previous file as it was:
/// everything goes to a temporary file beside the target, which is renamed into place
/// only when complete.
public enum AtomicFile {
    /// An output that could not be written.
    public struct WriteError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): cannot write: \(reason)" }
    }

    /// A temporary path in the same directory as `url` (so the rename stays on one file system).
    public static func temporaryPath(for url: URL) -> URL {
        let dir = url.deletingLastPathComponent()
        return dir.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
    }

    /// Calls `body` with a temporary path, then renames it onto `url`. The temporary file is removed
    /// when `body` throws, and the target keeps its previous contents.
    public static func write<T>(to url: URL, _ body: (URL) throws -> T) throws -> T {
        let dir = url.deletingLastPathComponent()
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDir), isDir.boolValue else {
            throw WriteError(path: url.path, reason: "the directory \(dir.path) does not exist")
        }
        let tmp = temporaryPath(for: url)
        do {
            let result = try body(tmp)
            guard rename(tmp.path, url.path) == 0 else {
                throw WriteError(path: url.path, reason: String(cString: strerror(errno)))
            }
            return result
        } catch {
            unlink(tmp.path)
            if let e = error as? WriteError { throw e }
            throw error
        }
    }

    /// Writes `data` atomically to `url`.
    public static func write(_ data: Data, to url: URL) throws {
        try write(to: url) { tmp in
            guard FileManager.default.createFile(atPath: tmp.path, contents: data) else {
                throw WriteError(path: url.path, reason: access(url.deletingLastPathComponent().path, W_OK) != 0
                                 ? String(cString: strerror(errno)) : "could not create a temporary file")
            }
        }
    }
}
