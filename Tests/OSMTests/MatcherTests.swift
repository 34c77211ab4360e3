import Foundation
import Geo
import Model
import OSM
import Testing
import TestSupport


@Suite struct MatcherTests {
    // grid: 100 m; a T junction at b with roads 300 m long.
    let map = AsciiMap(gridSize: 100, """
          a  b  c


             d
        """, ways: [("abc", ["highway": "secondary"]), ("bd", ["highway": "track"])])

    /// A track along grid points every 10 m, each fix pushed 5–8 m in a random direction.
    func noisyTrack(_ points: [(Double, Double)], seed: UInt64) -> [Coordinate] {
        var random = SeededGenerator(seed: seed)
        return map.grid.line(points, step: 10).map { c in
            let angle = Double.random(in: 0..<360, using: &random)
            let offset = Double.random(in: 5...8, using: &random)
            return c.coordinate(atDistance: offset, bearing: angle)
        }
    }

    @Test func routeOnNodesSnapsEachVertex() {
        let route = map.route("a", "b", "d")
        let match = RouteMatcher(graph: map.graph).match(route.line)
        #expect(match.nodes == route.nodes)
        #expect(match.unmatched.isEmpty)
        #expect(match.pieces.count == 1 && abs((match.pieces[0].nodeDistances.last ?? 0) - 600) < 0.1)
    }

    @Test func routeOnNodesFillsSkippedNodesWithShortestPath() {
        // A simplified line a → d skips b; the gap is filled along the roads.
        let line = [map["a"].coordinate, map["d"].coordinate.coordinate(atDistance: 1, bearing: 0)]
        let match = RouteMatcher(graph: map.graph).matchOnNodes(line)
        #expect(match.nodes == map.route("a", "b", "d").nodes)
        #expect(match.unmatched.isEmpty)
    }

    @Test func routeOnNodesLeavesAGapNoRoadExplains() {
        // c and d are 424 m apart on the line but 600 m by road: over 1.2× + 50 m, so no fill.
        let line = [map["a"].coordinate, map["b"].coordinate, map["c"].coordinate, map["d"].coordinate]
        var configuration = RouteMatcher.Configuration()
        configuration.gapDetourFactor = 1.2
        let match = RouteMatcher(graph: map.graph, configuration: configuration).matchOnNodes(line)
        #expect(match.pieces.map(\.nodes) == [map.route("a", "b", "c").nodes])
        #expect(match.unmatched.count == 1)
        #expect(abs((match.unmatched.first?.lowerBound ?? 0) - 600) < 0.1)
    }

    @Test func noisyTrackTakesTheRightBranch() {
        for seed: UInt64 in [1, 2, 3] {
            let track = noisyTrack([(0, 0), (300, 0), (300, -300)], seed: seed)
            let matcher = RouteMatcher(graph: map.graph)
            let match = matcher.match(track)
            #expect(match.pieces.count == 1, "seed \(seed)")
            #expect(match.nodes == map.route("a", "b", "d").nodes, "seed \(seed)")
            #expect(match.unmatched.isEmpty, "seed \(seed)")
            // The junction found from the match is the right turn at b, near 300 m along the track.
            let junctions = JunctionFinder(graph: map.graph).junctions(along: match)
            #expect(junctions.count == 1, "seed \(seed)")
            #expect(abs((junctions.first?.turnAngle ?? 0) - 90) < 0.5, "seed \(seed)")
            #expect(abs((junctions.first?.distanceAlong ?? 0) - 300) < 25, "seed \(seed)")
        }
    }

    @Test func noisyTrackStraightOnStaysOnTheMainRoad() {
        let track = noisyTrack([(0, 0), (600, 0)], seed: 7)
        let match = RouteMatcher(graph: map.graph).match(track)
        #expect(match.nodes == map.route("a", "b", "c").nodes)
    }

    @Test func trackFarFromEveryRoadStaysUnmatchedThere() {
        // Along the road to x = 100, then 150 m north of it for 300 m, then back down to c.
        let points: [(Double, Double)] = [(0, 0), (100, 0), (100, 150), (400, 150), (400, 0), (600, 0)]
        let track = noisyTrack(points, seed: 11)
        let match = RouteMatcher(graph: map.graph).match(track)
        #expect(match.pieces.count == 2)
        let input = Polyline(track)
        // The middle of the northern stretch, near (250, 150), lies inside an unmatched range.
        guard let middle = input.position(closestTo: map.point(250, 150)) else { Issue.record("no position"); return }
        #expect(match.unmatched.contains { $0.contains(middle.distanceAlong) })
        // No piece reaches into the far stretch: every matched point is near a road.
        for piece in match.pieces {
            for p in piece.line {
                let y = (p.latitude - map.grid.frame.origin.latitude) * map.grid.frame.metresPerDegreeLatitude
                #expect(y < 1, "matched point \(y) m north of the road")
            }
        }
        #expect(match.pieces.first?.nodes.first == map["a"].index)
        #expect(match.pieces.last?.nodes.last == map["c"].index)
    }
}

@Suite("Matching a track that turns back")
struct MatcherTurnBackTests {
    //      d
    //  a   b   c      a–b–c one road ending at c; b–d north
    static let map = AsciiMap(gridSize: 100, """
            d
        a   b   c
        """, ways: [("abc", ["highway": "secondary"]), ("bd", ["highway": "secondary"])])

    @Test("a track to a dead end and back passes the dead end's node and the junction behind it twice")
    func deadEndAndBack() {
        let map = Self.map
        let at = { (n: Character) in (map[n].x, map[n].y) }
        let track = map.grid.line([at("a"), at("c"), at("b"), at("d")], step: 10)
        let match = RouteMatcher(graph: Self.map.graph).match(track)
        let names: [Character: Int] = ["a": Self.map["a"].index, "b": Self.map["b"].index, "c": Self.map["c"].index,
                                       "d": Self.map["d"].index]
        let passed = match.nodes.compactMap { n in names.first { $0.value == n }?.key }
        // Inner nodes in order; the ends may include the node behind the start and ahead of the end.
        #expect(String(passed).contains("bcb"), "\(passed) \(match.pieces.map(\.nodes)) \(match.unmatched)")
        #expect(passed.last == "d", "\(passed)")
    }
}
