import Foundation
import Geo
import HTTP
import Model
import OSM
import Routing
import Testing
import TestSupport

/// The embedded router against a real OSRM (car profile, started by scripts/test.sh over the
/// Andorra extract) on seeded random driving routes, with and without the extract's turn
/// restrictions (issue 11, class 10: without them the embedded router took turns OSRM forbids).
///
/// The 2013 Andorra extract in samples/data holds no `type=restriction` relation (its 74 relations
/// are boundaries, routes, multipolygons and sites), so here both routers must give the same
/// lengths; the routes off OSRM's length are off for other reasons (OSRM's car profile leaves out
/// roads tagged `construction=*`, such as a stretch of the CG-2 by Encamp). The restriction rules
/// themselves are checked on drawn maps (`RestrictedRoutingTests`).
@Suite("Turn restrictions: the embedded router against OSRM", .serialized)
struct RestrictionsAgreeTests {
    /// Routes compared, and the seed that draws their ends.
    static let routeCount = 120
    static let seed: UInt64 = 11_10

    @Test("on seeded Andorra routes, restrictions leave no more routes >5% off OSRM's length than before")
    func lengthsAgreeWithOSRM() async throws {
        guard let text = ProcessInfo.processInfo.environment["ROADBOOK_OSRM_URL"], let base = URL(string: text) else {
            throw ToolError(message: "ROADBOOK_OSRM_URL is not set: run the suite with scripts/test.sh, which starts OSRM on 127.0.0.1")
        }
        let client = try CurlHTTPClient(maximumConcurrentRequests: 4)
        let osrm = OSRMEngine(client: client, baseURL: base)
        let graph = try OSMGraph.load(contentsOf: testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf"))
        var unrestrictedGraph = graph
        unrestrictedGraph.turnRestrictions = TurnRestrictions()
        let withRestrictions = EmbeddedRouter(graph: graph)
        let without = EmbeddedRouter(graph: unrestrictedGraph)

        // Ends on nodes of roads a car may use, drawn with a fixed seed.
        let drivable = (0..<graph.count).filter { node in
            graph.edgeIndices(from: node).contains { TravelRules.drive.speed(on: graph.ways[graph.edge(at: $0).way]) != nil }
        }
        var generator = SeededGenerator(seed: Self.seed)
        var offBefore = 0, offAfter = 0, compared = 0
        var lines: [String] = []
        while compared < Self.routeCount {
            let a = graph.coordinates[drivable[Int.random(in: 0..<drivable.count, using: &generator)]]
            let b = graph.coordinates[drivable[Int.random(in: 0..<drivable.count, using: &generator)]]
            guard a.distance(to: b) > 1000,
                  let reference = try? await osrm.route(from: a, to: b, mode: .drive),
                  let before = try? without.leg(from: a, to: b, mode: .drive),
                  let after = try? withRestrictions.leg(from: a, to: b, mode: .drive) else { continue }
            compared += 1
            let differenceBefore = abs(before.distance - reference.distance) / reference.distance
            let differenceAfter = abs(after.distance - reference.distance) / reference.distance
            if differenceBefore > 0.05 { offBefore += 1 }
            if differenceAfter > 0.05 { offAfter += 1 }
            if differenceBefore > 0.05 || differenceAfter > 0.05 {
                lines.append(String(format: "%.5f,%.5f → %.5f,%.5f: OSRM %.0f m, embedded %.0f m without restrictions, %.0f m with",
                                    a.latitude, a.longitude, b.latitude, b.longitude, reference.distance, before.distance, after.distance))
            }
        }
        print("restrictions: \(graph.turnRestrictions.entries.count) in the extract; \(compared) routes; "
              + ">5% off OSRM: \(offBefore) without restrictions, \(offAfter) with\n  "
              + lines.joined(separator: "\n  "))
        #expect(offAfter <= offBefore, "\(lines.joined(separator: "\n"))")
    }
}
