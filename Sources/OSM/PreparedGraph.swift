import Foundation
import Geo
#if canImport(Glibc)
import Glibc
#endif

/// What identifies the extract a prepared graph was made from: its size, its modification time and
/// a fingerprint of its first and last MiB. A prepared graph whose source no longer matches is out
/// of date and is made again.
public struct ExtractSignature: Sendable, Equatable {
    public var size: UInt64
    /// Modification time in nanoseconds since 1970.
    public var modified: Int64
    /// FNV-1a (64 bits) of the first and the last `fingerprintSpan` bytes.
    public var fingerprint: UInt64

    /// Bytes hashed at each end: a country's extract changes throughout when it is updated, and its
    /// header (with the replication timestamp) changes first; hashing the whole file would cost
    /// more than reading the prepared graph.
    public static let fingerprintSpan = 1 << 20

    public init(size: UInt64, modified: Int64, fingerprint: UInt64) {
        self.size = size
        self.modified = modified
        self.fingerprint = fingerprint
    }

    /// The signature of the file at `url`.
    /// - Throws: `OSMError` when it cannot be opened or read.
    public init(of url: URL) throws {
        let fileName = url.relativePath
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            throw OSMError(file: fileName, message: "cannot read the file: \(String(cString: strerror(errno)))")
        }
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw OSMError(file: fileName, message: "cannot open the file: \(String(cString: strerror(errno)))")
        }
        defer { try? handle.close() }
        let size = UInt64(max(info.st_size, 0))
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ data: Data) {
            for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        let span = UInt64(Self.fingerprintSpan)
        mix((try? handle.read(upToCount: Self.fingerprintSpan)) ?? Data())
        if size > span {
            try? handle.seek(toOffset: max(span, size - span))
            mix((try? handle.read(upToCount: Self.fingerprintSpan)) ?? Data())
        }
        self.init(size: size, modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                  fingerprint: hash)
    }
}

/// A road graph prepared once from an extract and read back with `mmap`: the embedded router's and
/// the turn finder's map without reading the extract again (`roadbook prepare`).
///
/// The file holds the whole `RoadGraph` of the extract (`OSMGraph.load` with every road) as flat
/// little-endian arrays: node coordinates (10⁻⁷ degree) and ids, the adjacency as compressed sparse
/// rows, the ways' tags as indices into one table of distinct strings, the turn restrictions, the
/// named places, the nodes' marks (`OSMNodeMark`: barriers, access, turning places; format 2), and a
/// spatial index: the nodes listed cell by cell (cells of
/// `cellSizeE7`, 0.01°, about 1 km) with a sorted directory of the cells that hold any. Opening it
/// reads the 128-byte header and checks every section's size against the file; nothing else is
/// read until a region is asked for, and then only the pages of that region's cells, nodes and
/// edges. Each index read from the file is checked before it is used, so a damaged file is refused
/// with an `OSMError`, never a crash.
///
/// Bytes per node: 4 + 4 (coordinate) + 8 (id) + 4 (edge start) + 4 (spatial order) = 24, plus 8 per
/// directed edge (target, way and direction), 56 per way, 48 per marked node, and the strings once each.
///
/// A region (`graph(in:)`) is the nodes inside a `RouteCorridor`, the nodes next to them (so every
/// junction keeps its spokes, as a corridor read of the extract does) and the edges between those;
/// nodes, ways and edges keep the extract's order, so the graph is the one a corridor read of the
/// extract gives. O(nodes in the corridor's box + their edges) for a region.
public struct PreparedGraph: @unchecked Sendable {
    /// The file format's version: a file of another version is made again.
    public static let version: UInt32 = 2
    static let magic: [UInt8] = Array("RBGRAPH\0".utf8)
    static let byteOrderMark: UInt32 = 0x0A0B_0C0D
    static let headerSize = 128
    /// Side of a spatial cell in 10⁻⁷ degree (0.01°: 1.1 km of latitude): a region's box touches
    /// few cells per kilometre, and a cell of a dense town holds a few thousand nodes.
    public static let cellSizeE7: Int64 = 100_000
    /// What every refusal of a prepared graph ends with.
    public static let remedy = "; run `roadbook prepare` on the extract again"
    /// String index of "no value".
    static let none: UInt32 = 0
    /// UInt32 fields per way: highway, surface, tracktype, name, ref, flags, then one per `WayInfo.accessKeys`,
    /// then the speed limit in tenths of km/h (0: none; format 2).
    static let wayFieldCount = 7 + WayInfo.accessKeys.count

    /// The extract the file was made from.
    public let signature: ExtractSignature
    public let nodeCount: Int
    public let edgeCount: Int
    public let wayCount: Int
    private let stringCount: Int
    private let restrictionCount: Int
    private let placeCount: Int
    private let markCount: Int
    private let cellCount: Int
    private let file: MappedFile
    private let fileName: String

    private let latitudeE7: UnsafePointer<Int32>
    private let longitudeE7: UnsafePointer<Int32>
    private let osmID: UnsafePointer<Int64>
    private let edgeStart: UnsafePointer<UInt32>
    private let edgeTarget: UnsafePointer<UInt32>
    /// The way of each edge, with the top bit set when the edge follows the way's node order.
    private let edgeWay: UnsafePointer<UInt32>
    private let wayID: UnsafePointer<Int64>
    private let wayFields: UnsafePointer<UInt32>
    private let stringStart: UnsafePointer<UInt32>
    private let stringBytes: UnsafePointer<UInt8>
    private let stringByteCount: Int
    private let restrictionVia: UnsafePointer<UInt32>
    /// Bit 0: an `only` restriction; bits 8…15: the vehicles (`RestrictedVehicles.rawValue`).
    private let restrictionFlags: UnsafePointer<UInt32>
    private let restrictionFrom: UnsafePointer<Int64>
    private let restrictionTo: UnsafePointer<Int64>
    private let placeID: UnsafePointer<Int64>
    private let placeLatitudeE7: UnsafePointer<Int32>
    private let placeLongitudeE7: UnsafePointer<Int32>
    private let placeName: UnsafePointer<UInt32>
    private let placeKind: UnsafePointer<UInt32>
    private let cellKey: UnsafePointer<Int64>
    private let cellStart: UnsafePointer<UInt32>
    private let spatialOrder: UnsafePointer<UInt32>
    /// The nodes with a mark (`OSMNodeMark`), ascending, and for each the string of every one of
    /// `OSMNodeMark.keys` (`none` where the node lacks the key).
    private let markNode: UnsafePointer<UInt32>
    private let markValues: UnsafePointer<UInt32>

    /// The sections of the file in order, each with its element size and count, given the header's
    /// counts; each starts 8-byte aligned.
    private static func layout(nodes: Int, edges: Int, ways: Int, strings: Int, stringBytes: Int, restrictions: Int,
                               places: Int, cells: Int, marks: Int) -> [(size: Int, count: Int)] {
        [(4, nodes), (4, nodes), (8, nodes),
         (4, nodes + 1), (4, edges), (4, edges),
         (8, ways), (4, ways * wayFieldCount),
         (4, strings + 1), (1, stringBytes),
         (4, restrictions), (4, restrictions), (8, restrictions), (8, restrictions),
         (8, places), (4, places), (4, places), (4, places), (4, places),
         (8, cells), (4, cells + 1), (4, nodes),
         (4, marks), (4, marks * OSMNodeMark.keys.count)]
    }

    /// The byte offset of each section, and the file's whole size; nil when a count is absurd (the
    /// size would overflow).
    private static func offsets(of sections: [(size: Int, count: Int)]) -> (offsets: [Int], total: Int)? {
        var offset = headerSize
        var offsets: [Int] = []
        for (size, count) in sections {
            guard count >= 0, count < 1 << 40 else { return nil }
            offsets.append(offset)
            offset += (size * count + 7) & ~7
        }
        return (offsets, offset)
    }

    /// Opens a prepared graph file: maps it and checks its header and size.
    /// - Throws: `OSMError` naming the file when it cannot be read, is not a prepared graph, is of
    ///   another version or byte order, or is truncated.
    public init(contentsOf url: URL) throws {
        let name = url.relativePath
        fileName = name
        let mapped = try MappedFile(path: url.path, fileName: name)
        file = mapped
        let raw = mapped.base
        let size = mapped.size
        func fail(_ message: String) -> OSMError {
            OSMError(file: name, message: message + Self.remedy)
        }
        guard size >= Self.headerSize, Array(UnsafeRawBufferPointer(start: raw, count: 8)) == Self.magic else {
            throw fail("not a prepared road graph")
        }
        guard raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self) == Self.byteOrderMark else {
            throw fail("a prepared road graph of another byte order")
        }
        let version = raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
        guard version == Self.version else {
            throw fail("a prepared road graph of format \(version), not \(Self.version)")
        }
        func count(_ at: Int) -> Int { Int(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        signature = ExtractSignature(size: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self),
                                     modified: raw.loadUnaligned(fromByteOffset: 24, as: Int64.self),
                                     fingerprint: raw.loadUnaligned(fromByteOffset: 32, as: UInt64.self))
        nodeCount = count(40); edgeCount = count(48); wayCount = count(56)
        stringCount = count(64); stringByteCount = count(72); restrictionCount = count(80)
        placeCount = count(88); cellCount = count(96); markCount = count(112)
        // Every count is checked before any size is computed from it: a count read as negative
        // or beyond 2⁴⁰ (no extract has a trillion of anything) would overflow the arithmetic.
        let counts = [nodeCount, edgeCount, wayCount, stringCount, stringByteCount, restrictionCount, placeCount, cellCount, markCount]
        guard raw.loadUnaligned(fromByteOffset: 104, as: Int64.self) == Self.cellSizeE7,
              counts.allSatisfy({ $0 >= 0 && $0 < 1 << 40 }),
              nodeCount < Int(Int32.max), edgeCount < Int(Int32.max), wayCount < 1 << 31, stringCount < Int(UInt32.max),
              let (offsets, total) = Self.offsets(of: Self.layout(
                nodes: nodeCount, edges: edgeCount, ways: wayCount, strings: stringCount, stringBytes: stringByteCount,
                restrictions: restrictionCount, places: placeCount, cells: cellCount, marks: markCount)) else {
            throw fail("a prepared road graph with a damaged header")
        }
        guard total == size else {
            throw fail("a prepared road graph of \(size) bytes where its header needs \(total): the file is truncated or damaged")
        }
        func at<T>(_ section: Int, _ type: T.Type) -> UnsafePointer<T> { Self.pointer(raw, offsets[section], type) }
        latitudeE7 = at(0, Int32.self); longitudeE7 = at(1, Int32.self); osmID = at(2, Int64.self)
        edgeStart = at(3, UInt32.self); edgeTarget = at(4, UInt32.self); edgeWay = at(5, UInt32.self)
        wayID = at(6, Int64.self); wayFields = at(7, UInt32.self)
        stringStart = at(8, UInt32.self); stringBytes = at(9, UInt8.self)
        restrictionVia = at(10, UInt32.self); restrictionFlags = at(11, UInt32.self)
        restrictionFrom = at(12, Int64.self); restrictionTo = at(13, Int64.self)
        placeID = at(14, Int64.self); placeLatitudeE7 = at(15, Int32.self); placeLongitudeE7 = at(16, Int32.self)
        placeName = at(17, UInt32.self); placeKind = at(18, UInt32.self)
        cellKey = at(19, Int64.self); cellStart = at(20, UInt32.self); spatialOrder = at(21, UInt32.self)
        markNode = at(22, UInt32.self); markValues = at(23, UInt32.self)
    }

    private static func pointer<T>(_ raw: UnsafeRawPointer, _ offset: Int, _: T.Type) -> UnsafePointer<T> {
        UnsafePointer((raw + offset).assumingMemoryBound(to: T.self))
    }

    // MARK: - Reading a region

    /// The road graph inside `corridor` (with the nodes next to it), or the whole graph when nil.
    /// - Throws: `OSMError` when the file is damaged (an index out of range).
    public func graph(in corridor: RouteCorridor? = nil) throws -> RoadGraph {
        let damaged = { (what: String) in
            OSMError(file: fileName, message: "the prepared road graph is damaged (\(what))" + Self.remedy)
        }
        // The nodes, as indices into the file, ascending.
        var nodes: [UInt32]
        // The file's node index → the graph's, for a region (identity for the whole graph).
        var local: [UInt32: Int32] = [:]
        if let corridor {
            var inside: [UInt32] = []
            if !corridor.isEmpty {
                let box = corridor.boundsE7
                let cell = Self.cellSizeE7
                let firstRow = (box.minimumLatitude + 900_000_000) / cell, lastRow = (box.maximumLatitude + 900_000_000) / cell
                let firstColumn = (max(box.minimumLongitude, -1_800_000_000) + 1_800_000_000) / cell
                let lastColumn = (min(box.maximumLongitude, 1_800_000_000) + 1_800_000_000) / cell
                for row in max(firstRow, 0)...max(lastRow, 0) {
                    var c = lowerBound(cellKey, cellCount, row << 32 | firstColumn)
                    while c < cellCount, cellKey[c] <= row << 32 | lastColumn {
                        let from = Int(cellStart[c]), to = Int(cellStart[c + 1])
                        guard from <= to, to <= nodeCount else { throw damaged("cell \(c)") }
                        for k in from..<to {
                            let node = spatialOrder[k]
                            guard Int(node) < nodeCount else { throw damaged("node \(node) in cell \(c)") }
                            if corridor.contains(latitudeE7: latitudeE7[Int(node)], longitudeE7: longitudeE7[Int(node)]) {
                                inside.append(node)
                            }
                        }
                        c += 1
                    }
                }
            }
            local.reserveCapacity(inside.count * 5 / 4)
            for node in inside { local[node] = 0 }
            var next: [UInt32] = []
            for node in inside {
                let (from, to) = try edgeRange(node, damaged)
                for e in from..<to {
                    let target = edgeTarget[e]
                    guard Int(target) < nodeCount else { throw damaged("edge \(e)") }
                    if local[target] == nil { local[target] = 0; next.append(target) }
                }
            }
            nodes = inside + next
            nodes.sort()
            for (i, node) in nodes.enumerated() { local[node] = Int32(i) }
        } else {
            nodes = (0..<UInt32(nodeCount)).map { $0 }
        }
        let isWhole = corridor == nil

        var coordinates: [Coordinate] = [], ids: [Int64] = []
        coordinates.reserveCapacity(nodes.count)
        ids.reserveCapacity(nodes.count)
        var start = [Int32](repeating: 0, count: nodes.count + 1)
        var targets: [Int32] = [], fileWays: [UInt32] = [], forward: [Bool] = []
        if isWhole {
            targets.reserveCapacity(edgeCount); fileWays.reserveCapacity(edgeCount); forward.reserveCapacity(edgeCount)
        }
        for (i, node) in nodes.enumerated() {
            let n = Int(node)
            coordinates.append(Coordinate(latitude: Double(latitudeE7[n]) / 1e7, longitude: Double(longitudeE7[n]) / 1e7))
            ids.append(osmID[n])
            let (from, to) = try edgeRange(node, damaged)
            for e in from..<to {
                let target = edgeTarget[e]
                let mapped: Int32
                if isWhole {
                    guard Int(target) < nodeCount else { throw damaged("edge \(e)") }
                    mapped = Int32(target)
                } else {
                    guard let m = local[target] else { continue }
                    mapped = m
                }
                let way = edgeWay[e]
                guard Int(way & 0x7FFF_FFFF) < wayCount else { throw damaged("edge \(e)'s way") }
                targets.append(mapped)
                fileWays.append(way & 0x7FFF_FFFF)
                forward.append(way & 0x8000_0000 != 0)
            }
            start[i + 1] = Int32(targets.count)
        }
        // The ways the edges use, in the file's order. Strings are decoded once each: a region's
        // ways share a few hundred names.
        var ways: [WayInfo] = []
        var strings: [UInt32: String] = [:]
        let edgeWays: [Int32]
        if isWhole {
            ways.reserveCapacity(wayCount)
            for w in 0..<wayCount { ways.append(try way(w, &strings, damaged)) }
            edgeWays = fileWays.map { Int32($0) }
        } else {
            var map: [UInt32: Int32] = [:]
            for w in Set(fileWays).sorted() {
                map[w] = Int32(ways.count)
                ways.append(try way(Int(w), &strings, damaged))
            }
            edgeWays = fileWays.map { map[$0]! }
        }
        var graph = RoadGraph(coordinates: coordinates, osmIDs: ids, ways: ways,
                              edgeStart: start, edgeTarget: targets, edgeWay: edgeWays, edgeForward: forward)

        var entries: [TurnRestrictions.Entry] = []
        for r in 0..<restrictionCount {
            let via = restrictionVia[r]
            guard Int(via) < nodeCount else { throw damaged("restriction \(r)") }
            let mapped = isWhole ? Int(via) : local[via].map(Int.init)
            guard let mapped else { continue }
            let flags = restrictionFlags[r]
            entries.append(TurnRestrictions.Entry(via: mapped, only: flags & 1 != 0,
                                                  vehicles: RestrictedVehicles(rawValue: UInt8(truncatingIfNeeded: flags >> 8)),
                                                  fromWayID: restrictionFrom[r], toWayID: restrictionTo[r]))
        }
        graph.turnRestrictions = TurnRestrictions(entries)

        var places: [OSMPlace] = []
        for p in 0..<placeCount {
            let latitude = placeLatitudeE7[p], longitude = placeLongitudeE7[p]
            if let corridor, !corridor.contains(latitudeE7: latitude, longitudeE7: longitude) { continue }
            guard let name = try string(placeName[p], &strings, damaged),
                  let kind = try string(placeKind[p], &strings, damaged).flatMap(OSMPlace.Kind.init(rawValue:)) else {
                throw damaged("place \(p)")
            }
            places.append(OSMPlace(id: placeID[p], coordinate: Coordinate(latitude: Double(latitude) / 1e7, longitude: Double(longitude) / 1e7),
                                   name: name, kind: kind))
        }
        graph.places = places

        let keys = OSMNodeMark.keys
        for m in 0..<markCount {
            let node = markNode[m]
            guard Int(node) < nodeCount else { throw damaged("mark \(m)") }
            guard let mapped = isWhole ? Int(node) : local[node].map(Int.init) else { continue }
            var mark = OSMNodeMark()
            for (k, key) in keys.enumerated() {
                if let value = try string(markValues[m * keys.count + k], &strings, damaged) { mark.set(key, value) }
            }
            graph.nodeMarks[mapped] = mark
        }
        return graph
    }

    /// The edges of file node `node`, checked against the file.
    private func edgeRange(_ node: UInt32, _ damaged: (String) -> OSMError) throws -> (Int, Int) {
        let from = Int(edgeStart[Int(node)]), to = Int(edgeStart[Int(node) + 1])
        guard from <= to, to <= edgeCount else { throw damaged("the edges of node \(node)") }
        return (from, to)
    }

    /// String `index` of the table (nil for `none`), through `cache` of those decoded already.
    private func string(_ index: UInt32, _ cache: inout [UInt32: String], _ damaged: (String) -> OSMError) throws -> String? {
        guard index != Self.none else { return nil }
        if let known = cache[index] { return known }
        guard Int(index) < stringCount else { throw damaged("string \(index)") }
        let from = Int(stringStart[Int(index)]), to = Int(stringStart[Int(index) + 1])
        guard from <= to, to <= stringByteCount else { throw damaged("string \(index)") }
        let value = String(decoding: UnsafeBufferPointer(start: stringBytes + from, count: to - from), as: UTF8.self)
        cache[index] = value
        return value
    }

    private func way(_ w: Int, _ cache: inout [UInt32: String], _ damaged: (String) -> OSMError) throws -> WayInfo {
        let fields = wayFields + w * Self.wayFieldCount
        guard let highway = try string(fields[0], &cache, damaged) else { throw damaged("way \(w) has no highway") }
        let flags = fields[5]
        var access: [String: String] = [:]
        for (k, key) in WayInfo.accessKeys.enumerated() {
            if let value = try string(fields[6 + k], &cache, damaged) { access[key] = value }
        }
        var info = WayInfo(id: wayID[w], highway: highway, surface: try string(fields[1], &cache, damaged),
                           tracktype: try string(fields[2], &cache, damaged),
                           oneway: [Oneway.no, .forward, .backward][min(Int(flags & 3), 2)],
                           isRoundabout: flags & 4 != 0, name: try string(fields[3], &cache, damaged),
                           ref: try string(fields[4], &cache, damaged), access: access)
        info.underConstruction = flags & 8 != 0
        let tenths = fields[6 + WayInfo.accessKeys.count]
        info.maxspeed = tenths > 0 ? Double(tenths) / 10 : nil
        return info
    }

    /// The first index in the ascending `keys[0..<count]` whose key is at least `key`.
    private func lowerBound(_ keys: UnsafePointer<Int64>, _ count: Int, _ key: Int64) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    // MARK: - Writing

    /// Writes `graph` (the whole graph of the extract with `signature`) as a prepared graph to `url`.
    /// Memory: about 16 bytes per node and 8 per edge beyond the graph itself.
    /// O(nodes log nodes + edges + ways).
    /// - Throws: the file system's errors, as `OSMError` naming the file.
    public static func write(_ graph: RoadGraph, signature: ExtractSignature, to url: URL) throws {
        var strings: [String: UInt32] = ["": 0]
        var stringBytes: [UInt8] = []
        var stringStart: [UInt32] = [0, 0]
        func intern(_ value: String?) -> UInt32 {
            guard let value else { return none }
            if let known = strings[value] { return known }
            let index = UInt32(stringStart.count - 1)
            stringBytes.append(contentsOf: value.utf8)
            stringStart.append(UInt32(stringBytes.count))
            strings[value] = index
            return index
        }
        var wayFields: [UInt32] = []
        wayFields.reserveCapacity(graph.ways.count * wayFieldCount)
        for way in graph.ways {
            let oneway: UInt32 = switch way.oneway { case .no: 0; case .forward: 1; case .backward: 2 }
            wayFields += [intern(way.highway), intern(way.surface), intern(way.tracktype), intern(way.name), intern(way.ref),
                          oneway | (way.isRoundabout ? 4 : 0) | (way.underConstruction ? 8 : 0)]
            for key in WayInfo.accessKeys { wayFields.append(intern(way.access[key])) }
            wayFields.append(UInt32(min(max((way.maxspeed ?? 0) * 10, 0), 1e6).rounded()))
        }
        let restrictions = graph.turnRestrictions.entries
        let placeNames = graph.places.map { intern($0.name) }
        let marked = graph.nodeMarks.keys.sorted()
        let markValues = marked.flatMap { node in OSMNodeMark.keys.map { intern(graph.nodeMarks[node]!.tags[$0]) } }
        let placeKinds = graph.places.map { intern($0.kind.rawValue) }

        let n = graph.count
        var latitudes = [Int32](repeating: 0, count: n), longitudes = [Int32](repeating: 0, count: n)
        var keyed = [UInt64](repeating: 0, count: n)
        for (i, c) in graph.coordinates.enumerated() {
            latitudes[i] = Int32((c.latitude * 1e7).rounded())
            longitudes[i] = Int32((c.longitude * 1e7).rounded())
            let row = (Int64(latitudes[i]) + 900_000_000) / cellSizeE7, column = (Int64(longitudes[i]) + 1_800_000_000) / cellSizeE7
            // A cell key (row < 2¹⁵, column < 2¹⁶) above the node index: one sort orders both.
            keyed[i] = UInt64(row << 16 | column) << 32 | UInt64(i)
        }
        keyed.sort()
        var cellKeys: [Int64] = [], cellStarts: [UInt32] = []
        var order = [UInt32](repeating: 0, count: n)
        for (k, packed) in keyed.enumerated() {
            let key = Int64(packed >> 32), row = key >> 16, column = key & 0xFFFF
            let cell = row << 32 | column
            if cellKeys.last != cell { cellKeys.append(cell); cellStarts.append(UInt32(k)) }
            order[k] = UInt32(truncatingIfNeeded: packed)
        }
        cellStarts.append(UInt32(n))
        keyed = []
        let edgeWays = (0..<graph.edgeCount).map { e in UInt32(graph.edgeWay[e]) | (graph.edgeForward[e] ? 0x8000_0000 : 0) }

        var header = [UInt8](repeating: 0, count: headerSize)
        func put<T>(_ value: T, at offset: Int) {
            withUnsafeBytes(of: value) { header.replaceSubrange(offset..<offset + $0.count, with: $0) }
        }
        header.replaceSubrange(0..<8, with: magic)
        put(version, at: 8); put(byteOrderMark, at: 12)
        put(signature.size, at: 16); put(signature.modified, at: 24); put(signature.fingerprint, at: 32)
        let counts = [n, graph.edgeCount, graph.ways.count, stringStart.count - 1, stringBytes.count, restrictions.count,
                      graph.places.count, cellKeys.count]
        for (i, count) in counts.enumerated() { put(UInt64(count), at: 40 + 8 * i) }
        put(cellSizeE7, at: 104)
        put(UInt64(marked.count), at: 112)

        let fileName = url.relativePath
        guard let out = fopen(url.path, "wb") else {
            throw OSMError(file: fileName, message: "cannot write: \(String(cString: strerror(errno)))")
        }
        var failed = false
        func emit<T>(_ values: [T]) {
            values.withUnsafeBytes { bytes in
                if bytes.count > 0, fwrite(bytes.baseAddress!, 1, bytes.count, out) != bytes.count { failed = true }
                let pad = (8 - bytes.count % 8) % 8
                if pad > 0, fwrite([UInt8](repeating: 0, count: pad), 1, pad, out) != pad { failed = true }
            }
        }
        emit(header)
        emit(latitudes); emit(longitudes); emit(graph.osmIDs)
        emit(graph.edgeStart.map { UInt32($0) }); emit(graph.edgeTarget.map { UInt32($0) }); emit(edgeWays)
        emit(graph.ways.map(\.id)); emit(wayFields)
        emit(stringStart); emit(stringBytes)
        emit(restrictions.map { UInt32($0.via) })
        emit(restrictions.map { ($0.only ? 1 : 0) | UInt32($0.vehicles.rawValue) << 8 })
        emit(restrictions.map(\.fromWayID)); emit(restrictions.map(\.toWayID))
        emit(graph.places.map(\.id))
        emit(graph.places.map { Int32(($0.coordinate.latitude * 1e7).rounded()) })
        emit(graph.places.map { Int32(($0.coordinate.longitude * 1e7).rounded()) })
        emit(placeNames); emit(placeKinds)
        emit(cellKeys); emit(cellStarts); emit(order)
        emit(marked.map { UInt32($0) }); emit(markValues)
        if fflush(out) != 0 { failed = true }
        let reason = String(cString: strerror(errno))
        if fclose(out) != 0 { failed = true }
        if failed { throw OSMError(file: fileName, message: "cannot write: \(reason)") }
    }
}

/// A file mapped read-only into memory, unmapped when the last reference goes.
final class MappedFile: @unchecked Sendable {
    let base: UnsafeRawPointer
    let size: Int

    init(path: String, fileName: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw OSMError(file: fileName, message: "cannot open the file: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw OSMError(file: fileName, message: "cannot read the file: \(String(cString: strerror(errno)))")
        }
        size = Int(info.st_size)
        guard size > 0 else {
            throw OSMError(file: fileName, message: "not a prepared road graph (the file is empty)" + PreparedGraph.remedy)
        }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), mapped != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw OSMError(file: fileName, message: "cannot map the file: \(String(cString: strerror(errno)))")
        }
        base = UnsafeRawPointer(mapped)
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), size) }
}
