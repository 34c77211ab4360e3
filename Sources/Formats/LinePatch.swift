import Foundation

/// The difference between two texts, line by line: the hunks that turn the one into the other,
/// each the lines taken out and the lines put in at a place. It goes both ways (`apply` and
/// `revert`), so one patch is both a step's undo and its redo, and it gives back the very bytes.
///
/// A book's change touches a few lines among thousands (a note added, a revision counted): after
/// the lines both texts begin and end with are set aside, a small middle is compared with Myers'
/// O(ND) algorithm while the difference is small (`maximumEdits`). A large middle (a drawing's
/// file, where a moved handle adds a road of thousands of lines in one place and changes legs in
/// another) is first cut at the lines found once in each text, kept in the same order (the
/// longest such run, as patience sorting finds it); the gaps between them are compared the same
/// way, and a gap with no line in common is kept whole (a new route changes most of the file
/// anyway). So a patch holds about what changed, and time stays near linear in the texts.
public struct LinePatch: Codable, Sendable, Equatable {
    /// Lines `remove` taken out at line `at` of the old text (from 0), `insert` put in there.
    public struct Hunk: Codable, Sendable, Equatable {
        public var at: Int
        public var remove: [String]
        public var insert: [String]
    }

    public var hunks: [Hunk]

    /// Beyond this many lines taken out and put in, the middle is kept whole rather than compared:
    /// Myers' search costs O((N + M) · D) time and O(D²) memory.
    public static let maximumEdits = 1_000

    /// The patch from `old` to `new`.
    public init(from old: String, to new: String) {
        let lines = NumberedLines(old, new)
        let a = lines.old, b = lines.new
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        hunks = Self.script(a[prefix..<(a.count - suffix)], b[prefix..<(b.count - suffix)], anchoring: true).map {
            Hunk(at: $0.a.lowerBound, remove: $0.a.map(lines.oldLine), insert: $0.b.map(lines.newLine))
        }
    }

    /// The lines of two texts, each numbered by its text: the same line has the same number in
    /// both, so the comparisons below compare whole numbers, not text.
    struct NumberedLines {
        private let oldBytes: [UInt8], newBytes: [UInt8]
        private var oldRanges: [Range<Int>] = [], newRanges: [Range<Int>] = []
        private(set) var old: [Int] = [], new: [Int] = []

        /// A line's bytes, hashed once.
        private struct Key: Hashable {
            let bytes: UnsafeBufferPointer<UInt8>
            let hash: UInt64
            static func == (a: Key, b: Key) -> Bool {
                a.hash == b.hash && a.bytes.count == b.bytes.count
                    && (a.bytes.isEmpty || memcmp(a.bytes.baseAddress!, b.bytes.baseAddress!, a.bytes.count) == 0)
            }
            func hash(into hasher: inout Hasher) { hasher.combine(hash) }
        }

        init(_ oldText: String, _ newText: String) {
            oldBytes = Array(oldText.utf8)
            newBytes = Array(newText.utf8)
            oldRanges = Self.ranges(oldBytes)
            newRanges = Self.ranges(newBytes)
            // The keys point into both byte arrays: the dictionary lives only while both are held.
            let (oldRanges, newRanges) = (oldRanges, newRanges)
            (old, new) = oldBytes.withUnsafeBufferPointer { oldBuffer in
                newBytes.withUnsafeBufferPointer { newBuffer in
                    var numbers: [Key: Int] = [:]
                    numbers.reserveCapacity(oldRanges.count + newRanges.count)
                    return (Self.number(oldBuffer, oldRanges, &numbers), Self.number(newBuffer, newRanges, &numbers))
                }
            }
        }

        func oldLine(_ i: Int) -> String { String(decoding: oldBytes[oldRanges[i]], as: UTF8.self) }
        func newLine(_ i: Int) -> String { String(decoding: newBytes[newRanges[i]], as: UTF8.self) }

        /// The lines of `bytes`, split at every line feed (a text ending in one has an empty last line).
        private static func ranges(_ bytes: [UInt8]) -> [Range<Int>] {
            var ranges: [Range<Int>] = []
            var start = 0
            for (i, byte) in bytes.enumerated() where byte == 0x0A {
                ranges.append(start..<i)
                start = i + 1
            }
            ranges.append(start..<bytes.count)
            return ranges
        }

        private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ ranges: [Range<Int>], _ numbers: inout [Key: Int]) -> [Int] {
            ranges.map { range in
                let line = UnsafeBufferPointer(rebasing: bytes[range])
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325
                for byte in line { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
                let key = Key(bytes: line, hash: hash)
                if let n = numbers[key] { return n }
                numbers[key] = numbers.count
                return numbers.count - 1
            }
        }
    }

    /// A hunk found: the lines of the old text taken out, the lines of the new put in.
    typealias Change = (a: Range<Int>, b: Range<Int>)

    /// Lines of a middle compared by Myers' search at most: (N + M) · `maximumEdits` steps stay
    /// within a few milliseconds.
    static let maximumSearchedLines = 4_000

    /// The hunks turning `a` into `b` (lines numbered by `NumberedLines`), at the slices' indices.
    static func script(_ a: ArraySlice<Int>, _ b: ArraySlice<Int>, anchoring: Bool) -> [Change] {
        if a.isEmpty && b.isEmpty { return [] }
        let whole = [(a: a.indices, b: b.indices)]
        if a.isEmpty || b.isEmpty { return whole }
        if a.count + b.count <= maximumSearchedLines, let script = editScript(a, b) { return script }
        guard anchoring else { return whole }
        let anchors = uniqueCommonLines(a, b)
        if anchors.isEmpty { return whole }
        // The gaps between anchors, each compared alone (without anchoring again: a gap's own
        // unique lines were unique in the whole too, so it has none in common).
        var result: [Change] = []
        var i = a.startIndex, j = b.startIndex
        for (x, y) in anchors + [(a.endIndex, b.endIndex)] {
            var gapA = a[i..<x], gapB = b[j..<y]
            while let first = gapA.first, let other = gapB.first, first == other { gapA = gapA.dropFirst(); gapB = gapB.dropFirst() }
            while let last = gapA.last, let other = gapB.last, last == other { gapA = gapA.dropLast(); gapB = gapB.dropLast() }
            result += script(gapA, gapB, anchoring: false)
            i = x + 1
            j = y + 1
        }
        return result
    }

    /// Pairs (index in `a`, index in `b`) of lines found exactly once in each, the longest run of
    /// them in the same order in both (patience sorting: O(K log K) for K such lines).
    static func uniqueCommonLines(_ a: ArraySlice<Int>, _ b: ArraySlice<Int>) -> [(Int, Int)] {
        // For each line of `a`: where it is, or -1 once seen twice; the same for `b`.
        var inA: [Int: Int] = [:]
        inA.reserveCapacity(a.count)
        for i in a.indices { inA[a[i]] = inA[a[i]] == nil ? i : -1 }
        var inB: [Int: Int] = [:]
        inB.reserveCapacity(b.count)
        for j in b.indices where inA[b[j]].map({ $0 >= 0 }) ?? false { inB[b[j]] = inB[b[j]] == nil ? j : -1 }
        var pairs: [(Int, Int)] = []
        for i in a.indices {
            if let x = inA[a[i]], x >= 0, let y = inB[a[i]], y >= 0 { pairs.append((i, y)) }
        }
        // The longest increasing run of `b`'s indices, in `a`'s order.
        var tails: [Int] = []            // index into `pairs` ending the best run of each length
        var previous = [Int](repeating: -1, count: pairs.count)
        for (n, pair) in pairs.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if pairs[tails[mid]].1 < pair.1 { low = mid + 1 } else { high = mid }
            }
            if low > 0 { previous[n] = tails[low - 1] }
            if low == tails.count { tails.append(n) } else { tails[low] = n }
        }
        var run: [(Int, Int)] = []
        var n = tails.last ?? -1
        while n >= 0 { run.append(pairs[n]); n = previous[n] }
        return run.reversed()
    }

    /// `old` with the patch made; nil when the text is not the one the patch was made from.
    public func apply(to old: String) -> String? {
        Self.patched(Self.lines(old), hunks.map { ($0.at, $0.remove, $0.insert) })
    }

    /// `new` with the patch taken back; nil when the text is not the one the patch made.
    public func revert(_ new: String) -> String? {
        var shift = 0
        var reversed: [(Int, [String], [String])] = []
        for hunk in hunks {
            // A hunk's place is read from a journal: near the largest whole number it overflows.
            let (at, overflow) = hunk.at.addingReportingOverflow(shift)
            guard !overflow else { return nil }
            reversed.append((at, hunk.insert, hunk.remove))
            shift += hunk.insert.count - hunk.remove.count
        }
        return Self.patched(Self.lines(new), reversed)
    }

    /// The bytes the patch stores, for the journal's bound on its size.
    public var size: Int { hunks.reduce(0) { $0 + 16 + ($1.remove + $1.insert).reduce(0) { $0 + $1.utf8.count + 1 } } }

    static func lines(_ text: String) -> [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false) }

    static func patched(_ lines: [Substring], _ hunks: [(at: Int, remove: [String], insert: [String])]) -> String? {
        var out: [Substring] = []
        out.reserveCapacity(lines.count)
        var i = 0
        for hunk in hunks {
            guard hunk.at >= i, hunk.at <= lines.count - hunk.remove.count else { return nil }
            out += lines[i..<hunk.at]
            guard zip(lines[hunk.at..<(hunk.at + hunk.remove.count)], hunk.remove).allSatisfy({ $0 == $1 }) else { return nil }
            out += hunk.insert.map { Substring($0) }
            i = hunk.at + hunk.remove.count
        }
        out += lines[i...]
        return out.joined(separator: "\n")
    }

    /// The hunks turning `a` into `b` (Myers' greedy search, then the path followed back), at the
    /// slices' indices, or nil when they differ by more than `maximumEdits` lines.
    static func editScript(_ a: ArraySlice<Int>, _ b: ArraySlice<Int>) -> [Change]? {
        let n = a.count, m = b.count, limit = min(n + m, maximumEdits)
        let offset = limit + 1
        let a0 = a.startIndex, b0 = b.startIndex
        var v = [Int](repeating: 0, count: 2 * limit + 3)
        var trace: [[Int]] = []
        var found = false
        search: for d in 0...limit {
            trace.append(Array(v[(offset - d)...(offset + d + 1)]))
            for k in stride(from: -d, through: d, by: 2) {
                var x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1] : v[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, a[a0 + x] == b[b0 + y] { x += 1; y += 1 }
                v[offset + k] = x
                if x >= n && y >= m { found = true; break search }
            }
        }
        guard found else { return nil }
        return hunks(moves: backtrack(trace, n: n, m: m)).map { (a: ($0.a.lowerBound + a0)..<($0.a.upperBound + a0),
                                                                   b: ($0.b.lowerBound + b0)..<($0.b.upperBound + b0)) }
    }

    /// The moves of the shortest path, from the end back to the start, as (x, y) before each.
    private static func backtrack(_ trace: [[Int]], n: Int, m: Int) -> [(x: Int, y: Int, delete: Bool)] {
        var x = n, y = m
        var edits: [(x: Int, y: Int, delete: Bool)] = []
        for d in stride(from: trace.count - 1, to: 0, by: -1) {
            let row = trace[d], base = -d   // row[i] is v[k] for k = base + i - 0, stored from k = -d
            func v(_ k: Int) -> Int { row[k - base] }
            let k = x - y
            let down = k == -d || (k != d && v(k - 1) < v(k + 1))
            let previousK = down ? k + 1 : k - 1
            let previousX = v(previousK), previousY = previousX - previousK
            while x > previousX, y > previousY { x -= 1; y -= 1 }
            edits.append((previousX, previousY, !down))
            x = previousX
            y = previousY
        }
        return edits.reversed()
    }

    /// Edits one line at a time into hunks of neighbouring lines.
    private static func hunks(moves: [(x: Int, y: Int, delete: Bool)]) -> [Change] {
        var result: [Change] = []
        for move in moves {
            // An edit right after the last hunk's lines (none kept between) belongs to it.
            if result.last.map({ $0.a.upperBound != move.x || $0.b.upperBound != move.y }) ?? true {
                result.append((move.x..<move.x, move.y..<move.y))
            }
            if move.delete {
                result[result.count - 1].a = result[result.count - 1].a.lowerBound..<(move.x + 1)
            } else {
                result[result.count - 1].b = result[result.count - 1].b.lowerBound..<(move.y + 1)
            }
        }
        return result
    }
}
