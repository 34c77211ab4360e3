import Foundation
import Geo

/// A grid over a road graph's nodes for finding the node nearest a point.
///
/// Cells are `cellSize` metres tall and at least that wide (at the data's highest latitude), laid
/// over the nodes' bounding box in degrees and stored compactly (CSR: node indices sorted by cell).
/// Distances are measured in a local plane at the query point (`LocalFrame`), good to well under a
/// metre over the few hundred metres a search covers. Nodes across the antimeridian from the query
/// are not found. Building is O(nodes); 8 bytes per node plus 4 per cell.
public struct NodeIndex: Sendable {
    /// The default cell height: about the spacing of junctions in a town, so a search for a point
    /// on a road looks at a handful of cells.
    public static let defaultCellSize: Metres = 250

    private let coordinates: [Coordinate]
    private let minLatitude: Degrees, minLongitude: Degrees
    /// Cell height and width in degrees.
    private let cellLatitude: Degrees, cellLongitude: Degrees
    private let rows: Int, columns: Int
    /// Nodes of cell `c` are `cellNodes[cellStart[c]..<cellStart[c + 1]]`, with `c = row × columns + column`.
    private let cellStart: [Int32]
    private let cellNodes: [Int32]

    /// Indexes the nodes of `graph`.
    /// - Parameter cellSize: cell height in metres (> 0). It grows when the box would need more
    ///   than four cells per node, so memory stays bounded for sparse data.
    public init(graph: RoadGraph, cellSize: Metres = NodeIndex.defaultCellSize) {
        precondition(cellSize > 0, "cellSize must be positive")
        coordinates = graph.coordinates
        let latitudes = coordinates.map(\.latitude), longitudes = coordinates.map(\.longitude)
        let minLat = latitudes.min() ?? 0, maxLat = latitudes.max() ?? 0
        let minLon = longitudes.min() ?? 0, maxLon = longitudes.max() ?? 0
        let widestLatitude = min(max(abs(minLat), abs(maxLat)), 85)
        let frame = LocalFrame(origin: Coordinate(latitude: widestLatitude, longitude: 0))
        var size = cellSize
        var rows = 1, columns = 1
        var cellLat = 1.0, cellLon = 1.0
        while true {
            cellLat = size / frame.metresPerDegreeLatitude
            cellLon = size / frame.metresPerDegreeLongitude
            rows = Int((maxLat - minLat) / cellLat) + 1
            columns = Int((maxLon - minLon) / cellLon) + 1
            if rows * columns <= 4 * coordinates.count + 16 { break }
            size *= 2
        }
        minLatitude = minLat
        minLongitude = minLon
        cellLatitude = cellLat
        cellLongitude = cellLon
        self.rows = rows
        self.columns = columns
        var start = [Int32](repeating: 0, count: rows * columns + 1)
        var cellOf = [Int32](repeating: 0, count: coordinates.count)
        for (i, c) in coordinates.enumerated() {
            let row = min(rows - 1, Int((c.latitude - minLat) / cellLat))
            let column = min(columns - 1, Int((c.longitude - minLon) / cellLon))
            let cell = row * columns + column
            cellOf[i] = Int32(cell)
            start[cell + 1] += 1
        }
        for c in 0..<(rows * columns) { start[c + 1] += start[c] }
        var fill = start
        var nodes = [Int32](repeating: 0, count: coordinates.count)
        for i in coordinates.indices {
            let cell = Int(cellOf[i])
            nodes[Int(fill[cell])] = Int32(i)
            fill[cell] += 1
        }
        cellStart = start
        cellNodes = nodes
    }

    /// The index of the node nearest `point`, or nil when none lies within `radius` metres.
    /// Of nodes equally near, the lowest index. O(nodes in the cells the radius touches).
    public func nearestNode(to point: Coordinate, within radius: Metres) -> Int? {
        guard !coordinates.isEmpty, radius >= 0 else { return nil }
        let frame = LocalFrame(origin: point)
        let dLat = radius / frame.metresPerDegreeLatitude
        // The longitude span of the radius is widest at the box's latitude farthest from the equator.
        let farLatitude = min(max(abs(point.latitude - dLat), abs(point.latitude + dLat)), 89.9)
        let dLon = radius / LocalFrame(origin: Coordinate(latitude: farLatitude, longitude: 0)).metresPerDegreeLongitude
        let firstRow = max(0, Int(floor((point.latitude - dLat - minLatitude) / cellLatitude)))
        let lastRow = min(rows - 1, Int(floor((point.latitude + dLat - minLatitude) / cellLatitude)))
        let firstColumn = max(0, Int(floor((point.longitude - dLon - minLongitude) / cellLongitude)))
        let lastColumn = min(columns - 1, Int(floor((point.longitude + dLon - minLongitude) / cellLongitude)))
        guard firstRow <= lastRow, firstColumn <= lastColumn else { return nil }
        var best: Int?
        var bestSquared = radius * radius
        for row in firstRow...lastRow {
            for column in firstColumn...lastColumn {
                let cell = row * columns + column
                for k in Int(cellStart[cell])..<Int(cellStart[cell + 1]) {
                    let node = Int(cellNodes[k])
                    let p = frame.project(coordinates[node])
                    let squared = p.x * p.x + p.y * p.y
                    if squared < bestSquared || (squared == bestSquared && node < (best ?? .max)) { bestSquared = squared; best = node }
                }
            }
        }
        return best
    }
}

extension RoadGraph {
    /// The index of the node nearest `point`, or nil when none lies within `radius` metres
    /// (measured in a local plane at `point`); of nodes equally near, the lowest index.
    ///
    /// O(nodes): it looks at every node. For many queries on one graph build a `NodeIndex` once
    /// and ask it instead (`RoadGraph` is an immutable value and holds no index of its own).
    public func nearestNode(to point: Coordinate, within radius: Metres) -> Int? {
        guard radius >= 0 else { return nil }
        let frame = LocalFrame(origin: point)
        var best: Int?
        var bestSquared = radius * radius
        for (node, coordinate) in coordinates.enumerated() {
            let p = frame.project(coordinate)
            let squared = p.x * p.x + p.y * p.y
            if squared < bestSquared || (squared == bestSquared && node < (best ?? .max)) { bestSquared = squared; best = node }
        }
        return best
    }
}
