/// The states one search has reached, each with its cost, the state it was reached from and
/// whether it is closed: an open-addressing hash table (linear probing, at most half full), so a
/// search costs memory and time in the states it touches, not in the whole graph. A search over
/// the edges of a country's map that allocated arrays over every edge spent most of a short leg
/// clearing them (20 times the legs' time of the search over nodes on a city of 2 million nodes).
/// (Over Andorra's map, where arrays over every edge are cheap to clear, an array indexed by state
/// was no quicker.)
struct SearchStates {
    private var keys: [Int32]
    private var costs: [Double]
    private var parents: [Int32]
    private var closedFlags: [Bool]
    private var count = 0
    private var mask: Int

    /// An empty table of 1,024 slots; it doubles when half full.
    init() {
        let size = 1024
        keys = [Int32](repeating: -1, count: size)
        costs = [Double](repeating: .infinity, count: size)
        parents = [Int32](repeating: -1, count: size)
        closedFlags = [Bool](repeating: false, count: size)
        mask = size - 1
    }

    /// The slot of `state`, or of the empty slot where it would go. Expected O(1).
    private func slot(_ state: Int32) -> Int {
        // Fibonacci hashing spreads neighbouring state numbers over the table.
        var i = Int(truncatingIfNeeded: (UInt64(UInt32(bitPattern: state)) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        while keys[i] != state && keys[i] != -1 { i = (i + 1) & mask }
        return i
    }

    /// The slot of `state`, added (cost infinite, no parent, open) when new. Expected O(1) amortised.
    private mutating func slotAdding(_ state: Int32) -> Int {
        var i = slot(state)
        if keys[i] == -1 {
            if 2 * (count + 1) > keys.count {
                grow()
                i = slot(state)
            }
            keys[i] = state
            count += 1
        }
        return i
    }

    private mutating func grow() {
        let old = (keys, costs, parents, closedFlags)
        let size = keys.count * 2
        keys = [Int32](repeating: -1, count: size)
        costs = [Double](repeating: .infinity, count: size)
        parents = [Int32](repeating: -1, count: size)
        closedFlags = [Bool](repeating: false, count: size)
        mask = size - 1
        for k in old.0.indices where old.0[k] != -1 {
            let i = slot(old.0[k])
            (keys[i], costs[i], parents[i], closedFlags[i]) = (old.0[k], old.1[k], old.2[k], old.3[k])
        }
    }

    /// The cost `state` was reached at; infinite when not reached.
    func cost(_ state: Int32) -> Double {
        let i = slot(state)
        return keys[i] == state ? costs[i] : .infinity
    }

    /// The state `state` was reached from; −1 when not reached.
    func parent(_ state: Int32) -> Int32 {
        let i = slot(state)
        return keys[i] == state ? parents[i] : -1
    }

    func isClosed(_ state: Int32) -> Bool {
        let i = slot(state)
        return keys[i] == state && closedFlags[i]
    }

    /// Records that `state` is reached at `cost` from `parent` when that is cheaper than before.
    /// - Returns: whether it was.
    mutating func improve(_ state: Int32, cost: Double, from parent: Int32) -> Bool {
        let i = slotAdding(state)
        guard cost < costs[i] else { return false }
        costs[i] = cost
        parents[i] = parent
        return true
    }

    /// Closes `state` (its cost is final). - Returns: false when it was closed already.
    mutating func close(_ state: Int32) -> Bool {
        let i = slotAdding(state)
        if closedFlags[i] { return false }
        closedFlags[i] = true
        return true
    }
}
