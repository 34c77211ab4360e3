import Foundation
import Geo
import HTTP
import Model

/// Limits shared by the engine adapters.
public enum EngineAnswerLimits {
    /// A junction the engine places within this many metres of the line is taken to lie on it:
    /// engines write coordinates with 5–6 decimals (0.1–1 m), and the first segment this close,
    /// searching forward, is the one the route passes, even where a route later comes back by.
    public static let onLineTolerance: Metres = 1
}

/// One engine's way of sending a leg's request and turning what comes back into `RoutingError`,
/// shared by OSRM, Valhalla and GraphHopper so that every engine fails with the same messages.
struct EngineExchange: Sendable {
    /// The engine as a person knows it ("OSRM").
    let engine: String
    let mode: TravelMode

    /// "No driving route": the engine answered that there is no road in this mode.
    var noRoute: RoutingError { .noRoute("No \(mode.gerund) route") }

    /// The name `names` gives the mode (an OSRM or GraphHopper profile, a Valhalla costing).
    /// - Throws: `RoutingError.noRoute` when it gives none: "No driving route: OSRM has no profile
    ///   set for driving", `setting` naming what is missing.
    func modeName(in names: [TravelMode: String], setting: String) throws(RoutingError) -> String {
        guard let name = names[mode] else {
            throw .noRoute("No \(mode.gerund) route: \(engine) has no \(setting) set for \(mode.gerund)")
        }
        return name
    }

    /// An answer that came with a success status but is not a route.
    func notARoute(_ why: String) -> RoutingError {
        .serverError("\(engine): the answer is not a route (\(why))")
    }

    /// The one way an engine's request is made: `base` and `path` (such as "/route") with `query`,
    /// asking for JSON; with a `body`, a POST of it as JSON, otherwise a GET.
    /// - Throws: `RoutingError.serverError` when no URL can be made or the body cannot be written.
    func request(_ base: URL, _ path: String, query: [URLQueryItem] = [], body: (any Encodable)? = nil,
                 timeout: TimeInterval) throws(RoutingError) -> HTTPRequest {
        guard var components = URLComponents(string: trimmedBase(base) + path) else {
            throw .serverError("\(engine): cannot make a request URL from \(base.absoluteString)")
        }
        if !query.isEmpty { components.queryItems = query }
        guard let url = components.url else {
            throw .serverError("\(engine): cannot make a request URL from \(base.absoluteString)")
        }
        guard let body else {
            return HTTPRequest(method: .get, url: url, headers: ["Accept": "application/json"], timeout: timeout)
        }
        let data: Data
        do {
            data = try JSONEncoder().encode(body)
        } catch {
            throw .serverError("\(engine): cannot write the \(path) request: \(error)")
        }
        return HTTPRequest(method: .post, url: url, headers: ["Content-Type": "application/json", "Accept": "application/json"],
                           body: data, timeout: timeout)
    }

    /// The one way an engine is asked: sends `request`, lets `judge` read the engine's own error
    /// body (`Refusal`) into "no route" or a refusal, refuses any other status but 2xx, and decodes
    /// the answer.
    /// - Parameters:
    ///   - judgesEveryStatus: when true, `judge` also sees 2xx answers (an engine that can say
    ///     "no route" with 200); otherwise only the others.
    ///   - judge: the error for an answer whose body reads as `Refusal`; nil to go on.
    /// - Throws: `RoutingError`, as `send`, `refused` and `decode` make them.
    func ask<Answer: Decodable, Refusal: Decodable>(
        _ request: HTTPRequest, through client: any HTTPClient, for answer: Answer.Type, refusal: Refusal.Type,
        judgesEveryStatus: Bool = false, judge: (Refusal, HTTPResponse) -> RoutingError?
    ) async throws(RoutingError) -> Answer {
        let response = try await send(request, through: client)
        let succeeded = (200..<300).contains(response.status)
        if judgesEveryStatus || !succeeded, let body = decodeIfPossible(Refusal.self, from: response.body),
           let failure = judge(body, response) {
            throw failure
        }
        guard succeeded else { throw refused(response, saying: nil) }
        return try decode(Answer.self, from: response.body)
    }

    /// Sends `request` and returns the answer unless it is a 429 or a 5xx.
    /// - Throws: `RoutingError.unreachable` when no HTTP answer came, `.rateLimited` for 429,
    ///   `.serverError` for 5xx, `.answerTooLarge` for an answer larger than the client takes.
    ///   Other statuses are returned for the engine to read its error body.
    func send(_ request: HTTPRequest, through client: any HTTPClient) async throws(RoutingError) -> HTTPResponse {
        do {
            return try await client.exchange(request)
        } catch let failure as HTTPExchangeFailure {
            switch failure {
            case .unreachable(let detail):
                throw .unreachable("\(engine) cannot be reached: \(detail)")
            case .timedOut(let seconds, let detail):
                throw .unreachable("\(engine) cannot be reached: no answer within \(seconds) s (\(detail))")
            case .brokeOff(let detail):
                throw .serverError("\(engine): the answer broke off or is not HTTP (\(detail))")
            case .rateLimited:
                throw .rateLimited("\(engine) is limiting requests")
            case .serverError(let status, let body):
                let said = body.isEmpty ? "" : ": \(JSONAnswer.quote(body))"
                throw .serverError("\(engine): server error (HTTP \(status))\(said)")
            case .tooLarge(let detail):
                throw .answerTooLarge("\(engine): \(detail)")
            }
        } catch {
            throw .unreachable("\(engine) cannot be reached: \(error)")
        }
    }

    /// A 4xx answer that is not "no route": the engine refused the request.
    func refused(_ response: HTTPResponse, saying message: String?) -> RoutingError {
        let said = message.map { ": \($0)" } ?? (response.body.isEmpty ? "" : ": \(JSONAnswer.quote(response.body))")
        return .serverError("\(engine): the request was refused (HTTP \(response.status))\(said)")
    }

    /// Decodes `body` as `T`.
    /// - Throws: `RoutingError.serverError` saying what is missing or wrong, quoting the body.
    func decode<T: Decodable>(_ type: T.Type, from body: Data) throws(RoutingError) -> T {
        do {
            return try JSONAnswer.decode(T.self, from: body)
        } catch {
            switch error {
            case .missing(let path): throw notARoute("\(Self.path(path)) is missing")
            case .wrongType(let path): throw notARoute("\(Self.path(path)) is not of the expected type")
            case .notJSON: throw notARoute("it is not JSON: \(JSONAnswer.quote(body))")
            }
        }
    }

    /// Tries to read an engine's error body; nil when it is not that shape.
    private func decodeIfPossible<T: Decodable>(_ type: T.Type, from body: Data) -> T? {
        try? JSONDecoder().decode(T.self, from: body)
    }

    /// `routes[0].geometry`: names after dots, indices in brackets.
    private static func path(_ steps: [JSONAnswer.PathStep]) -> String {
        steps.map { $0.index.map { "[\($0)]" } ?? ".\($0.name)" }.joined()
            .trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }

    /// A line written as `[lon, lat]` arrays, checked as `checkedLine` does; `field` names the array.
    func line(lonLat arrays: [[Double]], field: String) throws(RoutingError) -> [Coordinate] {
        var line: [Coordinate] = []
        for (i, values) in arrays.enumerated() {
            line.append(try coordinate(lonLat: values, field: "\(field)[\(i)]"))
        }
        return try checkedLine(line, field: field)
    }

    /// Checks a line: at least two points, every one a valid coordinate.
    func checkedLine(_ line: [Coordinate], field: String) throws(RoutingError) -> [Coordinate] {
        guard line.count >= 2 else { throw notARoute("\(field) has \(line.count) point(s), fewer than 2") }
        if let bad = line.firstIndex(where: { !$0.isValid }) {
            throw notARoute("\(field)[\(bad)] is not a valid coordinate")
        }
        return line
    }

    /// Checks a length or a time: finite and not negative.
    func checkedAmount(_ value: Double, field: String) throws(RoutingError) -> Double {
        guard value.isFinite, value >= 0 else { throw notARoute("\(field) is \(value)") }
        return value
    }

    /// A `[lon, lat]` or `[lon, lat, elevation]` array as a coordinate.
    func coordinate(lonLat values: [Double], field: String) throws(RoutingError) -> Coordinate {
        guard values.count >= 2 else { throw notARoute("\(field) has \(values.count) number(s), not [lon, lat]") }
        let c = Coordinate(latitude: values[1], longitude: values[0])
        guard c.isValid else { throw notARoute("\(field) is not a valid coordinate") }
        return c
    }
}

/// A base URL's text without a trailing slash, so that "/route" can follow it.
func trimmedBase(_ url: URL) -> String {
    var text = url.absoluteString
    while text.hasSuffix("/") { text.removeLast() }
    return text
}

/// Finds the distance along a leg's line of the junctions an engine reports, in route order.
///
/// Each junction is looked for from the segment where the previous one was found onwards, so a
/// route that passes the same crossing twice gets both passes at their own distances. The first
/// segment within `EngineAnswerLimits.onLineTolerance` wins; when none is that close, the closest
/// segment from there on. Cost: O(segments searched) cheap plane distances and one projection.
struct LineLocator {
    let polyline: Polyline
    private var segment = 0

    init(_ line: [Coordinate]) { polyline = Polyline(line) }

    /// Metres from the line's start to the foot of `point` on it.
    mutating func distanceAlong(_ point: Coordinate) -> Metres {
        guard polyline.segmentCount > 0 else { return 0 }
        let frame = LocalFrame(origin: point)
        let tolerance = EngineAnswerLimits.onLineTolerance * EngineAnswerLimits.onLineTolerance
        var best = segment, bestDistance = Double.infinity
        for i in segment..<polyline.segmentCount {
            let d = frame.distanceSquaredToSegment(polyline.coordinates[i], polyline.coordinates[i + 1])
            if d < bestDistance {
                best = i
                bestDistance = d
            }
            if d <= tolerance { break }
        }
        segment = best
        return polyline.project(point, ontoSegment: best).distanceAlong
    }
}

/// An empty name is no name.
func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
}
