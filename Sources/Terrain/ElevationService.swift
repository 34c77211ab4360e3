import Foundation
import Geo
import HTTP

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
            // The same heights a DEM sample may have.
            guard (PlausibleHeight.minimum...PlausibleHeight.maximum).contains(height) else {
                throw failure("\(service) answered \(height) m for point \(offset + index), outside "
                              + "\(Int(PlausibleHeight.minimum))…\(Int(PlausibleHeight.maximum)) m")
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

extension ServiceExchange {
    /// Heights for `points`, asked in consecutive batches of at most `batchSize`, one after
    /// another, each after its turn from `limiter`: a batch's `request` is sent through `client`,
    /// its answer decoded as `Answer`, and the heights `heights` takes from it checked
    /// (`checkedHeights`); `progress` is told after each batch. The one way every service asks.
    /// Cost: ⌈points.count / batchSize⌉ requests, spaced by the limiter's interval.
    /// - Throws: `ElevationError` naming the endpoint: a point that cannot be sent (nothing is
    ///   asked), or the first batch's failure (the batches after it are not asked).
    func heights<Answer: Decodable>(at points: [Coordinate], batchSize: Int, limiter: RateLimiter,
                                    progress: ElevationProgress?, client: any HTTPClient,
                                    request: ([Coordinate]) -> HTTPRequest,
                                    heights: (Answer) throws -> [Double?]) async throws -> [Metres?] {
        try checkPoints(points)
        var result: [Metres?] = []
        result.reserveCapacity(points.count)
        var start = 0
        while start < points.count {
            let end = min(points.count, start + max(1, batchSize))
            try await limiter.waitForTurn()
            let batch = Array(points[start..<end])
            let answer = try decode(Answer.self, from: try await send(request(batch), through: client))
            result += try checkedHeights(try heights(answer), expected: batch.count, offset: start)
            progress?(end, points.count)
            start = end
        }
        return result
    }
}

/// One result of a service that answers `"results": [{"elevation": …}]` (OpenTopoData,
/// Open-Elevation): the key must be there, so a missing height is a broken answer; `null` is "no
/// data".
struct ElevationResult: Decodable {
    let elevation: Double?
    private enum Keys: String, CodingKey { case elevation }
    init(from decoder: any Decoder) throws {
        elevation = try decoder.container(keyedBy: Keys.self).decode(Double?.self, forKey: .elevation)
    }
}

extension RateLimiter {
    /// The default limiter of a service with a public server: `interval` seconds between requests
    /// to the public server (`publicServer`'s host), none for another server.
    static func forServer(_ baseURL: URL, publicServer: URL, interval: TimeInterval) -> RateLimiter {
        RateLimiter(minimumInterval: baseURL.host == publicServer.host ? interval : 0)
    }
}
