import Foundation
import Geo
import Model
import Synchronization

/// What the turn passes did with each junction, in words: which pass kept, merged or dropped it,
/// which handler (which kind of junction) decided when the pass asks handlers, and why.
/// `roadbook inspect --explain` prints it; each pass records as it decides, like the combine log of
/// Valhalla's maneuver builder.
public final class TurnTrace: Sendable {
    /// One decision about one junction.
    public struct Entry: Sendable, Equatable {
        /// Distance along the route of the junction, in metres.
        public var distanceAlong: Metres
        public var coordinate: Coordinate
        /// OpenStreetMap node id, when the junction comes from a map.
        public var nodeID: Int64?
        /// The pass that decided (`TurnDetector.passes` names).
        public var pass: String
        /// The handler of the pass that decided, for a pass that asks handlers (`JunctionHandler.name`):
        /// the kind of junction it took it for.
        public var handler: String?
        /// What it decided, and why.
        public var verdict: String
    }

    private let entries = Mutex<[Entry]>([])

    public init() {}

    /// Records `verdict` of `pass` (and of its `handler`, when a handler decided) for every junction of
    /// `junctions`.
    public func record(_ junctions: [Junction], pass: String, handler: String? = nil, _ verdict: String) {
        let new = junctions.map {
            Entry(distanceAlong: $0.distanceAlong, coordinate: $0.coordinate, nodeID: $0.nodeID, pass: pass, handler: handler,
                  verdict: verdict)
        }
        entries.withLock { $0 += new }
    }

    /// Every decision, in the order made.
    public var decisions: [Entry] { entries.withLock { $0 } }

    /// The decisions grouped by junction (node and place), junctions in route order, each junction's
    /// decisions in the order made.
    public var byJunction: [[Entry]] {
        var order: [String] = []
        var groups: [String: [Entry]] = [:]
        for entry in decisions {
            let key = "\(entry.nodeID ?? 0)@\(Int(entry.distanceAlong.rounded()))"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(entry)
        }
        return order.map { groups[$0]! }.sorted { $0[0].distanceAlong < $1[0].distanceAlong }
    }
}
