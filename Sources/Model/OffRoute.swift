import Foundation
import Geo

/// What becomes of a note farther from the route than the book's off-route distance: the choices a
/// route editor offers ("Move onto the route", "Remove", "Keep as it is"). `build` takes it for the
/// waypoints of a track, `apply` (and `route --retry`) for the notes a new route no longer passes.
public enum OffRouteResolution: String, CaseIterable, Sendable {
    /// Onto the route, at its nearest place, and printed there.
    case move
    /// Out of the book.
    case remove
    /// In the book as it is, off the route: not printed until the route passes it again.
    case keep
}

/// A note found farther from the route than the book's off-route distance, and what became of it.
public struct OffRouteNote: Sendable, Equatable, CustomStringConvertible {
    /// The note's id in the book (for a waypoint left out of a new book, the id it would have had).
    public var id: Int
    public var text: String
    public var marker: String?
    /// Where it was read from, for a waypoint of a file (`track.gpx:41`).
    public var source: String?
    /// Metres along the route to its nearest place.
    public var distanceAlong: Metres
    /// Signed metres from the route (+ right of travel).
    public var offset: Metres
    public var resolution: OffRouteResolution

    public init(id: Int, text: String, marker: String? = nil, source: String? = nil, distanceAlong: Metres, offset: Metres,
                resolution: OffRouteResolution) {
        self.id = id
        self.text = text
        self.marker = marker
        self.source = source
        self.distanceAlong = distanceAlong
        self.offset = offset
        self.resolution = resolution
    }

    /// "#7 'Cattle grid' at 3.20 km, 180 m left of the route: kept", as an Apply lists it.
    public var description: String {
        let name = marker.map { "\($0) '\(text)'" } ?? "'\(text)'"
        let done = switch resolution {
        case .move: "moved onto the route"
        case .remove: "removed"
        case .keep: "kept"
        }
        return String(format: "#%d %@ at %.2f km, %.0f m %@ of the route: %@", id, name, distanceAlong / 1000,
                      abs(offset), offset < 0 ? "left" : "right", done)
    }

    /// "track.gpx:41: CP1 is 180 m off the route (nearest at 3.20 km)", as `build` tells a waypoint
    /// and `regenerate` a note found off the route: by its marker (else its words) and its source.
    public var foundDescription: String {
        let place = source.map { "\($0): " } ?? ""
        return String(format: "%@%@ is %.0f m off the route (nearest at %.2f km)", place, marker ?? text,
                      abs(offset), distanceAlong / 1000)
    }
}
