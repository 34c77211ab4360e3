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
/// user, and with time the main road beats a shorter lane through a village. The heuristic is the
/// great-circle distance to the end at the mode's top speed; it is admissible, so the first time
/// the end is taken from the queue its path is the quickest.
///
/// Everything that does not depend on the leg is computed once in `init`: each edge's geodesic
/// length, each mode's edge times (infinite where the mode may not go), and the spatial index of
/// segments. A leg then costs O((V + E) log V) over the nodes A* opens, with arrays indexed by node.
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
    /// Node latitudes and longitudes in radians and the cosine of the latitude, for the heuristic.
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
        self.modes = TravelMode.allCases.map { modes.contains($0) ? ModeTable(rules: .forMode($0), graph: graph, edgeLength: length) : nil }
        latitude = graph.coordinates.map { $0.latitude * .pi / 180 }
        longitude = graph.coordinates.map { $0.longitude * .pi / 180 }
        cosLatitude = latitude.map { cos($0) }
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
        // Where a turn restriction leaves only a way round through a junction already passed, the
        // node-based search finds nothing: the edge-based one is asked then.
        guard let search = quickest(from: startSnap, to: endSnap, table: table)
                ?? (table.viaIncoming.isEmpty ? nil : quickestByEdge(from: startSnap, to: endSnap, table: table)) else {
            throw RoutingError.noRoute("No \(mode.gerund) route")
        }
        return assemble(search, from: startSnap, to: endSnap)
    }

    // MARK: - Snapping

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

    /// A* from the start snap's segment ends to the end snap's, through a virtual goal node
    /// (index `graph.count`) that the end segment's nodes reach at their partial times. A start and
    /// end on the same segment also reach the goal directly.
    ///
    /// The search is node-based except at the via nodes of the mode's turn restrictions: there a
    /// state is the node *and the edge that entered it* (index `graph.count + 1 + k` for the k-th
    /// such edge, `ModeTable.viaStates`), so a turn the restrictions forbid is not taken and a
    /// node reached the forbidden way can still be reached, later, the allowed way. From such a
    /// state, or from a node next to a via node, the search never goes straight back the way it
    /// came (OSRM allows U-turns only at dead ends). Elsewhere the state is the node alone, so a map without restrictions
    /// searches exactly as before.
    private func quickest(from s: SegmentSnap, to t: SegmentSnap, table: ModeTable) -> Found? {
        let n = graph.count
        let goal = n
        let stateCount = n + 1 + table.viaIncoming.count
        var cost = [Double](repeating: .infinity, count: stateCount)
        var parent = [Int32](repeating: -1, count: stateCount)
        var closed = [Bool](repeating: false, count: stateCount)
        var heap = MinHeap()
        let fromStart: Int32 = -2
        let heuristic = self.heuristic(to: t.coordinate, table: table)
        let viaState = table.viaState
        let viaIncoming = table.viaIncoming
        func node(ofState state: Int) -> Int { state <= n ? state : Int(edgeTarget[Int(viaIncoming[state - n - 1])]) }
        /// The state entered by taking edge `e`.
        func state(after e: Int) -> Int {
            let k = viaState.isEmpty ? -1 : Int(viaState[e])
            return k < 0 ? Int(edgeTarget[e]) : n + 1 + k
        }
        func open(_ state: Int, _ g: Double, from p: Int32) {
            guard g < cost[state] else { return }
            cost[state] = g
            parent[state] = p
            heap.push(g + (state == goal ? 0 : heuristic(node(ofState: state))), Int32(state))
        }
        let ends = self.ends(from: s, to: t, table: table)
        if let direct = ends.direct { open(goal, direct, from: fromStart) }
        for (e, time) in ends.out { open(state(after: e), time, from: fromStart) }
        let (fromGoalSegmentStart, fromGoalSegmentEnd) = (ends.fromGoalSegmentStart, ends.fromGoalSegmentEnd)
        let seconds = table.edgeSeconds
        let vehicles = table.vehicles
        while let (_, item) = heap.pop() {
            let current = Int(item)
            if closed[current] { continue }
            closed[current] = true
            if current == goal { break }
            let g = cost[current]
            if current < n {
                for e in Int(edgeStart[current])..<Int(edgeStart[current + 1]) {
                    let step = seconds[e]
                    guard step.isFinite else { continue }
                    let next = state(after: e)
                    guard !closed[next] else { continue }
                    // Back to the node one came from, into a via state (any other is closed): a
                    // U-turn in the road, allowed only at a dead end.
                    if next > n, parent[current] >= 0, node(ofState: Int(parent[current])) == Int(edgeTarget[e]),
                       !isDeadEnd(current, from: Int(edgeTarget[e]), along: nil, seconds: seconds) { continue }
                    open(next, g + step, from: item)
                }
                if current == t.from, let last = fromGoalSegmentStart { open(goal, g + last, from: item) }
                if current == t.to, let last = fromGoalSegmentEnd { open(goal, g + last, from: item) }
            } else {
                // At a via node, entered by edge `incoming` from node `behind` along way `inWay`.
                let incoming = Int(viaIncoming[current - n - 1])
                let here = Int(edgeTarget[incoming]), inWay = edgeWay[incoming]
                let behind = Int(edgeSource[incoming])
                for e in Int(edgeStart[here])..<Int(edgeStart[here + 1]) {
                    let step = seconds[e]
                    guard step.isFinite, !(Int(edgeTarget[e]) == behind && edgeWay[e] == inWay),
                          graph.allowsTurn(fromWay: Int(inWay), at: here, toWay: Int(edgeWay[e]), for: vehicles) else { continue }
                    let next = state(after: e)
                    if !closed[next] { open(next, g + step, from: item) }
                }
                if here == t.from, let last = fromGoalSegmentStart,
                   graph.allowsTurn(fromWay: Int(inWay), at: here, toWay: t.way, for: vehicles) { open(goal, g + last, from: item) }
                if here == t.to, let last = fromGoalSegmentEnd,
                   graph.allowsTurn(fromWay: Int(inWay), at: here, toWay: t.way, for: vehicles) { open(goal, g + last, from: item) }
            }
        }
        guard closed[goal] else { return nil }
        var nodes: [Int] = []
        var current = parent[goal]
        while current != fromStart {
            nodes.append(node(ofState: Int(current)))
            current = parent[Int(current)]
        }
        return Found(nodes: nodes.reversed(), seconds: cost[goal])
    }

    /// Whether the mode can leave `node`, come from `behind` along `way`, only the way it came: no edge
    /// the mode may take (`seconds` finite) leads anywhere else. A footpath or a one-way road coming
    /// in does not make a way out, so a road ending there is a dead end, where one may turn back
    /// (as OSRM's car graph, which holds only the roads a car may take). O(degree).
    /// With `way` nil, any way back to `behind` is the way one came.
    private func isDeadEnd(_ node: Int, from behind: Int, along way: Int?, seconds: [TimeInterval]) -> Bool {
        !(Int(edgeStart[node])..<Int(edgeStart[node + 1])).contains { e in
            seconds[e].isFinite && !(Int(edgeTarget[e]) == behind && (way == nil || Int(edgeWay[e]) == way))
        }
    }

    /// Where a search starts and ends: the seconds straight to the end when start and end lie on one
    /// segment (in the right direction), the start segment's edges out with the seconds to their
    /// ends, and the seconds from either end of the end segment to the end.
    private func ends(from s: SegmentSnap, to t: SegmentSnap, table: ModeTable)
        -> (direct: Double?, out: [(edge: Int, seconds: Double)], fromGoalSegmentStart: Double?, fromGoalSegmentEnd: Double?) {
        let direct = s.from == t.from && s.to == t.to && s.way == t.way ? partial(s, from: s.fraction, to: t.fraction, table: table) : nil
        var out: [(edge: Int, seconds: Double)] = []
        if let toEnd = partial(s, from: s.fraction, to: 1, table: table), let e = edgeIndex(from: s.from, to: s.to, way: s.way) {
            out.append((e, toEnd))
        }
        if let toStart = partial(s, from: s.fraction, to: 0, table: table), let e = edgeIndex(from: s.to, to: s.from, way: s.way) {
            out.append((e, toStart))
        }
        return (direct, out, partial(t, from: 0, to: t.fraction, table: table), partial(t, from: 1, to: t.fraction, table: table))
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

    /// A* as `quickest(from:to:table:)`, but with every state an edge (the node it enters and the way
    /// it came), as OSRM's edge-based graph: a route may pass a junction twice, in different
    /// directions. `quickest` keeps one state per node but at restricted via nodes, so where a
    /// restriction leaves only a loop that comes back through a junction already passed (turn off,
    /// round the block, back through the same crossing towards the forbidden road's far side), it
    /// finds no route; this search, over about twice as many states, is asked then. Turn restrictions
    /// bind at their via nodes; nowhere does the route go straight back the way it came but at a
    /// dead end (as OSRM's car profile).
    private func quickestByEdge(from s: SegmentSnap, to t: SegmentSnap, table: ModeTable) -> Found? {
        let edges = edgeTarget.count
        let goal = edges
        var cost = [Double](repeating: .infinity, count: edges + 1)
        var parent = [Int32](repeating: -1, count: edges + 1)
        var closed = [Bool](repeating: false, count: edges + 1)
        var heap = MinHeap()
        let fromStart: Int32 = -2
        let heuristic = self.heuristic(to: t.coordinate, table: table)
        let seconds = table.edgeSeconds, viaState = table.viaState, vehicles = table.vehicles
        func open(_ state: Int, _ g: Double, from p: Int32) {
            guard g < cost[state] else { return }
            cost[state] = g
            parent[state] = p
            heap.push(g + (state == goal ? 0 : heuristic(Int(edgeTarget[state]))), Int32(state))
        }
        let ends = self.ends(from: s, to: t, table: table)
        if let direct = ends.direct { open(goal, direct, from: fromStart) }
        for (e, time) in ends.out { open(e, time, from: fromStart) }
        let (fromGoalSegmentStart, fromGoalSegmentEnd) = (ends.fromGoalSegmentStart, ends.fromGoalSegmentEnd)
        while let (_, item) = heap.pop() {
            let incoming = Int(item)
            if closed[incoming] { continue }
            closed[incoming] = true
            if incoming == goal { break }
            let g = cost[incoming]
            let here = Int(edgeTarget[incoming]), behind = Int(edgeSource[incoming]), inWay = Int(edgeWay[incoming])
            let restricted = !viaState.isEmpty && viaState[incoming] >= 0
            /// Whether the route may leave `here` along `way` towards `next`.
            func may(_ way: Int, towards next: Int) -> Bool {
                if next == behind && way == inWay && !isDeadEnd(here, from: behind, along: inWay, seconds: seconds) { return false }
                return !restricted || graph.allowsTurn(fromWay: inWay, at: here, toWay: way, for: vehicles)
            }
            for e in Int(edgeStart[here])..<Int(edgeStart[here + 1]) where seconds[e].isFinite && !closed[e] {
                if may(Int(edgeWay[e]), towards: Int(edgeTarget[e])) { open(e, g + seconds[e], from: item) }
            }
            if here == t.from, let last = fromGoalSegmentStart, may(t.way, towards: t.to) { open(goal, g + last, from: item) }
            if here == t.to, let last = fromGoalSegmentEnd, may(t.way, towards: t.from) { open(goal, g + last, from: item) }
        }
        guard closed[goal] else { return nil }
        var nodes: [Int] = []
        var current = parent[goal]
        while current != fromStart {
            nodes.append(Int(edgeTarget[Int(current)]))
            current = parent[Int(current)]
        }
        return Found(nodes: nodes.reversed(), seconds: cost[goal])
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

/// One mode's view of the graph: speed on each way (0 where the mode may not go) and time on each
/// directed edge (infinite where it may not go that way).
private struct ModeTable: Sendable {
    let rules: TravelRules
    /// The vehicles whose turn restrictions bind the mode (none for walking).
    let vehicles: RestrictedVehicles
    /// By edge index: k when the edge enters a via node of a restriction binding the mode (the
    /// k-th such edge, `viaIncoming[k]`), −1 otherwise; empty when the mode meets no restriction.
    let viaState: [Int32]
    /// The edges that enter a restricted via node, each a search state of its own.
    let viaIncoming: [Int32]
    /// m/s by way index; 0 when closed to the mode.
    let waySpeed: [MetresPerSecond]
    /// Seconds by edge index; infinite when the mode may not take the edge.
    let edgeSeconds: [TimeInterval]
    /// By way index: the way belongs to the mode's largest connected network. An extract holds
    /// islands (a car park, a clipped track) that a point may lie nearest to; snapping onto one
    /// gives "no route" where the rider obviously has one, so snapping prefers the main network,
    /// as OSRM does with its big components.
    let wayInMainNetwork: [Bool]

    init(rules: TravelRules, graph: RoadGraph, edgeLength: [Metres]) {
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
        var viaState: [Int32] = []
        var viaIncoming: [Int32] = []
        let restricted = graph.turnRestrictions.viaNodes.filter { graph.turnRestrictions.restricts($0, for: vehicles) }
        if !restricted.isEmpty {
            viaState = [Int32](repeating: -1, count: graph.edgeCount)
            let isVia = Set(restricted)
            for node in 0..<graph.count {
                for e in graph.edgeIndices(from: node) where isVia.contains(graph.edge(at: e).target) {
                    viaState[e] = Int32(viaIncoming.count)
                    viaIncoming.append(Int32(e))
                }
            }
        }
        self.viaState = viaState
        self.viaIncoming = viaIncoming
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
