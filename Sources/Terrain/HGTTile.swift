import Archive
import Foundation
import Geo

/// One SRTM tile in the `.hgt` format: a square grid of heights covering one degree of latitude
/// by one degree of longitude.
///
/// The format (NASA/USGS SRTM documentation, "SRTM Topography", 2003; the same layout is read by
/// GDAL's SRTMHGT driver and by Valhalla's `skadi`): big-endian signed 16-bit integers, metres
/// above the EGM96 geoid, rows from north to south, columns from west to east, no header. A tile
/// is named after the integer latitude and longitude of its south-west corner (`N42E001.hgt`,
/// `S12W077.hgt`). SRTM1 tiles hold 3601 × 3601 samples (one arc-second apart) and SRTM3 tiles
/// 1201 × 1201 (three arc-seconds); the file's size says which. The first and last rows and columns
/// lie exactly on the tile's edges, so they repeat the neighbouring tiles' edge samples. A sample of
/// −32768 is a void (no data: radar shadow, water).
///
/// The samples are held as `[Int16]` (2.9 MB for SRTM3, 25.9 MB for SRTM1) and a height costs four
/// array reads and no allocation.
public struct HGTTile: Sendable {
    /// The value of a void sample.
    public static let void: Int16 = -32768
    /// Samples per side of an SRTM1 tile (one arc-second spacing).
    public static let srtm1Size = 3601
    /// Samples per side of an SRTM3 tile (three arc-second spacing).
    public static let srtm3Size = 1201

    /// Integer latitude of the tile's southern edge, degrees, in [−90, 89].
    public let south: Int
    /// Integer longitude of the tile's western edge, degrees, in [−180, 179].
    public let west: Int
    /// Samples per side (3601 for SRTM1, 1201 for SRTM3; other values only for tiles built in memory).
    public let size: Int
    /// `size × size` heights in metres, row by row from north to south, each row west to east.
    public let samples: [Int16]
    /// Where the tile came from (a path, or a description for a tile built in memory).
    public let source: String

    /// A tile from samples in memory.
    /// - Parameters:
    ///   - south: latitude of the southern edge, degrees.
    ///   - west: longitude of the western edge, degrees.
    ///   - size: samples per side, at least 2.
    ///   - samples: `size × size` heights in metres, north row first; `HGTTile.void` for no data.
    ///   - source: names the tile in messages.
    /// - Throws: `ElevationError` when the sample count is not `size × size` or the size is below 2.
    public init(south: Int, west: Int, size: Int, samples: [Int16], source: String) throws {
        guard size >= 2, samples.count == size * size else {
            throw ElevationError(source: source, message: "a tile of \(size) × \(size) samples needs \(max(size, 0) * max(size, 0)) samples, not \(samples.count)")
        }
        self.south = south
        self.west = west
        self.size = size
        self.samples = samples
        self.source = source
    }

    /// Reads a tile from a `.hgt` file, or from the `.hgt` inside a `.hgt.zip`.
    ///
    /// Cost: one read of the file (2.9 MB for SRTM3, 25.9 MB for SRTM1; a zip is inflated in
    /// memory) and one byte-swapping pass.
    /// - Throws: `ElevationError` naming the file when its name does not give a corner, its size is
    ///   neither SRTM1 nor SRTM3, or the zip is corrupt or holds no `.hgt`.
    public init(contentsOf url: URL) throws {
        let (south, west) = try HGTTile.corner(ofFileNamed: url.lastPathComponent, path: url.path)
        let data: Data
        if url.lastPathComponent.lowercased().hasSuffix(".zip") {
            do {
                let archive = try ZipArchive(contentsOf: url)
                let entry = try HGTTile.entry(in: archive, south: south, west: west)
                data = try archive.contents(ofEntryAt: entry, accepting: { HGTTile.validByteCounts.contains(Int(clamping: $0)) },
                                            expected: HGTTile.validSizes)
            } catch let error as ArchiveError {
                throw ElevationError(source: error.path, message: error.message)
            }
        } else {
            // The size is checked before reading, so a huge (or sparse) file costs nothing.
            let size: Int
            do {
                let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
                guard attributes[.type] as? FileAttributeType == .typeRegular else {
                    throw ElevationError(source: url.path, message: "is not a regular file; an SRTM tile is a file of \(HGTTile.validByteCounts[1]) or \(HGTTile.validByteCounts[0]) bytes")
                }
                size = (attributes[.size] as? NSNumber)?.intValue ?? -1
            } catch let error as ElevationError {
                throw error
            } catch {
                throw ElevationError(source: url.path, message: "cannot read the tile: \(HGTTile.reason(error)); check the path and permissions")
            }
            guard HGTTile.validByteCounts.contains(size) else {
                throw ElevationError(source: url.path, message: HGTTile.notATile(size))
            }
            do { data = try Data(contentsOf: url) } catch {
                throw ElevationError(source: url.path, message: "cannot read the tile: \(HGTTile.reason(error)); check the path and permissions")
            }
        }
        try self.init(south: south, west: west, bigEndianBytes: data, source: url.path)
    }

    /// The only byte counts of an `.hgt` file: SRTM1 and SRTM3.
    static let validByteCounts = [srtm1Size, srtm3Size].map { $0 * $0 * 2 }

    /// The valid sizes in words, for messages.
    static let validSizes = "an SRTM tile has \(validByteCounts.map(String.init).joined(separator: " or ")) bytes (3601 × 3601 or 1201 × 1201 samples)"

    /// Why `count` bytes are not a tile: one message for a file on disk, in a zip or in memory.
    static func notATile(_ count: Int) -> String { "\(count) bytes is not an SRTM tile: \(validSizes)" }

    /// The `.hgt` entry of a zipped tile. One `.hgt` entry is used whatever its name (tiles are
    /// zipped under many names); of several, the one named like the tile (`N42E001.hgt`, in any
    /// folder, any case) is used, and without exactly one such the zip is refused rather than a
    /// tile guessed.
    static func entry(in archive: ZipArchive, south: Int, west: Int) throws -> Int {
        let hgt = archive.entryNames.indices.filter { archive.entryNames[$0].lowercased().hasSuffix(".hgt") }
        guard !hgt.isEmpty else {
            throw ElevationError(source: archive.path, message: "the zip holds no .hgt file (it holds: \(archive.entryNames.prefix(10).joined(separator: ", ")))")
        }
        if hgt.count == 1 { return hgt[0] }
        let wanted = (HGTTile.name(south: south, west: west) + ".hgt").lowercased()
        let named = hgt.filter { ($0 < archive.entryNames.count) && archive.entryNames[$0].split(separator: "/").last.map { $0.lowercased() == wanted } == true }
        guard named.count == 1 else {
            throw ElevationError(source: archive.path, message: "the zip holds \(hgt.count) .hgt files (\(hgt.prefix(5).map { archive.entryNames[$0] }.joined(separator: ", "))) and \(named.isEmpty ? "none" : "more than one") named \(HGTTile.name(south: south, west: west)).hgt; keep one tile per zip")
        }
        return named[0]
    }

    /// An I/O error in words, without Foundation's domain and code.
    static func reason(_ error: Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        if (error as NSError).domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32((error as NSError).code))) }
        return "the file cannot be read"
    }

    /// A tile from the bytes of a `.hgt` file.
    /// - Throws: `ElevationError` when the byte count is neither SRTM1's nor SRTM3's.
    public init(south: Int, west: Int, bigEndianBytes data: Data, source: String) throws {
        guard let size = [HGTTile.srtm1Size, HGTTile.srtm3Size].first(where: { $0 * $0 * 2 == data.count }) else {
            throw ElevationError(source: source, message: HGTTile.notATile(data.count))
        }
        let count = size * size
        let samples = [Int16](unsafeUninitializedCapacity: count) { buffer, initialized in
            data.withUnsafeBytes { raw in
                for i in 0..<count {
                    buffer[i] = Int16(bigEndian: raw.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self))
                }
            }
            initialized = count
        }
        try self.init(south: south, west: west, size: size, samples: samples, source: source)
    }

    /// The south-west corner a tile's file name gives: `N42E001.hgt` → (42, 1), `S12W077.hgt.zip`
    /// → (−12, −77). Letters may be lower case.
    /// - Parameter path: names the file in the error.
    /// - Throws: `ElevationError` when the name does not start with such a corner.
    public static func corner(ofFileNamed name: String, path: String? = nil) throws -> (south: Int, west: Int) {
        let fail = ElevationError(source: path ?? name,
                                  message: "an SRTM tile's name starts with its south-west corner, such as N42E001.hgt or S12W077.hgt.zip")
        let chars = Array(name.uppercased().utf8.prefix(7))
        guard chars.count == 7, chars[0] == UInt8(ascii: "N") || chars[0] == UInt8(ascii: "S"),
              chars[3] == UInt8(ascii: "E") || chars[3] == UInt8(ascii: "W"),
              let lat = Int(String(decoding: chars[1..<3], as: UTF8.self)),
              let lon = Int(String(decoding: chars[4..<7], as: UTF8.self)),
              chars[1..<3].allSatisfy({ $0 >= 48 && $0 <= 57 }), chars[4..<7].allSatisfy({ $0 >= 48 && $0 <= 57 })
        else { throw fail }
        let south = chars[0] == UInt8(ascii: "N") ? lat : -lat
        let west = chars[3] == UInt8(ascii: "E") ? lon : -lon
        guard (-90...89).contains(south), (-180...179).contains(west) else {
            throw ElevationError(source: path ?? name, message: "\(String(decoding: chars, as: UTF8.self)) is not a tile on Earth: the south edge must be in S90…N89 and the west edge in W180…E179")
        }
        return (south, west)
    }

    /// The name of the tile whose south-west corner is (`south`, `west`), without extension: `N42E001`.
    public static func name(south: Int, west: Int) -> String {
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(abs(v))
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return (south >= 0 ? "N" : "S") + pad(south, 2) + (west >= 0 ? "E" : "W") + pad(west, 3)
    }

    /// This tile's name without extension, such as `N42E001`.
    public var name: String { HGTTile.name(south: south, west: west) }

    /// Degrees between neighbouring samples (1/3600 for SRTM1, 1/1200 for SRTM3).
    public var spacing: Degrees { 1 / Double(size - 1) }

    /// The sample at `row` (0 = north edge) and `column` (0 = west edge), `HGTTile.void` for no data.
    @inlinable
    public func sample(row: Int, column: Int) -> Int16 { samples[row * size + column] }

    /// True when `coordinate` lies on the tile, edges included.
    public func contains(_ coordinate: Coordinate) -> Bool {
        let lat = coordinate.latitude, lon = coordinate.longitude
        return lat >= Double(south) && lat <= Double(south + 1) && lon >= Double(west) && lon <= Double(west + 1)
    }

    /// Height in metres at `coordinate`, by bilinear interpolation of the four samples around it.
    ///
    /// The grid is treated as a plane in degrees (as GDAL and Valhalla do): with
    /// `y = (north − lat) · (size − 1)` and `x = (lon − west) · (size − 1)`, the height is
    /// `bilinearHeight` of the cell for the fractional parts fx, fy. On the south or east edge the
    /// last cell is used, so the edge samples are reached.
    ///
    /// Voids: −32768, and any sample outside `PlausibleHeight` (no ground on Earth lies there), is a
    /// void. When a sample that carries weight is a void, the answer is nil. A height is never
    /// interpolated across a void, so no height is invented where the survey had none; a void
    /// whose weight is exactly zero (the point lies on the far side of the cell's grid line) is
    /// not consulted.
    ///
    /// Cost: O(1), four array reads, no allocation.
    /// - Returns: nil outside the tile or next to a void.
    @inlinable
    public func height(at coordinate: Coordinate) -> Metres? {
        guard contains(coordinate) else { return nil }
        let lat = coordinate.latitude, lon = coordinate.longitude
        let cells = Double(size - 1)
        let y = (Double(south + 1) - lat) * cells
        let x = (lon - Double(west)) * cells
        return gridHeight(samples, width: size, height: size, x: x, y: y) { plausibleHeight(Double($0)) }
    }
}
