import Foundation
import Geo

/// Which way along a way traffic may go.
public enum Oneway: String, Sendable, Codable {
    /// Both ways.
    case no
    /// Only in the order of the way's nodes (`oneway=yes`, roundabouts, motorways).
    case forward
    /// Only against it (`oneway=-1`).
    case backward
}

/// The tags of a road that matter to a road book and to routing.
public struct WayInfo: Sendable, Equatable {
    public var id: Int64
    /// `highway=*`: motorway, trunk, primary, …, track, path.
    public var highway: String
    /// `surface=*`, when tagged.
    public var surface: String?
    /// `tracktype=grade1…grade5`, when tagged.
    public var tracktype: String?
    public var oneway: Oneway
    /// `junction=roundabout` (or `circular`).
    public var isRoundabout: Bool
    public var name: String?
    public var ref: String?
    /// `access`, `motor_vehicle`, `motorcar`, `bicycle`, `foot` as tagged (nil when not).
    public var access: [String: String]
    /// The road is being built or rebuilt (`construction=*` other than `no`, `minor` or
    /// `widening`): it is drawn, but no one routes along it, as OSRM's profiles do not.
    public var underConstruction: Bool = false
    /// The speed limit in km/h (`maxspeed`, see `WayInfo.maxspeed(of:)`), when tagged and readable.
    public var maxspeed: Double? = nil

    public init(id: Int64, highway: String, surface: String? = nil, tracktype: String? = nil, oneway: Oneway = .no,
                isRoundabout: Bool = false, name: String? = nil, ref: String? = nil, access: [String: String] = [:]) {
        self.id = id
        self.highway = highway
        self.surface = surface
        self.tracktype = tracktype
        self.oneway = oneway
        self.isRoundabout = isRoundabout
        self.name = name
        self.ref = ref
        self.access = access
    }
}

/// One step from a node to a neighbour along a way.
public struct GraphEdge: Sendable, Equatable {
    /// The neighbour's node index.
    public var target: Int
    /// Index into `RoadGraph.ways`.
    public var way: Int
    /// True when the step follows the way's node order.
    public var forward: Bool
}

/// The road network: every node of every road, joined to its neighbours along the ways.
///
/// Nodes are indexed 0..<count; adjacency is stored compactly (CSR): the edges of node `i` are
/// `edgeStart[i]..<edgeStart[i + 1]`. Every way contributes an edge in each direction between
/// consecutive nodes, whatever its oneway tag (a junction's spokes include roads one may not
/// take; `canTravel` says which may be taken).
public struct RoadGraph: Sendable {
    public let coordinates: [Coordinate]
    /// OpenStreetMap node ids, by node index.
    public let osmIDs: [Int64]
    public let ways: [WayInfo]
    let edgeStart: [Int32]
    let edgeTarget: [Int32]
    let edgeWay: [Int32]
    let edgeForward: [Bool]
    /// The turn restrictions at the graph's nodes (`type=restriction` relations with a via node):
    /// `OSMGraph.build` fills them; a graph built from way lists has none until set.
    /// Query with `allowsTurn(fromWay:at:toWay:for:)`.
    public var turnRestrictions = TurnRestrictions()
    /// The named places of the extract (`OSMPlace`: settlements, passes, peaks), whether or not a
    /// road passes them, for naming stops: `OSMGraph.build` fills them; a graph built from way
    /// lists has none until set.
    public var places: [OSMPlace] = []
    /// What the tags of the graph's nodes say to travel (`OSMNodeMark`: barriers, access, turning
    /// places), by node index; only nodes with a mark are present. `OSMGraph.build` fills them.
    public var nodeMarks: [Int: OSMNodeMark] = [:]

    /// Builds the graph from ways given as lists of node indices (consecutive duplicates are
    /// ignored). O(nodes + way nodes).
    public init(coordinates: [Coordinate], osmIDs: [Int64], ways: [WayInfo], wayNodes: [[Int]]) {
        precondition(coordinates.count == osmIDs.count && ways.count == wayNodes.count)
        self.coordinates = coordinates
        self.osmIDs = osmIDs
        self.ways = ways
        var degree = [Int32](repeating: 0, count: coordinates.count + 1)
        for nodes in wayNodes {
            for (a, b) in zip(nodes, nodes.dropFirst()) where a != b {
                degree[a] += 1
                degree[b] += 1
            }
        }
        var start = [Int32](repeating: 0, count: coordinates.count + 1)
        for i in 0..<coordinates.count { start[i + 1] = start[i] + degree[i] }
        var fill = Array(start.dropLast())
        let total = Int(start[coordinates.count])
        var target = [Int32](repeating: 0, count: total)
        var way = [Int32](repeating: 0, count: total)
        var forward = [Bool](repeating: true, count: total)
        for (w, nodes) in wayNodes.enumerated() {
            for (a, b) in zip(nodes, nodes.dropFirst()) where a != b {
                let i = Int(fill[a]); fill[a] += 1
                target[i] = Int32(b); way[i] = Int32(w); forward[i] = true
                let j = Int(fill[b]); fill[b] += 1
                target[j] = Int32(a); way[j] = Int32(w); forward[j] = false
            }
        }
        edgeStart = start
        edgeTarget = target
        edgeWay = way
        edgeForward = forward
    }

    /// Number of nodes.
    public var count: Int { coordinates.count }

    /// The edges leaving `node`. O(degree).
    public func edges(from node: Int) -> [GraphEdge] {
        (Int(edgeStart[node])..<Int(edgeStart[node + 1])).map {
            GraphEdge(target: Int(edgeTarget[$0]), way: Int(edgeWay[$0]), forward: edgeForward[$0])
        }
    }

    /// Number of distinct neighbours of `node`: 1 at a dead end, 2 along a road, 3 or more at a junction.
    public func degree(of node: Int) -> Int {
        Set((Int(edgeStart[node])..<Int(edgeStart[node + 1])).map { edgeTarget[$0] }).count
    }

    /// Whether traffic may go along `edge` given its way's oneway tag.
    public func canTravel(_ edge: GraphEdge) -> Bool {
        switch ways[edge.way].oneway {
        case .no: true
        case .forward: edge.forward
        case .backward: !edge.forward
        }
    }
}
