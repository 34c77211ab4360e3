import Foundation
import Geo
import Model
import OSM
import Testing
import TestSupport

/// Which way a map's roundabouts run (`RingTurning`), on rings drawn on a metre grid and on the
/// Andorra extract, whose traffic keeps right.
@Suite("The side traffic keeps to, read from the map's roundabouts")
struct RingDirectionTests {
    static let grid = MetreGrid(origin: .init(latitude: 42.5, longitude: 1.5))

    /// A graph of rings of 15 m radius, 100 m apart along x, each drawn as one closed way of 12
    /// nodes, anticlockwise (as traffic goes where it keeps right) or clockwise; `oneway` as tagged.
    static func rings(_ clockwise: [Bool], oneway: Oneway = .forward) -> RoadGraph {
        var coordinates: [Coordinate] = [], ways: [WayInfo] = [], wayNodes: [[Int]] = []
        for (r, turnsClockwise) in clockwise.enumerated() {
            let first = coordinates.count
            for k in 0..<12 {
                let a = Double(turnsClockwise ? -k : k) * 30 * .pi / 180
                coordinates.append(grid(Double(r) * 100 + 15 * cos(a), 15 * sin(a)))
            }
            ways.append(WayInfo(id: Int64(r + 1), highway: "tertiary", oneway: oneway, isRoundabout: true))
            wayNodes.append(Array(first..<first + 12) + [first])
        }
        return RoadGraph(coordinates: coordinates, osmIDs: coordinates.indices.map { Int64($0 + 1) }, ways: ways, wayNodes: wayNodes)
    }

    @Test("rings drawn anticlockwise say traffic keeps right; clockwise, left; each ring turns 360°")
    func sides() {
        let right = Self.rings([false, false, false]).ringTurning()
        #expect(abs(right.anticlockwise - 3 * 360) < 1e-6 && right.clockwise == 0)
        #expect(right.drivingSide == .right && right.summary == "3 roundabouts, all anticlockwise")
        let left = Self.rings([true, true]).ringTurning()
        #expect(abs(left.clockwise - 720) < 1e-6 && left.drivingSide == .left)
        // A ring tagged oneway=-1 is driven against its drawing: drawn clockwise, it runs anticlockwise.
        let backward = Self.rings([true, true], oneway: .backward).ringTurning()
        #expect(backward.drivingSide == .right, "\(backward)")
    }

    @Test("one ring, rings that disagree, and rings open both ways say no side")
    func noSide() {
        #expect(Self.rings([true]).ringTurning().drivingSide == nil, "one ring may be drawn the wrong way round")
        let mixed = Self.rings([true, true, false, false]).ringTurning()
        #expect(mixed.drivingSide == nil && mixed.summary.hasPrefix("4 roundabouts, 50% "), "\(mixed.summary)")
        // Four of five one way is the least share that decides.
        #expect(Self.rings([true, true, true, true, false]).ringTurning().drivingSide == .left)
        #expect(Self.rings([true, true, true, false]).ringTurning().drivingSide == nil)
        #expect(Self.rings([false, false], oneway: .no).ringTurning().rings == 0)
    }

    @Test("the Andorra extract's roundabouts run anticlockwise: traffic there keeps right")
    func andorra() throws {
        let url = try testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf")
        let graph = OSMGraph.build(from: try OSMData.read(contentsOf: url, keepingWaysTagged: "highway"))
        let rings = graph.ringTurning()
        #expect(rings.drivingSide == .right, "\(rings.summary)")
        #expect(rings.rings >= 20 && rings.clockwise < 0.05 * rings.anticlockwise, "\(rings.summary)")
    }
}
