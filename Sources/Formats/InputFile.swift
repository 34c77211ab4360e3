import AtomicFile
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole input file (a book, a handles file, a route draft) with messages a person understands: "no such
/// file", "is a folder", "permission denied", never Foundation's error numbers; and refuses a file
/// larger than its kind can sensibly be before reading any of it.
///
/// A stream (`-` for standard input, a pipe, a device: `isStream`) can be read only once, so it is
/// read whole the first time (at most `maximumStreamBytes`, counted as read) and kept: a reader that
/// looks at its first bytes to tell its format, then reads it, gets the same bytes twice.
public enum InputFile {
    /// The most read from a stream: it is held in memory. Far beyond any route or handles file.
    public static let maximumStreamBytes = 256_000_000
    /// The streams read so far, by device and inode (a path such as `/dev/fd/63` may lead to
    /// another pipe later in the run).
    private static let streams = Mutex<[String: Data]>([:])

    /// The bytes of `url`, at most `limit` of them.
    /// - Parameter what: the kind of file, for the message about its size ("a book file").
    /// - Throws: `FormatError` naming the file.
    public static func read(_ url: URL, limit: Int, what: String) throws -> Data {
        if isStream(url) {
            let data = try streamBytes(url)
            guard data.count <= limit else {
                throw FormatError(file: name(of: url), message: "is more than \(limit / 1_000_000) MB (counted as read); \(what) is at most \(limit / 1_000_000) MB")
            }
            return data
        }
        let (handle, info) = try open(url)
        defer { try? handle.close() }
        if (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) > limit {
            throw FormatError(file: name(of: url), message: "is \(info.st_size / 1_000_000) MB; \(what) is at most \(limit / 1_000_000) MB")
        }
        let data = try read(handle, upTo: limit + 1, url: url)
        // A pipe or device has no size to check first: stop at the limit instead.
        guard data.count <= limit else {
            throw FormatError(file: name(of: url), message: "is more than \(limit / 1_000_000) MB (counted as read); \(what) is at most \(limit / 1_000_000) MB")
        }
        return data
    }

    /// The first `count` bytes of `url` (fewer when the file is shorter), to tell its format by.
    /// - Throws: `FormatError` naming the file, with the words of `read(_:limit:what:)`.
    public static func read(_ url: URL, prefix count: Int) throws -> Data {
        if isStream(url) { return try streamBytes(url).prefix(count) }
        let (handle, _) = try open(url)
        defer { try? handle.close() }
        return try read(handle, upTo: count, url: url)
    }

    /// The whole of the stream `url`, read the first time it is asked for.
    private static func streamBytes(_ url: URL) throws -> Data {
        var info = stat()
        let found = isStandardInput(url) ? fstat(0, &info) : stat(url.path, &info)
        let key = found == 0 ? "\(info.st_dev):\(info.st_ino)" : url.path
        if let kept = streams.withLock({ $0[key] }) { return kept }
        let (handle, _) = try open(url)
        // Standard input stays open: its key is read again.
        defer { if !isStandardInput(url) { try? handle.close() } }
        let data = try read(handle, upTo: maximumStreamBytes + 1, url: url)
        guard data.count <= maximumStreamBytes else {
            throw FormatError(file: name(of: url), message: "is more than \(maximumStreamBytes / 1_000_000) MB (counted as read); "
                                  + "a file read from a pipe is at most \(maximumStreamBytes / 1_000_000) MB: give it as a file")
        }
        streams.withLock { $0[key] = data }
        return data
    }

    /// Whether `url` is read as a stream, once: `-` (standard input), or a pipe, a socket or a
    /// device (`/dev/stdin`, `<(…)`'s `/dev/fd/63`) rather than a regular file.
    public static func isStream(_ url: URL) -> Bool {
        if isStandardInput(url) { return true }
        var info = stat()
        guard FileName.stat(url.path, &info) == 0 else { return false }
        return ![S_IFREG, S_IFDIR].contains(info.st_mode & S_IFMT)
    }

    /// Whether `url` is `-`, standard input.
    public static func isStandardInput(_ url: URL) -> Bool { url.relativePath == "-" }

    /// How messages name an input: `standard input` for `-`, else its path.
    public static func name(of url: URL) -> String { isStandardInput(url) ? "standard input" : url.path }

    /// `url` opened for reading, refused when it is missing, a folder or unreadable; `-` is
    /// standard input.
    private static func open(_ url: URL) throws -> (FileHandle, stat) {
        var info = stat()
        if isStandardInput(url) {
            guard fstat(0, &info) == 0 else { throw FormatError(file: name(of: url), message: "cannot read: \(reason(errno))") }
            return (FileHandle(fileDescriptor: 0, closeOnDealloc: false), info)
        }
        // Through `FileName`: a name that is not UTF-8 (an output's target) is opened by its bytes.
        guard FileName.stat(url.path, &info) == 0 else { throw FormatError(file: url.path, message: "cannot read: \(reason(errno))") }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw FormatError(file: url.path, message: "is a folder; give the path of a file")
        }
        let fd = FileName.open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FormatError(file: url.path, message: "cannot read: \(reason(EACCES))") }
        return (FileHandle(fileDescriptor: fd, closeOnDealloc: true), info)
    }

    private static func read(_ handle: FileHandle, upTo count: Int, url: URL) throws -> Data {
        do { return try handle.read(upToCount: count) ?? Data() } catch {
            throw FormatError(file: name(of: url), message: "cannot read: \(reason(EIO))")
        }
    }

    /// The system's words for `code` ("No such file or directory"), lower-cased as a clause.
    static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }

}
