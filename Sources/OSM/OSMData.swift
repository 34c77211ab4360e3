import Foundation
import Geo

/// Node coordinates by OpenStreetMap id, compact and sorted by id for binary search.
///
/// A coordinate is kept as two `Int32` in units of 10⁻⁷ degree (about 1 cm), the precision the
/// OpenStreetMap database itself stores, so nothing is lost: 16 bytes per node in all.
public struct OSMNodeTable: Sendable {
    /// Node ids, ascending once `finish()` has run.
    public private(set) var ids: [Int64] = []
    /// Latitudes in 10⁻⁷ degree, by index.
    private var latitudes: [Int32] = []
    /// Longitudes in 10⁻⁷ degree, by index.
    private var longitudes: [Int32] = []
    /// False once an id arrived out of order; `finish()` then sorts.
    private var isSorted = true

    public init() {}

    /// Number of nodes.
    public var count: Int { ids.count }

    /// Adds a node. Amortised O(1).
    /// - Parameters:
    ///   - latitudeE7: latitude in 10⁻⁷ degree, in [−900000000, 900000000].
    ///   - longitudeE7: longitude in 10⁻⁷ degree, in [−1800000000, 1800000000].
    public mutating func append(id: Int64, latitudeE7: Int32, longitudeE7: Int32) {
        if let last = ids.last, id <= last { isSorted = false }
        ids.append(id)
        latitudes.append(latitudeE7)
        longitudes.append(longitudeE7)
    }

    /// Sorts by id when the nodes came out of order, keeping the last of any repeated id.
    /// O(n) when already sorted (the usual case: PBF files are written `Sort.Type_then_ID`),
    /// O(n log n) otherwise.
    public mutating func finish() {
        guard !isSorted else { return }
        // A stable sort keeps repeats in file order, so the last one read wins below.
        let order = ids.indices.sorted { ids[$0] != ids[$1] ? ids[$0] < ids[$1] : $0 < $1 }
        var sortedIDs: [Int64] = [], sortedLatitudes: [Int32] = [], sortedLongitudes: [Int32] = []
        sortedIDs.reserveCapacity(order.count)
        sortedLatitudes.reserveCapacity(order.count)
        sortedLongitudes.reserveCapacity(order.count)
        for i in order {
            if let last = sortedIDs.last, last == ids[i] {
                sortedLatitudes[sortedLatitudes.count - 1] = latitudes[i]
                sortedLongitudes[sortedLongitudes.count - 1] = longitudes[i]
            } else {
                sortedIDs.append(ids[i])
                sortedLatitudes.append(latitudes[i])
                sortedLongitudes.append(longitudes[i])
            }
        }
        ids = sortedIDs
        latitudes = sortedLatitudes
        longitudes = sortedLongitudes
        isSorted = true
    }

    /// The index of node `id`, or nil when the table does not hold it. O(log n); call after `finish()`.
    public func index(of id: Int64) -> Int? {
        var low = 0, high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < ids.count && ids[low] == id ? low : nil
    }

    /// The coordinate of the node at `index`. O(1).
    public func coordinate(at index: Int) -> Coordinate {
        Coordinate(latitude: Double(latitudes[index]) / 1e7, longitude: Double(longitudes[index]) / 1e7)
    }
}

/// One OpenStreetMap way as read from a file: its id, its node ids in order, and its tags.
public struct OSMWay: Sendable, Equatable {
    public var id: Int64
    public var nodeIDs: [Int64]
    public var tags: [String: String]

    public init(id: Int64, nodeIDs: [Int64], tags: [String: String]) {
        self.id = id
        self.nodeIDs = nodeIDs
        self.tags = tags
    }
}

/// The nodes and ways of an OpenStreetMap file (relations are not read).
public struct OSMData: Sendable {
    /// Every node of the file, whether or not a kept way uses it.
    public var nodes: OSMNodeTable
    /// The ways of the file that carry the tag key asked for (all ways when none was asked for).
    public var ways: [OSMWay]

    public init(nodes: OSMNodeTable, ways: [OSMWay]) {
        self.nodes = nodes
        self.ways = ways
    }

    /// The encodings of OpenStreetMap data this package reads.
    public enum Encoding: String, Sendable {
        /// The protocol-buffer binary format (https://wiki.openstreetmap.org/wiki/PBF_Format).
        case pbf
        /// OSM XML (https://wiki.openstreetmap.org/wiki/OSM_XML).
        case xml
        /// OSM XML compressed with gzip.
        case gzippedXML
    }

    /// Tells the encoding of the file at `url` from its first bytes (gzip's `1F 8B`; a PBF file's
    /// 4-byte header length followed by a `BlobHeader` whose type is `OSMHeader`), falling back on the
    /// extension (`.pbf`, `.gz`) when the file is too short to tell. Reads at most 64 bytes.
    /// - Throws: `OSMError` when the file cannot be opened.
    public static func encoding(of url: URL) throws -> Encoding {
        let fileName = url.relativePath
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw OSMError(file: fileName, message: "cannot open the file: \(String(cString: strerror(errno))); check the path and permissions")
        }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 64)) ?? Data())
        if head.count >= 2, head[0] == 0x1F, head[1] == 0x8B { return .gzippedXML }
        // BlobHeader field 1 (type) is a string: key byte 0x0A, then its length, then "OSMHeader".
        if head.count >= 15, head[4] == 0x0A, head[5] == 9, Array(head[6..<15]) == Array("OSMHeader".utf8) { return .pbf }
        if head.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) == UInt8(ascii: "<") {
            return .xml
        }
        let name = url.lastPathComponent.lowercased()
        if name.hasSuffix(".pbf") { return .pbf }
        if name.hasSuffix(".gz") { return .gzippedXML }
        return .xml
    }

    /// Reads an OpenStreetMap file: PBF, OSM XML or gzipped OSM XML, told apart by `encoding(of:)`.
    ///
    /// Memory is about 16 bytes per node of the file plus the kept ways; the file itself is read in
    /// pieces (one PBF blob, or 64 KiB of XML, at a time). O(file size + n log n) when nodes are
    /// out of id order.
    /// - Parameters:
    ///   - url: the file.
    ///   - wayKey: keep only the ways that carry this tag key (such as `highway`), so the tags of
    ///     other ways are never turned into strings; nil keeps every way.
    /// - Throws: `OSMError` naming the file and the blob and byte offset (PBF) or line (XML) when
    ///   the file cannot be read, is truncated or corrupt, or needs a feature this reader lacks.
    public static func read(contentsOf url: URL, keepingWaysTagged wayKey: String? = "highway") throws -> OSMData {
        let fileName = url.relativePath
        switch try encoding(of: url) {
        case .pbf:
            return try PBFReader(path: url.path, fileName: fileName, wayKey: wayKey).read()
        case .xml:
            return try OSMXMLReader(fileName: fileName, wayKey: wayKey).read(path: url.path, gzipped: false)
        case .gzippedXML:
            return try OSMXMLReader(fileName: fileName, wayKey: wayKey).read(path: url.path, gzipped: true)
        }
    }
}
