import Foundation

/// A JSON value with the line it starts on, parsed without recursion and with a nesting limit, so
/// neither a file nested ten thousand deep nor one a million deep can exhaust the stack (the
/// parse keeps its open containers in an array, and the tree it builds is never deeper than
/// `maximumDepth`, so freeing it cannot recurse far either).
///
/// Used by readers that want the line of each value (`GeoJSONRouteReader`: a note's source is
/// `file:line`); Foundation's parser gives no lines.
struct JSONNode {
    indirect enum Value {
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
    var value: Value
    /// The 1-based line the value starts on.
    var line: Int

    /// The member `key` of an object (the first, when a key is repeated), else nil.
    subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    var string: String? {
        if case .string(let s) = value { return s }
        return nil
    }

    var array: [JSONNode]? {
        switch value {
        case .array(let a): return a
        case .numbers(let n): return n.map { JSONNode(value: .number($0), line: line) }
        default: return nil
        }
    }

    /// The numbers of a list that holds numbers only, else nil.
    var numbers: [Double]? {
        if case .numbers(let n) = value { return n }
        return nil
    }

    var number: Double? {
        if case .number(let n) = value { return n }
        return nil
    }

    /// What kind of value this is, for messages ("a string").
    var kind: String {
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

/// Why `JSONTree.parse` refused the text: the 1-based line, and what is wrong.
struct JSONSyntaxError: Error, Equatable {
    var line: Int
    var message: String
}

/// The JSON parser behind `JSONNode` (RFC 8259): one pass over the bytes, open containers kept in
/// an array. O(bytes) time; memory is the tree.
enum JSONTree {
    /// Deeper than this the text is refused: GeoJSON nests at most seven deep (a MultiPolygon's
    /// positions in a Feature in a collection), a GeometryCollection a few more.
    static let maximumDepth = 64

    /// Parses `bytes` as one JSON value.
    /// - Throws: `JSONSyntaxError` with the line of the first fault.
    static func parse(_ bytes: [UInt8]) throws -> JSONNode {
        var parser = Parser(bytes: bytes)
        return try parser.run()
    }

    private struct Parser {
        let bytes: [UInt8]
        var i = 0
        var line = 1

        /// An open container: its elements so far (for an object, its values, with their keys in
        /// `keys`), and the key awaiting its value. Appended to in place, never copied.
        struct Open {
            var isObject: Bool
            var line: Int
            var elements: [JSONNode] = []
            var keys: [String] = []
            var pendingKey: String?
        }
        var open: [Open] = []

        init(bytes: [UInt8]) { self.bytes = bytes }

        func error(_ message: String) -> JSONSyntaxError { JSONSyntaxError(line: line, message: message) }

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

        mutating func run() throws -> JSONNode {
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
            if open[top].isObject {
                open[top].keys.append(open[top].pendingKey ?? "")
                open[top].pendingKey = nil
            }
            open[top].elements.append(node)
        }

        mutating func closeTop() -> JSONNode {
            let top = open.removeLast()
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
        mutating func readKey() throws {
            skipSpace()
            guard i < bytes.count, bytes[i] == 0x22 else { throw error("expected a key in quotes, but \(here())") }
            let key = try readString()
            skipSpace()
            guard i < bytes.count, bytes[i] == 0x3A else { throw error("expected ':' after the key \"\(key.prefix(40))\", but \(here())") }
            i += 1
            open[open.count - 1].pendingKey = key
        }

        /// A scalar value, or nil after opening a container (pushed on `open`); an empty
        /// container is returned closed.
        mutating func startValue() throws -> JSONNode? {
            guard i < bytes.count else { throw error("the file ends where a value was expected: it is cut short") }
            let start = line
            switch bytes[i] {
            case 0x7B, 0x5B:
                guard open.count < maximumDepth else {
                    throw error("nested more than \(maximumDepth) deep; no route file nests so deep")
                }
                let isObject = bytes[i] == 0x7B
                i += 1
                skipSpace()
                if i < bytes.count, bytes[i] == (isObject ? 0x7D : 0x5D) {
                    i += 1
                    return JSONNode(value: isObject ? .object([]) : .array([]), line: start)
                }
                if isObject {
                    open.append(Open(isObject: true, line: start))
                    try readKey()
                    skipSpace()
                    return try startValue()
                }
                open.append(Open(isObject: false, line: start))
                skipSpace()
                return try startValue()
            case 0x22:
                return JSONNode(value: .string(try readString()), line: start)
            case 0x74: try literal("true"); return JSONNode(value: .bool(true), line: start)
            case 0x66: try literal("false"); return JSONNode(value: .bool(false), line: start)
            case 0x6E: try literal("null"); return JSONNode(value: .null, line: start)
            case 0x2D, 0x30...0x39:
                return JSONNode(value: .number(try readNumber()), line: start)
            default:
                throw error("expected a value, but \(here())")
            }
        }

        mutating func literal(_ word: String) throws {
            let utf8 = Array(word.utf8)
            guard i + utf8.count <= bytes.count, Array(bytes[i..<i + utf8.count]) == utf8 else {
                throw error("expected a value, but \(here())")
            }
            i += utf8.count
        }

        mutating func readNumber() throws -> Double {
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
            guard let value = Double(text), value.isFinite else {
                throw error("the number \(text.prefix(40)) is out of range for a number")
            }
            return value
        }

        mutating func readString() throws -> String {
            i += 1  // the opening quote
            var out: [UInt8] = []
            while true {
                guard i < bytes.count else { throw error("the file ends inside a string: it is cut short") }
                let b = bytes[i]
                switch b {
                case 0x22:
                    i += 1
                    return String(decoding: out, as: UTF8.self)
                case 0x5C:
                    guard i + 1 < bytes.count else { throw error("the file ends inside a string: it is cut short") }
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
                    default:
                        throw error("\\\(Character(UnicodeScalar(e))) is not an escape JSON knows")
                    }
                case 0x00...0x1F:
                    if b == 0x0A { throw error("a string runs past the end of its line (a closing quote is missing)") }
                    throw error("a control character (byte 0x\(String(b, radix: 16))) inside a string must be escaped")
                default:
                    out.append(b)
                    i += 1
                }
            }
        }

        mutating func hex4() throws -> UInt32 {
            guard i + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16) else {
                throw error("\\u must be followed by four hexadecimal digits")
            }
            i += 4
            return value
        }
    }
}
