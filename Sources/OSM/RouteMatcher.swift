import Foundation
import Geo

/// A route laid onto the road graph: the stretches that follow roads, as node paths with their
/// geometry, and the stretches of the input that no road explains.
public struct MatchedRoute: Sendable, Equatable {
    /// One unbroken stretch of the route along the graph.
    public struct Piece: Sendable, Equatable {
        /// Graph nodes passed, in order of travel (consecutive nodes are neighbours in the graph).
        public var nodes: [Int]
        /// The graph geometry along the stretch: the node coordinates, starting and ending at the
        /// matched points when the stretch begins or ends between nodes.
        public var line: [Coordinate]
        /// Distance along `line` at each of `nodes`, in metres. A stretch that begins or ends between
        /// nodes (a GPS track; a routed line whose router snapped its ends onto a road) has as first
        /// node the one behind the start (a negative distance) and as last the one ahead of the end
        /// (beyond the line's length), so the first and last nodes passed can be junctions; a
        /// stretch that begins or ends at a node (within GPS noise) begins or ends with that node.
        public var nodeDistances: [Metres]
        /// Distance along the input route, in metres, where the stretch begins.
        public var inputStartDistance: Metres
        /// Distance along the input route, in metres, where the stretch ends.
        public var inputEndDistance: Metres

        public init(nodes: [Int], line: [Coordinate], nodeDistances: [Metres], inputStartDistance: Metres,
                    inputEndDistance: Metres) {
            self.nodes = nodes
            self.line = line
            self.nodeDistances = nodeDistances
            self.inputStartDistance = inputStartDistance
            self.inputEndDistance = inputEndDistance
        }
    }

    /// The matched stretches, in order along the input.
    public var pieces: [Piece]
    /// Stretches of the input route, as distances along it in metres, left open: no road lies
    /// near enough, or no road joins the stretches either side.
    public var unmatched: [ClosedRange<Metres>]

    public init(pieces: [Piece], unmatched: [ClosedRange<Metres>]) {
        self.pieces = pieces
        self.unmatched = unmatched
    }

    /// Every piece's nodes, joined; where the match was broken, consecutive nodes need not be neighbours.
    public var nodes: [Int] { pieces.flatMap(\.nodes) }
    /// Every piece's line, joined; where the match was broken the line jumps.
    public var line: [Coordinate] { pieces.flatMap(\.line) }
}

/// Lays a route onto a `RoadGraph`.
///
/// Two methods, chosen by `match(_:)` from how the route's vertices sit on the graph:
/// - **On nodes.** A route computed over the same extract (OSRM, Valhalla or the embedded router)
///   or a book's own road legs has its vertices on graph nodes. Each vertex is snapped to the node
///   at the same place and any gap is filled with a bounded shortest path (Dijkstra 1959).
/// - **Hidden Markov model.** A recorded GPS track is matched after Newson & Krumm, "Hidden Markov
///   Map Matching Through Noise and Sparseness" (ACM SIGSPATIAL GIS 2009): the track is resampled,
///   every sample gets candidate points on the roads within a search radius, emission
///   probabilities fall off as a Gaussian of the distance to the road, transition probabilities
///   as an exponential of the difference between the route distance on the graph and the
///   great-circle distance, and the Viterbi algorithm picks the most likely sequence. The chain
///   breaks and restarts where a sample has no candidate or no candidate can be reached.
public struct RouteMatcher: Sendable {
    /// Thresholds of route matching, each with its reason.
    public struct Configuration: Sendable, Equatable {
        /// A vertex this close to a node is on it. Routers write node coordinates rounded to 5–7
        /// decimals (about 1 m at 5); 2 m covers that and nothing a map would draw as separate.
        public var snapTolerance: Metres = 2
        /// `match(_:)` matches on nodes when at least this share of the vertices snap to a node;
        /// a GPS track almost never has a fix within 2 m of a node, a routed line almost always does.
        public var nodeRouteShare: Double = 0.8
        /// A gap between snapped vertices is filled by a path at most this many times the input's
        /// own length over the gap (plus `gapSlack`): longer means the input took a road the graph
        /// lacks, and the match is left open rather than invented.
        public var gapDetourFactor: Double = 1.5
        /// Added to the bound of a gap fill, so short gaps around a block still fill.
        public var gapSlack: Metres = 50
        /// The track is resampled to this spacing before HMM matching: Newson & Krumm found that
        /// samples closer than a few σ add noise, not information, and sparse samples lose turns;
        /// 25 m keeps every junction of a mountain road.
        public var sampleSpacing: Metres = 25
        /// Roads farther than this from a sample are not candidates. Newson & Krumm used 200 m for
        /// σ = 4 m; consumer GPS under trees rarely strays past 40 m, and a wider radius
        /// matches tracks that leave the road onto the nearest road.
        public var searchRadius: Metres = 40
        /// At most this many candidates per sample, closest first (bounds Viterbi to k² per step).
        public var maximumCandidates: Int = 8
        /// Standard deviation of GPS noise in metres (Newson & Krumm measured 4.07 m; consumer
        /// units in mountains see 5–10 m).
        public var gpsSigma: Metres = 7
        /// Scale of the exponential transition probability in metres: how much route distance may
        /// exceed the straight distance between samples before a path becomes unlikely. Newson &
        /// Krumm fit β from the median difference; a few metres at 25 m spacing.
        public var transitionBeta: Metres = 5
        /// A transition's route distance is searched up to this many times the straight distance
        /// between samples (plus twice the search radius); beyond it the path is impossible.
        public var transitionBoundFactor: Double = 3
        /// An input segment longer than this is a gap in the recording (tunnel, lost fix): the
        /// match breaks there and restarts, as Newson & Krumm break on gaps.
        public var gapLength: Metres = 300
        /// Whether paths between matched points respect one-way tags. Off by default: the route's
        /// line says where the route goes (a closed rally stage, a track recorded against the flow,
        /// a route reversed by hand), and forcing the flow would send it round a roundabout's ring
        /// again and again to reach the next point the wrong way.
        public var respectOneway: Bool = false
        /// Without `respectOneway`, travel against a one-way road costs this many times its length
        /// in a transition (so 10 m the wrong way count as 30 m). A noisy fix beside a divided road
        /// or a roundabout lies as near the wrong carriageway or lane as the right one; a path the
        /// wrong way along it is then less likely than the lawful one, yet still possible where the
        /// track really went against the flow (a closed stage, a track reversed by hand).
        public var wrongWayFactor: Double = 3
        /// The vehicles whose turn restrictions transition paths honour: road books are driven, and
        /// a car's restrictions bind every vehicle but a few (`except=bicycle`). Empty ignores them.
        public var restrictedVehicles: RestrictedVehicles = .motorcar
        /// Metres added to a transition path for a turn a restriction forbids: with `transitionBeta`
        /// 5 m that makes it e⁻²⁰ less likely, so only a track that plainly took the turn keeps it.
        public var restrictedTurnPenalty: Metres = 100
        /// A matched path that leaves its first point, goes at most this far, then turns straight back
        /// past that point (or comes back to its last point the same way) is a first or last fix
        /// beyond where the vehicle was, not a U-turn: the loop is cut. A few GPS σ; a real U-turn at
        /// a track's end runs further.
        public var endTurnBackLength: Metres = 30

        public init() {}

        /// The path-search rules these values make.
        var searchRules: GraphSearch.Rules {
            GraphSearch.Rules(respectOneway: respectOneway, wrongWayFactor: wrongWayFactor, vehicles: restrictedVehicles,
                              restrictedTurnPenalty: restrictedTurnPenalty)
        }
    }

    public let graph: RoadGraph
    public let configuration: Configuration
    let search: GraphSearch

    /// Indexes the graph for matching. O(nodes + segments).
    public init(graph: RoadGraph, configuration: Configuration = Configuration()) {
        self.graph = graph
        self.configuration = configuration
        search = GraphSearch(graph: graph, cellSize: max(configuration.searchRadius, 25))
    }

    /// Matches `route` on nodes when most of its vertices sit on graph nodes, and with the HMM otherwise.
    public func match(_ route: [Coordinate]) -> MatchedRoute {
        guard !route.isEmpty else { return MatchedRoute(pieces: [], unmatched: []) }
        let snapped = route.filter { search.nearestNode(to: $0, within: configuration.snapTolerance) != nil }.count
        return Double(snapped) >= configuration.nodeRouteShare * Double(route.count)
            ? matchOnNodes(route) : matchTrack(route)
    }

    // MARK: On nodes

    /// Snaps each vertex of a routed line to the node at the same place (within `snapTolerance`)
    /// and fills the gaps between snapped vertices with bounded shortest paths. Vertices that snap
    /// nowhere are skipped when a path explains them; a gap no path of plausible length fills is
    /// left unmatched. O(vertices) lookups plus one bounded Dijkstra per gap.
    public func matchOnNodes(_ route: [Coordinate]) -> MatchedRoute {
        let input = Polyline(route)
        var pieces: [MatchedRoute.Piece] = []
        var unmatched: [ClosedRange<Metres>] = []
        var current: [Int] = []
        var currentStart: Metres = 0
        var lastSnapped: (node: Int, distance: Metres)?
        var firstSnapDistance: Metres?

        func finish(at end: Metres) {
            if current.count >= 2 { pieces.append(piece(nodes: current, inputStart: currentStart, inputEnd: end)) }
            current = []
        }

        for (i, vertex) in route.enumerated() {
            let along = input.cumulativeDistances[i]
            guard let hit = search.nearestNode(to: vertex, within: configuration.snapTolerance) else { continue }
            if firstSnapDistance == nil { firstSnapDistance = along }
            defer { lastSnapped = (hit.node, along) }
            guard let last = lastSnapped else {
                current = [hit.node]
                currentStart = along
                continue
            }
            if hit.node == last.node { continue }
            let gap = along - last.distance
            let bound = gap * configuration.gapDetourFactor + configuration.gapSlack
            let paths = search.shortestPaths(from: [(last.node, 0, nil)], bound: bound, rules: configuration.searchRules,
                                             targets: [hit.node])
            if let best = paths.best(at: hit.node, into: nil, in: graph, rules: configuration.searchRules) {
                current.append(contentsOf: paths.path(toState: best.key, in: graph).dropFirst())
            } else {
                finish(at: last.distance)
                unmatched.append(last.distance...along)
                current = [hit.node]
                currentStart = along
            }
        }
        let end = lastSnapped?.distance ?? 0
        finish(at: end)
        // A routed line starts and ends where its router snapped the handles, between nodes: the
        // road it starts on leads to its first node, the one it ends on from its last. Adding the
        // node behind the start and the one ahead of the end (as the HMM's pieces have) lets the
        // first and last nodes passed be junctions.
        if let first = firstSnapDistance, first > 0, !pieces.isEmpty,
           let behind = neighbour(of: pieces[0].nodes[0], toward: route[0], avoiding: pieces[0].nodes[1]) {
            pieces[0].nodes.insert(behind, at: 0)
            pieces[0].nodeDistances.insert(-graph.coordinates[behind].distance(to: graph.coordinates[pieces[0].nodes[1]]), at: 0)
        }
        if end < input.length, let lastPiece = pieces.last, lastPiece.nodes.count >= 2,
           let ahead = neighbour(of: lastPiece.nodes[lastPiece.nodes.count - 1], toward: route[route.count - 1],
                                 avoiding: lastPiece.nodes[lastPiece.nodes.count - 2]) {
            let k = pieces.count - 1
            pieces[k].nodeDistances.append(pieces[k].nodeDistances.last! + graph.coordinates[ahead].distance(to: graph.coordinates[pieces[k].nodes.last!]))
            pieces[k].nodes.append(ahead)
        }
        if let first = firstSnapDistance, first > 0 { unmatched.insert(0...first, at: 0) }
        if route.count >= 2 && end < input.length { unmatched.append(end...input.length) }
        if firstSnapDistance == nil && route.count >= 2 { unmatched = [0...input.length] }
        return MatchedRoute(pieces: pieces, unmatched: unmatched)
    }

    /// The neighbour `n` of `node` such that `point` lies along the segment from `node` to `n`
    /// (projecting inside it, within `searchRadius`), the nearest such; nil when none does or it
    /// would be `avoiding` (the route's own next node: the point is not beyond `node`).
    private func neighbour(of node: Int, toward point: Coordinate, avoiding: Int) -> Int? {
        let frame = LocalFrame(origin: point)
        let a = frame.project(graph.coordinates[node])
        var best: (node: Int, offset: Metres)?
        for edge in graph.edges(from: node) {
            let b = frame.project(graph.coordinates[edge.target])
            let dx = b.x - a.x, dy = b.y - a.y
            let l2 = dx * dx + dy * dy
            guard l2 > 0 else { continue }
            let t = -(a.x * dx + a.y * dy) / l2
            guard t > 0, t <= 1 else { continue }
            let x = a.x + t * dx, y = a.y + t * dy
            let offset = (x * x + y * y).squareRoot()
            if offset <= configuration.searchRadius && offset < (best?.offset ?? .infinity) { best = (edge.target, offset) }
        }
        guard let best, best.node != avoiding else { return nil }
        return best.node
    }

    private func piece(nodes: [Int], inputStart: Metres, inputEnd: Metres) -> MatchedRoute.Piece {
        let line = nodes.map { graph.coordinates[$0] }
        return MatchedRoute.Piece(nodes: nodes, line: line, nodeDistances: Polyline(line).cumulativeDistances,
                                  inputStartDistance: inputStart, inputEndDistance: inputEnd)
    }

    // MARK: Hidden Markov model

    /// A possible true position of a sample: its projection onto one road segment.
    struct Candidate {
        var segment: GraphSearch.Segment
        /// Fraction along the segment from `segment.from`, in [0, 1].
        var fraction: Double
        var point: Coordinate
        /// Distance from the sample to `point`, metres.
        var offset: Metres
        /// Length of the segment, metres.
        var segmentLength: Metres
    }

    /// Matches a recorded GPS track with the HMM of Newson & Krumm (2009); see the type's summary.
    /// O(samples × k × bounded Dijkstra) for k candidates per sample.
    public func matchTrack(_ track: [Coordinate]) -> MatchedRoute {
        let input = Polyline(track)
        guard track.count >= 2 else { return MatchedRoute(pieces: [], unmatched: []) }
        var pieces: [MatchedRoute.Piece] = []
        var unmatched: [ClosedRange<Metres>] = []
        // Split at recording gaps, then resample each part.
        var partStart = 0
        for i in 0..<input.segmentCount where input.segmentLength(i) > configuration.gapLength || i == input.segmentCount - 1 {
            let isGap = input.segmentLength(i) > configuration.gapLength
            let partEnd = isGap ? i : i + 1
            if partEnd > partStart {
                matchPart(input, from: input.cumulativeDistances[partStart], to: input.cumulativeDistances[partEnd],
                          pieces: &pieces, unmatched: &unmatched)
            }
            if isGap { unmatched.append(input.cumulativeDistances[i]...input.cumulativeDistances[i + 1]) }
            partStart = i + 1
        }
        return MatchedRoute(pieces: pieces, unmatched: merged(unmatched))
    }

    private func matchPart(_ input: Polyline, from start: Metres, to end: Metres,
                           pieces: inout [MatchedRoute.Piece], unmatched: inout [ClosedRange<Metres>]) {
        var distances: [Metres] = []
        var d = start
        while d < end { distances.append(d); d += configuration.sampleSpacing }
        distances.append(end)
        let samples = distances.map { input.coordinate(atDistance: $0) }
        let candidates = samples.map(candidates(for:))

        // Viterbi over the chain, broken where a sample has no candidate or none can be reached.
        var scores: [Double] = []
        var back: [[Int]] = []          // back[k][j]: best predecessor of candidate j at chain step k
        var chain: [Int] = []           // sample indices in the current chain
        func close() {
            guard let last = chain.last, !chain.isEmpty, let best = scores.indices.max(by: { scores[$0] < scores[$1] }) else {
                chain = []; return
            }
            var picks = [best]
            for k in stride(from: chain.count - 1, to: 0, by: -1) { picks.append(back[k][picks.last!]) }
            picks.reverse()
            let chosen = zip(chain, picks).map { candidates[$0][$1] }
            if let p = assemble(chosen, inputStart: distances[chain[0]], inputEnd: distances[last]) { pieces.append(p) }
            chain = []
        }
        for (k, cands) in candidates.enumerated() {
            let emissions = cands.map { emission($0.offset) }
            if cands.isEmpty {
                close()
                let previous = k > 0 ? distances[k - 1] : distances[k]
                let next = k + 1 < distances.count ? distances[k + 1] : distances[k]
                unmatched.append(previous...next)
                continue
            }
            guard let previousSample = chain.last else {
                chain = [k]; scores = emissions; back = [Array(repeating: -1, count: cands.count)]
                continue
            }
            let straight = samples[previousSample].distance(to: samples[k])
            let previousCandidates = candidates[previousSample]
            var next = [Double](repeating: -.infinity, count: cands.count)
            var from = [Int](repeating: -1, count: cands.count)
            for (i, c) in previousCandidates.enumerated() where scores[i] > -.infinity {
                let routes = routeDistances(from: c, to: cands, straight: straight)
                for (j, route) in routes.enumerated() {
                    guard let route else { continue }
                    let score = scores[i] - abs(route - straight) / configuration.transitionBeta + emissions[j]
                    if score > next[j] { next[j] = score; from[j] = i }
                }
            }
            if next.allSatisfy({ $0 == -.infinity }) {
                close()
                unmatched.append(distances[previousSample]...distances[k])
                chain = [k]; scores = emissions; back = [Array(repeating: -1, count: cands.count)]
            } else {
                chain.append(k); scores = next; back.append(from)
            }
        }
        close()
    }

    /// Log emission probability, up to a constant: a Gaussian in the distance to the road.
    private func emission(_ offset: Metres) -> Double {
        let z = offset / configuration.gpsSigma
        return -0.5 * z * z
    }

    /// Candidates for one sample: its projection onto every segment within the search radius,
    /// closest first, at most `maximumCandidates`.
    func candidates(for sample: Coordinate) -> [Candidate] {
        let frame = LocalFrame(origin: sample)
        var found: [Candidate] = []
        for index in search.segments(near: sample, radius: configuration.searchRadius) {
            let s = search.segments[index]
            let a = graph.coordinates[s.from], b = graph.coordinates[s.to]
            let pa = frame.project(a), pb = frame.project(b)
            let dx = pb.x - pa.x, dy = pb.y - pa.y
            let l2 = dx * dx + dy * dy
            let t = l2 > 0 ? min(max(-(pa.x * dx + pa.y * dy) / l2, 0), 1) : 0
            let x = pa.x + t * dx, y = pa.y + t * dy
            let offset = (x * x + y * y).squareRoot()
            guard offset <= configuration.searchRadius else { continue }
            let point = Coordinate(latitude: a.latitude + t * (b.latitude - a.latitude),
                                   longitude: a.longitude + t * (b.longitude - a.longitude))
            found.append(Candidate(segment: s, fraction: t, point: point, offset: offset, segmentLength: l2.squareRoot()))
        }
        found.sort { $0.offset < $1.offset }
        return Array(found.prefix(configuration.maximumCandidates))
    }

    /// The ways out of a candidate to the ends of its segment, with their costs in metres and the
    /// way they run along.
    private func exits(_ c: Candidate) -> [(node: Int, cost: Metres, way: Int?)] {
        let rules = configuration.searchRules
        var result: [(node: Int, cost: Metres, way: Int?)] = []
        if let factor = search.factor(c.segment, forward: true, rules: rules) {
            result.append((c.segment.to, (1 - c.fraction) * c.segmentLength * factor, c.segment.way))
        }
        if let factor = search.factor(c.segment, forward: false, rules: rules) {
            result.append((c.segment.from, c.fraction * c.segmentLength * factor, c.segment.way))
        }
        return result
    }

    /// Route distances in metres from `c` to each target candidate, nil where none is within bound.
    /// Along one segment the distance is the plain difference whatever the one-way tag: a fix
    /// falling a few metres behind the last is noise, not a rider reversing.
    private func routeDistances(from c: Candidate, to targets: [Candidate], straight: Metres) -> [Metres?] {
        let bound = straight * configuration.transitionBoundFactor + 2 * configuration.searchRadius
        let paths = search.shortestPaths(from: exits(c), bound: bound, rules: configuration.searchRules,
                                         targets: Set(targets.flatMap { [$0.segment.from, $0.segment.to] }))
        return targets.map { t in
            if t.segment == c.segment { return abs(t.fraction - c.fraction) * c.segmentLength }
            return entry(into: t, paths: paths)?.cost
        }
    }

    /// The cheapest way into candidate `t` from a search: through the segment's start or its end,
    /// with the search state it comes from.
    private func entry(into t: Candidate, paths: ShortestPaths) -> (node: Int, cost: Metres, key: Int)? {
        let rules = configuration.searchRules
        var best: (node: Int, cost: Metres, key: Int)?
        if let reach = paths.best(at: t.segment.from, into: t.segment.way, in: graph, rules: rules),
           let factor = search.factor(t.segment, forward: true, rules: rules) {
            best = (t.segment.from, reach.cost + t.fraction * t.segmentLength * factor, reach.key)
        }
        if let reach = paths.best(at: t.segment.to, into: t.segment.way, in: graph, rules: rules),
           let factor = search.factor(t.segment, forward: false, rules: rules),
           reach.cost + (1 - t.fraction) * t.segmentLength * factor < (best?.cost ?? .infinity) {
            best = (t.segment.to, reach.cost + (1 - t.fraction) * t.segmentLength * factor, reach.key)
        }
        return best
    }

    /// Turns the chosen candidates of one chain into a piece: the nodes passed between them and
    /// the graph geometry from the first matched point to the last. The node list also holds the
    /// node behind the first point and the node ahead of the last (the ends of the segments the
    /// match begins and ends on, at distances below 0 and beyond the line's end), so the first and
    /// last nodes actually passed have a road either side and can be junctions.
    private func assemble(_ chosen: [Candidate], inputStart: Metres, inputEnd: Metres) -> MatchedRoute.Piece? {
        guard let first = chosen.first, let last = chosen.last else { return nil }
        var nodes: [Int] = []
        var firstExit: Int?, lastEntry: Int?
        // Along one segment the track may turn back: at a dead end, or at a node it went to and
        // came back from. The node it turned at joins the path (a U-turn there), so the junction
        // behind it is passed twice. A reversal needs 2σ of travel each way, and the node within
        // one sample spacing of where the track turned.
        var runDirection = 0   // +1 towards the segment's `to` node, −1 towards `from`, 0 not known
        let reversal = 2 * configuration.gpsSigma
        for (c, t) in zip(chosen, chosen.dropFirst()) {
            if c.segment == t.segment {
                let moved = (t.fraction - c.fraction) * c.segmentLength
                guard abs(moved) > reversal else { continue }
                let direction = moved > 0 ? 1 : -1
                if runDirection != 0, direction != runDirection {
                    let node = runDirection > 0 ? c.segment.to : c.segment.from
                    let short = (runDirection > 0 ? 1 - c.fraction : c.fraction) * c.segmentLength
                    if short <= configuration.sampleSpacing, nodes.last != node { nodes.append(node) }
                }
                runDirection = direction
                continue
            }
            let straight = c.point.distance(to: t.point)
            let bound = straight * configuration.transitionBoundFactor + 2 * configuration.searchRadius
            let paths = search.shortestPaths(from: exits(c), bound: bound, rules: configuration.searchRules,
                                             targets: [t.segment.from, t.segment.to])
            guard let way = entry(into: t, paths: paths) else { runDirection = 0; continue }
            let path = paths.path(toState: way.key, in: graph)
            if firstExit == nil { firstExit = path.first }
            lastEntry = way.node
            for node in path where node != nodes.last { nodes.append(node) }
            runDirection = way.node == t.segment.from ? 1 : -1
        }
        // Along a single segment, the direction of travel is the way the fraction grew.
        let forwardOnFirst = firstExit.map { $0 == first.segment.to } ?? (last.fraction >= first.fraction)
        let forwardOnLast = lastEntry.map { $0 == last.segment.from } ?? (last.fraction >= first.fraction)
        var behind = forwardOnFirst ? first.segment.from : first.segment.to
        var ahead = forwardOnLast ? last.segment.to : last.segment.from
        trimTurnBacks(&nodes, behind: &behind, ahead: &ahead, first: first.point, last: last.point)
        // A chain that starts at its first node (within GPS noise) and wanders a little way along
        // the segment away from it before leaving by that node started *at* the node: there is no
        // road behind it, and no turn there. Likewise a chain that comes back to its last node.
        let sigma = configuration.gpsSigma, limit = configuration.endTurnBackLength
        func distance(_ c: Candidate, from node: Int) -> Metres {
            (node == c.segment.to ? 1 - c.fraction : c.fraction) * c.segmentLength
        }
        var keepBehind = true, keepAhead = true
        if let exit = nodes.first, exit == first.segment.from || exit == first.segment.to {
            let onFirst = chosen.prefix { $0.segment == first.segment }.map { distance($0, from: exit) }
            let start = distance(first, from: exit)
            if start <= sigma, let farthest = onFirst.max(), farthest > start + sigma, farthest <= limit { keepBehind = false }
        }
        if let entry = nodes.last, entry == last.segment.from || entry == last.segment.to {
            let onLast = chosen.reversed().prefix { $0.segment == last.segment }.map { distance($0, from: entry) }
            let end = distance(last, from: entry)
            if end <= sigma, let farthest = onLast.max(), farthest > end + sigma, farthest <= limit { keepAhead = false }
        }

        var line = [first.point]
        var nodeDistances: [Metres] = keepBehind ? [-first.point.distance(to: graph.coordinates[behind])] : []
        var along: Metres = 0
        for node in nodes {
            let p = graph.coordinates[node]
            along += line.last!.distance(to: p)
            nodeDistances.append(along)
            if p != line.last { line.append(p) }
        }
        if last.point != line.last || line.count == 1 { line.append(last.point) }
        along += nodes.isEmpty ? first.point.distance(to: last.point) : graph.coordinates[nodes.last!].distance(to: last.point)
        if keepAhead { nodeDistances.append(along + last.point.distance(to: graph.coordinates[ahead])) }
        return MatchedRoute.Piece(nodes: (keepBehind ? [behind] : []) + nodes + (keepAhead ? [ahead] : []), line: line,
                                  nodeDistances: nodeDistances, inputStartDistance: inputStart, inputEndDistance: inputEnd)
    }

    /// Cuts a phantom U-turn at either end of a matched path (`Configuration.endTurnBackLength`):
    /// - the path runs from the first point to the near end of its segment and straight back along
    ///   the segment (`behind, n, behind`): the first fix lay beyond where the vehicle was, so the
    ///   path starts towards `behind` instead, and `n` becomes the node behind;
    /// - the path runs from its first node to a neighbour and back (`a, y, a`): the excursion goes;
    /// and the same at the last point. Only excursions within `endTurnBackLength` of the end are cut.
    /// (A chain that wanders along its first or last segment and comes back to the node it leaves
    /// or ends by is handled in `assemble`: it starts or ends at that node.)
    private func trimTurnBacks(_ nodes: inout [Int], behind: inout Int, ahead: inout Int, first: Coordinate, last: Coordinate) {
        let limit = configuration.endTurnBackLength
        func at(_ node: Int) -> Coordinate { graph.coordinates[node] }
        // One node, reached along the segment and left back along it: the vehicle did not get there.
        if nodes.count == 1, behind == ahead {
            if first.distance(to: at(nodes[0])) <= limit {
                behind = nodes.removeFirst()
            } else if last.distance(to: at(nodes[0])) <= limit {
                ahead = nodes.removeFirst()
            }
            return
        }
        while !nodes.isEmpty {
            if nodes.count >= 2, nodes[1] == behind, first.distance(to: at(nodes[0])) <= limit {
                behind = nodes.removeFirst()
            } else if nodes.count >= 3, nodes[0] == nodes[2],
                      first.distance(to: at(nodes[0])) + at(nodes[0]).distance(to: at(nodes[1])) <= limit {
                nodes.removeFirst(2)
            } else {
                break
            }
        }
        while !nodes.isEmpty {
            let n = nodes.count
            if n >= 2, nodes[n - 2] == ahead, last.distance(to: at(nodes[n - 1])) <= limit {
                ahead = nodes.removeLast()
            } else if n >= 3, nodes[n - 1] == nodes[n - 3],
                      last.distance(to: at(nodes[n - 1])) + at(nodes[n - 1]).distance(to: at(nodes[n - 2])) <= limit {
                nodes.removeLast(2)
            } else {
                break
            }
        }
    }

    /// Sorts ranges and joins the ones that touch or overlap.
    private func merged(_ ranges: [ClosedRange<Metres>]) -> [ClosedRange<Metres>] {
        var result: [ClosedRange<Metres>] = []
        for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, r.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                result.append(r)
            }
        }
        return result
    }
}
