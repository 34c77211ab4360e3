import Foundation
import Geo
import HTTP

/// Heights from an Open-Elevation server (https://open-elevation.com), public or self-hosted.
///
/// Asks `POST <base>/api/v1/lookup` with `{"locations":[{"latitude":…,"longitude":…}]}` and reads
/// `results[].elevation` in metres, in the order asked. Open-Elevation answers 0 where it has no
/// data (its documentation says so), so a 0 cannot be told from sea level; a `null`, should a
/// server send one, is taken as nil. Written from its `docs/api.md`.
public struct OpenElevation: ElevationSource {
    /// The public server.
    public static let publicServer = URL(string: "https://api.open-elevation.com")!
    /// Points per request by default. The POST API documents no limit, but one huge request is all
    /// or nothing on a slow shared server: 512 points keep a body near 30 KB, so one answer has a fair
    /// chance within the timeout, a failure loses little, and progress moves on a long route. Not
    /// measured against the public server; raise it for a self-hosted one.
    public static let defaultBatchSize = 512
    /// Seconds between requests to the public server: it publishes no limit, so ask no faster than
    /// the other public service here (OpenTopoData's one a second).
    public static let publicServerInterval: TimeInterval = 1

    public let client: any HTTPClient
    /// The server's root, without `/api/v1/lookup`.
    public let baseURL: URL
    /// Points per request, at least 1.
    public let batchSize: Int
    public let limiter: RateLimiter
    /// Seconds each request may take.
    public var timeout: TimeInterval = 60
    /// Told after each batch.
    public var progress: ElevationProgress?

    public var name: String { baseURL.host == Self.publicServer.host ? "Open-Elevation" : "Open-Elevation at \(baseURL.absoluteString)" }

    /// - Parameters:
    ///   - limiter: defaults to one request a second for the public server, none for another server.
    public init(client: any HTTPClient, baseURL: URL = OpenElevation.publicServer,
                batchSize: Int = OpenElevation.defaultBatchSize, limiter: RateLimiter? = nil,
                progress: ElevationProgress? = nil) {
        self.client = client
        self.baseURL = baseURL
        self.batchSize = max(1, batchSize)
        self.limiter = limiter ?? .forServer(baseURL, publicServer: Self.publicServer, interval: Self.publicServerInterval)
        self.progress = progress
    }

    public var endpoint: URL { baseURL.appendingPathComponent("api/v1/lookup") }

    /// The request for one batch: a POST of the points as JSON, coordinates with 6 decimals.
    public func request(for points: [Coordinate]) -> HTTPRequest {
        let locations = points.map {
            "{\"latitude\":\(sixDecimals($0.latitude)),\"longitude\":\(sixDecimals($0.longitude))}"
        }.joined(separator: ",")
        return HTTPRequest(method: .post, url: endpoint,
                           headers: ["Content-Type": "application/json", "Accept": "application/json"],
                           body: Data("{\"locations\":[\(locations)]}".utf8), timeout: timeout)
    }

    /// Heights in metres, one per point (0 where the server has no data, see above).
    /// Cost: ⌈n / batchSize⌉ requests, one at a time through `limiter`.
    /// - Throws: `ElevationError` naming the endpoint when any batch fails; nothing partial is returned.
    public func elevations(at points: [Coordinate]) async throws -> [Metres?] {
        try await ServiceExchange(service: "Open-Elevation", endpoint: endpoint).heights(
            at: points, batchSize: batchSize, limiter: limiter, progress: progress, client: client,
            request: request(for:)) { (answer: Answer) in answer.results.map(\.elevation) }
    }

    private struct Answer: Decodable {
        let results: [ElevationResult]
    }
}
