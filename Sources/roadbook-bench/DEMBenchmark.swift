import Foundation
import Geo
import Terrain

/// Lookups timed per run: enough for a stable rate at several million a second.
private let demBenchmarkLookups = 5_000_000

/// Reads the Andorra SRTM3 tile and times bilinear `HGTTile.height(at:)` lookups at seeded
/// random points across it.
/// - Returns: lines for the benchmark report: load time and lookups per second (best of 3).
/// - Throws: `ElevationError` when the tile is missing or unreadable.
func demBenchmarkLines() throws -> [String] {
    let url = try sampleData("andorra/N42E001.hgt.zip")
    let clock = ContinuousClock()
    var loaded: HGTTile?
    let loadTime = try clock.measure { loaded = try HGTTile(contentsOf: url) }
    guard let tile = loaded else { return [] }

    var generator = SplitMix(state: 42)
    let points = (0..<demBenchmarkLookups).map { _ in
        Coordinate(latitude: 42 + generator.uniform(), longitude: 1 + generator.uniform())
    }
    var best = Duration.seconds(1_000)
    var sum = 0.0, voids = 0
    for _ in 0..<3 {
        sum = 0
        voids = 0
        let time = clock.measure {
            for p in points {
                if let h = tile.height(at: p) { sum += h } else { voids += 1 }
            }
        }
        best = min(best, time)
    }
    func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
    let rate = Double(points.count) / seconds(best)
    return [
        String(format: "DEM: SRTM3 tile N42E001.hgt.zip read and unzipped in %.1f ms", seconds(loadTime) * 1000),
        String(format: "DEM: %.1f million bilinear heights/s (best of 3 × %d random points; %d voids; mean %.0f m)",
               rate / 1e6, points.count, voids, sum / Double(points.count - voids)),
    ]
}
