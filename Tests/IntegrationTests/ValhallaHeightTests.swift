import Foundation
import Geo
import HTTP
import OSM
import Terrain
import Testing
import TestSupport

/// Heights from the Andorra SRTM3 tile against a real Valhalla `/height` (pyvalhalla wheel, started
/// on 127.0.0.1 by scripts/test.sh over the same tile upsampled by exactly 3 to the 1-arc-second
/// tile Valhalla reads): at 1,000 points along Andorra's roads they agree within 1 m.
@Suite("Heights against Valhalla /height")
struct ValhallaHeightTests {
    @Test("1,000 points along Andorra's roads agree within 1 m")
    func agree() async throws {
        guard let base = ProcessInfo.processInfo.environment["ROADBOOK_VALHALLA_URL"].flatMap(URL.init(string:)) else {
            throw ToolError(message: "ROADBOOK_VALHALLA_URL is not set: run the suite with scripts/test.sh, which starts Valhalla on 127.0.0.1")
        }
        let data = try testDataFolder()
        let graph = try OSMGraph.load(contentsOf: data.appendingPathComponent("andorra/andorra.osm.pbf"))
        // Places on roads: every graph node is on a road; 1,000 of them chosen with a fixed seed,
        // each moved a third of the way towards a neighbour so most fall between DEM samples.
        var generator = SeededGenerator(seed: 2026)
        var points: [Coordinate] = []
        while points.count < 1000 {
            let node = Int.random(in: 0..<graph.count, using: &generator)
            guard let edge = graph.edges(from: node).first else { continue }
            let a = graph.coordinates[node], b = graph.coordinates[edge.target]
            points.append(Coordinate(latitude: a.latitude + (b.latitude - a.latitude) / 3,
                                     longitude: a.longitude + (b.longitude - a.longitude) / 3))
        }
        let ours = try DEMSource(contentsOf: data.appendingPathComponent("andorra/N42E001.hgt.zip"))
        let valhalla = ValhallaHeight(client: try CurlHTTPClient(), baseURL: base)
        let mine = try await ours.elevations(at: points)
        let theirs = try await valhalla.elevations(at: points)
        var compared = 0, worst = 0.0
        var disagreements: [String] = []
        for (i, (a, b)) in zip(mine, theirs).enumerated() {
            guard let a, let b else {
                // A void in the tile is a void for both.
                #expect(a == nil && b == nil, "point \(points[i]): ours \(String(describing: a)), Valhalla \(String(describing: b))")
                continue
            }
            compared += 1
            worst = max(worst, abs(a - b))
            if abs(a - b) > 1 { disagreements.append("\(points[i]): ours \(a), Valhalla \(b)") }
        }
        print(String(format: "heights: %d of 1000 points compared with Valhalla, largest difference %.2f m", compared, worst))
        #expect(compared >= 950)
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10).joined(separator: "\n"))")
    }
}

