import Foundation
import Geo
import Model
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

    @Test("a journal is kept as written: its bytes decode to the very journal, steps, patches, times and written notes")
    func journalAsWritten() throws {
        var journal = BookJournal(bookID: "2A16947A-7FAE-85D3-A69E-6F1320C3A47E")
        var text = (0..<200).map { "  \"line\" : \($0)," }.joined(separator: "\n")
        for k in 0..<12 {
            let before = Data(text.utf8)
            text = text.replacingOccurrences(of: "\"line\" : \(k * 7),", with: "\"line\" : \(k * 7), \"é\" : \(Double(k) / 3),")
            let written = [DeletedNote(id: k, kind: .typed, coordinate: Coordinate(latitude: 42.0 + Double(k) / 7, longitude: 1.1 / Double(k + 1)),
                                       text: "Gone \(k)\nwith a line feed")]
            journal.record(BookJournal.Step(name: "Step \(k)", kind: .note, time: "2026-12-05T10:0\(k % 10):00Z",
                                            book: BookJournal.FileChange(before: before, after: Data(text.utf8)), draft: nil,
                                            written: written))
        }
        let files = DecodedFiles()
        files.keep(files: 2)
        let bytes = try BookJournalFile.encode(journal)
        files.remember(journal, of: bytes, kind: BookJournalFile.decodedKind, fileName: "b.journal.json")
        var decodings = 0
        let read = try files.value(of: bytes, kind: BookJournalFile.decodedKind, fileName: "b.journal.json") { () throws -> BookJournal in
            decodings += 1
            return try BookJournalFile.decodeBytes(bytes, fileName: "b.journal.json")
        }
        #expect(decodings == 0 && read == journal)
        // What remembering spares is what decoding would give.
        #expect(try BookJournalFile.decodeBytes(bytes, fileName: "b.journal.json") == journal)
    }
}
