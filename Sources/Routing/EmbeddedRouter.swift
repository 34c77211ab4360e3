import Foundation
import Geo
import Model
import OSM

/// A router over an OpenStreetMap road graph held in memory: no server, no network.
///
/// Each leg snaps its start and end onto the nearest road the mode may use (the foot of the
/// perpendicular onto the closest segment, within `Configuration.snapRadius`), then searches for the
/// quickest road between them with A* (Hart, Nilsson & Raphael 1968, "A Formal Basis for the
/// Heuristic Determination of Minimum Cost Paths"). Cost is travel time, as OSRM's is: the leg a
/// user asks for is the one a driver would take, so it should agree with what OSRM gives the same
/// user, and with time the main road beats a shorter lane through a village. Turns at junctions
/// cost time too, as in OSRM's profiles (`TravelRules.turnCosts`), so of two ways much alike the
/// one with fewer and easier turns wins, and a ban is got round as OSRM gets round it. The
/// heuristic is the great-circle distance to the end at the mode's top speed; turn costs only add
/// to a path's time, so it stays admissible, and the first time the end is taken from the queue
/// its path is the quickest.
///
/// Everything that does not depend on the leg is computed once in `init`: each edge's geodesic
/// length, each mode's edge times (infinite where the mode may not go) and roads at each node, and
/// the spatial index of segments. A leg then costs O((V + E) log V) over the states A* opens:
/// edges (the road one arrived by decides a turn's cost and whether a restriction allows it) for a
/// mode with turn costs or restrictions, nodes otherwise; held sparsely by edge (`SearchStates`),
/// so a short leg over a country's map costs what it touches.
///
/// The line runs from the snapped start, along the partial first segment, through the path's
/// nodes, along the partial last segment to the snapped end. Its distance is geodesic; its duration
/// is the sum of the edge times (partial segments pro rata).
public struct EmbeddedRouter: RoutingEngine {
    /// Thresholds of the router, each with its reason.
    public struct Configuration: Sendable, Equatable {
        /// A handle farther than this from every road the mode may use has no road leg: 500 m is
        /// more than any mapped road is off from a GPS point or a tap on a map zoomed to a valley,
        /// and less than the gap to the next valley's road in the mountains, which the user did not
        /// mean.
        public var snapRadius: Metres = 500
        /// A road of the mode's main network this much farther than the nearest road (an island:
        /// a car park, a clipped track) is taken instead: within a lane's width or two of the same
        /// place, the point means the network that goes somewhere.
        public var mainNetworkPreference: Metres = 40
        /// The first, cheap look for a road: most handles are placed on one, and a 50 m search
        /// touches a handful of index cells instead of a hundred.
        public var nearSnapRadius: Metres = 50
        /// Traffic keeps left (Britain, Ireland, Japan …): a turn to the left is the one towards the
        /// kerb, which costs less (`TurnCosts`). OpenStreetMap does not say which side a road's
        /// traffic keeps to, so the extract cannot tell.
        public var leftHandTraffic = false
        /// A network of roads the mode may use with fewer nodes than this, apart from the main one,
        /// is an island: a piece of road the extract cut off at its border, a car park mapped on its
        /// own. An end that snaps onto one and finds no road moves onto the main network (within
        /// `snapRadius`), as OSRM moves an end off its "tiny components" (fewer than 1,000 nodes by
        /// default). Only when the main network itself is at least this large: on a map of small
        /// pieces none is the network that goes somewhere.
        public var islandNodes = 1_000

        public init() {}
    }

    public var name: String { "embedded router" }
    public let graph: RoadGraph
    public let configuration: Configuration

    private let index: SegmentIndex
    private let finder: JunctionFinder
    /// CSR adjacency copied from the graph: the edges of node `i` are `edgeStart[i]..<edgeStart[i + 1]`.
    private let edgeStart: [Int32]
    private let edgeTarget: [Int32]
    /// The node each edge leaves and the way (index into `graph.ways`) it runs along.
    private let edgeSource: [Int32]
    private let edgeWay: [Int32]
    /// Geodesic length of each directed edge in metres.
    private let edgeLength: [Metres]
    /// Per mode (in `TravelMode.allCases` order): the times of every edge, which ways are usable.
    private let modes: [ModeTable?]
    /// By way index: `junction=roundabout` (no waiting for oncoming traffic on or off a ring).
    private let wayIsRoundabout: [Bool]
    /// Node latitudes and longitudes in radians and the cosine of the latitude, for the heuristic
    /// and the headings of turns.
    private let latitude: [Double]
    private let longitude: [Double]
    private let cosLatitude: [Double]

    /// The smallest radius of curvature of the WGS84 ellipsoid, a(1 − e²) (the meridian radius at
    /// the equator), in metres. The ellipsoid's metric M²dφ² + N²cos²φ dλ² is at least this radius
    /// squared times the unit sphere's dφ² + cos²φ dλ² (M, N ≥ a(1 − e²)), so every road is at
    /// least as long as this radius times the spherical angle it spans: the great-circle distance
    /// on a sphere of this radius never overestimates, and the heuristic stays admissible.
    static let heuristicRadius: Metres = {
        let a = Geodesic.wgs84.a, f = Geodesic.wgs84.f
        return a * (1 - f * (2 - f))
    }()

    /// Prepares the graph for routing: edge lengths (`segmentLength`, once per segment), edge times
    /// for the travel modes asked for, the segment index. O(nodes + edges). The graph should hold
    /// every road, track and path (`RoadFilter.allRoads`): each mode takes what its travel rules allow.
    /// - Parameter modes: the modes legs will be asked in (each costs a table of its edge times and
    ///   its networks); a leg in another mode is refused.
    public init(graph: RoadGraph, configuration: Configuration = Configuration(), modes: [TravelMode] = TravelMode.allCases) {
        self.graph = graph
        self.configuration = configuration
        index = SegmentIndex(graph: graph)
        finder = JunctionFinder(graph: graph)
        var start = [Int32](repeating: 0, count: graph.count + 1)
        var target = [Int32](repeating: 0, count: graph.edgeCount)
        var length = [Metres](repeating: 0, count: graph.edgeCount)
        var source = [Int32](repeating: 0, count: graph.edgeCount)
        var way = [Int32](repeating: 0, count: graph.edgeCount)
        for node in 0..<graph.count {
            let range = graph.edgeIndices(from: node)
            start[node + 1] = Int32(range.upperBound)
            for e in range {
                let edge = graph.edge(at: e)
                target[e] = Int32(edge.target)
                source[e] = Int32(node)
                way[e] = Int32(edge.way)
                if edge.forward {
                    length[e] = Self.segmentLength(graph.coordinates[node], graph.coordinates[edge.target])
                }
            }
        }
        // A backward edge has the length of its forward twin (same way, opposite direction).
        for node in 0..<graph.count {
            for e in graph.edgeIndices(from: node) where !graph.edge(at: e).forward {
                let edge = graph.edge(at: e)
                let twin = graph.edgeIndices(from: edge.target).first {
                    let back = graph.edge(at: $0)
                    return back.forward && back.target == node && back.way == edge.way
                }
                length[e] = twin.map { length[$0] } ?? Self.segmentLength(graph.coordinates[node], graph.coordinates[edge.target])
            }
        }
        edgeStart = start
        edgeTarget = target
        edgeSource = source
        edgeWay = way
        edgeLength = length
        self.modes = TravelMode.allCases.map { modes.contains($0) ? ModeTable(rules: .forMode($0), graph: graph, edgeLength: length, islandNodes: configuration.islandNodes) : nil }
        latitude = graph.coordinates.map { $0.latitude * .pi / 180 }
        longitude = graph.coordinates.map { $0.longitude * .pi / 180 }
        cosLatitude = latitude.map { cos($0) }
        wayIsRoundabout = graph.ways.map(\.isRoundabout)
    }

    /// The quickest road from `start` to `end` in `mode`.
    /// - Throws: `RoutingError.noRoute` when an end is farther than `snapRadius` from any road the
    ///   mode may use ("No driving route: the start is 820 m from any road"), or when no road joins
    ///   them ("No driving route").
    /// - Complexity: O((V + E) log V) over the nodes A* opens; two index queries to snap.
    public func route(from start: Coordinate, to end: Coordinate, mode: TravelMode) async throws -> RoadLeg {
        try leg(from: start, to: end, mode: mode)
    }

    /// `route(from:to:mode:)` without the suspension point, for benchmarks and callers off the
    /// concurrency runtime.
    public func leg(from start: Coordinate, to end: Coordinate, mode: TravelMode) throws -> RoadLeg {
        guard let table = modes[TravelMode.allCases.firstIndex(of: mode)!] else {
            throw RoutingError.noRoute("No \(mode.gerund) route: this router was prepared for other modes")
        }
        let startSnap = try snap(start, role: "start", table: table)
        let endSnap = try snap(end, role: "end", table: table)
        // Turn costs and turn restrictions depend on the road one arrives by: the search then runs
        // over edges. A mode with neither (walking) searches over nodes, a third of the work.
        let byEdge = table.rules.turnCosts != nil || !table.restrictedVia.isEmpty
        func search(_ s: SegmentSnap, _ t: SegmentSnap) -> Found? {
            byEdge ? quickestByEdge(from: s, to: t, table: table) : quickest(from: s, to: t, table: table)
        }
        if let found = search(startSnap, endSnap) { return assemble(found, from: startSnap, to: endSnap) }
        // An end on an island leads nowhere beyond it: it moves onto the main network and the leg is
        // asked again (see `Configuration.islandNodes`).
        let mainStart = table.wayOnIsland[startSnap.way] ? snapOnMainNetwork(start, table: table) : nil
        let mainEnd = table.wayOnIsland[endSnap.way] ? snapOnMainNetwork(end, table: table) : nil
        if mainStart != nil || mainEnd != nil {
            let s = mainStart ?? startSnap, t = mainEnd ?? endSnap
            if let found = search(s, t) { return assemble(found, from: s, to: t) }
        }
        throw RoutingError.noRoute("No \(mode.gerund) route")
    }

    // MARK: - Snapping

    /// The nearest point of the mode's main network within `snapRadius` of `point`, if any.
    private func snapOnMainNetwork(_ point: Coordinate, table: ModeTable) -> SegmentSnap? {
        index.nearest(to: point, within: configuration.snapRadius, accepting: { table.wayInMainNetwork[$0] })
    }

    private func snap(_ point: Coordinate, role: String, table: ModeTable) throws -> SegmentSnap {
        let usable = { (way: Int) in table.waySpeed[way] > 0 }
        let main = { (way: Int) in table.wayInMainNetwork[way] }
        let nearest = index.nearest(to: point, within: configuration.nearSnapRadius, accepting: usable)
            ?? index.nearest(to: point, within: configuration.snapRadius, accepting: usable)
        if let nearest {
            // The main network wins when it is barely farther than the nearest road: the point was
            // meant for it, and an island beside it leads nowhere.
            if nearest.way < table.wayInMainNetwork.count, !table.wayInMainNetwork[nearest.way],
               let onMain = index.nearest(to: point, within: nearest.offset + configuration.mainNetworkPreference, accepting: main) {
                return onMain
            }
            return nearest
        }
        let gerund = table.rules.mode.gerund
        guard let nearest = index.nearestAnywhere(to: point, accepting: usable) else {
            throw RoutingError.noRoute("No \(gerund) route: the map has no road open to \(gerund)")
        }
        throw RoutingError.noRoute("No \(gerund) route: the \(role) is \(Self.format(nearest.offset)) from any road")
    }

    /// Segments longer than this are measured as geodesics (`Geodesic`); shorter ones on the
    /// ellipsoid's tangent plane at their middle (`LocalFrame`), whose error grows as the square of
    /// the length: under 3 × 10⁻⁸ of it at 1 km, a millimetre at 5 km, far below the metre a road's
    /// time could turn on, and twenty times cheaper than the geodesic.
    static let tangentPlaneLimit: Metres = 5_000

    /// The length of the segment from `a` to `b`, in metres: the cost a road step is timed over.
    static func segmentLength(_ a: Coordinate, _ b: Coordinate) -> Metres {
        let middle = Coordinate(latitude: (a.latitude + b.latitude) / 2, longitude: a.longitude)
        let frame = LocalFrame(origin: middle)
        let pa = frame.project(a), pb = frame.project(b)
        let flat = ((pb.x - pa.x) * (pb.x - pa.x) + (pb.y - pa.y) * (pb.y - pa.y)).squareRoot()
        return flat < tangentPlaneLimit ? flat : a.distance(to: b)
    }

    /// "820 m", "12 km".
    static func format(_ metres: Metres) -> String {
        metres < 10_000 ? "\(Int(metres.rounded())) m" : "\(Int((metres / 1000).rounded())) km"
    }

    // MARK: - Search

    /// The result of A*: the nodes from the first to the last (empty when the leg runs along one
    /// segment) and the leg's time in seconds.
    private struct Found {
        var nodes: [Int]
        var seconds: TimeInterval
    }

    /// Seconds to travel the part of `snap`'s segment between fractions `a` and `b` in the
    /// direction from `a` to `b`, or nil when the mode may not go that way.
    private func partial(_ snap: SegmentSnap, from a: Double, to b: Double, table: ModeTable) -> TimeInterval? {
        let forward = b >= a
        guard let e = edgeIndex(from: forward ? snap.from : snap.to, to: forward ? snap.to : snap.from, way: snap.way)
        else { return nil }
        let seconds = table.edgeSeconds[e]
        return seconds.isFinite ? abs(b - a) * seconds : nil
    }

    private func edgeIndex(from a: Int, to b: Int, way: Int) -> Int? {
        (Int(edgeStart[a])..<Int(edgeStart[a + 1])).first { Int(edgeTarget[$0]) == b && graph.edge(at: $0).way == way }
    }

    /// A* over nodes from the start snap's segment ends to the end snap's, through a virtual goal
    /// node (index `graph.count`) that the end segment's nodes reach at their partial times. A start
    /// and end on the same segment also reach the goal directly. For a mode whose turns cost nothing
    /// and meet no restriction: the time of a path is then the sum of its edges' times, whatever road
    /// one arrived by.
    private func quickest(from s: SegmentSnap, to t: SegmentSnap, table: ModeTable) -> Found? {
        let n = graph.count
        let goal = n
        var cost = [Double](repeating: .infinity, count: n + 1)
        var parent = [Int32](repeating: -1, count: n + 1)
        var closed = [Bool](repeating: false, count: n + 1)
        var heap = MinHeap()
        let fromStart: Int32 = -2
        let heuristic = self.heuristic(to: t.coordinate, table: table)
        func open(_ node: Int, _ g: Double, from p: Int32) {
            guard g < cost[node] else { return }
            cost[node] = g
            parent[node] = p
            heap.push(g + (node == goal ? 0 : heuristic(node)), Int32(node))
        }
        let ends = self.ends(from: s, to: t, table: table)
        if let direct = ends.direct { open(goal, direct, from: fromStart) }
        for (e, time) in ends.out { open(Int(edgeTarget[e]), time, from: fromStart) }
        let seconds = table.edgeSeconds, nodeFlags = table.nodeFlags
        while let (_, item) = heap.pop() {
            let current = Int(item)
            if closed[current] { continue }
            closed[current] = true
            if current == goal { break }
            let g = cost[current]
            if current == ends.goalNode { open(goal, g, from: item) }
            // A barrier the mode cannot pass ends the way on (it is reached, not left).
            if !nodeFlags.isEmpty, nodeFlags[current] & NodeFlags.closed != 0 { continue }
            for e in Int(edgeStart[current])..<Int(edgeStart[current + 1]) where seconds[e].isFinite {
                let next = Int(edgeTarget[e])
                if !closed[next] { open(next, g + seconds[e], from: item) }
            }
            if current == t.from, let last = ends.fromGoalSegmentStart { open(goal, g + last.seconds, from: item) }
            if current == t.to, let last = ends.fromGoalSegmentEnd { open(goal, g + last.seconds, from: item) }
        }
        guard closed[goal] else { return nil }
        var nodes: [Int] = []
        var current = parent[goal]
        while current != fromStart {
            nodes.append(Int(current))
            current = parent[Int(current)]
        }
        return Found(nodes: nodes.reversed(), seconds: cost[goal])
    }

    /// Whether the mode can leave `node`, come from `behind` along `way`, only the way it came: no edge
    /// the mode may take (`seconds` finite) leads anywhere else. A footpath or a one-way road coming
    /// in does not make a way out, so a road ending there is a dead end, where one may turn back
    /// (as OSRM's car graph, which holds only the roads a car may take). O(degree).
    private func isDeadEnd(_ node: Int, from behind: Int, along way: Int, seconds: [TimeInterval]) -> Bool {
        !(Int(edgeStart[node])..<Int(edgeStart[node + 1])).contains { e in
            seconds[e].isFinite && !(Int(edgeTarget[e]) == behind && Int(edgeWay[e]) == way)
        }
    }

    /// Where a search starts and ends: the seconds straight to the end when start and end lie on one
    /// segment (in the right direction) or at one node, the edges out of the start with the seconds
    /// to their ends, and from either end of the end segment the seconds to the end and the edge it
    /// starts along (whose turn a search over edges costs).
    ///
    /// A snap at a node (fraction 0 or 1: on a node, or beyond a segment's end) is that node, not a
    /// point of its segment: a route starts along any road out of it and ends on arriving by any
    /// road (`goalNode`). Taken as a point of a one-way segment, it could be left or reached only
    /// along that segment the allowed way.
    private func ends(from s: SegmentSnap, to t: SegmentSnap, table: ModeTable)
        -> (direct: Double?, out: [(edge: Int, seconds: Double)], goalNode: Int?,
            fromGoalSegmentStart: (edge: Int, seconds: Double)?, fromGoalSegmentEnd: (edge: Int, seconds: Double)?) {
        func node(_ snap: SegmentSnap) -> Int? { snap.fraction <= 0 ? snap.from : snap.fraction >= 1 ? snap.to : nil }
        let startNode = node(s), goalNode = node(t)
        var direct = s.from == t.from && s.to == t.to && s.way == t.way ? partial(s, from: s.fraction, to: t.fraction, table: table) : nil
        // From a node straight along the end's segment, when the segment starts or ends there.
        for (node, fraction) in [(t.from, 0.0), (t.to, 1.0)] where node == startNode {
            if let seconds = partial(t, from: fraction, to: t.fraction, table: table) { direct = min(direct ?? seconds, seconds) }
        }
        if let startNode, startNode == goalNode { direct = 0 }
        var out: [(edge: Int, seconds: Double)] = []
        if let startNode {
            for e in Int(edgeStart[startNode])..<Int(edgeStart[startNode + 1]) where table.edgeSeconds[e].isFinite {
                out.append((e, table.edgeSeconds[e]))
            }
        } else {
            if let toEnd = partial(s, from: s.fraction, to: 1, table: table), let e = edgeIndex(from: s.from, to: s.to, way: s.way) {
                out.append((e, toEnd))
            }
            if let toStart = partial(s, from: s.fraction, to: 0, table: table), let e = edgeIndex(from: s.to, to: s.from, way: s.way) {
                out.append((e, toStart))
            }
        }
        func last(from a: Int, to b: Int, _ fraction: Double) -> (edge: Int, seconds: Double)? {
            guard goalNode == nil, let seconds = partial(t, from: fraction, to: t.fraction, table: table),
                  let e = edgeIndex(from: a, to: b, way: t.way) else { return nil }
            return (e, seconds)
        }
        return (direct, out, goalNode, last(from: t.from, to: t.to, 0), last(from: t.to, to: t.from, 1))
    }

    /// The heuristic of a search towards `goal`: seconds at the mode's top speed over the
    /// great-circle distance from a node (see `heuristicRadius`).
    private func heuristic(to goal: Coordinate, table: ModeTable) -> (Int) -> Double {
        let goalLatitude = goal.latitude * .pi / 180, goalLongitude = goal.longitude * .pi / 180
        let goalCos = cos(goalLatitude)
        let secondsPerMetre = 1 / table.rules.maximumSpeed
        let radius = Self.heuristicRadius
        let (latitude, longitude, cosLatitude) = (self.latitude, self.longitude, self.cosLatitude)
        return { node in
            let dLat = sin((latitude[node] - goalLatitude) / 2), dLon = sin((longitude[node] - goalLongitude) / 2)
            let h = min(1, dLat * dLat + cosLatitude[node] * goalCos * dLon * dLon)
            return 2 * radius * asin(h.squareRoot()) * secondsPerMetre
        }
    }

    /// A* as `quickest(from:to:table:)`, but with every state an edge (the node it enters and the
    /// road it came by), as OSRM's edge-based graph, for a mode whose turns cost time
    /// (`TravelRules.turnCosts`) or meet turn restrictions: each step costs its edge's time and the
    /// turn onto it from the edge before; a restriction binds at its via node; a route may pass a
    /// junction twice in different directions (round the block, back through the same crossing
    /// towards a forbidden road's far side); nowhere does it go straight back the way it came but
    /// at a dead end (as OSRM's car profile). Some two to three times the states of the search over nodes.
    private func quickestByEdge(from s: SegmentSnap, to t: SegmentSnap, table: ModeTable) -> Found? {
        let goal = edgeTarget.count
        // Sparse: a short leg over a country's map touches a few thousand of its millions of edges.
        var states = SearchStates()
        var heap = MinHeap()
        let fromStart: Int32 = -2
        let heuristic = self.heuristic(to: t.coordinate, table: table)
        let seconds = table.edgeSeconds, restrictedVia = table.restrictedVia, vehicles = table.vehicles
        let nodeFlags = table.nodeFlags, gateSeconds = table.gateSeconds
        let turnSeconds = self.turnSeconds(table)
        func open(_ state: Int, _ g: Double, from p: Int32) {
            guard states.improve(Int32(state), cost: g, from: p) else { return }
            heap.push(g + (state == goal ? 0 : heuristic(Int(edgeTarget[state]))), Int32(state))
        }
        let ends = self.ends(from: s, to: t, table: table)
        if let direct = ends.direct { open(goal, direct, from: fromStart) }
        for (e, time) in ends.out { open(e, time, from: fromStart) }
        while let (_, item) = heap.pop() {
            let incoming = Int(item)
            guard states.close(item) else { continue }
            if incoming == goal { break }
            let g = states.cost(item)
            let here = Int(edgeTarget[incoming]), behind = Int(edgeSource[incoming]), inWay = Int(edgeWay[incoming])
            let restricted = !restrictedVia.isEmpty && restrictedVia[here]
            let flags = nodeFlags.isEmpty ? 0 : nodeFlags[here]
            let gate = flags & NodeFlags.gate != 0 ? gateSeconds[here] ?? 0 : 0
            /// The seconds of turning onto edge `e`, or nil when the route may not: straight back
            /// but at a dead end, before a barrier or at a place made for turning round (as OSRM);
            /// on past a barrier the mode cannot pass; or a turn a restriction forbids.
            func turn(onto e: Int) -> Double? {
                let way = Int(edgeWay[e])
                let back = Int(edgeTarget[e]) == behind && way == inWay
                if back && flags & (NodeFlags.closed | NodeFlags.turningPlace) == 0 && !isDeadEnd(here, from: behind, along: inWay, seconds: seconds) { return nil }
                if !back && flags & NodeFlags.closed != 0 { return nil }
                if restricted && !graph.allowsTurn(fromWay: inWay, at: here, toWay: way, for: vehicles) { return nil }
                return turnSeconds(incoming, e, back) + (back ? 0 : gate)
            }
            for e in Int(edgeStart[here])..<Int(edgeStart[here + 1]) where seconds[e].isFinite && !states.isClosed(Int32(e)) {
                if let turning = turn(onto: e) { open(e, g + turning + seconds[e], from: item) }
            }
            /// Onto the end's segment from one of its ends, and along it to the end.
            func finish(_ last: (edge: Int, seconds: Double)?) {
                guard let last, Int(edgeSource[last.edge]) == here, let turning = turn(onto: last.edge) else { return }
                open(goal, g + turning + last.seconds, from: item)
            }
            if here == ends.goalNode { open(goal, g, from: item) }
            finish(ends.fromGoalSegmentStart)
            finish(ends.fromGoalSegmentEnd)
        }
        guard states.isClosed(Int32(goal)) else { return nil }
        var nodes: [Int] = []
        var current = states.parent(Int32(goal))
        while current != fromStart {
            nodes.append(Int(edgeTarget[Int(current)]))
            current = states.parent(current)
        }
        return Found(nodes: nodes.reversed(), seconds: states.cost(Int32(goal)))
    }

    /// The seconds `table`'s mode spends turning from edge `incoming` onto edge `out` (`back`: the
    /// same road the other way): its `TurnCosts` where more than two roads it may use meet, or
    /// turning back; nothing without turn costs. The angle is between the two edges' first and last
    /// segments as drawn. O(1).
    private func turnSeconds(_ table: ModeTable) -> (_ incoming: Int, _ out: Int, _ back: Bool) -> Double {
        guard let costs = table.rules.turnCosts else { return { _, _, _ in 0 } }
        let roads = table.roads, roundabout = wayIsRoundabout, leftHand = configuration.leftHandTraffic
        return { [self] incoming, out, back in
            let here = Int(edgeTarget[incoming])
            guard back || roads[here] > 2 else { return 0 }
            let angle = back ? 180 : normalizedTurn(bearing(of: out) - bearing(of: incoming))
            return costs.seconds(angle: angle, uTurn: back,
                                 roundabout: roundabout[Int(edgeWay[incoming])] || roundabout[Int(edgeWay[out])],
                                 leftHandTraffic: leftHand)
        }
    }

    /// The heading of edge `e` from its source to its target, in degrees clockwise from north, on the
    /// plane tangent at the source (a segment is metres to a few hundred metres long). O(1).
    private func bearing(of e: Int) -> Degrees {
        let a = Int(edgeSource[e]), b = Int(edgeTarget[e])
        let east = (longitude[b] - longitude[a]) * cosLatitude[a], north = latitude[b] - latitude[a]
        return atan2(east, north) * 180 / .pi
    }

    // MARK: - The leg

    private func assemble(_ found: Found, from s: SegmentSnap, to t: SegmentSnap) -> RoadLeg {
        var line = [s.coordinate]
        var lineIndex: [Int] = []   // the line vertex of each path node
        for node in found.nodes {
            let c = graph.coordinates[node]
            if line.last != c { line.append(c) }
            lineIndex.append(line.count - 1)
        }
        if line.last != t.coordinate || line.count == 1 { line.append(t.coordinate) }
        let polyline = Polyline(line)
        let along = polyline.cumulativeDistances
        var nodes = found.nodes
        var distances = lineIndex.map { along[$0] }
        // The segment the start snapped onto joins the path's first node to a node behind the start;
        // putting that node first lets the path's first node count as a junction (the finder never
        // counts a path's end nodes). Likewise beyond the end. Only when the snap is strictly
        // inside its segment: at a node there is no road behind it on the route.
        if let first = nodes.first, s.fraction > 0, s.fraction < 1 {
            let behind = first == s.to ? s.from : s.to
            nodes.insert(behind, at: 0)
            distances.insert(-graph.coordinates[behind].distance(to: s.coordinate), at: 0)
        } else if let first = nodes.first {
            // Snapped onto a node: the route starts there, and the path's first node after it can be
            // a junction.
            let at = s.fraction <= 0 ? s.from : s.to
            if at != first { nodes.insert(at, at: 0); distances.insert(0, at: 0) }
        }
        if let last = nodes.last, t.fraction > 0, t.fraction < 1 {
            let beyond = last == t.from ? t.to : t.from
            nodes.append(beyond)
            distances.append(polyline.length + graph.coordinates[beyond].distance(to: t.coordinate))
        } else if let last = nodes.last {
            let at = t.fraction <= 0 ? t.from : t.to
            if at != last { nodes.append(at); distances.append(polyline.length) }
        }
        return RoadLeg(line: line, distance: polyline.length, duration: found.seconds,
                       junctions: finder.junctions(along: nodes, distances: distances))
    }
}

/// What a node's mark does to a mode (`ModeTable.nodeFlags`), bit by bit.
private enum NodeFlags {
    /// The mode cannot pass (`NodePassage.closed`): it may turn round there, before the barrier.
    static let closed: UInt8 = 1
    /// A place made for turning round (`OSMNodeMark.isTurningPlace`).
    static let turningPlace: UInt8 = 2
    /// A gate the mode opens (`NodePassage.gate`): its seconds are in `ModeTable.gateSeconds`.
    static let gate: UInt8 = 4
}

/// One mode's view of the graph: speed on each way (0 where the mode may not go) and time on each
/// directed edge (infinite where it may not go that way).
private struct ModeTable: Sendable {
    let rules: TravelRules
    /// The vehicles whose turn restrictions bind the mode (none for walking).
    let vehicles: RestrictedVehicles
    /// By node: a turn restriction binding the mode has its via node here; empty when the mode
    /// meets no restriction.
    let restrictedVia: [Bool]
    /// By node: what its mark does to the mode (`NodeFlags`); empty when no node's mark does anything.
    let nodeFlags: [UInt8]
    /// Seconds of opening the gate at a node (`NodePassage.gate`), by node.
    let gateSeconds: [Int: TimeInterval]
    /// By node: how many roads the mode may use meet there (one per segment, either direction; 255
    /// at most). A turn costs time only where more than two meet (`TurnCosts`); empty for a mode
    /// whose turns cost nothing.
    let roads: [UInt8]
    /// m/s by way index; 0 when closed to the mode.
    let waySpeed: [MetresPerSecond]
    /// Seconds by edge index; infinite when the mode may not take the edge.
    let edgeSeconds: [TimeInterval]
    /// By way index: the way belongs to the mode's largest connected network. An extract holds
    /// islands (a car park, a clipped track) that a point may lie nearest to; snapping onto one
    /// gives "no route" where the rider obviously has one, so snapping prefers the main network,
    /// as OSRM does with its big components.
    let wayInMainNetwork: [Bool]
    /// By way index: the way belongs to an island (`EmbeddedRouter.Configuration.islandNodes`).
    let wayOnIsland: [Bool]

    init(rules: TravelRules, graph: RoadGraph, edgeLength: [Metres], islandNodes: Int) {
        self.rules = rules
        let speeds = graph.ways.map { rules.speed(on: $0) ?? 0 }
        var seconds = [TimeInterval](repeating: .infinity, count: graph.edgeCount)
        for node in 0..<graph.count {
            for e in graph.edgeIndices(from: node) {
                let edge = graph.edge(at: e)
                let speed = speeds[edge.way]
                guard speed > 0, !rules.obeysOneway || graph.canTravel(edge) else { continue }
                seconds[e] = edgeLength[e] / speed
            }
        }
        waySpeed = speeds
        edgeSeconds = seconds
        let vehicles: RestrictedVehicles = switch rules.mode {
        case .drive: .motorcar
        case .cycle: .bicycle
        case .walk: []
        }
        self.vehicles = vehicles
        var restrictedVia: [Bool] = []
        for node in graph.turnRestrictions.viaNodes where graph.turnRestrictions.restricts(node, for: vehicles) {
            if restrictedVia.isEmpty { restrictedVia = [Bool](repeating: false, count: graph.count) }
            restrictedVia[node] = true
        }
        self.restrictedVia = restrictedVia
        var flags: [UInt8] = [], gates: [Int: TimeInterval] = [:]
        for (node, mark) in graph.nodeMarks {
            var f: UInt8 = 0
            switch rules.passage(at: mark) {
            case .open: break
            case .closed: f |= NodeFlags.closed
            case .gate(let seconds): gates[node] = seconds; f |= NodeFlags.gate
            }
            if mark.isTurningPlace { f |= NodeFlags.turningPlace }
            guard f != 0 else { continue }
            if flags.isEmpty { flags = [UInt8](repeating: 0, count: graph.count) }
            flags[node] |= f
        }
        nodeFlags = flags
        gateSeconds = gates
        roads = rules.turnCosts == nil ? [] : (0..<graph.count).map { node in
            UInt8(min(255, graph.edgeIndices(from: node).count { speeds[graph.edge(at: $0).way] > 0 }))
        }
        // Connected components over the edges the mode may use in either direction (union–find).
        var sets = UnionFind(count: graph.count)
        var firstNode = [Int](repeating: -1, count: graph.ways.count)
        for node in 0..<graph.count {
            for e in graph.edgeIndices(from: node) {
                let edge = graph.edge(at: e)
                guard speeds[edge.way] > 0 else { continue }
                if firstNode[edge.way] < 0 { firstNode[edge.way] = node }
                sets.join(node, edge.target)
            }
        }
        var size = [Int32](repeating: 0, count: graph.count)
        for node in 0..<graph.count where !graph.edgeIndices(from: node).isEmpty { size[sets.find(node)] += 1 }
        let main = size.indices.max { size[$0] < size[$1] }.flatMap { size[$0] > 0 ? $0 : nil }
        wayInMainNetwork = firstNode.map { $0 >= 0 && sets.find($0) == main }
        let mainIsLarge = main.map { Int(size[$0]) >= islandNodes } ?? false
        wayOnIsland = firstNode.map { node in
            guard mainIsLarge, node >= 0 else { return false }
            let root = sets.find(node)
            return root != main && Int(size[root]) < islandNodes
        }
    }
}

/// Disjoint sets of nodes (union–find with path halving), as a value with mutating methods: a
/// closure over a captured array paid a runtime exclusivity check on every step.
private struct UnionFind {
    private var parent: [Int32]

    init(count: Int) { parent = (0..<Int32(count)).map { $0 } }

    /// The representative of `x`'s set. Amortised almost O(1).
    mutating func find(_ x: Int) -> Int {
        var x = x
        while Int(parent[x]) != x {
            parent[x] = parent[Int(parent[x])]
            x = Int(parent[x])
        }
        return x
    }

    /// Joins the sets of `a` and `b`.
    mutating func join(_ a: Int, _ b: Int) {
        let ra = find(a), rb = find(b)
        if ra != rb { parent[ra] = Int32(rb) }
    }
}
