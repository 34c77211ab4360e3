/// At most `limit` holders at once; the others wait in the order they asked.
///
/// A counting semaphore for tasks: `acquire()` suspends instead of blocking a thread.
actor ConcurrencyLimit {
    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// - Parameter limit: how many may hold a place at once; at least 1.
    init(limit: Int) {
        precondition(limit >= 1, "a concurrency limit must be at least 1, got \(limit)")
        available = limit
    }

    /// Returns once the caller holds a place; pair with one `release()`.
    func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Gives a place back, to the longest waiter if there is one.
    func release() {
        if waiting.isEmpty {
            available += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
