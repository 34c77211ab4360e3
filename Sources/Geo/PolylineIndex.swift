import Foundation

/// A uniform grid over a polyline's segments, for finding every segment near a point quickly.
///
/// Segments are bucketed by the cells their bounding boxes touch in an equirectangular plane
/// centred on the line (x scaled by the cosine of the mean latitude). Cells are `cellSize`
/// metres on a side at that latitude; a query widens its search box by the plane's scale error
/// so no segment within the radius is missed. Build: O(n log n). Query: O(segments nearby).
public struct PolylineIndex: Sendable {
    public let polyline: Polyline
    /// Side of a grid cell in metres, at the reference latitude.
    public let cellSize: Metres
    private let metresPerDegree: Double
    private let cosReference: Double
    /// Segment indices grouped by cell; `cells[key]` is a range into `segmentsByCell`.
    private let cells: [Int64: Range<Int>]
    private let segmentsByCell: [Int32]
    /// Segments too long to bucket (crossing the antimeridian, or spanning many cells):
    /// returned by every query.
    private let longSegments: [Int]
    /// A segment touching more cells than this goes to `longSegments` instead.
    private static let maximumCellsPerSegment: Int64 = 4096

    /// - Parameters:
    ///   - polyline: the line to index.
    ///   - cellSize: grid cell side in metres; about the usual query radius works best.
    public init(_ polyline: Polyline, cellSize: Metres = 100) {
        self.polyline = polyline
        self.cellSize = cellSize
        let coords = polyline.coordinates
        let meanLatitude = coords.isEmpty ? 0 : coords.reduce(0) { $0 + $1.latitude } / Double(coords.count)
        let metresPerDegree = Geodesic.wgs84.a * .pi / 180
        let cosReference = max(cos(meanLatitude * .pi / 180), 0.01)
        self.metresPerDegree = metresPerDegree
        self.cosReference = cosReference

        var pairs: [(key: Int64, segment: Int32)] = []
        pairs.reserveCapacity(polyline.segmentCount * 2)
        var longSegments: [Int] = []
        var previous = coords.first.map { Self.cell(Self.plane($0, metresPerDegree, cosReference), cellSize) }
        for i in 0..<polyline.segmentCount {
            let a = previous!
            let b = Self.cell(Self.plane(coords[i + 1], metresPerDegree, cosReference), cellSize)
            previous = b
            if (abs(a.x - b.x) + 1) * (abs(a.y - b.y) + 1) > Self.maximumCellsPerSegment {
                longSegments.append(i)
                continue
            }
            for cx in min(a.x, b.x)...max(a.x, b.x) {
                for cy in min(a.y, b.y)...max(a.y, b.y) {
                    pairs.append((Self.key(cx, cy), Int32(i)))
                }
            }
        }
        pairs.sort { $0.key < $1.key || ($0.key == $1.key && $0.segment < $1.segment) }
        var cells: [Int64: Range<Int>] = [:]
        cells.reserveCapacity(pairs.count / 2)
        var start = 0
        for j in 1...max(pairs.count, 1) where j == pairs.count || pairs[j].key != pairs[start].key {
            if start < pairs.count { cells[pairs[start].key] = start..<j }
            start = j
        }
        self.cells = cells
        self.segmentsByCell = pairs.map(\.segment)
        self.longSegments = longSegments
    }

    /// Every segment that may lie within `radius` metres of `point`, in increasing order, each once.
    /// A superset: check the real distance with `Polyline.project(_:ontoSegment:)`.
    public func segments(near point: Coordinate, radius: Metres) -> [Int] {
        let p = Self.plane(point, metresPerDegree, cosReference)
        // The equirectangular plane stretches east–west distances away from the reference
        // latitude; widen the box by that factor (and by 1% for the ellipsoid) so nothing is missed.
        let stretch = cosReference / max(cos(point.latitude * .pi / 180), 0.01)
        let rx = radius * max(stretch, 1) * 1.01 + 1, ry = radius * 1.01 + 1
        let x0 = Int64(floor((p.x - rx) / cellSize)), x1 = Int64(floor((p.x + rx) / cellSize))
        let y0 = Int64(floor((p.y - ry) / cellSize)), y1 = Int64(floor((p.y + ry) / cellSize))
        var found = longSegments
        if (x1 - x0 + 1) * (y1 - y0 + 1) > 1_000_000 { return Array(0..<polyline.segmentCount) }
        for cx in x0...x1 {
            for cy in y0...y1 {
                if let range = cells[Self.key(cx, cy)] {
                    for j in range { found.append(Int(segmentsByCell[j])) }
                }
            }
        }
        found.sort()
        var unique: [Int] = []
        unique.reserveCapacity(found.count)
        for s in found where unique.last != s { unique.append(s) }
        return unique
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

    private static func plane(_ c: Coordinate, _ metresPerDegree: Double, _ cosReference: Double) -> (x: Double, y: Double) {
        (c.longitude * metresPerDegree * cosReference, c.latitude * metresPerDegree)
    }

    private static func cell(_ p: (x: Double, y: Double), _ size: Double) -> (x: Int64, y: Int64) {
        (Int64(floor(p.x / size)), Int64(floor(p.y / size)))
    }

    private static func key(_ x: Int64, _ y: Int64) -> Int64 { (x << 32) ^ (y & 0xFFFF_FFFF) }
}
