import Foundation
import Geo

/// Heights from a digital elevation model on disk: one SRTM tile (`.hgt`, `.hgt.zip`), one GeoTIFF
/// in WGS84 (`.tif`, `.tiff`), or a folder of SRTM tiles (see `TileFolder`).
///
/// A single file is read when the source is made, so a bad file fails at once; a folder's tiles
/// are read as points reach them. Heights are bilinear interpolations of the samples, in metres
/// above the geoid the DEM uses (EGM96 for SRTM), nil outside the data or next to a void.
public struct DEMSource: ElevationSource {
    /// Describes the data, such as "SRTM3 tile N42E001.hgt.zip" or "SRTM tiles in dem".
    public let name: String
    private let storage: Storage

    private enum Storage: Sendable {
        case tile(HGTTile)
        case geoTIFF(GeoTIFFDEM)
        case folder(TileFolder)
    }

    /// Opens a DEM file or a folder of tiles.
    ///
    /// Cost: a single file is read whole (up to 26 MB for an SRTM1 tile; a GeoTIFF at 4 bytes a
    /// sample); a folder is only listed.
    /// - Throws: `ElevationError` naming the path when it does not exist, its kind is not known
    ///   from its extension, or it cannot be read (see `HGTTile`, `GeoTIFFDEM`, `TileFolder`).
    public init(contentsOf url: URL) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw ElevationError(source: url.path, message: "no such file or folder")
        }
        let file = url.lastPathComponent
        if isFolder.boolValue {
            let folder = try TileFolder(contentsOf: url)
            storage = .folder(folder)
            name = "SRTM tiles in \(file) (\(folder.files.count))"
            return
        }
        let lower = file.lowercased()
        if lower.hasSuffix(".hgt") || lower.hasSuffix(".hgt.zip") {
            let tile = try HGTTile(contentsOf: url)
            storage = .tile(tile)
            let kind = tile.size == HGTTile.srtm1Size ? "SRTM1" : "SRTM3"
            name = "\(kind) tile \(file)"
        } else if lower.hasSuffix(".tif") || lower.hasSuffix(".tiff") {
            storage = .geoTIFF(try GeoTIFFDEM(contentsOf: url))
            name = "GeoTIFF \(file)"
        } else {
            throw ElevationError(source: url.path, message: "not a known DEM: give an SRTM tile (.hgt, .hgt.zip), a GeoTIFF in EPSG:4326 (.tif) or a folder of SRTM tiles")
        }
    }

    /// Heights in metres, one per point; nil outside the data or next to a void.
    ///
    /// Cost: O(points), each an O(1) bilinear lookup, plus reading any folder tile not yet loaded.
    /// - Throws: `ElevationError` naming a folder tile that cannot be read.
    public func heights(at points: [Coordinate]) throws -> [Metres?] {
        switch storage {
        case .tile(let tile): return points.map { tile.height(at: $0) }
        case .geoTIFF(let dem): return points.map { dem.height(at: $0) }
        case .folder(let folder): return try folder.heights(at: points)
        }
    }

    public func elevations(at points: [Coordinate]) async throws -> [Metres?] {
        try heights(at: points)
    }
}
