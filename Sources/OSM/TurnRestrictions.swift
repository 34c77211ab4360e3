import Foundation

/// The turn restrictions of a `RoadGraph`, keyed by the graph index of their via node.
///
/// Each entry says: at via node N, coming from a way with OpenStreetMap id F, a `no` entry forbids
/// going on into a way with id T, an `only` entry forbids going on into any way but T. Ways are
/// matched by OpenStreetMap id, so a way the graph split at an extract border (several
/// `RoadGraph.ways` with one id) is restricted on every piece that meets N. `OSMGraph.build` keeps
/// only restrictions whose from and to ways begin or end at the via node, as the OSM wiki requires
/// (https://wiki.openstreetmap.org/wiki/Relation:restriction), so an id names one side of N; it
/// leaves out those whose from and to ways are the same way (a `no_u_turn` on one way), which a
/// router that never reverses on a road (except at a dead end) already obeys.
///
/// Memory: 24 bytes an entry, in one array sorted by via node. A query is O(log r + k) for r
/// entries and k at the node.
public struct TurnRestrictions: Sendable, Equatable {
    /// One restriction at one via node.
    public struct Entry: Sendable, Equatable {
        /// Graph index of the via node.
        public var via: Int32
        public var only: Bool
        public var vehicles: RestrictedVehicles
        /// OpenStreetMap id of the way one comes from.
        public var fromWayID: Int64
        /// OpenStreetMap id of the way a `no` entry forbids, or the one an `only` entry requires.
        public var toWayID: Int64

        public init(via: Int, only: Bool, vehicles: RestrictedVehicles, fromWayID: Int64, toWayID: Int64) {
            self.via = Int32(via)
            self.only = only
            self.vehicles = vehicles
            self.fromWayID = fromWayID
            self.toWayID = toWayID
        }
    }

    /// The entries, sorted by via node (stable: file order within a node).
    public let entries: [Entry]

    /// No restrictions.
    public init() { entries = [] }

    /// The restrictions `entries`, in any order. O(r log r).
    public init(_ entries: [Entry]) {
        self.entries = entries.enumerated().sorted { a, b in
            a.element.via != b.element.via ? a.element.via < b.element.via : a.offset < b.offset
        }.map(\.element)
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// The via nodes, ascending, each once. O(r).
    public var viaNodes: [Int] {
        var result: [Int] = []
        for e in entries where result.last != Int(e.via) { result.append(Int(e.via)) }
        return result
    }

    /// The entries at `node`. O(log r).
    public func entries(at node: Int) -> ArraySlice<Entry> {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if Int(entries[middle].via) < node { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < entries.count && Int(entries[end].via) == node { end += 1 }
        return entries[low..<end]
    }

    /// Whether any restriction binding `vehicles` has its via at `node`. O(log r).
    public func restricts(_ node: Int, for vehicles: RestrictedVehicles) -> Bool {
        entries(at: node).contains { !$0.vehicles.isDisjoint(with: vehicles) }
    }

    /// Whether a vehicle of `vehicles` may go from the way with OpenStreetMap id `fromWayID` into
    /// the way with id `toWayID` at graph node `node`: false when a `no` entry there forbids
    /// exactly that turn or an `only` entry from that way requires another. Empty `vehicles`
    /// (walking) are never restricted. O(log r + entries at the node).
    public func allows(fromWayID: Int64, at node: Int, toWayID: Int64, for vehicles: RestrictedVehicles) -> Bool {
        guard !vehicles.isEmpty, !entries.isEmpty else { return true }
        for e in entries(at: node) where e.fromWayID == fromWayID && !e.vehicles.isDisjoint(with: vehicles) {
            if e.only ? e.toWayID != toWayID : e.toWayID == toWayID { return false }
        }
        return true
    }
}

extension RoadGraph {
    /// Whether a vehicle of `vehicles` may turn at `node` from way `fromWay` into way `toWay`
    /// (indices into `ways`), by `turnRestrictions`. Oneway tags are not considered (`canTravel`).
    /// O(log r + restrictions at the node).
    public func allowsTurn(fromWay: Int, at node: Int, toWay: Int, for vehicles: RestrictedVehicles) -> Bool {
        turnRestrictions.allows(fromWayID: ways[fromWay].id, at: node, toWayID: ways[toWay].id, for: vehicles)
    }
}
