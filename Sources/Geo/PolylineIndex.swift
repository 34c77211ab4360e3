import Foundation

/// A uniform grid over a polyline's segments, for finding every segment near a point quickly.
///
/// Segments are bucketed in a `GridIndex` (an equirectangular plane centred on the line, cells
/// `cellSize` metres on a side); a query widens its search box by the plane's scale error so no
/// segment within the radius is missed. Build: O(n log n). Query: O(segments nearby).
public struct PolylineIndex: Sendable {
    public let polyline: Polyline
    private let grid: GridIndex

    /// Side of a grid cell in metres, at the reference latitude.
    public var cellSize: Metres { grid.cellSize }

    /// - Parameters:
    ///   - polyline: the line to index.
    ///   - cellSize: grid cell side in metres; about the usual query radius works best.
    public init(_ polyline: Polyline, cellSize: Metres = 100) {
        self.polyline = polyline
        grid = GridIndex(points: polyline.coordinates, count: polyline.segmentCount, ends: { ($0, $0 + 1) },
                         cellSize: cellSize)
    }

    /// Every segment that may lie within `radius` metres of `point`, in increasing order, each once.
    /// A superset: check the real distance with `Polyline.project(_:ontoSegment:)`.
    public func segments(near point: Coordinate, radius: Metres) -> [Int] {
        grid.items(near: point, radius: radius)
    }

    /// The closest place on the line to `point`, searching outwards from the point's cell.
    /// O(segments within the distance found).
    public func position(closestTo point: Coordinate) -> RoutePosition? {
        guard polyline.segmentCount > 0 else { return nil }
        var radius = cellSize
        while true {
            let candidates = segments(near: point, radius: radius)
            if !candidates.isEmpty {
                let frame = LocalFrame(origin: point)
                var best = candidates[0], bestDistance = Double.infinity
                for i in candidates {
                    let d = frame.distanceSquaredToSegment(polyline.coordinates[i], polyline.coordinates[i + 1])
                    if d < bestDistance { bestDistance = d; best = i }
                }
                // A segment just outside the box could be closer than one inside its corner:
                // accept only when the best is within the searched radius.
                if bestDistance.squareRoot() <= radius || candidates.count == polyline.segmentCount {
                    return polyline.project(point, ontoSegment: best)
                }
            }
            radius *= 4
        }
    }
}
