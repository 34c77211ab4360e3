import Foundation
import Model
import Testing

/// `JSONScanner`: the tree with lines that `GeoJSONRouteReader` reads, and the problems the book,
/// template and handles readers tell when Foundation refused a file.
@Suite("JSON scanner: lines, escapes, depth and problems in words")
struct JSONScannerTests {
    /// GeoJSON's rules: 64 deep, and a number too small to hold read as 0.
    static let geoJSON = JSONScanner.Rules(maximumDepth: 64, refusesUnderflow: false)

    @Test("values carry the line they start on; escapes and surrogate pairs are decoded; a BOM is ignored")
    func values() throws {
        let node = try JSONScanner.parse(Array("\u{FEFF}{\"a\": [1,\n2.5e1, -0.5, [0]],\n \"s\": \"\\u00e9\\ud83d\\ude00\\n\\\"\", \"t\": true, \"n\": null, \"p\": [1.5, 42.5]}".utf8))
        #expect(node["a"]?.array?.map(\.number) == [1, 25, -0.5, nil])
        #expect(node["a"]?.array?.map(\.line) == [1, 2, 2, 2])
        // A list of numbers only is kept as numbers, its line the list's.
        #expect(node["p"]?.numbers == [1.5, 42.5])
        #expect(node["p"]?.array?.map(\.line) == [3, 3])
        #expect(node["s"]?.string == "é😀\n\"")
        #expect(node["s"]?.line == 3)
        if case .bool(true)? = node["t"]?.value {} else { Issue.record("t is not true") }
        if case .null? = node["n"]?.value {} else { Issue.record("n is not null") }
    }

    @Test("syntax errors have their line, numbers out of range their field", arguments: [
        ("", "line 1: the file is empty: expected a JSON object"),
        ("{\"a\": 1", "line 1: the file ends inside an object: it is cut short"),
        ("{\"a\": [1, 2", "line 1: the file ends inside a list: it is cut short"),
        ("{\"a\": 1,}", "line 1: expected a key in quotes, but '}' was found"),
        ("{\"a\" 1}", "line 1: expected ':' after the key \"a\", but '1' was found"),
        ("{\"a\": 1,\n\"b\": }", "line 2: expected a value, but '}' was found"),
        ("{\"a\": ", "line 1: expected a value, but the file ends: it is cut short"),
        ("[1 2]", "line 1: expected ',' or ']', but '2' was found"),
        ("[01]", "line 1: a number cannot start with 0 (01)"),
        ("[-]", "line 1: a number has no digits after '-'"),
        ("[1.]", "line 1: a number has no digits after its decimal point"),
        ("[1e]", "line 1: a number has no digits in its exponent"),
        ("[1e400]", "[0]: the number 1e400 is out of range (a number here is at most about 1.8e308)"),
        ("{\"a\": {\"b\": [0, 1e400]}}", "a.b[1]: the number 1e400 is out of range (a number here is at most about 1.8e308)"),
        ("{\"a\": [1e-400]}", "a[0]: the number 1e-400 is too small to hold (below about 1e-308); write 0"),
        ("{\"id\": 1.5}", "id: 1.5 is not a whole number in range (at most 9223372036854775807)"),
        ("{\"id\": 123456789012345678901234567890}", "id: 123456789012345678901234567890 is not a whole number in range (at most 9223372036854775807)"),
        ("{\"a\": \"text\n\"}", "line 1: a text in quotes runs to the end of the line: a closing '\"' is missing"),
        ("[\"text", "line 1: a text in quotes runs to the end of the file: a closing '\"' is missing"),
        ("[\"a\u{01}\"]", "line 1: a text in quotes holds a control character; write it as \\u00XX"),
        ("[\"\\x\"]", "line 1: \\x is not an escape JSON knows"),
        ("[\"\\u12\"]", "line 1: \\u must be followed by four hexadecimal digits"),
        ("{\"a\": 1} x", "line 1: expected the end of the file after the JSON value, but 'x' was found"),
        ("[tru]", "line 1: expected a value, but 't' was found"),
        ("\u{FEFF}[1e400]", "[0]: the number 1e400 is out of range (a number here is at most about 1.8e308)"),
        // What the file holds is shown on one line: a key's line breaks and control characters as
        // JSON escapes, a backslash before a byte that is not a character by the byte's value.
        ("{\"a\\nb\" 1}", "line 1: expected ':' after the key \"a\\nb\", but '1' was found"),
        ("{\"\\f\\u2028\\\"\u{85}\" 1}", "line 1: expected ':' after the key \"\\u000C\\u2028\\\"\\u0085\", but '1' was found"),
        ("{\"" + String(repeating: "k", count: 50) + "\" 1}",
         "line 1: expected ':' after the key \"" + String(repeating: "k", count: 40) + "…\", but '1' was found"),
        ("{\"a\\nb\": [1e400]}", "a\\nb[0]: the number 1e400 is out of range (a number here is at most about 1.8e308)"),
        ("[\"\\\n\"]", "line 1: \\ followed by byte 0x0A is not an escape JSON knows"),
        ("[\"\\é\"]", "line 1: \\ followed by byte 0xC3 is not an escape JSON knows"),
    ])
    func problems(json: String, expected: String) {
        // The same problem whether the tree is built or only the problem wanted.
        #expect(JSONScanner.problem(in: Data(json.utf8), wholeNumberKeys: ["id"])?.description == expected)
        let error = #expect(throws: JSONProblem.self) {
            try JSONScanner.parse(Array(json.utf8), rules: JSONScanner.Rules(wholeNumberKeys: ["id"]))
        }
        #expect(error?.description == expected)
    }

    @Test("good JSON has no problem, whole numbers written with an exponent included")
    func good() {
        #expect(JSONScanner.problem(in: Data("{\"id\": 1e3, \"a\": [true, false, null, -0.5, \"x\\\"y\"], \"b\": {}}".utf8), wholeNumberKeys: ["id"]) == nil)
    }

    @Test("a number too small to hold is read as 0 where the rules allow it")
    func underflow() throws {
        #expect(try JSONScanner.parse(Array("[1e-400, 1]".utf8), rules: Self.geoJSON).numbers == [0, 1])
    }

    @Test("nesting 10,000 and 1,000,000 deep is refused at the limit without exhausting the stack")
    func deep() {
        for depth in [10_000, 1_000_000] {
            let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let error = #expect(throws: JSONProblem.self) { try JSONScanner.parse(Array(text.utf8), rules: Self.geoJSON) }
            #expect(error?.message == "nested more than 64 deep; no file roadbook reads nests so deep")
            #expect(JSONScanner.problem(in: Data(text.utf8))?.description == "line 1: nested more than 256 deep; no file roadbook reads nests so deep")
        }
        #expect(throws: Never.self) {
            try JSONScanner.parse(Array((String(repeating: "[", count: 64) + String(repeating: "]", count: 64)).utf8), rules: Self.geoJSON)
        }
    }
}
