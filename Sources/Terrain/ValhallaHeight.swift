import Foundation
import Geo
import HTTP

/// Heights from a Valhalla server's `/height` service, usually one on this machine.
///
/// Asks `POST <base>/height` with `{"shape":[{"lat":…,"lon":…}],"range":false,"height_precision":1}`
/// and reads `"height":[…]` in metres, one per point, `null` where Valhalla has no tile (taken as
/// nil). Valhalla interpolates bilinearly in 1-arc-second tiles only; with an SRTM3 tile it logs
/// "Corrupt elevation data" and answers `null` (why scripts/engines/upsample_hgt.py makes a 1-arc-second tile for the tests).
public struct ValhallaHeight: ElevationSource {
    /// Points per request by default: about 120 KB of JSON, answered by a local Valhalla in well
    /// under a second, far below its `service_limits.skadi.max_shape` (750,000 by default), and
    /// small enough that progress moves on a long route.
    public static let defaultBatchSize = 3000
    /// Decimals of the heights asked for (Valhalla allows 0–2; 0 rounds to whole metres, too
    /// coarse for the grade of a gentle road, and 2 is finer than any DEM it reads).
    public static let heightPrecision = 1

    public let client: any HTTPClient
    /// The server's root, e.g. `http://127.0.0.1:8002`.
    public let baseURL: URL
    /// Points per request, at least 1.
    public let batchSize: Int
    /// Defaults to none: a local server needs no spacing.
    public let limiter: RateLimiter
    /// Seconds each request may take.
    public var timeout: TimeInterval = 30
    /// Told after each batch.
    public var progress: ElevationProgress?

    public var name: String { "Valhalla /height at \(baseURL.absoluteString)" }

    public init(client: any HTTPClient, baseURL: URL, batchSize: Int = ValhallaHeight.defaultBatchSize,
                limiter: RateLimiter = .unlimited(), progress: ElevationProgress? = nil) {
        self.client = client
        self.baseURL = baseURL
        self.batchSize = max(1, batchSize)
        self.limiter = limiter
        self.progress = progress
    }

    public var endpoint: URL { baseURL.appendingPathComponent("height") }

    /// The request for one batch: a POST of the shape as JSON, coordinates with 6 decimals.
    public func request(for points: [Coordinate]) -> HTTPRequest {
        let shape = points.map { "{\"lat\":\(sixDecimals($0.latitude)),\"lon\":\(sixDecimals($0.longitude))}" }
            .joined(separator: ",")
        let body = "{\"shape\":[\(shape)],\"range\":false,\"height_precision\":\(Self.heightPrecision)}"
        return HTTPRequest(method: .post, url: endpoint,
                           headers: ["Content-Type": "application/json", "Accept": "application/json"],
                           body: Data(body.utf8), timeout: timeout)
    }

    /// Heights in metres, one per point, nil where Valhalla has no elevation tile.
    /// Cost: ⌈n / batchSize⌉ requests, one at a time.
    /// - Throws: `ElevationError` naming the endpoint when any batch fails; nothing partial is returned.
    public func elevations(at points: [Coordinate]) async throws -> [Metres?] {
        try await ServiceExchange(service: "Valhalla", endpoint: endpoint).heights(
            at: points, batchSize: batchSize, limiter: limiter, progress: progress, client: client,
            request: request(for:)) { (answer: Answer) in answer.height }
    }

    private struct Answer: Decodable {
        let height: [Double?]
    }
}
