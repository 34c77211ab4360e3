import Foundation
import Geo
import Model

/// Places junctions found on a road map at their distance along the book's own route.
///
/// A junction's first distance is measured along the road the route was matched onto. The book's
/// route is the recorded track, and the two part ways wherever the track is not the road: across a
/// GPS gap (a tunnel, where the track jumps and the road winds), or where the track is noisy.
/// Measured along the road, every later junction would then stand metres to hundreds of metres
/// from where the rider's odometer reads it. Each junction is therefore projected onto the route:
/// of the places where the route passes within `searchRadius` of it, at or after the previous
/// junction, the one nearest its road distance (a route that passes twice, out and back, has two).
public enum JunctionPlacement {
    /// Thresholds of placement, each with its reason.
    public struct Configuration: Sendable, Equatable {
        /// The route passes a junction when it comes this close: a recorded track lies within a few
        /// metres of the road with 3–5 m of GPS noise; 60 m also covers a track cutting a bend.
        public var searchRadius: Metres = 60
        /// Passes this close are on the junction; farther ones are taken only when there is none.
        public var onJunction: Metres = 15
        /// A junction may stand this much before the previous one (two nodes of one place).
        public var backTolerance: Metres = 20

        public init() {}
    }

    /// The junctions with `distanceAlong` measured along `route`, in the same order (each at least
    /// the previous one's distance). A junction the route never passes keeps its road distance.
    /// - Complexity: O(route points log route points + junctions × segments near each).
    public static func placed(_ junctions: [Junction], on route: Polyline,
                              configuration c: Configuration = Configuration()) -> [Junction] {
        guard route.segmentCount > 0, !junctions.isEmpty else { return junctions }
        let index = PolylineIndex(route, cellSize: c.searchRadius)
        var floor = -Double.infinity
        return junctions.map { junction in
            var j = junction
            // One place per pass: of each run of consecutive segments near the junction, the closest.
            // A run that goes twice `onJunction` away from the junction and comes back to it (out along
            // a short spur and back, a U-turn within the search radius) passes it twice.
            var passes: [RoutePosition] = []
            var previous = -2
            var left = false
            for segment in index.segments(near: junction.coordinate, radius: c.searchRadius) {
                let p = route.project(junction.coordinate, ontoSegment: segment)
                let near = abs(p.offsetFromRoute) <= c.onJunction
                if segment == previous + 1, let last = passes.last, !(left && near) {
                    if abs(p.offsetFromRoute) < abs(last.offsetFromRoute) { passes[passes.count - 1] = p }
                    if abs(p.offsetFromRoute) > 2 * c.onJunction && abs(passes[passes.count - 1].offsetFromRoute) <= c.onJunction {
                        left = true
                    }
                } else {
                    passes.append(p)
                    left = false
                }
                previous = segment
            }
            passes = passes.filter { abs($0.offsetFromRoute) <= c.searchRadius && $0.distanceAlong >= floor - c.backTolerance }
            let close = passes.filter { abs($0.offsetFromRoute) <= c.onJunction }
            let nearest = (close.isEmpty ? passes : close).min {
                abs($0.distanceAlong - junction.distanceAlong) < abs($1.distanceAlong - junction.distanceAlong)
            }
            // The junctions keep their order (a roundabout's nodes, a staggered pair): a projection
            // a few metres behind the previous one is placed level with it.
            j.distanceAlong = max(nearest?.distanceAlong ?? junction.distanceAlong, floor)
            floor = j.distanceAlong
            return j
        }
    }
}
