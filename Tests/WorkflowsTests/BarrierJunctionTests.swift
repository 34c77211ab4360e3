import Foundation
import Geo
import Guidance
import Model
import OSM
import Testing
import TestSupport
import Workflows

/// A side road the travel mode may not pass just past the junction (a bollard or a locked gate at
/// the mouth of a street, `JunctionFinder.Configuration.barrierReach`) is drawn but is no choice:
/// it does not make a fork, and it is no roundabout exit. The expected rows follow from the
/// drawings: the same maps without the barrier, or with it beyond the reach, give the usual rows.
@Suite("Barriers on side roads at junctions")
struct BarrierJunctionTests {
    /// `map`'s graph with `marks` on its nodes (node letter → tags).
    static func marked(_ map: AsciiMap, _ marks: [Character: [String: String]]) -> RoadGraph {
        var graph = map.graph
        for (letter, tags) in marks { graph.nodeMarks[map[letter].index] = OSMNodeMark(tags: tags) }
        return graph
    }

    static func rows(_ map: AsciiMap, _ route: String, _ marks: [Character: [String: String]] = [:], mode: TravelMode = .drive) -> [String] {
        RouteTurns.maneuvers(along: map.route(Array(route)).line, graph: marked(map, marks), mode: mode).maneuvers
            .map { Instructions.english.text(for: $0) }
    }

    /// A ring of 4 arms, driven anticlockwise (b north, c west, e south, g east); the south arm's
    /// end f is `armLength` metres from the ring.
    static func roundabout(grid: Double) -> AsciiMap {
        AsciiMap(gridSize: grid, """
                a
                b
            d c   g h
                e
                f
            """, ways: [("ab", ["highway": "primary"]), ("cd", ["highway": "primary"]), ("ef", ["highway": "residential"]),
                        ("gh", ["highway": "primary"]), ("bcegb", ["highway": "primary", "junction": "roundabout"])])
    }

    @Test("a bollard 10 m into a roundabout's arm takes it out of the exits: the east arm is the 2nd exit, not the 3rd; 30 m in, the arm still counts")
    func roundaboutExit() {
        let bollard: [Character: [String: String]] = ["f": ["barrier": "bollard"]]
        let near = Self.roundabout(grid: 10)
        #expect(Self.rows(near, "abcegh").first?.hasPrefix("Roundabout, 3rd exit") == true, "\(Self.rows(near, "abcegh"))")
        #expect(Self.rows(near, "abcegh", bollard).first?.hasPrefix("Roundabout, 2nd exit") == true, "\(Self.rows(near, "abcegh", bollard))")
        // A bicycle passes a bollard: the arm is an exit for it.
        #expect(Self.rows(near, "abcegh", bollard, mode: .cycle).first?.hasPrefix("Roundabout, 3rd exit") == true)
        // Opened to cars on the node itself, the bollard closes nothing.
        #expect(Self.rows(near, "abcegh", ["f": ["barrier": "bollard", "motor_vehicle": "yes"]]).first?.hasPrefix("Roundabout, 3rd exit") == true)
        let far = Self.roundabout(grid: 30)
        #expect(Self.rows(far, "abcegh", bollard).first?.hasPrefix("Roundabout, 3rd exit") == true, "\(Self.rows(far, "abcegh", bollard))")
    }

    /// A road splitting into two of its class 19° apart, the right one through x 12 m from the split.
    static let fork = AsciiMap(gridSize: 2, """
                        c

        a   b
                  x
                        d
        """, ways: [("abc", ["highway": "residential"]), ("bxd", ["highway": "residential"])])

    @Test("a fork whose other branch is closed by a bollard 12 m on is no choice: no row; a locked gate too, an open one not")
    func closedFork() {
        let open = Self.rows(Self.fork, "abc")
        #expect(open.count == 1 && open[0].contains("left"), "\(open)")
        #expect(Self.rows(Self.fork, "abc", ["x": ["barrier": "bollard"]]).isEmpty, "\(Self.rows(Self.fork, "abc", ["x": ["barrier": "bollard"]]))")
        #expect(Self.rows(Self.fork, "abc", ["x": ["barrier": "gate", "access": "private"]]).isEmpty)
        #expect(Self.rows(Self.fork, "abc", ["x": ["barrier": "gate"]]) == open, "a gate opens: the road is still a choice")
    }
}
