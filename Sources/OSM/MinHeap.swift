/// A binary min-heap of (priority, node) pairs, priorities and nodes in parallel arrays.
/// Push and pop O(log n). Stale entries are left in and skipped by the caller (lazy deletion).
/// Of equal priorities, which pops first depends only on the order of pushes, so searches repeat.
/// Shared by the graph searches here and the embedded router.
package struct MinHeap {
    @usableFromInline var priority: [Double] = []
    @usableFromInline var node: [Int32] = []

    package init() {}

    @inlinable
    package mutating func push(_ p: Double, _ n: Int32) {
        priority.append(p)
        node.append(n)
        var i = priority.count - 1
        while i > 0 {
            let up = (i - 1) / 2
            if priority[up] <= p { break }
            priority[i] = priority[up]
            node[i] = node[up]
            i = up
        }
        priority[i] = p
        node[i] = n
    }

    @inlinable
    package mutating func pop() -> (Double, Int32)? {
        guard let top = priority.first else { return nil }
        let topNode = node[0]
        let lastPriority = priority.removeLast(), lastNode = node.removeLast()
        let count = priority.count
        if count > 0 {
            var i = 0
            while true {
                let l = 2 * i + 1
                if l >= count { break }
                let r = l + 1
                let child = r < count && priority[r] < priority[l] ? r : l
                if priority[child] >= lastPriority { break }
                priority[i] = priority[child]
                node[i] = node[child]
                i = child
            }
            priority[i] = lastPriority
            node[i] = lastNode
        }
        return (top, topNode)
    }
}
