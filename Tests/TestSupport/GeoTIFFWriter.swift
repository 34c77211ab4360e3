import CTiff
import Foundation
import Terrain

/// Writes small GeoTIFF DEMs: for tests and fixtures, not for production rasters.
public enum GeoTIFFWriter {
    /// How the raster is laid out in the file.
    public enum Layout: Sendable {
        /// Strips of `rowsPerStrip` rows.
        case strips(rowsPerStrip: Int)
        /// Square tiles of `size` samples (a multiple of 16, as TIFF requires).
        case tiles(size: Int)
    }

    /// Writes `values` (row by row from the north, `width` a row) as a one-band GeoTIFF.
    /// - Parameters:
    ///   - epsg: 4326 writes a geographic WGS84 raster; any other code is written as a projected
    ///     CRS (ProjectedCSTypeGeoKey), with the tiepoint and pixel size in that CRS's units.
    ///   - tiepoint: model coordinates (x, y) of raster (0, 0): its corner for PixelIsArea, its
    ///     centre for PixelIsPoint.
    ///   - pixelSize: model units between columns and between rows.
    ///   - sampleType: the sample format written, one of those `GeoTIFFDEM` reads.
    ///   - noData: written as GDAL_NODATA (42113) when given.
    /// - Throws: `ElevationError` naming the file when libtiff refuses a field or a write.
    package static func write(_ values: [Double], width: Int, height: Int, to url: URL, epsg: Int = 4326,
                             tiepoint: (x: Double, y: Double), pixelSize: (x: Double, y: Double),
                             pixelIsArea: Bool = true, sampleType: TIFFSampleKind = .float32,
                             layout: Layout = .strips(rowsPerStrip: 16), noData: Double? = nil) throws {
        precondition(values.count == width * height, "\(values.count) values for a \(width) × \(height) raster")
        let path = url.path
        let tiff = try TIFFFile(path: path, mode: "w")
        try tiff.registerGeoTags()
        try tiff.set(UInt32(TIFFTAG_IMAGEWIDTH), UInt32(width))
        try tiff.set(UInt32(TIFFTAG_IMAGELENGTH), UInt32(height))
        try tiff.set(UInt32(TIFFTAG_BITSPERSAMPLE), Int32(sampleType.bitsPerSample))
        try tiff.set(UInt32(TIFFTAG_SAMPLEFORMAT), Int32(sampleType.sampleFormat))
        try tiff.set(UInt32(TIFFTAG_SAMPLESPERPIXEL), Int32(1))
        try tiff.set(UInt32(TIFFTAG_PHOTOMETRIC), Int32(PHOTOMETRIC_MINISBLACK))
        try tiff.set(UInt32(TIFFTAG_PLANARCONFIG), Int32(PLANARCONFIG_CONTIG))
        try tiff.set(UInt32(TIFFTAG_COMPRESSION), Int32(COMPRESSION_DEFLATE))
        switch layout {
        case .strips(let rows): try tiff.set(UInt32(TIFFTAG_ROWSPERSTRIP), UInt32(rows))
        case .tiles(let size):
            try tiff.set(UInt32(TIFFTAG_TILEWIDTH), UInt32(size))
            try tiff.set(UInt32(TIFFTAG_TILELENGTH), UInt32(size))
        }
        var scale = [pixelSize.x, pixelSize.y, 0]
        var tie = [0, 0, 0, tiepoint.x, tiepoint.y, 0]
        let geographic = epsg == 4326
        var keys: [UInt16] = [1, 1, 0, 3,
                              GeoKey.modelType, 0, 1, geographic ? 2 : 1,
                              GeoKey.rasterType, 0, 1, pixelIsArea ? 1 : RasterType.pixelIsPoint,
                              geographic ? GeoKey.geographicType : GeoKey.projectedCSType, 0, 1, UInt16(epsg)]
        try tiff.setArray(GeoTag.modelPixelScale, &scale)
        try tiff.setArray(GeoTag.modelTiepoint, &tie)
        try tiff.setArray(GeoTag.geoKeyDirectory, &keys)
        if let noData { try tiff.set(UInt32(TIFFTAG_GDAL_NODATA), String(noData)) }

        let bytesPerSample = sampleType.bytes
        func encode(_ value: Double, into raw: UnsafeMutableRawPointer, at k: Int) {
            switch sampleType {
            case .int16: raw.storeBytes(of: Int16(value), toByteOffset: k * 2, as: Int16.self)
            case .uint16: raw.storeBytes(of: UInt16(value), toByteOffset: k * 2, as: UInt16.self)
            case .int32: raw.storeBytes(of: Int32(value), toByteOffset: k * 4, as: Int32.self)
            case .float32: raw.storeBytes(of: Float(value), toByteOffset: k * 4, as: Float.self)
            }
        }
        switch layout {
        case .strips(let rowsPerStrip):
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: rowsPerStrip * width * bytesPerSample, alignment: 8)
            defer { buffer.deallocate() }
            for (strip, firstRow) in stride(from: 0, to: height, by: rowsPerStrip).enumerated() {
                let rows = min(rowsPerStrip, height - firstRow)
                for k in 0..<(rows * width) { encode(values[firstRow * width + k], into: buffer, at: k) }
                guard TIFFWriteEncodedStrip(tiff.handle, UInt32(strip), buffer, tmsize_t(rows * width * bytesPerSample)) >= 0 else {
                    throw tiff.failure("cannot write strip \(strip)")
                }
            }
        case .tiles(let size):
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size * size * bytesPerSample, alignment: 8)
            defer { buffer.deallocate() }
            for top in stride(from: 0, to: height, by: size) {
                for left in stride(from: 0, to: width, by: size) {
                    for r in 0..<size {
                        for c in 0..<size {
                            let row = min(top + r, height - 1), column = min(left + c, width - 1)
                            encode(values[row * width + column], into: buffer, at: r * size + c)
                        }
                    }
                    let tile = TIFFComputeTile(tiff.handle, UInt32(left), UInt32(top), 0, 0)
                    guard TIFFWriteEncodedTile(tiff.handle, tile, buffer, tmsize_t(size * size * bytesPerSample)) >= 0 else {
                        throw tiff.failure("cannot write tile \(tile)")
                    }
                }
            }
        }
        try tiff.finishWriting()
    }
}

/// The field descriptions libtiff needs before it will write the GeoTIFF tags and GDAL_NODATA (as libgeotiff
/// registers them in `xtiff.c`). Names live as long as the process, as libtiff keeps the pointers.
nonisolated(unsafe) private let geoTagNames: [UnsafeMutablePointer<CChar>] =
    [strdup("ModelPixelScaleTag")!, strdup("ModelTiepointTag")!, strdup("GeoKeyDirectoryTag")!, strdup("GDALNoDataValue")!]

extension TIFFFile {
    /// Lets libtiff write the three GeoTIFF tags and GDAL's nodata tag (it does not know them).
    func registerGeoTags() throws {
        let variable = Int16(TIFF_VARIABLE)
        var infos = [
            TIFFFieldInfo(field_tag: GeoTag.modelPixelScale, field_readcount: variable, field_writecount: variable,
                          field_type: TIFF_DOUBLE, field_bit: UInt16(FIELD_CUSTOM), field_oktochange: 1, field_passcount: 1,
                          field_name: geoTagNames[0]),
            TIFFFieldInfo(field_tag: GeoTag.modelTiepoint, field_readcount: variable, field_writecount: variable,
                          field_type: TIFF_DOUBLE, field_bit: UInt16(FIELD_CUSTOM), field_oktochange: 1, field_passcount: 1,
                          field_name: geoTagNames[1]),
            TIFFFieldInfo(field_tag: GeoTag.geoKeyDirectory, field_readcount: variable, field_writecount: variable,
                          field_type: TIFF_SHORT, field_bit: UInt16(FIELD_CUSTOM), field_oktochange: 1, field_passcount: 1,
                          field_name: geoTagNames[2]),
            TIFFFieldInfo(field_tag: UInt32(TIFFTAG_GDAL_NODATA), field_readcount: variable, field_writecount: variable,
                          field_type: TIFF_ASCII, field_bit: UInt16(FIELD_CUSTOM), field_oktochange: 1, field_passcount: 0,
                          field_name: geoTagNames[3]),
        ]
        guard TIFFMergeFieldInfo(handle, &infos, UInt32(infos.count)) == 0 else { throw failure("cannot register the GeoTIFF tags") }
    }

    /// Sets a scalar tag (UInt32 for 32-bit tags, Int32 for 16-bit ones, as C's varargs promote them).
    func set(_ tag: UInt32, _ value: some CVarArg) throws {
        guard withVaList([value], { TIFFVSetField(handle, tag, $0) }) == 1 else { throw failure("cannot set tag \(tag)") }
    }

    /// Sets an ASCII tag.
    func set(_ tag: UInt32, _ value: String) throws {
        let ok = value.withCString { text in withVaList([text], { TIFFVSetField(handle, tag, $0) }) }
        guard ok == 1 else { throw failure("cannot set tag \(tag)") }
    }

    /// Sets an array tag registered with a 16-bit count.
    func setArray<T>(_ tag: UInt32, _ values: inout [T]) throws {
        let count = Int32(values.count)
        let ok = values.withUnsafeMutableBytes { raw in
            withVaList([count, raw.baseAddress!.assumingMemoryBound(to: UInt8.self)]) { TIFFVSetField(handle, tag, $0) }
        }
        guard ok == 1 else { throw failure("cannot set tag \(tag)") }
    }
}
