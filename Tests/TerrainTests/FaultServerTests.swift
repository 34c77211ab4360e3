import Foundation
import Geo
import HTTP
import Terrain
import Testing
import TestSupport

/// Elevation services over real HTTP (libcurl) against a loopback server that misbehaves.
@Suite("Elevation services through a loopback fault server")
struct ElevationFaultTests {
    static let points = (0..<150).map { Coordinate(latitude: 42.5 + Double($0) * 1e-4, longitude: 1.5) }

    static func answer(_ count: Int, height: Double = 1000) -> FaultServer.Behaviour {
        let results = (0..<count).map { _ in "{\"elevation\": \(height), \"location\": {\"lat\": 0, \"lng\": 0}}" }
        return .json("{\"status\": \"OK\", \"results\": [\(results.joined(separator: ","))]}")
    }

    func source(_ server: FaultServer, timeout: TimeInterval = 5) throws -> OpenTopoData {
        var source = OpenTopoData(client: try CurlHTTPClient(), baseURL: server.baseURL, dataset: "srtm90m")
        source.timeout = timeout
        return source
    }

    @Test("a good answer in batches of 100")
    func good() async throws {
        let server = try FaultServer(script: [Self.answer(100), Self.answer(50)])
        defer { server.stop() }
        let heights = try await source(server).elevations(at: Self.points)
        #expect(heights.count == 150 && heights.allSatisfy { $0 == 1000 })
        #expect(server.requests.count == 2 && server.requests[0].path == "/v1/srtm90m")
    }

    @Test("faults are errors that say what happened, and a partial answer is never taken", arguments: [
        ("429", FaultServer.Behaviour.respond(429, body: Data("Too Many Requests".utf8)), "limiting requests"),
        ("500", FaultServer.Behaviour.respond(500, body: Data("oops".utf8)), "HTTP 500"),
        ("garbage", FaultServer.Behaviour.garbage(Data("\u{1}\u{2}not http at all".utf8)), "srtm90m"),
        ("not JSON", FaultServer.Behaviour.text("<html>maintenance</html>"), "srtm90m"),
        ("hang-up", FaultServer.Behaviour.hangUp, "srtm90m"),
    ])
    func faults(name: String, behaviour: FaultServer.Behaviour, expected: String) async throws {
        let server = try FaultServer(script: [behaviour])
        defer { server.stop() }
        let error = await #expect(throws: ElevationError.self) { try await source(server).elevations(at: Self.points) }
        #expect(error?.description.contains(expected) == true, "\(name): \(String(describing: error))")
        #expect(server.requests.count == 1, "\(name): no second batch after a fault")
    }

    @Test("an answer with fewer heights than asked is refused")
    func partial() async throws {
        let server = try FaultServer(script: [Self.answer(99)])
        defer { server.stop() }
        await #expect(throws: ElevationError.self) { try await source(server).elevations(at: Array(Self.points.prefix(100))) }
    }

    @Test("no answer at all times out")
    func silence() async throws {
        let server = try FaultServer(script: [.noAnswer])
        defer { server.stop() }
        let error = await #expect(throws: ElevationError.self) {
            try await source(server, timeout: 1).elevations(at: Array(Self.points.prefix(3)))
        }
        #expect(error != nil)
    }

    @Test("a chain falls back to the next source when the first is limiting requests")
    func fallback() async throws {
        let bad = try FaultServer(script: [.respond(429)])
        let good = try FaultServer(script: [Self.answer(3, height: 1234)])
        defer { bad.stop(); good.stop() }
        let chain = FallbackChain([try source(bad), try source(good)])
        let report = try await chain.report(at: Array(Self.points.prefix(3)))
        #expect(report.heights == [1234, 1234, 1234])
        #expect(report.failures.count == 1 && report.summary.contains("429"), "\(report.summary)")
    }
}
