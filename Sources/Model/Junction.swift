import Foundation
import Geo

/// One road leaving a junction.
public struct Spoke: Codable, Sendable, Equatable {
    /// Compass bearing of the road leaving the junction, in [0, 360), measured from the junction
    /// to the point 20–30 m along the road (not to its first vertex, which may sit a metre away).
    /// The entry spoke points back the way the route came.
    public var bearing: Degrees
    /// The road the route arrives on, the one it leaves on, or another.
    public var role: RoadRole
    /// `highway=*` of the road (motorway … track, path), when known.
    public var highway: String?
    /// `surface=*` or `tracktype=*`, when known.
    public var surface: String?
    public var name: String?
    public var ref: String?
    /// False when the travel mode cannot leave along the road: it is one-way towards the junction,
    /// or closed to the mode (a private drive, a rough track for a car). Such a road is drawn, but
    /// it is no choice and no roundabout exit.
    public var canLeave: Bool
    /// The spoke is part of a roundabout's ring.
    public var isRoundabout: Bool

    public init(bearing: Degrees, role: RoadRole, highway: String? = nil, surface: String? = nil, name: String? = nil,
                ref: String? = nil, canLeave: Bool = true, isRoundabout: Bool = false) {
        self.bearing = bearing
        self.role = role
        self.highway = highway
        self.surface = surface
        self.name = name
        self.ref = ref
        self.canLeave = canLeave
        self.isRoundabout = isRoundabout
    }

    /// How the road is drawn in a tulip, from its highway class and surface.
    public var roadClass: Tulip.RoadClass {
        let unpaved = ["unpaved", "gravel", "fine_gravel", "dirt", "earth", "ground", "grass", "sand", "mud",
                       "compacted", "pebblestone", "grade2", "grade3", "grade4", "grade5"]
        switch highway ?? "" {
        case "motorway", "motorway_link", "trunk", "trunk_link": return .motorway
        case "track": return (surface == "grade1" || surface == "asphalt" || surface == "paved") ? .tarmac : .track
        case "path", "footway", "bridleway", "cycleway", "steps", "pedestrian": return .path
        default: return surface.map { unpaved.contains($0) } == true ? .gravel : .tarmac
        }
    }
}

/// A place where the route meets other roads (or turns at the end of one).
public struct Junction: Codable, Sendable, Equatable {
    /// The junction's node.
    public var coordinate: Coordinate
    /// Distance along the route in metres.
    public var distanceAlong: Metres
    /// Every road at the junction, the entry and the exit among them.
    public var spokes: [Spoke]
    /// OpenStreetMap node id, when the junction comes from a map.
    public var nodeID: Int64?
    /// Roads of a roundabout met after the exit taken, each at its own node's bearing, with the
    /// role `side`, in the order traffic meets them; no exit is counted among them, and they are
    /// drawn in the roundabout's tulip. At the node where the route leaves a ring (or meets it and
    /// leaves it at once, a map's junction): the roads meeting the ring at the nodes the route does
    /// not pass, from this node on round the ring back to where the route joined it. In a
    /// roundabout's combined junction (`GeneratedTurn.junction`): every road met after the exit,
    /// present even when there is none, `spokes` holding the entry, the roads met before the exit
    /// and the exit. Nil elsewhere, and where nobody said (a routing engine's junctions, books
    /// before it).
    public var ringArms: [Spoke]?

    public init(coordinate: Coordinate, distanceAlong: Metres, spokes: [Spoke], nodeID: Int64? = nil,
                ringArms: [Spoke]? = nil) {
        self.coordinate = coordinate
        self.distanceAlong = distanceAlong
        self.spokes = spokes
        self.nodeID = nodeID
        self.ringArms = ringArms
    }

    public var entry: Spoke? { spokes.first { $0.role == .entry } }
    public var exit: Spoke? { spokes.first { $0.role == .exit } }

    /// The turn from entry to exit, in (−180, 180]: 0 straight on, + right.
    public var turnAngle: Degrees? {
        guard let entry, let exit else { return nil }
        return normalizedTurn(exit.bearing - (entry.bearing + 180))
    }
}

/// The resolved line of a route and, where it was matched onto a road network, the junctions
/// it passes.
public struct RoadGeometry: Sendable, Equatable {
    public var line: [Coordinate]
    public var junctions: [Junction]

    public init(line: [Coordinate], junctions: [Junction] = []) {
        self.line = line
        self.junctions = junctions
    }
}

extension Junction {
    /// Bearings this close (degrees) are one road drawn again: a new reading of the same junction
    /// moves its roads by a few degrees; a road added, taken away or turned further is another junction.
    public static let sameRoadTolerance: Degrees = 10

    /// Whether `other` has the same roads as this junction (its roads after a roundabout's exit,
    /// `ringArms`, among them): as many, with the same roles, each within `sameRoadTolerance` of its
    /// bearing here. A tulip drawn by hand at a junction that is no longer the same is flagged for
    /// the organiser to check.
    public func sameRoads(as other: Junction) -> Bool {
        let roads = spokes + (ringArms ?? []), others = other.spokes + (other.ringArms ?? [])
        guard roads.count == others.count else { return false }
        func key(_ s: Spoke) -> (Int, Degrees) { (s.role == .entry ? 0 : s.role == .exit ? 1 : 2, s.bearing) }
        let mine = roads.map(key).sorted { $0 < $1 }, theirs = others.map(key).sorted { $0 < $1 }
        return zip(mine, theirs).allSatisfy { a, b in
            a.0 == b.0 && abs(normalizedTurn(a.1 - b.1)) <= Self.sameRoadTolerance
        }
    }
}
