import Foundation
import Geo
import Testing
import TestSupport

/// The point `x` metres east and `y` metres north of 0°N 0°E in the grid's own plane. Every
/// point here is within a few kilometres of the equator, where the plane's east–west scale is 1, so
/// the cells have their edges at whole multiples of the cell size in these coordinates.
private func at(_ x: Metres, _ y: Metres) -> Coordinate {
    let metresPerDegree = Geodesic.wgs84.a * .pi / 180
    return Coordinate(latitude: y / metresPerDegree, longitude: x / metresPerDegree)
}

/// A grid over points, each item one point (its two ends the same).
private func pointIndex(_ points: [Coordinate], cellSize: Metres = 100) -> GridIndex {
    GridIndex(points: points, count: points.count, ends: { ($0, $0) }, cellSize: cellSize)
}

/// A grid over segments `points[2i]`–`points[2i + 1]`.
private func segmentIndex(_ points: [Coordinate], cellSize: Metres = 100) -> GridIndex {
    GridIndex(points: points, count: points.count / 2, ends: { (2 * $0, 2 * $0 + 1) }, cellSize: cellSize)
}

@Suite("Grid index: items bucketed by cell, found near a point")
struct GridIndexTests {
    @Test("an empty index finds nothing, at any radius")
    func empty() {
        let index = pointIndex([])
        #expect(index.count == 0)
        #expect(index.items(near: at(0, 0), radius: 50).isEmpty)
        #expect(index.items(near: at(0, 0), radius: 1e7).isEmpty)
    }

    @Test("a query finds the items in its cells and none from cells far away")
    func cells() {
        let index = pointIndex([at(10, 10), at(250, 10), at(1000, 1000), at(20, 30)])
        #expect(index.count == 4)
        #expect(index.items(near: at(15, 15), radius: 20) == [0, 3], "in increasing order")
        #expect(index.items(near: at(250, 10), radius: 5) == [1])
        #expect(index.items(near: at(600, 600), radius: 5).isEmpty)
    }

    @Test("an item just across a cell edge from the query is found")
    func acrossCellEdges() {
        // Cells are 100 m wide: x = -99 and x = -101 lie in neighbouring cells (and rows, for y).
        let index = pointIndex([at(-99, 50), at(50, -99),
                                at(-99, -99), at(-101, -99), at(-99, -101), at(-101, -101), at(-350, -350)])
        #expect(index.items(near: at(-101, 50), radius: 5) == [0])
        #expect(index.items(near: at(50, -101), radius: 5) == [1])
        #expect(index.items(near: at(-100, -100), radius: 3) == [2, 3, 4, 5], "a corner between four cells")
    }

    @Test("a segment spanning many cells is found from each of them, once")
    func longSegments() {
        let index = segmentIndex([at(0, 0), at(5000, 0), at(0, 300), at(0, 400)])
        for x in stride(from: 0.0, through: 5000, by: 250) {
            #expect(index.items(near: at(x, 20), radius: 30) == [0], "at \(x) m")
        }
        #expect(index.items(near: at(2500, 350), radius: 30) == [], "beside the segment, far from both")
        #expect(index.items(near: at(0, 320), radius: 40) == [1])
    }

    @Test("a segment crossing more cells than the grid buckets is returned by every query")
    func veryLongSegments() {
        // 100 km by 100 km at 100 m cells: a million cells in its box, far past the bucketing limit.
        let index = segmentIndex([at(0, 0), at(100_000, 100_000), at(10, 10), at(20, 20)])
        #expect(index.items(near: at(-40_000, 90_000), radius: 10) == [0])
        #expect(index.items(near: at(15, 15), radius: 10) == [0, 1])
    }

    @Test("a radius over a million cells returns every item")
    func hugeRadius() {
        let index = pointIndex([at(0, 0), at(1000, 0), at(0, 1000)])
        #expect(index.items(near: at(0, 0), radius: 60_000) == [0, 1, 2])
    }

    @Test("every item within the radius is found, far from the reference latitude too")
    func neverMisses() {
        // Points from 40°N to 60°N: the grid's plane is drawn at their mean latitude, so near 60°N
        // an east–west metre covers more plane than at the reference, and the query must widen.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let points = (0..<2000).map { _ in Coordinate(latitude: 40 + 20 * next(), longitude: 10 + 0.5 * next()) }
        let index = pointIndex(points, cellSize: 500)
        for query in points.prefix(200) {
            let radius: Metres = 3000
            let found = Set(index.items(near: query, radius: radius))
            let within = points.indices.filter { points[$0].distance(to: query) <= radius }
            #expect(within.allSatisfy(found.contains), "near \(query)")
        }
    }
}
