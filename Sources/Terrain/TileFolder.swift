import Foundation
import Geo

/// A folder of SRTM tiles found by their names, loaded when first needed and kept.
///
/// Recognised layouts: `N42E001.hgt` and `N42E001.hgt.zip` in the folder itself, and Valhalla's
/// `N42/N42E001.hgt` (also zipped) one level down. Names may be lower case. When a tile is there
/// both plain and zipped, the plain file is read (no inflating).
///
/// Safe to share between tasks: the cache sits behind a lock. A tile is read while the lock is
/// held, so two tasks asking for the same new tile read it once. Memory grows by one tile per
/// degree square touched (2.9 MB for SRTM3, 25.9 MB for SRTM1) and is kept for the folder's life.
public final class TileFolder: @unchecked Sendable {
    /// The folder.
    public let url: URL
    /// Every tile file found, by its south-west corner.
    public let files: [TileKey: URL]

    private let lock = NSLock()
    /// Loaded tiles, and the error of each tile that failed to load (so it is not read again).
    private var cache: [TileKey: Result<HGTTile, ElevationError>] = [:]

    /// A tile's south-west corner in whole degrees.
    public struct TileKey: Hashable, Sendable {
        public var south: Int
        public var west: Int
        public init(south: Int, west: Int) {
            self.south = south
            self.west = west
        }
    }

    /// Lists the tiles in `url`; reads none of them.
    ///
    /// Cost: one directory listing, plus one per `N42`-style subfolder.
    /// - Throws: `ElevationError` naming the folder when it cannot be listed or holds no tile.
    public init(contentsOf url: URL) throws {
        self.url = url
        let manager = FileManager.default
        func list(_ folder: URL) throws -> [URL] {
            do { return try manager.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) } catch {
                throw ElevationError(source: folder.path, message: "cannot list the tile folder: \(error.localizedDescription)")
            }
        }
        var found: [TileKey: URL] = [:]
        func consider(_ file: URL) {
            let name = file.lastPathComponent.lowercased()
            let zipped = name.hasSuffix(".hgt.zip")
            guard zipped || name.hasSuffix(".hgt"), name.split(separator: ".").first?.count == 7,
                  let corner = try? HGTTile.corner(ofFileNamed: name) else { return }
            let key = TileKey(south: corner.south, west: corner.west)
            // Prefer the plain file: no inflating.
            if let existing = found[key], !existing.lastPathComponent.lowercased().hasSuffix(".zip") { return }
            found[key] = file
        }
        for entry in try list(url) {
            var isFolder: ObjCBool = false
            let name = entry.lastPathComponent.uppercased()
            if manager.fileExists(atPath: entry.path, isDirectory: &isFolder), isFolder.boolValue {
                // Valhalla's layout: one folder per latitude band, N42/ or S12/.
                let utf8 = Array(name.utf8)
                if utf8.count == 3, utf8[0] == UInt8(ascii: "N") || utf8[0] == UInt8(ascii: "S"), Int(name.dropFirst()) != nil {
                    for file in try list(entry) { consider(file) }
                }
            } else {
                consider(entry)
            }
        }
        guard !found.isEmpty else {
            throw ElevationError(source: url.path, message: "no SRTM tiles here: expected files named like N42E001.hgt, N42E001.hgt.zip or N42/N42E001.hgt")
        }
        files = found
    }

    /// The tile with south-west corner `key`, read on first use; nil when the folder has none.
    /// - Throws: `ElevationError` naming the tile's file when it cannot be read (every time it is asked for).
    public func tile(_ key: TileKey) throws -> HGTTile? {
        guard let file = files[key] else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[key] { return try cached.get() }
        let result: Result<HGTTile, ElevationError>
        do { result = .success(try HGTTile(contentsOf: file)) } catch let error as ElevationError {
            result = .failure(error)
        } catch {
            result = .failure(ElevationError(source: file.path, message: "\(error)"))
        }
        cache[key] = result
        return try result.get()
    }

    /// The keys of the tiles that may hold `coordinate`: the one it falls in, and on a whole
    /// degree of latitude or longitude also the neighbours it shares that edge with (tiles
    /// overlap on their edges, so either can answer).
    static func candidateKeys(for coordinate: Coordinate) -> [TileKey] {
        let lat = coordinate.latitude, lon = coordinate.longitude
        let south = Int(lat.rounded(.down)), west = Int(lon.rounded(.down))
        var keys = [TileKey(south: south, west: west)]
        let onLatitudeEdge = lat == lat.rounded(.down), onLongitudeEdge = lon == lon.rounded(.down)
        if onLatitudeEdge { keys.append(TileKey(south: south - 1, west: west)) }
        if onLongitudeEdge { keys.append(TileKey(south: south, west: west - 1)) }
        if onLatitudeEdge && onLongitudeEdge { keys.append(TileKey(south: south - 1, west: west - 1)) }
        return keys
    }

    /// Heights in metres, one per point: nil outside every tile of the folder or next to a void.
    ///
    /// Cost: O(points) lookups of O(1) each, with one lock per distinct tile, plus reading each
    /// tile not yet loaded.
    /// - Throws: `ElevationError` naming the file of a tile that cannot be read.
    public func heights(at points: [Coordinate]) throws -> [Metres?] {
        var local: [TileKey: HGTTile?] = [:]
        var result: [Metres?] = []
        result.reserveCapacity(points.count)
        for point in points {
            guard point.isValid else {
                result.append(nil)
                continue
            }
            var height: Metres? = nil
            for key in TileFolder.candidateKeys(for: point) {
                let tile: HGTTile?
                if let known = local[key] { tile = known } else {
                    tile = try self.tile(key)
                    local[key] = .some(tile)
                }
                if let tile, tile.contains(point) {
                    height = tile.height(at: point)
                    break
                }
            }
            result.append(height)
        }
        return result
    }
}
