import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes outputs all or nothing, as editors save: everything goes to a hidden temporary file
/// beside the target, which is flushed to disk and renamed into place only when complete.
///
/// - Temporary names are `.NAME.roadbook-tmp-PID-RANDOM` (see `temporaryName(for:)`): hidden,
///   never mistaken for an output, at most 255 bytes however long NAME is.
/// - A failed write removes its temporary file; so does SIGINT, SIGTERM or SIGHUP once
///   `installSignalCleanup()` has run (the `roadbook` executable calls it first thing). A run
///   killed outright (SIGKILL, a crash) leaves its temporaries, and the next run that writes to
///   that folder removes them (`removeLeftovers(in:)`).
/// - A target that is a symbolic link is followed: the file it leads to is replaced, the link
///   stays. A target that exists and is not a regular file (a device, a folder, a FIFO, a
///   socket) is refused.
/// - Several outputs of one run (a book file and its PDF, the pages of a PNG render) go through
///   one `OutputSet`, which renames them together (see `OutputSet.commit()`).
public enum AtomicFile {
    /// An output that could not be written.
    public struct WriteError: Error, CustomStringConvertible, Equatable {
        /// The output as the caller named it.
        public var path: String
        public var reason: String
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
        public var description: String { "\(path): cannot write: \(reason)" }
    }

    /// What every temporary name carries after the target's name, before the process id.
    public static let temporaryMarker = ".roadbook-tmp-"
    /// The longest file name Linux file systems take (NAME_MAX), in bytes.
    static let nameMax = 255
    /// A leftover temporary whose process id is in use again is still removed at this age: a
    /// process id is reused after a reboot or a wrap-around, and no build takes a day.
    public static let leftoverAge: TimeInterval = 24 * 3600

    /// The hidden temporary name for an output called `name`: `.NAME.roadbook-tmp-PID-RANDOM`,
    /// RANDOM being 8 hexadecimal digits. When that would pass 255 bytes, NAME is cut on a
    /// character boundary and followed by `~` and a hash of the whole name. A journal's name is made
    /// the same way with `journalMarker`.
    public static func temporaryName(for name: String, pid: Int32 = getpid(),
                                     random: UInt32 = UInt32.random(in: 0...UInt32.max), marker: String = temporaryMarker) -> String {
        let suffix = "\(marker)\(pid)-\(hex8(random))"
        let room = nameMax - 1 - suffix.utf8.count
        var base = name
        if base.utf8.count > room {
            let hash = "~" + hex8(fnv1a(name))
            var cut = String.UnicodeScalarView()
            var bytes = 0
            for scalar in name.unicodeScalars {
                let size = String(scalar).utf8.count
                if bytes + size > room - hash.utf8.count { break }
                cut.append(scalar)
                bytes += size
            }
            base = String(cut) + hash
        }
        return "." + base + suffix
    }

    /// A temporary path beside `url` (so the rename stays on one file system).
    public static func temporaryPath(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(temporaryName(for: url.lastPathComponent), isDirectory: false)
    }

    /// The process id in a temporary name, or nil when `name` is not one of ours. Also reads
    /// the names earlier versions used (`.NAME.PID.RANDOM.tmp`).
    public static func temporaryOwner(of name: String) -> Int32? {
        guard name.hasPrefix(".") else { return nil }
        if name.contains(temporaryMarker) { return owner(of: name, marker: temporaryMarker) }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 5, parts.last == "tmp", let pid = Int32(parts[parts.count - 3]), pid > 0,
              parts[parts.count - 3].allSatisfy(\.isASCII), UInt32(parts[parts.count - 2]) != nil else { return nil }
        return pid
    }

    /// The process id in a name `.NAME` + `marker` + `PID-RANDOM`, or nil when `name` is not one.
    static func owner(of name: String, marker: String) -> Int32? {
        guard name.hasPrefix("."), let found = name.range(of: marker, options: .backwards) else { return nil }
        let tail = name[found.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard tail.count == 2, tail[1].count == 8, tail[1].allSatisfy(\.isHexDigit),
              !tail[0].isEmpty, tail[0].allSatisfy(\.isASCII), let pid = Int32(tail[0]), pid > 0 else { return nil }
        return pid
    }

    /// Removes the temporaries a killed run left in `folder`: files named as `temporaryName`
    /// names them whose process is gone, or older than `leftoverAge`. Only regular files are
    /// removed; an unreadable folder is left alone.
    /// - Returns: the names removed.
    @discardableResult
    public static func removeLeftovers(in folder: URL, now: Date = Date()) -> [String] {
        abandoned(in: folder, ownedBy: temporaryOwner, now: now).filter { FileName.unlink(folder.appendingPathComponent($0).path) == 0 }
    }

    /// The regular files of `folder` whose name `owner` reads a process id from, and whose process
    /// is gone or which are older than `leftoverAge` (a process id is reused), sorted by name.
    static func abandoned(in folder: URL, ownedBy owner: (String) -> Int32?, now: Date) -> [String] {
        guard let names = FileName.names(in: folder.path) else { return [] }
        return names.sorted().filter { name in
            guard let pid = owner(name) else { return false }
            var info = stat()
            guard FileName.lstat(folder.appendingPathComponent(name, isDirectory: false).path, &info) == 0,
                  info.st_mode & S_IFMT == S_IFREG else { return false }
            let age = now.timeIntervalSince1970 - TimeInterval(info.st_mtim.tv_sec)
            let alive = pid == getpid() || kill(pid, 0) == 0 || errno == EPERM
            return !alive || age >= leftoverAge
        }
    }

    /// The file a write to `url` replaces: `url` itself, or the file its symbolic links lead to
    /// (which need not exist yet).
    /// - Throws: `WriteError` naming `url` when it exists and is not a regular file, or its
    ///   links loop.
    public static func resolveTarget(_ url: URL) throws -> URL {
        var path = url.path
        for _ in 0..<maximumLinks {
            var info = stat()
            guard FileName.lstat(path, &info) == 0 else {
                let code = errno
                if code == ENOENT { return URL(fileURLWithPath: path, isDirectory: false) }
                throw WriteError(path: url.path, reason: reason(errno: code))
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                return URL(fileURLWithPath: path, isDirectory: false)
            case S_IFLNK:
                // A name that is not UTF-8 keeps its bytes (`FileName`).
                guard let link = FileName.readLink(path) else { throw WriteError(path: url.path, reason: reason(errno: errno)) }
                path = link.hasPrefix("/") ? link
                    : (path as NSString).deletingLastPathComponent + "/" + link
            default:
                let shown = path == url.path ? "it" : "the file it links to (\(path))"
                throw WriteError(path: url.path, reason: "\(shown) is \(kind(of: info.st_mode)), not a regular file; give a file name to write")
            }
        }
        throw WriteError(path: url.path, reason: "too many levels of symbolic links")
    }

    /// Links followed before giving up on a loop (Linux's own limit, MAXSYMLINKS).
    static let maximumLinks = 40

    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a named pipe (FIFO)"
        case S_IFSOCK: "a socket"
        default: "not a file"
        }
    }

    /// A system error as an organiser reads it, with what to do where there is something to do.
    public static func reason(errno code: Int32) -> String {
        switch code {
        case ENOSPC: "no space left on device; free some space and run again"
        case EDQUOT: "disk quota exceeded; free some space or ask for a larger quota"
        case EROFS: "the file system is read-only"
        case EACCES, EPERM: "permission denied"
        case ENAMETOOLONG: "the name is too long"
        case EIO: "input/output error (the disk or the network file system failed)"
        case ENOENT: "the folder does not exist"
        default: String(cString: strerror(code))
        }
    }

    /// Calls `body` with a temporary path, then renames it onto `url`. The temporary file is
    /// removed when `body` throws, and the target keeps its previous contents. The new file keeps
    /// the old one's permissions when `keepsMode` (see `OutputSet.add`).
    public static func write<T>(to url: URL, keepsMode: Bool = true, _ body: (URL) throws -> T) throws -> T {
        let outputs = OutputSet()
        let temporary = try outputs.add(url, keepsMode: keepsMode)
        let result = try body(temporary)
        try outputs.commit()
        return result
    }

    /// Writes `data` atomically to `url`.
    public static func write(_ data: Data, to url: URL) throws {
        let outputs = OutputSet()
        try outputs.write(data, to: url)
        try outputs.commit()
    }

    /// Writes `data` to a new file at `temporary`; errors name `target`.
    static func create(_ temporary: URL, with data: Data, naming target: URL) throws {
        let fd = openTemporary(temporary.path, flags: O_WRONLY | O_EXCL)
        guard fd >= 0 else { throw WriteError(path: target.path, reason: reason(errno: errno)) }
        var failure = writeAll(data, to: fd)
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure != 0 { throw WriteError(path: target.path, reason: reason(errno: failure)) }
    }

    /// Writes all of `data` to `fd`.
    /// - Returns: 0, or the errno of the write that failed.
    static func writeAll(_ data: Data, to fd: Int32) -> Int32 {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int32 in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return 0
        }
    }

    private static func hex8(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// FNV-1a, 32 bits: a stable hash (Swift's `Hasher` is seeded per process).
    private static func fnv1a(_ text: String) -> UInt32 {
        var hash: UInt32 = 0x811c_9dc5
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        return hash
    }
}
