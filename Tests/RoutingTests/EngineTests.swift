import Foundation
import Geo
import HTTP
import Model
import Testing
import TestSupport
@testable import Routing

// MARK: - Helpers

private let local = URL(string: "http://127.0.0.1:5000")!
/// The recorded leg's ends (see RecordedAnswers.swift).
private let start = Coordinate(latitude: 42.5063, longitude: 1.5218)
private let end = Coordinate(latitude: 42.5085, longitude: 1.5265)

private func json(_ text: String, status: Int = 200) -> FakeHTTPClient.Answer {
    .success(HTTPResponse(status: status, headers: ["content-type": "application/json"], body: Data(text.utf8)))
}

/// The line of OSRM's recorded answer, read straight from its JSON.
private func osrmRecordedLine() throws -> [Coordinate] {
    let object = try JSONSerialization.jsonObject(with: Data(osrmAndorraRoute.utf8)) as? [String: Any]
    let routes = try #require(object?["routes"] as? [[String: Any]])
    let geometry = try #require(routes.first?["geometry"] as? [String: Any])
    let coordinates = try #require(geometry["coordinates"] as? [[Double]])
    return coordinates.map { Coordinate(latitude: $0[1], longitude: $0[0]) }
}

/// The smallest difference between two bearings, in degrees.
private func bearingGap(_ a: Degrees, _ b: Degrees) -> Degrees { abs(normalizedTurn(a - b)) }

private func near(_ a: Coordinate, _ b: Coordinate, within metres: Metres = 0.5) -> Bool { a.distance(to: b) <= metres }

/// Runs `body` and returns the `RoutingError` it threw, or records an issue.
private func routingError(_ body: () async throws -> RoadLeg) async -> RoutingError? {
    do {
        let leg = try await body()
        Issue.record("expected a RoutingError, got a leg of \(leg.line.count) points")
        return nil
    } catch let error as RoutingError {
        return error
    } catch {
        Issue.record("expected a RoutingError, got \(error)")
        return nil
    }
}

// MARK: - Encoded polylines

@Suite("Encoded polylines")
struct EncodedPolylineTests {
    @Test("Google's documented example decodes at precision 5")
    func googleExample() throws {
        let points = try EncodedPolyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@", precision: 5)
        #expect(points == [Coordinate(latitude: 38.5, longitude: -120.2),
                           Coordinate(latitude: 40.7, longitude: -120.95),
                           Coordinate(latitude: 43.252, longitude: -126.453)])
        #expect(EncodedPolyline.encode(points, precision: 5) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
    }

    @Test("Valhalla's recorded shape decodes at precision 6 to OSRM's line of the same leg")
    func valhallaShape() throws {
        let shape = "yckapAwh{{Ai@`AYxBNvB\\`AiS\\cLu`@}BeHmOeJwJE_L\\aCuXaE}]_A{i@N}OaFiZ{Lwn@q@uIiG_FiEePqBkS]eE"
        let points = try EncodedPolyline.decode(shape, precision: 6)
        #expect(points.count == 22)
        #expect(points.first == Coordinate(latitude: 42.506317, longitude: 1.52182))
        #expect(points[1] == Coordinate(latitude: 42.506338, longitude: 1.521787))
        #expect(points.last == Coordinate(latitude: 42.508437, longitude: 1.526518))
        #expect(EncodedPolyline.encode(points, precision: 6) == shape)
        // Both engines drew the same road over the same map.
        let osrm = try osrmRecordedLine()
        #expect(points.count == osrm.count)
        for (a, b) in zip(points, osrm) { #expect(near(a, b, within: 0.3), "\(a) against \(b)") }
    }

    @Test("an empty string is no points")
    func empty() throws {
        #expect(try EncodedPolyline.decode("").isEmpty)
        #expect(EncodedPolyline.encode([]) == "")
    }

    @Test("negative, zero and far-apart points survive a round trip to the sixth decimal")
    func roundTrip() throws {
        let points = [Coordinate(latitude: -33.868820, longitude: 151.209296), Coordinate(latitude: 0, longitude: 0),
                      Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 89.999999, longitude: -179.999999)]
        #expect(try EncodedPolyline.decode(EncodedPolyline.encode(points)) == points)
    }

    @Test("bad input says where and why", arguments: [
        ("_p~i", "cut off"),                        // the last group still says "more follows"
        ("_p~iF~ps|U_ulL", "without its longitude"),
        ("_p~iF ps|U", "not part of the format"),
        ("_p~iF~ps|U", "outside"),                  // Google's precision 5 read as 6 is fine; 4 is not
    ])
    func bad(input: String, reason: String) {
        let precision = reason == "outside" ? 4 : 5
        do {
            let points = try EncodedPolyline.decode(input, precision: precision)
            Issue.record("decoded \(points) from \(input)")
        } catch {
            #expect(error.description.contains(reason), "\(error)")
        }
    }
}

// MARK: - OSRM

@Suite("OSRM adapter")
struct OSRMEngineTests {
    @Test("a recorded answer becomes the line, distance, time and junctions, in one request")
    func recorded() async throws {
        let client = FakeHTTPClient(answers: [json(osrmAndorraRoute)])
        let leg = try await OSRMEngine(client: client, baseURL: local).route(from: start, to: end, mode: .drive)

        #expect(client.requests.count == 1)
        let request = try #require(client.requests.first)
        #expect(request.method == .get)
        #expect(request.url.path == "/route/v1/driving/1.521800,42.506300;1.526500,42.508500")
        let query = Set((URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? [])
            .map { "\($0.name)=\($0.value ?? "")" })
        #expect(query == ["steps=true", "overview=full", "geometries=geojson", "annotations=false"])

        let line = try osrmRecordedLine()
        #expect(leg.line == line)
        #expect(leg.distance == 547.5)
        #expect(leg.duration == 54.8)

        // Every intersection with an arriving and a leaving road: not the departure, not the arrival.
        #expect(leg.junctions.count == 5)
        let cumulative = Polyline(line).cumulativeDistances
        let vertices = [4, 10, 12, 15, 17]
        for (junction, vertex) in zip(leg.junctions, vertices) {
            #expect(junction.coordinate == line[vertex])
            #expect(abs(junction.distanceAlong - cumulative[vertex]) < 0.01, "\(junction.distanceAlong) against \(cumulative[vertex])")
        }

        // Out of the roundabout: in 1 (60°), out 0 (0°), the ring on at 225°; entry [true,false,true].
        let roundabout = leg.junctions[0]
        #expect(roundabout.spokes.map(\.bearing) == [0, 60, 225])
        #expect(roundabout.spokes.map(\.role) == [.exit, .entry, .side])
        #expect(roundabout.spokes.map(\.canLeave) == [true, false, true])
        #expect(roundabout.entry?.isRoundabout == true)
        #expect(roundabout.exit?.isRoundabout == false)

        // Left from Avinguda Meritxell (in 2, 255°) into Carrer Bisbe Príncep Iglésias (out 0, 30°).
        let left = leg.junctions[4]
        #expect(left.spokes.map(\.bearing) == [30, 75, 255])
        #expect(left.spokes.map(\.role) == [.exit, .side, .entry])
        #expect(left.spokes.map(\.canLeave) == [true, true, false])
        #expect(left.entry?.name == "Avinguda Meritxell")
        #expect(left.exit?.name == "Carrer Bisbe Príncep Iglésias")
        #expect(left.turnAngle == -45)
        // Names: the road a step follows is the exit of its intersections; an unnamed road has none.
        #expect(leg.junctions[3].entry?.name == nil && leg.junctions[3].exit?.name == "Avinguda Meritxell")
    }

    @Test("each mode asks for its own profile; a mode with no profile has no road and asks nothing")
    func modeNames() async throws {
        let client = FakeHTTPClient(answers: [json(osrmAndorraRoute), json(osrmAndorraRoute)])
        let engine = OSRMEngine(client: client, baseURL: URL(string: "http://127.0.0.1:5000/osrm/")!,
                                modeNames: [.drive: "driving", .cycle: "bike"])
        _ = try await engine.route(from: start, to: end, mode: .cycle)
        _ = try await engine.route(from: end, to: start, mode: .drive)
        #expect(client.requests.map(\.url.path) == ["/osrm/route/v1/bike/1.521800,42.506300;1.526500,42.508500",
                                                     "/osrm/route/v1/driving/1.526500,42.508500;1.521800,42.506300"])
        let error = await routingError { try await engine.route(from: start, to: end, mode: .walk) }
        #expect(error == .noRoute("No walking route: OSRM has no profile set for walking"))
        #expect(client.requests.count == 2)
    }

    @Test("OSRM's answers that are not a route map to their RoutingError", arguments: [
        (osrmNoRoute, 400, TravelMode.drive, RoutingError.noRoute("No driving route")),
        (osrmNoSegment, 400, .cycle, .noRoute("No cycling route")),
        (osrmInvalidQuery, 400, .walk,
         .serverError("OSRM: the request was refused (HTTP 400): InvalidQuery: Query string malformed close to position 126")),
        (#"{"code":"Ok","routes":[]}"#, 200, .drive, .serverError("OSRM: the answer is not a route (\"routes\" is empty)")),
        (#"{"code":"Ok","routes":[{"geometry":{"coordinates":[[1.5,42.5]]},"distance":1,"duration":1,"legs":[]}]}"#, 200, .drive,
         .serverError("OSRM: the answer is not a route (routes[0].geometry.coordinates has 1 point(s), fewer than 2)")),
        (#"{"code":"Ok"}"#, 200, .drive, .serverError("OSRM: the answer is not a route (routes is missing)")),
        ("<html>Bad gateway</html>", 200, .drive,
         .serverError("OSRM: the answer is not a route (it is not JSON: «<html>Bad gateway</html>»)")),
        ("Not Found", 404, .drive, .serverError("OSRM: the request was refused (HTTP 404): «Not Found»")),
    ])
    func answers(body: String, status: Int, mode: TravelMode, expected: RoutingError) async {
        let client = FakeHTTPClient(answers: [json(body, status: status)])
        let error = await routingError { try await OSRMEngine(client: client, baseURL: local).route(from: start, to: end, mode: mode) }
        #expect(error == expected)
        #expect(client.requests.count == 1)
    }

    @Test("an intersection whose in index is outside its bearings is not a route")
    func badIndex() async {
        let broken = osrmAndorraRoute.replacingOccurrences(of: #""out":0,"in":2,"#, with: #""out":0,"in":7,"#)
        #expect(broken != osrmAndorraRoute)
        let client = FakeHTTPClient(answers: [json(broken)])
        let error = await routingError { try await OSRMEngine(client: client, baseURL: local).route(from: start, to: end, mode: .drive) }
        #expect(error == .serverError("OSRM: the answer is not a route (steps[4].intersections[0].in is 7, outside its 3 bearings)"))
    }
}

// MARK: - Valhalla

@Suite("Valhalla adapter")
struct ValhallaEngineTests {
    private func recordedLeg(mode: TravelMode = .drive) async throws -> (RoadLeg, FakeHTTPClient) {
        let client = FakeHTTPClient(answers: [json(valhallaAndorraRoute), json(valhallaAndorraTrace)])
        let leg = try await ValhallaEngine(client: client, baseURL: local).route(from: start, to: end, mode: mode)
        return (leg, client)
    }

    @Test("a recorded route and trace become the line, distance, time and junctions, in two requests")
    func recorded() async throws {
        let (leg, client) = try await recordedLeg()

        #expect(client.requests.count == 2)
        let routeRequest = try #require(client.requests.first), traceRequest = client.requests[1]
        #expect(routeRequest.method == .post && routeRequest.url.path == "/route")
        let routeBody = try #require(try JSONSerialization.jsonObject(with: routeRequest.body ?? Data()) as? [String: Any])
        #expect(routeBody["costing"] as? String == "auto")
        let locations = try #require(routeBody["locations"] as? [[String: Double]])
        #expect(locations == [["lat": 42.5063, "lon": 1.5218], ["lat": 42.5085, "lon": 1.5265]])
        #expect((routeBody["directions_options"] as? [String: String]) == ["units": "kilometers"])

        #expect(traceRequest.method == .post && traceRequest.url.path == "/trace_attributes")
        let traceBody = try #require(try JSONSerialization.jsonObject(with: traceRequest.body ?? Data()) as? [String: Any])
        #expect(traceBody["shape_match"] as? String == "edge_walk")
        #expect(traceBody["costing"] as? String == "auto")
        #expect(traceBody["encoded_polyline"] as? String
                == "yckapAwh{{Ai@`AYxBNvB\\`AiS\\cLu`@}BeHmOeJwJE_L\\aCuXaE}]_A{i@N}OaFiZ{Lwn@q@uIiG_FiEePqBkS]eE")
        let filters = try #require(traceBody["filters"] as? [String: Any])
        #expect(filters["attributes"] as? [String] == ValhallaEngine.traceAttributes)

        #expect(leg.line.count == 22)
        #expect(leg.line.first == Coordinate(latitude: 42.506317, longitude: 1.52182))
        #expect(abs(leg.distance - 548) < 1e-9)   // 0.548 km
        #expect(leg.duration == 50.06)

        // Edges 1, 4, 5, 6 and 7 end where other edges meet; the edges between are way splits.
        let cumulative = Polyline(leg.line).cumulativeDistances
        #expect(leg.junctions.count == 5)
        for (junction, vertex) in zip(leg.junctions, [4, 10, 12, 15, 17]) {
            #expect(junction.coordinate == leg.line[vertex])
            #expect(abs(junction.distanceAlong - cumulative[vertex]) < 0.01)
        }

        // Out of the roundabout: arriving on the ring heading 251° (entry 71°), leaving at 358°,
        // a one-way side road leaving at 191° that a car may take.
        let roundabout = leg.junctions[0]
        #expect(roundabout.spokes.map(\.role) == [.entry, .exit, .side])
        #expect(roundabout.spokes.map(\.bearing) == [71, 358, 191])
        #expect(roundabout.entry?.isRoundabout == true && roundabout.exit?.isRoundabout == false)
        #expect(roundabout.entry?.highway == "primary" && roundabout.exit?.highway == "unclassified")
        #expect(roundabout.exit?.surface == "asphalt")
        #expect(roundabout.spokes[2].highway == "primary" && roundabout.spokes[2].canLeave)

        let left = leg.junctions[4]
        #expect(left.entry?.name == "Avinguda Meritxell")
        #expect(left.exit?.name == "Carrer Bisbe Príncep Iglésias")
        #expect(left.exit?.highway == "residential")
    }

    @Test("the junctions agree with OSRM's at the same places, within the spread of how each measures a bearing")
    func agreesWithOSRM() async throws {
        let (valhalla, _) = try await recordedLeg()
        let osrm = try await OSRMEngine(client: FakeHTTPClient(answers: [json(osrmAndorraRoute)]), baseURL: local)
            .route(from: start, to: end, mode: .drive)
        #expect(valhalla.junctions.count == osrm.junctions.count)
        for (v, o) in zip(valhalla.junctions, osrm.junctions) {
            #expect(near(v.coordinate, o.coordinate, within: 0.3))
            #expect(v.spokes.count == o.spokes.count)
            // Valhalla measures a heading over the edge's first metres, OSRM further along; on the
            // roundabout's curve they differ most.
            let entry = try #require(v.entry?.bearing), exit = try #require(v.exit?.bearing)
            #expect(bearingGap(entry, try #require(o.entry?.bearing)) <= 15, "entry at \(v.coordinate)")
            #expect(bearingGap(exit, try #require(o.exit?.bearing)) <= 15, "exit at \(v.coordinate)")
            #expect(bearingGap(try #require(v.turnAngle), try #require(o.turnAngle)) <= 15)
        }
    }

    @Test("side roads can be left by the mode's own ability")
    func abilityByMode() async throws {
        // At edge 5's end (the third junction) a residential road leaves at 308°: drivable and cyclable forward, walkable both ways.
        let oneWay = valhallaAndorraTrace.replacingOccurrences(
            of: #""walkability":"both","cyclability":"forward","driveability":"forward","begin_heading":308"#,
            with: #""walkability":"none","cyclability":"both","driveability":"backward","begin_heading":308"#)
        try #require(oneWay != valhallaAndorraTrace, "the recorded trace no longer holds the 308° side road")
        for (mode, expected) in [(TravelMode.drive, false), (.cycle, true), (.walk, false)] {
            let client = FakeHTTPClient(answers: [json(valhallaAndorraRoute), json(oneWay)])
            let leg = try await ValhallaEngine(client: client, baseURL: local).route(from: start, to: end, mode: mode)
            let side = leg.junctions[2].spokes.first { $0.role == .side }
            #expect(side?.bearing == 308)
            #expect(side?.canLeave == expected, "\(mode)")
        }
    }

    @Test("each mode asks for its costing")
    func costings() async throws {
        for (mode, costing) in [(TravelMode.drive, "auto"), (.cycle, "bicycle"), (.walk, "pedestrian")] {
            let (_, client) = try await recordedLeg(mode: mode)
            for request in client.requests {
                let body = try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any]
                #expect(body?["costing"] as? String == costing)
            }
        }
    }

    @Test("Valhalla's error answers map to their RoutingError", arguments: [
        (valhallaNoPath, TravelMode.drive, RoutingError.noRoute("No driving route")),
        (valhallaNoSuitableEdges, .walk, .noRoute("No walking route")),
        (valhallaNoCosting, .drive,
         .serverError("Valhalla: the request was refused (HTTP 400): /route: 125 No costing method found: 'nope'")),
    ])
    func errors(body: String, mode: TravelMode, expected: RoutingError) async {
        let client = FakeHTTPClient(answers: [json(body, status: 400)])
        let error = await routingError { try await ValhallaEngine(client: client, baseURL: local).route(from: start, to: end, mode: mode) }
        #expect(error == expected)
        #expect(client.requests.count == 1, "no trace is asked for a route that failed")
    }

    @Test("a trace that fails is the server's failure, never no route")
    func traceFails() async {
        let noMatch = #"{"error_code":443,"error":"Exact route match algorithm failed to find path","status_code":400,"status":"Bad Request"}"#
        let cases: [(FakeHTTPClient.Answer, RoutingError)] = [
            (json(noMatch, status: 400),
             .serverError("Valhalla: the request was refused (HTTP 400): /trace_attributes: 443 Exact route match algorithm failed to find path")),
            (json(valhallaNoPath, status: 400),
             .serverError("Valhalla: the request was refused (HTTP 400): /trace_attributes: 442 No path could be found for input")),
            (json("", status: 429), .rateLimited("Valhalla is limiting requests")),
            (json(#"{"edges":[]}"#), .serverError("Valhalla: the answer is not a route (shape is missing)")),
        ]
        for (answer, expected) in cases {
            let client = FakeHTTPClient(answers: [json(valhallaAndorraRoute), answer])
            let error = await routingError { try await ValhallaEngine(client: client, baseURL: local).route(from: start, to: end, mode: .drive) }
            #expect(error == expected)
        }
    }

    @Test("a shape that is not an encoded polyline is not a route")
    func badShape() async {
        let broken = valhallaAndorraRoute.replacingOccurrences(of: #""shape":"yckapA"#, with: #""shape":"yck apA"#)
        #expect(broken != valhallaAndorraRoute)
        let client = FakeHTTPClient(answers: [json(broken)])
        let error = await routingError { try await ValhallaEngine(client: client, baseURL: local).route(from: start, to: end, mode: .drive) }
        #expect(error?.description.hasPrefix("Valhalla: the answer is not a route (trip.legs[0].shape: encoded polyline, byte 3") == true,
                "\(String(describing: error))")
    }

    @Test("road classes and uses become OSM highway values, surfaces OSM surfaces")
    func mapping() {
        #expect(ValhallaEngine.highway(roadClass: "primary", use: "road") == "primary")
        #expect(ValhallaEngine.highway(roadClass: "motorway", use: "ramp") == "motorway_link")
        #expect(ValhallaEngine.highway(roadClass: "service_other", use: "road") == "service")
        #expect(ValhallaEngine.highway(roadClass: "residential", use: "driveway") == "service")
        #expect(ValhallaEngine.highway(roadClass: "service_other", use: "track") == "track")
        #expect(ValhallaEngine.highway(roadClass: "service_other", use: "footway") == "footway")
        #expect(ValhallaEngine.highway(roadClass: nil, use: nil) == nil)
        #expect(ValhallaEngine.surface("paved_smooth") == "asphalt")
        #expect(ValhallaEngine.surface("gravel") == "gravel")
        #expect(ValhallaEngine.surface("path") == "ground")
        #expect(ValhallaEngine.surface(nil) == nil)
        // The tulip's road class follows: a gravel track draws as a track, a ramp as a motorway.
        #expect(Spoke(bearing: 0, role: .side, highway: "track", surface: ValhallaEngine.surface("gravel")).roadClass == .track)
        #expect(Spoke(bearing: 0, role: .side, highway: ValhallaEngine.highway(roadClass: "motorway", use: "ramp")).roadClass == .motorway)
    }
}

// MARK: - GraphHopper

@Suite("GraphHopper adapter")
struct GraphHopperEngineTests {
    @Test("an answer becomes the line, distance, time and entry/exit junctions, in one request")
    func answer() async throws {
        let client = FakeHTTPClient(answers: [json(graphHopperAndorraRoute)])
        let engine = GraphHopperEngine(client: client, baseURL: URL(string: "https://gh.example/api/1")!, apiKey: "secret")
        let leg = try await engine.route(from: start, to: end, mode: .drive)

        #expect(client.requests.count == 1)
        let request = try #require(client.requests.first)
        #expect(request.method == .get && request.url.path == "/api/1/route")
        let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.filter { $0.name == "point" }.map(\.value) == ["42.506300,1.521800", "42.508500,1.526500"])
        let query = Dictionary(items.filter { $0.name != "point" }.map { ($0.name, $0.value ?? "") }) { a, _ in a }
        #expect(query == ["profile": "car", "points_encoded": "false", "instructions": "true", "locale": "en", "key": "secret"])

        let line = try osrmRecordedLine()
        #expect(leg.line == line)
        #expect(leg.distance == 547.5)
        #expect(leg.duration == 54.8)

        // Instructions 1–3 (not the departure, not the arrival), at their first points.
        let cumulative = Polyline(line).cumulativeDistances
        #expect(leg.junctions.count == 3)
        for (junction, vertex) in zip(leg.junctions, [10, 15, 17]) {
            #expect(junction.coordinate == line[vertex])
            #expect(junction.distanceAlong == cumulative[vertex])
            #expect(junction.spokes.map(\.role) == [.entry, .exit], "GraphHopper names no side roads")
        }
        #expect(leg.junctions[2].entry?.name == "Avinguda Meritxell")
        #expect(leg.junctions[2].exit?.name == "Carrer Bisbe Príncep Iglésias")
        #expect(leg.junctions[0].entry?.name == nil)
    }

    @Test("bearings measured on the line agree with OSRM's at the same junctions")
    func agreesWithOSRM() async throws {
        let gh = try await GraphHopperEngine(client: FakeHTTPClient(answers: [json(graphHopperAndorraRoute)]), baseURL: local,
                                             apiKey: nil).route(from: start, to: end, mode: .drive)
        let osrm = try await OSRMEngine(client: FakeHTTPClient(answers: [json(osrmAndorraRoute)]), baseURL: local)
            .route(from: start, to: end, mode: .drive)
        for junction in gh.junctions {
            let twin = try #require(osrm.junctions.first { near($0.coordinate, junction.coordinate) })
            #expect(bearingGap(try #require(junction.entry?.bearing), try #require(twin.entry?.bearing)) <= 15)
            #expect(bearingGap(try #require(junction.exit?.bearing), try #require(twin.exit?.bearing)) <= 15)
        }
        // The left turn into Carrer Bisbe Príncep Iglésias is a left turn here too.
        let turn = try #require(gh.junctions.last?.turnAngle)
        #expect(turn < -30 && turn > -60, "\(turn)")
    }

    @Test("no key, no key parameter; each mode asks for its profile")
    func modeNames() async throws {
        for (mode, profile) in [(TravelMode.drive, "car"), (.cycle, "bike"), (.walk, "foot")] {
            let client = FakeHTTPClient(answers: [json(graphHopperAndorraRoute)])
            _ = try await GraphHopperEngine(client: client, baseURL: local, apiKey: nil).route(from: start, to: end, mode: mode)
            let items = URLComponents(url: try #require(client.requests.first?.url), resolvingAgainstBaseURL: false)?.queryItems ?? []
            #expect(items.first { $0.name == "profile" }?.value == profile)
            #expect(!items.contains { $0.name == "key" })
        }
    }

    @Test("GraphHopper's error answers map to their RoutingError", arguments: [
        (graphHopperCannotFindPoint, 400, TravelMode.drive, RoutingError.noRoute("No driving route")),
        (graphHopperConnectionNotFound, 400, .cycle, .noRoute("No cycling route")),
        (#"{"message":"Point 1 is out of bounds: 48.0,2.0, the bounds are: 1.4,1.8,42.4,42.7,-1.7976931348623157E308,1.7976931348623157E308"}"#,
         400, .walk, .noRoute("No walking route")),
        (graphHopperWrongKey, 401, .drive, .serverError(
            "GraphHopper: the request was refused (HTTP 401): Wrong credentials. Register and get a valid API key at https://www.graphhopper.com/developers/")),
        (#"{"message":"The requested profile 'truck' does not exist"}"#, 400, .drive,
         .serverError("GraphHopper: the request was refused (HTTP 400): The requested profile 'truck' does not exist")),
        (#"{"paths":[]}"#, 200, .drive, .serverError("GraphHopper: the answer is not a route (\"paths\" is empty)")),
    ])
    func errors(body: String, status: Int, mode: TravelMode, expected: RoutingError) async {
        let client = FakeHTTPClient(answers: [json(body, status: status)])
        let error = await routingError { try await GraphHopperEngine(client: client, baseURL: local, apiKey: nil).route(from: start, to: end, mode: mode) }
        #expect(error == expected)
    }
}

// MARK: - Faults over real HTTP

/// The three adapters, each over the real libcurl client, for the faults every engine shares.
enum EngineKind: String, CaseIterable, CustomTestStringConvertible {
    case osrm = "OSRM", valhalla = "Valhalla", graphHopper = "GraphHopper"

    var testDescription: String { rawValue }

    func engine(_ baseURL: URL, timeout: TimeInterval = 10,
                maximumAnswerSize: Int = CurlHTTPClient.defaultMaximumAnswerSize) throws -> any RoutingEngine {
        let client = try CurlHTTPClient(maximumAnswerSize: maximumAnswerSize)
        switch self {
        case .osrm: return OSRMEngine(client: client, baseURL: baseURL, timeout: timeout)
        case .valhalla: return ValhallaEngine(client: client, baseURL: baseURL, timeout: timeout)
        case .graphHopper: return GraphHopperEngine(client: client, baseURL: baseURL, apiKey: "secret-key", timeout: timeout)
        }
    }

    /// The engine's "no road" answer, as its server sends it.
    var noRouteAnswer: FaultServer.Behaviour {
        switch self {
        case .osrm: .json(osrmNoRoute, status: 400)
        case .valhalla: .json(valhallaNoPath, status: 400)
        case .graphHopper: .json(graphHopperConnectionNotFound, status: 400)
        }
    }
}

@Suite("Engine faults over HTTP", .serialized)
struct EngineFaultTests {
    private func fault(_ kind: EngineKind, _ behaviour: FaultServer.Behaviour, timeout: TimeInterval = 10,
                       mode: TravelMode = .drive) async throws -> (RoutingError?, FaultServer) {
        let server = try FaultServer(script: [behaviour])
        let engine = try kind.engine(server.baseURL, timeout: timeout)
        let error = await routingError { try await engine.route(from: start, to: end, mode: mode) }
        server.stop()
        return (error, server)
    }

    @Test("no road in this mode", arguments: EngineKind.allCases)
    func noRoute(kind: EngineKind) async throws {
        let (error, server) = try await fault(kind, kind.noRouteAnswer, mode: .cycle)
        #expect(error == .noRoute("No cycling route"))
        #expect(server.requests.count == 1)
    }

    @Test("HTTP 429 is rate limiting", arguments: EngineKind.allCases)
    func rateLimited(kind: EngineKind) async throws {
        let (error, server) = try await fault(kind, .respond(429, headers: ["Retry-After": "30"]))
        #expect(error == .rateLimited("\(kind.rawValue) is limiting requests"))
        #expect(server.requests.count == 1, "a limited leg is not asked again on its own")
    }

    @Test("HTTP 500 is a server error that quotes what the server said", arguments: EngineKind.allCases)
    func serverError(kind: EngineKind) async throws {
        let (error, server) = try await fault(kind, .text("Internal Server Error", status: 500))
        #expect(error == .serverError("\(kind.rawValue): server error (HTTP 500): «Internal Server Error»"))
        #expect(server.requests.count == 1)
        let (silent, _) = try await fault(kind, .respond(502))
        #expect(silent == .serverError("\(kind.rawValue): server error (HTTP 502)"))
    }

    @Test("an answer larger than the client takes is refused naming the limit; how to raise it is the caller's to say",
          arguments: EngineKind.allCases)
    func tooLarge(kind: EngineKind) async throws {
        let server = try FaultServer(script: [.endless(chunk: Data(repeating: UInt8(ascii: "{"), count: 64 * 1024))])
        let engine = try kind.engine(server.baseURL, maximumAnswerSize: 2 << 20)
        await #expect(throws: RoutingError.answerTooLarge("\(kind.rawValue): the answer is larger than 2 MB, the most this client takes")) {
            _ = try await engine.route(from: start, to: end, mode: .drive)
        }
        server.stop()
    }

    @Test("a 200 with garbage is not a route", arguments: EngineKind.allCases)
    func garbageJSON(kind: EngineKind) async throws {
        let (error, _) = try await fault(kind, .text("<html>gateway</html>"))
        #expect(error == .serverError("\(kind.rawValue): the answer is not a route (it is not JSON: «<html>gateway</html>»)"))
    }

    @Test("bytes that are not HTTP are a server error", arguments: EngineKind.allCases)
    func notHTTP(kind: EngineKind) async throws {
        let (error, _) = try await fault(kind, .garbage(Data("\u{1}\u{2}not http at all\r\n\r\n".utf8)))
        guard case .serverError(let message)? = error else {
            Issue.record("expected a server error, got \(String(describing: error))")
            return
        }
        #expect(message.hasPrefix("\(kind.rawValue): the answer broke off or is not HTTP ("), "\(message)")
    }

    @Test("a closed port is unreachable, and the message keeps the API key out", arguments: EngineKind.allCases)
    func unreachable(kind: EngineKind) async throws {
        let port = try FaultServer.closedPort()
        let engine = try kind.engine(URL(string: "http://127.0.0.1:\(port)")!)
        let error = await routingError { try await engine.route(from: start, to: end, mode: .drive) }
        guard case .unreachable(let message)? = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
        #expect(message.hasPrefix("\(kind.rawValue) cannot be reached: "), "\(message)")
        #expect(!message.contains("secret-key"))
    }

    @Test("no answer in time is unreachable", arguments: EngineKind.allCases)
    func timeout(kind: EngineKind) async throws {
        let started = Date()
        let (error, _) = try await fault(kind, .noAnswer, timeout: 1)
        guard case .unreachable(let message)? = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
        #expect(message.hasPrefix("\(kind.rawValue) cannot be reached: no answer within 1 s"), "\(message)")
        #expect(Date().timeIntervalSince(started) < 8)
    }

    @Test("a real answer over real HTTP: one request per leg (two for Valhalla's trace)", arguments: EngineKind.allCases)
    func realAnswer(kind: EngineKind) async throws {
        let server = try FaultServer { request in
            switch (kind, request.path) {
            case (.osrm, _): .json(osrmAndorraRoute)
            case (.valhalla, "/route"): .json(valhallaAndorraRoute)
            case (.valhalla, "/trace_attributes"): .json(valhallaAndorraTrace)
            case (.valhalla, _): .text("no such endpoint", status: 404)
            case (.graphHopper, _): .json(graphHopperAndorraRoute)
            }
        }
        defer { server.stop() }
        let engine = try kind.engine(server.baseURL)
        let first = try await engine.route(from: start, to: end, mode: .drive)
        let second = try await engine.route(from: end, to: start, mode: .drive)
        #expect(first.line.count == 22 && first == second)
        #expect(server.requests.count == (kind == .valhalla ? 4 : 2))
        switch kind {
        case .osrm:
            #expect(server.requests.map(\.path) == ["/route/v1/driving/1.521800,42.506300;1.526500,42.508500",
                                                     "/route/v1/driving/1.526500,42.508500;1.521800,42.506300"])
        case .valhalla:
            #expect(server.requests.map(\.path) == ["/route", "/trace_attributes", "/route", "/trace_attributes"])
            #expect(server.requests.allSatisfy { $0.method == "POST" && $0.headers["content-type"] == "application/json" })
        case .graphHopper:
            #expect(server.requests.map { $0.query["key"] } == ["secret-key", "secret-key"])
            #expect(server.requests.map { $0.query["profile"] } == ["car", "car"])
        }
    }
}
