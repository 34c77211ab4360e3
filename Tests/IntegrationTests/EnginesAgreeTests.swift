import Foundation
import Geo
import HTTP
import Model
import OSM
import Routing
import Testing
import TestSupport

/// The same legs through a real OSRM and a real Valhalla (both on 127.0.0.1, started by
/// scripts/test.sh over the Andorra extract) and the embedded router over the same extract.
@Suite("Three engines on the Andorra extract", .serialized)
struct EnginesAgreeTests {
    /// Town to town, and across the towns: 24 legs between places on Andorra's main roads.
    static let places: [(String, Coordinate)] = [
        ("Sant Julià", .init(latitude: 42.4637, longitude: 1.4912)),
        ("Andorra la Vella", .init(latitude: 42.5075, longitude: 1.5218)),
        ("Escaldes", .init(latitude: 42.5096, longitude: 1.5387)),
        ("Encamp", .init(latitude: 42.5345, longitude: 1.5806)),
        ("Canillo", .init(latitude: 42.5667, longitude: 1.5989)),
        ("Soldeu", .init(latitude: 42.5769, longitude: 1.6675)),
        ("La Massana", .init(latitude: 42.5450, longitude: 1.5148)),
        ("Ordino", .init(latitude: 42.5562, longitude: 1.5331)),
    ]

    static var legs: [(String, Coordinate, Coordinate)] {
        var result: [(String, Coordinate, Coordinate)] = []
        for (i, a) in places.enumerated() {
            for b in places[(i + 1)...] where result.count < 24 {
                result.append(("\(a.0) → \(b.0)", a.1, b.1))
            }
        }
        return result
    }

    static func url(_ variable: String) throws -> URL {
        guard let text = ProcessInfo.processInfo.environment[variable], let url = URL(string: text) else {
            throw ToolError(message: "\(variable) is not set: run the suite with scripts/test.sh, which starts the engines on 127.0.0.1")
        }
        return url
    }

    @Test("for at least 20 leg pairs, OSRM, Valhalla and the embedded router agree on the length within 5%")
    func lengthsAgree() async throws {
        let client = try CurlHTTPClient(maximumConcurrentRequests: 4)
        let osrm = OSRMEngine(client: client, baseURL: try Self.url("ROADBOOK_OSRM_URL"))
        let valhalla = ValhallaEngine(client: client, baseURL: try Self.url("ROADBOOK_VALHALLA_URL"))
        let graph = try OSMGraph.load(contentsOf: testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf"))
        let embedded = EmbeddedRouter(graph: graph)
        var agreeing = 0
        var lines: [String] = []
        for (name, a, b) in Self.legs {
            let o = try await osrm.route(from: a, to: b, mode: .drive)
            let v = try await valhalla.route(from: a, to: b, mode: .drive)
            let e = try await embedded.route(from: a, to: b, mode: .drive)
            let lengths = [o.distance, v.distance, e.distance]
            let spread = (lengths.max()! - lengths.min()!) / lengths.min()!
            if spread <= 0.05 { agreeing += 1 }
            lines.append(String(format: "%@: OSRM %.0f m, Valhalla %.0f m, embedded %.0f m (%.1f%%)", name, o.distance, v.distance,
                                e.distance, spread * 100))
            #expect(!o.junctions.isEmpty && !e.junctions.isEmpty, "\(name): junctions along the road")
        }
        print("engines: \(agreeing) of \(Self.legs.count) legs within 5%\n  " + lines.joined(separator: "\n  "))
        #expect(agreeing >= 20, "\(lines.joined(separator: "\n"))")
    }
}
