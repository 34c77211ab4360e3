import Foundation
import Geo
import HTTP

/// Checks that every answer of an elevation service must pass.
public enum ElevationServiceLimits {
    /// The lowest height believed, in metres: the Dead Sea shore, the lowest dry land, is at −430 m.
    public static let lowestPlausibleHeight: Metres = -500
    /// The highest height believed, in metres: Everest is 8,849 m.
    public static let highestPlausibleHeight: Metres = 9000
}

/// Told after each batch of an elevation service: points answered so far, and all points asked.
public typealias ElevationProgress = @Sendable (_ done: Int, _ total: Int) -> Void

/// One service's way of checking answers, shared by OpenTopoData, Open-Elevation and Valhalla.
struct ServiceExchange: Sendable {
    /// The service as a person knows it ("OpenTopoData", "Valhalla").
    let service: String
    /// The endpoint without its query, named in every error.
    let endpoint: URL

    private func failure(_ message: String, limit: ElevationError.Limit? = nil) -> ElevationError {
        ElevationError(source: endpoint.absoluteString, message: message, limit: limit)
    }

    /// Sends `request` and returns its answer when the status is 2xx.
    /// - Throws: `ElevationError` naming the endpoint: no answer, 429, 5xx, or another status; an
    ///   answer larger than the client takes with `limit` `.answerSize`.
    func send(_ request: HTTPRequest, through client: any HTTPClient) async throws -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await client.exchange(request)
        } catch let failure as HTTPExchangeFailure {
            switch failure {
            case .unreachable(let detail):
                throw self.failure("\(service) could not be reached: \(detail)")
            case .timedOut(let seconds, let detail):
                throw self.failure("\(service) did not answer within \(seconds) s: \(detail)")
            case .brokeOff(let detail):
                throw self.failure("\(service) broke off its answer: \(detail)")
            case .rateLimited(let retryAfter):
                let retry = retryAfter.map { "; it asks to wait \($0) s" } ?? ""
                throw self.failure("\(service) is limiting requests (HTTP 429)\(retry); wait before asking again, "
                                   + "or use a local source (DEM tiles, a local server)")
            case .serverError(let status, let body):
                throw self.failure("\(service) had a server error (HTTP \(status))\(detail(of: body))")
            case .tooLarge(let detail):
                throw self.failure("\(service): \(detail)", limit: .answerSize)
            }
        }
        guard (200..<300).contains(response.status) else {
            throw failure("\(service) refused the request (HTTP \(response.status))\(detail(of: response.body))")
        }
        return response
    }

    /// The `error` text of a JSON error body, or a quote of the body, prefixed with ": ".
    private func detail(of body: Data) -> String {
        struct ErrorBody: Decodable { let error: String }
        if let parsed = try? JSONDecoder().decode(ErrorBody.self, from: body) { return ": \(parsed.error)" }
        return body.isEmpty ? "" : ": \(JSONAnswer.quote(body))"
    }

    /// Decodes a 2xx answer's body as `T`.
    /// - Throws: `ElevationError` naming the endpoint, saying what is wrong and quoting the body.
    func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse) throws -> T {
        do {
            return try JSONAnswer.decode(T.self, from: response.body)
        } catch {
            let text = String(decoding: response.body, as: UTF8.self)
            if text.contains("NaN") || text.contains("Infinity") {
                throw failure("\(service) answered a height that is not a finite number (NaN or Infinity), "
                              + "which JSON does not allow: \(JSONAnswer.quote(response.body))")
            }
            let why: String
            switch error {
            case .missing(let path): why = "it has no \"\(path.last?.name ?? "")\""
            case .wrongType(let path):
                why = "\(path.map { $0.index.map(String.init) ?? $0.name }.joined(separator: ".")) is not of the expected type"
            case .notJSON: why = "it is not valid JSON"
            }
            throw failure("\(service) answered something other than the expected JSON (\(why)): \(JSONAnswer.quote(response.body))")
        }
    }

    /// Checks one batch's heights: exactly `expected` of them, each nil or finite and plausible.
    /// - Parameter offset: the index of the batch's first point in the whole request, for messages.
    /// - Throws: `ElevationError` naming the endpoint and the first bad value.
    func checkedHeights(_ heights: [Double?], expected: Int, offset: Int) throws -> [Metres?] {
        guard heights.count == expected else {
            throw failure("\(service) answered \(heights.count) heights for \(expected) points; "
                          + "a partial answer is not used")
        }
        for (index, height) in heights.enumerated() {
            guard let height else { continue }
            guard height.isFinite else {
                throw failure("\(service) answered \(height) for point \(offset + index), not a finite number")
            }
            guard (ElevationServiceLimits.lowestPlausibleHeight...ElevationServiceLimits.highestPlausibleHeight)
                .contains(height) else {
                throw failure("\(service) answered \(height) m for point \(offset + index), outside "
                              + "\(Int(ElevationServiceLimits.lowestPlausibleHeight))…"
                              + "\(Int(ElevationServiceLimits.highestPlausibleHeight)) m")
            }
        }
        return heights
    }

    /// Throws when a point cannot be sent (NaN, or latitude or longitude out of range).
    func checkPoints(_ points: [Coordinate]) throws {
        if let bad = points.firstIndex(where: { !$0.isValid }) {
            throw failure("point \(bad) (\(points[bad].latitude), \(points[bad].longitude)) is not a valid "
                          + "coordinate; nothing was asked")
        }
    }
}

/// Asks for `points` in consecutive batches of at most `batchSize`, one after another, each after
/// its turn from `limiter`, and tells `progress` after each batch.
/// Cost: ⌈points.count / batchSize⌉ requests, spaced by the limiter's interval.
/// - Throws: the first batch's error; the batches after it are not asked.
func askInBatches(_ points: [Coordinate], batchSize: Int, limiter: RateLimiter,
                  progress: ElevationProgress?,
                  batch: ([Coordinate], _ offset: Int) async throws -> [Metres?]) async throws -> [Metres?] {
    var heights: [Metres?] = []
    heights.reserveCapacity(points.count)
    var start = 0
    while start < points.count {
        let end = min(points.count, start + max(1, batchSize))
        try await limiter.waitForTurn()
        heights += try await batch(Array(points[start..<end]), start)
        progress?(end, points.count)
        start = end
    }
    return heights
}

/// A coordinate written with 6 decimals (about 0.1 m), as every service here is sent.
func sixDecimals(_ value: Degrees) -> String { String(format: "%.6f", value) }
