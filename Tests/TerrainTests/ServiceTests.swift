import Foundation
import Geo
import HTTP
import Testing
import TestSupport
@testable import Terrain

// MARK: - Test doubles

/// A list shared between a fake and its test, safe to append to from any task.
private final class Log<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Element] = []
    func append(_ item: Element) { lock.withLock { items.append(item) } }
    var all: [Element] { lock.withLock { items } }
}

/// An HTTP client that answers from a closure and records every request.
private struct FakeHTTPClient: HTTPClient {
    let requests = Log<HTTPRequest>()
    let answer: @Sendable (HTTPRequest) throws -> HTTPResponse

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        requests.append(request)
        return try answer(request)
    }
}

/// A source answering from a closure and recording the points of each call.
private struct FakeSource: ElevationSource {
    let name: String
    let calls = Log<[Coordinate]>()
    let answer: @Sendable ([Coordinate]) throws -> [Metres?]

    func elevations(at points: [Coordinate]) async throws -> [Metres?] {
        calls.append(points)
        return try answer(points)
    }
}

/// A virtual clock: it moves only when someone sleeps, to the time that sleeper wakes at. A sleep
/// yields first, so other callers get into the limiter while one is asleep, as with a real clock.
private final class FakeClock: @unchecked Sendable {
    private let lock = NSLock()
    private var time: TimeInterval = 0
    private var slept: [TimeInterval] = []
    private var wakes: [TimeInterval] = []
    var now: TimeInterval { lock.withLock { time } }
    /// How long each sleep was.
    var sleeps: [TimeInterval] { lock.withLock { slept } }
    /// The time each sleeper woke at.
    var wakeTimes: [TimeInterval] { lock.withLock { wakes } }
    func advance(_ seconds: TimeInterval) { lock.withLock { time += seconds } }
    func sleep(_ seconds: TimeInterval) async {
        let target = lock.withLock { slept.append(seconds); wakes.append(time + seconds); return time + seconds }
        await Task.yield()
        lock.withLock { time = max(time, target) }
    }
    func limiter(interval: TimeInterval) -> RateLimiter {
        RateLimiter(minimumInterval: interval, now: { self.now }, sleep: { await self.sleep($0) })
    }
}

private let local = URL(string: "http://127.0.0.1:5000")!
private let grid = MetreGrid()

private func points(_ count: Int) -> [Coordinate] { (0..<count).map { grid(Double($0) * 10, 0) } }

private func json(_ text: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(status: status, headers: ["content-type": "application/json"], body: Data(text.utf8))
}

/// The `locations` of an OpenTopoData request, as the server would read them.
private func locations(of request: HTTPRequest) -> [String] {
    let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    return items.first { $0.name == "locations" }?.value?.split(separator: "|").map(String.init) ?? []
}

/// An OpenTopoData answer with the height 100 + latitude offset for each location asked.
private func openTopoDataAnswer(_ request: HTTPRequest) -> HTTPResponse {
    let results = locations(of: request).map { location -> String in
        let latitude = Double(location.split(separator: ",")[0])!
        return "{\"elevation\":\(heightFor(latitude: latitude)),\"location\":{\"lat\":0,\"lng\":0}}"
    }
    return json("{\"results\":[\(results.joined(separator: ","))],\"status\":\"OK\"}")
}

private func heightFor(latitude: Double) -> Double { 1000 + ((latitude - 42.5) * 1e5).rounded() / 10 }

private func errorText(_ body: () async throws -> Void) async -> ElevationError? {
    do { try await body() } catch let error as ElevationError { return error } catch { return nil }
    return nil
}

// MARK: - OpenTopoData

@Suite struct OpenTopoDataTests {
    @Test func asksInBatchesOfAHundredInOrderWithWellFormedURLs() async throws {
        let client = FakeHTTPClient(answer: openTopoDataAnswer)
        let reported = Log<[Int]>()
        let source = OpenTopoData(client: client, baseURL: local, dataset: "srtm30m",
                                  progress: { reported.append([$0, $1]) })
        let asked = points(250)
        let heights = try await source.elevations(at: asked)

        let requests = client.requests.all
        #expect(requests.map { locations(of: $0).count } == [100, 100, 50])
        for request in requests {
            #expect(request.method == .get)
            #expect(request.url.absoluteString.hasPrefix("http://127.0.0.1:5000/v1/srtm30m?locations="))
            #expect(!request.url.absoluteString.contains("|"), "the pipe is percent-encoded")
        }
        // Every coordinate with exactly six decimals, in the order asked.
        let sent = requests.flatMap(locations(of:))
        #expect(sent == asked.map { String(format: "%.6f,%.6f", $0.latitude, $0.longitude) })
        #expect(heights == asked.map { heightFor(latitude: Double(String(format: "%.6f", $0.latitude))!) })
        #expect(reported.all == [[100, 250], [200, 250], [250, 250]])
    }

    @Test func nullElevationsBecomeNil() async throws {
        let client = FakeHTTPClient { _ in
            json(#"{"results":[{"elevation":null,"location":{"lat":0,"lng":0}},{"elevation":1520.5}],"status":"OK"}"#)
        }
        let heights = try await OpenTopoData(client: client, baseURL: local).elevations(at: points(2))
        #expect(heights == [nil, 1520.5])
    }

    @Test func emptyRouteAsksNothing() async throws {
        let client = FakeHTTPClient(answer: openTopoDataAnswer)
        #expect(try await OpenTopoData(client: client, baseURL: local).elevations(at: []) == [])
        #expect(client.requests.all.isEmpty)
    }

    @Test func publicServerIsSpacedByOneSecond() {
        let source = OpenTopoData(client: FakeHTTPClient(answer: openTopoDataAnswer))
        #expect(source.limiter.minimumInterval == 1)
        #expect(OpenTopoData(client: FakeHTTPClient(answer: openTopoDataAnswer), baseURL: local).limiter.minimumInterval == 0)
        #expect(OpenTopoData(client: FakeHTTPClient(answer: openTopoDataAnswer), batchSize: 500).batchSize == 100)
    }

    struct BadAnswer: Sendable, CustomTestStringConvertible {
        let label: String
        let response: HTTPResponse
        let expected: String
        var testDescription: String { label }
    }

    static let badAnswers: [BadAnswer] = [
        BadAnswer(label: "429", response: HTTPResponse(status: 429, headers: ["retry-after": "30"], body: Data("Too Many Requests".utf8)),
                  expected: "OpenTopoData is limiting requests (HTTP 429); it asks to wait 30 s"),
        BadAnswer(label: "500", response: json(#"{"error":"Server error.","status":"SERVER_ERROR"}"#, status: 500),
                  expected: "OpenTopoData had a server error (HTTP 500): Server error."),
        BadAnswer(label: "502 page", response: HTTPResponse(status: 502, body: Data("<html>Bad gateway</html>".utf8)),
                  expected: "server error (HTTP 502): «<html>Bad gateway</html>»"),
        BadAnswer(label: "400", response: json(#"{"error":"Too many locations provided (101), the limit is 100.","status":"INVALID_REQUEST"}"#, status: 400),
                  expected: "refused the request (HTTP 400): Too many locations provided (101)"),
        BadAnswer(label: "garbage", response: json("<html><body>maintenance</body></html>"),
                  expected: "answered something other than the expected JSON (it is not valid JSON): «<html>"),
        BadAnswer(label: "truncated", response: json(#"{"results":[{"elevation":12"#),
                  expected: "not valid JSON"),
        BadAnswer(label: "no results", response: json(#"{"status":"OK"}"#),
                  expected: "answered OK without \"results\""),
        BadAnswer(label: "status not OK", response: json(#"{"status":"SERVER_ERROR","error":"boom"}"#),
                  expected: "answered status SERVER_ERROR: boom"),
        BadAnswer(label: "missing elevation", response: json(#"{"results":[{"location":{}},{"elevation":3}],"status":"OK"}"#),
                  expected: "has no \"elevation\""),
        BadAnswer(label: "string elevation", response: json(#"{"results":[{"elevation":"3"},{"elevation":3}],"status":"OK"}"#),
                  expected: "results.0.elevation is not of the expected type"),
        BadAnswer(label: "wrong count", response: json(#"{"results":[{"elevation":3}],"status":"OK"}"#),
                  expected: "answered 1 heights for 2 points; a partial answer is not used"),
        BadAnswer(label: "NaN", response: json(#"{"results":[{"elevation":NaN},{"elevation":3}],"status":"OK"}"#),
                  expected: "not a finite number (NaN or Infinity)"),
        BadAnswer(label: "implausible", response: json(#"{"results":[{"elevation":3},{"elevation":-32768}],"status":"OK"}"#),
                  expected: "answered -32768.0 m for point 1, outside -500…9000 m"),
    ]

    @Test(arguments: badAnswers)
    func badAnswersAreErrorsNamingTheURLAndTheCause(_ bad: BadAnswer) async {
        let client = FakeHTTPClient { _ in bad.response }
        let error = await errorText { _ = try await OpenTopoData(client: client, baseURL: local).elevations(at: points(2)) }
        #expect(error?.source == "http://127.0.0.1:5000/v1/srtm30m")
        #expect(error?.message.contains(bad.expected) == true, "\(String(describing: error))")
    }

    @Test func aFailingBatchFailsTheWholeCallAndStopsAsking() async {
        let client = FakeHTTPClient { request in
            locations(of: request).count == 100 ? openTopoDataAnswer(request) : HTTPResponse(status: 503)
        }
        let error = await errorText { _ = try await OpenTopoData(client: client, baseURL: local).elevations(at: points(150)) }
        #expect(error?.message.contains("HTTP 503") == true)
        #expect(client.requests.all.count == 2)
    }

    @Test func noAnswerAtAllNamesTheURL() async {
        let client = FakeHTTPClient { request in
            throw HTTPError(kind: .unreachable, url: request.url, detail: "Connection refused")
        }
        let error = await errorText { _ = try await OpenTopoData(client: client, baseURL: local).elevations(at: points(1)) }
        #expect(error?.description == "http://127.0.0.1:5000/v1/srtm30m: OpenTopoData could not be reached: Connection refused")
    }

    @Test func anInvalidPointIsRefusedBeforeAsking() async {
        let client = FakeHTTPClient(answer: openTopoDataAnswer)
        let error = await errorText {
            _ = try await OpenTopoData(client: client, baseURL: local)
                .elevations(at: [grid(0, 0), Coordinate(latitude: .nan, longitude: 1)])
        }
        #expect(error?.message.contains("point 1") == true)
        #expect(client.requests.all.isEmpty)
    }
}

// MARK: - Open-Elevation and Valhalla

@Suite struct OpenElevationAndValhallaTests {
    @Test func openElevationPostsLocationsInBatches() async throws {
        let client = FakeHTTPClient { request in
            let body = try JSONSerialization.jsonObject(with: request.body!) as! [String: [[String: Double]]]
            let results = body["locations"]!.map { "{\"latitude\":\($0["latitude"]!),\"longitude\":\($0["longitude"]!),\"elevation\":42}" }
            return json("{\"results\":[\(results.joined(separator: ","))]}")
        }
        let source = OpenElevation(client: client, baseURL: local)
        let heights = try await source.elevations(at: points(600))
        #expect(heights.count == 600 && heights.allSatisfy { $0 == 42 })
        let requests = client.requests.all
        #expect(requests.count == 2)
        #expect(requests[0].method == .post)
        #expect(requests[0].url.absoluteString == "http://127.0.0.1:5000/api/v1/lookup")
        #expect(requests[0].headers["Content-Type"] == "application/json")
        let first = String(decoding: requests[0].body!, as: UTF8.self)
        #expect(first.hasPrefix(#"{"locations":[{"latitude":42.500000,"longitude":1.500000},"#))
        let counts = try requests.map { try (JSONSerialization.jsonObject(with: $0.body!) as! [String: [Any]])["locations"]!.count }
        #expect(counts == [512, 88])
    }

    @Test func openElevationRateLimitAndShortAnswerAreErrors() async {
        let limited = FakeHTTPClient { _ in HTTPResponse(status: 429) }
        let error = await errorText { _ = try await OpenElevation(client: limited, baseURL: local).elevations(at: points(3)) }
        #expect(error?.description == "http://127.0.0.1:5000/api/v1/lookup: Open-Elevation is limiting requests (HTTP 429); "
                + "wait before asking again, or use a local source (DEM tiles, a local server)")
        let short = FakeHTTPClient { _ in json(#"{"results":[{"latitude":1,"longitude":1,"elevation":5}]}"#) }
        let error2 = await errorText { _ = try await OpenElevation(client: short, baseURL: local).elevations(at: points(3)) }
        #expect(error2?.message == "Open-Elevation answered 1 heights for 3 points; a partial answer is not used")
    }

    @Test func valhallaBodyFollowsTheHeightAPI() async throws {
        let client = FakeHTTPClient { request in
            let body = try JSONSerialization.jsonObject(with: request.body!) as! [String: Any]
            let shape = body["shape"] as! [[String: Double]]
            return json("{\"height\":[\(shape.map { _ in "1234.5" }.joined(separator: ","))]}")
        }
        let source = ValhallaHeight(client: client, baseURL: URL(string: "http://127.0.0.1:8002")!)
        let asked = [Coordinate(latitude: 42.5, longitude: 1.5), Coordinate(latitude: 42.512345678, longitude: 1.498765432)]
        #expect(try await source.elevations(at: asked) == [1234.5, 1234.5])

        let request = try #require(client.requests.all.first)
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "http://127.0.0.1:8002/height")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(String(decoding: request.body!, as: UTF8.self)
                == #"{"shape":[{"lat":42.500000,"lon":1.500000},{"lat":42.512346,"lon":1.498765}],"range":false,"height_precision":1}"#)
        // And as JSON, the shape Valhalla's /height documents: shape, range, height_precision.
        let body = try JSONSerialization.jsonObject(with: request.body!) as! [String: Any]
        #expect(Set(body.keys) == ["shape", "range", "height_precision"])
        #expect((body["shape"] as! [[String: Double]]).map { Set($0.keys) } == [["lat", "lon"], ["lat", "lon"]])
    }

    @Test func valhallaNullsAreNilAndBatchesAreBig() async throws {
        let client = FakeHTTPClient { request in
            let count = (try JSONSerialization.jsonObject(with: request.body!) as! [String: Any])["shape"].map { ($0 as! [Any]).count }!
            return json("{\"height\":[\(Array(repeating: "null", count: count).joined(separator: ","))]}")
        }
        let source = ValhallaHeight(client: client, baseURL: URL(string: "http://127.0.0.1:8002")!)
        let heights = try await source.elevations(at: points(3500))
        #expect(heights.count == 3500 && heights.allSatisfy { $0 == nil })
        #expect(client.requests.all.count == 2)
    }

    @Test func valhallaErrorBodyIsQuoted() async {
        let client = FakeHTTPClient { _ in
            json(#"{"error_code":100,"error":"Failed to parse json request","status_code":400,"status":"Bad Request"}"#, status: 400)
        }
        let error = await errorText {
            _ = try await ValhallaHeight(client: client, baseURL: URL(string: "http://127.0.0.1:8002")!).elevations(at: points(1))
        }
        #expect(error?.description == "http://127.0.0.1:8002/height: Valhalla refused the request (HTTP 400): Failed to parse json request")
    }
}

// MARK: - Rate limiter

@Suite struct RateLimiterTests {
    @Test func spacesTurnsByTheInterval() async throws {
        let clock = FakeClock()
        let limiter = clock.limiter(interval: 1)
        var times: [TimeInterval] = []
        for _ in 0..<3 {
            try await limiter.waitForTurn()
            times.append(clock.now)
        }
        #expect(times == [0, 1, 2])
        #expect(clock.sleeps == [1, 1])
    }

    @Test func doesNotWaitWhenTheIntervalHasPassed() async throws {
        let clock = FakeClock()
        let limiter = clock.limiter(interval: 1)
        try await limiter.waitForTurn()
        clock.advance(0.25)
        try await limiter.waitForTurn()
        clock.advance(5)
        try await limiter.waitForTurn()
        #expect(clock.sleeps == [0.75])
    }

    @Test func requestsOfAServiceAreSpaced() async throws {
        let clock = FakeClock()
        let sentAt = Log<TimeInterval>()
        let client = FakeHTTPClient { request in
            sentAt.append(clock.now)
            return openTopoDataAnswer(request)
        }
        let source = OpenTopoData(client: client, baseURL: local, limiter: clock.limiter(interval: 1))
        _ = try await source.elevations(at: points(250))
        #expect(sentAt.all == [0, 1, 2])
    }

    @Test func concurrentCallersQueueInsteadOfGoingTogether() async throws {
        let clock = FakeClock()
        let limiter = clock.limiter(interval: 2)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { try await limiter.waitForTurn() } }
            try await group.waitForAll()
        }
        // The first goes at once; each later caller wakes in its own slot, 2 s after the one before,
        // even though they all arrived before anyone woke.
        #expect(clock.wakeTimes.sorted() == [2, 4, 6])
    }
}

// MARK: - Cache

@Suite struct ElevationCacheTests {
    private func countingSource(_ name: String = "Fake DEM") -> FakeSource {
        FakeSource(name: name) { points in points.map { $0.longitude > 1.5005 ? nil : 700 } }
    }

    @Test func aCachedPointIsNotAskedAgainEvenAfterAReload() async throws {
        let folder = try TemporaryFolder()
        let inner = countingSource()
        let asked = points(60)  // 0…590 m east: the last points are beyond 1.5005° and have no height
        let first = try await ElevationCache(wrapping: inner, folder: folder.url).elevations(at: asked)
        #expect(inner.calls.all.count == 1)
        #expect(first.contains(nil) && first.contains(700))

        let cache = ElevationCache(wrapping: inner, folder: folder.url)
        #expect(try await cache.count() == 60)
        #expect(try await cache.elevations(at: asked) == first)
        #expect(try await cache.elevations(at: Array(asked.reversed())) == first.reversed())
        #expect(inner.calls.all.count == 1, "the reloaded cache answers everything, nil included")

        _ = try await cache.elevations(at: asked + [grid(0, 500)])
        #expect(inner.calls.all.count == 2)
        #expect(inner.calls.all[1].count == 1, "only the new point is asked")
    }

    @Test func anHTTPSourceBehindTheCacheIsNotAskedTwice() async throws {
        let folder = try TemporaryFolder()
        let client = FakeHTTPClient(answer: openTopoDataAnswer)
        let source = OpenTopoData(client: client, baseURL: local)
        _ = try await ElevationCache(wrapping: source, folder: folder.url).elevations(at: points(150))
        #expect(client.requests.all.count == 2)
        _ = try await ElevationCache(wrapping: source, folder: folder.url).elevations(at: points(150))
        #expect(client.requests.all.count == 2)
    }

    @Test func pointsWithinAMetreShareOneEntryAndAreAskedOnce() async throws {
        let folder = try TemporaryFolder()
        let inner = countingSource()
        let a = Coordinate(latitude: 42.500001, longitude: 1.500001)
        let b = Coordinate(latitude: 42.500003, longitude: 1.499998)  // rounds to the same 1e-5° cell
        let heights = try await ElevationCache(wrapping: inner, folder: folder.url).elevations(at: [a, b, a])
        #expect(heights == [700, 700, 700])
        #expect(inner.calls.all == [[Coordinate(latitude: 42.5, longitude: 1.5)]])
    }

    @Test func errorsAreNotCached() async throws {
        let folder = try TemporaryFolder()
        let failing = FakeSource(name: "Flaky") { _ in throw ElevationError(source: "Flaky", message: "down") }
        let cache = ElevationCache(wrapping: failing, folder: folder.url)
        await #expect(throws: ElevationError.self) { try await cache.elevations(at: points(2)) }
        await #expect(throws: ElevationError.self) { try await cache.elevations(at: points(2)) }
        #expect(failing.calls.all.count == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test func nilAnswersAreAskedAgainWhenNotKept() async throws {
        let folder = try TemporaryFolder()
        let inner = FakeSource(name: "Voids") { $0.map { _ in nil } }
        let cache = ElevationCache(wrapping: inner, folder: folder.url, cachesMissingHeights: false)
        _ = try await cache.elevations(at: points(2))
        _ = try await cache.elevations(at: points(2))
        #expect(inner.calls.all.count == 2)
    }

    @Test func theFileIsWrittenWholeWithNoTemporaryLeft() async throws {
        let folder = try TemporaryFolder()
        let inner = countingSource("OpenTopoData srtm30m")
        let cache = ElevationCache(wrapping: inner, folder: folder.url.appendingPathComponent("cache"))
        _ = try await cache.elevations(at: points(3))
        _ = try await cache.elevations(at: points(5))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("cache").path)
        #expect(names == [cache.file.lastPathComponent])
        #expect(cache.file.lastPathComponent.hasPrefix("OpenTopoData_srtm30m-"))
        let contents = try JSONSerialization.jsonObject(with: Data(contentsOf: cache.file)) as! [String: Any]
        #expect(contents["source"] as? String == "OpenTopoData srtm30m")
        #expect((contents["points"] as! [[Any]]).count == 5)
    }

    @Test func aDamagedFileIsAnErrorNamingIt() async throws {
        let folder = try TemporaryFolder()
        let inner = countingSource()
        let cache = ElevationCache(wrapping: inner, folder: folder.url)
        try Data("{\"format\":\"roadbook elevation cache 1\",\"source\":\"Fake DEM\",\"points\":[[1,2".utf8).write(to: cache.file)
        let error = await errorText { _ = try await cache.elevations(at: points(1)) }
        #expect(error?.source == cache.file.path)
        #expect(error?.message.contains("delete it") == true)
        #expect(inner.calls.all.isEmpty)
    }

    @Test func aFileOfAnotherSourceIsRefused() async throws {
        let folder = try TemporaryFolder()
        let first = ElevationCache(wrapping: countingSource("A"), folder: folder.url)
        _ = try await first.elevations(at: points(1))
        let other = ElevationCache(wrapping: countingSource("B"), folder: folder.url)
        // A different source gets a different file.
        #expect(other.file != first.file)
        try FileManager.default.copyItem(at: first.file, to: other.file)
        let error = await errorText { _ = try await other.elevations(at: points(1)) }
        #expect(error?.message.contains("holds heights from \"A\", not \"B\"") == true)
    }
}

// MARK: - Fallback chain

@Suite struct FallbackChainTests {
    @Test func theSecondSourceAnswersWhenTheFirstThrowsAndTheErrorIsKept() async throws {
        let client = FakeHTTPClient { _ in HTTPResponse(status: 429) }
        let service = OpenTopoData(client: client, baseURL: local)
        let tiles = FakeSource(name: "SRTM3 tiles in dem/") { $0.map { _ in 1200 } }
        let told = Log<FallbackChain.Failure>()
        let chain = FallbackChain([service, tiles], onFailure: { told.append($0) })

        let report = try await chain.report(at: points(250))
        #expect(report.heights.allSatisfy { $0 == 1200 })
        #expect(report.failures.count == 1)
        #expect(report.failures.first?.source == "OpenTopoData srtm30m")
        #expect(report.failures.first?.error.message.contains("HTTP 429") == true)
        #expect(told.all == report.failures)
        #expect(report.pointCount(from: 1) == 250)
        #expect(report.summary.hasPrefix("OpenTopoData srtm30m failed (http://127.0.0.1:5000/v1/srtm30m: OpenTopoData is limiting requests (HTTP 429)"))
        #expect(report.summary.hasSuffix("; used SRTM3 tiles in dem/ for 250 of 250 points"))
        #expect(client.requests.all.count == 1, "a failed source is not asked for the later batches")
        #expect(try await chain.elevations(at: points(3)) == [1200, 1200, 1200])
    }

    @Test func laterSourcesAreAskedOnlyForPointsStillWithoutHeight() async throws {
        let first = FakeSource(name: "Service") { points in points.enumerated().map { $0.offset % 2 == 0 ? 10 : nil } }
        let second = FakeSource(name: "Tiles") { $0.map { _ in 20 } }
        let third = FakeSource(name: "Never") { $0.map { _ in 30 } }
        let report = try await FallbackChain([first, second, third]).report(at: points(4))
        #expect(report.heights == [10, 20, 10, 20])
        #expect(report.sourceIndex == [0, 1, 0, 1])
        #expect(second.calls.all == [[points(4)[1], points(4)[3]]])
        #expect(third.calls.all.isEmpty)
        #expect(report.failures.isEmpty)
        #expect(report.summary == "used Service for 2 of 4 points, Tiles for 2 of 4 points")
    }

    @Test func pointsNoSourceCoversAreNil() async throws {
        let first = FakeSource(name: "Service") { points in points.map { $0.longitude < 1.5001 ? 5 : nil } }
        let second = FakeSource(name: "Tiles") { $0.map { _ in nil } }
        let report = try await FallbackChain([first, second]).report(at: points(3))
        #expect(report.heights == [5, nil, nil])
        #expect(report.pointsWithoutHeight == 2)
        #expect(report.summary == "used Service for 1 of 3 points; no height for 2 of 3 points")
    }

    @Test func whenEverySourceFailsTheChainThrowsWithEveryReason() async throws {
        let first = FakeSource(name: "A") { _ in throw ElevationError(source: "http://a", message: "HTTP 500") }
        let second = FakeSource(name: "B") { _ in throw ElevationError(source: "dem/", message: "no tiles") }
        let chain = FallbackChain([first, second])
        let report = try await chain.report(at: points(2))
        #expect(report.heights == [nil, nil])
        #expect(report.failures.map(\.source) == ["A", "B"])
        let error = await errorText { _ = try await chain.elevations(at: points(2)) }
        #expect(error?.description == "A, then B: every source failed: A failed (http://a: HTTP 500); B failed (dem/: no tiles)")
    }
}
