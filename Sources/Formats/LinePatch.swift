import Foundation

/// The difference between two texts, line by line: the hunks that turn the one into the other,
/// each the lines taken out and the lines put in at a place. It goes both ways (`apply` and
/// `revert`), so one patch is both a step's undo and its redo, and it gives back the very bytes.
///
/// A book's change touches a few lines among thousands (a note added, a revision counted): after
/// the lines both texts begin and end with are set aside, the middle is compared with Myers'
/// O(ND) algorithm while the difference is small (`maximumEdits`), and is otherwise kept whole
/// (a new route changes most of the file anyway), so time and size stay linear in the texts.
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
        let a = Self.lines(old), b = Self.lines(new)
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        let middleA = Array(a[prefix..<(a.count - suffix)]), middleB = Array(b[prefix..<(b.count - suffix)])
        if middleA.isEmpty && middleB.isEmpty {
            hunks = []
        } else if let script = Self.editScript(middleA, middleB) {
            hunks = script.map { Hunk(at: $0.at + prefix, remove: $0.remove, insert: $0.insert) }
        } else {
            hunks = [Hunk(at: prefix, remove: middleA.map(String.init), insert: middleB.map(String.init))]
        }
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

    /// The hunks turning `a` into `b` (Myers' greedy search, then the path followed back), or nil
    /// when they differ by more than `maximumEdits` lines.
    static func editScript(_ a: [Substring], _ b: [Substring]) -> [(at: Int, remove: [String], insert: [String])]? {
        let n = a.count, m = b.count, limit = min(n + m, maximumEdits)
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * limit + 3)
        var trace: [[Int]] = []
        var found = false
        search: for d in 0...limit {
            trace.append(Array(v[(offset - d)...(offset + d + 1)]))
            for k in stride(from: -d, through: d, by: 2) {
                var x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1] : v[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, a[x] == b[y] { x += 1; y += 1 }
                v[offset + k] = x
                if x >= n && y >= m { found = true; break search }
            }
        }
        guard found else { return nil }
        return hunks(a, b, moves: backtrack(trace, n: n, m: m))
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
    private static func hunks(_ a: [Substring], _ b: [Substring],
                              moves: [(x: Int, y: Int, delete: Bool)]) -> [(at: Int, remove: [String], insert: [String])] {
        var result: [(at: Int, remove: [String], insert: [String])] = []
        for move in moves {
            // An edit right after the last hunk's lines (none kept between) belongs to it.
            if result.last.map({ $0.at + $0.remove.count != move.x }) ?? true { result.append((move.x, [], [])) }
            if move.delete {
                result[result.count - 1].remove.append(String(a[move.x]))
            } else {
                result[result.count - 1].insert.append(String(b[move.y]))
            }
        }
        return result
    }
}
