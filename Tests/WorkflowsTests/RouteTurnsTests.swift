import Foundation
import Geo
import Model
import OSM
import Pipeline
import Testing
import TestSupport
import Workflows

@Suite("Turns along a recorded track: rows stand where the track's odometer reads them")
struct RouteTurnsTests {
    // The road from w runs east to a, climbs to b and comes down to c (a bend the tunnel cuts
    // through), then east to d, where a road leaves north to g; the track is recorded every 10 m
    // except in the tunnel, where it jumps straight from a to c.
    //
    //                 b
    //   w ----- a           c ------ d ------ h
    //                                |
    //                                g (north)
    static let map = AsciiMap(gridSize: 100, "w", nodes: [
        "a": (200, 0), "b": (400, 150), "c": (600, 0), "d": (900, 0), "h": (1_200, 0), "g": (900, 300),
    ], ways: [("wabcdh", ["highway": "secondary", "name": "Main"]), ("dg", ["highway": "secondary", "name": "North"])])

    @Test("after a GPS gap, a turn's distance is measured along the track, not the winding road")
    func distanceAfterGap() throws {
        let grid = Self.map.grid
        let track = grid.line([(0, 0), (200, 0)]) + grid.line([(600, 0), (900, 0), (900, 300)])
        let found = RouteTurns.maneuvers(along: track, graph: Self.map.graph).maneuvers
        let turn = try #require(found.first { $0.coordinate.distance(to: Self.map["d"].coordinate) < 1 }, "\(found)")
        // Along the track: 200 m to a, 400 m straight across the gap to c, 300 m to d. Along the
        // road it is 200 + 2 × 250 + 300 = 1,000 m.
        let alongTrack = Polyline(track).position(closestTo: Self.map["d"].coordinate)!.distanceAlong
        #expect(abs(alongTrack - 900) < 1)
        #expect(abs(turn.distanceAlong - alongTrack) < 5, "row at \(turn.distanceAlong) m, the track passes d at \(alongTrack) m")
    }

    @Test("a route that passes one junction twice, out and back, places each pass at its own distance")
    func outAndBack() throws {
        let grid = Self.map.grid
        // w → d, north to g and back, then on to h: d is passed at 900 m and again at 1,500 m.
        let track = grid.line([(0, 0), (900, 0), (900, 300), (900, 0), (1_200, 0)])
        let found = RouteTurns.maneuvers(along: track, graph: Self.map.graph).maneuvers
        let atD = found.filter { $0.coordinate.distance(to: Self.map["d"].coordinate) < 1 }.map(\.distanceAlong)
        #expect(atD.count == 2, "\(found.map { ($0.kind, $0.distanceAlong, $0.coordinate.distance(to: Self.map["g"].coordinate)) })")
        if atD.count == 2 {
            #expect(abs(atD[0] - 900) < 5 && abs(atD[1] - 1_500) < 5, "\(atD)")
        }
    }
}
