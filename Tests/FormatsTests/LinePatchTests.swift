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

    /// A drawing's file as JSON writes it: `count` lines, most of them a coordinate of their own
    /// (found once), among braces and keys found everywhere.
    static func drawing(_ count: Int, _ random: inout SeededGenerator, tag: String = "") -> [String] {
        (0..<count).map { i in
            switch i % 5 {
            case 0: "        {"
            case 1: "          \"latitude\" : 42.\(random.next() % 10_000_000)\(tag),"
            case 2: "          \"longitude\" : 1.\(random.next() % 10_000_000)\(tag)"
            case 3: "        },"
            default: "        \"mode\" : \"drive\","
            }
        }
    }

    @Test("a large text with blocks of thousands of lines put in, taken out and changed: the patch holds no more lines than GNU diff's, and gives back both texts")
    func largeDrawingChange() throws {
        var random = SeededGenerator(seed: 36)
        let folder = try TemporaryFolder()
        for round in 0..<4 {
            var lines = Self.drawing(60_000, &random)
            let old = lines.joined(separator: "\n")
            // A road of 3,000 lines put in near the start, one of 2,000 taken out in the middle,
            // 500 lines changed near the end: what a moved handle does to a drawing's file.
            lines.insert(contentsOf: Self.drawing(3_000, &random, tag: "1"), at: 1_000 + round * 7)
            lines.removeSubrange(30_000..<32_000)
            lines.replaceSubrange(50_000..<50_500, with: Self.drawing(500, &random, tag: "2"))
            let new = lines.joined(separator: "\n")
            let patch = LinePatch(from: old, to: new)
            #expect(patch.apply(to: old) == new)
            #expect(patch.revert(new) == old)
            let a = folder.path("a"), b = folder.path("b")
            try (old + "\n").write(to: a, atomically: true, encoding: .utf8)
            try (new + "\n").write(to: b, atomically: true, encoding: .utf8)
            let output = try runProgram("diff", [a.path, b.path]).output
            let theirs = output.split(separator: "\n").filter { $0.hasPrefix("< ") || $0.hasPrefix("> ") }.count
            let ours = patch.hunks.reduce(0) { $0 + $1.remove.count + $1.insert.count }
            // What was done: 3,000 in, 2,000 out, 500 out and 500 in, at least (a few lines of
            // braces may be shared by chance).
            #expect(theirs >= 5_000)
            #expect(ours <= theirs, "ours \(ours) lines, GNU diff's \(theirs)")
        }
    }

    @Test("apply and revert give back large texts of repeated and unique lines, on 30 random pairs")
    func largeRoundTrip() {
        var random = SeededGenerator(seed: 3636)
        for _ in 0..<30 {
            var lines = Self.drawing(4_000 + Int(random.next() % 8_000), &random)
            let old = lines.joined(separator: "\n")
            for _ in 0..<(1 + Int(random.next() % 8)) {
                let at = Int(random.next() % UInt64(lines.count))
                let length = min(lines.count - at, Int(random.next() % 3_000))
                switch random.next() % 3 {
                case 0: lines.insert(contentsOf: Self.drawing(length, &random, tag: "9"), at: at)
                case 1: lines.removeSubrange(at..<(at + length))
                default: lines.replaceSubrange(at..<(at + length), with: Self.drawing(length / 2, &random, tag: "8"))
                }
            }
            let new = lines.joined(separator: "\n")
            let patch = LinePatch(from: old, to: new)
            #expect(patch.apply(to: old) == new)
            #expect(patch.revert(new) == old)
        }
    }
}
