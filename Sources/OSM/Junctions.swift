import Foundation
import Geo
import Model

/// Finds the junctions a node path passes and describes every road that meets there.
///
/// A junction is a node of the path where three or more roads meet (graph degree ≥ 3; the ring
/// nodes of a roundabout where an arm joins are among them, with `isRoundabout` on their ring
/// spokes so turn detection can collapse them), or where the route turns back on itself (a U-turn
/// at a dead end or anywhere else). Each spoke's bearing is measured over the road's first
/// `Configuration.spokeLength` metres: the direction of the line through the junction that best
/// fits the road sampled every `sampleSpacing` metres (least squares, principal axis). Like OSRM's
/// intersection analysis (`extractor/intersection/coordinate_extractor.cpp`), which looks some
/// metres down each road, it is not set by the first vertex, which may sit a metre away at any
/// angle; unlike a chord to one far point, a road that bends 15 m out still leaves the junction
/// in the direction a rider sees.
public struct JunctionFinder: Sendable {
    /// Thresholds of junction finding, each with its reason.
    public struct Configuration: Sendable, Equatable {
        /// A spoke's bearing is fitted to this much of its road (or the road up to its next junction
        /// or end, when shorter): far enough that a mapper's first vertex a metre or two out does not
        /// set the angle, near enough that a bend 50 m on does not. 20 m is what a rider sees
        /// standing at the junction; against OSRM's intersection bearings over the Andorra extract
        /// it agrees best of 20–30 m (see the integration tests).
        public var spokeLength: Metres = 20
        /// Samples along the road for the fit, metres apart.
        public var sampleSpacing: Metres = 2
        /// A roundabout's ring bends through a quarter turn in 20 m: its spokes are fitted over this
        /// much of the ring, which gives the ring's direction at the node (as OSRM reports it).
        public var ringSpokeLength: Metres = 3
        /// A road the travel mode may not pass within this many metres of the junction (a bollard
        /// or a locked gate at the mouth of a street, before its next junction) is no choice: drawn,
        /// never a road to take or a roundabout exit. The metres a rider sees standing at the
        /// junction, as `spokeLength`; a barrier further on closes a road the rider may still enter.
        public var barrierReach: Metres = 20

        public init() {}
    }

    public let graph: RoadGraph
    public let configuration: Configuration
    /// Whether the travel mode may use a way at all. A road it may not use (a private drive, a
    /// rough track for a car) is still a spoke, drawn as the rider sees it, but not one to leave by.
    public let mayUse: @Sendable (WayInfo) -> Bool
    /// Whether `oneway` binds the travel mode (a pedestrian may walk against it).
    public let obeysOneway: Bool
    /// Whether the travel mode may not pass a node (a barrier or access tag on it, see
    /// `barrierReach`); nil when no node stops it.
    public let isClosed: (@Sendable (Int) -> Bool)?

    /// - Parameters:
    ///   - graph: the junction graph: the roads of the travel mode and those a rider could take for them.
    ///   - mayUse: whether the mode may use a way; every way by default.
    ///   - obeysOneway: whether `oneway` binds the mode.
    ///   - isClosed: whether the mode may not pass a node of the graph; nil when none stops it.
    public init(graph: RoadGraph, configuration: Configuration = Configuration(),
                mayUse: @escaping @Sendable (WayInfo) -> Bool = { _ in true }, obeysOneway: Bool = true,
                isClosed: (@Sendable (Int) -> Bool)? = nil) {
        self.graph = graph
        self.configuration = configuration
        self.mayUse = mayUse
        self.obeysOneway = obeysOneway
        self.isClosed = isClosed
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
            var junction = junction(at: node, from: previous, to: next, distanceAlong: along[i])
            // Where the route leaves a ring, the roads meeting the rest of it, for the tulip.
            if !onRing(node, next), junction.spokes.contains(where: \.isRoundabout) {
                var entry = i
                while entry > 0, onRing(nodes[entry - 1], nodes[entry]) { entry -= 1 }
                let arms = ringArms(from: node, arrivingFrom: entry < i ? previous : nil, to: nodes[entry])
                if let arms, !arms.isEmpty { junction.ringArms = arms }
            }
            result.append(junction)
        }
        return result
    }

    /// Whether the route's step from `a` to `b` runs along a roundabout's ring.
    func onRing(_ a: Int, _ b: Int) -> Bool {
        graph.edges(from: a).contains { $0.target == b && graph.ways[$0.way].isRoundabout }
    }

    /// The most ring nodes `ringArms` walks before it gives up: a ring of a kilometre and more, or
    /// ways tagged as a roundabout that do not close.
    static let ringWalkLimit = 2_000

    /// The roads meeting a roundabout's ring at the nodes between `exit`, where the route leaves
    /// it, and `entry`, where the route joined it, going on round the ring the way traffic goes
    /// (`Junction.ringArms`): every road at those nodes that is not the ring, as a side spoke, in the
    /// order they are met.
    /// - Parameters:
    ///   - previous: the ring node the route came from; nil where it meets the ring at `exit` and
    ///     leaves it there (the whole ring is walked round, back to `exit`).
    /// - Returns: nil where the walk does not come back to `entry` (a ring that does not close, or
    ///   runs the other way), so no road is drawn that does not meet this ring.
    /// - Complexity: O(ring nodes + arms × spoke walks).
    func ringArms(from exit: Int, arrivingFrom previous: Int?, to entry: Int) -> [Spoke]? {
        var arms: [Spoke] = []
        var prior = previous, here = exit
        for _ in 0..<Self.ringWalkLimit {
            // On round the ring: the way traffic goes where the ring is one-way, never back.
            let ring = graph.edges(from: here).filter { graph.ways[$0.way].isRoundabout && $0.target != prior }
            guard let step = ring.first(where: graph.canTravel) ?? (prior == nil ? nil : ring.first) else { return nil }
            prior = here
            here = step.target
            if here == entry { return arms }
            if here == exit { return nil }
            var seen: Set<Int> = []
            // As many as a junction holds (`BookLimits.maximumRoads`): a ring with more is no roundabout a tulip draws.
            for edge in graph.edges(from: here) where !graph.ways[edge.way].isRoundabout && seen.insert(edge.target).inserted
                && arms.count < BookLimits.maximumRoads {
                arms.append(closedNear(spoke(leaving: here, along: edge), leaving: here, along: edge))
            }
        }
        return nil
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
            if edge.target != previous && edge.target != next {
                spokes.append(closedNear(spoke, leaving: node, along: edge))
            }
        }
        return Junction(coordinate: graph.coordinates[node], distanceAlong: distanceAlong, spokes: spokes,
                        nodeID: graph.osmIDs[node])
    }

    /// `spoke`, a road the route does not take leaving `node` by `edge`, closed where the travel mode
    /// may not pass it near the junction (`barrierReach`). The route's own roads are passable,
    /// whatever their tags: only a side road is closed.
    func closedNear(_ spoke: Spoke, leaving node: Int, along edge: GraphEdge) -> Spoke {
        var side = spoke
        if side.canLeave, closedNear(along: edge, from: node) { side.canLeave = false }
        return side
    }

    /// The road leaving `node` along `edge`, as a side spoke: its bearing over its first metres, tags
    /// from its way (a placeholder `name` or `ref`, "FIXME" or "?", left out: `MapNames`), whether the travel mode may leave along it (it may use the way, and the way is
    /// not one-way towards the junction when oneways bind it).
    public func spoke(leaving node: Int, along edge: GraphEdge) -> Spoke {
        let way = graph.ways[edge.way]
        return Spoke(bearing: bearing(along: edge, from: node), role: .side,
                     highway: way.highway, surface: way.surface ?? way.tracktype,
                     name: MapNames.usable(way.name), ref: MapNames.usable(way.ref),
                     canLeave: mayUse(way) && (!obeysOneway || graph.canTravel(edge)), isRoundabout: way.isRoundabout)
    }

    /// The bearing of the road leaving `node` by `edge`: the principal axis, through the junction, of
    /// the road's points every `sampleSpacing` metres over its first `spokeLength` metres, pointing
    /// away from the junction. O(samples).
    func bearing(along edge: GraphEdge, from node: Int) -> Degrees {
        let origin = graph.coordinates[node]
        let length = graph.ways[edge.way].isRoundabout ? configuration.ringSpokeLength : configuration.spokeLength
        let distances = Array(stride(from: configuration.sampleSpacing, through: length, by: configuration.sampleSpacing))
        let samples = points(along: edge, from: node, at: distances.isEmpty ? [length] : distances)
        let frame = LocalFrame(origin: origin)
        var sxx = 0.0, syy = 0.0, sxy = 0.0, mx = 0.0, my = 0.0
        for p in samples {
            let (x, y) = frame.project(p)
            sxx += x * x; syy += y * y; sxy += x * y; mx += x; my += y
        }
        guard sxx + syy > 0 else { return 0 }
        // Principal axis of the second moments about the junction: the line through it that the
        // samples lie closest to. θ from the x (east) axis.
        let theta = 0.5 * atan2(2 * sxy, sxx - syy)
        var dx = cos(theta), dy = sin(theta)
        if dx * mx + dy * my < 0 { dx = -dx; dy = -dy }   // point away from the junction, along the road
        return normalizedBearing(atan2(dx, dy) * 180 / .pi)
    }

    /// Whether the road leaving `node` by `edge` has a node the travel mode may not pass within
    /// `barrierReach` metres, before its next junction or its end. O(nodes within the reach).
    func closedNear(along edge: GraphEdge, from node: Int) -> Bool {
        guard let isClosed else { return false }
        var closed = false
        walkRoad(along: edge, from: node) { _, to, walked, step in
            guard walked + step <= configuration.barrierReach else { return false }
            closed = isClosed(to)
            return !closed
        }
        return closed
    }

    /// Walks the road that leaves `node` by `edge`, segment by segment, on through nodes where only
    /// that road continues (degree 2, whichever way carries on: a way split in two is still one
    /// road), calling `segment(from, to, walked, length)` with the metres walked before the segment,
    /// until it returns false or the road reaches the next junction or its end.
    /// - Returns: true when the road reached a junction or its end before `segment` said stop.
    @discardableResult
    func walkRoad(along edge: GraphEdge, from node: Int, _ segment: (_ from: Int, _ to: Int, _ walked: Metres, _ length: Metres) -> Bool) -> Bool {
        var walked = 0.0
        var from = node, to = edge.target, way = edge.way
        while true {
            let length = graph.coordinates[from].distance(to: graph.coordinates[to])
            guard segment(from, to, walked, length) else { return false }
            walked += length
            let onward = graph.edges(from: to).filter { $0.target != from }
            guard graph.degree(of: to) == 2, to != node, let following = onward.first(where: { $0.way == way }) ?? onward.first else {
                return true
            }
            from = to
            to = following.target
            way = following.way
        }
    }

    /// The points `distances` metres along the road that leaves `node` by `edge` (ascending), walking
    /// on through nodes where only that road continues (degree 2, whichever way carries on: a way split
    /// in two is still one road), and stopping at the next junction or dead end when the road is
    /// shorter: the remaining distances then give the road's last point.
    func points(along edge: GraphEdge, from node: Int, at distances: [Metres]) -> [Coordinate] {
        guard !distances.isEmpty else { return [] }
        var result: [Coordinate] = []
        result.reserveCapacity(distances.count)
        var next = 0, last = edge.target
        let ended = walkRoad(along: edge, from: node) { from, to, walked, step in
            let a = graph.coordinates[from], b = graph.coordinates[to]
            while next < distances.count, distances[next] <= walked + step {
                let into = distances[next] - walked
                result.append(step > 0 ? a.coordinate(atDistance: into, bearing: a.bearing(to: b)) : b)
                next += 1
            }
            last = to
            return next < distances.count
        }
        // The road ends (or meets another) before the last distance: its end stands for the rest.
        if ended { result.append(graph.coordinates[last]) }
        return result
    }
}
