import AtomicFile
import Foundation
import Geo

/// Keeps the heights another source gave, on disk, so a route asked again (a regenerated book,
/// a second run) costs no requests.
///
/// One file per source in `folder`, named after the source, holding every point asked so far:
/// read once, on the first call, and rewritten whole after each call that learnt new points,
/// through a temporary file renamed into place, so a crash leaves the previous file intact.
///
/// What is kept: every height the source answered, and by default every "no height" (nil) it
/// answered too: a service that says `null` for a point in the sea or outside its dataset will
/// say so again, and asking once more would only spend the rate limit. Nothing is kept when the
/// source throws. Do not wrap a `FallbackChain` in one cache (its nil can mean "every source
/// failed"): wrap each source in its own cache, then chain the caches.
///
/// Two calls at once may both ask the inner source for the same new points; the answers agree.
public actor ElevationCache: ElevationSource {
    /// Points closer than this share a cache entry, in degrees (about 1.1 m of latitude). Finer
    /// than any DEM's spacing (SRTM1 is 30 m), so sharing a height costs nothing in accuracy.
    public static let keyStep: Degrees = 1 / keysPerDegree
    /// Cells per degree; dividing a key by it gives the nearest double to the cell's centre
    /// (multiplying by `keyStep` would not: 4250000 × 1e-5 is 42.50000000000001).
    static let keysPerDegree: Double = 100_000
    /// Written at the head of every cache file; a file with another format is refused.
    public static let fileFormat = "roadbook elevation cache 1"

    public nonisolated let inner: any ElevationSource
    /// The file holding this source's heights.
    public nonisolated let file: URL
    /// Whether a nil answer (the source has no height there) is kept; errors never are.
    public nonisolated let cachesMissingHeights: Bool

    public nonisolated var name: String { inner.name }

    private struct Key: Hashable, Comparable {
        var latitude: Int
        var longitude: Int
        init(_ point: Coordinate) {
            latitude = Int((point.latitude * ElevationCache.keysPerDegree).rounded())
            longitude = Int((point.longitude * ElevationCache.keysPerDegree).rounded())
        }
        init(latitude: Int, longitude: Int) {
            self.latitude = latitude
            self.longitude = longitude
        }
        /// The centre of the key's cell: what the inner source is asked, so an entry does not
        /// depend on which of its points came first.
        var centre: Coordinate {
            Coordinate(latitude: Double(latitude) / ElevationCache.keysPerDegree,
                       longitude: Double(longitude) / ElevationCache.keysPerDegree)
        }
        static func < (a: Key, b: Key) -> Bool { (a.latitude, a.longitude) < (b.latitude, b.longitude) }
    }

    private struct Entry { var height: Metres? }

    /// nil until the file is read.
    private var entries: [Key: Entry]?

    /// - Parameters:
    ///   - inner: the source asked for points not in the cache.
    ///   - folder: where the cache files live; created on the first write.
    ///   - cachesMissingHeights: whether to keep nil answers (see the type's documentation).
    public init(wrapping inner: any ElevationSource, folder: URL, cachesMissingHeights: Bool = true) {
        self.inner = inner
        self.cachesMissingHeights = cachesMissingHeights
        self.file = folder.appendingPathComponent(Self.fileName(for: inner.name))
    }

    /// A file name from the source's name: its letters and digits, and a hash of the whole name
    /// so that two names differing only in punctuation get different files.
    static func fileName(for source: String) -> String {
        let safe = String(source.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "_" })
        var hash: UInt32 = 2_166_136_261  // FNV-1a, 32 bits
        for byte in source.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return "\(safe.prefix(80))-\(String(hash, radix: 16)).json"
    }

    /// How many points the cache holds (reading the file if not yet read).
    /// - Throws: `ElevationError` naming the file when it cannot be read.
    public func count() throws -> Int { try loaded().count }

    /// Heights in metres, one per point: from the cache where known, else from the inner source,
    /// which is asked once for all the missing points (each cell of `keyStep` once).
    /// Cost: a dictionary look-up per point; one file read on the first call; one inner call and
    /// one file write (O(cache size)) when anything was missing.
    /// - Throws: the inner source's error (nothing is cached then); `ElevationError` naming the
    ///   file when the cache cannot be read or written.
    public func elevations(at points: [Coordinate]) async throws -> [Metres?] {
        var known = try loaded()
        let keys = points.map(Key.init)
        var missing: [Key] = []
        var seen = Set<Key>()
        for key in keys where known[key] == nil && seen.insert(key).inserted { missing.append(key) }

        var fresh: [Key: Entry] = [:]
        if !missing.isEmpty {
            let heights = try await inner.elevations(at: missing.map(\.centre))
            guard heights.count == missing.count else {
                throw ElevationError(source: inner.name, message: "answered \(heights.count) heights for "
                                     + "\(missing.count) points; nothing was cached")
            }
            for (key, height) in zip(missing, heights) { fresh[key] = Entry(height: height) }
            // Another call may have filled the cache while this one waited for the inner source.
            known = try loaded()
            let kept = fresh.filter { $0.value.height != nil || cachesMissingHeights }
            if !kept.isEmpty {
                known.merge(kept) { _, new in new }
                entries = known
                try save(known)
            }
        }
        return keys.map { key in (fresh[key] ?? known[key])?.height }
    }

    // MARK: - The file

    private struct FileContents: Codable {
        var format: String
        var source: String
        /// [latitude key, longitude key, height or null]; keys are degrees / `keyStep`.
        var points: [[Double?]]
    }

    private func loaded() throws -> [Key: Entry] {
        if let entries { return entries }
        let read = try readFile()
        entries = read
        return read
    }

    private func failure(_ message: String) -> ElevationError {
        ElevationError(source: file.path, message: message)
    }

    private func readFile() throws -> [Key: Entry] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [:] }
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw failure("cannot read the elevation cache: \(error.localizedDescription)")
        }
        let contents: FileContents
        do { contents = try JSONDecoder().decode(FileContents.self, from: data) } catch {
            throw failure("is not an elevation cache file (\(error)); delete it to start the cache afresh")
        }
        guard contents.format == Self.fileFormat else {
            throw failure("is a cache of format \"\(contents.format)\", not \"\(Self.fileFormat)\"; "
                          + "delete it to start the cache afresh")
        }
        guard contents.source == inner.name else {
            throw failure("holds heights from \"\(contents.source)\", not \"\(inner.name)\"; "
                          + "use another cache folder or delete the file")
        }
        var result: [Key: Entry] = [:]
        result.reserveCapacity(contents.points.count)
        for (index, point) in contents.points.enumerated() {
            guard point.count == 3, let latitude = point[0], let longitude = point[1],
                  latitude == latitude.rounded(), longitude == longitude.rounded(),
                  abs(latitude) <= 90 * Self.keysPerDegree, abs(longitude) <= 180 * Self.keysPerDegree else {
                throw failure("entry \(index) is not [latitude key, longitude key, height]; "
                              + "delete the file to start the cache afresh")
            }
            result[Key(latitude: Int(latitude), longitude: Int(longitude))] = Entry(height: point[2])
        }
        return result
    }

    /// Writes every entry through `AtomicFile`: a temporary file beside `file`, renamed onto it.
    private func save(_ entries: [Key: Entry]) throws {
        let folder = file.deletingLastPathComponent()
        let hint = "the heights were fetched but cannot be kept; make \(folder.path) writable or choose another cache folder"
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw failure("cannot create the cache folder (\(error.localizedDescription)); \(hint)")
        }
        let contents = FileContents(format: Self.fileFormat, source: inner.name, points: entries.keys.sorted().map { key in
            [Double(key.latitude), Double(key.longitude), entries[key]!.height]
        })
        do {
            try AtomicFile.write(try JSONEncoder().encode(contents), to: file)
        } catch {
            throw failure("cannot write the elevation cache (\(error)); \(hint)")
        }
    }
}
