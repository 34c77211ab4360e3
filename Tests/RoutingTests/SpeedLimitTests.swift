import Foundation
import Geo
import Model
import OSM
import Routing
import Testing
import TestSupport

// Speed limits (`maxspeed`) as OSRM's car.lua and bicycle.lua read them: the expected values are
// worked out by hand from their rules (the first number of the first of maxspeed:advisory, maxspeed,
// source:maxspeed, maxspeed:type; mph at 1.609 km/h; a zone such as FR:urban from
// maxspeed_table_default; a car at 0.8 of the limit; a bicycle under it).

@Suite("Speed limits in the embedded router")
struct SpeedLimitTests {
    @Test("maxspeed values are read as car.lua reads them", arguments: [
        (["maxspeed": "50"], 50.0), (["maxspeed": "30 mph"], 48.27), (["maxspeed": "90;30;90"], 90),
        (["maxspeed": "FR:urban"], 50), (["maxspeed": "DE:rural"], 90), (["source:maxspeed": "AT:motorway"], 130),
        (["maxspeed": "70", "maxspeed:advisory": "40"], 40), (["maxspeed": "none"], nil), (["maxspeed": "signals"], nil),
        (["maxspeed": "0"], nil), (["maxspeed": "walk"], nil), (["maxspeed": "99999999"], nil), ([:], nil),
    ] as [([String: String], Double?)])
    func parsing(tags: [String: String], expected: Double?) {
        let read = WayInfo.maxspeed(of: tags)
        #expect(read.map { abs($0 - (expected ?? -1)) < 0.01 } ?? (expected == nil), "\(tags): \(String(describing: read))")
    }

    @Test("a car drives 0.8 of a road's limit, faster or slower than its class; a bicycle keeps under it; a track keeps its own speed")
    func speeds() throws {
        let map = AsciiMap(gridSize: 100, "a-b", ways: [("ab", ["highway": "residential"])])
        func duration(_ tags: [String: String], _ mode: TravelMode) throws -> TimeInterval {
            let ways: [(String, [String: String])] = [("ab", tags)]
            return try EmbeddedRouter(graph: graph(map, ways)).leg(from: map["a"].coordinate, to: map["b"].coordinate, mode: mode).duration
        }
        // 200 m: a residential street at car.lua's 25 km/h, at 40 km/h with a 50 limit, 24 km/h with 30.
        #expect(abs(try duration(["highway": "residential"], .drive) - 200 / (25 / 3.6)) < 0.01)
        #expect(abs(try duration(["highway": "residential", "maxspeed": "50"], .drive) - 200 / (40 / 3.6)) < 0.01)
        #expect(abs(try duration(["highway": "residential", "maxspeed": "30"], .drive) - 200 / (24 / 3.6)) < 0.01)
        // A bicycle at its 15 km/h, and at 10 km/h under a 10 limit.
        #expect(abs(try duration(["highway": "residential", "maxspeed": "50"], .cycle) - 200 / (15 / 3.6)) < 0.01)
        #expect(abs(try duration(["highway": "residential", "maxspeed": "10"], .cycle) - 200 / (10 / 3.6)) < 0.01)
        // A gravel track for a car stays at 15 km/h whatever its sign says.
        #expect(abs(try duration(["highway": "track", "tracktype": "grade2", "maxspeed": "80"], .drive) - 200 / (15 / 3.6)) < 0.01)
    }
}
