import Foundation

/// A uniform grid over items spanning two points each (a segment's ends, or a point twice), for
/// finding every item near a point quickly. The one grid behind `PolylineIndex` and the road
/// graph's searches.
///
/// Items are bucketed by the cells their bounding boxes touch in an equirectangular plane (x is
/// longitude scaled by the cosine of the points' mean latitude, y latitude, both in metres at the
/// equator's scale). Callers measure distance in a `LocalFrame` at the query point, which is linear
/// in latitude and longitude, so a segment there is the straight line between its ends in degrees
/// and lies inside its ends' bounding box: the grid needs no allowance for the curve of a geodesic.
///
/// A query turns its radius into a box of degrees that holds every point within the radius as a
/// `LocalFrame` at the query point measures it (wrapping across the antimeridian, and taking every
/// longitude when the box reaches a pole). Items that cannot be bucketed honestly — spanning more
/// than `longItemLongitudeSpan` of longitude (across the antimeridian, or so long that the frame's
/// wrap decides their side), touching more than `maximumCellsPerItem` cells, or with an end that is
/// not a valid coordinate — are kept apart and returned by every query. So a query never misses an
/// item, for segments of any length, at the antimeridian and at the poles.
/// Build: O(n log n). Query: O(items nearby + long items).
package struct GridIndex: Sendable {
    /// Side of a grid cell in metres, at the reference latitude.
    package let cellSize: Metres
    /// How many items were indexed.
    package let count: Int
    private let metresPerDegree: Double
    private let cosReference: Double
    /// Item indices grouped by cell; `cells[key]` is a range into `itemsByCell`.
    private let cells: [Int64: Range<Int>]
    private let itemsByCell: [Int32]
    /// Items too long to bucket: returned by every query.
    private let longItems: [Int]
    /// An item touching more cells than this goes to `longItems` instead: a few long segments are
    /// cheaper checked on every query than copied into thousands of cells.
    private static let maximumCellsPerItem: Double = 4096
    /// An item whose ends differ by more than this in longitude (degrees, after wrapping) is a long
    /// item: a `LocalFrame` wraps each end to within 180° of the query, so such a segment's side
    /// depends on where it is looked at from, and no box of cells holds it for every query.
    package static let longItemLongitudeSpan: Degrees = 90
    /// A query whose box would touch more cells than this returns every item instead: checking them
    /// all is then cheaper than visiting the cells.
    private static let maximumCellsPerQuery: Double = 1_000_000
    /// Smallest cell side in metres: keeps cell numbers far inside `Int32` for any coordinate.
    package static let minimumCellSize: Metres = 0.01

    /// - Parameters:
    ///   - points: the places items start and end; their mean latitude is the plane's reference.
    ///   - count: the number of items.
    ///   - ends: the indices into `points` of item `i`'s two ends (the same twice for a point).
    ///   - cellSize: grid cell side in metres; about the usual query radius works best. Values below
    ///     `minimumCellSize` (or not finite) are raised to it.
    package init(points: [Coordinate], count: Int, ends: (Int) -> (Int, Int), cellSize: Metres) {
        let cellSize = cellSize.isFinite ? max(cellSize, Self.minimumCellSize) : Self.minimumCellSize
        self.cellSize = cellSize
        self.count = count
        let valid = points.filter(\.isValid)
        let meanLatitude = valid.isEmpty ? 0 : valid.reduce(0) { $0 + $1.latitude } / Double(valid.count)
        let metresPerDegree = Geodesic.wgs84.a * .pi / 180
        let cosReference = max(cos(meanLatitude * .pi / 180), 0.01)
        self.metresPerDegree = metresPerDegree
        self.cosReference = cosReference

        var pairs: [(key: Int64, item: Int32)] = []
        pairs.reserveCapacity(count * 2)
        var longItems: [Int] = []
        for i in 0..<count {
            let (first, second) = ends(i)
            let p = points[first], q = points[second]
            guard p.isValid, q.isValid, abs(q.longitude - p.longitude) <= Self.longItemLongitudeSpan else {
                longItems.append(i)
                continue
            }
            let a = Self.cell(p, metresPerDegree, cosReference, cellSize)
            let b = Self.cell(q, metresPerDegree, cosReference, cellSize)
            if Double(abs(a.x - b.x) + 1) * Double(abs(a.y - b.y) + 1) > Self.maximumCellsPerItem {
                longItems.append(i)
                continue
            }
            for cx in min(a.x, b.x)...max(a.x, b.x) {
                for cy in min(a.y, b.y)...max(a.y, b.y) {
                    pairs.append((Self.key(cx, cy), Int32(truncatingIfNeeded: i)))
                }
            }
        }
        pairs.sort { $0.key < $1.key || ($0.key == $1.key && $0.item < $1.item) }
        var cells: [Int64: Range<Int>] = [:]
        cells.reserveCapacity(pairs.count / 2)
        var start = 0
        while start < pairs.count {
            var end = start + 1
            while end < pairs.count && pairs[end].key == pairs[start].key { end += 1 }
            cells[pairs[start].key] = start..<end
            start = end
        }
        self.cells = cells
        self.itemsByCell = pairs.map(\.item)
        self.longItems = longItems
    }

    /// Every item that may lie within `radius` metres of `point` (as a `LocalFrame` at `point`
    /// measures it), in increasing order, each once. A superset: the caller measures the real
    /// distance.
    package func items(near point: Coordinate, radius: Metres) -> [Int] {
        guard point.isValid, radius.isFinite else { return Array(0..<count) }
        let radius = max(radius, 0)
        // Degrees of latitude within the radius: the meridian radius of curvature is at least
        // (1 − e²)·a ≈ 0.9933·a, so 1% more than the equator's scale, plus a metre, is enough.
        let reach = radius * 1.01 + 1
        let dLat = reach / metresPerDegree
        let south = point.latitude - dLat, north = point.latitude + dLat
        // Degrees of longitude: the prime-vertical radius N·cos φ is at least a·cos φ at the query's
        // latitude (the frame uses that one scale), so reach / (a·cos φ) in degrees.
        let cosPoint = cos(point.latitude * .pi / 180)
        let dLon = cosPoint > 0 ? reach / (metresPerDegree * cosPoint) : .infinity
        var longitudeRanges: [(Double, Double)]
        if dLon >= 180 {
            longitudeRanges = [(-180, 180)]
        } else {
            let west = point.longitude - dLon, east = point.longitude + dLon
            longitudeRanges = [(max(west, -180), min(east, 180))]
            if west < -180 { longitudeRanges.append((west + 360, 180)) }
            if east > 180 { longitudeRanges.append((-180, east - 360)) }
        }
        let y0 = floor(max(south, -90) * metresPerDegree / cellSize)
        let y1 = floor(min(north, 90) * metresPerDegree / cellSize)
        var cellCount = 0.0
        for (w, e) in longitudeRanges {
            let x0 = floor(w * metresPerDegree * cosReference / cellSize)
            let x1 = floor(e * metresPerDegree * cosReference / cellSize)
            cellCount += (x1 - x0 + 1) * (y1 - y0 + 1)
        }
        // Visiting more cells than there are items costs more than checking every item.
        if cellCount > Self.maximumCellsPerQuery || cellCount > Double(max(count, 64)) {
            return Array(0..<count)
        }
        var found = longItems
        for (w, e) in longitudeRanges {
            let x0 = Int64(floor(w * metresPerDegree * cosReference / cellSize))
            let x1 = Int64(floor(e * metresPerDegree * cosReference / cellSize))
            for cx in x0...x1 {
                for cy in Int64(y0)...Int64(y1) {
                    if let range = cells[Self.key(cx, cy)] {
                        for j in range { found.append(Int(itemsByCell[j])) }
                    }
                }
            }
        }
        found.sort()
        var unique: [Int] = []
        unique.reserveCapacity(found.count)
        for s in found where unique.last != s { unique.append(s) }
        return unique
    }

    private static func cell(_ c: Coordinate, _ metresPerDegree: Double, _ cosReference: Double,
                             _ size: Double) -> (x: Int64, y: Int64) {
        (Int64(floor(c.longitude * metresPerDegree * cosReference / size)), Int64(floor(c.latitude * metresPerDegree / size)))
    }

    private static func key(_ x: Int64, _ y: Int64) -> Int64 { (x << 32) ^ (y & 0xFFFF_FFFF) }
}
