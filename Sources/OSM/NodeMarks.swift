import Foundation

/// What a road node's tags say to travel along the road through it: a barrier (a bollard, a gate,
/// a fence across a track), an access tag on the node itself, or a place made for turning round
/// (`highway=turning_circle`, `turning_loop`, `mini_roundabout`). Only the keys in `keys` are kept;
/// a node without any of them has no mark. Which mode a mark stops is the travel rules' to say
/// (`TravelRules.passage(at:)`), as OSRM's profiles read these tags in their `process_node`.
public struct OSMNodeMark: Sendable, Equatable {
    /// The node's values of `keys`, and of no other key.
    public private(set) var tags: [String: String] = [:]

    /// The keys read from a node: the barrier and what qualifies it (a rising bollard, a lowered
    /// kerb, an audible fence), `highway` (a turning place, a crossing), and the access keys of
    /// ways (`WayInfo.accessKeys`).
    public static let keys = ["barrier", "highway", "bollard", "kerb", "sensory"] + WayInfo.accessKeys
    /// `keys` as C strings, for a reader that compares a key it holds as one without making a
    /// String of it (or of each key) per tag.
    static let cKeys: [[CChar]] = keys.map { Array($0.utf8CString) }

    /// The one of `keys` that the C string `key` spells, if any. O(keys).
    static func key(matching key: UnsafePointer<CChar>) -> String? {
        cKeys.firstIndex { strcmp(key, $0) == 0 }.map { keys[$0] }
    }
    /// `highway` values of a place made for turning round.
    public static let turningPlaces: Set<String> = ["turning_circle", "turning_loop", "mini_roundabout"]
    /// The longest value kept, in bytes: tag values of these keys are words; a longer one is damage
    /// or a crafted file, and is left out rather than kept whole.
    public static let maximumValueBytes = 64

    public init(tags: [String: String] = [:]) {
        for (key, value) in tags { set(key, value) }
    }

    /// Keeps `value` for `key` when `key` is one of `keys` and the value is not too long.
    public mutating func set(_ key: String, _ value: String) {
        guard Self.keys.contains(key), value.utf8.count <= Self.maximumValueBytes else { return }
        tags[key] = value
    }

    /// Whether the node says something to travel: a barrier, a turning place, or an access tag.
    /// A `highway` that is not a turning place (traffic signals, a crossing) with nothing else says
    /// nothing.
    public var matters: Bool {
        tags["barrier"] != nil || isTurningPlace || WayInfo.accessKeys.contains { tags[$0] != nil }
    }

    /// Whether the node is a place made for turning round.
    public var isTurningPlace: Bool { tags["highway"].map(Self.turningPlaces.contains) ?? false }
}
