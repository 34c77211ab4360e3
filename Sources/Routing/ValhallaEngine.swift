import Foundation
import Geo
import HTTP
import Model

/// Roads from a Valhalla server (`valhalla_service`): two requests per leg.
///
/// 1. `POST <base>/route` with `{"locations":[{lat,lon},{lat,lon}],"costing":…,"directions_options":{"units":"kilometers"}}`:
///    the first leg's `shape` (an encoded polyline with 6 decimals), `summary.length` in kilometres
///    and `summary.time` in seconds.
/// 2. `POST <base>/trace_attributes` with that shape (`"shape_match":"edge_walk"`, so the edges are
///    exactly the route's) for the roads at each junction, which `/route` does not give.
///
/// A junction is made at the end node of every edge but the last where other edges meet
/// (`end_node.intersecting_edges`): the entry spoke points back along the arriving edge
/// (`end_heading` + 180), the exit spoke along the next edge (`begin_heading`), and each
/// intersecting edge is a side spoke at its `begin_heading`. Valhalla's headings are compass
/// bearings already; its turn degrees (0 straight on, 90 right) are not used. A side road can be
/// left when its driveability (cyclability, walkability in those modes) is `forward` or `both`;
/// the arriving road when it is travelled both ways. Valhalla's `road_class` and `use` become an
/// OpenStreetMap `highway` value, its `surface` an OSM `surface` value, see `highway(roadClass:use:)`
/// and `surface(_:)`. Side roads carry no surface and no name: Valhalla gives neither for them.
public struct ValhallaEngine: RoutingEngine {
    /// Valhalla's costing models for each mode.
    public static let defaultCostings: [TravelMode: String] = [.drive: "auto", .cycle: "bicycle", .walk: "pedestrian"]
    /// Valhalla error codes that mean "no road here in this mode": 442 no path could be found, 171
    /// no suitable edges near a location, 170 locations in unconnected regions (older servers).
    public static let noRouteErrorCodes: Set<Int> = [442, 171, 170]

    public let client: any HTTPClient
    /// The server's root, e.g. `http://127.0.0.1:8002`.
    public let baseURL: URL
    /// The costing asked for in each mode; a mode without one has no road.
    public let costings: [TravelMode: String]
    /// Seconds each of the two requests may take.
    public var timeout: TimeInterval

    public var name: String { "Valhalla" }

    public init(client: any HTTPClient, baseURL: URL, costings: [TravelMode: String] = ValhallaEngine.defaultCostings,
                timeout: TimeInterval = 30) {
        self.client = client
        self.baseURL = baseURL
        self.costings = costings
        self.timeout = timeout
    }

    /// The attributes asked of `/trace_attributes`: only what the junctions need.
    static let traceAttributes = [
        "shape", "edge.begin_heading", "edge.end_heading", "edge.begin_shape_index", "edge.end_shape_index",
        "edge.road_class", "edge.use", "edge.surface", "edge.names", "edge.roundabout", "edge.traversability",
        "node.intersecting_edge.begin_heading", "node.intersecting_edge.road_class", "node.intersecting_edge.use",
        "node.intersecting_edge.driveability", "node.intersecting_edge.cyclability",
        "node.intersecting_edge.walkability",
    ]

    private func costing(_ mode: TravelMode) throws(RoutingError) -> String {
        try EngineExchange(engine: name, mode: mode).modeName(in: costings, setting: "costing")
    }

    private func post(_ path: String, _ body: some Encodable, mode: TravelMode) throws(RoutingError) -> HTTPRequest {
        try EngineExchange(engine: name, mode: mode).request(baseURL, path, body: body, timeout: timeout)
    }

    /// The `/route` request for one leg.
    /// - Throws: `RoutingError.noRoute` when no costing is set for `mode`.
    public func routeRequest(from start: Coordinate, to end: Coordinate, mode: TravelMode) throws(RoutingError) -> HTTPRequest {
        try post("/route", RouteBody(locations: [Location(start), Location(end)], costing: try costing(mode),
                                     directions_options: .init(units: "kilometers")), mode: mode)
    }

    /// The `/trace_attributes` request for a route's encoded shape.
    public func traceRequest(shape: String, mode: TravelMode) throws(RoutingError) -> HTTPRequest {
        try post("/trace_attributes", TraceBody(encoded_polyline: shape, shape_match: "edge_walk", costing: try costing(mode),
                                                filters: .init(attributes: Self.traceAttributes, action: "include")),
                 mode: mode)
    }

    /// The road from `start` to `end`: a `/route` request, then a `/trace_attributes` request.
    /// - Throws: `RoutingError`: `.noRoute` for Valhalla's errors 442, 171 and 170 from `/route`,
    ///   `.rateLimited` for HTTP 429, `.serverError` for 5xx, another refusal or an answer that is
    ///   not a route (from either request), `.unreachable` when no answer came.
    public func route(from start: Coordinate, to end: Coordinate, mode: TravelMode) async throws -> RoadLeg {
        let exchange = EngineExchange(engine: name, mode: mode)
        let routed = try await exchange.ask(try routeRequest(from: start, to: end, mode: mode), through: client,
                                            for: RouteAnswer.self, refusal: ErrorAnswer.self) { error, response in
            Self.refusal(error, response, endpoint: "/route", noRouteCodes: Self.noRouteErrorCodes, exchange: exchange)
        }
        let (shape, line, distance, duration) = try Self.road(from: routed, exchange: exchange)
        // A trace of the route's own shape that fails is the server's failure, never "no route".
        let traced = try await exchange.ask(try traceRequest(shape: shape, mode: mode), through: client,
                                            for: TraceAnswer.self, refusal: ErrorAnswer.self) { error, response in
            Self.refusal(error, response, endpoint: "/trace_attributes", noRouteCodes: [], exchange: exchange)
        }
        let junctions = try Self.junctions(from: traced, along: line, mode: mode, exchange: exchange)
        return RoadLeg(line: line, distance: distance, duration: duration, junctions: junctions)
    }

    /// Reads a `/route` answer: the shape as sent and decoded, length in metres, time in seconds.
    private static func road(from answer: RouteAnswer, exchange: EngineExchange)
        throws(RoutingError) -> (shape: String, line: [Coordinate], distance: Metres, duration: TimeInterval) {
        if let status = answer.trip.status, status != 0 {
            throw exchange.notARoute("trip.status is \(status): \(answer.trip.status_message ?? "no message")")
        }
        guard let leg = answer.trip.legs.first else { throw exchange.notARoute("trip.legs is empty") }
        let line: [Coordinate]
        do {
            line = try EncodedPolyline.decode(leg.shape, precision: 6)
        } catch {
            throw exchange.notARoute("trip.legs[0].shape: \(error)")
        }
        let metresPerUnit: Double = answer.trip.units == "miles" ? 1609.344 : 1000
        return (leg.shape,
                try exchange.checkedLine(line, field: "trip.legs[0].shape"),
                try exchange.checkedAmount(leg.summary.length, field: "trip.legs[0].summary.length") * metresPerUnit,
                try exchange.checkedAmount(leg.summary.time, field: "trip.legs[0].summary.time"))
    }

    /// A refusal from `endpoint`: "no route" for `noRouteCodes`, a refusal quoting Valhalla otherwise.
    private static func refusal(_ error: ErrorAnswer, _ response: HTTPResponse, endpoint: String, noRouteCodes: Set<Int>,
                                exchange: EngineExchange) -> RoutingError {
        if let code = error.error_code, noRouteCodes.contains(code) { return exchange.noRoute }
        let said = [error.error_code.map(String.init), error.error].compactMap { $0 }.joined(separator: " ")
        return exchange.refused(response, saying: "\(endpoint): \(said.isEmpty ? "no error given" : said)")
    }

    /// Reads a `/trace_attributes` answer into the junctions along `line`.
    private static func junctions(from answer: TraceAnswer, along line: [Coordinate], mode: TravelMode,
                                  exchange: EngineExchange) throws(RoutingError) -> [Junction] {
        let shape: [Coordinate]
        do {
            shape = try EncodedPolyline.decode(answer.shape, precision: 6)
        } catch {
            throw exchange.notARoute("/trace_attributes shape: \(error)")
        }
        var locator = LineLocator(line)
        var junctions: [Junction] = []
        for (i, (edge, next)) in zip(answer.edges, answer.edges.dropFirst()).enumerated() {
            guard let sides = edge.end_node?.intersecting_edges, !sides.isEmpty else { continue }
            let field = "/trace_attributes edges[\(i)]"
            guard let index = edge.end_shape_index, shape.indices.contains(index) else {
                throw exchange.notARoute("\(field).end_shape_index is outside the shape's \(shape.count) points")
            }
            guard let arriving = edge.end_heading, let leaving = next.begin_heading else {
                throw exchange.notARoute("\(field) or the edge after it has no heading")
            }
            var spokes = [
                Spoke(bearing: normalizedBearing(arriving + 180), role: .entry,
                      highway: highway(roadClass: edge.road_class, use: edge.use), surface: surface(edge.surface),
                      name: edge.names?.first, canLeave: edge.traversability.map { $0 == "both" } ?? true,
                      isRoundabout: edge.roundabout ?? false),
                Spoke(bearing: normalizedBearing(leaving), role: .exit,
                      highway: highway(roadClass: next.road_class, use: next.use), surface: surface(next.surface),
                      name: next.names?.first, isRoundabout: next.roundabout ?? false),
            ]
            for (k, side) in sides.enumerated() {
                guard let heading = side.begin_heading else {
                    throw exchange.notARoute("\(field).end_node.intersecting_edges[\(k)] has no begin_heading")
                }
                let ability: String?
                switch mode {
                case .drive: ability = side.driveability
                case .cycle: ability = side.cyclability
                case .walk: ability = side.walkability
                }
                spokes.append(Spoke(bearing: normalizedBearing(heading), role: .side,
                                    highway: highway(roadClass: side.road_class, use: side.use),
                                    canLeave: ability.map { $0 == "forward" || $0 == "both" } ?? true))
            }
            let place = shape[index]
            junctions.append(Junction(coordinate: place, distanceAlong: locator.distanceAlong(place), spokes: spokes))
        }
        return junctions
    }

    /// The OpenStreetMap `highway` value closest to a Valhalla edge's `road_class` and `use`.
    ///
    /// The use wins where it names a kind of way (track, path, cycleway, …); a ramp is the class's
    /// `_link`; service uses are `service`; otherwise the road class, with `service_other` as
    /// `service`. Nil when Valhalla gave neither.
    public static func highway(roadClass: String?, use: String?) -> String? {
        switch use {
        case "track": return "track"
        case "cycleway", "mountain_bike": return "cycleway"
        case "footway", "sidewalk", "pedestrian_crossing", "elevator", "escalator": return "footway"
        case "steps": return "steps"
        case "path": return "path"
        case "bridleway": return "bridleway"
        case "pedestrian": return "pedestrian"
        case "living_street": return "living_street"
        case "driveway", "alley", "parking_aisle", "service_road", "drive_through", "emergency_access", "culdesac":
            return "service"
        case "ramp", "turn_channel":
            switch roadClass {
            case "motorway", "trunk", "primary", "secondary", "tertiary": return "\(roadClass!)_link"
            default: break
            }
        default: break
        }
        switch roadClass {
        case "service_other": return "service"
        case .some(let value): return value
        case .none: return nil
        }
    }

    /// The OpenStreetMap `surface` value closest to a Valhalla edge's `surface`: `paved_smooth` is
    /// `asphalt`, `paved_rough` `paving_stones`, `path` (a trodden path) `ground`, `impassable`
    /// `ground`; `paved`, `compacted`, `dirt` and `gravel` keep their names.
    public static func surface(_ valhalla: String?) -> String? {
        switch valhalla {
        case "paved_smooth": "asphalt"
        case "paved_rough": "paving_stones"
        case "path", "impassable": "ground"
        default: valhalla
        }
    }

    // MARK: - Valhalla's JSON

    private struct Location: Encodable {
        let lat: Double
        let lon: Double
        init(_ c: Coordinate) {
            lat = c.latitude
            lon = c.longitude
        }
    }

    private struct RouteBody: Encodable {
        struct DirectionsOptions: Encodable { let units: String }
        let locations: [Location]
        let costing: String
        let directions_options: DirectionsOptions
    }

    private struct TraceBody: Encodable {
        struct Filters: Encodable {
            let attributes: [String]
            let action: String
        }
        let encoded_polyline: String
        let shape_match: String
        let costing: String
        let filters: Filters
    }

    private struct ErrorAnswer: Decodable {
        let error_code: Int?
        let error: String?
    }

    private struct RouteAnswer: Decodable {
        struct Trip: Decodable {
            let legs: [Leg]
            let units: String?
            let status: Int?
            let status_message: String?
        }
        struct Leg: Decodable {
            let shape: String
            let summary: Summary
        }
        struct Summary: Decodable {
            /// In `units`: kilometres as asked.
            let length: Double
            /// Seconds.
            let time: Double
        }
        let trip: Trip
    }

    private struct TraceAnswer: Decodable {
        struct Edge: Decodable {
            let begin_heading: Double?
            let end_heading: Double?
            let end_shape_index: Int?
            let road_class: String?
            let use: String?
            let surface: String?
            let names: [String]?
            let roundabout: Bool?
            let traversability: String?
            let end_node: Node?
        }
        struct Node: Decodable {
            let intersecting_edges: [Side]?
        }
        struct Side: Decodable {
            let begin_heading: Double?
            let road_class: String?
            let use: String?
            let driveability: String?
            let cyclability: String?
            let walkability: String?
        }
        let shape: String
        let edges: [Edge]
    }
}
