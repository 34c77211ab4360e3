import Foundation

/// A JSON value with the line it starts on, as `JSONScanner.parse` builds it. Used by readers that
/// want the line of each value (`GeoJSONRouteReader`: a note's source is `file:line`); Foundation's
/// parser gives no lines.
public struct JSONNode {
    public indirect enum Value {
        case object([(key: String, value: JSONNode)])
        case array([JSONNode])
        /// A list of numbers only (a GeoJSON position), kept without a node per number: a line of
        /// a million positions takes a third of the memory it would as nodes.
        case numbers([Double])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }
    public var value: Value
    /// The 1-based line the value starts on.
    public var line: Int

    public init(value: Value, line: Int) {
        self.value = value
        self.line = line
    }

    /// The member `key` of an object (the first, when a key is repeated), else nil.
    public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    public var string: String? {
        if case .string(let s) = value { return s }
        return nil
    }

    public var array: [JSONNode]? {
        switch value {
        case .array(let a): return a
        case .numbers(let n): return n.map { JSONNode(value: .number($0), line: line) }
        default: return nil
        }
    }

    /// The numbers of a list that holds numbers only, else nil.
    public var numbers: [Double]? {
        if case .numbers(let n) = value { return n }
        return nil
    }

    public var number: Double? {
        if case .number(let n) = value { return n }
        return nil
    }

    /// What kind of value this is, for messages ("a string").
    public var kind: String {
        switch value {
        case .object: return "an object"
        case .array, .numbers: return "a list"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "true or false"
        case .null: return "null"
        }
    }
}

/// What is wrong with a JSON text: the field (for a number out of range; nil for a syntax error,
/// which is told by its line), the 1-based line, and the problem.
public struct JSONProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String?
    public var line: Int
    public var message: String

    public init(field: String? = nil, line: Int, message: String) {
        self.field = field
        self.line = line
        self.message = message
    }

    /// `FIELD: message`, or `line N: message` when the problem has no field.
    public var description: String {
        if let field { return "\(field): \(message)" }
        return "line \(line): \(message)"
    }
}

/// The one hand-written JSON scanner (RFC 8259), for the two things Foundation's parser does not
/// give: the line of every value (`parse`, for `GeoJSONRouteReader`), and what is wrong with a
/// file Foundation refused with no more than "not valid JSON" (`problem(in:wholeNumberKeys:)`, for
/// the book, draft, undo, handles and template files): a syntax error at a line, a number no Swift
/// number can hold (`1e400`), or a number that is not a whole number within range where a whole
/// number is wanted, named by its field (`notes[3].tulip.roundabout.exitNumber`).
///
/// One pass over the bytes, without recursion: open containers are kept in an array, so neither a
/// file nested ten thousand deep nor one a million deep can exhaust the stack, and the tree built
/// is never deeper than `Rules.maximumDepth`, so freeing it cannot recurse far either. O(bytes)
/// time; memory is the tree (`parse`) or the open containers (`problem`).
public enum JSONScanner {
    /// What the scan refuses besides the grammar.
    public struct Rules: Sendable {
        /// Deeper than this the text is refused: a book nests about ten deep, so a deeper file is
        /// not one a person or roadbook wrote.
        public var maximumDepth: Int
        /// Keys whose values must be whole numbers that fit in an `Int` (for a book: `id`,
        /// `danger`, `speedLimit`, …); a fraction or a 30-digit number under one of them is refused.
        public var wholeNumberKeys: Set<String>
        /// Whether a number too small to hold (`1e-400`) is refused, as `JSONDecoder` refuses it,
        /// rather than read as 0, as `JSONSerialization` reads it.
        public var refusesUnderflow: Bool

        public init(maximumDepth: Int = 256, wholeNumberKeys: Set<String> = [], refusesUnderflow: Bool = true) {
            self.maximumDepth = maximumDepth
            self.wholeNumberKeys = wholeNumberKeys
            self.refusesUnderflow = refusesUnderflow
        }
    }

    /// Parses `bytes` as one JSON value.
    /// - Throws: `JSONProblem` with the line (and, for a number out of range, the field) of the
    ///   first fault.
    public static func parse(_ bytes: [UInt8], rules: Rules = Rules()) throws(JSONProblem) -> JSONNode {
        var scanner = Scanner(bytes: bytes, rules: rules, buildsTree: true)
        return try scanner.run()
    }

    /// `text` as a message shows it: a key or a text from a file, written as JSON writes it inside
    /// quotes (control characters and line breaks, U+0085, U+2028 and U+2029 included, as `\n` or
    /// `\u000C`; `"` and `\` escaped), and cut to `limit` characters with "…". A file's key can
    /// hold a line break, and a message of roadbook's is one line.
    public static func printable(_ text: some StringProtocol, limit: Int = 40) -> String {
        var out = ""
        for scalar in text.prefix(limit).unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                switch scalar.properties.generalCategory {
                case .control, .lineSeparator, .paragraphSeparator: out += String(format: "\\u%04X", scalar.value)
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        return text.count > limit ? out + "…" : out
    }

    /// The first problem in `data`, or nil when the scan finds none. The readers of the book,
    /// template and handles files call it only after a decoder failed, so it costs nothing on a
    /// good file; it builds no tree.
    public static func problem(in data: Data, wholeNumberKeys: Set<String> = []) -> JSONProblem? {
        var scanner = Scanner(bytes: [UInt8](data), rules: Rules(wholeNumberKeys: wholeNumberKeys), buildsTree: false)
        do { _ = try scanner.run() } catch { return error }
        return nil
    }

    private struct Scanner {
        let bytes: [UInt8]
        let rules: Rules
        /// False when only the problem is wanted: values are checked, not kept.
        let buildsTree: Bool
        var i = 0
        var line = 1

        /// An open container: its elements so far (for an object, its values, with their keys in
        /// `keys`; none kept when no tree is built), how many, and the key awaiting its value.
        /// Appended to in place, never copied.
        struct Open {
            var isObject: Bool
            var line: Int
            var elements: [JSONNode] = []
            var keys: [String] = []
            var count = 0
            var pendingKey: String?
        }
        var open: [Open] = []

        init(bytes: [UInt8], rules: Rules, buildsTree: Bool) {
            self.bytes = bytes
            self.rules = rules
            self.buildsTree = buildsTree
        }

        /// A syntax error: told by its line.
        func error(_ message: String) -> JSONProblem { JSONProblem(line: line, message: message) }

        /// A value out of range: told by its field, the path of the value being read.
        func valueError(_ message: String) -> JSONProblem {
            var path = ""
            for container in open {
                if container.isObject {
                    if let key = container.pendingKey.map({ JSONScanner.printable($0) }) { path += path.isEmpty ? key : ".\(key)" }
                } else {
                    path += "[\(container.count)]"
                }
            }
            return JSONProblem(field: path.isEmpty ? nil : path, line: line, message: message)
        }

        func here() -> String {
            guard i < bytes.count else { return "the file ends" }
            let b = bytes[i]
            if b >= 0x21 && b < 0x7F { return "'\(Character(UnicodeScalar(b)))' was found" }
            return String(format: "byte 0x%02X was found", b)
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

        mutating func run() throws(JSONProblem) -> JSONNode {
            // A UTF-8 byte order mark may be ignored (RFC 8259 §8.1); editors on Windows write one.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
            skipSpace()
            guard i < bytes.count else { throw error("the file is empty: expected a JSON object") }
            var finished: JSONNode? = nil
            while true {
                // Read a value (a scalar, or the opening of a container).
                skipSpace()
                var value: JSONNode? = try startValue()
                // Close containers as far as the text closes them, attaching each finished value.
                while true {
                    if let done = value {
                        guard !open.isEmpty else { finished = done; break }
                        attach(done)
                        value = nil
                    }
                    skipSpace()
                    guard let topIsObject = open.last?.isObject else { break }
                    guard i < bytes.count else {
                        throw error("the file ends inside \(topIsObject ? "an object" : "a list"): it is cut short")
                    }
                    let close: UInt8 = topIsObject ? 0x7D : 0x5D
                    if bytes[i] == close {
                        i += 1
                        value = closeTop()
                        continue
                    }
                    guard bytes[i] == 0x2C else {
                        throw error("expected ',' or '\(Character(UnicodeScalar(close)))', but \(here())")
                    }
                    i += 1
                    if topIsObject { try readKey() }
                    break
                }
                if let finished {
                    skipSpace()
                    guard i == bytes.count else { throw error("expected the end of the file after the JSON value, but \(here())") }
                    return finished
                }
            }
        }

        mutating func attach(_ node: JSONNode) {
            let top = open.count - 1
            open[top].count += 1
            if open[top].isObject {
                if buildsTree { open[top].keys.append(open[top].pendingKey ?? "") }
                open[top].pendingKey = nil
            }
            if buildsTree { open[top].elements.append(node) }
        }

        mutating func closeTop() -> JSONNode {
            let top = open.removeLast()
            guard buildsTree else { return JSONNode(value: .null, line: top.line) }
            if top.isObject {
                return JSONNode(value: .object(zip(top.keys, top.elements).map { (key: $0, value: $1) }), line: top.line)
            }
            var numbers: [Double] = []
            numbers.reserveCapacity(top.elements.count)
            for element in top.elements {
                guard case .number(let n) = element.value else { return JSONNode(value: .array(top.elements), line: top.line) }
                numbers.append(n)
            }
            return numbers.isEmpty ? JSONNode(value: .array([]), line: top.line) : JSONNode(value: .numbers(numbers), line: top.line)
        }

        /// Reads `"key" :` of an object member, leaving the key pending.
        mutating func readKey() throws(JSONProblem) {
            skipSpace()
            guard i < bytes.count, bytes[i] == 0x22 else { throw error("expected a key in quotes, but \(here())") }
            let key = try readString()
            skipSpace()
            guard i < bytes.count, bytes[i] == 0x3A else { throw error("expected ':' after the key \"\(JSONScanner.printable(key))\", but \(here())") }
            i += 1
            open[open.count - 1].pendingKey = key
        }

        /// A scalar value, or nil after opening a container (pushed on `open`); an empty
        /// container is returned closed.
        mutating func startValue() throws(JSONProblem) -> JSONNode? {
            guard i < bytes.count else { throw error("expected a value, but the file ends: it is cut short") }
            let start = line
            switch bytes[i] {
            case 0x7B, 0x5B:
                guard open.count < rules.maximumDepth else {
                    throw error("nested more than \(rules.maximumDepth) deep; no file roadbook reads nests so deep")
                }
                let isObject = bytes[i] == 0x7B
                i += 1
                skipSpace()
                if i < bytes.count, bytes[i] == (isObject ? 0x7D : 0x5D) {
                    i += 1
                    return JSONNode(value: isObject ? .object([]) : .array([]), line: start)
                }
                open.append(Open(isObject: isObject, line: start))
                if isObject { try readKey() }
                skipSpace()
                return try startValue()
            case 0x22:
                let text = try readString()
                return JSONNode(value: .string(buildsTree ? text : ""), line: start)
            case 0x74: try literal("true"); return JSONNode(value: .bool(true), line: start)
            case 0x66: try literal("false"); return JSONNode(value: .bool(false), line: start)
            case 0x6E: try literal("null"); return JSONNode(value: .null, line: start)
            case 0x2D, 0x30...0x39:
                return JSONNode(value: .number(try readNumber()), line: start)
            default:
                throw error("expected a value, but \(here())")
            }
        }

        mutating func literal(_ word: String) throws(JSONProblem) {
            let utf8 = Array(word.utf8)
            guard i + utf8.count <= bytes.count, Array(bytes[i..<i + utf8.count]) == utf8 else {
                throw error("expected a value, but \(here())")
            }
            i += utf8.count
        }

        mutating func readNumber() throws(JSONProblem) -> Double {
            let start = i
            if bytes[i] == 0x2D { i += 1 }
            func digits() -> Int {
                let from = i
                while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
                return i - from
            }
            let integerStart = i
            guard digits() > 0 else { throw error("a number has no digits after '-'") }
            if bytes[integerStart] == 0x30, i - integerStart > 1 { throw error("a number cannot start with 0 (\(String(decoding: bytes[start..<i], as: UTF8.self).prefix(20)))") }
            if i < bytes.count, bytes[i] == 0x2E {
                i += 1
                guard digits() > 0 else { throw error("a number has no digits after its decimal point") }
            }
            if i < bytes.count, bytes[i] == 0x65 || bytes[i] == 0x45 {
                i += 1
                if i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
                guard digits() > 0 else { throw error("a number has no digits in its exponent") }
            }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            guard let value = Double(text), value.isFinite else {
                throw valueError("the number \(shown) is out of range (a number here is at most about 1.8e308)")
            }
            if rules.refusesUnderflow, value == 0, text.contains(where: { ("1"..."9").contains($0) }) {
                throw valueError("the number \(shown) is too small to hold (below about 1e-308); write 0")
            }
            if let top = open.last, top.isObject, let key = top.pendingKey, rules.wholeNumberKeys.contains(key) {
                let digitsOnly = text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "-") }
                let isWhole = digitsOnly ? Int(text) != nil : value == value.rounded() && abs(value) < 9.2e18
                if !isWhole {
                    throw valueError("\(shown) is not a whole number in range (at most \(Int.max))")
                }
            }
            return value
        }

        mutating func readString() throws(JSONProblem) -> String {
            i += 1  // the opening quote
            var out: [UInt8] = []
            let endsInside = "a text in quotes runs to the end of the file: a closing '\"' is missing"
            while true {
                guard i < bytes.count else { throw error(endsInside) }
                let b = bytes[i]
                switch b {
                case 0x22:
                    i += 1
                    return String(decoding: out, as: UTF8.self)
                case 0x5C:
                    guard i + 1 < bytes.count else { throw error(endsInside) }
                    let e = bytes[i + 1]
                    i += 2
                    switch e {
                    case 0x22, 0x5C, 0x2F: out.append(e)
                    case 0x62: out.append(0x08)
                    case 0x66: out.append(0x0C)
                    case 0x6E: out.append(0x0A)
                    case 0x72: out.append(0x0D)
                    case 0x74: out.append(0x09)
                    case 0x75:
                        var scalar = try hex4()
                        if (0xD800..<0xDC00).contains(scalar), i + 1 < bytes.count, bytes[i] == 0x5C, bytes[i + 1] == 0x75 {
                            i += 2
                            let low = try hex4()
                            if (0xDC00..<0xE000).contains(low) {
                                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            }
                        }
                        let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                        out.append(contentsOf: Array(String(character).utf8))
                    case 0x21..<0x7F:
                        throw error("\\\(Character(UnicodeScalar(e))) is not an escape JSON knows")
                    default:
                        throw error(String(format: "\\ followed by byte 0x%02X is not an escape JSON knows", e))
                    }
                case 0x0A:
                    throw error("a text in quotes runs to the end of the line: a closing '\"' is missing")
                case 0x00...0x1F:
                    throw error("a text in quotes holds a control character; write it as \\u00XX")
                default:
                    out.append(b)
                    i += 1
                }
            }
        }

        mutating func hex4() throws(JSONProblem) -> UInt32 {
            guard i + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16) else {
                throw error("\\u must be followed by four hexadecimal digits")
            }
            i += 4
            return value
        }
    }
}
