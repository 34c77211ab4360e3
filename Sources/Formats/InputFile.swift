import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole input file (a book, a handles file, a route draft) with messages a person understands: "no such
/// file", "is a folder", "permission denied", never Foundation's error numbers; and refuses a file
/// larger than its kind can sensibly be before reading any of it.
public enum InputFile {
    /// The bytes of `url`, at most `limit` of them.
    /// - Parameter what: the kind of file, for the message about its size ("a book file").
    /// - Throws: `FormatError` naming the file.
    public static func read(_ url: URL, limit: Int, what: String) throws -> Data {
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw FormatError(file: url.path, message: "cannot read: \(reason(errno))") }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw FormatError(file: url.path, message: "is a folder; give the path of a file")
        }
        if (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) > limit {
            throw FormatError(file: url.path, message: "is \(info.st_size / 1_000_000) MB; \(what) is at most \(limit / 1_000_000) MB")
        }
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw FormatError(file: url.path, message: "cannot read: \(reason(EACCES))")
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: limit + 1) ?? Data() } catch {
            throw FormatError(file: url.path, message: "cannot read: \(reason(EIO))")
        }
        // A pipe or device has no size to check first: stop at the limit instead.
        guard data.count <= limit else {
            throw FormatError(file: url.path, message: "is more than \(limit / 1_000_000) MB; \(what) is at most \(limit / 1_000_000) MB")
        }
        return data
    }

    /// The system's words for `code` ("No such file or directory"), lower-cased as a clause.
    static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }

}
