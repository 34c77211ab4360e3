import Foundation
import Geo
import HTTP
import Model

/// Roads from an OSRM server (`osrm-routed`), one request per leg.
///
/// Asks `GET <base>/route/v1/<profile>/<lon>,<lat>;<lon>,<lat>?steps=true&overview=full&geometries=geojson&annotations=false`
/// and reads the first route: its GeoJSON line, `distance` in metres, `duration` in seconds, and a
/// junction for every intersection of every step that has both an arriving (`in`) and a leaving
/// (`out`) road.
///
/// OSRM's intersection `bearings` are already compass bearings of each road leaving the junction,
/// the arriving road's pointing back the way the route came, so they are kept as they are. A
/// bearing whose `entry` flag is false becomes a spoke with `canLeave` false; for the arriving road
/// that flag is OSRM's U-turn rule rather than a one-way, and it is kept all the same. Names and
/// refs come from the steps (the road a step follows is the exit of its intersections); ring roads
/// are marked from the roundabout and rotary steps. OSRM gives no road class per bearing, so
/// spokes carry no `highway` or `surface`.
public struct OSRMEngine: RoutingEngine {
    /// The mode names of a server started with the stock car, bicycle and foot `.lua` files (OSRM
    /// calls the name a profile). OSRM serves one per process and ignores the name, but it is still
    /// checked to be a word.
    public static let defaultModeNames: [TravelMode: String] = [.drive: "driving", .cycle: "cycling", .walk: "walking"]

    public let client: any HTTPClient
    /// The server's root, e.g. `http://127.0.0.1:5000`.
    public let baseURL: URL
    /// The name the server is asked for in each mode (the URL's profile); a mode without one has no road.
    public let modeNames: [TravelMode: String]
    /// Seconds each request may take.
    public var timeout: TimeInterval

    public var name: String { "OSRM" }

    public init(client: any HTTPClient, baseURL: URL, modeNames: [TravelMode: String] = OSRMEngine.defaultModeNames,
                timeout: TimeInterval = 30) {
        self.client = client
        self.baseURL = baseURL
        self.modeNames = modeNames
        self.timeout = timeout
    }

    /// The request for one leg.
    /// - Throws: `RoutingError.noRoute` when no name is set for `mode`.
    public func request(from start: Coordinate, to end: Coordinate, mode: TravelMode) throws(RoutingError) -> HTTPRequest {
        let exchange = EngineExchange(engine: name, mode: mode)
        let modeName = try exchange.modeName(in: modeNames, setting: "profile")
        let points = [start, end].map { "\(sixDecimals($0.longitude)),\(sixDecimals($0.latitude))" }.joined(separator: ";")
        let encodedName = modeName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? modeName
        return try exchange.request(
            baseURL, "/route/v1/\(encodedName)/\(points)",
            query: [URLQueryItem(name: "steps", value: "true"), URLQueryItem(name: "overview", value: "full"),
                    URLQueryItem(name: "geometries", value: "geojson"), URLQueryItem(name: "annotations", value: "false")],
            timeout: timeout)
    }

    /// The road from `start` to `end`: one request.
    /// - Throws: `RoutingError`: `.noRoute` for OSRM's `NoRoute` and `NoSegment`, `.rateLimited`
    ///   for HTTP 429, `.serverError` for 5xx, another refusal or an answer that is not a route,
    ///   `.unreachable` when no answer came.
    public func route(from start: Coordinate, to end: Coordinate, mode: TravelMode) async throws -> RoadLeg {
        let exchange = EngineExchange(engine: name, mode: mode)
        let answer = try await exchange.ask(try request(from: start, to: end, mode: mode), through: client, for: Answer.self,
                                            refusal: Status.self, judgesEveryStatus: true) { status, response in
            if status.code == "NoRoute" || status.code == "NoSegment" { return exchange.noRoute }
            if status.code != "Ok" || !(200..<300).contains(response.status) {
                return exchange.refused(response, saying: "\(status.code)" + (status.message.map { ": \($0)" } ?? ""))
            }
            return nil
        }
        return try Self.leg(from: answer, exchange: exchange)
    }

    /// Reads a route answer.
    private static func leg(from answer: Answer, exchange: EngineExchange) throws(RoutingError) -> RoadLeg {
        guard let route = answer.routes.first else { throw exchange.notARoute("\"routes\" is empty") }
        let line = try exchange.line(lonLat: route.geometry.coordinates, field: "routes[0].geometry.coordinates")
        let distance = try exchange.checkedAmount(route.distance, field: "routes[0].distance")
        let duration = try exchange.checkedAmount(route.duration, field: "routes[0].duration")
        let steps = route.legs.flatMap(\.steps)
        let junctions = try junctions(of: steps, along: line, exchange: exchange)
        return RoadLeg(line: line, distance: distance, duration: duration, junctions: junctions)
    }

    /// Step types whose intersections after the first lie on a roundabout's ring.
    private static let ringSteps: Set<String> = ["roundabout", "rotary"]
    /// Step types that begin by leaving a ring.
    private static let ringExits: Set<String> = ["exit roundabout", "exit rotary"]

    private static func junctions(of steps: [Step], along line: [Coordinate],
                                  exchange: EngineExchange) throws(RoutingError) -> [Junction] {
        var locator = LineLocator(line)
        var junctions: [Junction] = []
        var previous: Step?
        for (s, step) in steps.enumerated() {
            let onRing = ringSteps.contains(step.maneuver.type)
            let afterRing = previous.map { ringSteps.contains($0.maneuver.type) } == true
                || ringExits.contains(step.maneuver.type)
            for (k, intersection) in step.intersections.enumerated() {
                let field = "steps[\(s)].intersections[\(k)]"
                guard intersection.bearings.count == intersection.entry.count else {
                    throw exchange.notARoute("\(field) has \(intersection.bearings.count) bearings but "
                                             + "\(intersection.entry.count) entry flags")
                }
                let range = 0..<intersection.bearings.count
                if let i = intersection.in, !range.contains(i) {
                    throw exchange.notARoute("\(field).in is \(i), outside its \(range.count) bearings")
                }
                if let o = intersection.out, !range.contains(o) {
                    throw exchange.notARoute("\(field).out is \(o), outside its \(range.count) bearings")
                }
                guard let entryIndex = intersection.in, let exitIndex = intersection.out else { continue }
                let location = try exchange.coordinate(lonLat: intersection.location, field: "\(field).location")
                let first = k == 0
                let entryName = first ? previous?.name : step.name
                let entryRef = first ? previous?.ref : step.ref
                var spokes: [Spoke] = []
                for (b, bearing) in intersection.bearings.enumerated() {
                    guard bearing.isFinite else { throw exchange.notARoute("\(field).bearings[\(b)] is \(bearing)") }
                    var spoke = Spoke(bearing: normalizedBearing(bearing), role: .side, canLeave: intersection.entry[b])
                    if b == entryIndex {
                        spoke.role = .entry
                        spoke.name = nonEmpty(entryName)
                        spoke.ref = nonEmpty(entryRef)
                        spoke.isRoundabout = (onRing && !first) || (afterRing && first)
                    } else if b == exitIndex {
                        spoke.role = .exit
                        spoke.name = nonEmpty(step.name)
                        spoke.ref = nonEmpty(step.ref)
                        spoke.isRoundabout = onRing
                    }
                    spokes.append(spoke)
                }
                junctions.append(Junction(coordinate: location, distanceAlong: locator.distanceAlong(location),
                                          spokes: spokes))
            }
            previous = step
        }
        return junctions
    }

    // MARK: - OSRM's JSON

    /// `code` and `message`, present in every answer, route or not.
    private struct Status: Decodable {
        let code: String
        let message: String?
    }

    private struct Answer: Decodable {
        let routes: [Route]
    }

    private struct Route: Decodable {
        let geometry: Geometry
        let distance: Double
        let duration: Double
        let legs: [Leg]
    }

    private struct Geometry: Decodable {
        let coordinates: [[Double]]
    }

    private struct Leg: Decodable {
        let steps: [Step]
    }

    private struct Step: Decodable {
        let name: String?
        let ref: String?
        let maneuver: Maneuver
        let intersections: [Intersection]
    }

    private struct Maneuver: Decodable {
        let type: String
    }

    private struct Intersection: Decodable {
        /// `[lon, lat]`.
        let location: [Double]
        /// Compass bearings of every road at the intersection, leaving it.
        let bearings: [Double]
        /// Whether the route may leave along each road.
        let entry: [Bool]
        /// Index of the arriving road; absent at the departure.
        let `in`: Int?
        /// Index of the leaving road; absent at the arrival.
        let out: Int?
    }
}
