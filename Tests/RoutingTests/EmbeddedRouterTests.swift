import Foundation
import Geo
import Model
import OSM
import Routing
import Testing
import TestSupport

/// The graph of `map`'s nodes with `ways` read as OpenStreetMap tags, access tags included (the
/// ASCII map itself keeps only the road tags).
func graph(_ map: AsciiMap, _ ways: [(String, [String: String])]) -> RoadGraph {
    var graph = RoadGraph(coordinates: map.graph.coordinates, osmIDs: map.graph.osmIDs,
                          ways: ways.enumerated().map { i, way in WayInfo(id: Int64(i + 1), highway: way.1["highway"]!, tags: way.1) },
                          wayNodes: ways.map { $0.0.map { map[$0].index } })
    graph.turnRestrictions = map.graph.turnRestrictions
    return graph
}

private func router(_ drawing: String, grid: Double = 100, _ ways: [(String, [String: String])]) -> (AsciiMap, EmbeddedRouter) {
    let map = AsciiMap(gridSize: grid, drawing, ways: ways)
    return (map, EmbeddedRouter(graph: graph(map, ways)))
}

/// The message of the `RoutingError.noRoute` that `body` throws, or nil when it throws none.
private func noRouteMessage(_ body: () async throws -> RoadLeg) async -> String? {
    do {
        _ = try await body()
        return nil
    } catch RoutingError.noRoute(let message) {
        return message
    } catch {
        return "\(error)"
    }
}

private let residential = ["highway": "residential"]

@Suite struct EmbeddedRouterGridTests {
    @Test func takesTheDirectRoadOverTheDetour() async throws {
        let (map, r) = router("""
            abc
            d e
            """, [("abc", residential), ("adec", residential)])
        let leg = try await r.route(from: map["a"].coordinate, to: map["c"].coordinate, mode: .drive)
        #expect(abs(leg.distance - 200) < 0.5)
        #expect(leg.line.contains(map["b"].coordinate))
        #expect(!leg.line.contains(map["d"].coordinate))
    }

    @Test func minimisesTimeForDriversAndDistanceOnFoot() async throws {
        // 200 m of residential street (25 km/h, 28.8 s) against 400 m of primary road (65 km/h, 22.2 s).
        let (map, r) = router("""
            abc
            def
            """, [("abc", residential), ("adefc", ["highway": "primary"])])
        let drive = try await r.route(from: map["a"].coordinate, to: map["c"].coordinate, mode: .drive)
        #expect(abs(drive.distance - 400) < 0.5)
        #expect(abs(drive.duration - 400 / (65 / 3.6)) < 0.1)
        let walk = try await r.route(from: map["a"].coordinate, to: map["c"].coordinate, mode: .walk)
        #expect(abs(walk.distance - 200) < 0.5)
        #expect(abs(walk.duration - 200 / (5 / 3.6)) < 0.1)
    }

    @Test func driversKeepToTheOnewayPedestriansDoNot() async throws {
        // a→b is one way east. From 10 m below b to 10 m below a: a car goes round by d and c.
        let (map, r) = router("""
            ab
            cd
            """, [("ab", ["highway": "residential", "oneway": "yes"]), ("acdb", residential)])
        let start = map.point(100, -10), end = map.point(0, -10)
        let drive = try await r.route(from: start, to: end, mode: .drive)
        #expect(abs(drive.distance - 280) < 0.5)
        let walk = try await r.route(from: start, to: end, mode: .walk)
        #expect(abs(walk.distance - 120) < 0.5)
        // With the oneway, from a to b is the short way for a car too.
        let along = try await r.route(from: map.point(0, -10), to: map.point(100, -10), mode: .drive)
        #expect(abs(along.distance - 120) < 0.5)
    }

    @Test func bicyclesAndPedestriansStayOffTheMotorway() async throws {
        let (map, r) = router("""
            abc
            d e
            """, [("abc", ["highway": "motorway", "oneway": "no"]), ("adec", residential)])
        let drive = try await r.route(from: map["a"].coordinate, to: map["c"].coordinate, mode: .drive)
        #expect(abs(drive.distance - 200) < 0.5)
        for mode in [TravelMode.cycle, .walk] {
            let leg = try await r.route(from: map["a"].coordinate, to: map["c"].coordinate, mode: mode)
            #expect(abs(leg.distance - 400) < 0.5, "\(mode)")
            #expect(!leg.line.contains(map["b"].coordinate), "\(mode)")
        }
    }

    @Test func privateRoadAvoidedUnlessTheModeIsLetOn() async throws {
        let (map, r) = router("""
            abc
            d e
            """, [("abc", ["highway": "residential", "access": "private", "foot": "yes"]), ("adec", residential)])
        let drive = try await r.route(from: map["a"].coordinate, to: map["c"].coordinate, mode: .drive)
        #expect(abs(drive.distance - 400) < 0.5)
        let cycle = try await r.route(from: map["a"].coordinate, to: map["c"].coordinate, mode: .cycle)
        #expect(abs(cycle.distance - 400) < 0.5)
        let walk = try await r.route(from: map["a"].coordinate, to: map["c"].coordinate, mode: .walk)
        #expect(abs(walk.distance - 200) < 0.5)
    }

    @Test func carsTakeOnlyFirmTracks() async throws {
        let (map, r) = router("""
            abc
            d e
            """, [("abc", ["highway": "track", "tracktype": "grade4"]), ("adec", ["highway": "track", "tracktype": "grade2"])])
        let drive = try await r.route(from: map["a"].coordinate, to: map["c"].coordinate, mode: .drive)
        #expect(abs(drive.distance - 400) < 0.5)
        let cycle = try await r.route(from: map["a"].coordinate, to: map["c"].coordinate, mode: .cycle)
        #expect(abs(cycle.distance - 200) < 0.5)
    }

    @Test func noRoadBetweenSaysSo() async throws {
        let (map, r) = router("""
            ab

            cd
            """, [("ab", residential), ("cd", residential)])
        let drive = await noRouteMessage { try await r.route(from: map["a"].coordinate, to: map["d"].coordinate, mode: .drive) }
        #expect(drive == "No driving route")
        let walk = await noRouteMessage { try await r.route(from: map["a"].coordinate, to: map["d"].coordinate, mode: .walk) }
        #expect(walk == "No walking route")
    }

    @Test("an end on an island that leads nowhere moves onto the main network; on a map of small pieces it stays")
    func islandEnd() async throws {
        // The main road a–d (300 m); x–y, 150 m north of b–c, is joined to nothing. The end lies 50 m
        // south of x–y and 100 m north of b–c.
        let drawing = """
             xy


            abcd
            """
        let ways: [(String, [String: String])] = [("abcd", residential), ("xy", residential)]
        let map = AsciiMap(gridSize: 50, drawing, ways: ways)
        let end = map.point(map["x"].x + 25, map["x"].y - 50)
        var configuration = EmbeddedRouter.Configuration()
        configuration.islandNodes = 3
        let r = EmbeddedRouter(graph: graph(map, ways), configuration: configuration)
        let leg = try await r.route(from: map["a"].coordinate, to: end, mode: .drive)
        #expect(leg.line.last!.distance(to: map.point(map["x"].x + 25, map["b"].y)) < 0.01)
        // With islands of 5 nodes, the main network (4 nodes) is one of the small pieces: no route.
        configuration.islandNodes = 5
        let small = EmbeddedRouter(graph: graph(map, ways), configuration: configuration)
        #expect(await noRouteMessage { try await small.route(from: map["a"].coordinate, to: end, mode: .drive) } == "No driving route")
    }

    @Test("an end or a start on a node of a one-way road is that node: reached or left by any road the mode may take")
    func endsOnANode() async throws {
        // Way 1 runs a→b→c and is one-way against its drawing (c→b→a); way 2 joins c and d both ways.
        let (map, r) = router("a-b-c-d", grid: 50, [("abc", ["highway": "primary", "oneway": "-1"]), ("cd", residential)])
        // From d to exactly b: d→c→b, 200 m. A point exactly on b is the end of segment a–b as much
        // as the start of b–c; taken as a point of a–b, it was reached only along a–b, which the
        // one-way forbids: "No driving route".
        let there = try await r.route(from: map["d"].coordinate, to: map["b"].coordinate, mode: .drive)
        #expect(abs(there.distance - 200) < 0.5)
        // From exactly b onwards: b→a, 100 m; back to d the one-way forbids.
        let on = try await r.route(from: map["b"].coordinate, to: map["a"].coordinate, mode: .drive)
        #expect(abs(on.distance - 100) < 0.5)
        #expect(await noRouteMessage { try await r.route(from: map["b"].coordinate, to: map["d"].coordinate, mode: .drive) } == "No driving route")
        // Start and end on the same node: a leg of no length.
        #expect(try await r.route(from: map["b"].coordinate, to: map["b"].coordinate, mode: .drive).distance < 0.01)
        // From exactly c to halfway along c–d, another way: straight there, 50 m (not round by d and back).
        let along = try await r.route(from: map["c"].coordinate, to: map.point(map["c"].x + 50, map["c"].y), mode: .drive)
        #expect(abs(along.distance - 50) < 0.5, "\(along.distance)")
    }

    @Test func startFarFromAnyRoadSaysHowFar() async throws {
        let (map, r) = router("ab", [("ab", residential)])
        let start = await noRouteMessage { try await r.route(from: map.point(0, 820), to: map["b"].coordinate, mode: .drive) }
        #expect(start == "No driving route: the start is 820 m from any road")
        let end = await noRouteMessage { try await r.route(from: map["a"].coordinate, to: map.point(100, -600), mode: .cycle) }
        #expect(end == "No cycling route: the end is 600 m from any road")
        // Within the snap radius the leg is answered.
        let near = try await r.route(from: map.point(0, 450), to: map["b"].coordinate, mode: .drive)
        #expect(abs(near.distance - 100) < 0.5)
    }

    @Test func lineRunsFromSnappedStartToSnappedEndWithPartialSegments() async throws {
        let (map, r) = router("""
             x
            abc
            """, [("abc", residential), ("bx", residential)])
        let leg = try await r.route(from: map.point(50, -90), to: map.point(150, -110), mode: .drive)
        #expect(leg.line.first!.distance(to: map.point(50, -100)) < 0.01)
        #expect(leg.line.last!.distance(to: map.point(150, -100)) < 0.01)
        #expect(leg.line.count == 3)
        #expect(abs(leg.distance - 100) < 0.01)
        #expect(abs(leg.duration - 100 / (25 / 3.6)) < 0.01)
        #expect(leg.junctions.count == 1)
        #expect(abs((leg.junctions.first?.distanceAlong ?? 0) - 50) < 0.01)
        #expect(leg.junctions.first?.coordinate == map["b"].coordinate)
    }

    @Test func startAndEndOnOneSegment() async throws {
        let (map, r) = router("ab", [("ab", ["highway": "residential", "oneway": "yes"])])
        let forward = try await r.route(from: map.point(20, 5), to: map.point(70, 5), mode: .drive)
        #expect(abs(forward.distance - 50) < 0.01)
        #expect(forward.junctions.isEmpty)
        // Against the oneway there is no way back on a single road.
        let back = await noRouteMessage { try await r.route(from: map.point(70, 5), to: map.point(20, 5), mode: .drive) }
        #expect(back == "No driving route")
        let walkBack = try await r.route(from: map.point(70, 5), to: map.point(20, 5), mode: .walk)
        #expect(abs(walkBack.distance - 50) < 0.01)
    }
}

/// The Andorra extract's full road graph and its router, built once for the suite.
private let andorra: Result<(RoadGraph, EmbeddedRouter), any Error> = Result {
    let url = try testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf")
    let graph = try OSMGraph.load(contentsOf: url, profile: .allRoads)
    return (graph, EmbeddedRouter(graph: graph))
}

@Suite struct EmbeddedRouterAndorraTests {
    /// Legs across Andorra with the range their road length must fall in, as a multiple of the
    /// straight line: the main valley road runs 1.1–1.6× the straight line; the Envalira pass and the
    /// climb to Ordino by La Massana wind more. OSRM (MLD, car profile) over the same extract gives
    /// 6,943 m to Encamp, 32,986 m to Pas de la Casa and 11,380 m to Ordino; this router 7,032 m,
    /// 33,076 m and 11,468 m.
    static let legs: [(name: String, from: Coordinate, to: Coordinate, mode: TravelMode, ratio: ClosedRange<Double>)] = [
        ("Andorra la Vella → Encamp", Coordinate(latitude: 42.5075, longitude: 1.5218),
         Coordinate(latitude: 42.5345, longitude: 1.5806), .drive, 1.05...1.6),
        ("Andorra la Vella → Pas de la Casa", Coordinate(latitude: 42.5075, longitude: 1.5218),
         Coordinate(latitude: 42.5425, longitude: 1.7336), .drive, 1.1...2.0),
        ("Andorra la Vella → Ordino", Coordinate(latitude: 42.5075, longitude: 1.5218),
         Coordinate(latitude: 42.5558, longitude: 1.5331), .cycle, 1.3...2.4),
        ("Andorra la Vella → Ordino", Coordinate(latitude: 42.5075, longitude: 1.5218),
         Coordinate(latitude: 42.5558, longitude: 1.5331), .drive, 1.3...2.4),
        ("Escaldes → Andorra la Vella on foot", Coordinate(latitude: 42.5100, longitude: 1.5380),
         Coordinate(latitude: 42.5075, longitude: 1.5218), .walk, 1.0...1.6),
    ]

    @Test(arguments: 0..<legs.count)
    func realLegsArePlausible(_ i: Int) async throws {
        let (graph, router) = try andorra.get()
        let leg = Self.legs[i]
        let road = try await router.route(from: leg.from, to: leg.to, mode: leg.mode)
        let rules = TravelRules.forMode(leg.mode)
        let index = SegmentIndex(graph: graph)
        let usable = { (way: Int) in rules.speed(on: graph.ways[way]) != nil }
        let startSnap = try #require(index.nearest(to: leg.from, within: 500, accepting: usable))
        let endSnap = try #require(index.nearest(to: leg.to, within: 500, accepting: usable))
        #expect(road.line.first == startSnap.coordinate)
        #expect(road.line.last == endSnap.coordinate)
        #expect(abs(road.distance - Polyline(road.line).length) < 0.01)
        let straight = startSnap.coordinate.distance(to: endSnap.coordinate)
        let ratio = road.distance / straight
        print("\(leg.name) (\(leg.mode.gerund)): \(Int(road.distance)) m, \(Int(road.duration)) s, straight \(Int(straight)) m, "
              + "ratio \(String(format: "%.2f", ratio)), \(road.junctions.count) junctions")
        #expect(leg.ratio.contains(ratio), "\(leg.name): \(road.distance) m against \(straight) m straight")
        #expect(!road.junctions.isEmpty)
        let along = road.junctions.map(\.distanceAlong)
        #expect(along == along.sorted())
        #expect(along.allSatisfy { $0 > 0 && $0 < road.distance })
        // Every vertex after the partial first segment is a graph node, in road order: no jumps.
        for (a, b) in zip(road.line, road.line.dropFirst()) { #expect(a.distance(to: b) < 2_000) }
    }

    @Test("an end nearest a piece of road the extract cut off moves onto the main network, where OSRM moves it")
    func islandEnd() async throws {
        let (_, router) = try andorra.get()
        // At Pas de la Casa the nearest road, 60 m off, is a piece of the CG-2 that the extract leaves
        // joined to nothing. OSRM over the same extract snaps this end 116 m away onto Carrer de Sant
        // Jordi, at 42.543084, 1.731769 (its answer's waypoint), and routes 32.57 km.
        let end = Coordinate(latitude: 42.5436, longitude: 1.7330)
        let leg = try await router.route(from: Coordinate(latitude: 42.5063, longitude: 1.5218), to: end, mode: .drive)
        let last = try #require(leg.line.last)
        #expect(last.distance(to: Coordinate(latitude: 42.543084, longitude: 1.731769)) < 2, "\(last)")
        #expect(abs(leg.distance - 32_574) < 0.05 * 32_574, "\(leg.distance)")
        // With no island (every network counts), the end stays on the piece of CG-2: no road.
        var configuration = EmbeddedRouter.Configuration()
        configuration.islandNodes = 0
        let strict = EmbeddedRouter(graph: router.graph, configuration: configuration, modes: [.drive])
        let message = await noRouteMessage { try await strict.route(from: Coordinate(latitude: 42.5063, longitude: 1.5218), to: end, mode: .drive) }
        #expect(message == "No driving route")
    }
}

@Suite("Travel rules read the tags OSRM's profiles read")
struct TravelRulesTagTests {
    @Test("a road under construction is no road to take (construction=minor or widening still is)")
    func construction() {
        func way(_ construction: String?) -> WayInfo {
            var tags = ["highway": "primary"]
            tags["construction"] = construction
            return WayInfo(id: 1, highway: "primary", tags: tags)
        }
        for mode in TravelMode.allCases {
            let rules = TravelRules.forMode(mode)
            #expect(rules.speed(on: way("yes")) == nil, "\(mode)")
            #expect(rules.speed(on: way("minor")) != nil && rules.speed(on: way("widening")) != nil && rules.speed(on: way(nil)) != nil)
            // Still drawn at a junction: it is in the junction graph.
            #expect(rules.inJunctionGraph(way("yes")))
        }
    }

    @Test("a path or footway opened to cars by its own tag is driven at car.lua's 10 km/h; one opened to everyone is not")
    func waysOpenedToCars() {
        func way(_ highway: String, _ access: [String: String]) -> WayInfo { WayInfo(id: 1, highway: highway, access: access) }
        let drive = TravelRules.drive
        #expect(drive.speed(on: way("path", ["motor_vehicle": "designated"])) == 10 / 3.6)
        #expect(drive.speed(on: way("footway", ["motorcar": "yes"])) == 10 / 3.6)
        #expect(drive.speed(on: way("path", ["access": "yes"])) == nil)
        #expect(drive.speed(on: way("footway", ["vehicle": "yes"])) == nil)
        #expect(drive.speed(on: way("path", [:])) == nil)
        // The most specific of the car's own tags decides.
        #expect(drive.speed(on: way("path", ["motorcar": "no", "motor_vehicle": "yes"])) == nil)
        #expect(drive.speed(on: way("path", ["motor_vehicle": "private"])) == nil)
        #expect(drive.inJunctionGraph(way("path", ["motor_vehicle": "designated"])))
        // A bicycle's rules are as they were: its own tag only.
        #expect(TravelRules.cycle.speed(on: way("footway", ["bicycle": "yes"])) == 4 / 3.6)
        #expect(TravelRules.cycle.speed(on: way("footway", ["vehicle": "yes"])) == nil)
    }
}
