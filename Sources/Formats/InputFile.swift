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
        let (handle, info) = try open(url)
        defer { try? handle.close() }
        if (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) > limit {
            throw FormatError(file: url.path, message: "is \(info.st_size / 1_000_000) MB; \(what) is at most \(limit / 1_000_000) MB")
        }
        let data = try read(handle, upTo: limit + 1, url: url)
        // A pipe or device has no size to check first: stop at the limit instead.
        guard data.count <= limit else {
            throw FormatError(file: url.path, message: "is more than \(limit / 1_000_000) MB; \(what) is at most \(limit / 1_000_000) MB")
        }
        return data
    }

    /// The first `count` bytes of `url` (fewer when the file is shorter), to tell its format by.
    /// - Throws: `FormatError` naming the file, with the words of `read(_:limit:what:)`.
    public static func read(_ url: URL, prefix count: Int) throws -> Data {
        let (handle, _) = try open(url)
        defer { try? handle.close() }
        return try read(handle, upTo: count, url: url)
    }

    /// `url` opened for reading, refused when it is missing, a folder or unreadable.
    private static func open(_ url: URL) throws -> (FileHandle, stat) {
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw FormatError(file: url.path, message: "cannot read: \(reason(errno))") }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw FormatError(file: url.path, message: "is a folder; give the path of a file")
        }
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw FormatError(file: url.path, message: "cannot read: \(reason(EACCES))")
        }
        return (handle, info)
    }

    private static func read(_ handle: FileHandle, upTo count: Int, url: URL) throws -> Data {
        do { return try handle.read(upToCount: count) ?? Data() } catch {
            throw FormatError(file: url.path, message: "cannot read: \(reason(EIO))")
        }
    }

    /// The system's words for `code` ("No such file or directory"), lower-cased as a clause.
    static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }

}
