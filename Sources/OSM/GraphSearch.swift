import Foundation
import Geo

/// Spatial and path searches over a `RoadGraph`, shared by route matching and junction finding.
///
/// Nodes and way segments are bucketed in two `GridIndex`es (equirectangular planes centred on the
/// graph). Queries widen their box by the plane's scale error, so a query never misses a node or
/// segment within its radius; real distances are then measured in a `LocalFrame` at the query point.
/// Build: O((nodes + segments) log). Query: O(items in the cells touched).
struct GraphSearch: Sendable {
    /// One stretch of a way between two consecutive nodes, in the way's node order.
    struct Segment: Sendable, Equatable {
        var from: Int
        var to: Int
        var way: Int
    }

    let graph: RoadGraph
    let segments: [Segment]
    private let nodeGrid: GridIndex
    private let segmentGrid: GridIndex

    init(graph: RoadGraph, cellSize: Metres) {
        self.graph = graph
        var segments: [Segment] = []
        for node in 0..<graph.count {
            for edge in graph.edges(from: node) where edge.forward {
                segments.append(Segment(from: node, to: edge.target, way: edge.way))
            }
        }
        self.segments = segments
        nodeGrid = GridIndex(points: graph.coordinates, count: graph.count, ends: { ($0, $0) }, cellSize: cellSize)
        segmentGrid = GridIndex(points: graph.coordinates, count: segments.count,
                                ends: { (segments[$0].from, segments[$0].to) }, cellSize: cellSize)
    }

    /// The node closest to `point` within `radius` metres, if any.
    func nearestNode(to point: Coordinate, within radius: Metres) -> (node: Int, distance: Metres)? {
        let frame = LocalFrame(origin: point)
        var best: (node: Int, distance: Metres)?
        for node in nodeGrid.items(near: point, radius: radius) {
            let p = frame.project(graph.coordinates[node])
            let d = (p.x * p.x + p.y * p.y).squareRoot()
            if d <= radius && d < (best?.distance ?? .infinity) { best = (node, d) }
        }
        return best
    }

    /// The segments that may lie within `radius` metres of `point` (a superset; check the distance).
    func segments(near point: Coordinate, radius: Metres) -> [Int] {
        segmentGrid.items(near: point, radius: radius)
    }

    /// Length of the step between two neighbouring nodes, in metres (WGS84 geodesic).
    func length(_ a: Int, _ b: Int) -> Metres { graph.coordinates[a].distance(to: graph.coordinates[b]) }

    /// Whether traffic may go from `segment.from` to `segment.to` (`forward`) or back.
    func canTravel(_ segment: Segment, forward: Bool, respectOneway: Bool) -> Bool {
        guard respectOneway else { return true }
        return graph.canTravel(GraphEdge(target: forward ? segment.to : segment.from, way: segment.way, forward: forward))
    }

    /// The cost factor of travelling along `segment` (`forward` or back) under `rules`: 1 with the
    /// flow, `wrongWayFactor` against it, nil when `respectOneway` forbids it.
    func factor(_ segment: Segment, forward: Bool, rules: Rules) -> Double? {
        if graph.canTravel(GraphEdge(target: forward ? segment.to : segment.from, way: segment.way, forward: forward)) { return 1 }
        return rules.respectOneway ? nil : rules.wrongWayFactor
    }

    /// How a path search weighs the roads: one-way tags and turn restrictions.
    struct Rules: Sendable, Equatable {
        /// Edges against a one-way tag are not taken at all.
        var respectOneway: Bool = false
        /// Without `respectOneway`, an edge against a one-way tag costs this many times its length.
        var wrongWayFactor: Double = 1
        /// The vehicles whose turn restrictions apply (none: restrictions are ignored).
        var vehicles: RestrictedVehicles = []
        /// Metres added for a turn the restrictions forbid (infinite: never taken).
        var restrictedTurnPenalty: Metres = .infinity
    }

    /// The cost of taking `edge` from `node` under `rules`, nil when it may not be taken.
    func cost(from node: Int, _ edge: GraphEdge, rules: Rules) -> Metres? {
        let metres = length(node, edge.target)
        if graph.canTravel(edge) { return metres }
        return rules.respectOneway ? nil : metres * rules.wrongWayFactor
    }

    /// Shortest distances from several sources, each with a starting cost and the way it arrives
    /// along (for turn restrictions at the source), to every node within `bound` metres
    /// (Dijkstra 1959 with a binary heap). Stops early once every node of `targets` is settled.
    ///
    /// The search is node-based except at via nodes of turn restrictions binding `rules.vehicles`:
    /// there a state is the node and the edge that entered it (key `graph.count + edge index`), so
    /// a forbidden turn costs `restrictedTurnPenalty` and the node can still be reached the
    /// allowed way. O((V + E) log V) over the nodes within the bound.
    func shortestPaths(from sources: [(node: Int, cost: Metres, way: Int?)], bound: Metres, rules: Rules,
                       targets: Set<Int> = []) -> ShortestPaths {
        var result = ShortestPaths(count: graph.count)
        var settled: Set<Int> = []
        var heap = MinHeap()
        let restrictions = graph.turnRestrictions
        let restricted = !rules.vehicles.isEmpty && !restrictions.isEmpty
        /// The state entered by arriving at `node` along `way` from `from`.
        func state(arriving node: Int, from: Int?, way: Int?) -> Int {
            guard restricted, let from, let way, restrictions.restricts(node, for: rules.vehicles) else { return node }
            let e = graph.edgeIndices(from: from).first { graph.edge(at: $0).target == node && graph.edge(at: $0).way == way }
            return e.map { graph.count + $0 } ?? node
        }
        func relax(_ key: Int, _ cost: Metres, previous: Int?) {
            guard cost <= bound, cost < (result.distance[key] ?? .infinity) else { return }
            if result.distance[key] == nil, key >= graph.count {
                let node = result.node(ofState: key, in: graph)
                if !(result.viaStates[node]?.contains(key) ?? false) { result.viaStates[node, default: []].append(key) }
            }
            result.distance[key] = cost
            result.previous[key] = previous
            heap.push(cost, Int32(key))
        }
        for s in sources {
            let other = s.way.flatMap { way in graph.edges(from: s.node).first { $0.way == way }?.target }
            relax(state(arriving: s.node, from: other, way: s.way), s.cost, previous: nil)
        }
        var remaining = targets
        while let (cost, item) = heap.pop() {
            let key = Int(item)
            if settled.contains(key) || cost > (result.distance[key] ?? .infinity) { continue }
            settled.insert(key)
            let node = result.node(ofState: key, in: graph)
            remaining.remove(node)
            if !targets.isEmpty && remaining.isEmpty { break }
            let incoming: GraphEdge? = key >= graph.count ? graph.edge(at: key - graph.count) : nil
            let behind: Int? = key >= graph.count ? result.sourceOfEdge(key - graph.count, in: graph) : result.previousNode(of: key, in: graph)
            for e in graph.edgeIndices(from: node) {
                let edge = graph.edge(at: e)
                guard var step = self.cost(from: node, edge, rules: rules) else { continue }
                if let incoming, !restrictions.allows(fromWayID: graph.ways[incoming.way].id, at: node,
                                                      toWayID: graph.ways[edge.way].id, for: rules.vehicles) {
                    step += rules.restrictedTurnPenalty
                }
                let next = state(arriving: edge.target, from: node, way: edge.way)
                // Only a state beside a restricted node is a new way to reach a node already left: no
                // U-turn back into it.
                if next >= graph.count, edge.target == behind, graph.degree(of: node) > 1 { continue }
                relax(next, cost + step, previous: key)
            }
        }
        return result
    }
}

/// The result of `GraphSearch.shortestPaths`: distances in metres and the tree to walk back along,
/// by search state (a node, or at a restricted via node the node and its entering edge).
struct ShortestPaths: Sendable {
    /// Number of graph nodes: keys at or above it are via states.
    let count: Int
    var distance: [Int: Metres] = [:]
    var previous: [Int: Int] = [:]
    /// The via states reached at each restricted node.
    var viaStates: [Int: [Int]] = [:]

    init(count: Int) { self.count = count }

    func node(ofState key: Int, in graph: RoadGraph) -> Int { key < count ? key : graph.edge(at: key - count).target }

    func sourceOfEdge(_ e: Int, in graph: RoadGraph) -> Int {
        // The edge's source is the node whose range holds it.
        var low = 0, high = count
        while low + 1 < high {
            let middle = (low + high) / 2
            if graph.edgeIndices(from: middle).lowerBound <= e { low = middle } else { high = middle }
        }
        while graph.edgeIndices(from: low).upperBound <= e { low += 1 }
        return low
    }

    func previousNode(of key: Int, in graph: RoadGraph) -> Int? { previous[key].map { node(ofState: $0, in: graph) } }

    /// The cheapest state at `node` and its cost, adding `penalty` for states whose entering way may
    /// not turn into way `next` (when given) under `rules`.
    func best(at node: Int, into next: Int?, in graph: RoadGraph, rules: GraphSearch.Rules) -> (key: Int, cost: Metres)? {
        var best: (key: Int, cost: Metres)? = distance[node].map { (node, $0) }
        for key in viaStates[node] ?? [] {
            guard var cost = distance[key] else { continue }
            if let next {
                let incoming = graph.edge(at: key - count)
                if !graph.allowsTurn(fromWay: incoming.way, at: node, toWay: next, for: rules.vehicles) { cost += rules.restrictedTurnPenalty }
            }
            if cost < (best?.cost ?? .infinity) { best = (key, cost) }
        }
        return best
    }

    /// The nodes from the source that reached state `key` to its node, both included.
    func path(toState key: Int, in graph: RoadGraph) -> [Int] {
        var path = [node(ofState: key, in: graph)]
        var current = key
        while let p = previous[current] {
            let n = node(ofState: p, in: graph)
            if n != path.last { path.append(n) }
            current = p
        }
        return path.reversed()
    }
}
