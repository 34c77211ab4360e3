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

    var state: UInt64 = 42
    func next() -> Double {   // SplitMix64 (Steele, Lea & Flood 2014), as a fraction in [0, 1)
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
    let points = (0..<demBenchmarkLookups).map { _ in Coordinate(latitude: 42 + next(), longitude: 1 + next()) }
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
