import Foundation

/// Says what is wrong with JSON that Foundation refused with no more than "not valid JSON": a
/// syntax error at a line, a number no Swift number can hold (`1e400`), or a number that is not a
/// whole number within range where a whole number is wanted. The readers of the book, template and
/// handles files call it only after a decoder failed, so it costs nothing on a good file.
///
/// It scans the bytes once, without recursion (a file nested a million deep cannot exhaust the
/// stack), keeping the path of the value being read: `notes[3].tulip.roundabout.exitNumber`.
public enum JSONDiagnosis {
    /// What the scan found: the field (for a number out of range; nil for a syntax error, which is
    /// told by its line), the 1-based line, and the problem.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public var field: String?
        public var line: Int
        public var message: String

        /// `FIELD: message` or `line N: message` when the problem has no field.
        public var description: String {
            if let field { return "\(field): \(message)" }
            return "line \(line): \(message)"
        }
    }

    /// Deeper than this, a file is not one a person or roadbook wrote: a book nests about ten deep.
    public static let maximumDepth = 256

    /// The first problem in `data`, or nil when the scan finds none.
    /// - Parameter wholeNumberKeys: keys whose values must be whole numbers that fit in an `Int`
    ///   (for a book: `id`, `danger`, `speedLimit`, …); a fraction or a 30-digit number under one of
    ///   them is the problem.
    public static func problem(in data: Data, wholeNumberKeys: Set<String> = []) -> Problem? {
        var scanner = Scanner(bytes: [UInt8](data), wholeNumberKeys: wholeNumberKeys)
        return scanner.run()
    }

    /// A path of object keys and array indexes as messages write it.
    static func text(of path: [PathPart]) -> String? {
        var text = ""
        for part in path {
            switch part {
            case .key(let k): text += text.isEmpty ? k : ".\(k)"
            case .index(let i): text += "[\(i)]"
            case .pendingKey: break
            }
        }
        return text.isEmpty ? nil : text
    }

    enum PathPart: Equatable { case key(String), index(Int), pendingKey }

    private struct Scanner {
        let bytes: [UInt8]
        let wholeNumberKeys: Set<String>
        var i = 0
        var line = 1
        /// One entry per open container: for an object the key being read, for an array the index.
        var path: [PathPart] = []
        var containers: [UInt8] = []

        init(bytes: [UInt8], wholeNumberKeys: Set<String>) {
            self.bytes = bytes
            self.wholeNumberKeys = wholeNumberKeys
        }

        /// A syntax error: told by its line.
        func problem(_ message: String) -> Problem {
            Problem(field: nil, line: line, message: message)
        }

        /// A value out of range: told by its field.
        func valueProblem(_ message: String) -> Problem {
            Problem(field: JSONDiagnosis.text(of: path), line: line, message: message)
        }

        mutating func skipSpace() {
            while i < bytes.count {
                switch bytes[i] {
                case 0x0A: line += 1; i += 1
                case 0x20, 0x09, 0x0D: i += 1
                default: return
                }
            }
        }

        func describeHere() -> String {
            guard i < bytes.count else { return "the file ends" }
            let b = bytes[i]
            if b >= 0x21 && b < 0x7F { return "'\(Character(UnicodeScalar(b)))' was found" }
            return String(format: "byte 0x%02X was found", b)
        }

        mutating func run() -> Problem? {
            skipSpace()
            if i == bytes.count { return problem("the file is empty: expected a JSON object") }
            if let p = value() { return p }
            while true {
                skipSpace()
                if containers.isEmpty {
                    return i < bytes.count ? problem("expected the end of the file after the JSON value, but \(describeHere())") : nil
                }
                guard i < bytes.count else {
                    return problem("the file ends inside \(containers.last == 0x7B ? "an object" : "a list"): it is cut short")
                }
                let open = containers.last!
                let close: UInt8 = open == 0x7B ? 0x7D : 0x5D
                if bytes[i] == close {
                    i += 1
                    containers.removeLast()
                    path.removeLast()
                    continue
                }
                guard bytes[i] == 0x2C else {
                    return problem("expected ',' or '\(Character(UnicodeScalar(close)))', but \(describeHere())")
                }
                i += 1
                skipSpace()
                if open == 0x7B {
                    if let p = key() { return p }
                } else if case .index(let n) = path.last! {
                    path[path.count - 1] = .index(n + 1)
                }
                if let p = value() { return p }
            }
        }

        /// Reads `"key" :` in an object, setting the path's last part to the key.
        mutating func key() -> Problem? {
            skipSpace()
            guard i < bytes.count, bytes[i] == 0x22 else { return problem("expected a key in quotes, but \(describeHere())") }
            let start = i + 1
            if let p = string() { return p }
            let name = String(decoding: bytes[start..<(i - 1)], as: UTF8.self)
            path[path.count - 1] = .key(name)
            skipSpace()
            guard i < bytes.count, bytes[i] == 0x3A else { return problem("expected ':' after \"\(name)\", but \(describeHere())") }
            i += 1
            return nil
        }

        /// Reads one value; opens a container and returns at its first element.
        mutating func value() -> Problem? {
            while true {
                skipSpace()
                guard i < bytes.count else { return problem("expected a value, but the file ends: it is cut short") }
                switch bytes[i] {
                case 0x7B, 0x5B:
                    let open = bytes[i]
                    guard containers.count < maximumDepth else {
                        return problem("is nested more than \(maximumDepth) deep")
                    }
                    i += 1
                    containers.append(open)
                    path.append(open == 0x7B ? .pendingKey : .index(0))
                    skipSpace()
                    let close: UInt8 = open == 0x7B ? 0x7D : 0x5D
                    if i < bytes.count, bytes[i] == close {
                        i += 1
                        containers.removeLast()
                        path.removeLast()
                        return nil
                    }
                    if open == 0x7B {
                        if let p = key() { return p }
                    }
                    continue
                case 0x22: return string()
                case 0x74: return literal("true")
                case 0x66: return literal("false")
                case 0x6E: return literal("null")
                case 0x2D, 0x30...0x39: return number()
                default: return problem("expected a value, but \(describeHere())")
                }
            }
        }

        mutating func literal(_ word: String) -> Problem? {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count, Array(bytes[i..<(i + w.count)]) == w else {
                return problem("expected a value, but \(describeHere())")
            }
            i += w.count
            return nil
        }

        mutating func string() -> Problem? {
            i += 1
            while i < bytes.count {
                switch bytes[i] {
                case 0x22: i += 1; return nil
                case 0x5C: i += 2
                case 0x0A: return problem("a text in quotes runs to the end of the line: a closing '\"' is missing")
                case 0x00..<0x20: return problem("a text in quotes holds a control character; write it as \\u00XX")
                default: i += 1
                }
            }
            return problem("a text in quotes runs to the end of the file: a closing '\"' is missing")
        }

        mutating func number() -> Problem? {
            let start = i
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) || [0x2D, 0x2B, 0x2E, 0x65, 0x45].contains(bytes[i]) { i += 1 }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            guard let value = Double(text) else { return problem("\(text) is not a number") }
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            if !value.isFinite {
                return valueProblem("the number \(shown) is out of range (a number here is at most about 1.8e308)")
            }
            if value == 0, text.contains(where: { ("1"..."9").contains($0) }) {
                return valueProblem("the number \(shown) is too small to hold (below about 1e-308); write 0")
            }
            if case .key(let k)? = path.last, wholeNumberKeys.contains(k) {
                let digitsOnly = text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "-") }
                let isWhole = digitsOnly ? Int(text) != nil : value == value.rounded() && abs(value) < 9.2e18
                if !isWhole {
                    return valueProblem("\(shown) is not a whole number in range (at most \(Int.max))")
                }
            }
            return nil
        }
    }
}
