import AtomicFile
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The process's arguments as bytes, made into the command line's Strings. A name that is not
/// UTF-8 (a file named in Latin-1) cannot be a String byte for byte, so:
/// - one that names a file or folder that exists (and may be read) is opened and given as
///   `/proc/self/fd/N`, which leads to that very file: every reader reads it byte for byte. Written
///   to, it is replaced under its own name (`AtomicFile` follows the link to the name's bytes);
/// - one that names nothing yet (an output to make) keeps its bytes as `FileName` stand-ins, which
///   every path handed to the system for writing goes through: the file is made under exactly
///   those bytes.
/// Messages name either as it was given, its bytes that are not UTF-8 written `\xHH` (`shown`).
public enum RawArguments {
    /// `/proc/self/fd/N` → the argument as given, its non-UTF-8 bytes as `\xHH`.
    private static let aliases = Mutex<[String: String]>([:])

    /// The Strings of `arguments` (each one's bytes, without the NUL), as the type says.
    public static func strings(_ arguments: [[UInt8]]) -> [String] {
        arguments.map { bytes in
            if let text = String(validating: bytes, as: UTF8.self) { return text }
            let fd = (bytes + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
            }
            guard fd >= 0 else { return FileName.string(bytes) }
            let alias = "/proc/self/fd/\(fd)"
            aliases.withLock { $0[alias] = escaped(bytes) }
            return alias
        }
    }

    /// `bytes` with each byte that is not part of a UTF-8 character written `\xHH`.
    public static func escaped(_ bytes: [UInt8]) -> String {
        FileName.shown(FileName.string(bytes))
    }

    /// `text` with every alias made for an argument named as the argument was given, and the
    /// stand-ins of a name's bytes (`FileName`) as `\xHH`.
    public static func shown(_ text: String) -> String {
        let known = aliases.withLock { $0 }
        var text = FileName.shown(text)
        guard !known.isEmpty else { return text }
        // Longest first: /proc/self/fd/12 before /proc/self/fd/1.
        for (alias, shown) in known.sorted(by: { $0.key.count > $1.key.count }) {
            text = text.replacingOccurrences(of: alias, with: shown)
        }
        return text
    }

    /// The bytes of this process's arguments after the program's name.
    public static func process() -> [[UInt8]] {
        (1..<Int(CommandLine.argc)).map { i in
            guard let argument = CommandLine.unsafeArgv[i] else { return [] }
            return Array(UnsafeBufferPointer(start: argument, count: strlen(argument))).map { UInt8(bitPattern: $0) }
        }
    }
}
