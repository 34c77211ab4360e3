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
