import BookAssembly
import Foundation
import Formats
import Geo
import Model
import Terrain
import Testing
import TestSupport

/// Climb and descent from the real Andorra tile along the sample route over the Port d'Envalira.
@Suite("Profiles from the Andorra DEM")
struct ProfileTerrainTests {
    static func route() throws -> Polyline {
        let url = packageRoot().appendingPathComponent("samples/andorra-envalira.gpx")
        return Polyline(try GPXReader.read(contentsOf: url).trackPoints.map(\.coordinate))
    }

    static func profile(spacing: Metres, threshold: Metres = ProfileBuilder.Configuration().noiseThreshold) async throws -> Profile {
        let dem = try DEMSource(contentsOf: testDataFolder().appendingPathComponent("andorra/N42E001.hgt.zip"))
        var builder = ProfileBuilder()
        builder.configuration.spacing = spacing
        builder.configuration.noiseThreshold = threshold
        let points = builder.samplePoints(along: try route())
        return builder.profile(heights: try await dem.elevations(at: points), source: dem.name)
    }

    @Test("over the Envalira pass, climb and descent change by less than 3% from 10 m to 20 m spacing")
    func spacingStability() async throws {
        let fine = try await Self.profile(spacing: 10), coarse = try await Self.profile(spacing: 20)
        #expect(fine.isComplete && coarse.isComplete)
        print(String(format: "Envalira: climb %.0f / %.0f m, descent %.0f / %.0f m at 10 / 20 m", fine.climb, coarse.climb,
                     fine.descent, coarse.descent))
        #expect(abs(fine.climb - coarse.climb) / fine.climb < 0.03)
        #expect(abs(fine.descent - coarse.descent) / fine.descent < 0.03)
        // The road climbs from about 900 m at Sant Julià to 2,408 m at the pass, then down to Pas de la Casa.
        #expect(fine.range.map { $0.lowerBound > 850 && $0.upperBound > 2350 && $0.upperBound < 2450 } == true)
        #expect(fine.climb > 1500 && fine.climb < 2100)
    }

    @Test("a flat road gets near-zero climb: a tile of flat ground with DEM jitter")
    func flat() async throws {
        var generator = SeededGenerator(seed: 11)
        let size = 1201
        var samples = [Int16](repeating: 0, count: size * size)
        for i in samples.indices { samples[i] = Int16(600 + Int.random(in: -2...2, using: &generator)) }
        let tile = try HGTTile(south: 42, west: 1, size: size, samples: samples, source: "flat")
        let folder = try TemporaryFolder()
        try tile.write(to: folder.path("N42E001.hgt"))
        let dem = try DEMSource(contentsOf: folder.path("N42E001.hgt"))
        let builder = ProfileBuilder()
        let points = builder.samplePoints(along: try Self.route())
        let profile = builder.profile(heights: try await dem.elevations(at: points), source: dem.name)
        #expect(profile.isComplete)
        #expect(profile.climb < 10 && profile.descent < 10, "\(profile.climb) up, \(profile.descent) down over 39 km")
    }
}

