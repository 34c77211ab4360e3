import Foundation
import Geo

/// Allocation-free access to the graph's adjacency, for searches that visit every edge many times
/// (a router): `edges(from:)` builds an array per call, these do not.
extension RoadGraph {
    /// Number of directed edges: two per way segment, one each way.
    public var edgeCount: Int { edgeTarget.count }

    /// The indices, in `0..<edgeCount`, of the edges leaving `node`. O(1).
    public func edgeIndices(from node: Int) -> Range<Int> { Int(edgeStart[node])..<Int(edgeStart[node + 1]) }

    /// The edge with index `index` (see `edgeIndices(from:)`). O(1).
    public func edge(at index: Int) -> GraphEdge {
        GraphEdge(target: Int(edgeTarget[index]), way: Int(edgeWay[index]), forward: edgeForward[index])
    }
}

/// Where a point falls on the road network: the closest place on one way segment.
public struct SegmentSnap: Sendable, Equatable {
    /// The segment's first node, in its way's node order.
    public var from: Int
    /// The segment's second node, in its way's node order.
    public var to: Int
    /// Index into `RoadGraph.ways`.
    public var way: Int
    /// Where along the segment, in [0, 1]: 0 at `from`, 1 at `to`.
    public var fraction: Double
    /// The foot of the perpendicular from the point onto the segment (the segment's nearer end when
    /// the foot falls outside it).
    public var coordinate: Coordinate
    /// Geodesic distance in metres from the point to `coordinate`.
    public var offset: Metres
}

/// A spatial index of the graph's way segments, answering "which road is closest to this point",
/// optionally among roads a caller accepts (a router snaps a handle onto a road it may use).
///
/// Segments are bucketed in a uniform grid (`GraphSearch`); a query looks at the cells within its
/// radius and measures each candidate in a local tangent plane at the query point, then reports the
/// geodesic offset to the foot. Build: O(nodes + segments). Query: O(segments in the cells touched),
/// about (2 × radius / cellSize)² cells.
public struct SegmentIndex: Sendable {
    /// Cell side in metres: a road is usually found within 50 m, and a 100 m cell keeps such a query
    /// to 4 cells while a dense town centre puts only tens of segments in one.
    public static let defaultCellSize: Metres = 100

    public let graph: RoadGraph
    private let search: GraphSearch

    /// Indexes every segment of `graph`. O(nodes + segments).
    public init(graph: RoadGraph, cellSize: Metres = SegmentIndex.defaultCellSize) {
        self.graph = graph
        search = GraphSearch(graph: graph, cellSize: cellSize)
    }

    /// The closest segment to `point` within `radius` metres whose way `accepts` (by index into
    /// `RoadGraph.ways`), or nil when there is none. Ties go to the lower segment index, so the
    /// answer does not depend on the order of cells.
    public func nearest(to point: Coordinate, within radius: Metres,
                        accepting accepts: (Int) -> Bool = { _ in true }) -> SegmentSnap? {
        nearest(to: point, among: search.segments(near: point, radius: radius), within: radius, accepting: accepts)
    }

    /// The closest segment to `point` whose way `accepts`, however far: checks every segment.
    /// O(segments); meant for error messages ("the start is 820 m from any road"), not for routing.
    public func nearestAnywhere(to point: Coordinate, accepting accepts: (Int) -> Bool = { _ in true }) -> SegmentSnap? {
        nearest(to: point, among: Array(search.segments.indices), within: .infinity, accepting: accepts)
    }

    private func nearest(to point: Coordinate, among candidates: [Int], within radius: Metres,
                         accepting accepts: (Int) -> Bool) -> SegmentSnap? {
        let frame = LocalFrame(origin: point)
        var best = -1
        var bestSquared = Double.infinity
        for i in candidates where accepts(search.segments[i].way) {
            let s = search.segments[i]
            let d = frame.distanceSquaredToSegment(graph.coordinates[s.from], graph.coordinates[s.to])
            if d < bestSquared { bestSquared = d; best = i }
        }
        guard best >= 0 else { return nil }
        let s = search.segments[best]
        let line = Polyline([graph.coordinates[s.from], graph.coordinates[s.to]])
        let position = line.project(point, ontoSegment: 0)
        let offset = abs(position.offsetFromRoute)
        guard offset <= radius else { return nil }
        return SegmentSnap(from: s.from, to: s.to, way: s.way, fraction: position.fraction,
                           coordinate: position.coordinate, offset: offset)
    }
}
