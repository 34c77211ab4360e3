import Foundation
import Geo

/// A point the route goes through, numbered from 1 in the route.
public struct Handle: Codable, Sendable, Equatable, Identifiable {
    /// Where the handle came from. Coordinates and waypoints are surveyed points: the route goes to
    /// them and they never move onto the road; tapped and drawn handles do.
    public enum Origin: String, Codable, Sendable {
        case tapped, drawn, coordinate, waypoint, courseNote

        /// Surveyed points stay where they are when a road arrives.
        public var isSurveyed: Bool { self == .coordinate || self == .waypoint }
    }

    /// A note carried by a handle: placed at the exact distance where the route reaches the handle.
    public struct CourseNote: Codable, Sendable, Equatable {
        public var text: String
        public var marker: String?
        public init(text: String, marker: String? = nil) {
            self.text = text
            self.marker = marker
        }
    }

    /// Stable identity, kept through moves, reorders and undo.
    public var id: Int
    public var coordinate: Coordinate
    public var origin: Origin
    /// Where the handle was placed, before any snapping onto a road.
    public var placed: Coordinate
    public var note: CourseNote?

    public init(id: Int, coordinate: Coordinate, origin: Origin, note: CourseNote? = nil) {
        self.id = id
        self.coordinate = coordinate
        self.origin = origin
        self.placed = coordinate
        self.note = note
    }
}
