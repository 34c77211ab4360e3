import Foundation
import Geo
import Model

/// Where a recorded track stands still, and the track with each such place read as one.
///
/// A receiver left running while the rider waits (at a checkpoint, a junction, a fuel stop) goes on
/// logging fixes that wander about the spot by its jitter. Read as a line, those fixes are metres
/// of zig-zag in place: every stop lengthens the route by tens or hundreds of metres, so every row
/// after it is printed that much too far, and its tangle can look like a turn.
///
/// The track is walked once: a group gathers consecutive fixes that stay within `radius` of its
/// first fix. A group of at least `minimumFixes` fixes whose path is at least `minimumPath` long is
/// standing still, as no vehicle moving through a circle of `radius` goes further than its
/// diameter in it; it becomes its first fix, the mean of its fixes and its last fix, so the route
/// still comes in and leaves as the rider did. Any other group is kept as it is: a walker or a
/// bicycle crawling uphill moves on through the circle; a drawn line has no such tangle; a run of
/// identical fixes has no path.
public struct StandingStill: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Metres a stop's fixes stay within from its first fix: a receiver's jitter of a metre or
        /// two, and its slow drift over a minute or so.
        public var radius: Metres = 8
        /// The least number of fixes a stop has: ten seconds at a fix a second.
        public var minimumFixes = 10
        /// The least path, in metres, a stop's fixes trace: twice the circle's diameter, so a
        /// vehicle passing through it (at most a diameter), turning about in it on a narrow road,
        /// or a painted mini-roundabout of 4 m radius (25 m round) are not taken for one.
        public var minimumPath: Metres = 32

        public init() {}
    }

    /// One place where the track stands still.
    public struct Stop: Sendable, Equatable {
        /// Its first and last fix, as indices of the track.
        public var first: Int, last: Int
        /// The mean of its fixes.
        public var coordinate: Coordinate
        /// How far along the track, in metres, its first fix is.
        public var distanceAlong: Metres
        /// The length of track, in metres, between its first and last fix, and how much of it the
        /// route no longer has.
        public var path: Metres, removed: Metres
    }

    public var configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// `points` with each stop read as its first fix, the mean of its fixes and its last fix, and
    /// the stops found. O(points.count).
    public func collapsed(_ points: [RoutePoint]) -> (points: [RoutePoint], stops: [Stop]) {
        let c = configuration
        var result: [RoutePoint] = []
        result.reserveCapacity(points.count)
        var stops: [Stop] = []
        var along: Metres = 0
        func distance(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Metres {
            ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        }
        for run in runsNearTheirFirst(points.count, radius: c.radius, { points[$0].coordinate }) {
            // Within a few metres of the group's first fix, distances in its plane are the ellipsoid's
            // to well under a millimetre.
            let frame = LocalFrame(origin: points[run.lowerBound].coordinate)
            let offsets = run.map { frame.project(points[$0].coordinate) }
            let path = zip(offsets, offsets.dropFirst()).reduce(0) { $0 + distance($1.0, $1.1) }
            if run.count >= c.minimumFixes, path >= c.minimumPath {
                let n = Double(run.count)
                let centre = (x: offsets.reduce(0) { $0 + $1.x } / n, y: offsets.reduce(0) { $0 + $1.y } / n)
                let heights = points[run].compactMap(\.elevation)
                let mean = RoutePoint(coordinate: frame.unproject(x: centre.x, y: centre.y),
                                      elevation: heights.isEmpty ? nil : heights.reduce(0, +) / Double(heights.count))
                let kept = distance(offsets[0], centre) + distance(centre, offsets[offsets.count - 1])
                stops.append(Stop(first: run.lowerBound, last: run.upperBound, coordinate: mean.coordinate, distanceAlong: along,
                                  path: path, removed: max(0, path - kept)))
                result.append(points[run.lowerBound])
                result.append(mean)
                result.append(points[run.upperBound])
            } else {
                result.append(contentsOf: points[run])
            }
            along += path
            // The next group starts after this one's last fix (in this group's plane: only the stops'
            // distances along the track, for the notice, come from it).
            if run.upperBound + 1 < points.count {
                along += distance(offsets[offsets.count - 1], frame.project(points[run.upperBound + 1].coordinate))
            }
        }
        return (result, stops)
    }
}
