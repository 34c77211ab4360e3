import Foundation

/// A uniform grid over items spanning two points each (a segment's ends, or a point twice), for
/// finding every item near a point quickly. The one grid behind `PolylineIndex` and the road
/// graph's searches.
///
/// Items are bucketed by the cells their bounding boxes touch in an equirectangular plane centred
/// on the points (x scaled by the cosine of their mean latitude). Cells are `cellSize` metres on a
/// side at that latitude; a query widens its search box by the plane's scale error so no item
/// within the radius is missed. Build: O(n log n). Query: O(items nearby).
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
    /// Items too long to bucket (crossing the antimeridian, or spanning many cells): returned by
    /// every query.
    private let longItems: [Int]
    /// An item touching more cells than this goes to `longItems` instead.
    private static let maximumCellsPerItem: Int64 = 4096

    /// - Parameters:
    ///   - points: the places items start and end; their mean latitude is the plane's reference.
    ///   - count: the number of items.
    ///   - ends: the indices into `points` of item `i`'s two ends (the same twice for a point).
    ///   - cellSize: grid cell side in metres; about the usual query radius works best.
    package init(points: [Coordinate], count: Int, ends: (Int) -> (Int, Int), cellSize: Metres) {
        self.cellSize = cellSize
        self.count = count
        let meanLatitude = points.isEmpty ? 0 : points.reduce(0) { $0 + $1.latitude } / Double(points.count)
        let metresPerDegree = Geodesic.wgs84.a * .pi / 180
        let cosReference = max(cos(meanLatitude * .pi / 180), 0.01)
        self.metresPerDegree = metresPerDegree
        self.cosReference = cosReference

        let pointCells = points.map { Self.cell(Self.plane($0, metresPerDegree, cosReference), cellSize) }
        var pairs: [(key: Int64, item: Int32)] = []
        pairs.reserveCapacity(count * 2)
        var longItems: [Int] = []
        for i in 0..<count {
            let (first, second) = ends(i)
            let a = pointCells[first], b = pointCells[second]
            if (abs(a.x - b.x) + 1) * (abs(a.y - b.y) + 1) > Self.maximumCellsPerItem {
                longItems.append(i)
                continue
            }
            for cx in min(a.x, b.x)...max(a.x, b.x) {
                for cy in min(a.y, b.y)...max(a.y, b.y) {
                    pairs.append((Self.key(cx, cy), Int32(i)))
                }
            }
        }
        pairs.sort { $0.key < $1.key || ($0.key == $1.key && $0.item < $1.item) }
        var cells: [Int64: Range<Int>] = [:]
        cells.reserveCapacity(pairs.count / 2)
        var start = 0
        for j in pairs.indices where j + 1 == pairs.count || pairs[j + 1].key != pairs[j].key {
            cells[pairs[j].key] = start..<(j + 1)
            start = j + 1
        }
        self.cells = cells
        self.itemsByCell = pairs.map(\.item)
        self.longItems = longItems
    }

    /// Every item that may lie within `radius` metres of `point`, in increasing order, each once.
    /// A superset: the caller measures the real distance.
    package func items(near point: Coordinate, radius: Metres) -> [Int] {
        let p = Self.plane(point, metresPerDegree, cosReference)
        // The equirectangular plane stretches east–west distances away from the reference
        // latitude; widen the box by that factor (and by 1% for the ellipsoid) so nothing is missed.
        let stretch = cosReference / max(cos(point.latitude * .pi / 180), 0.01)
        let rx = radius * max(stretch, 1) * 1.01 + 1, ry = radius * 1.01 + 1
        let x0 = Int64(floor((p.x - rx) / cellSize)), x1 = Int64(floor((p.x + rx) / cellSize))
        let y0 = Int64(floor((p.y - ry) / cellSize)), y1 = Int64(floor((p.y + ry) / cellSize))
        var found = longItems
        if (x1 - x0 + 1) * (y1 - y0 + 1) > 1_000_000 { return Array(0..<count) }
        for cx in x0...x1 {
            for cy in y0...y1 {
                if let range = cells[Self.key(cx, cy)] {
                    for j in range { found.append(Int(itemsByCell[j])) }
                }
            }
        }
        found.sort()
        var unique: [Int] = []
        unique.reserveCapacity(found.count)
        for s in found where unique.last != s { unique.append(s) }
        return unique
    }

    private static func plane(_ c: Coordinate, _ metresPerDegree: Double, _ cosReference: Double) -> (x: Double, y: Double) {
        (c.longitude * metresPerDegree * cosReference, c.latitude * metresPerDegree)
    }

    private static func cell(_ p: (x: Double, y: Double), _ size: Double) -> (x: Int64, y: Int64) {
        (Int64(floor(p.x / size)), Int64(floor(p.y / size)))
    }

    private static func key(_ x: Int64, _ y: Int64) -> Int64 { (x << 32) ^ (y & 0xFFFF_FFFF) }
}
