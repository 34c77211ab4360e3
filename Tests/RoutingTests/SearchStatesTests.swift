@testable import Routing
import Testing
import TestSupport

@Suite("A search's states are kept sparsely, as arrays over every state would keep them")
struct SearchStatesTests {
    @Test("improve, close, cost and parent agree with arrays over every state, across the table's growth")
    func agreesWithArrays() {
        var table = SearchStates()
        let count = 5_000_000
        var cost = [Double](repeating: .infinity, count: count), parent = [Int32](repeating: -1, count: count)
        var closed = [Bool](repeating: false, count: count)
        var generator = SeededGenerator(seed: 20_261_201)
        var touched: [Int32] = []
        // 20,000 operations on states spread over five million: the table grows from 1,024 slots.
        for _ in 0..<20_000 {
            let state = Int32.random(in: 0..<Int32(count), using: &generator)
            touched.append(state)
            if Bool.random(using: &generator) {
                let c = Double.random(in: 0..<100, using: &generator), p = Int32.random(in: 0..<100, using: &generator)
                let better = c < cost[Int(state)]
                #expect(table.improve(state, cost: c, from: p) == better)
                if better { cost[Int(state)] = c; parent[Int(state)] = p }
            } else {
                #expect(table.close(state) == !closed[Int(state)])
                closed[Int(state)] = true
            }
        }
        for state in touched + [0, Int32(count - 1)] {
            #expect(table.cost(state) == cost[Int(state)])
            #expect(table.parent(state) == parent[Int(state)])
            #expect(table.isClosed(state) == closed[Int(state)])
        }
    }
}
