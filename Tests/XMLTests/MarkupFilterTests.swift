import Testing
@testable import XML

/// The markup filter against what it must write, on documents made of every kind of piece, cut
/// into chunks of every size: text and whole tags are copied at once up to the last markup a chunk
/// may leave open, and the rest is read byte by byte, so each cut takes other paths.
@Suite("XML markup filter: the same bytes and lines whatever the chunks")
struct MarkupFilterTests {
    /// A document and what the filter writes of it: comments without their content but their line
    /// breaks, the rest as it is.
    struct Document {
        var input: [UInt8] = []
        var expected: [UInt8] = []
        var lines = 1

        mutating func add(_ text: String, writes: String? = nil) {
            input += Array(text.utf8)
            expected += Array((writes ?? text).utf8)
        }
    }

    /// A linear congruential generator (Knuth's MMIX constants): the same documents every run.
    struct Draw {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        /// Up to `count` pieces of `alphabet`, never holding `end`.
        mutating func text(from alphabet: [String], count: Int, without end: String? = nil) -> String {
            var text = (0..<next(count)).map { _ in alphabet[next(alphabet.count)] }.joined()
            while let end, let found = text.range(of: end) { text.replaceSubrange(found, with: " ") }
            return text
        }
    }

    /// A document of 200 pieces; with `returns`, line breaks are CR and CR LF too (lines are
    /// counted otherwise then).
    static func document(seed: UInt64, returns: Bool) -> Document {
        var draw = Draw(state: seed)
        var document = Document()
        let plain = ["a", "7", " ", ".", "\n", "!", "?", ">", "]", "-", "é"] + (returns ? ["\r\n", "\r"] : [])
        document.add("<?xml version=\"1.0\"?>\n<gpx>")
        for _ in 0..<200 {
            switch draw.next(8) {
            case 0, 1: document.add(draw.text(from: plain, count: 30))
            case 2: document.add("&amp;")
            case 3:
                let value = draw.text(from: ["x", ">", "!", "?", "'", "\n", "-"], count: 12).replacingOccurrences(of: "\"", with: "")
                let other = draw.text(from: ["y", ">", "\"", returns ? "\r\n" : "\n"], count: 6)
                document.add("<t a=\"\(value)\" b='\(other)'\(draw.next(2) == 0 ? "/" : "")>")
            case 4: document.add("</t>")
            case 5:
                let content = draw.text(from: ["c", "-", "<", ">", "\n", returns ? "\r\n" : "\n", "!", "<!--", "- -"], count: 20, without: "-->")
                let breaks = content.unicodeScalars.filter { $0 == "\n" || $0 == "\r" }.map(String.init).joined()
                document.add("<!--\(content)-->", writes: "<!--\(breaks)-->")
            case 6: document.add("<![CDATA[\(draw.text(from: ["d", "]", ">", "<!--", "\n", "]]"], count: 16, without: "]]>"))]]>")
            default: document.add("<?pi \(draw.text(from: ["e", ">", "?", "<!--", "\n"], count: 16, without: "?>"))?>")
            }
        }
        document.add("</gpx>\n")
        // A line ends at LF, CR, or CR LF.
        let bytes = document.input
        document.lines = 1 + bytes.indices.filter { bytes[$0] == 0x0D || bytes[$0] == 0x0A && ($0 == 0 || bytes[$0 - 1] != 0x0D) }.count
        return document
    }

    /// The filter's output and the line it ends on, fed `chunk` bytes at a time.
    static func filtered(_ input: [UInt8], chunk: Int) throws -> (bytes: [UInt8], line: Int) {
        var filter = MarkupFilter()
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk + MarkupFilter.growth)
        var offset = 0
        while offset < input.count {
            let end = min(offset + chunk, input.count)
            let written = try input[offset..<end].withUnsafeBytes { piece in
                try buffer.withUnsafeMutableBytes { try filter.filter(piece, into: $0.baseAddress!) }
            }
            output += buffer[..<written]
            offset = end
        }
        return (output, filter.line)
    }

    @Test("every piece of markup, cut anywhere, gives the same bytes and lines", arguments: 0..<12)
    func chunks(_ seed: Int) throws {
        let document = Self.document(seed: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1, returns: seed % 2 == 1)
        for chunk in [1, 2, 3, 5, 8, 13, 64, 333, document.input.count] {
            let (bytes, line) = try Self.filtered(document.input, chunk: chunk)
            #expect(bytes == document.expected, "seed \(seed), chunks of \(chunk)")
            #expect(line == document.lines, "seed \(seed), chunks of \(chunk)")
        }
    }

    @Test("a long comment of CR LF lines and single dashes is written as its line breaks, in pieces, its lines counted")
    func longCommentOfReturns() throws {
        let lines = MarkupFilter.commentLineBreaks + 10
        let input = Array(("<a><!--" + String(repeating: "x-y\r\n", count: lines) + "--></a>").utf8)
        let (bytes, line) = try Self.filtered(input, chunk: 64 * 1024)
        // CR and LF are two breaks each: the comment is cut after every `commentLineBreaks` of them.
        var expected = Array("<a><!--".utf8)
        for n in 1...(2 * lines) {
            expected.append(n % 2 == 1 ? 0x0D : 0x0A)
            if n % MarkupFilter.commentLineBreaks == 0 { expected += Array("--><!--".utf8) }
        }
        expected += Array("--></a>".utf8)
        #expect(bytes == expected)
        #expect(line == lines + 1)
    }
}
