import Foundation
import Geo
import TestSupport
import Testing
@testable import Terrain

/// The SRTM3 tile over Andorra in samples/data.
private func andorraTileURL() throws -> URL {
    try testDataFolder().appendingPathComponent("andorra/N42E001.hgt.zip")
}

private func andorraTile() throws -> HGTTile {
    try HGTTile(contentsOf: andorraTileURL())
}

private func at(_ latitude: Double, _ longitude: Double) -> Coordinate {
    Coordinate(latitude: latitude, longitude: longitude)
}

/// Runs `body` and returns the ElevationError it throws, recording an issue when it throws none.
private func elevationError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> ElevationError? {
    do {
        try body()
        Issue.record("expected an ElevationError", sourceLocation: sourceLocation)
        return nil
    } catch let error as ElevationError {
        return error
    } catch {
        Issue.record("expected an ElevationError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

// The raw samples and bilinear values below were read independently of this code with Python:
//   unzip -p samples/data/andorra/N42E001.hgt.zip N42E001.hgt > /tmp/t.hgt
//   python3 -c 'import struct; d=open("/tmp/t.hgt","rb").read(); s=lambda r,c: struct.unpack(">h", d[2*(r*1201+c):2*(r*1201+c)+2])[0]; ...'
// with y = (43 − lat)·1200, x = (lon − 1)·1200, row = ⌊y⌋, column = ⌊x⌋ (the last cell on the
// south and east edges), h = Σ sample · weight.
@Suite("SRTM .hgt tiles")
struct HGTTileTests {
    @Test("reads the zipped Andorra tile as SRTM3 with its corner from the name")
    func readsAndorra() throws {
        let tile = try andorraTile()
        #expect(tile.size == 1201)
        #expect(tile.south == 42 && tile.west == 1)
        #expect(tile.name == "N42E001")
        // Corner samples, from Python: rows north to south, columns west to east.
        #expect(tile.sample(row: 0, column: 0) == 838)
        #expect(tile.sample(row: 0, column: 1200) == 360)
        #expect(tile.sample(row: 1200, column: 0) == 828)
        #expect(tile.sample(row: 1200, column: 1200) == 707)
    }

    @Test("bilinear heights agree with four raw samples read by Python")
    func bilinearAgreesWithHandComputation() throws {
        let tile = try andorraTile()
        // Near Port d'Envalira: row 551, column 863, samples 2408 2415 / 2409 2410,
        // fx = 0.64, fy = 0.40 → 2408·0.36·0.6 + 2415·0.64·0.6 + 2409·0.36·0.4 + 2410·0.64·0.4 = 2411.344.
        let envalira = try #require(tile.height(at: at(42.5405, 1.7197)))
        #expect(abs(envalira - 2411.344) < 1e-6)
        #expect((2350...2450).contains(envalira))
        // Andorra la Vella: row 590, column 626, samples 1041 1041 / 1036 1036, fy ≈ 1 → 1036.0.
        let vella = try #require(tile.height(at: at(42.5075, 1.5218)))
        #expect(abs(vella - 1036.0) < 1e-6)
        #expect((1020...1100).contains(vella))
    }

    @Test("corners and edges give the edge samples; outside gives nil")
    func cornersEdgesOutside() throws {
        let tile = try andorraTile()
        #expect(tile.height(at: at(43, 1)) == 838)
        #expect(tile.height(at: at(43, 2)) == 360)
        #expect(tile.height(at: at(42, 1)) == 828)
        #expect(tile.height(at: at(42, 2)) == 707)
        #expect(tile.height(at: at(42.5, 1)) == 2080)   // row 600 on the west edge
        #expect(tile.height(at: at(43, 1.5)) == 547)    // column 600 on the north edge
        #expect(tile.height(at: at(41.9999, 1.5)) == nil)
        #expect(tile.height(at: at(42.5, 2.0001)) == nil)
        #expect(tile.height(at: at(43.0001, 1.5)) == nil)
        #expect(tile.height(at: at(.nan, 1.5)) == nil)
    }

    @Test("a void in the real tile gives nil, not an invented height")
    func realVoid() throws {
        let tile = try andorraTile()
        // Python: the first void samples are at row 92, columns 114 and 115.
        #expect(tile.sample(row: 92, column: 114) == HGTTile.void)
        #expect(tile.height(at: at(43 - 92.5 / 1200, 1 + 114.5 / 1200)) == nil)
    }

    @Test("a void among the four samples gives nil; a void with no weight is not consulted")
    func syntheticVoid() throws {
        // Near Envalira, with one of the four samples made void.
        let tile = try andorraTile()
        var samples = tile.samples
        samples[551 * 1201 + 864] = HGTTile.void
        let holed = try HGTTile(south: 42, west: 1, size: 1201, samples: samples, source: "holed copy")
        #expect(holed.height(at: at(42.5405, 1.7197)) == nil)
        #expect(tile.height(at: at(42.5405, 1.7197)) != nil)

        // A 3 × 3 tile, 0.5° between samples, so the positions are exact in binary.
        let small = try HGTTile(south: 10, west: 20, size: 3, samples: [
            100, 200, HGTTile.void,
            300, 400, 500,
            600, 700, 800,
        ], source: "3 × 3")
        #expect(small.height(at: at(10.75, 20.75)) == nil)      // the void carries weight
        #expect(small.height(at: at(11, 20.5)) == 200)          // on the sample beside the void: only it counts
        #expect(small.height(at: at(10.75, 20.5)) == 300)       // on the column of 200 and 400, the void's weight 0
        #expect(small.height(at: at(10.25, 20.25)) == 500)      // (300 + 400 + 600 + 700) / 4
    }

    @Test("a wrong-size .hgt, a corrupt zip, a zip without .hgt and a bad name are errors naming the file")
    func errors() throws {
        let folder = try TemporaryFolder()
        let wrongSize = folder.path("N42E001.hgt")
        try Data(count: 1000).write(to: wrongSize)
        let sizeError = try #require(elevationError { _ = try HGTTile(contentsOf: wrongSize) })
        #expect(sizeError.source == wrongSize.path)
        #expect(sizeError.message.contains("1000 bytes"))

        let original = try Data(contentsOf: andorraTileURL())
        let truncated = folder.path("N42E002.hgt.zip")
        try original.prefix(original.count / 2).write(to: truncated)
        let truncatedError = try #require(elevationError { _ = try HGTTile(contentsOf: truncated) })
        #expect(truncatedError.source == truncated.path)

        // Same length, damaged compressed bytes in the middle: caught by inflate or the CRC.
        var damaged = original
        for i in stride(from: original.count / 2, to: original.count / 2 + 4000, by: 7) { damaged[i] ^= 0x5A }
        let damagedURL = folder.path("N42E003.hgt.zip")
        try damaged.write(to: damagedURL)
        let damagedError = try #require(elevationError { _ = try HGTTile(contentsOf: damagedURL) })
        #expect(damagedError.source == damagedURL.path)
        #expect(damagedError.message.contains("N42E001.hgt"))

        let noHGT = folder.path("N42E004.hgt.zip")
        _ = try runTool("python3", ["-c", "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1],'w'); z.writestr('readme.txt','no tile'); z.close()", noHGT.path])
        let noHGTError = try #require(elevationError { _ = try HGTTile(contentsOf: noHGT) })
        #expect(noHGTError.source == noHGT.path)
        #expect(noHGTError.message.contains("no .hgt"))
        #expect(noHGTError.message.contains("readme.txt"))

        let badName = folder.path("andorra.hgt")
        try Data(count: 1201 * 1201 * 2).write(to: badName)
        let nameError = try #require(elevationError { _ = try HGTTile(contentsOf: badName) })
        #expect(nameError.source == badName.path)
        #expect(nameError.message.contains("N42E001"))
    }

    @Test("tile names give corners in every hemisphere and are refused otherwise")
    func names() throws {
        #expect(try HGTTile.corner(ofFileNamed: "S12W077.hgt") == (-12, -77))
        #expect(try HGTTile.corner(ofFileNamed: "n42e001.hgt.zip") == (42, 1))
        #expect(HGTTile.name(south: -12, west: -77) == "S12W077")
        #expect(HGTTile.name(south: 0, west: 179) == "N00E179")
        for bad in ["N4E001.hgt", "X42E001.hgt", "N42E1.hgt", "N95E001.hgt", "N42E181.hgt", ""] {
            #expect(throws: ElevationError.self, "\(bad)") { try HGTTile.corner(ofFileNamed: bad) }
        }
    }
}

/// The Andorra tile's samples in rows `rows` and columns `columns`, as Doubles (voids as −32768).
private func window(of tile: HGTTile, rows: Range<Int>, columns: Range<Int>) -> [Double] {
    rows.flatMap { r in columns.map { c in Double(tile.sample(row: r, column: c)) } }
}

@Suite("GeoTIFF DEMs")
struct GeoTIFFTests {
    /// A 200 × 200 window of the Andorra tile, rows 500–699 and columns 800–999.
    let rows = 500..<700, columns = 800..<1000

    /// Random points well inside the window, the same on every run.
    func points(_ count: Int) -> [Coordinate] {
        var generator = SeededGenerator(seed: 7)
        return (0..<count).map { _ in
            at(43 - Double.random(in: 501...698, using: &generator) / 1200,
               1 + Double.random(in: 801...998, using: &generator) / 1200)
        }
    }

    @Test("a Float32 PixelIsPoint raster in strips reads back as the tile's own surface")
    func float32Strips() throws {
        let tile = try andorraTile()
        let folder = try TemporaryFolder()
        let url = folder.path("andorra.tif")
        // PixelIsPoint: the tiepoint is the centre of sample (500, 800).
        try GeoTIFFWriter.write(window(of: tile, rows: rows, columns: columns), width: 200, height: 200, to: url,
                                tiepoint: (1 + 800.0 / 1200, 43 - 500.0 / 1200), pixelSize: (1.0 / 1200, 1.0 / 1200),
                                pixelIsArea: false, sampleType: .float32, layout: .strips(rowsPerStrip: 7), noData: -32768)
        let dem = try GeoTIFFDEM(contentsOf: url)
        #expect(dem.width == 200 && dem.height == 200 && !dem.pixelIsArea)
        #expect(dem.values[0] == Float(tile.sample(row: 500, column: 800)))
        var voids = 0
        for p in points(2000) {
            let expected = tile.height(at: p), got = dem.height(at: p)
            if expected == nil { voids += 1 }
            #expect((got == nil) == (expected == nil), "\(p)")
            #expect(abs((got ?? 0) - (expected ?? 0)) < 1e-6, "\(p)")
        }
        #expect(voids > 0 && voids < 200)   // the window holds real voids, and they stay voids
        // PixelIsPoint reaches exactly to the outer sample centres.
        #expect(abs(try #require(dem.height(at: at(43 - 500.0 / 1200, 1 + 900.0 / 1200))) - Double(tile.sample(row: 500, column: 900))) < 1e-6)
        #expect(dem.height(at: at(43 - 499.9 / 1200, 1 + 900.0 / 1200)) == nil)
        #expect(dem.height(at: at(43 - 600.0 / 1200, 1 + 1000.0 / 1200)) == nil)
    }

    @Test("an Int16 PixelIsArea raster in tiles is placed half a cell differently and reads the same")
    func int16Tiles() throws {
        let tile = try andorraTile()
        let folder = try TemporaryFolder()
        let url = folder.path("andorra-tiled.tif")
        // PixelIsArea: the tiepoint is the north-west corner of cell (500, 800), half a cell from its centre.
        try GeoTIFFWriter.write(window(of: tile, rows: rows, columns: columns), width: 200, height: 200, to: url,
                                tiepoint: (1 + 799.5 / 1200, 43 - 499.5 / 1200), pixelSize: (1.0 / 1200, 1.0 / 1200),
                                pixelIsArea: true, sampleType: .int16, layout: .tiles(size: 32), noData: -32768)
        let dem = try GeoTIFFDEM(contentsOf: url)
        #expect(dem.pixelIsArea)
        #expect(abs(dem.firstLongitude - (1 + 800.0 / 1200)) < 1e-12)
        var voids = 0
        for p in points(2000) {
            let expected = tile.height(at: p), got = dem.height(at: p)
            if expected == nil { voids += 1 }
            #expect((got == nil) == (expected == nil), "\(p)")
            #expect(abs((got ?? 0) - (expected ?? 0)) < 1e-6, "\(p)")
        }
        #expect(voids > 0 && voids < 200)   // the window holds real voids, and they stay voids
        // PixelIsArea reaches half a cell beyond the outer centres, holding the edge value there.
        #expect(abs(try #require(dem.height(at: at(43 - 499.7 / 1200, 1 + 900.0 / 1200))) - Double(tile.sample(row: 500, column: 900))) < 1e-6)
        #expect(dem.height(at: at(43 - 499.4 / 1200, 1 + 900.0 / 1200)) == nil)
    }

    @Test("GDAL_NODATA marks voids in UInt16 and Int32 rasters")
    func noData() throws {
        let folder = try TemporaryFolder()
        for (type, void) in [(TIFFSampleKind.uint16, 65535.0), (.int32, -9999.0), (.float32, -3.4e38)] {
            let url = folder.path("nodata-\(type).tif")
            // 3 × 3 cells of 1°, PixelIsPoint from (10 E, 50 N); the centre sample is void.
            try GeoTIFFWriter.write([100, 200, 300, 400, void, 600, 700, 800, 900], width: 3, height: 3, to: url,
                                    tiepoint: (10, 50), pixelSize: (1, 1), pixelIsArea: false, sampleType: type, noData: void)
            let dem = try GeoTIFFDEM(contentsOf: url)
            #expect(dem.height(at: at(49.5, 10.5)) == nil, "\(type)")   // the void carries weight
            #expect(dem.height(at: at(50, 10.5)) == 150, "\(type)")     // on the north row: the void has none
            #expect(dem.height(at: at(48, 12)) == 900, "\(type)")
        }
    }

    @Test("a projected raster is refused with its EPSG code and the gdalwarp line")
    func projectedRefused() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("utm31.tif")
        try GeoTIFFWriter.write([1, 2, 3, 4], width: 2, height: 2, to: url, epsg: 32631,
                                tiepoint: (400_000, 4_710_000), pixelSize: (30, 30))
        let error = try #require(elevationError { _ = try GeoTIFFDEM(contentsOf: url) })
        #expect(error.source == url.path)
        #expect(error.message.contains("EPSG:32631"))
        #expect(error.message.contains("gdalwarp -t_srs EPSG:4326 in.tif out.tif"))
        #expect(throws: ElevationError.self) { try DEMSource(contentsOf: url) }
    }

    @Test("a file that is not a TIFF is an error naming it")
    func notATIFF() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("dem.tif")
        try Data("not a tiff".utf8).write(to: url)
        let error = try #require(elevationError { _ = try GeoTIFFDEM(contentsOf: url) })
        #expect(error.source == url.path)
        #expect(error.message.contains("TIFF"))
    }
}

@Suite("Tile folders and DEMSource")
struct TileFolderTests {
    @Test("two tiles in two layouts, their shared edge, a point outside, and a bad tile read only when reached")
    func twoTiles() async throws {
        let tile = try andorraTile()
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(at: andorraTileURL(), to: folder.path("N42E001.hgt.zip"))
        // N42E002 in Valhalla's layout: its west column repeats N42E001's east column, the rest is 1500 m.
        var east = [Int16](repeating: 1500, count: 1201 * 1201)
        for r in 0..<1201 { east[r * 1201] = tile.sample(row: r, column: 1200) }
        try FileManager.default.createDirectory(at: folder.path("N42"), withIntermediateDirectories: true)
        try HGTTile(south: 42, west: 2, size: 1201, samples: east, source: "east").write(to: folder.path("N42/N42E002.hgt"))
        // A broken tile far away must not matter until a point reaches it.
        try Data(count: 10).write(to: folder.path("N44E001.hgt"))
        try Data("unrelated".utf8).write(to: folder.path("README.txt"))

        let source = try DEMSource(contentsOf: folder.url)
        #expect(source.name.contains("SRTM tiles"))
        let points = [at(42.5405, 1.7197), at(42.5, 2.5), at(42.5, 2.0), at(41.5, 1.5), at(43, 1)]
        let heights = try await source.elevations(at: points)
        #expect(abs(try #require(heights[0]) - 2411.344) < 1e-6)
        #expect(heights[1] == 1500)
        #expect(heights[2] == tile.height(at: at(42.5, 2.0)))
        #expect(heights[3] == nil)
        #expect(heights[4] == 838)

        let error = try #require(elevationError { _ = try source.heights(at: [at(44.5, 1.5)]) })
        #expect(error.source.hasSuffix("N44E001.hgt"))
        #expect(error.message.contains("10 bytes"))
    }

    @Test("a tile found only on the far side of a shared edge still answers there")
    func edgeFromNeighbour() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(at: andorraTileURL(), to: folder.path("N42E001.hgt.zip"))
        let tiles = try TileFolder(contentsOf: folder.url)
        // lat 43 and lon 2 fall in N43E002 by floor, which is missing; N42E001 has its NE corner there.
        #expect(try tiles.heights(at: [at(43, 2)]) == [360])
    }

    @Test("DEMSource reads one tile, one GeoTIFF, and refuses the unknown")
    func singleFiles() async throws {
        let zipped = try DEMSource(contentsOf: andorraTileURL())
        #expect(zipped.name == "SRTM3 tile N42E001.hgt.zip")
        let heights = try await zipped.elevations(at: [at(42.5075, 1.5218), at(10, 10)])
        #expect(heights[1] == nil)
        #expect(abs(try #require(heights[0]) - 1036) < 1e-6)

        let folder = try TemporaryFolder()
        let tif = folder.path("square.tif")
        try GeoTIFFWriter.write([10, 20, 30, 40], width: 2, height: 2, to: tif, tiepoint: (5, 46), pixelSize: (1, 1),
                                pixelIsArea: false)
        let dem = try DEMSource(contentsOf: tif)
        #expect(dem.name == "GeoTIFF square.tif")
        #expect(try await dem.elevations(at: [at(45.5, 5.5)]) == [25])

        let other = folder.path("heights.csv")
        try Data("1,2".utf8).write(to: other)
        let error = try #require(elevationError { _ = try DEMSource(contentsOf: other) })
        #expect(error.source == other.path)
        let empty = folder.path("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let emptyError = try #require(elevationError { _ = try DEMSource(contentsOf: empty) })
        #expect(emptyError.message.contains("N42E001.hgt"))
    }
}

