import Foundation
import Geo
import Model
import OSM
import Testing
import TestSupport

/// Junction fixtures drawn on a metre grid. Expected bearings come from the drawing itself
/// (`AsciiMap.gridBearing`), so each test states the geometry once.
@Suite struct JunctionTests {
    let tolerance = 0.5

    func finder(_ map: AsciiMap) -> JunctionFinder { JunctionFinder(graph: map.graph) }

    func expectBearing(_ actual: Double?, _ expected: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let actual else { Issue.record("no spoke", sourceLocation: sourceLocation); return }
        let difference = abs(normalizedTurn(actual - expected))
        #expect(difference <= tolerance, "bearing \(actual), expected \(expected)", sourceLocation: sourceLocation)
    }

    func sides(_ junction: Junction) -> [Spoke] {
        junction.spokes.filter { $0.role == .side }.sorted { $0.bearing < $1.bearing }
    }

    @Test func crossroads() {
        // grid: 10 m
        let map = AsciiMap(gridSize: 10, """
                  c

              a   b   e

                  d
            """, ways: [("abe", ["highway": "primary", "name": "Main", "ref": "CG-2"]),
                        ("cbd", ["highway": "track", "tracktype": "grade3"])])
        // route a→c: turn left at b
        let route = map.route("a", "b", "c")
        let junctions = finder(map).junctions(along: route.nodes)
        #expect(junctions.count == 1)
        let b = junctions[0]
        #expect(b.nodeID == map.graph.osmIDs[map["b"].index])
        #expect(b.spokes.count == 4)
        #expect(abs(b.distanceAlong - 40) < 0.01)
        expectBearing(b.entry?.bearing, 270)
        expectBearing(b.exit?.bearing, 0)
        #expect(sides(b).count == 2)
        expectBearing(sides(b).first?.bearing, 90)
        expectBearing(sides(b).last?.bearing, 180)
        #expect(b.entry?.name == "Main" && b.entry?.ref == "CG-2" && b.entry?.highway == "primary")
        #expect(b.exit?.highway == "track" && b.exit?.surface == "grade3")
        #expect(abs((b.turnAngle ?? 0) + 90) <= tolerance)
    }

    @Test func tJunction() {
        let map = AsciiMap(gridSize: 10, """
              a   b   c

                  d
            """, ways: [("abc", ["highway": "secondary"]), ("bd", ["highway": "tertiary", "surface": "gravel"])])
        // route a→d: turn right at b
        let b = finder(map).junctions(along: map.route("a", "b", "d").nodes)
        #expect(b.count == 1)
        #expect(b[0].spokes.count == 3)
        expectBearing(b[0].entry?.bearing, 270)
        expectBearing(b[0].exit?.bearing, 180)
        expectBearing(sides(b[0]).first?.bearing, 90)
        #expect(b[0].exit?.surface == "gravel")
        #expect(abs((b[0].turnAngle ?? 0) - 90) <= tolerance)
    }

    @Test func yFork() {
        let map = AsciiMap(gridSize: 10, """
                        c
              a   b
                        d
            """, ways: [("abc", ["highway": "unclassified"]), ("bd", ["highway": "unclassified"])])
        // route a→c: keep left at b
        let b = finder(map).junctions(along: map.route("a", "b", "c").nodes)
        #expect(b.count == 1 && b[0].spokes.count == 3)
        let left = map.gridBearing(from: "b", toX: map["c"].x, y: map["c"].y)
        let right = map.gridBearing(from: "b", toX: map["d"].x, y: map["d"].y)
        expectBearing(b[0].exit?.bearing, left)
        expectBearing(sides(b[0]).first?.bearing, right)
        #expect(abs(left - 80.54) < 0.01 && abs(right - 99.46) < 0.01)
        #expect(abs((b[0].turnAngle ?? 0) - (left - 90)) <= tolerance)
    }

    @Test func roundaboutWithFourExits() {
        // A ring of radius 20 m, driven anticlockwise (right-hand traffic), with four arms.
        let map = AsciiMap(gridSize: 10, """
                    N

                    n

              W   w   e   E

                    s

                    S
            """, ways: [("nwsen", ["highway": "primary", "junction": "roundabout"]),
                        ("Nn", ["highway": "primary"]), ("Ww", ["highway": "primary"]),
                        ("Ss", ["highway": "primary"]), ("Ee", ["highway": "residential"])])
        // route S→N: second exit
        let junctions = finder(map).junctions(along: map.route("S", "s", "e", "n", "N").nodes)
        #expect(junctions.map(\.nodeID) == ["s", "e", "n"].map { map.graph.osmIDs[map[$0].index] })
        #expect(junctions.allSatisfy { $0.spokes.count == 3 })

        let s = junctions[0]
        expectBearing(s.entry?.bearing, 180)
        expectBearing(s.exit?.bearing, 45)
        #expect(s.entry?.isRoundabout == false && s.exit?.isRoundabout == true)
        expectBearing(sides(s).first?.bearing, 315)
        // The ring runs w → s: one cannot leave s towards w.
        #expect(sides(s).first?.isRoundabout == true && sides(s).first?.canLeave == false)

        let e = junctions[1]
        expectBearing(e.entry?.bearing, 225)
        expectBearing(e.exit?.bearing, 315)
        expectBearing(sides(e).first?.bearing, 90)
        #expect(sides(e).first?.isRoundabout == false && sides(e).first?.highway == "residential")

        let n = junctions[2]
        expectBearing(n.exit?.bearing, 0)
        #expect(n.exit?.isRoundabout == false && n.entry?.isRoundabout == true)
        #expect(abs(n.distanceAlong - (20 + 2 * 20 * 2.0.squareRoot())) < 0.05)
    }

    @Test func staggeredJunction() {
        // Two T junctions 20 m apart: the spoke from one towards the other stops at the other.
        let map = AsciiMap(gridSize: 10, """
                  c

              a   b e   g

                    d
            """, ways: [("abeg", ["highway": "primary"]), ("cb", ["highway": "residential"]),
                        ("ed", ["highway": "residential"])])
        // route c→d: left at b, right at e
        let junctions = finder(map).junctions(along: map.route("c", "b", "e", "d").nodes)
        #expect(junctions.count == 2)
        #expect(abs(junctions[0].distanceAlong - 20) < 0.01 && abs(junctions[1].distanceAlong - 40) < 0.01)
        expectBearing(junctions[0].entry?.bearing, 0)
        expectBearing(junctions[0].exit?.bearing, 90)
        expectBearing(sides(junctions[0]).first?.bearing, 270)
        #expect(abs((junctions[0].turnAngle ?? 0) + 90) <= tolerance)
        expectBearing(junctions[1].entry?.bearing, 270)
        expectBearing(junctions[1].exit?.bearing, 180)
        #expect(abs((junctions[1].turnAngle ?? 0) - 90) <= tolerance)
    }

    @Test func hairpin() {
        // A hairpin leaves b back up the hill; its bend at d is no junction (only one road).
        let map = AsciiMap(gridSize: 10, """
              d           f

              a       b   c
            """, ways: [("abc", ["highway": "secondary"]), ("bdf", ["highway": "secondary"])])
        let junctions = finder(map).junctions(along: map.route("a", "b", "d", "f").nodes)
        // The route enters b from a, but only b has three roads.
        #expect(junctions.count == 1)
        let hairpin = map.gridBearing(from: "b", toX: map["d"].x, y: map["d"].y)
        #expect(abs(hairpin - 284.04) < 0.01)  // atan2(−80 east, 20 north)
        expectBearing(junctions[0].exit?.bearing, hairpin)
        expectBearing(junctions[0].entry?.bearing, 270)
        #expect(abs((junctions[0].turnAngle ?? 0) - normalizedTurn(hairpin - 90)) <= tolerance)
        #expect((junctions[0].turnAngle ?? 0) < -160)
    }

    @Test func uTurnAtDeadEnd() {
        let map = AsciiMap(gridSize: 10, """
              a   b   c

                  d
            """, ways: [("abc", ["highway": "primary"]), ("bd", ["highway": "track"])])
        // route a→d, turn back at the end of the track, then on to c
        let junctions = finder(map).junctions(along: map.route("a", "b", "d", "b", "c").nodes)
        #expect(junctions.count == 3)
        let end = junctions[1]
        #expect(end.nodeID == map.graph.osmIDs[map["d"].index])
        #expect(end.spokes.count == 2)
        expectBearing(end.entry?.bearing, 0)
        expectBearing(end.exit?.bearing, 0)
        #expect(end.turnAngle == 180)
        #expect(abs(end.distanceAlong - 60) < 0.01)
        // Back at b the route arrives northbound from the track and turns right, east, onto the road.
        expectBearing(junctions[2].entry?.bearing, 180)
        expectBearing(junctions[2].exit?.bearing, 90)
        #expect(abs((junctions[2].turnAngle ?? 0) - 90) <= tolerance)
    }

    @Test func slipRoad() {
        // A one-way slip road leaves the main road at b; a one-way on-ramp joins it at c.
        let map = AsciiMap(gridSize: 10, """
              a   b           c   e
                          d   h
            """, ways: [("abce", ["highway": "trunk"]), ("bd", ["highway": "trunk_link", "oneway": "yes"]),
                        ("hc", ["highway": "trunk_link", "oneway": "yes"])])
        let along = finder(map).junctions(along: map.route("a", "b", "c", "e").nodes)
        #expect(along.count == 2 && along.allSatisfy { $0.spokes.count == 3 })
        let slip = sides(along[0]).first
        expectBearing(slip?.bearing, map.gridBearing(from: "b", toX: map["d"].x, y: map["d"].y))
        #expect(slip?.canLeave == true && slip?.highway == "trunk_link")
        let ramp = sides(along[1]).first
        expectBearing(ramp?.bearing, map.gridBearing(from: "c", toX: map["h"].x, y: map["h"].y))
        #expect(ramp?.canLeave == false)

        // route a→d: take the slip road, a slight right
        let off = finder(map).junctions(along: map.route("a", "b", "d").nodes)
        #expect(off.count == 1)
        let slipBearing = map.gridBearing(from: "b", toX: map["d"].x, y: map["d"].y)
        #expect(abs(slipBearing - 97.125) < 0.01)  // atan2(80 east, −10 north)
        #expect(abs((off[0].turnAngle ?? 0) - (slipBearing - 90)) <= tolerance)
        expectBearing(sides(off[0]).first?.bearing, 90)
    }

    @Test func spokeBearingIsFittedOverTheRoadsFirstMetresNotItsFirstVertex() {
        // The side road's first vertex x sits 2 m east of b, then the road heads off south-east.
        // A bearing to x would read 90°; the rider sees the road's first 20 m, which run along x→y.
        let map = AsciiMap(gridSize: 10, """
              a   b   c

                    y
            """, nodes: ["x": (42, 0)],
            ways: [("abc", ["highway": "primary"]), ("bxy", ["highway": "track"])])
        let b = finder(map).junctions(along: map.route("a", "b", "x", "y").nodes)
        #expect(b.count == 1)
        let y = map["y"]
        let road = map.gridBearing(from: "x", toX: y.x, y: y.y)
        #expect(abs(normalizedTurn(road - 90)) > 30, "the fixture's road leaves well off its first vertex's direction")
        let bearing = b[0].exit?.bearing ?? 0
        // The fitted line passes through the junction, so a road that starts 2 m to one side leans a
        // few degrees towards that side: nothing like the 50° of its first vertex.
        #expect(abs(normalizedTurn(bearing - road)) < 8, "fitted \(bearing)°, the road runs \(road)°")
        #expect(abs(normalizedTurn(bearing - 90)) > 25)

        // Fitted over the whole road (it ends at y), it still runs x→y.
        var configuration = JunctionFinder.Configuration()
        configuration.spokeLength = 500
        let far = JunctionFinder(graph: map.graph, configuration: configuration)
            .junctions(along: map.route("a", "b", "x", "y").nodes)
        #expect(abs(normalizedTurn((far[0].exit?.bearing ?? 0) - road)) < 5)
    }

    @Test func ringSpokesFollowTheRingAtTheNode() {
        // On a small roundabout the ring bends a quarter turn in 20 m: its spokes give the ring's
        // direction at the node, as OSRM reports it, not a chord across the island.
        let map = TurnTable.roundabout
        let junctions = finder(map).junctions(along: map.route("S", "s", "e", "n", "w", "W").nodes)
        let s = try! #require(junctions.first { $0.nodeID == map.graph.osmIDs[map["s"].index] })
        let ring = s.spokes.filter(\.isRoundabout)
        #expect(ring.count == 2)
        // s is the ring's bottom; the ring leaves it towards e (north-east) and w (north-west) along
        // straight segments in this drawing, so both are the segments' own bearings.
        let toE = map.gridBearing(from: "s", toX: map["e"].x, y: map["e"].y)
        #expect(ring.contains { abs(normalizedTurn($0.bearing - toE)) < 0.5 })
    }

    @Test func roadWithoutOtherRoadsHasNoJunctions() {
        let map = AsciiMap(gridSize: 10, """
              a   b

                  c   d
            """, ways: [("abcd", ["highway": "track"])])
        #expect(finder(map).junctions(along: map.route("a", "b", "c", "d").nodes).isEmpty)
    }
}
