import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// File names as the system has them, bytes, carried in Swift's Strings and URLs: a name need not
/// be UTF-8 (a file named in Latin-1), and Foundation's paths replace such bytes with U+FFFD, so a
/// file would be made or looked for under another name.
///
/// Each byte that is not part of a UTF-8 character stands in a String as one scalar of the private
/// use area, U+10FE80 to U+10FEFF for bytes 0x80 to 0xFF (as Python's `surrogateescape` does with
/// lone surrogates, which a Swift String cannot hold). A name that holds one of those scalars as a
/// character of its own has that character's four bytes written as stand-ins too, so every byte
/// sequence has one String and back: `bytes(of: string(b)) == b`. URLs keep the stand-ins as they
/// are. Every call that hands a path to the system goes through `withCString` (or the calls here),
/// never `url.path` alone; messages show the stand-ins as `\xHH` (`shown`).
public enum FileName {
    /// The stand-in of byte `b` (0x80…0xFF) is `standInBase + b`.
    static let standInBase: UInt32 = 0x10FE00
    static let standIns: ClosedRange<UInt32> = 0x10FE80...0x10FEFF

    /// The String of a name's `bytes`, every byte kept (see the type).
    public static func string(_ bytes: some Collection<UInt8>) -> String {
        if let text = String(validating: bytes, as: UTF8.self), !hasStandIns(text) { return text }
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        func standIn(_ byte: UInt8) { scalars.append(Unicode.Scalar(standInBase + UInt32(byte))!) }
        var i = 0
        while i < bytes.count {
            let lead = bytes[i]
            let length = lead < 0x80 ? 1 : (0xC2...0xDF).contains(lead) ? 2 : (0xE0...0xEF).contains(lead) ? 3 : (0xF0...0xF4).contains(lead) ? 4 : 0
            if length > 0, i + length <= bytes.count, let character = String(validating: bytes[i..<(i + length)], as: UTF8.self),
               let scalar = character.unicodeScalars.first, !standIns.contains(scalar.value) {
                scalars.append(scalar)
                i += length
            } else if length == 4, i + 4 <= bytes.count, String(validating: bytes[i..<(i + 4)], as: UTF8.self) != nil {
                // A stand-in's own scalar as a character of the name: its four bytes as stand-ins.
                bytes[i..<(i + 4)].forEach(standIn)
                i += 4
            } else {
                standIn(lead)
                i += 1
            }
        }
        return String(scalars)
    }

    /// The bytes `text` stands for: its UTF-8, each stand-in as its byte.
    public static func bytes(of text: String) -> [UInt8] {
        guard hasStandIns(text) else { return Array(text.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if standIns.contains(scalar.value) {
                bytes.append(UInt8(scalar.value - standInBase))
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// Calls `body` with `path`'s bytes as a C string (a path cannot hold NUL).
    public static func withCString<Result>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        guard hasStandIns(path) else { return try path.withCString(body) }
        return try (bytes(of: path) + [0]).withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// `text` with each stand-in written `\xHH`, as a message shows a name.
    public static func shown(_ text: String) -> String {
        guard hasStandIns(text) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if standIns.contains(scalar.value) {
                result.append(contentsOf: String(format: "\\x%02x", scalar.value - standInBase).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Whether `text` holds a stand-in: every one is four bytes starting 0xF4 0x8F.
    static func hasStandIns(_ text: String) -> Bool {
        text.utf8.contains(0xF4) && text.unicodeScalars.contains { standIns.contains($0.value) }
    }

    // The system calls of AtomicFile and its callers, on paths with stand-ins.

    public static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        withCString(path) { Glibc.open($0, flags, mode) }
    }

    public static func stat(_ path: String, _ info: inout stat) -> Int32 {
        withCString(path) { systemStat($0, &info) }
    }

    public static func lstat(_ path: String, _ info: inout stat) -> Int32 {
        withCString(path) { systemLstat($0, &info) }
    }

    public static func access(_ path: String, _ mode: Int32) -> Int32 {
        withCString(path) { Glibc.access($0, mode) }
    }

    /// Whether something is at `path`, its links followed (as `FileManager.fileExists`).
    public static func exists(_ path: String) -> Bool {
        var info = Glibc.stat()
        return stat(path, &info) == 0
    }

    @discardableResult
    public static func unlink(_ path: String) -> Int32 {
        withCString(path) { Glibc.unlink($0) }
    }

    public static func rename(_ from: String, _ to: String) -> Int32 {
        withCString(from) { old in withCString(to) { Glibc.rename(old, $0) } }
    }

    /// The target of the symbolic link `path`, or nil with `errno` set.
    public static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = withCString(path) { readlink($0, &buffer, Int(PATH_MAX)) }
        guard count > 0 else { return nil }
        return string(buffer[..<count].map { UInt8(bitPattern: $0) })
    }

    /// The file `url` leads to when it is a descriptor's link, `/proc/self/fd/N` (as an existing
    /// file whose name is not UTF-8 is given to be read byte for byte), its name with stand-ins;
    /// `url` itself otherwise. A file made beside another (its undo file, its drawing) is named
    /// after this, not after the link.
    public static func named(_ url: URL) -> URL {
        let path = url.path
        guard path.hasPrefix("/proc/self/fd/"), let target = readLink(path), target.hasPrefix("/") else { return url }
        return URL(fileURLWithPath: target, isDirectory: false)
    }

    /// The names in `folder` (without `.` and `..`), or nil when it cannot be read.
    public static func names(in folder: String) -> [String]? {
        guard let directory = withCString(folder, { opendir($0) }) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                string(raw.prefix { $0 != 0 })
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The whole content of the file at `path`, or nil when it cannot be read.
    public static func contents(of path: String) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { return data }
            data.append(contentsOf: chunk[..<n])
        }
    }
}

// The system's stat and lstat, which the struct of the same name hides inside `FileName`.
private func systemStat(_ path: UnsafePointer<CChar>, _ info: inout stat) -> Int32 { stat(path, &info) }
private func systemLstat(_ path: UnsafePointer<CChar>, _ info: inout stat) -> Int32 { lstat(path, &info) }
