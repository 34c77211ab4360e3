import Foundation
import Geo

/// Spatial and path searches over a `RoadGraph`, shared by route matching and junction finding.
///
/// Nodes and way segments are bucketed in a uniform grid on an equirectangular plane centred on
/// the graph (x scaled by the cosine of the mean latitude). Queries widen their box by the plane's
/// scale error, so a query never misses a node or segment within its radius; real distances are
/// then measured in a `LocalFrame` at the query point. Build: O(nodes + segments). Query:
/// O(items in the cells touched).
struct GraphSearch: Sendable {
    /// One stretch of a way between two consecutive nodes, in the way's node order.
    struct Segment: Sendable, Equatable {
        var from: Int
        var to: Int
        var way: Int
    }

    let graph: RoadGraph
    let segments: [Segment]
    private let cellSize: Metres
    private let cosReference: Double
    private let metresPerDegree: Double
    private let nodeCells: [Int64: [Int32]]
    private let segmentCells: [Int64: [Int32]]

    init(graph: RoadGraph, cellSize: Metres) {
        self.graph = graph
        self.cellSize = cellSize
        let meanLatitude = graph.count == 0 ? 0 : graph.coordinates.reduce(0) { $0 + $1.latitude } / Double(graph.count)
        let cosReference = max(cos(meanLatitude * .pi / 180), 0.01)
        let metresPerDegree = Geodesic.wgs84.a * .pi / 180
        self.cosReference = cosReference
        self.metresPerDegree = metresPerDegree
        var segments: [Segment] = []
        for node in 0..<graph.count {
            for edge in graph.edges(from: node) where edge.forward {
                segments.append(Segment(from: node, to: edge.target, way: edge.way))
            }
        }
        self.segments = segments
        var nodeCells: [Int64: [Int32]] = [:]
        var segmentCells: [Int64: [Int32]] = [:]
        let cells = graph.coordinates.map { Self.cell(Self.plane($0, metresPerDegree, cosReference), cellSize) }
        for (node, c) in cells.enumerated() { nodeCells[Self.key(c.x, c.y), default: []].append(Int32(node)) }
        for (i, s) in segments.enumerated() {
            let a = cells[s.from], b = cells[s.to]
            for cx in min(a.x, b.x)...max(a.x, b.x) {
                for cy in min(a.y, b.y)...max(a.y, b.y) { segmentCells[Self.key(cx, cy), default: []].append(Int32(i)) }
            }
        }
        self.nodeCells = nodeCells
        self.segmentCells = segmentCells
    }

    /// The node closest to `point` within `radius` metres, if any.
    func nearestNode(to point: Coordinate, within radius: Metres) -> (node: Int, distance: Metres)? {
        let frame = LocalFrame(origin: point)
        var best: (node: Int, distance: Metres)?
        for node in items(near: point, radius: radius, in: nodeCells) {
            let p = frame.project(graph.coordinates[node])
            let d = (p.x * p.x + p.y * p.y).squareRoot()
            if d <= radius && d < (best?.distance ?? .infinity) { best = (node, d) }
        }
        return best
    }

    /// The segments that may lie within `radius` metres of `point` (a superset; check the distance).
    func segments(near point: Coordinate, radius: Metres) -> [Int] {
        items(near: point, radius: radius, in: segmentCells)
    }

    /// Length of the step between two neighbouring nodes, in metres (WGS84 geodesic).
    func length(_ a: Int, _ b: Int) -> Metres { graph.coordinates[a].distance(to: graph.coordinates[b]) }

    /// Whether traffic may go from `segment.from` to `segment.to` (`forward`) or back.
    func canTravel(_ segment: Segment, forward: Bool, respectOneway: Bool) -> Bool {
        guard respectOneway else { return true }
        return graph.canTravel(GraphEdge(target: forward ? segment.to : segment.from, way: segment.way, forward: forward))
    }

    /// Shortest distances from several sources, each with a starting cost, to every node within
    /// `bound` metres (Dijkstra 1959 with a binary heap). Stops early once every node of `targets`
    /// is settled. O((V + E) log V) over the nodes within the bound.
    func shortestPaths(from sources: [(node: Int, cost: Metres)], bound: Metres, respectOneway: Bool,
                       targets: Set<Int> = []) -> ShortestPaths {
        var distance: [Int: Metres] = [:]
        var previous: [Int: Int] = [:]
        var settled: Set<Int> = []
        var heap = MinHeap()
        for s in sources where s.cost <= bound && s.cost < (distance[s.node] ?? .infinity) {
            distance[s.node] = s.cost
            heap.push(s.cost, s.node)
        }
        var remaining = targets
        while let (cost, node) = heap.pop() {
            if settled.contains(node) || cost > (distance[node] ?? .infinity) { continue }
            settled.insert(node)
            remaining.remove(node)
            if !targets.isEmpty && remaining.isEmpty { break }
            for edge in graph.edges(from: node) where !respectOneway || graph.canTravel(edge) {
                let next = cost + length(node, edge.target)
                if next <= bound && next < (distance[edge.target] ?? .infinity) {
                    distance[edge.target] = next
                    previous[edge.target] = node
                    heap.push(next, edge.target)
                }
            }
        }
        return ShortestPaths(distance: distance, previous: previous)
    }

    private func items(near point: Coordinate, radius: Metres, in cells: [Int64: [Int32]]) -> [Int] {
        let p = Self.plane(point, metresPerDegree, cosReference)
        let stretch = cosReference / max(cos(point.latitude * .pi / 180), 0.01)
        let rx = radius * max(stretch, 1) * 1.01 + 1, ry = radius * 1.01 + 1
        let x0 = Int64(floor((p.x - rx) / cellSize)), x1 = Int64(floor((p.x + rx) / cellSize))
        let y0 = Int64(floor((p.y - ry) / cellSize)), y1 = Int64(floor((p.y + ry) / cellSize))
        var found = Set<Int>()
        for cx in x0...x1 {
            for cy in y0...y1 {
                if let list = cells[Self.key(cx, cy)] { for i in list { found.insert(Int(i)) } }
            }
        }
        return found.sorted()
    }

    private static func plane(_ c: Coordinate, _ metresPerDegree: Double, _ cosReference: Double) -> (x: Double, y: Double) {
        (c.longitude * metresPerDegree * cosReference, c.latitude * metresPerDegree)
    }

    private static func cell(_ p: (x: Double, y: Double), _ size: Double) -> (x: Int64, y: Int64) {
        (Int64(floor(p.x / size)), Int64(floor(p.y / size)))
    }

    private static func key(_ x: Int64, _ y: Int64) -> Int64 { (x << 32) ^ (y & 0xFFFF_FFFF) }
}

/// The result of `GraphSearch.shortestPaths`: distances in metres and the tree to walk back along.
struct ShortestPaths: Sendable {
    var distance: [Int: Metres]
    var previous: [Int: Int]

    /// The nodes from the source that reached `node` to `node`, both included.
    func path(to node: Int) -> [Int] {
        var path = [node]
        var current = node
        while let p = previous[current] { path.append(p); current = p }
        return path.reversed()
    }
}

/// A binary min-heap of (cost, node) pairs.
struct MinHeap {
    private var items: [(Double, Int)] = []

    mutating func push(_ cost: Double, _ node: Int) {
        items.append((cost, node))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            if items[parent].0 <= items[i].0 { break }
            items.swapAt(parent, i)
            i = parent
        }
    }

    mutating func pop() -> (Double, Int)? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < items.count && items[l].0 < items[m].0 { m = l }
                if r < items.count && items[r].0 < items[m].0 { m = r }
                if m == i { break }
                items.swapAt(i, m)
                i = m
            }
        }
        return top
    }
}
