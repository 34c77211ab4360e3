import Foundation
import Geo
import Model
import OSM

/// A speed in metres per second.
public typealias MetresPerSecond = Double

/// The rules of one travel mode: what it may use of the road network, which way, and how fast.
/// The embedded router's counterpart of what OSRM calls a profile (its `car.lua`, `bicycle.lua`,
/// `foot.lua`).
///
/// A way is usable when its `highway` class is open to the mode (`speeds`), or open only when
/// tagged so (`speedsWhenTagged`) and the mode's own access tag says yes; and when the access tags
/// do not close it. The access tags are read most specific first (`accessKeys`; for a car
/// `motorcar`, then `motor_vehicle`, `vehicle`, `access`) and the first one present decides, as the
/// OSM wiki's access hierarchy says (https://wiki.openstreetmap.org/wiki/Key:access).
///
/// Speeds are for travel time only (the router minimises time, as OSRM does); they are the
/// defaults of OSRM's `car.lua`, `bicycle.lua` and `foot.lua` where those have the class,
/// so a leg's duration compares with OSRM's.
public struct TravelRules: Sendable {
    public let mode: TravelMode
    /// Speeds in km/h by `highway` value, for classes open to the mode unless tagged closed.
    public let speeds: [String: Double]
    /// Speeds in km/h by `highway` value, for classes closed to the mode unless its own access tag
    /// (`accessKeys.first`) opens them: a footway with `bicycle=yes`.
    public let speedsWhenTagged: [String: Double]
    /// Access keys that apply to the mode, most specific first; the first present decides.
    public let accessKeys: [String]
    /// The keys that name the mode itself (for a car `motorcar` and `motor_vehicle`), most specific
    /// first: only these open a class closed to it (`speedsWhenTagged`).
    public let openingKeys: [String]
    /// Whether `oneway` and roundabouts bind the mode.
    public let obeysOneway: Bool
    /// `tracktype` values a track must have to be usable; nil when any track (tagged or not) is.
    public let usableTrackTypes: Set<String>?
    /// What turning costs the mode at a junction; nil when turns cost nothing (a pedestrian).
    public let turnCosts: TurnCosts?

    /// Access values that close a way to the mode: `no`, `private` (the owner's permission is
    /// needed), and values that open it only to other users (`agricultural`, `forestry`,
    /// `military`, `delivery`, `emergency`).
    public static let closingValues: Set<String> = [
        "no", "private", "agricultural", "forestry", "agricultural;forestry", "military", "delivery", "emergency",
    ]
    /// Access values that open a way to the mode. `destination` (only to reach somewhere on it) and
    /// `customers` open it: a road-book handle placed on such a road is somewhere one goes.
    public static let openingValues: Set<String> = ["yes", "designated", "permissive", "destination", "customers"]

    /// - Parameter openingKeys: the keys that open a class closed to the mode; the first access key
    ///   when nil.
    public init(mode: TravelMode, speeds: [String: Double], speedsWhenTagged: [String: Double] = [:],
                accessKeys: [String], openingKeys: [String]? = nil, obeysOneway: Bool, usableTrackTypes: Set<String>? = nil,
                turnCosts: TurnCosts? = nil) {
        self.mode = mode
        self.speeds = speeds
        self.speedsWhenTagged = speedsWhenTagged
        self.accessKeys = accessKeys
        self.openingKeys = openingKeys ?? Array(accessKeys.prefix(1))
        self.obeysOneway = obeysOneway
        self.usableTrackTypes = usableTrackTypes
        self.turnCosts = turnCosts
        switch mode {
        case .drive, .cycle: lookalikeClasses = Set(speeds.keys).union(["pedestrian", "busway"])
        case .walk: lookalikeClasses = Set(speeds.keys).union(speedsWhenTagged.keys)
        }
    }

    /// The rules of `mode`.
    public static func forMode(_ mode: TravelMode) -> TravelRules {
        switch mode {
        case .drive: drive
        case .cycle: cycle
        case .walk: walk
        }
    }

    /// Speed along `way` in m/s, or nil when the mode may not use it at all. O(number of access keys).
    public func speed(on way: WayInfo) -> MetresPerSecond? {
        if way.underConstruction { return nil }
        let verdict = accessKeys.lazy.compactMap { way.access[$0] }.first
        let kmh: Double
        if let open = speeds[way.highway] {
            if let verdict, Self.closingValues.contains(verdict) { return nil }
            kmh = limited(open, on: way)
        } else if let tagged = speedsWhenTagged[way.highway] {
            // Only the mode's own tags open a class closed to it: `access=yes` on a footway says the
            // footway is public, not that cars may drive it.
            guard let own = openingKeys.lazy.compactMap({ way.access[$0] }).first, Self.openingValues.contains(own) else { return nil }
            kmh = tagged
        } else {
            return nil
        }
        if way.highway == "track", let usableTrackTypes {
            guard let grade = way.tracktype, usableTrackTypes.contains(grade) else { return nil }
        }
        return kmh / 3.6
    }

    /// A car drives this share of a road's speed limit (OSRM's `car.lua`, `speed_reduction`).
    public static let carSpeedReduction = 0.8

    /// `kmh`, the class's speed, as the road's speed limit changes it (`WayInfo.maxspeed`), as in
    /// OSRM's profiles: a car drives `carSpeedReduction` of the limit instead, on any road but a
    /// track (whose speed says how rough it is); a bicycle keeps under the limit; a pedestrian is
    /// never near it.
    func limited(_ kmh: Double, on way: WayInfo) -> Double {
        guard let limit = way.maxspeed, limit > 0 else { return kmh }
        switch mode {
        case .drive: return way.highway == "track" ? kmh : limit * Self.carSpeedReduction
        case .cycle: return min(kmh, limit)
        case .walk: return kmh
        }
    }

    /// `highway` classes a rider of the mode could take for the way on even where the mode may not
    /// use them: they belong to its junction graph, drawn in tulips but never a choice. For a car,
    /// every carriageway (a private drive, a rough track, a pedestrian street look like roads);
    /// footways, paths, cycleways and steps do not, so a pedestrian crossing is no junction.
    public let lookalikeClasses: Set<String>

    /// Whether `way` is in the mode's junction graph: the mode may use it, or it looks like a road
    /// the mode would use (`lookalikeClasses`). O(number of access keys).
    public func inJunctionGraph(_ way: WayInfo) -> Bool {
        lookalikeClasses.contains(way.highway) || speed(on: way) != nil
    }

    /// The junction graph of the mode: `graph` with only the ways `inJunctionGraph` keeps.
    /// O(nodes + edges).
    public func junctionGraph(of graph: RoadGraph) -> RoadGraph {
        graph.keepingWays(inJunctionGraph)
    }

    /// Whether the mode may go along `edge` of `graph`: the way is usable and, when the mode obeys
    /// oneways, the edge runs the allowed way. O(1) besides `speed(on:)`.
    public func allows(_ edge: GraphEdge, in graph: RoadGraph) -> Bool {
        guard speed(on: graph.ways[edge.way]) != nil else { return false }
        return !obeysOneway || graph.canTravel(edge)
    }

    /// The fastest speed of the mode in m/s: travel time at this speed along the straight line
    /// is a lower bound of any route's time (the A* heuristic).
    public var maximumSpeed: MetresPerSecond {
        (Array(speeds.values) + Array(speedsWhenTagged.values)).max().map { $0 / 3.6 } ?? 1
    }

    /// A car. Classes and speeds from OSRM's `car.lua`. Tracks: OSRM's car.lua never uses them;
    /// a road book often runs on them, so a car may take a track whose `tracktype` is `grade1`
    /// (paved or heavily compacted) or `grade2` (gravel), which an ordinary car drives in any
    /// weather, at 15 km/h; grades 3–5 (soft, grass) and untagged tracks are left out because
    /// nothing says a car gets through. A path, bridleway, cycleway, footway or pedestrian street
    /// that its mapper opened to cars (`motorcar` or `motor_vehicle` = `yes`, `designated`, …: a
    /// mountain path that is also the access road to a farm) is driven at 10 km/h, `car.lua`'s
    /// speed for a way open to cars whose class it does not list. `oneway` and roundabouts bind.
    /// Turns cost what `car.lua` makes them cost (`TurnCosts.car`).
    public static let drive = TravelRules(
        mode: .drive,
        speeds: [
            "motorway": 90, "motorway_link": 45, "trunk": 85, "trunk_link": 40,
            "primary": 65, "primary_link": 30, "secondary": 55, "secondary_link": 25,
            "tertiary": 40, "tertiary_link": 20, "unclassified": 25, "residential": 25,
            "living_street": 10, "service": 15, "road": 25, "track": 15,
        ],
        speedsWhenTagged: ["path": 10, "bridleway": 10, "cycleway": 10, "footway": 10, "pedestrian": 10],
        accessKeys: ["motorcar", "motor_vehicle", "vehicle", "access"],
        openingKeys: ["motorcar", "motor_vehicle"],
        obeysOneway: true,
        usableTrackTypes: ["grade1", "grade2"],
        turnCosts: .car)

    /// A bicycle. 15 km/h on roads and cycleways (OSRM `bicycle.lua`'s default speed), 12 km/h on
    /// tracks and paths (loose surface), 4 km/h pushed along footways and pedestrian streets where
    /// `bicycle=yes` allows it (OSRM's walking speed for a pushed bicycle), 2 km/h carried up steps. Motorways never; trunk roads yes, as in OSRM's bicycle.lua: in
    /// Andorra and most of Europe they are open to bicycles unless signed as motor roads, and that
    /// sign (`motorroad=yes`) is not among the tags the graph keeps, so a trunk tagged
    /// `bicycle=no` is the only one closed. Oneways bind: `oneway:bicycle=no` is not kept in
    /// `WayInfo`, so a contraflow cycle lane is not known and the bicycle keeps to the oneway.
    /// Turns cost what `bicycle.lua` makes them cost (`TurnCosts.bicycle`).
    public static let cycle = TravelRules(
        mode: .cycle,
        speeds: [
            "trunk": 15, "trunk_link": 15, "primary": 15, "primary_link": 15, "secondary": 15, "secondary_link": 15,
            "tertiary": 15, "tertiary_link": 15, "unclassified": 15, "residential": 15, "living_street": 10,
            "service": 15, "road": 15, "cycleway": 15, "track": 12, "path": 12, "bridleway": 8,
        ],
        speedsWhenTagged: ["footway": 4, "pedestrian": 4, "steps": 2],
        accessKeys: ["bicycle", "vehicle", "access"],
        obeysOneway: true,
        turnCosts: .bicycle)

    /// A pedestrian: 5 km/h (OSRM `foot.lua`'s walking speed) on everything but motorways, 2 km/h
    /// on steps (OSRM's `foot.lua` slows steps likewise). Oneways do not bind a pedestrian, and
    /// turns cost nothing (`foot.lua` costs only a U-turn, which a quickest walk never makes).
    public static let walk = TravelRules(
        mode: .walk,
        speeds: [
            "trunk": 5, "trunk_link": 5, "primary": 5, "primary_link": 5, "secondary": 5, "secondary_link": 5,
            "tertiary": 5, "tertiary_link": 5, "unclassified": 5, "residential": 5, "living_street": 5,
            "service": 5, "road": 5, "track": 5, "path": 5, "footway": 5, "pedestrian": 5, "cycleway": 5,
            "bridleway": 5, "steps": 2,
        ],
        speedsWhenTagged: ["motorway": 5, "motorway_link": 5],
        accessKeys: ["foot", "access"],
        obeysOneway: false)
}

/// What a node's mark does to a mode going through the node.
public enum NodePassage: Sendable, Equatable {
    /// Nothing: the mode passes.
    case open
    /// A gate to open: the mode passes, and it costs this many seconds.
    case gate(TimeInterval)
    /// The mode cannot pass: it may reach the node and turn round there, not go on.
    case closed
}

extension TravelRules {
    /// Barriers a car passes, as OSRM's `car.lua` (its `barrier_whitelist`).
    public static let carPassableBarriers: Set<String> = [
        "cattle_grid", "border_control", "toll_booth", "sally_port", "no", "entrance", "height_restrictor", "arch",
    ]
    /// Barriers a car passes after opening them, and the seconds that costs (`car.lua`'s `barrier_penalties`).
    public static let carGates: [String: TimeInterval] = ["gate": 60, "lift_gate": 60]
    /// Barriers a bicycle or a pedestrian cannot pass (`bicycle.lua`'s and `foot.lua`'s `barrier_blacklist`):
    /// a bollard or a stile stops a car, not them.
    public static let blockingBarriersForRiders: Set<String> = ["yes", "wall", "fence"]

    /// What the node `mark` does to the mode, as OSRM's profiles read it in `process_node`:
    /// - an access tag on the node for the mode (`accessKeys`, most specific first; of a list such as
    ///   `no;destination` the part that opens most) decides alone: a value that closes a way to the
    ///   mode (`closingValues`) closes the node, any other opens it, whatever the barrier; a bicycle
    ///   ignores access on a crossing (`highway=crossing`), which speaks of the road crossed;
    /// - else a barrier: a car passes the few `carPassableBarriers`, a rising bollard, a lowered or
    ///   flush kerb, a kerb mapped on a crossing and a fence that is only heard (`sensory=audible`),
    ///   opens gates (`carGates`), and stops at any other; a bicycle or a pedestrian stops only at a
    ///   wall or a fence (`blockingBarriersForRiders`);
    /// - a node without either is open (a turning place says only where one may turn round).
    public func passage(at mark: OSMNodeMark) -> NodePassage {
        let tags = mark.tags
        let crossing = tags["highway"] == "crossing"
        if !(mode == .cycle && crossing), let value = accessKeys.lazy.compactMap({ tags[$0] }).first {
            let parts = value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            return parts.contains(where: { !Self.closingValues.contains($0) }) || parts.isEmpty ? .open : .closed
        }
        guard let barrier = tags["barrier"] else { return .open }
        let audibleFence = barrier == "fence" && (tags["sensory"] == "audible" || tags["sensory"] == "audio")
        if audibleFence { return .open }
        switch mode {
        case .drive:
            if Self.carPassableBarriers.contains(barrier) || tags["bollard"] == "rising" { return .open }
            if tags["kerb"] == "lowered" || tags["kerb"] == "flush" || (barrier == "kerb" && crossing) { return .open }
            if let seconds = Self.carGates[barrier] { return .gate(seconds) }
            return .closed
        case .cycle:
            return Self.blockingBarriersForRiders.contains(barrier) ? .closed : .open
        case .walk:
            return Self.blockingBarriersForRiders.contains(barrier) && tags["bollard"] != "rising" ? .closed : .open
        }
    }
}
