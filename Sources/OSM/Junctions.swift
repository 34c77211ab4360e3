import Foundation
import Geo
import Model

/// Finds the junctions a node path passes and describes every road that meets there.
///
/// A junction is a node of the path where three or more roads meet (graph degree ≥ 3; the ring
/// nodes of a roundabout where an arm joins are among them, with `isRoundabout` on their ring
/// spokes so turn detection can collapse them), or where the route turns back on itself (a U-turn
/// at a dead end or anywhere else). Each spoke's bearing is measured to the point
/// `Configuration.spokeLength` metres along its road, as OSRM's intersection analysis
/// (`extractor/intersection/coordinate_extractor.cpp`) looks some metres down each road rather
/// than at the first vertex, which may sit a metre away at any angle.
public struct JunctionFinder: Sendable {
    /// Thresholds of junction finding, each with its reason.
    public struct Configuration: Sendable, Equatable {
        /// A spoke's bearing is taken to the point this far along its road (or the road's end when
        /// shorter): far enough that a mapper's first vertex a metre or two out does not set the
        /// angle, near enough that a bend 50 m on does not. 20–30 m is what a rider sees standing
        /// at the junction; OSRM looks about as far.
        public var spokeLength: Metres = 25

        public init() {}
    }

    public let graph: RoadGraph
    public let configuration: Configuration

    public init(graph: RoadGraph, configuration: Configuration = Configuration()) {
        self.graph = graph
        self.configuration = configuration
    }

    /// The junctions along a node path.
    /// - Parameters:
    ///   - nodes: graph nodes in order of travel; consecutive nodes must be neighbours.
    ///   - distances: distance along the route in metres at each node; when nil, measured along the
    ///     nodes' own geometry from 0.
    /// - Returns: junctions in order of travel; the first and last nodes are never junctions (the
    ///   route neither arrives at the one nor leaves the other).
    /// - Complexity: O(path length + junctions × spoke walks), each walk O(nodes within `spokeLength`).
    public func junctions(along nodes: [Int], distances: [Metres]? = nil) -> [Junction] {
        guard nodes.count >= 3 else { return [] }
        let along = distances ?? Polyline(nodes.map { graph.coordinates[$0] }).cumulativeDistances
        precondition(along.count == nodes.count, "one distance per node")
        var result: [Junction] = []
        for i in 1..<(nodes.count - 1) {
            let node = nodes[i], previous = nodes[i - 1], next = nodes[i + 1]
            guard graph.degree(of: node) >= 3 || previous == next else { continue }
            result.append(junction(at: node, from: previous, to: next, distanceAlong: along[i]))
        }
        return result
    }

    /// The junctions along every piece of a matched route, with distances along the input route:
    /// the start of each piece's line is placed where the piece begins on the input.
    public func junctions(along match: MatchedRoute) -> [Junction] {
        match.pieces.flatMap { piece in
            junctions(along: piece.nodes, distances: piece.nodeDistances.map { $0 + piece.inputStartDistance })
        }
    }

    /// One junction: a spoke per neighbouring node, the entry pointing back along the road the route
    /// came on and the exit along the road it leaves on (both along the same road at a U-turn).
    public func junction(at node: Int, from previous: Int, to next: Int, distanceAlong: Metres) -> Junction {
        var spokes: [Spoke] = []
        var seen: Set<Int> = []
        for edge in graph.edges(from: node) where seen.insert(edge.target).inserted {
            let spoke = self.spoke(leaving: node, along: edge)
            if edge.target == previous {
                var entry = spoke
                entry.role = .entry
                spokes.append(entry)
            }
            if edge.target == next {
                var exit = spoke
                exit.role = .exit
                spokes.append(exit)
            }
            if edge.target != previous && edge.target != next { spokes.append(spoke) }
        }
        return Junction(coordinate: graph.coordinates[node], distanceAlong: distanceAlong, spokes: spokes,
                        nodeID: graph.osmIDs[node])
    }

    /// The road leaving `node` along `edge`, as a side spoke: bearing to the point `spokeLength` along
    /// it, tags from its way, whether one may leave along it.
    public func spoke(leaving node: Int, along edge: GraphEdge) -> Spoke {
        let way = graph.ways[edge.way]
        let origin = graph.coordinates[node]
        return Spoke(bearing: normalizedBearing(origin.bearing(to: point(along: edge, from: node))), role: .side,
                     highway: way.highway, surface: way.surface ?? way.tracktype, name: way.name, ref: way.ref,
                     canLeave: graph.canTravel(edge), isRoundabout: way.isRoundabout)
    }

    /// The point `spokeLength` metres along the road that leaves `node` by `edge`, walking on through
    /// nodes where only that road continues (degree 2, whichever way carries on: a way split in two is
    /// still one road), and stopping at the next junction or dead end when the road is shorter.
    func point(along edge: GraphEdge, from node: Int) -> Coordinate {
        var remaining = configuration.spokeLength
        var from = node, to = edge.target, way = edge.way
        while true {
            let a = graph.coordinates[from], b = graph.coordinates[to]
            let step = a.distance(to: b)
            if step >= remaining {
                return step > 0 ? a.coordinate(atDistance: remaining, bearing: a.bearing(to: b)) : b
            }
            remaining -= step
            guard graph.degree(of: to) == 2, to != node else { return b }
            let onward = graph.edges(from: to).filter { $0.target != from }
            guard let next = onward.first(where: { $0.way == way }) ?? onward.first else { return b }
            from = to
            to = next.target
            way = next.way
        }
    }
}
