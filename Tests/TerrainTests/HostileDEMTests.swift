import Foundation
@testable import Terrain
import Geo
import Testing
import TestSupport

@Suite("Hostile DEM files")
struct HostileDEMTests {
    @Test("each hostile .hgt, .zip or GeoTIFF is refused with one clear line naming the file", arguments: HostileCorpus.cases())
    func refused(_ hostile: HostileCase) {
        HostileCorpus.check(hostile) { _ = try DEMSource(contentsOf: $0) }
    }

    @Test("every hostile file has its line in expected.tsv")
    func listed() { #expect(HostileCorpus.unlisted() == []) }

    @Test("an 8 GB sparse .hgt is refused by its size before it is read")
    func sparseTile() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("N42E001.hgt")
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let descriptor = open(url.path, O_WRONLY)
        #expect(descriptor >= 0)
        #expect(ftruncate(descriptor, 8 << 30) == 0)
        close(descriptor)
        let error = #expect(throws: ElevationError.self) { try HGTTile(contentsOf: url) }
        #expect(error?.description.contains("8589934592 bytes is not an SRTM tile") == true, "\(String(describing: error))")
    }

    @Test("float heights of ±3.4e38, ±1e30 and infinities are voids, not heights")
    func sentinelHeights() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("sentinels.tif")
        let values: [Double] = [3.4e38, -3.4e38, 1e30, -1e30, .infinity, -.infinity, 12000, -600, 100, 200, 300, 400]
        try GeoTIFFWriter.write(values, width: 4, height: 3, to: url, tiepoint: (x: 1.0, y: 43.0), pixelSize: (x: 0.001, y: 0.001))
        let dem = try GeoTIFFDEM(contentsOf: url)
        #expect(dem.values.prefix(8).allSatisfy { $0.isNaN })
        #expect(Array(dem.values.suffix(4)) == [100, 200, 300, 400])
        #expect(dem.height(at: Coordinate(latitude: 42.9995, longitude: 1.0005)) == nil)
    }
}
