import Foundation
import Geo

extension RoadGraph {
    /// The same network with only the edges of the ways `keep` accepts: the junction graph of a
    /// travel mode keeps the roads it may use and those a rider could take for the way on, and
    /// leaves out footways, steps and paths, so a pedestrian crossing on a bend is no junction.
    ///
    /// Node and way indices are those of `self` (a node of a left-out way keeps its index and has
    /// no edges), so anything keyed by them stays valid. O(nodes + edges).
    /// - Parameter keep: whether a way's edges stay, from its tags.
    public func keepingWays(_ keep: (WayInfo) -> Bool) -> RoadGraph {
        let kept = ways.map(keep)
        var start = [Int32](repeating: 0, count: count + 1)
        var target: [Int32] = [], way: [Int32] = [], forward: [Bool] = []
        target.reserveCapacity(edgeTarget.count)
        way.reserveCapacity(edgeTarget.count)
        forward.reserveCapacity(edgeTarget.count)
        for node in 0..<count {
            for i in Int(edgeStart[node])..<Int(edgeStart[node + 1]) where kept[Int(edgeWay[i])] {
                target.append(edgeTarget[i])
                way.append(edgeWay[i])
                forward.append(edgeForward[i])
            }
            start[node + 1] = Int32(target.count)
        }
        var graph = RoadGraph(coordinates: coordinates, osmIDs: osmIDs, ways: ways,
                              edgeStart: start, edgeTarget: target, edgeWay: way, edgeForward: forward)
        graph.nodeMarks = nodeMarks
        return graph
    }

    /// A graph from its compact adjacency (see the type's documentation).
    init(coordinates: [Coordinate], osmIDs: [Int64], ways: [WayInfo],
         edgeStart: [Int32], edgeTarget: [Int32], edgeWay: [Int32], edgeForward: [Bool]) {
        self.coordinates = coordinates
        self.osmIDs = osmIDs
        self.ways = ways
        self.edgeStart = edgeStart
        self.edgeTarget = edgeTarget
        self.edgeWay = edgeWay
        self.edgeForward = edgeForward
    }
}
