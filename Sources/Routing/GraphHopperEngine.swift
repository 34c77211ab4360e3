import Foundation
import Geo
import HTTP
import Model

/// Roads from a GraphHopper server (`/route`, self-hosted or the hosted Directions API), one
/// request per leg.
///
/// Asks `GET <base>/route?point=<lat>,<lon>&point=<lat>,<lon>&profile=…&points_encoded=false&instructions=true&locale=en`
/// (and `key=` when an API key is given) and reads the first path: `points.coordinates` as
/// `[lon, lat]` (or `[lon, lat, ele]`), `distance` in metres, `time` in milliseconds.
///
/// GraphHopper names no side roads: its instructions say only where the route turns. So each
/// instruction after the first, except arrivals (`sign` 4) and via points (5), becomes a junction
/// at its first point (`interval[0]`) with an entry and an exit spoke and no side spokes. Their
/// bearings are measured on the route's own line, from the junction to the point
/// `spokeReach` metres back and ahead, as `Spoke.bearing` asks. Names come from `street_name`;
/// a roundabout instruction (`sign` 6) marks its exit spoke, and the next instruction's entry
/// spoke, as the ring.
public struct GraphHopperEngine: RoutingEngine {
    /// GraphHopper's stock mode names (sent as its `profile` parameter).
    public static let defaultModeNames: [TravelMode: String] = [.drive: "car", .cycle: "bike", .walk: "foot"]
    /// Metres along the line from a junction to the point its spoke bearings aim at: within the
    /// 20–30 m `Spoke.bearing` asks, past the first vertex yet short of the next bend.
    public static let spokeReach: Metres = 25
    /// GraphHopper's exception names for "no road here": no road near a point, a point outside the
    /// map, no connection between the points.
    static let noRouteExceptions = ["PointNotFoundException", "PointOutOfBoundsException", "ConnectionNotFoundException"]
    /// The start of GraphHopper's messages for the same, for servers that send no hints ("Point 1
    /// is out of bounds: …" is matched by its middle).
    static let noRouteMessages = ["Cannot find point", "Connection between locations not found"]

    public let client: any HTTPClient
    /// The server's root, e.g. `http://127.0.0.1:8989` or `https://graphhopper.com/api/1`.
    public let baseURL: URL
    /// Sent as `key=`; a self-hosted server needs none. Never written into an error message.
    public let apiKey: String?
    /// The name sent as `profile` in each mode; a mode without one has no road.
    public let modeNames: [TravelMode: String]
    /// Seconds each request may take.
    public var timeout: TimeInterval

    public var name: String { "GraphHopper" }

    public init(client: any HTTPClient, baseURL: URL, apiKey: String? = nil,
                modeNames: [TravelMode: String] = GraphHopperEngine.defaultModeNames, timeout: TimeInterval = 30) {
        self.client = client
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.modeNames = modeNames
        self.timeout = timeout
    }

    /// The request for one leg.
    /// - Throws: `RoutingError.noRoute` when no name is set for `mode`.
    public func request(from start: Coordinate, to end: Coordinate, mode: TravelMode) throws(RoutingError) -> HTTPRequest {
        let exchange = EngineExchange(engine: name, mode: mode)
        let modeName = try exchange.modeName(in: modeNames, setting: "profile")
        let points = [start, end].map {
            URLQueryItem(name: "point", value: "\(sixDecimals($0.latitude)),\(sixDecimals($0.longitude))")
        }
        return try exchange.request(baseURL, "/route", query: points + [
            URLQueryItem(name: "profile", value: modeName),
            URLQueryItem(name: "points_encoded", value: "false"),
            URLQueryItem(name: "instructions", value: "true"),
            URLQueryItem(name: "locale", value: "en"),
        ] + (apiKey.map { [URLQueryItem(name: "key", value: $0)] } ?? []), timeout: timeout)
    }

    /// The road from `start` to `end`: one request.
    /// - Throws: `RoutingError`: `.noRoute` when GraphHopper finds no point or no connection,
    ///   `.rateLimited` for HTTP 429, `.serverError` for 5xx, another refusal (a wrong key is HTTP
    ///   401) or an answer that is not a route, `.unreachable` when no answer came.
    public func route(from start: Coordinate, to end: Coordinate, mode: TravelMode) async throws -> RoadLeg {
        let exchange = EngineExchange(engine: name, mode: mode)
        let answer = try await exchange.ask(try request(from: start, to: end, mode: mode), through: client, for: Answer.self,
                                            refusal: ErrorAnswer.self) { error, response in
            let details = (error.hints ?? []).compactMap(\.details)
            let byHint = details.contains { detail in Self.noRouteExceptions.contains { detail.hasSuffix($0) } }
            let message = error.message ?? ""
            let byMessage = Self.noRouteMessages.contains { message.hasPrefix($0) } || message.contains("is out of bounds")
            if response.status == 400, byHint || byMessage { return exchange.noRoute }
            return exchange.refused(response, saying: error.message)
        }
        return try Self.leg(from: answer, exchange: exchange)
    }

    /// Reads a route answer.
    private static func leg(from answer: Answer, exchange: EngineExchange) throws(RoutingError) -> RoadLeg {
        guard let path = answer.paths.first else { throw exchange.notARoute("\"paths\" is empty") }
        let line = try exchange.line(lonLat: path.points.coordinates, field: "paths[0].points.coordinates")
        let distance = try exchange.checkedAmount(path.distance, field: "paths[0].distance")
        let milliseconds = try exchange.checkedAmount(path.time, field: "paths[0].time")
        let junctions = try junctions(of: path.instructions ?? [], along: line, exchange: exchange)
        return RoadLeg(line: line, distance: distance, duration: milliseconds / 1000, junctions: junctions)
    }

    private static let arrival = 4, viaPoint = 5, roundabout = 6

    private static func junctions(of instructions: [Instruction], along line: [Coordinate],
                                  exchange: EngineExchange) throws(RoutingError) -> [Junction] {
        let polyline = Polyline(line)
        var junctions: [Junction] = []
        for k in instructions.indices.dropFirst() {
            let instruction = instructions[k], previous = instructions[k - 1]
            guard instruction.sign != arrival, instruction.sign != viaPoint else { continue }
            guard let index = instruction.interval.first, line.indices.contains(index) else {
                throw exchange.notARoute("instructions[\(k)].interval starts outside the \(line.count) points")
            }
            let place = line[index]
            let along = polyline.cumulativeDistances[index]
            guard along > 0, along < polyline.length else { continue }
            let back = polyline.coordinate(atDistance: along - spokeReach)
            let ahead = polyline.coordinate(atDistance: along + spokeReach)
            guard back != place, ahead != place else { continue }
            let spokes = [
                Spoke(bearing: normalizedBearing(place.bearing(to: back)), role: .entry,
                      name: nonEmpty(previous.street_name), isRoundabout: previous.sign == roundabout),
                Spoke(bearing: normalizedBearing(place.bearing(to: ahead)), role: .exit,
                      name: nonEmpty(instruction.street_name), isRoundabout: instruction.sign == roundabout),
            ]
            junctions.append(Junction(coordinate: place, distanceAlong: along, spokes: spokes))
        }
        return junctions
    }

    // MARK: - GraphHopper's JSON

    private struct ErrorAnswer: Decodable {
        struct Hint: Decodable {
            let message: String?
            let details: String?
        }
        let message: String?
        let hints: [Hint]?
    }

    private struct Answer: Decodable {
        let paths: [Path]
    }

    private struct Path: Decodable {
        struct Points: Decodable {
            let coordinates: [[Double]]
        }
        /// Metres.
        let distance: Double
        /// Milliseconds.
        let time: Double
        let points: Points
        let instructions: [Instruction]?
    }

    private struct Instruction: Decodable {
        /// −7 … 7: the kind of turn; 4 arrival, 5 via point, 6 roundabout.
        let sign: Int
        /// First and last index into the path's points.
        let interval: [Int]
        let street_name: String?
    }
}
