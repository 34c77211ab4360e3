import Foundation
import Testing
import TestSupport
@testable import Formats

@Suite("A line patch gives back the very text, both ways, and is as small as GNU diff's")
struct LinePatchTests {
    /// A text of `count` lines drawn from a few words, so lines repeat as a book's do.
    static func text(_ count: Int, _ random: inout SeededGenerator) -> String {
        let words = ["  {", "  },", "    \"id\" : 3,", "    \"text\" : \"Bear left\",", "a", "b", "c", ""]
        return (0..<count).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: "\n")
    }

    /// `text` with a few lines changed, taken out and put in.
    static func edited(_ text: String, _ random: inout SeededGenerator) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for _ in 0..<(1 + Int(random.next() % 6)) {
            let i = Int(random.next() % UInt64(lines.count + 1))
            switch random.next() % 3 {
            case 0: lines.insert("new \(random.next() % 100)", at: i)
            case 1: if i < lines.count { lines.remove(at: i) }
            default: if i < lines.count { lines[i] = "changed \(random.next() % 100)" }
            }
        }
        return lines.joined(separator: "\n")
    }

    @Test("apply turns the old text into the new, revert the new into the old, on 300 random pairs")
    func roundTrip() {
        var random = SeededGenerator(seed: 34)
        for _ in 0..<300 {
            let old = Self.text(Int(random.next() % 60), &random)
            let new = random.next() % 4 == 0 ? Self.text(Int(random.next() % 60), &random) : Self.edited(old, &random)
            let patch = LinePatch(from: old, to: new)
            #expect(patch.apply(to: old) == new)
            #expect(patch.revert(new) == old)
        }
    }

    @Test("a patch refuses a text it was not made from")
    func refusesOtherText() {
        let patch = LinePatch(from: "a\nb\nc", to: "a\nx\nc")
        #expect(patch.apply(to: "a\nq\nc") == nil)
        #expect(patch.revert("a\nb\nc") == nil)
    }

    @Test("a patch read from a damaged journal, its hunk anywhere a whole number reaches, refuses every text")
    func hunksAnywhere() throws {
        for at in [Int.max, Int.max - 1, Int.min, -1, 4] {
            let json = #"{"hunks":[{"at":0,"remove":["a"],"insert":["x","y"]},{"at":\#(at),"remove":["c"],"insert":["z"]}]}"#
            let patch = try JSONDecoder().decode(LinePatch.self, from: Data(json.utf8))
            #expect(patch.apply(to: "a\nb\nc") == nil, "at \(at)")
            #expect(patch.revert("x\ny\nb\nz") == nil, "at \(at)")
        }
    }

    @Test("past the edit bound the middle is kept whole, and still gives back the texts")
    func wholeMiddle() {
        let old = (0..<3000).map { "old \($0)" }.joined(separator: "\n")
        let new = (0..<3000).map { "new \($0)" }.joined(separator: "\n")
        let patch = LinePatch(from: old, to: new)
        #expect(patch.hunks.count == 1)
        #expect(patch.apply(to: old) == new && patch.revert(new) == old)
    }

    @Test("the lines taken out and put in are as few as GNU diff --minimal finds, on 60 random pairs")
    func minimalAsGNUDiff() throws {
        var random = SeededGenerator(seed: 2026)
        let folder = try TemporaryFolder()
        for _ in 0..<60 {
            let old = Self.text(5 + Int(random.next() % 80), &random)
            let new = Self.edited(Self.edited(old, &random), &random)
            let a = folder.path("a"), b = folder.path("b")
            try (old + "\n").write(to: a, atomically: true, encoding: .utf8)
            try (new + "\n").write(to: b, atomically: true, encoding: .utf8)
            let output = try runProgram("diff", ["--minimal", a.path, b.path]).output
            let theirs = output.split(separator: "\n").filter { $0.hasPrefix("< ") || $0.hasPrefix("> ") || $0 == "<" || $0 == ">" }.count
            let ours = LinePatch(from: old, to: new).hunks.reduce(0) { $0 + $1.remove.count + $1.insert.count }
            #expect(ours == theirs, "\(old.debugDescription) → \(new.debugDescription)")
        }
    }
}
