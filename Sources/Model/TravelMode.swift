import Foundation

/// How the route is travelled: every road leg is asked for in this mode.
public enum TravelMode: String, Codable, Sendable, CaseIterable {
    case drive, cycle, walk

    /// As the messages say it: "No driving route from 2 to 3".
    public var gerund: String {
        switch self {
        case .drive: "driving"
        case .cycle: "cycling"
        case .walk: "walking"
        }
    }
}

/// Answers are stored keyed by mode name (`{"drive": …}`), not as a flat array of keys and values.
extension TravelMode: CodingKeyRepresentable {}

/// The side of the road traffic keeps to. It decides which way a roundabout is driven round (where
/// traffic keeps right, anticlockwise) and which turns cross oncoming traffic. A map's rings say it
/// themselves; a track without a map, and the embedded router's turn costs, are told it.
public enum DrivingSide: String, Codable, Sendable, CaseIterable {
    case right, left
}
