import Foundation
import Geo

/// Where one note lies on the route.
public struct NoteLocation: Sendable, Equatable {
    /// The chosen place on the route. For an off-route note, the nearest place.
    public var position: RoutePosition
    /// False when the note is farther than the off-route distance from every part of the route.
    public var isOnRoute: Bool
    /// How many separate passes of the route come within the off-route distance (2 for a note on an
    /// out-and-back road, for example). 0 for an off-route note.
    public var passes: Int

    /// Distance along the route in metres.
    public var distanceAlong: Metres { position.distanceAlong }
    /// Signed distance from the route in metres (positive to the right).
    public var offsetFromRoute: Metres { position.offsetFromRoute }
}

/// Places notes by distance along a route.
///
/// A route may pass the same place more than once (out-and-back, loop, figure-eight). Every pass
/// within `offRouteDistance` is a candidate; the candidates are chosen for all notes at once so
/// that, taken in file order, the distance goes back as few times as possible, and among equal
/// orders the notes sit as close to the route as possible, then as early as possible (dynamic
/// programming over the candidates, O(notes × passes²)).
public struct NoteLocator: Sendable {
    /// Thresholds of the locating stage, each with its reason.
    public struct Configuration: Sendable {
        /// A note farther than this from the route is off it (metres).
        public var offRouteDistance: Metres
        /// Two stretches of route closer together than this along the route (metres) are one pass:
        /// a bend hugging a note must not count as two visits.
        public var samePassGap: Metres
        /// A step back shorter than this (metres) is measurement noise, not a change of order.
        public var orderTolerance: Metres
        /// Metres of offset that one metre further along the route costs: when two passes keep the
        /// order and lie equally close, the note belongs to the first one the rider reaches.
        /// Small enough (0.1 m per km) never to outweigh a real difference in offset.
        public var laterPassCost: Double = 1e-4

        public init(offRouteDistance: Metres = 50, samePassGap: Metres? = nil, orderTolerance: Metres = 1) {
            self.offRouteDistance = offRouteDistance
            self.samePassGap = samePassGap ?? 2 * offRouteDistance
            self.orderTolerance = orderTolerance
        }
    }

    public let index: PolylineIndex
    public let configuration: Configuration

    /// - Parameter index: the route, indexed. Build it once per route and reuse it.
    public init(index: PolylineIndex, configuration: Configuration = Configuration()) {
        self.index = index
        self.configuration = configuration
    }

    public init(route: Polyline, configuration: Configuration = Configuration()) {
        self.init(index: PolylineIndex(route, cellSize: max(configuration.offRouteDistance, 25)),
                  configuration: configuration)
    }

    /// Every separate pass of the route within the off-route distance of `point`, each at its
    /// closest place, in order along the route.
    public func passes(near point: Coordinate) -> [RoutePosition] {
        let route = index.polyline
        let limit = configuration.offRouteDistance
        let frame = LocalFrame(origin: point)
        // Segments within the limit (planar test with a small margin, exact offset afterwards).
        var near: [(segment: Int, distance: Double)] = []
        for s in index.segments(near: point, radius: limit) {
            let d = frame.distanceSquaredToSegment(route.coordinates[s], route.coordinates[s + 1]).squareRoot()
            if d <= limit * 1.001 + 0.01 { near.append((s, d)) }
        }
        guard !near.isEmpty else { return [] }
        // Group into passes: consecutive segments, or gaps shorter than `samePassGap` along the route.
        var result: [RoutePosition] = []
        var best = near[0]
        var lastSegment = near[0].segment
        func flush() {
            let p = route.project(point, ontoSegment: best.segment)
            if abs(p.offsetFromRoute) <= limit { result.append(p) }
        }
        for item in near.dropFirst() {
            let gap = route.cumulativeDistances[item.segment] - route.cumulativeDistances[lastSegment + 1]
            if gap > configuration.samePassGap {
                flush()
                best = item
            } else if item.distance < best.distance {
                best = item
            }
            lastSegment = item.segment
        }
        flush()
        return result
    }

    /// Locates each point, keeping file order where the route allows it.
    /// - Parameter points: the notes' coordinates, in file order.
    /// - Returns: one location per point, in the same order.
    public func locate(_ points: [Coordinate]) -> [NoteLocation] {
        let candidates = points.map { passes(near: $0) }
        let choice = chooseInOrder(candidates)
        return points.indices.map { i in
            if let c = choice[i] {
                return NoteLocation(position: candidates[i][c], isOnRoute: true, passes: candidates[i].count)
            }
            let nearest = index.position(closestTo: points[i])
                ?? RoutePosition(segmentIndex: 0, fraction: 0, distanceAlong: 0, offsetFromRoute: 0, coordinate: points[i])
            return NoteLocation(position: nearest, isOnRoute: false, passes: 0)
        }
    }

    /// Picks one candidate per note (nil where there is none) minimising first the number of steps
    /// back along the route between consecutive located notes, then the sum of offsets.
    func chooseInOrder(_ candidates: [[RoutePosition]]) -> [Int?] {
        let tolerance = configuration.orderTolerance
        // Cost of a step back: larger than any possible sum of offsets.
        let stepBack = Double(candidates.count + 1) * (configuration.offRouteDistance + 1) * 4
        var cost: [[Double]] = []
        var from: [[Int]] = []
        var previousNote: Int? = nil
        var predecessor = [Int?](repeating: nil, count: candidates.count)
        cost.reserveCapacity(candidates.count)
        from.reserveCapacity(candidates.count)
        for (i, options) in candidates.enumerated() {
            var row = [Double](repeating: 0, count: options.count)
            var back = [Int](repeating: -1, count: options.count)
            for (c, option) in options.enumerated() {
                let own = abs(option.offsetFromRoute) + configuration.laterPassCost * option.distanceAlong
                guard let p = previousNote else { row[c] = own; continue }
                var bestCost = Double.infinity, bestFrom = 0
                for (k, previous) in candidates[p].enumerated() {
                    let jump = option.distanceAlong < previous.distanceAlong - tolerance ? stepBack : 0
                    let total = cost[p][k] + jump
                    if total < bestCost { bestCost = total; bestFrom = k }
                }
                row[c] = bestCost + own
                back[c] = bestFrom
            }
            cost.append(row)
            from.append(back)
            predecessor[i] = previousNote
            if !options.isEmpty { previousNote = i }
        }
        // Walk back from the cheapest final choice.
        var choice = [Int?](repeating: nil, count: candidates.count)
        guard let last = previousNote else { return choice }
        var c = cost[last].indices.min { cost[last][$0] < cost[last][$1] }!
        var i = last
        while true {
            choice[i] = c
            let k = from[i][c]
            guard k >= 0, let p = predecessor[i] else { break }
            c = k
            i = p
        }
        return choice
    }
}
