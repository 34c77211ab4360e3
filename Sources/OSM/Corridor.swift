import Foundation
import Geo

/// The strip of map around a route that turn finding needs: every point within
/// `Configuration.width` metres of the route's line.
///
/// Readers test each node as it is decoded (`contains(latitudeE7:longitudeE7:)`) and store only
/// those inside, then keep the ways that use a stored node; so reading an extract for one route
/// costs memory in proportion to the corridor, not to the extract.
///
/// The route is cut into pieces no longer than a grid cell, and each piece is listed in the cells
/// its bounding box touches, widened by one cell on every side; cells are `width` metres or more
/// on each side, so every point within `width` of a piece lies in a cell that lists it. A node is
/// then tested against the pieces of its own cell only: one bounding-box check, one hash lookup
/// and, for nodes near the route, a few point-to-segment distances on a `LocalFrame`.
/// Memory is O(route length / width); a test is O(1) for a node far away.
/// A route that crosses the antimeridian is not handled (its pieces would span the globe).
public struct RouteCorridor: Sendable {
    /// The corridor's width, with its reason.
    public struct Configuration: Sendable, Equatable {
        /// Nodes farther than this from the route are left out. It must hold:
        /// - every junction's spokes: a junction lies on the matched road, at most the matcher's
        ///   `searchRadius` (40 m) off the track, and each spoke's bearing is fitted over its first
        ///   `spokeLength` (20 m), so 60 m;
        /// - the matcher's paths between two samples, searched up to `transitionBoundFactor` (3) times
        ///   their 25 m spacing plus twice the search radius (155 m of road, so at most 78 m aside),
        ///   and a gap between routed vertices filled by at most 1.5 times its length plus 50 m
        ///   (a 300 m gap's detour strays up to 200 m aside);
        /// - a roundabout's whole ring, so its exits can be counted: rings up to 300 m across
        ///   (the largest are about 250 m);
        /// 300 m holds all three; a junction's ways are cut at its edge, but a way's name and class
        /// are on the way, so a cut way is described as the whole one.
        public var width: Metres = 300

        public init() {}
    }

    public let configuration: Configuration
    /// The route's bounding box widened by one cell, in 10⁻⁷ degree: a first, cheap rejection.
    private let minimumLatitudeE7: Int64, maximumLatitudeE7: Int64
    private let minimumLongitudeE7: Int64, maximumLongitudeE7: Int64
    /// Cell size in 10⁻⁷ degree of latitude and of longitude (each at least `width` metres).
    private let cellLatitudeE7: Int64, cellLongitudeE7: Int64
    /// The pieces of the route, each no longer than a cell.
    private let pieces: [(a: Coordinate, b: Coordinate)]
    /// Pieces listed by cell (row × 2³² + column, row and column counted from the box's corner).
    private let cells: [Int64: [Int32]]
    /// Whether the route had no point: then nothing is inside.
    public var isEmpty: Bool { pieces.isEmpty }

    /// The corridor's box in 10⁻⁷ degree, widened by one cell: no point outside it is inside.
    public var boundsE7: (minimumLatitude: Int64, maximumLatitude: Int64, minimumLongitude: Int64, maximumLongitude: Int64) {
        (minimumLatitudeE7, maximumLatitudeE7, minimumLongitudeE7, maximumLongitudeE7)
    }

    /// The corridor around `route`. O(route length / width + points).
    public init(route: [Coordinate], configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let width = max(configuration.width, 1)
        guard !route.isEmpty else {
            (minimumLatitudeE7, maximumLatitudeE7, minimumLongitudeE7, maximumLongitudeE7) = (1, 0, 1, 0)
            (cellLatitudeE7, cellLongitudeE7, pieces, cells) = (1, 1, [], [:])
            return
        }
        // Cells at least `width` metres tall and wide everywhere along the route: a degree of
        // latitude is never more than 111.7 km; a degree of longitude shrinks towards the poles, so
        // it is sized at the most poleward point (plus the width), capped at 89°.
        let poleward = min(route.map { abs($0.latitude) }.max()! + width / 111_000, 89)
        let cellLatitude = width / 111_000
        let cellLongitude = width / (111_000 * cos(poleward * .pi / 180))
        cellLatitudeE7 = Int64((cellLatitude * 1e7).rounded(.up))
        cellLongitudeE7 = Int64((cellLongitude * 1e7).rounded(.up))
        var pieces: [(a: Coordinate, b: Coordinate)] = []
        if route.count == 1 { pieces.append((route[0], route[0])) }
        for (a, b) in zip(route, route.dropFirst()) {
            let steps = max(1, Int((max(abs(b.latitude - a.latitude) / cellLatitude,
                                         abs(b.longitude - a.longitude) / cellLongitude)).rounded(.up)))
            var previous = a
            for step in 1...steps {
                let t = Double(step) / Double(steps)
                let next = step == steps ? b : Coordinate(latitude: a.latitude + (b.latitude - a.latitude) * t,
                                                           longitude: a.longitude + (b.longitude - a.longitude) * t)
                pieces.append((previous, next))
                previous = next
            }
        }
        let latitudes = route.map { Int64(($0.latitude * 1e7).rounded()) }
        let longitudes = route.map { Int64(($0.longitude * 1e7).rounded()) }
        minimumLatitudeE7 = latitudes.min()! - cellLatitudeE7
        maximumLatitudeE7 = latitudes.max()! + cellLatitudeE7
        minimumLongitudeE7 = longitudes.min()! - cellLongitudeE7
        maximumLongitudeE7 = longitudes.max()! + cellLongitudeE7
        var cells: [Int64: [Int32]] = [:]
        let (latitude0, longitude0, cellLat, cellLon) = (minimumLatitudeE7, minimumLongitudeE7, cellLatitudeE7, cellLongitudeE7)
        func cell(_ c: Coordinate) -> (row: Int64, column: Int64) {
            ((Int64((c.latitude * 1e7).rounded()) - latitude0) / cellLat, (Int64((c.longitude * 1e7).rounded()) - longitude0) / cellLon)
        }
        for (index, piece) in pieces.enumerated() {
            let (ra, ca) = cell(piece.a), (rb, cb) = cell(piece.b)
            for row in (min(ra, rb) - 1)...(max(ra, rb) + 1) {
                for column in (min(ca, cb) - 1)...(max(ca, cb) + 1) {
                    cells[(row << 32) | column, default: []].append(Int32(index))
                }
            }
        }
        self.pieces = pieces
        self.cells = cells
    }

    /// Whether the point lies within `width` of the route. O(1) outside the route's box; otherwise
    /// one hash lookup and a distance to each piece listed in the point's cell.
    @inline(__always)
    public func contains(latitudeE7: Int32, longitudeE7: Int32) -> Bool {
        let latitude = Int64(latitudeE7), longitude = Int64(longitudeE7)
        guard latitude >= minimumLatitudeE7, latitude <= maximumLatitudeE7,
              longitude >= minimumLongitudeE7, longitude <= maximumLongitudeE7 else { return false }
        let key = ((latitude - minimumLatitudeE7) / cellLatitudeE7) << 32 | ((longitude - minimumLongitudeE7) / cellLongitudeE7)
        guard let listed = cells[key] else { return false }
        let frame = LocalFrame(origin: Coordinate(latitude: Double(latitudeE7) / 1e7, longitude: Double(longitudeE7) / 1e7))
        let limit = configuration.width * configuration.width
        for index in listed {
            let piece = pieces[Int(index)]
            if frame.distanceSquaredToSegment(piece.a, piece.b) <= limit { return true }
        }
        return false
    }

    /// Whether `coordinate` lies within `width` of the route.
    public func contains(_ coordinate: Coordinate) -> Bool {
        contains(latitudeE7: Int32((coordinate.latitude * 1e7).rounded()), longitudeE7: Int32((coordinate.longitude * 1e7).rounded()))
    }
}

/// What a reader keeps when it reads only a corridor: the nodes inside it, the ways that use one of
/// them (cut to the stretch from their first to their last kept node, and one node further at
/// each end), and the restrictions whose via node is kept. Shared by the PBF and XML readers.
///
/// A node just outside the corridor next to a kept node on a kept way is `wanted`: without it the
/// road leaving a junction towards it would be lost (a straight road may have no node for
/// kilometres), and the junction would lose a spoke. Its coordinate was passed over while the
/// nodes were read, so the reader reads the wanted nodes afterwards (the PBF reader only the blobs
/// whose id range holds one). They are a few per way crossing the corridor's edge.
///
/// A way is tested against the nodes stored so far, so its nodes must come first, as they do in a
/// file sorted `Type_then_ID` (every PBF extract from Geofabrik or osmium, and OSM XML from the
/// API). When a node comes after a way the reader notes it (`sawNodeAfterWay`) and reads the file
/// a second time for its ways and relations only, against the complete node table.
struct CorridorKeeper {
    let corridor: RouteCorridor
    /// Whether a way was read (nodes after it break the one-pass order).
    var sawWay = false
    /// Whether a node came after a way: the ways must be read again.
    var sawNodeAfterWay = false
    /// Nodes outside the corridor next to a kept node on a kept way.
    var wanted: Set<Int64> = []

    /// What a reader's pass over the file reads.
    enum Pass: Equatable {
        /// Everything, testing nodes against the corridor.
        case all
        /// Ways and relations only, against the complete node table (the file had nodes after ways).
        case waysAndRelations
        /// The `wanted` nodes only.
        case wantedNodes
    }

    init(_ corridor: RouteCorridor) { self.corridor = corridor }

    /// Notes a node's arrival and tells whether to store it.
    @inline(__always)
    mutating func keepsNode(latitudeE7: Int32, longitudeE7: Int32) -> Bool {
        if sawWay { sawNodeAfterWay = true }
        return corridor.contains(latitudeE7: latitudeE7, longitudeE7: longitudeE7)
    }

    /// The node ids to keep of a way, or nil when it uses no kept node: the stretch from its first
    /// to its last kept node and one node beyond at each end, with its own first and last node ids
    /// added back at the ends when they fell outside. Those two are not in `nodes`, so the graph
    /// builder cuts there as at an extract's border; they are kept so that a turn restriction still
    /// sees where the way really begins and ends (`OSMGraph.turnRestrictions`). Notes as `wanted`
    /// every node of the way outside the corridor next to a kept one. O(way nodes × log kept nodes).
    mutating func keptNodes(of nodeIDs: [Int64], in nodes: inout OSMNodeTable) -> [Int64]? {
        nodesEnded(&nodes)
        // Most ways of an extract lie outside: they are passed over without allocating.
        guard let firstKept = nodeIDs.firstIndex(where: { nodes.index(of: $0) != nil }) else { return nil }
        let kept = nodeIDs.map { nodes.index(of: $0) != nil }
        let lastKept = kept.lastIndex(of: true)!
        let first = max(firstKept - 1, 0), last = min(lastKept + 1, nodeIDs.count - 1)
        for i in first...last where !kept[i] && ((i > 0 && kept[i - 1]) || (i + 1 < kept.count && kept[i + 1])) {
            wanted.insert(nodeIDs[i])
        }
        if first == 0 && last == nodeIDs.count - 1 { return nodeIDs }
        var stretch: [Int64] = []
        stretch.reserveCapacity(last - first + 3)
        if first > 0 { stretch.append(nodeIDs[0]) }
        stretch.append(contentsOf: nodeIDs[first...last])
        if last < nodeIDs.count - 1 { stretch.append(nodeIDs[nodeIDs.count - 1]) }
        return stretch
    }

    /// The restrictions to keep: those whose via node is kept (any other binds no junction the
    /// route passes). O(restrictions × log kept nodes).
    mutating func keptRestrictions(_ restrictions: [OSMRestriction], in nodes: inout OSMNodeTable) -> [OSMRestriction] {
        nodesEnded(&nodes)
        return restrictions.filter { nodes.index(of: $0.viaNode) != nil }
    }

    /// Notes that a way or relation came: nodes should be over.
    private mutating func nodesEnded(_ nodes: inout OSMNodeTable) {
        if !sawWay {
            sawWay = true
            nodes.finish()    // binary search from here on; a no-op when the ids came in order
        }
    }
}
