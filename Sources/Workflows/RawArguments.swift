import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The process's arguments as bytes, made into the command line's Strings. A name that is not
/// UTF-8 (a file named in Latin-1) cannot be a String byte for byte, so:
/// - one that names a file or folder that exists (and may be read) is opened and given as
///   `/proc/self/fd/N`, which leads to that very file: it is read byte for byte. Messages name it
///   as it was given, its bytes that are not UTF-8 written `\xHH` (`RawArguments.shown`);
/// - one that names nothing yet (an output to make) is refused: a file is never made under a name
///   other than the one given (and `AtomicFile` refuses to replace a file through a link whose
///   target's name is not UTF-8, so nothing is written under a changed name either).
public enum RawArguments {
    /// `/proc/self/fd/N` → the argument as given, its non-UTF-8 bytes as `\xHH`.
    private static let aliases = Mutex<[String: String]>([:])

    /// An argument that is not UTF-8 and names no file.
    public struct Unnamed: Error, CustomStringConvertible {
        public var shown: String
        public var description: String {
            "'\(shown)' is not UTF-8 and names no file that exists: roadbook reads files of any name, but writes only under UTF-8 names"
        }
    }

    /// The Strings of `arguments` (each one's bytes, without the NUL), as the type says.
    /// - Throws: `Unnamed` for the first argument that is not UTF-8 and names nothing.
    public static func strings(_ arguments: [[UInt8]]) throws -> [String] {
        try arguments.map { bytes in
            if let text = String(validating: bytes, as: UTF8.self) { return text }
            let shown = escaped(bytes)
            let fd = (bytes + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
            }
            guard fd >= 0 else { throw Unnamed(shown: shown) }
            let alias = "/proc/self/fd/\(fd)"
            aliases.withLock { $0[alias] = shown }
            return alias
        }
    }

    /// `bytes` with each byte that is not part of a UTF-8 character written `\xHH`.
    public static func escaped(_ bytes: [UInt8]) -> String {
        var result = ""
        var rest = bytes[...]
        while !rest.isEmpty {
            // The longest UTF-8 prefix, then one byte that is not.
            var valid = rest.count
            while valid > 0, String(validating: rest.prefix(valid), as: UTF8.self) == nil { valid -= 1 }
            result += String(decoding: rest.prefix(valid), as: UTF8.self)
            rest = rest.dropFirst(valid)
            if let byte = rest.first {
                result += String(format: "\\x%02x", byte)
                rest = rest.dropFirst()
            }
        }
        return result
    }

    /// `text` with every alias made for an argument named as the argument was given.
    public static func shown(_ text: String) -> String {
        let known = aliases.withLock { $0 }
        guard !known.isEmpty else { return text }
        var text = text
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
