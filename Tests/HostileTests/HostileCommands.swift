import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A row of `Tests/Hostile/commands.tsv`: files set up in the case's folder, then one command line
/// or several run there, each with the outcome it must have (see Tests/Hostile/README.md).
struct CommandCase: Sendable {
    /// One run of roadbook.
    struct Step: Sendable {
        /// `ok`, `fail`, `any`, or `killed` (the run ends by SIGKILL, as a test hook makes it).
        var expect: String
        /// `KEY=VALUE` words before the command.
        var environment: [String: String]
        /// `<NAME`: standard input is a pipe carrying the file NAME of the folder.
        var input: String?
        /// The arguments after `roadbook`, as bytes (escapes decoded).
        var words: [[UInt8]]
    }

    /// The setup items, as written (see `HostileCommands.prepare`).
    var setup: [String]
    var steps: [Step]
    /// Words the failing step's one error line must contain; empty for none.
    var message: [UInt8]
}

/// The names of a case's folder byte for byte, as Strings the runner compares: a name that is UTF-8
/// stays as it is, each other byte is written `\xHH` and a backslash `\\`, so two names that differ
/// in one byte never read the same (Foundation's listing gives U+FFFD for any byte of no character).
enum CaseName {
    static func label(_ bytes: [UInt8]) -> String {
        var text = ""
        var rest = bytes[...]
        while !rest.isEmpty {
            // The longest UTF-8 run, then one byte of no character.
            var valid = rest.count
            while valid > 0, String(validating: rest.prefix(valid), as: UTF8.self) == nil { valid -= 1 }
            text += String(decoding: rest.prefix(valid), as: UTF8.self).replacingOccurrences(of: "\\", with: "\\\\")
            rest = rest.dropFirst(valid)
            if let byte = rest.popFirst() { text += String(format: "\\x%02x", byte) }
        }
        return text
    }

    /// The path of the name `label` in `folder`, as bytes.
    /// (A label reads back as the table's words do: `HostileCommands.decode`.)
    static func path(_ label: String, in folder: URL) -> [UInt8] {
        Array(folder.path.utf8) + [UInt8(ascii: "/")] + HostileCommands.decode(label)
    }

    /// The labels of every name in `folder` (without `.` and `..`).
    static func names(in folder: URL) -> [String] {
        guard let directory = opendir(folder.path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != Array(".".utf8) && name != Array("..".utf8) { names.append(label(name)) }
        }
        return names
    }
}

/// Reads `commands.tsv` and makes each case's folder.
enum HostileCommands {
    /// The table's rows as cases of kind `command`. Columns: name, expect, setup, command (steps
    /// separated by ` ; `), message, why.
    static func load(_ table: URL) throws -> [HostileCase] {
        let text = try String(contentsOf: table, encoding: .utf8)
        var cases: [HostileCase] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let c = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard c.count >= 5 else { throw ToolError(message: "commands.tsv: a row needs name, expect, setup, command, message: \(line)") }
            let expect = HostileCorpus.expectation(c[1]) ?? .any
            let texts = c[3].components(separatedBy: " ; ")
            let steps = texts.enumerated().map { i, text in
                step(text, default: i == texts.count - 1 ? c[1] : "ok")
            }
            let setup = c[2].split(separator: " ").map(String.init)
            var options: [String: String] = [:]
            for item in setup where !item.contains(":") {
                if let eq = item.firstIndex(of: "="), ["writes", "outputs", "rss", "exit"].contains(String(item[..<eq])) {
                    options[String(item[..<eq])] = String(item[item.index(after: eq)...])
                }
            }
            var hostile = HostileCase(kind: "command", file: nil, name: c[0], expect: expect, options: options, flags: [],
                                      why: c.count > 5 ? c[5] : "", origin: "Tests/Hostile/commands.tsv", generator: nil)
            hostile.command = CommandCase(setup: setup, steps: steps, message: c[4] == "-" ? [] : decode(c[4]))
            cases.append(hostile)
        }
        return cases
    }

    private static func step(_ text: String, default expect: String) -> CommandCase.Step {
        var words = text.split(separator: " ").map(String.init)
        var step = CommandCase.Step(expect: expect, environment: [:], input: nil, words: [])
        if let first = words.first, first.hasSuffix(":"), ["ok:", "fail:", "any:", "killed:"].contains(first) {
            step.expect = String(first.dropLast())
            words.removeFirst()
        }
        while let first = words.first, let eq = first.firstIndex(of: "="),
              first[..<eq].allSatisfy({ $0.isUppercase || $0 == "_" || $0.isNumber }) {
            step.environment[String(first[..<eq])] = String(first[first.index(after: eq)...])
            words.removeFirst()
        }
        for word in words {
            if word.hasPrefix("<") { step.input = String(word.dropFirst()) } else { step.words.append(decode(word)) }
        }
        return step
    }

    /// A word of the table as bytes: `\n`, `\r`, `\t`, `\e` (ESC), `\a` (BEL), `\s` (a space), `\\` and
    /// `\xHH` stand for their bytes, so names may hold anything (a newline, a byte that is not UTF-8).
    static func decode(_ word: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var input = Array(word.utf8)[...]
        while let byte = input.popFirst() {
            guard byte == UInt8(ascii: "\\"), let next = input.popFirst() else { bytes.append(byte); continue }
            switch next {
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "e"): bytes.append(0x1B)
            case UInt8(ascii: "a"): bytes.append(0x07)
            case UInt8(ascii: "s"): bytes.append(0x20)
            case UInt8(ascii: "x"):
                let hex = String(decoding: input.prefix(2), as: UTF8.self)
                input = input.dropFirst(2)
                bytes.append(UInt8(hex, radix: 16) ?? 0x3F)
            default: bytes.append(next)
            }
        }
        return bytes
    }

    /// What `prepare` made.
    struct Prepared {
        /// Files that must be as they were at the end (content, size, time, mode, inode).
        var inputs: [[UInt8]] = []
        /// Links and other non-files that must keep their type.
        var artefacts: [[UInt8]] = []
        /// Files a successful last step leaves besides the inputs.
        var outputs: [[UInt8]] = []
        /// Files the steps may write, change or leave (`writes=`).
        var writes: [[UInt8]] = []
        /// After the last step, each file must hold the bytes of the second (a file of the folder, or
        /// of the corpus) — `same=NAME:SOURCE`.
        var same: [(name: [UInt8], source: URL)] = []
        /// After the last step, each file must have the mode (`mode=NAME:OCTAL`, the umask of 022
        /// the runner leaves applied).
        var modes: [(name: [UInt8], mode: mode_t)] = []
    }

    /// Makes the setup items in `work`:
    /// - `NAME=SOURCE` copies SOURCE (relative to Tests/Hostile, or to the package when it starts
    ///   with `samples/` or `Tests/`); `NAME=gen:GENERATOR` makes it (`HostileCorpus.generate`);
    /// - `text:NAME:CONTENT` writes CONTENT (escapes decoded); `ln:LINK:TARGET` a symbolic link,
    ///   `hard:LINK:TARGET` a hard link, `chmod:MODE:NAME` (octal), `mkfifo:NAME`, `mkdir:NAME`;
    /// - `writes=A,B` files the steps may change or make (the others are inputs, which must not change),
    ///   `outputs=A,B` files a success leaves, `same=NAME:SOURCE`, `mode=NAME:OCTAL`, `rss=MIB`, `exit=64`.
    static func prepare(_ c: CommandCase, in work: URL, root: URL) throws -> Prepared {
        var prepared = Prepared()
        var made: [[UInt8]] = []
        var writes: Set<[UInt8]> = []
        func path(_ name: [UInt8]) -> [UInt8] { Array(work.path.utf8) + [UInt8(ascii: "/")] + name }
        func source(_ text: String) -> URL {
            text.hasPrefix("samples/") || text.hasPrefix("Tests/") ? root.appendingPathComponent(text)
                : root.appendingPathComponent("Tests/Hostile").appendingPathComponent(text)
        }
        func write(_ data: Data, to name: [UInt8]) throws {
            let fd = withCString(path(name)) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
            guard fd >= 0 else { throw ToolError(message: "commands.tsv: cannot make \(String(decoding: name, as: UTF8.self))") }
            _ = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        for item in c.setup {
            let parts = item.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            if item.hasPrefix("writes=") || item.hasPrefix("outputs=") {
                let names = item.split(separator: "=", maxSplits: 1)[1].split(separator: ",").map { decode(String($0)) }
                if item.hasPrefix("writes=") { writes.formUnion(names) } else { prepared.outputs += names }
            } else if item.hasPrefix("same=") {
                let pair = item.dropFirst(5).split(separator: ":", maxSplits: 1).map(String.init)
                prepared.same.append((decode(pair[0]), source(pair[1])))
            } else if item.hasPrefix("mode=") {
                let pair = item.dropFirst(5).split(separator: ":", maxSplits: 1).map(String.init)
                prepared.modes.append((decode(pair[0]), mode_t(pair[1], radix: 8) ?? 0))
            } else if item.hasPrefix("rss=") || item.hasPrefix("exit=") || item == "-" {
                continue
            } else if parts.count == 3 && ["text", "ln", "hard", "chmod"].contains(parts[0]) || parts.count == 2 && ["mkfifo", "mkdir"].contains(parts[0]) {
                let a = decode(parts[1]), b = parts.count == 3 ? decode(parts[2]) : []
                switch parts[0] {
                case "text":
                    try write(Data(b), to: a)
                    made.append(a)
                case "ln":
                    _ = withCString(b) { target in withCString(path(a)) { symlink(target, $0) } }
                    prepared.artefacts.append(a)
                    made.append(a)
                case "hard":
                    _ = withCString(path(b)) { target in withCString(path(a)) { link(target, $0) } }
                    made.append(a)
                case "chmod":
                    _ = withCString(path(b)) { chmod($0, mode_t(String(decoding: a, as: UTF8.self), radix: 8) ?? 0o644) }
                case "mkfifo":
                    _ = withCString(path(a)) { mkfifo($0, 0o644) }
                    prepared.artefacts.append(a)
                default:
                    _ = withCString(path(a)) { mkdir($0, 0o755) }
                    prepared.artefacts.append(a)
                }
            } else if let eq = item.firstIndex(of: "=") {
                let name = decode(String(item[..<eq])), from = String(item[item.index(after: eq)...])
                if from.hasPrefix("gen:") {
                    let temporary = work.appendingPathComponent(".generated")
                    try HostileCorpus.generate(String(from.dropFirst(4)), at: temporary)
                    _ = withCString(Array(temporary.path.utf8)) { old in withCString(path(name)) { rename(old, $0) } }
                } else {
                    try write(try Data(contentsOf: source(from)), to: name)
                }
                made.append(name)
            } else {
                throw ToolError(message: "commands.tsv: unknown setup item \(item)")
            }
        }
        prepared.inputs = made.filter { !writes.contains($0) && !prepared.artefacts.contains($0) }
        prepared.writes = Array(writes)
        return prepared
    }

    /// Calls `body` with `bytes` as a NUL-terminated C string.
    static func withCString<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        (bytes + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }

    /// The control characters in `text` other than a line feed: a message that echoes a name must
    /// quote them, or a name could forge lines or drive the terminal.
    static func controlCharacters(in text: Data) -> [UInt8] {
        text.filter { ($0 < 0x20 && $0 != 0x0A) || $0 == 0x7F }
    }
}
