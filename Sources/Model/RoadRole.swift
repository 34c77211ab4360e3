import Foundation

/// What a road at a junction is to the route: the one it arrives on, the one it leaves on, or
/// another. A junction's spokes and a tulip's roads both carry it.
public enum RoadRole: String, Codable, Sendable {
    /// The road the route arrives on.
    case entry
    /// The road the route leaves on.
    case exit
    /// Any other road at the junction.
    case side
}
