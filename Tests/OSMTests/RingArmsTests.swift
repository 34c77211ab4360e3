import Foundation
import Geo
import Guidance
import Model
import OSM
import Testing
import TestSupport

/// Every road of a roundabout's ring, the ones past the exit too (`Junction.ringArms`), on the
/// four-armed ring of the turn table: N, W, S and E meet it at n, w, s and e, and traffic goes
/// round n → w → s → e (anticlockwise, keeping right).
@Suite("The roads of a ring past the exit taken")
struct RingArmsTests {
    static func ring(westOneWayIn: Bool = false, closed: Bool = true) -> AsciiMap {
        AsciiMap(gridSize: 10, """
                  N

                  n

            W   w   e   E

                  s

                  S
            """, ways: [(closed ? "nwsen" : "nwse", ["highway": "primary", "junction": "roundabout"]), ("Nn", ["highway": "primary"]),
                        ("Ww", ["highway": "primary", "oneway": westOneWayIn ? "yes" : "no"]), ("Ss", ["highway": "primary"]),
                        ("Ee", ["highway": "residential"])])
    }

    @Test("the first exit, E: the junction where the route leaves the ring holds N and W, in the order traffic meets them")
    func pastTheExit() throws {
        let map = Self.ring()
        let junctions = JunctionFinder(graph: map.graph).junctions(along: map.route(Array("SseE")).nodes)
        #expect(junctions.count == 2)
        #expect(junctions[0].ringArms == nil, "the entry node")
        let arms = try #require(junctions[1].ringArms)
        // n (north, bearing 0), then w (west, 270), both roads one may leave by.
        #expect(arms.count == 2)
        #expect(abs(normalizedTurn(arms[0].bearing - 0)) < 0.5 && abs(normalizedTurn(arms[1].bearing - 270)) < 0.5, "\(arms.map(\.bearing))")
        #expect(arms.allSatisfy { $0.role == .side && $0.canLeave && !$0.isRoundabout })
    }

    @Test("the first exit's tulip: four roads, N and W met after the exit, a one-way arm into the ring barred")
    func tulipOfTheRing() throws {
        let map = Self.ring(westOneWayIn: true)
        let found = maneuvers(map, map.route(Array("SseE")))
        let row = try #require(found.first)
        #expect(row.kind == .roundabout && row.exitNumber == 1)
        let tulip = TulipBuilder.tulip(for: row)
        // Arriving north along S: E is 90° right, N straight on, W 90° left.
        let roads = tulip.roads.map { ($0.role, Int($0.angle.rounded()), $0.noExit, $0.metBeforeExit) }
        #expect(roads.count == 4)
        #expect(roads.contains { $0 == (.entry, 180, false, nil) })
        #expect(roads.contains { $0 == (.exit, 90, false, nil) })
        #expect(roads.contains { $0 == (.side, 0, false, false) })
        #expect(roads.contains { $0 == (.side, -90, true, false) }, "W is one-way into the ring: \(roads)")
        // The book's junction: the entry and the exit in `spokes`, the roads met after it in `ringArms`.
        let junction = row.combinedJunction
        #expect(junction.spokes.map(\.role) == [.entry, .exit] && junction.ringArms?.count == 2)
        #expect(TulipBuilder.tulip(for: junction, roundabout: tulip.roundabout) == tulip, "drawn again from the book's junction")
    }

    @Test("the third exit, W: the route passes every ring node, no road lies past its exit")
    func thirdExit() throws {
        let map = Self.ring()
        let junctions = JunctionFinder(graph: map.graph).junctions(along: map.route(Array("SsenwW")).nodes)
        #expect(junctions.allSatisfy { $0.ringArms == nil })
        let row = try #require(maneuvers(map, map.route(Array("SsenwW"))).first)
        #expect(row.exitNumber == 3)
        // E and N met before the exit, as counted.
        #expect(TulipBuilder.tulip(for: row).roads.filter { $0.metBeforeExit == true }.count == 2)
    }

    @Test("a ring that does not close gives no roads past the exit rather than roads of another place")
    func openRing() throws {
        let map = Self.ring(closed: false)
        let junctions = JunctionFinder(graph: map.graph).junctions(along: map.route(Array("SseE")).nodes)
        #expect(junctions.allSatisfy { $0.ringArms == nil })
    }
}
