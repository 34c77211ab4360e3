import Foundation
import Testing
@testable import XML

/// Records every event of a stream as a line of text, and collects the text of every element.
private final class Recorder: XMLStreamHandler {
    var events: [String] = []
    /// Thrown from the start tag of an element with this local name.
    var failOn: String?

    struct Refusal: Error, Equatable { let line: Int }

    func startElement(_ name: XMLName, attributes: XMLAttributes, line: Int, stream: XMLStream) throws {
        if name.localName == failOn { throw Refusal(line: line) }
        let id = attributes["id"].map { " id=\($0)" } ?? ""
        events.append("start \(name.namespace.map { "{\($0)}" } ?? "")\(name.localName)\(id) @\(line)")
        stream.collectsText = true
    }

    func endElement(_ name: XMLName, stream: XMLStream) throws {
        events.append("end \(name.localName) \"\(stream.text)\"")
    }
}

/// Parses `xml` from memory, or through a chunk source handing out `chunk` bytes at a time.
private func parse(_ xml: String, chunk: Int? = nil, namespaces: Bool = true,
                   recorder: Recorder = Recorder()) throws -> [String] {
    let stream = try XMLStream(handler: recorder, resolvesNamespaces: namespaces)
    let bytes = Array(xml.utf8)
    if let chunk {
        var offset = 0
        try stream.parse { buffer in
            let count = min(chunk, buffer.count, bytes.count - offset)
            for i in 0..<count { buffer[i] = bytes[offset + i] }
            offset += count
            return count
        }
    } else {
        try bytes.withUnsafeBytes { try stream.parse(bytes: $0) }
    }
    return recorder.events
}

private func failure(_ xml: String, chunk: Int? = nil) -> XMLStreamError? {
    do {
        _ = try parse(xml, chunk: chunk)
        return nil
    } catch {
        return error as? XMLStreamError
    }
}

/// The malformation `xml` fails with, recording an issue when it fails otherwise or not at all.
private func malformation(_ xml: String, chunk: Int? = nil) -> XMLStreamError.Malformation? {
    guard case .malformed(let fault)? = failure(xml, chunk: chunk) else {
        Issue.record("\(xml.debugDescription) did not fail as malformed")
        return nil
    }
    return fault
}

@Suite("XML stream: expat behind one wrapper")
struct XMLStreamTests {
    @Test("elements, attributes and text arrive in order with their lines")
    func events() throws {
        let xml = "<?xml version=\"1.0\"?>\n<a id=\"1\">\n  <b id=\"x&amp;y\">hé &lt;b&gt;</b>\n</a>\n"
        #expect(try parse(xml) == ["start a id=1 @2", "start b id=x&y @3", "end b \"hé <b>\"", "end a \"\""])
    }

    @Test("names are split into namespace and local name only when asked")
    func namespaces() throws {
        let xml = "<g:gpx xmlns:g=\"urn:x\"><g:wpt/></g:gpx>"
        #expect(try parse(xml) == ["start {urn:x}gpx @1", "start {urn:x}wpt @1", "end wpt \"\"", "end gpx \"\""])
        #expect(try parse(xml, namespaces: false) == ["start g:gpx @1", "start g:wpt @1", "end g:wpt \"\"", "end g:gpx \"\""])
    }

    @Test("a chunk boundary inside a multi-byte UTF-8 character splits nothing")
    func chunkBoundaries() throws {
        let xml = "<a>€😀é</a>"
        let whole = try parse(xml)
        #expect(whole == ["start a @1", "end a \"€😀é\""])
        // Every size from 1 byte up cuts the 3-byte €, the 4-byte 😀 and the 2-byte é somewhere inside.
        for size in 1...6 {
            #expect(try parse(xml, chunk: size) == whole, "chunks of \(size) bytes")
        }
    }

    @Test("a DOCTYPE is refused with its line, before any entity in it can be used")
    func doctypeRefused() {
        let laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [<!ENTITY lol \"lol\">\n<!ENTITY lol2 \"&lol;&lol;&lol;\">]>\n<lolz>&lol2;</lolz>"
        #expect(failure(laughs) == .doctypeRefused(line: 2))
        #expect(failure("<!DOCTYPE a SYSTEM \"http://example.org/a.dtd\"><a/>", chunk: 7) == .doctypeRefused(line: 1))
    }

    @Test("an entity that was never declared is malformed, not looked up")
    func undeclaredEntity() {
        let fault = malformation("<a>\n&xxe;</a>")
        #expect(fault?.kind == .other && fault?.line == 2 && fault?.column == 1)
        #expect(fault?.message == "undefined entity")
    }

    @Test("malformed XML names line, column and kind")
    func malformed() {
        let broken = malformation("<a>\n<b></a>")
        #expect(broken?.kind == .other && broken?.line == 2 && broken?.column == 6)
        #expect(broken?.message == "mismatched tag")
        let truncated = malformation("<a>\n<b>", chunk: 2)
        #expect(truncated?.kind == .endsEarly && truncated?.line == 2)
    }

    @Test("nothing at all is empty, from memory and from a source")
    func empty() {
        #expect(failure("") == .empty)
        #expect(failure("", chunk: 4) == .empty)
    }

    @Test("a handler's error stops the parse and comes out unchanged")
    func handlerError() {
        let recorder = Recorder()
        recorder.failOn = "c"
        #expect(throws: Recorder.Refusal(line: 3)) {
            _ = try parse("<a>\n<b/>\n<c/><d/></a>", recorder: recorder)
        }
        #expect(recorder.events == ["start a @1", "start b @2", "end b \"\""], "no event after the error")
    }

    @Test("a source's error comes out unchanged")
    func sourceError() throws {
        struct Broken: Error, Equatable {}
        let stream = try XMLStream(handler: Recorder())
        #expect(throws: Broken()) { try stream.parse { _ in throw Broken() } }
    }

    @Test("a file is read to its end")
    func file() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("xmlstream-\(UUID()).xml").path
        // Longer than a chunk, so the file is read in more than one piece.
        let xml = "<a>" + String(repeating: "<b/>", count: XMLStream.chunkSize / 2) + "<c>end</c></a>"
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = Recorder()
        let stream = try XMLStream(handler: recorder)
        let file = try #require(fopen(path, "rb"))
        defer { fclose(file) }
        try stream.parse(file: file)
        #expect(recorder.events.count == 2 + 2 * (XMLStream.chunkSize / 2) + 2)
        #expect(recorder.events.suffix(2) == ["end c \"end\"", "end a \"\""])
    }

    @Test("text longer than the cap is refused with its line")
    func textTooLong() {
        let xml = "<a>\n" + String(repeating: "x", count: XMLStream.maximumTextBytes + 1) + "</a>"
        #expect(failure(xml) == .textTooLong(line: 2, limit: XMLStream.maximumTextBytes))
    }

    @Test("a comment's content never reaches expat, whatever the chunks; the lines after it stay right")
    func comments() throws {
        // "--" inside a comment is not XML, and is not read: nothing of a comment is.
        let xml = "<a>\n<!-- one\r\n two -- three\n-->\n<b id=\"1\">x<!-- in text -->y<!---->z</b>"
            + "<c><![CDATA[<!-- not a comment -->]]></c>\n<?pi <!-- ?></a>"
        let whole = try parse(xml)
        #expect(whole == ["start a @1", "start b id=1 @5", "end b \"xyz\"", "start c @5", "end c \"<!-- not a comment -->\"",
                          "end a \"\""])
        for size in 1...9 {
            #expect(try parse(xml, chunk: size) == whole, "chunks of \(size) bytes")
        }
        let unclosed = malformation("<a>\n<!-- never closed </a>", chunk: 3)
        #expect(unclosed?.kind == .endsEarly)
    }

    @Test("a comment of many lines or megabytes is read, handed on in pieces, nothing kept")
    func longComments() throws {
        let lines = MarkupFilter.commentLineBreaks * 2 + 5
        let xml = "<a><!--" + String(repeating: "x\n", count: lines) + "--><b/>"
            + "<!--" + String(repeating: "y", count: MarkupFilter.maximumMarkupBytes * 3) + "--><c/></a>"
        let expected = ["start a @1", "start b @\(lines + 1)", "end b \"\"", "start c @\(lines + 1)", "end c \"\"", "end a \"\""]
        #expect(try parse(xml) == expected)
        #expect(try parse(xml, chunk: 50_000) == expected)
    }

    @Test("a tag, a processing instruction or an entity reference longer than the limit is refused with its line")
    func markupTooLong() {
        let long = String(repeating: "v", count: MarkupFilter.maximumMarkupBytes)
        for (xml, what) in [("<a>\n<b c=\"\(long)\"/></a>", "a tag"), ("<a>\n<?pi \(long)?></a>", "a processing instruction"),
                            ("<a>\n&\(long);</a>", "an entity reference")] {
            let fault = malformation(xml, chunk: 60_000)
            #expect(fault?.kind == .tooLong && fault?.line == 2, "\(what)")
            #expect(fault?.message.hasPrefix("\(what) longer than \(MarkupFilter.maximumMarkupBytes) bytes") == true)
        }
        // An attribute value may hold `>`: the tag ends at the first one outside quotes.
        #expect((try? parse("<a b='>' c=\">\"><d/></a>")) == ["start a @1", "start d @1", "end d \"\"", "end a \"\""])
    }

    @Test("a document in UTF-16 is handed to expat as it is")
    func utf16() throws {
        let recorder = Recorder()
        let stream = try XMLStream(handler: recorder)
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "<a>\n<!-- c --><b/></a>".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        try bytes.withUnsafeBytes { try stream.parse(bytes: $0) }
        #expect(recorder.events == ["start a @1", "start b @2", "end b \"\"", "end a \"\""])
    }

    @Test("a name has one number in a stream, and an end tag has its start tag's name")
    func numberedNames() throws {
        let names = NameRecorder()
        try parse("<g:a xmlns:g=\"urn:x\"><b/><g:b/><b>text</b><a/></g:a>", handler: names)
        let a = XMLName(namespace: "urn:x", localName: "a"), b = XMLName(localName: "b")
        let gb = XMLName(namespace: "urn:x", localName: "b"), plainA = XMLName(localName: "a")
        #expect(names.starts == [a, b, gb, b, plainA])
        #expect(names.ends == [b, gb, b, plainA, a])
        #expect(names.starts.map(\.number) == [0, 1, 2, 1, 3])
        #expect(names.ends.map(\.number) == [1, 2, 1, 3, 0])
    }

    @Test("names beyond the numbered ones still arrive whole, unnumbered")
    func unnumberedNames() throws {
        let count = XMLStream.maximumNumberedNames + 3
        let long = String(repeating: "n", count: XMLStream.maximumNumberedNameBytes + 1)
        let xml = "<r>" + (0..<count).map { "<e\($0)/>" }.joined() + "<\(long)/><e0/></r>"
        let names = NameRecorder()
        try parse(xml, handler: names)
        #expect(names.starts.count == count + 3)
        #expect(names.starts.map(\.localName) == ["r"] + (0..<count).map { "e\($0)" } + [long, "e0"])
        #expect(Set(names.starts.compactMap(\.number)) == Set(0..<XMLStream.maximumNumberedNames))
        #expect(names.starts[XMLStream.maximumNumberedNames + 1].number == nil, "past the limit")
        #expect(names.starts[count + 1].number == nil, "too long to keep")
        #expect(names.starts.last?.number == 1, "a name met before keeps its number")
    }

    @Test("text is collected only where asked, around elements that do not ask")
    func textOnlyWhereAsked() throws {
        let picky = PickyCollector()
        try parse("<a>\n x <t>one</t> y <u>no</u>\n<t>two<u>inner</u></t></a>", handler: picky)
        #expect(picky.texts == ["one", ""])
    }
}

/// Records the names of start and end tags.
private final class NameRecorder: XMLStreamHandler {
    var starts: [XMLName] = []
    var ends: [XMLName] = []
    func startElement(_ name: XMLName, attributes: XMLAttributes, line: Int, stream: XMLStream) throws { starts.append(name) }
    func endElement(_ name: XMLName, stream: XMLStream) throws { ends.append(name) }
}

/// Collects the text of `<t>` elements only (collection stops at a child's tag, as the stream says).
private final class PickyCollector: XMLStreamHandler {
    var texts: [String] = []
    func startElement(_ name: XMLName, attributes: XMLAttributes, line: Int, stream: XMLStream) throws {
        if name.localName == "t" { stream.collectsText = true }
    }
    func endElement(_ name: XMLName, stream: XMLStream) throws {
        if name.localName == "t" { texts.append(stream.text) }
    }
}

/// Parses `xml` from memory into `handler`.
private func parse(_ xml: String, handler: some XMLStreamHandler) throws {
    let stream = try XMLStream(handler: handler)
    try Array(xml.utf8).withUnsafeBytes { try stream.parse(bytes: $0) }
}
