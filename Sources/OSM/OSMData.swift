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

    /// The index of node `id`, searched outwards from `hint` (the index of a node found just
    /// before, such as the previous node of the same way): steps of 1, 2, 4, … until `id` is
    /// bracketed, then a binary search of that bracket. A way's nodes were mostly created together
    /// and have nearby ids, so this costs O(log distance) instead of O(log n) over the whole table.
    /// Call after `finish()`.
    public func index(of id: Int64, near hint: Int) -> Int? {
        let count = ids.count
        guard hint >= 0, hint < count else { return index(of: id) }
        if ids[hint] == id { return hint }
        var low: Int, high: Int
        if ids[hint] < id {
            var step = 1
            low = hint + 1
            high = min(hint + 1, count)
            while high < count && ids[high] < id { low = high + 1; high = min(hint + step * 2, count); step *= 2 }
            high = min(high + 1, count)
        } else {
            var step = 1
            high = hint
            low = max(hint - 1, 0)
            while low > 0 && ids[low] > id { high = low; low = max(hint - step * 2, 0); step *= 2 }
        }
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < count && ids[low] == id ? low : nil
    }

    /// The latitude and longitude in 10⁻⁷ degree of the node at `index`. O(1).
    func e7(at index: Int) -> (latitude: Int32, longitude: Int32) { (latitudes[index], longitudes[index]) }

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

/// One named place of an OpenStreetMap file: a node tagged with a `place` a road book can name a
/// stop after, or a mountain pass, saddle or peak, with its `name`.
///
/// Only these nodes are kept, never the tags of other nodes: about 50 bytes plus the name each.
public struct OSMPlace: Sendable, Equatable {
    /// What the node is, from its tags. The `place` values are those of
    /// https://wiki.openstreetmap.org/wiki/Key:place that name somewhere a road goes through:
    /// settlements (`city` … `isolated_dwelling`, `farm`), parts of one (`suburb`, `quarter`,
    /// `neighbourhood`) and named spots without inhabitants (`locality`). Left out: `country`,
    /// `state`, `region`, `county`, `municipality` (areas far too large to tell where a stop is),
    /// `island`, `islet`, `square`, `plot` and the like.
    ///
    /// Also kept, because rally organisers name stops and control points after them: passes
    /// (`mountain_pass=yes`, https://wiki.openstreetmap.org/wiki/Key:mountain_pass, and
    /// `natural=saddle`, https://wiki.openstreetmap.org/wiki/Tag:natural=saddle), where a road
    /// crosses a ridge ("Port d'Envalira"), and peaks (`natural=peak`), where a hill climb ends.
    public enum Kind: String, Sendable, CaseIterable {
        case city, town, village, hamlet, suburb, quarter, neighbourhood, locality
        case isolatedDwelling = "isolated_dwelling"
        case farm
        /// `mountain_pass=yes` or `natural=saddle`.
        case pass
        /// `natural=peak`.
        case peak

        /// The kind a node's tags give it: its `place` value when that is one of the kinds, else
        /// a pass (`mountain_pass=yes`, `natural=saddle`), else a peak (`natural=peak`), else nil.
        public init?(place: String?, natural: String?, mountainPass: String?) {
            if let place, let kind = Kind(rawValue: place), kind != .pass, kind != .peak {
                self = kind
            } else if mountainPass == "yes" || natural == "saddle" {
                self = .pass
            } else if natural == "peak" {
                self = .peak
            } else {
                return nil
            }
        }
    }

    /// The node's OpenStreetMap id.
    public var id: Int64
    public var coordinate: Coordinate
    /// `name=*`, trimmed; never empty.
    public var name: String
    public var kind: Kind

    public init(id: Int64, coordinate: Coordinate, name: String, kind: Kind) {
        self.id = id
        self.coordinate = coordinate
        self.name = name
        self.kind = kind
    }

    /// The tag keys a node must carry one of to be a place (readers skip every other node's tags
    /// before building a string), and the key of its name.
    static let kindKeys = ["place", "natural", "mountain_pass"]
    static let nameKey = "name"
    /// OpenStreetMap refuses tag values longer than 255 characters
    /// (https://wiki.openstreetmap.org/wiki/Limitations_on_mapping_and_tagging); a longer name is
    /// not from OpenStreetMap and is not kept.
    static let maximumNameLength = 255

    /// The place a node with these tags is, or nil when it is none (no kind, no name, a blank or
    /// over-long name).
    static func make(id: Int64, latitudeE7: Int32, longitudeE7: Int32, place: String?, natural: String?,
                     mountainPass: String?, name: String?) -> OSMPlace? {
        guard let kind = Kind(place: place, natural: natural, mountainPass: mountainPass),
              let trimmed = name?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty,
              trimmed.count <= maximumNameLength else { return nil }
        return OSMPlace(id: id, coordinate: Coordinate(latitude: Double(latitudeE7) / 1e7, longitude: Double(longitudeE7) / 1e7),
                        name: trimmed, kind: kind)
    }
}

/// The nodes and ways of an OpenStreetMap file, its turn restrictions (the only relations read)
/// and its named places (the only node tags read).
public struct OSMData: Sendable {
    /// Every node of the file, whether or not a kept way uses it; read with a corridor, the nodes
    /// inside it and those next to them on its ways (`CorridorKeeper`).
    public var nodes: OSMNodeTable
    /// The ways of the file that carry the tag key asked for (all ways when none was asked for);
    /// read with a corridor, those that use one of its nodes, cut to that stretch.
    public var ways: [OSMWay]
    /// The file's `type=restriction` relations that a car or a bicycle must obey, in file order.
    public var restrictions: [OSMRestriction]
    /// The file's named places, passes and peaks (`OSMPlace`), in file order.
    public var places: [OSMPlace]
    /// What the tags of the nodes read say to travel (barriers, access, turning places), by node id.
    public var nodeMarks: [Int64: OSMNodeMark]

    public init(nodes: OSMNodeTable, ways: [OSMWay], restrictions: [OSMRestriction] = [], places: [OSMPlace] = [],
                nodeMarks: [Int64: OSMNodeMark] = [:]) {
        self.nodes = nodes
        self.ways = ways
        self.restrictions = restrictions
        self.places = places
        self.nodeMarks = nodeMarks
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
    /// Memory is about 16 bytes per node of the file plus the kept ways and the named places (about
    /// 50 bytes and the name each; a node's other tags are never kept); the file itself is read in
    /// pieces (one PBF blob, or 64 KiB of XML, at a time). O(file size + n log n) when nodes are
    /// out of id order.
    /// - Parameters:
    ///   - url: the file.
    ///   - wayKey: keep only the ways that carry this tag key (such as `highway`), so the tags of
    ///     other ways are never turned into strings; nil keeps every way.
    ///   - corridor: when given, keep only the nodes inside it (tested as they are decoded), the
    ///     ways that use one of them, cut to the stretch between their first and last kept node,
    ///     and the restrictions whose via node is kept (`CorridorKeeper`). Memory is then about
    ///     16 bytes per node of the corridor plus its ways, whatever the size of the file; the
    ///     file is read once when its nodes come before its ways (a sorted file), else twice.
    /// - Throws: `OSMError` naming the file and the blob and byte offset (PBF) or line (XML) when
    ///   the file cannot be read, is truncated or corrupt, or needs a feature this reader lacks.
    public static func read(contentsOf url: URL, keepingWaysTagged wayKey: String? = "highway",
                            corridor: RouteCorridor? = nil) throws -> OSMData {
        let fileName = url.relativePath
        switch try encoding(of: url) {
        case .pbf:
            return try PBFReader(path: url.path, fileName: fileName, wayKey: wayKey, corridor: corridor).read()
        case .xml:
            return try OSMXMLReader(fileName: fileName, wayKey: wayKey, corridor: corridor).read(path: url.path, gzipped: false)
        case .gzippedXML:
            return try OSMXMLReader(fileName: fileName, wayKey: wayKey, corridor: corridor).read(path: url.path, gzipped: true)
        }
    }
}

/// The vehicles a turn restriction binds. Pedestrians are never bound: a turn restriction is a
/// traffic rule for vehicles (https://wiki.openstreetmap.org/wiki/Relation:restriction).
public struct RestrictedVehicles: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Cars (`motorcar`, and the `motor_vehicle` and `vehicle` classes that hold it).
    public static let motorcar = RestrictedVehicles(rawValue: 1)
    /// Bicycles (`bicycle`, and the `vehicle` class that holds it).
    public static let bicycle = RestrictedVehicles(rawValue: 2)
    /// Every vehicle this package routes.
    public static let all: RestrictedVehicles = [.motorcar, .bicycle]
}

/// One turn restriction as read from a `type=restriction` relation
/// (https://wiki.openstreetmap.org/wiki/Relation:restriction): at node `viaNode`, coming from way
/// `fromWay`, a `no_*` restriction forbids going on into `toWay`; an `only_*` restriction forbids
/// going on into anything else.
///
/// Only restrictions through a via *node* are read; those through a via *way* (or several) are
/// left out, as are restrictions for vehicles this package does not route (`restriction:hgv`,
/// `:psv`, …) and time-conditional ones (`restriction:conditional`).
public struct OSMRestriction: Sendable, Equatable {
    /// Whether the restriction forbids one turn or allows only one.
    public enum Kind: Sendable, Equatable {
        /// `no_left_turn`, `no_right_turn`, `no_straight_on`, `no_u_turn`, `no_entry`, `no_exit`.
        case no
        /// `only_left_turn`, `only_right_turn`, `only_straight_on`, `only_u_turn`.
        case only
    }

    /// The relation's id.
    public var id: Int64
    public var kind: Kind
    public var fromWay: Int64
    public var viaNode: Int64
    public var toWay: Int64
    /// The vehicles bound: those of the tag key (`restriction` binds all, `restriction:motorcar`
    /// cars, …) less those listed in `except`.
    public var vehicles: RestrictedVehicles

    public init(id: Int64, kind: Kind, fromWay: Int64, viaNode: Int64, toWay: Int64, vehicles: RestrictedVehicles) {
        self.id = id
        self.kind = kind
        self.fromWay = fromWay
        self.viaNode = viaNode
        self.toWay = toWay
        self.vehicles = vehicles
    }

    /// A relation member's type, as both encodings give it.
    public enum MemberType: Sendable { case node, way, relation }

    /// The keys read, with the vehicles each binds: `restriction` and `restriction:vehicle` bind
    /// every vehicle, `restriction:motor_vehicle` and `restriction:motorcar` cars,
    /// `restriction:bicycle` bicycles. A more specific key is read after a general one and
    /// replaces it for its vehicles.
    static let keys: [(key: String, vehicles: RestrictedVehicles)] = [
        ("restriction", .all), ("restriction:vehicle", .all), ("restriction:motor_vehicle", .motorcar),
        ("restriction:motorcar", .motorcar), ("restriction:bicycle", .bicycle),
    ]

    /// The `except` values that exempt each vehicle (semicolon-separated in the tag).
    static let exemptions: [String: RestrictedVehicles] = [
        "motorcar": .motorcar, "motor_vehicle": .motorcar, "vehicle": .all, "bicycle": .bicycle,
    ]

    /// Whether a relation with `tags` could be a turn restriction this package reads
    /// (`type=restriction`); lets a reader skip every other relation before reading its members.
    static func isRestriction(_ tags: [String: String]) -> Bool { tags["type"] == "restriction" }

    /// The restrictions a `type=restriction` relation states, or none when it is not one this
    /// package reads: not exactly one `from` way, one `via` node and one `to` way (a via way, a
    /// missing or doubled member, a wrong member type), no known `no_*`/`only_*` value, or every
    /// vehicle exempt. Never fails: a broken relation is skipped. O(members + tags).
    /// - Parameter members: each member's type, referenced id and role, in order.
    public static func parse(id: Int64, tags: [String: String],
                             members: [(type: MemberType, ref: Int64, role: String)]) -> [OSMRestriction] {
        guard isRestriction(tags) else { return [] }
        var from: Int64?, via: Int64?, to: Int64?
        var fromCount = 0, viaCount = 0, toCount = 0
        for member in members {
            switch member.role {
            case "from":
                fromCount += 1
                if member.type == .way { from = member.ref }
            case "via":
                viaCount += 1
                if member.type == .node { via = member.ref }
            case "to":
                toCount += 1
                if member.type == .way { to = member.ref }
            default:
                continue    // `location_hint` and other roles say nothing about the turn
            }
        }
        guard fromCount == 1, viaCount == 1, toCount == 1, let from, let via, let to else { return [] }
        var exempt: RestrictedVehicles = []
        for value in (tags["except"] ?? "").split(separator: ";") {
            exempt.formUnion(exemptions[value.trimmingCharacters(in: .whitespaces)] ?? [])
        }
        // Each vehicle takes the kind of the most specific key that binds it.
        var kindFor: [Kind?] = [nil, nil]   // motorcar, bicycle
        for (key, vehicles) in keys {
            guard let value = tags[key] else { continue }
            let kind: Kind
            if value.hasPrefix("no_") { kind = .no } else if value.hasPrefix("only_") { kind = .only } else { continue }
            if vehicles.contains(.motorcar) { kindFor[0] = kind }
            if vehicles.contains(.bicycle) { kindFor[1] = kind }
        }
        var result: [OSMRestriction] = []
        for kind in [Kind.no, .only] {
            var vehicles: RestrictedVehicles = []
            if kindFor[0] == kind { vehicles.insert(.motorcar) }
            if kindFor[1] == kind { vehicles.insert(.bicycle) }
            vehicles.subtract(exempt)
            if !vehicles.isEmpty {
                result.append(OSMRestriction(id: id, kind: kind, fromWay: from, viaNode: via, toWay: to, vehicles: vehicles))
            }
        }
        return result
    }
}
