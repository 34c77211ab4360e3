import Foundation
import Geo

/// Which OpenStreetMap ways become roads of the graph.
///
/// The graph builder offers a filter only ways that carry a `highway` tag; the filter decides among
/// them from all their tags. `allRoads` keeps everything one could drive, ride or walk along; what
/// each way of travel may use is decided later, by the router's travel profiles.
public struct RoadFilter: Sendable {
    /// A short name for messages, such as `all roads`.
    public let name: String
    private let keeps: @Sendable (_ tags: [String: String]) -> Bool

    /// A filter deciding from a way's tags.
    public init(name: String, keeps: @escaping @Sendable (_ tags: [String: String]) -> Bool) {
        self.name = name
        self.keeps = keeps
    }

    /// A filter keeping ways whose `highway` value is in `highways`, except areas (`area=yes`:
    /// a pedestrian square's outline is not a road one follows).
    public init(name: String, highways: Set<String>) {
        self.init(name: name) { tags in
            guard let highway = tags["highway"], highways.contains(highway) else { return false }
            return tags["area"] != "yes"
        }
    }

    /// Whether the way with `tags` is kept.
    public func keeps(_ tags: [String: String]) -> Bool { keeps(tags) }

    /// `highway` values that are roads, tracks or paths (https://wiki.openstreetmap.org/wiki/Key:highway).
    /// Left out on purpose: lifecycle values (`proposed`, `construction`, `abandoned`, `disused`,
    /// `razed`), points and areas (`bus_stop`, `platform`, `crossing`, `turning_circle`,
    /// `traffic_signals`, `rest_area`, `services`, `elevator`, …), `corridor` (indoors), `raceway`
    /// and `bus_guideway` (not open to a road-book user).
    public static let roadHighways: Set<String> = [
        "motorway", "trunk", "primary", "secondary", "tertiary",
        "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link",
        "unclassified", "residential", "living_street", "service", "road", "busway", "track",
        "pedestrian", "path", "footway", "cycleway", "bridleway", "steps",
    ]

    /// Every road, track and path.
    public static let allRoads = RoadFilter(name: "all roads", highways: roadHighways)
}

/// Loads the road graph of an OpenStreetMap file.
public enum OSMGraph {
    /// Reads an OpenStreetMap file (PBF, OSM XML or gzipped OSM XML, told apart by its first bytes
    /// and then its extension) and builds the graph of its roads.
    ///
    /// Memory peaks at about 16 bytes per node of the file plus the kept ways while reading;
    /// the graph keeps only the nodes its roads use. O(file size + way nodes × log nodes).
    /// - Parameters:
    ///   - url: the file.
    ///   - profile: which ways are roads.
    ///   - corridor: when given, only the roads within it (`OSMData.read(contentsOf:keepingWaysTagged:corridor:)`):
    ///     memory and graph in proportion to the corridor, not the file.
    /// - Throws: `OSMError` naming the file and the blob and byte offset (PBF) or line (XML).
    public static func load(contentsOf url: URL, profile: RoadFilter = .allRoads, corridor: RouteCorridor? = nil) throws -> RoadGraph {
        build(from: try OSMData.read(contentsOf: url, keepingWaysTagged: "highway", corridor: corridor), profile: profile)
    }

    /// Builds the road graph of `data`: the ways `profile` keeps, and only the nodes they use,
    /// numbered in order of first use; the data's named places come along (`RoadGraph.places`).
    ///
    /// A way that names a node the data lacks (an extract clipped at its border) is cut there:
    /// each run of two or more present nodes becomes a way of its own in `RoadGraph.ways`, with
    /// the same `WayInfo` (and so the same id). Each node id is found searching outwards from the
    /// previous one (`OSMNodeTable.index(of:near:)`): O(way nodes × log gap) for ways whose nodes
    /// have nearby ids, as most do; O(way nodes × log nodes) at worst.
    public static func build(from data: OSMData, profile: RoadFilter = .allRoads) -> RoadGraph {
        var graphIndex = [Int32](repeating: -1, count: data.nodes.count)
        var coordinates: [Coordinate] = []
        var osmIDs: [Int64] = []
        var ways: [WayInfo] = []
        var wayNodes: [[Int]] = []
        // The table index of the node found last: the next one of a way is usually near it.
        var hint = 0
        for way in data.ways {
            guard let highway = way.tags["highway"], profile.keeps(way.tags) else { continue }
            let info = WayInfo(id: way.id, highway: highway, tags: way.tags)
            var run: [Int] = []
            func endRun() {
                if run.count >= 2 {
                    ways.append(info)
                    wayNodes.append(run)
                }
                run = []
            }
            for id in way.nodeIDs {
                guard let tableIndex = data.nodes.index(of: id, near: hint) else {
                    endRun()
                    continue
                }
                hint = tableIndex
                if graphIndex[tableIndex] < 0 {
                    graphIndex[tableIndex] = Int32(coordinates.count)
                    coordinates.append(data.nodes.coordinate(at: tableIndex))
                    osmIDs.append(id)
                }
                run.append(Int(graphIndex[tableIndex]))
            }
            endRun()
        }
        var graph = RoadGraph(coordinates: coordinates, osmIDs: osmIDs, ways: ways, wayNodes: wayNodes)
        graph.turnRestrictions = turnRestrictions(of: data, graphIndex: graphIndex, profile: profile)
        graph.places = data.places
        for (id, mark) in data.nodeMarks {
            guard let tableIndex = data.nodes.index(of: id), graphIndex[tableIndex] >= 0 else { continue }
            graph.nodeMarks[Int(graphIndex[tableIndex])] = mark
        }
        return graph
    }

    /// The restrictions of `data` that fall on the graph: the via node is a graph node, the from
    /// and to ways are roads of `profile` that begin or end at it (the wiki's rule; a restriction
    /// that breaks it is ambiguous and skipped, as OSRM skips it) and differ (a `no_u_turn` on
    /// one way needs no entry: routes never reverse on a road but at a dead end).
    /// O(restrictions + ways).
    static func turnRestrictions(of data: OSMData, graphIndex: [Int32], profile: RoadFilter) -> TurnRestrictions {
        guard !data.restrictions.isEmpty else { return TurnRestrictions() }
        let wanted = Set(data.restrictions.flatMap { [$0.fromWay, $0.toWay] })
        var ends: [Int64: (first: Int64, last: Int64)] = [:]
        for way in data.ways where wanted.contains(way.id) {
            guard way.tags["highway"] != nil, profile.keeps(way.tags), let first = way.nodeIDs.first, let last = way.nodeIDs.last
            else { continue }
            ends[way.id] = (first, last)
        }
        var entries: [TurnRestrictions.Entry] = []
        for r in data.restrictions where r.fromWay != r.toWay {
            guard let from = ends[r.fromWay], let to = ends[r.toWay],
                  from.first == r.viaNode || from.last == r.viaNode, to.first == r.viaNode || to.last == r.viaNode,
                  let tableIndex = data.nodes.index(of: r.viaNode), graphIndex[tableIndex] >= 0 else { continue }
            entries.append(TurnRestrictions.Entry(via: Int(graphIndex[tableIndex]), only: r.kind == .only,
                                                  vehicles: r.vehicles, fromWayID: r.fromWay, toWayID: r.toWay))
        }
        return TurnRestrictions(entries)
    }
}

extension WayInfo {
    /// The tags of `access` that are kept (https://wiki.openstreetmap.org/wiki/Key:access).
    public static let accessKeys = ["access", "motor_vehicle", "motorcar", "vehicle", "bicycle", "foot"]

    /// Reads a way's road tags: `surface`, `tracktype`, `name`, `ref`, the `accessKeys`, `construction`, and its
    /// direction (https://wiki.openstreetmap.org/wiki/Key:oneway): `oneway=yes|true|1` is forward,
    /// `-1|reverse` backward, `no|false|0` both ways; without a `oneway` tag, roundabouts
    /// (`junction=roundabout|circular`) and motorways are forward, as OSM implies. Other values
    /// (`reversible`, `alternating`) change with the time of day, so either way is allowed.
    public init(id: Int64, highway: String, tags: [String: String]) {
        let isRoundabout = tags["junction"] == "roundabout" || tags["junction"] == "circular"
        let oneway: Oneway
        switch tags["oneway"]?.lowercased() {
        case "yes", "true", "1": oneway = .forward
        case "-1", "reverse": oneway = .backward
        case nil: oneway = isRoundabout || highway == "motorway" ? .forward : .no
        default: oneway = .no
        }
        var access: [String: String] = [:]
        for key in Self.accessKeys { access[key] = tags[key] }
        self.init(id: id, highway: highway, surface: tags["surface"], tracktype: tags["tracktype"], oneway: oneway,
                  isRoundabout: isRoundabout, name: tags["name"], ref: tags["ref"], access: access)
        if let construction = tags["construction"], !["no", "minor", "widening"].contains(construction) {
            underConstruction = true
        }
        maxspeed = Self.maxspeed(of: tags)
    }

    /// Keys of a way's speed limit, first present first (as OSRM's `WayHandlers.maxspeed`).
    public static let maxspeedKeys = ["maxspeed:advisory", "maxspeed", "source:maxspeed", "maxspeed:type"]
    /// km/h of a limit written as a zone (`FR:urban`, `DE:rural`): OSRM's `maxspeed_table_default`.
    public static let zoneSpeeds: [String: Double] = ["urban": 50, "rural": 90, "trunk": 110, "motorway": 130]

    /// The speed limit in km/h of a way with these `tags`, read as OSRM's `car.lua` reads it: the first
    /// of `maxspeedKeys` present; the number it starts with (`90;30` is 90), in mph when it says so
    /// (1.609 km/h each); else a zone such as `FR:urban` (`zoneSpeeds`); nil for `none`, `signals`,
    /// `walk` and whatever else gives no speed, or 0.
    public static func maxspeed(of tags: [String: String]) -> Double? {
        guard let value = maxspeedKeys.lazy.compactMap({ tags[$0] }).first else { return nil }
        let digits = value.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, digits.count <= 4, let n = Double(digits) {
            guard n > 0 else { return nil }
            return value.contains("mph") || value.contains("mp/h") ? n * 1.609 : n
        }
        let parts = value.lowercased().split(separator: ":")
        guard parts.count == 2, parts[0].count == 2 else { return nil }
        return zoneSpeeds[String(parts[1])]
    }
}
