import Foundation
import Geo
import HTTP

/// Heights from an Open Topo Data server (https://www.opentopodata.org), public or self-hosted.
///
/// Asks `GET <base>/v1/<dataset>?locations=lat,lon|lat,lon|…`, at most 100 points a request, and
/// reads `results[].elevation` (metres; `null` outside the dataset or on a void, taken as nil).
/// Written from the API documentation (`docs/api.md` of ajnisbet/opentopodata).
public struct OpenTopoData: ElevationSource {
    /// The public server. Its terms: at most 100 locations a request, one request a second,
    /// 1,000 requests a day.
    public static let publicServer = URL(string: "https://api.opentopodata.org")!
    /// The server's own cap on locations per request (`max_locations_per_request`, 100 by default
    /// and on the public server); a larger request is refused with INVALID_REQUEST.
    public static let maximumLocationsPerRequest = 100
    /// Seconds between requests to the public server, which allows one request a second.
    public static let publicServerInterval: TimeInterval = 1
    /// A dataset the public server offers worldwide (±60° latitude), 30 m resolution.
    public static let defaultDataset = "srtm30m"

    public let client: any HTTPClient
    /// The server's root, without `/v1`.
    public let baseURL: URL
    /// One dataset, or several separated by commas (the server then takes the first with a height).
    public let dataset: String
    /// Points per request, 1…`maximumLocationsPerRequest`.
    public let batchSize: Int
    /// Spaces the requests; share it with other sources that ask the same server.
    public let limiter: RateLimiter
    /// Seconds each request may take.
    public var timeout: TimeInterval = 30
    /// Told after each batch.
    public var progress: ElevationProgress?

    public var name: String { "OpenTopoData \(dataset)" }

    /// - Parameters:
    ///   - limiter: defaults to one request a second for the public server, none for another server.
    ///   - batchSize: points per request, clamped to 1…100.
    public init(client: any HTTPClient, baseURL: URL = OpenTopoData.publicServer,
                dataset: String = OpenTopoData.defaultDataset, batchSize: Int = OpenTopoData.maximumLocationsPerRequest,
                limiter: RateLimiter? = nil, progress: ElevationProgress? = nil) {
        self.client = client
        self.baseURL = baseURL
        self.dataset = dataset
        self.batchSize = min(max(1, batchSize), Self.maximumLocationsPerRequest)
        self.limiter = limiter ?? .forServer(baseURL, publicServer: Self.publicServer, interval: Self.publicServerInterval)
        self.progress = progress
    }

    /// The endpoint for the dataset, without a query.
    public var endpoint: URL { baseURL.appendingPathComponent("v1").appendingPathComponent(dataset) }

    /// The request for one batch: a GET with the points as `lat,lon` pairs joined by `|`.
    public func request(for points: [Coordinate]) -> HTTPRequest {
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        let locations = points.map { "\(sixDecimals($0.latitude)),\(sixDecimals($0.longitude))" }.joined(separator: "|")
        components.queryItems = [URLQueryItem(name: "locations", value: locations)]
        // URLComponents leaves "|" alone in a query; escape it so every client and proxy takes the URL.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "|", with: "%7C")
        return HTTPRequest(method: .get, url: components.url!, headers: ["Accept": "application/json"],
                           timeout: timeout)
    }

    /// Heights in metres, one per point, nil where the dataset has none.
    /// Cost: ⌈n / batchSize⌉ requests, one at a time through `limiter` (about n/100 s on the public server).
    /// - Throws: `ElevationError` naming the endpoint when any batch fails; nothing partial is returned.
    public func elevations(at points: [Coordinate]) async throws -> [Metres?] {
        try await ServiceExchange(service: "OpenTopoData", endpoint: endpoint).heights(
            at: points, batchSize: batchSize, limiter: limiter, progress: progress, client: client,
            request: request(for:)) { (answer: Answer) in
            guard answer.status == "OK" else {
                throw ElevationError(source: endpoint.absoluteString,
                                     message: "OpenTopoData answered status \(answer.status)"
                                         + (answer.error.map { ": \($0)" } ?? ""))
            }
            guard let results = answer.results else {
                throw ElevationError(source: endpoint.absoluteString,
                                     message: "OpenTopoData answered OK without \"results\"")
            }
            return results.map(\.elevation)
        }
    }

    private struct Answer: Decodable {
        let status: String
        let error: String?
        let results: [ElevationResult]?
    }
}
