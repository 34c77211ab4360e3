import CTiff
import Foundation
import Geo

/// A digital elevation model read from a GeoTIFF in geographic WGS84 coordinates (EPSG:4326).
///
/// Read through libtiff, with the georeferencing from the GeoTIFF tags (GeoTIFF Format
/// Specification 1.0, Ritter & Ruth 1995; OGC GeoTIFF 1.1, 2019): ModelPixelScaleTag (33550),
/// ModelTiepointTag (33922) and GeoKeyDirectoryTag (34735), with GTModelTypeGeoKey (1024),
/// GTRasterTypeGeoKey (1025), GeographicTypeGeoKey (2048) and ProjectedCSTypeGeoKey (3072).
/// GDAL's nodata tag (42113, an ASCII number) marks voids; so does NaN in a float raster.
///
/// One band of Int16, UInt16, Int32 or Float32 samples, in strips or tiles, with any compression
/// libtiff decodes. Heights are held as `[Float]` (4 bytes a sample; exact for every integer
/// format up to ±16,777,216 m), NaN for a void: the nodata value, NaN, and any height outside
/// `PlausibleHeight` (sentinels such as ±3.4e38).
///
/// Sizes are checked before anything is allocated (as GDAL checks a raster against its file): at
/// most `maximumSamples` samples; an uncompressed raster must fit in the file, a compressed one in
/// `maximumCompressionRatio` times the file; a tile or strip buffer at most `maximumBufferBytes`.
///
/// A raster in a projected CRS (UTM and the like) is refused rather than reprojected here:
/// `gdalwarp -t_srs EPSG:4326 in.tif out.tif` does that once, better, with GDAL's resampling.
public struct GeoTIFFDEM: Sendable {
    /// Columns of the raster.
    public let width: Int
    /// Rows of the raster.
    public let height: Int
    /// Longitude of the centre of column 0, degrees.
    public let firstLongitude: Degrees
    /// Latitude of the centre of row 0 (the northernmost row), degrees.
    public let firstLatitude: Degrees
    /// Degrees of longitude between neighbouring columns.
    public let columnSpacing: Degrees
    /// Degrees of latitude between neighbouring rows (positive; rows run south).
    public let rowSpacing: Degrees
    /// True when each sample stands for a cell (GeoTIFF PixelIsArea, the default), false when it
    /// is a point measurement (PixelIsPoint). It decides how far the raster reaches: half a cell
    /// beyond the outer sample centres for PixelIsArea, exactly to them for PixelIsPoint.
    public let pixelIsArea: Bool
    /// `width × height` heights in metres, north row first, NaN for a void.
    public let values: [Float]
    /// The file read, for messages.
    public let source: String

    /// Most samples a raster may declare: 16384 × 16384 (1 GiB of heights in memory), a 4.5° square
    /// at one arc-second; a larger DEM is cut to the route's area first.
    public static let maximumSamples = 16384 * 16384
    /// A compressed raster may declare at most this many times the file's size in bytes: above what
    /// Deflate (1032:1) and LZW (about 1400:1) can reach, so a 345 KB file cannot claim 20 GB.
    public static let maximumCompressionRatio = 4096
    /// Largest tile or strip buffer, in bytes: a 4096 × 4096 tile of 32-bit samples.
    public static let maximumBufferBytes = 64 * 1024 * 1024

    /// Reads a GeoTIFF DEM.
    ///
    /// Cost: the whole raster is decoded once into memory (4 bytes a sample).
    /// - Throws: `ElevationError` naming the file when libtiff cannot read it, it has no GeoTIFF
    ///   georeferencing, it is in a projected or non-WGS84 CRS (the message says how to
    ///   reproject), or its samples are not one band of Int16, UInt16, Int32 or Float32.
    public init(contentsOf url: URL) throws {
        let path = url.path
        let tiff = try TIFFFile(path: path, mode: "r")

        // Georeferencing first: a refused CRS is the more useful message.
        guard let keyDirectory: [UInt16] = try tiff.array(GeoTag.geoKeyDirectory, TIFF_SHORT) else {
            throw ElevationError(source: path, message: "no GeoKeyDirectoryTag (34735): the file is a plain TIFF, not a GeoTIFF; a DEM needs its georeferencing")
        }
        let keys = try GeoKeys(directory: keyDirectory, path: path)
        try keys.requireWGS84Geographic(path: path)
        guard let scale: [Double] = try tiff.array(GeoTag.modelPixelScale, TIFF_DOUBLE), scale.count >= 2,
              let tiepoints: [Double] = try tiff.array(GeoTag.modelTiepoint, TIFF_DOUBLE), tiepoints.count >= 6
        else {
            let transformed = (try? tiff.array(GeoTag.modelTransformation, TIFF_DOUBLE) as [Double]?) != nil
            throw ElevationError(source: path, message: transformed
                ? "georeferenced by ModelTransformationTag (a rotated or sheared raster); warp it to a north-up grid: gdalwarp -t_srs EPSG:4326 in.tif out.tif"
                : "needs ModelPixelScaleTag (33550) and ModelTiepointTag (33922) to place its samples")
        }
        guard scale[0] > 0, scale[1] > 0, scale[0].isFinite, scale[1].isFinite else {
            throw ElevationError(source: path, message: "ModelPixelScaleTag gives a pixel size of \(scale[0]) × \(scale[1]) degrees; both must be positive")
        }

        width = Int(try tiff.required(TIFFTAG_IMAGEWIDTH, as: UInt32.self))
        height = Int(try tiff.required(TIFFTAG_IMAGELENGTH, as: UInt32.self))
        guard width >= 2, height >= 2 else {
            throw ElevationError(source: path, message: "a \(width) × \(height) raster is too small to interpolate; a DEM needs at least 2 × 2 samples")
        }
        try tiff.checkRasterSize(width: width, height: height)
        pixelIsArea = keys.values[GeoKey.rasterType] != RasterType.pixelIsPoint
        columnSpacing = scale[0]
        rowSpacing = scale[1]
        // The tiepoint ties raster (I, J) to model (X, Y): the corner of that pixel for PixelIsArea,
        // its centre for PixelIsPoint (GeoTIFF 1.0 §2.5.2.2).
        let (i, j, x, y) = (tiepoints[0], tiepoints[1], tiepoints[3], tiepoints[4])
        let half = pixelIsArea ? 0.5 : 0
        firstLongitude = x - (i - half) * scale[0]
        firstLatitude = y + (j - half) * scale[1]
        // The raster must lie on the Earth in degrees: a tie point at NaN or infinity, or a pixel
        // size that puts the raster's far edge past the poles or round the globe, is a broken file.
        let lastLatitude = firstLatitude - Double(height - 1) * scale[1]
        let lastLongitude = firstLongitude + Double(width - 1) * scale[0]
        guard [i, j, x, y].allSatisfy(\.isFinite),
              (-90.5...90.5).contains(firstLatitude), (-90.5...90.5).contains(lastLatitude),
              (-540...540).contains(firstLongitude), (-540...540).contains(lastLongitude) else {
            throw ElevationError(source: path, message: "ModelTiepointTag and ModelPixelScaleTag place the raster at "
                                 + "latitudes \(firstLatitude)…\(lastLatitude) and longitudes \(firstLongitude)…\(lastLongitude), "
                                 + "off the Earth; the file's georeferencing is broken")
        }
        source = path
        values = try tiff.readSingleBandAsFloat(width: width, height: height)
    }

    /// Longitude of the raster's western edge, degrees.
    public var west: Degrees { firstLongitude - (pixelIsArea ? columnSpacing / 2 : 0) }
    /// Longitude of the raster's eastern edge, degrees.
    public var east: Degrees { firstLongitude + (Double(width - 1) + (pixelIsArea ? 0.5 : 0)) * columnSpacing }
    /// Latitude of the raster's northern edge, degrees.
    public var north: Degrees { firstLatitude + (pixelIsArea ? rowSpacing / 2 : 0) }
    /// Latitude of the raster's southern edge, degrees.
    public var south: Degrees { firstLatitude - (Double(height - 1) + (pixelIsArea ? 0.5 : 0)) * rowSpacing }

    /// Height in metres at `coordinate`, by bilinear interpolation of the four sample centres
    /// around it (the same surface as `HGTTile.height(at:)`).
    ///
    /// For PixelIsArea the outer half cell beyond the outermost centres takes the edge values
    /// (the interpolation is clamped to the outer centres). A void with weight in the
    /// interpolation gives nil, so no height is invented where the survey had none.
    ///
    /// Cost: O(1), four array reads, no allocation.
    /// - Returns: nil outside the raster or next to a void.
    public func height(at coordinate: Coordinate) -> Metres? {
        let lat = coordinate.latitude, lon = coordinate.longitude
        guard lat >= south, lat <= north, lon >= west, lon <= east else { return nil }
        let x = min(max((lon - firstLongitude) / columnSpacing, 0), Double(width - 1))
        let y = min(max((firstLatitude - lat) / rowSpacing, 0), Double(height - 1))
        return gridHeight(values, width: width, height: height, x: x, y: y) { Double($0) }
    }
}

/// The GeoTIFF tags, by number (GeoTIFF 1.0 §2.4).
package enum GeoTag {
    package static let modelPixelScale: UInt32 = 33550
    package static let modelTiepoint: UInt32 = 33922
    package static let modelTransformation: UInt32 = 34264
    package static let geoKeyDirectory: UInt32 = 34735
}

/// The GeoKeys read (GeoTIFF 1.0 §6.2).
package enum GeoKey {
    package static let modelType: UInt16 = 1024
    package static let rasterType: UInt16 = 1025
    package static let geographicType: UInt16 = 2048
    package static let projectedCSType: UInt16 = 3072
}

/// Values of GTModelTypeGeoKey and GTRasterTypeGeoKey, and the "user-defined" code.
package enum RasterType {
    package static let pixelIsPoint: UInt16 = 2
}
private let modelTypeProjected: UInt16 = 1
private let modelTypeGeographic: UInt16 = 2
private let userDefined: UInt16 = 32767
private let wgs84: UInt16 = 4326

/// The GeoKeys of a GeoKeyDirectoryTag whose values sit in the directory itself (location 0).
struct GeoKeys {
    var values: [UInt16: UInt16] = [:]

    init(directory: [UInt16], path: String) throws {
        guard directory.count >= 4, directory[0] == 1 else {
            throw ElevationError(source: path, message: "the GeoKeyDirectoryTag is malformed (it must start with version 1 and hold 4 values per key)")
        }
        let count = Int(directory[3])
        guard directory.count >= 4 + 4 * count else {
            throw ElevationError(source: path, message: "the GeoKeyDirectoryTag announces \(count) keys but holds \((directory.count - 4) / 4)")
        }
        for k in 0..<count {
            let entry = directory[(4 + 4 * k)..<(8 + 4 * k)]
            let (id, location, value) = (entry[entry.startIndex], entry[entry.startIndex + 1], entry[entry.startIndex + 3])
            // Keys stored elsewhere (doubles, text) are not among the ones read here.
            if location == 0 { values[id] = value }
        }
    }

    /// Refuses every CRS but geographic WGS84, saying how to reproject.
    func requireWGS84Geographic(path: String) throws {
        let reproject = "reproject it to geographic WGS84 first: gdalwarp -t_srs EPSG:4326 in.tif out.tif"
        if let projected = values[GeoKey.projectedCSType] {
            let name = projected == userDefined ? "a user-defined projected CRS" : "the projected CRS EPSG:\(projected)"
            throw ElevationError(source: path, message: "the DEM is in \(name), not in longitude and latitude; \(reproject)")
        }
        switch values[GeoKey.modelType] {
        case modelTypeProjected:
            throw ElevationError(source: path, message: "the DEM is in a projected CRS (GTModelTypeGeoKey 1), not in longitude and latitude; \(reproject)")
        case modelTypeGeographic, nil:
            break
        case let other?:
            throw ElevationError(source: path, message: "GTModelTypeGeoKey \(other) is not a geographic model; \(reproject)")
        }
        switch values[GeoKey.geographicType] {
        case wgs84?: return
        case userDefined?, nil:
            guard values[GeoKey.modelType] == modelTypeGeographic else {
                throw ElevationError(source: path, message: "the GeoKeys name no CRS; \(reproject)")
            }
        case let other?:
            throw ElevationError(source: path, message: "the DEM is in the geographic CRS EPSG:\(other), not WGS84 (EPSG:4326); \(reproject)")
        }
    }
}

/// Messages libtiff reports for one open file, collected instead of printed.
final class TIFFMessageLog: @unchecked Sendable {
    var errors: [String] = []
}

/// libtiff's per-file error and warning handler: formats the message into the file's log.
/// Warnings are dropped: the unregistered GeoTIFF tags each raise one ("unknown field").
private func collectTIFFError(_: OpaquePointer?, _ userData: UnsafeMutableRawPointer?, _ module: UnsafePointer<CChar>?,
                              _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?) -> Int32 {
    guard let userData, let format, let arguments else { return 1 }
    var buffer = [CChar](repeating: 0, count: 1024)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    let log = Unmanaged<TIFFMessageLog>.fromOpaque(userData).takeUnretainedValue()
    log.errors.append(buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    return 1
}

private func ignoreTIFFWarning(_: OpaquePointer?, _: UnsafeMutableRawPointer?, _: UnsafePointer<CChar>?,
                               _: UnsafePointer<CChar>?, _: CVaListPointer?) -> Int32 { 1 }

/// A TIFF file opened through libtiff; owns the `TIFF*` and closes it in `deinit`. Errors from
/// libtiff are collected per file and end up in the `ElevationError` that names the file.
package final class TIFFFile {
    package let handle: OpaquePointer
    let path: String
    private let log: TIFFMessageLog
    private var closed = false

    /// Opens `path` with libtiff mode `"r"` or `"w"`.
    package init(path: String, mode: String) throws {
        self.path = path
        let log = TIFFMessageLog()
        self.log = log
        guard let options = TIFFOpenOptionsAlloc() else {
            throw ElevationError(source: path, message: "libtiff cannot allocate its open options")
        }
        defer { TIFFOpenOptionsFree(options) }
        let userData = Unmanaged.passUnretained(log).toOpaque()
        TIFFOpenOptionsSetErrorHandlerExtR(options, collectTIFFError, userData)
        TIFFOpenOptionsSetWarningHandlerExtR(options, ignoreTIFFWarning, nil)
        guard let handle = TIFFOpenExt(path, mode, options) else {
            let reason = log.errors.last ?? "libtiff cannot open it"
            throw ElevationError(source: path, message: mode == "r" ? "cannot read as a TIFF: \(reason)" : "cannot create: \(reason)")
        }
        self.handle = handle
    }

    deinit { if !closed { TIFFClose(handle) } }

    /// An error naming the file, `what` failed, and libtiff's last message.
    package func failure(_ what: String) -> ElevationError {
        ElevationError(source: path, message: log.errors.last.map { "\(what): \($0)" } ?? what)
    }

    /// A required scalar tag, as `T`: `UInt32` for a 32-bit tag, `UInt16` for a 16-bit one.
    func required<T: FixedWidthInteger>(_ tag: Int32, as _: T.Type) throws -> T {
        try scalar(UInt32(tag), defaulted: false)
    }

    /// A scalar tag as `T` (see `required`), or its TIFF default when the file lacks it.
    func defaulted<T: FixedWidthInteger>(_ tag: Int32, as _: T.Type) throws -> T {
        try scalar(UInt32(tag), defaulted: true)
    }

    /// The one reading of a scalar tag through libtiff's varargs getter.
    private func scalar<T: FixedWidthInteger>(_ tag: UInt32, defaulted: Bool) throws -> T {
        var value: T = 0
        let ok = withUnsafeMutablePointer(to: &value) { p in
            withVaList([p]) { defaulted ? TIFFVGetFieldDefaulted(handle, tag, $0) : TIFFVGetField(handle, tag, $0) }
        }
        guard ok == 1 else { throw failure(defaulted ? "cannot read tag \(tag)" : "the required tag \(tag) is missing") }
        return value
    }

    /// The values of an array tag of libtiff type `type`, or nil when the file lacks it.
    /// - Throws: when the tag is there with another type.
    func array<T>(_ tag: UInt32, _ type: TIFFDataType) throws -> [T]? {
        guard let field = TIFFFindField(handle, tag, TIFF_NOTYPE) else { return nil }
        guard TIFFFieldDataType(field) == type else {
            throw ElevationError(source: path, message: "tag \(tag) has TIFF type \(TIFFFieldDataType(field).rawValue), not \(type.rawValue)")
        }
        var data: UnsafeMutableRawPointer? = nil
        var count = 0
        let ok: Int32
        if TIFFFieldPassCount(field) == 0 {
            ok = withUnsafeMutablePointer(to: &data) { d in withVaList([d]) { TIFFVGetField(handle, tag, $0) } }
            count = 1
        } else if TIFFFieldReadCount(field) == TIFF_VARIABLE2 {
            var n: UInt32 = 0
            ok = withUnsafeMutablePointer(to: &n) { c in
                withUnsafeMutablePointer(to: &data) { d in withVaList([c, d]) { TIFFVGetField(handle, tag, $0) } }
            }
            count = Int(n)
        } else {
            var n: UInt16 = 0
            ok = withUnsafeMutablePointer(to: &n) { c in
                withUnsafeMutablePointer(to: &data) { d in withVaList([c, d]) { TIFFVGetField(handle, tag, $0) } }
            }
            count = Int(n)
        }
        guard ok == 1, let data else { return nil }
        return Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: T.self), count: count))
    }

    /// GDAL's nodata value (tag 42113, ASCII), if present and a number.
    func gdalNoData() throws -> Double? {
        guard let field = TIFFFindField(handle, UInt32(TIFFTAG_GDAL_NODATA), TIFF_NOTYPE) else { return nil }
        var text: UnsafeMutablePointer<CChar>? = nil
        var ok: Int32
        if TIFFFieldPassCount(field) == 0 {
            ok = withUnsafeMutablePointer(to: &text) { t in withVaList([t]) { TIFFVGetField(handle, UInt32(TIFFTAG_GDAL_NODATA), $0) } }
        } else {
            var n: UInt32 = 0
            ok = withUnsafeMutablePointer(to: &n) { c in
                withUnsafeMutablePointer(to: &text) { t in withVaList([c, t]) { TIFFVGetField(handle, UInt32(TIFFTAG_GDAL_NODATA), $0) } }
            }
        }
        guard ok == 1, let text else { return nil }
        let string = String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
        guard let value = Double(string) else {
            throw ElevationError(source: path, message: "GDAL_NODATA (42113) is \"\(string)\", not a number")
        }
        return value
    }

    /// Refuses a raster whose declared size is over `GeoTIFFDEM.maximumSamples`, or more than the
    /// file can hold: the raster's bytes uncompressed, or `GeoTIFFDEM.maximumCompressionRatio` times
    /// the file's size when compressed. Called before anything is allocated.
    func checkRasterSize(width: Int, height: Int) throws {
        let samples = width.multipliedReportingOverflow(by: height)
        guard !samples.overflow, samples.partialValue <= GeoTIFFDEM.maximumSamples else {
            throw ElevationError(source: path, message: "ImageWidth × ImageLength is \(width) × \(height) samples, over the limit of \(GeoTIFFDEM.maximumSamples); cut the DEM to the route's area (gdal_translate -projwin)")
        }
        let bits = Int(try defaulted(TIFFTAG_BITSPERSAMPLE, as: UInt16.self))
        let compression = try defaulted(TIFFTAG_COMPRESSION, as: UInt16.self)
        let rasterBytes = samples.partialValue * max(bits / 8, 1)
        var status = stat()
        guard stat(path, &status) == 0 else { throw failure("cannot read the file's size") }
        let fileBytes = Int(status.st_size)
        let holdable = Int32(compression) == COMPRESSION_NONE ? fileBytes : fileBytes.multipliedReportingOverflow(by: GeoTIFFDEM.maximumCompressionRatio).partialValue
        guard rasterBytes <= holdable else {
            throw ElevationError(source: path, message: "ImageWidth × ImageLength is \(width) × \(height) samples (\(rasterBytes) bytes) but the file has \(fileBytes) bytes\(Int32(compression) == COMPRESSION_NONE ? " and is not compressed" : ", more than any compression holds"); the file is truncated or corrupt")
        }
    }

    /// Decodes the one band of the current directory into floats, north row first, NaN for the
    /// nodata value and for NaN samples.
    func readSingleBandAsFloat(width: Int, height: Int) throws -> [Float] {
        let samplesPerPixel = try defaulted(TIFFTAG_SAMPLESPERPIXEL, as: UInt16.self)
        guard samplesPerPixel == 1 else {
            throw ElevationError(source: path, message: "has \(samplesPerPixel) bands; a DEM has one (take it with gdal_translate -b 1 in.tif out.tif)")
        }
        let bits = try defaulted(TIFFTAG_BITSPERSAMPLE, as: UInt16.self)
        let format = try defaulted(TIFFTAG_SAMPLEFORMAT, as: UInt16.self)
        guard let kind = TIFFSampleKind.allCases.first(where: { $0.bitsPerSample == bits && $0.sampleFormat == format }) else {
            throw ElevationError(source: path, message: "has \(bits)-bit samples of SampleFormat \(format); a DEM here must be Int16, UInt16, Int32 or Float32 (gdal_translate -ot Float32 in.tif out.tif)")
        }
        let noData = try gdalNoData()
        let count = width * height
        var failure: ElevationError? = nil
        let values = [Float](unsafeUninitializedCapacity: count) { out, initialized in
            do {
                if TIFFIsTiled(handle) != 0 {
                    let tileWidth = Int(try required(TIFFTAG_TILEWIDTH, as: UInt32.self))
                    let tileHeight = Int(try required(TIFFTAG_TILELENGTH, as: UInt32.self))
                    guard tileWidth > 0, tileHeight > 0 else {
                        throw ElevationError(source: path, message: "TileWidth × TileLength is \(tileWidth) × \(tileHeight); both must be positive")
                    }
                    let tileBytes = Int(TIFFTileSize(handle))
                    guard tileBytes > 0, tileBytes <= GeoTIFFDEM.maximumBufferBytes else {
                        throw ElevationError(source: path, message: "TileWidth × TileLength is \(tileWidth) × \(tileHeight) (\(tileBytes) bytes a tile), over the limit of \(GeoTIFFDEM.maximumBufferBytes) bytes; retile it (gdal_translate -co TILED=YES)")
                    }
                    guard tileBytes >= tileWidth * tileHeight * kind.bytes else { throw self.failure("tiles are smaller than their size says") }
                    let buffer = UnsafeMutableRawPointer.allocate(byteCount: tileBytes, alignment: 8)
                    defer { buffer.deallocate() }
                    for top in stride(from: 0, to: height, by: tileHeight) {
                        for left in stride(from: 0, to: width, by: tileWidth) {
                            let tile = TIFFComputeTile(handle, UInt32(left), UInt32(top), 0, 0)
                            guard TIFFReadEncodedTile(handle, tile, buffer, -1) >= 0 else { throw self.failure("cannot read tile \(tile)") }
                            for r in 0..<min(tileHeight, height - top) {
                                kind.convert(buffer + r * tileWidth * kind.bytes, count: min(tileWidth, width - left),
                                             into: out.baseAddress! + (top + r) * width + left, noData: noData)
                            }
                        }
                    }
                } else {
                    var rowsPerStrip = Int(try defaulted(TIFFTAG_ROWSPERSTRIP, as: UInt32.self))
                    rowsPerStrip = min(max(rowsPerStrip, 1), height)
                    let stripBytes = Int(TIFFStripSize(handle))
                    guard stripBytes > 0, stripBytes <= max(GeoTIFFDEM.maximumBufferBytes, count * kind.bytes) else {
                        throw ElevationError(source: path, message: "a strip of \(rowsPerStrip) rows is \(stripBytes) bytes, over the limit of \(GeoTIFFDEM.maximumBufferBytes) bytes; the file is corrupt")
                    }
                    guard stripBytes >= rowsPerStrip * width * kind.bytes else { throw self.failure("strips are smaller than their size says") }
                    let buffer = UnsafeMutableRawPointer.allocate(byteCount: stripBytes, alignment: 8)
                    defer { buffer.deallocate() }
                    for (strip, top) in stride(from: 0, to: height, by: rowsPerStrip).enumerated() {
                        guard TIFFReadEncodedStrip(handle, UInt32(strip), buffer, -1) >= 0 else { throw self.failure("cannot read strip \(strip)") }
                        let rows = min(rowsPerStrip, height - top)
                        kind.convert(buffer, count: rows * width, into: out.baseAddress! + top * width, noData: noData)
                    }
                }
                initialized = count
            } catch let error as ElevationError {
                failure = error
                initialized = 0
            } catch {
                failure = ElevationError(source: path, message: "\(error)")
                initialized = 0
            }
        }
        if let failure { throw failure }
        return values
    }

    /// Writes the directory and closes the file, checking that libtiff flushed it.
    package func finishWriting() throws {
        guard TIFFFlush(handle) == 1 else { throw failure("cannot finish writing") }
        closed = true
        TIFFClose(handle)
    }
}

/// The sample formats of a DEM band, their TIFF tags, and their conversion to Float with voids
/// as NaN. The one table of them: `GeoTIFFDEM` reads these, the tests' GeoTIFF writer writes them.
package enum TIFFSampleKind: CaseIterable, Sendable {
    case int16, uint16, int32, float32

    /// Bytes a sample.
    package var bytes: Int {
        switch self {
        case .int16, .uint16: 2
        case .int32, .float32: 4
        }
    }

    /// The BitsPerSample tag (258).
    package var bitsPerSample: UInt16 { UInt16(bytes * 8) }

    /// The SampleFormat tag (339).
    package var sampleFormat: UInt16 {
        switch self {
        case .int16, .int32: UInt16(SAMPLEFORMAT_INT)
        case .uint16: UInt16(SAMPLEFORMAT_UINT)
        case .float32: UInt16(SAMPLEFORMAT_IEEEFP)
        }
    }

    /// Converts `count` native-order samples (libtiff has already swapped them); the nodata value
    /// and every sample outside `PlausibleHeight` become NaN.
    func convert(_ source: UnsafeRawPointer, count: Int, into out: UnsafeMutablePointer<Float>, noData: Double?) {
        let void = noData ?? .nan
        func integers<T: BinaryInteger>(_: T.Type) {
            for k in 0..<count {
                let v = Double(source.loadUnaligned(fromByteOffset: MemoryLayout<T>.size * k, as: T.self))
                out[k] = v == void ? .nan : Float(plausibleHeight(v))
            }
        }
        switch self {
        case .int16: integers(Int16.self)
        case .uint16: integers(UInt16.self)
        case .int32: integers(Int32.self)
        case .float32:
            // GDAL compares a float raster's nodata after rounding it to Float32, as done here.
            // Infinities, NaN and sentinels such as ±3.4e38 or ±1e30 are outside the plausible
            // heights and become voids too.
            let floatVoid = Float(void)
            for k in 0..<count {
                let v = source.loadUnaligned(fromByteOffset: 4 * k, as: Float.self)
                out[k] = v == floatVoid ? .nan : Float(plausibleHeight(Double(v)))
            }
        }
    }
}
