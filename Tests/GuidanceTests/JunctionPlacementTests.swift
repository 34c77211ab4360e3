import Foundation
import Geo
import Guidance
import Model
import Testing
import TestSupport

@Suite("Junctions placed at their distance along the book's route")
struct JunctionPlacementTests {
    let grid = MetreGrid()

    /// North to a junction at the origin, right along a 55 m spur, round at its end and back past the
    /// junction, straight on west. The way back passes the junction closer (1 m) than the way out
    /// (3 m), as a noisy track may: the whole out and back lies within the search radius.
    @Test("a route out along a short spur and back passes its junction twice: the turn onto the spur stands before the U-turn, the way back after it")
    func spurOutAndBack() {
        let route = Polyline(grid.line([(3, -200), (3, -3), (55, -3), (55, 1), (-200, 1)], step: 10))
        // Road distances: the junction at 197 m, the spur's end at 251 m, the junction again at 306 m.
        let junctions = [(0.0, 0.0, 197.0), (55.0, -1.0, 251.0), (0.0, 0.0, 306.0)].map { x, y, d in
            Junction(coordinate: grid(x, y), distanceAlong: d, spokes: [])
        }
        let placed = JunctionPlacement.placed(junctions, on: route).map(\.distanceAlong)
        let expected = [197.0, 251.0, 306.0]
        #expect(zip(placed, expected).allSatisfy { abs($0 - $1) <= 6 }, "\(placed.map { Int($0) })")
    }
}
