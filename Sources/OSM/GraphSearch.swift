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
            heap.push(s.cost, Int32(s.node))
        }
        var remaining = targets
        while let (cost, item) = heap.pop() {
            let node = Int(item)
            if settled.contains(node) || cost > (distance[node] ?? .infinity) { continue }
            settled.insert(node)
            remaining.remove(node)
            if !targets.isEmpty && remaining.isEmpty { break }
            for edge in graph.edges(from: node) where !respectOneway || graph.canTravel(edge) {
                let next = cost + length(node, edge.target)
                if next <= bound && next < (distance[edge.target] ?? .infinity) {
                    distance[edge.target] = next
                    previous[edge.target] = node
                    heap.push(next, Int32(edge.target))
                }
            }
        }
        return ShortestPaths(distance: distance, previous: previous)
    }
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
