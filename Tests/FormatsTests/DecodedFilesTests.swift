import Foundation
import Testing
@testable import Formats

@Suite("Decoded files are kept for the very same bytes only")
struct DecodedFilesTests {
    struct Decoded: Sendable, Equatable { var text: String }

    /// Decodes `data` through `files`, counting the decodings in `count`.
    func decode(_ files: DecodedFiles, _ text: String, name: String = "a.json", count: inout Int) throws -> Decoded {
        try files.value(of: Data(text.utf8), kind: "test", fileName: name) {
            count += 1
            return Decoded(text: text)
        }
    }

    @Test("the same bytes are decoded once; other bytes, even of the same size, again")
    func sameBytes() throws {
        let files = DecodedFiles()
        files.keep(files: 4)
        var count = 0
        #expect(try decode(files, "abc", count: &count) == Decoded(text: "abc"))
        #expect(try decode(files, "abc", count: &count) == Decoded(text: "abc"))
        #expect(count == 1)
        #expect(try decode(files, "abd", count: &count) == Decoded(text: "abd"))
        #expect(count == 2)
        #expect(try decode(files, "abc", count: &count) == Decoded(text: "abc"))
        #expect(count == 3)
    }

    @Test("off by default, and off again at 0: every read is decoded")
    func offByDefault() throws {
        let files = DecodedFiles()
        var count = 0
        _ = try decode(files, "abc", count: &count)
        _ = try decode(files, "abc", count: &count)
        #expect(count == 2)
        files.keep(files: 2)
        _ = try decode(files, "abc", count: &count)
        _ = try decode(files, "abc", count: &count)
        #expect(count == 3)
        files.keep(files: 0)
        _ = try decode(files, "abc", count: &count)
        #expect(count == 4)
    }

    @Test("a decoding that throws is not kept, and the least recently used file goes first")
    func failuresAndEviction() throws {
        struct Refused: Error {}
        let files = DecodedFiles()
        files.keep(files: 2)
        #expect(throws: Refused.self) {
            _ = try files.value(of: Data("x".utf8), kind: "test", fileName: "bad.json") { () throws -> Decoded in throw Refused() }
        }
        var count = 0
        _ = try decode(files, "x", name: "bad.json", count: &count)
        #expect(count == 1)
        _ = try decode(files, "1", name: "one.json", count: &count)
        _ = try decode(files, "x", name: "bad.json", count: &count)   // used: one.json is now the oldest
        _ = try decode(files, "2", name: "two.json", count: &count)    // drops one.json
        #expect(count == 3)
        _ = try decode(files, "x", name: "bad.json", count: &count)
        #expect(count == 3)
        _ = try decode(files, "1", name: "one.json", count: &count)
        #expect(count == 4)
    }
}
