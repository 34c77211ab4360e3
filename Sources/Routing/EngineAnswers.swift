import Foundation
import Geo
import HTTP
import Model

/// Limits shared by the engine adapters.
public enum EngineAnswerLimits {
    /// Characters of an unexpected answer an error quotes: enough to recognise an HTML error page
    /// or a truncated body, short enough for one line on the tool card.
    public static let quotedAnswerLength = 160
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

    /// An answer that came with a success status but is not a route.
    func notARoute(_ why: String) -> RoutingError {
        .serverError("\(engine): the answer is not a route (\(why))")
    }

    /// Sends `request` and returns the answer unless it is a 429 or a 5xx.
    /// - Throws: `RoutingError.unreachable` when no HTTP answer came, `.rateLimited` for 429,
    ///   `.serverError` for 5xx. Other statuses are returned for the engine to read its error body.
    func send(_ request: HTTPRequest, through client: any HTTPClient) async throws(RoutingError) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await client.send(request)
        } catch let error as HTTPError {
            switch error.kind {
            case .unreachable:
                throw .unreachable("\(engine) cannot be reached: \(error.detail)")
            case .timedOut:
                throw .unreachable("\(engine) cannot be reached: no answer within \(Int(request.timeout)) s (\(error.detail))")
            case .failed:
                throw .serverError("\(engine): the answer broke off or is not HTTP (\(error.detail))")
            }
        } catch {
            throw .unreachable("\(engine) cannot be reached: \(error)")
        }
        switch response.status {
        case 429:
            throw .rateLimited("\(engine) is limiting requests")
        case 500..<600:
            throw .serverError("\(engine): server error (HTTP \(response.status))")
        default:
            return response
        }
    }

    /// A 4xx answer that is not "no route": the engine refused the request.
    func refused(_ response: HTTPResponse, saying message: String?) -> RoutingError {
        let said = message.map { ": \($0)" } ?? (response.body.isEmpty ? "" : ": \(quote(response.body))")
        return .serverError("\(engine): the request was refused (HTTP \(response.status))\(said)")
    }

    /// Decodes `body` as `T`.
    /// - Throws: `RoutingError.serverError` saying what is missing or wrong, quoting the body.
    func decode<T: Decodable>(_ type: T.Type, from body: Data) throws(RoutingError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch {
            let why: String
            switch error {
            case DecodingError.keyNotFound(let key, let context):
                why = "\(path(context.codingPath + [key])) is missing"
            case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
                why = "\(path(context.codingPath)) is not of the expected type"
            default:
                why = "it is not JSON: \(quote(body))"
            }
            throw notARoute(why)
        }
    }

    /// Tries to read an engine's error body; nil when it is not that shape.
    func decodeIfPossible<T: Decodable>(_ type: T.Type, from body: Data) -> T? {
        try? JSONDecoder().decode(T.self, from: body)
    }

    private func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            .trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }

    private func quote(_ body: Data) -> String {
        let limit = EngineAnswerLimits.quotedAnswerLength
        let text = String(decoding: body.prefix(limit), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
        return "«\(text)\(body.count > limit ? "…" : "")»"
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

/// A coordinate written with 6 decimals (about 0.1 m), as every engine here is sent.
func sixDecimals(_ value: Degrees) -> String { String(format: "%.6f", value) }

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
