import Foundation
import Geo
import Guidance
import Model
import OSM
import Testing
import TestSupport
import Workflows

@Suite("Turns along a recorded track: rows stand where the track's odometer reads them")
struct RouteTurnsTests {
    // A mountain road zigzags 20 m either side of its line every 50 m for 2 km (each 50 m east
    // climbs or drops 40 m: 64 m of road), then runs straight to d, where a road leaves north to g.
    // The track follows the line through the bends, as a tunnel under hairpins or a smoothing
    // recorder would, with no fixes at all over the middle 800 m (the tunnel itself).
    static let zigzag: AsciiMap = {
        var nodes: [Character: (x: Double, y: Double)] = ["d": (2_300, 0), "g": (2_300, 300), "h": (2_600, 0)]
        let bends = Array("abcefijklmnopqrstuvxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var road = "w"
        for i in 1...40 {
            nodes[bends[i - 1]] = (Double(i) * 50, i == 40 ? 0 : (i % 2 == 0 ? -20 : 20))
            road.append(bends[i - 1])
        }
        return AsciiMap(gridSize: 10, "w", nodes: nodes,
                        ways: [(road + "dh", ["highway": "secondary", "name": "Main"]), ("dg", ["highway": "secondary", "name": "North"])])
    }()

    @Test("after a GPS gap on a winding road, a turn's distance is measured along the track, not the road")
    func distanceAfterGap() throws {
        let grid = Self.zigzag.grid
        let track = grid.line([(0, 0), (600, 0)]) + grid.line([(1_400, 0), (2_300, 0), (2_300, 300)])
        let found = RouteTurns.maneuvers(along: track, graph: Self.zigzag.graph).maneuvers
        let d = Self.zigzag["d"].coordinate
        let turn = try #require(found.first { $0.coordinate.distance(to: d) < 1 }, "\(found.map { ($0.kind, $0.distanceAlong) })")
        // Along the track: 600 m, 800 m straight across the gap, 900 m to d. Along the road the
        // first 2 km alone are 40 × 64 m = 2,561 m.
        let alongTrack = try #require(Polyline(track).position(closestTo: d)).distanceAlong
        #expect(abs(alongTrack - 2_300) < 1)
        #expect(abs(turn.distanceAlong - alongTrack) < 5, "row at \(turn.distanceAlong) m, the track passes d at \(alongTrack) m")
    }

    @Test("a route that passes one junction twice places each pass at its own distance")
    func twoPasses() throws {
        // A loop: north at d to g, east to k, south to h, west back to d and south to s. d is
        // passed at 900 m (turning left, north) and at 2,100 m (turning left again, south).
        let loop = AsciiMap(gridSize: 100, "w", nodes: [
            "d": (900, 0), "g": (900, 300), "k": (1_200, 300), "h": (1_200, 0), "s": (900, -300),
        ], ways: [("wdh", ["highway": "secondary"]), ("dgkh", ["highway": "secondary"]), ("ds", ["highway": "secondary"])])
        let track = loop.grid.line([(0, 0), (900, 0), (900, 300), (1_200, 300), (1_200, 0), (900, 0), (900, -300)])
        let found = RouteTurns.maneuvers(along: track, graph: loop.graph).maneuvers
        let atD = found.filter { $0.coordinate.distance(to: loop["d"].coordinate) < 1 }.map(\.distanceAlong)
        #expect(atD.count == 2, "\(found.map { ($0.kind, $0.distanceAlong) })")
        if atD.count == 2 {
            #expect(abs(atD[0] - 900) < 5 && abs(atD[1] - 2_100) < 5, "\(atD)")
        }
    }

    // A primary road a–b–c; at b a footway leaves north to d, and a track grade 4 south to e.
    static let crossing = AsciiMap(gridSize: 20, """
            d
        a   b   c
            e
        """, ways: [("abc", ["highway": "primary"]), ("bd", ["highway": "footway"]), ("be", ["highway": "track", "tracktype": "grade4"])])

    @Test("the junction graph is the travel mode's: a footway is no junction for a car, a turn on foot")
    func modeGraph() throws {
        let map = Self.crossing
        let walkLeft = RouteTurns.maneuvers(along: map.route(Array("abd")).line, graph: map.graph, mode: .walk).maneuvers
        #expect(walkLeft.map { Instructions.english.text(for: $0) } == ["Turn left"])
        let drive = try #require(RouteTurns.junctions(along: map.route(Array("abc")).line, graph: map.graph, mode: .drive).junctions.first)
        // For a car the footway is not there at all; the rough track is drawn but is no choice.
        #expect(drive.spokes.count == 3, "\(drive.spokes)")
        #expect(drive.spokes.first { $0.highway == "track" }?.canLeave == false)
        #expect(RouteTurns.maneuvers(along: map.route(Array("abc")).line, graph: map.graph, mode: .drive).maneuvers.isEmpty)
        let walk = try #require(RouteTurns.junctions(along: map.route(Array("abc")).line, graph: map.graph, mode: .walk).junctions.first)
        #expect(walk.spokes.count == 4 && walk.spokes.allSatisfy { $0.canLeave })
    }
}

@Suite("The map read around a route")
struct RouteCorridorLoadTests {
    /// A road across the antimeridian, and another 5 km north of it.
    static let map = """
    <?xml version="1.0" encoding="UTF-8"?>
    <osm version="0.6" generator="hand">
    <node id="1" lat="-16.8000000" lon="179.9950000"/>
    <node id="2" lat="-16.8000000" lon="-179.9950000"/>
    <node id="3" lat="-16.7550000" lon="179.9950000"/>
    <node id="4" lat="-16.7550000" lon="-179.9950000"/>
    <way id="10"><nd ref="1"/><nd ref="2"/><tag k="highway" v="primary"/><tag k="name" v="Date Line Road"/></way>
    <way id="11"><nd ref="3"/><nd ref="4"/><tag k="highway" v="primary"/><tag k="name" v="North Road"/></way>
    </osm>
    """

    @Test("a route across the antimeridian reads the whole map (it has no corridor), one elsewhere only its corridor")
    func antimeridian() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("fiji.osm")
        try Data(Self.map.utf8).write(to: url)
        let across = [Coordinate(latitude: -16.8, longitude: 179.995), Coordinate(latitude: -16.8, longitude: -179.995)]
        let names = { (graph: RoadGraph) in Set(graph.ways.compactMap(\.name)) }
        #expect(names(try RouteTurns.loadGraph(url, corridor: across)) == ["Date Line Road", "North Road"])
        // The same road, driven west of the line only: the corridor leaves out the road 5 km north.
        let west = [Coordinate(latitude: -16.8, longitude: 179.990), Coordinate(latitude: -16.8, longitude: 179.995)]
        #expect(names(try RouteTurns.loadGraph(url, corridor: west)) == ["Date Line Road"])
    }
}
