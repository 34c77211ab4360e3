import Foundation
import Geo

/// A point the route goes through, numbered from 1 in the route.
public struct Handle: Codable, Sendable, Equatable, Identifiable {
    /// Where the handle came from: tapped or drawn on the map, typed as a coordinate, a waypoint, or
    /// placed for a note (a row of the book). Coordinates and waypoints are surveyed points: the
    /// route goes to them and they never move onto the road; the others do.
    public enum Origin: String, Codable, Sendable {
        case tapped, drawn, coordinate, waypoint, note

        /// Surveyed points stay where they are when a road arrives.
        public var isSurveyed: Bool { self == .coordinate || self == .waypoint }
    }

    /// Stable identity, kept through moves, reorders and undo.
    public var id: Int
    public var coordinate: Coordinate
    public var origin: Origin
    /// Where the handle was placed, before any snapping onto a road.
    public var placed: Coordinate
    /// The handle note: words the handle carries into the book as a row.
    public var note: HandleNote?
    /// What the handle is called, such as "Canillo" or "CG-2": a GPX point's name, or the nearest
    /// named place or road of the map; nil when unknown (the handle is then known by its
    /// coordinate). The first and last handles' names name a route ("Canillo → Encamp").
    public var name: String?
    /// A waypoint's type (`DSS`, `CP`…, as a GPX `<type>` or `<sym>` gives it), which its row keeps.
    public var waypointType: WaypointType?
    /// The id of the book's note this handle was traced from (a route traced into handles gives each
    /// waypoint row a handle carrying its words): Apply keeps that very row, with its tulip, odometer
    /// reset and everything else a person set, at the handle, rather than adding a second row from
    /// the handle's words. nil for a handle drawn, typed or tapped; cleared once Apply has linked
    /// the row to the handle (`Note.handleID`).
    public var noteID: Int?

    public init(id: Int, coordinate: Coordinate, origin: Origin, note: HandleNote? = nil, name: String? = nil,
                waypointType: WaypointType? = nil, noteID: Int? = nil) {
        self.id = id
        self.coordinate = coordinate
        self.origin = origin
        self.placed = coordinate
        self.note = note
        self.name = name
        self.waypointType = waypointType
        self.noteID = noteID
    }
}

/// A handle note: words a handle carries, printed as a row of the book at the exact distance where
/// the route reaches the handle.
public struct HandleNote: Codable, Sendable, Equatable {
    /// The instruction.
    public var text: String
    /// A short name such as `CP1`.
    public var marker: String?
    /// When the words were last changed, as ISO 8601 in UTC (`2026-03-14T10:00:00Z`); nil when
    /// unknown. Compared with `Note.wordsEdited` of the handle's row when both were changed.
    public var wordsEdited: String?

    public init(text: String, marker: String? = nil, wordsEdited: String? = nil) {
        self.text = text
        self.marker = marker
        self.wordsEdited = wordsEdited
    }
}
