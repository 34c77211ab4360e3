import Foundation
import Geo
import Model

/// A note still to be placed on the route: a waypoint or checkpoint from a file, or a note of a book
/// being regenerated.
public struct NoteInput: Sendable, Equatable {
    public var coordinate: Coordinate
    /// The instruction.
    public var text: String
    /// A short name such as `CP1`.
    public var marker: String?
    public var waypointType: WaypointType?
    /// Where it came from, for messages (for example `track.gpx:41`).
    public var source: String?

    public init(coordinate: Coordinate, text: String, marker: String? = nil, waypointType: WaypointType? = nil,
                source: String? = nil) {
        self.coordinate = coordinate
        self.text = text
        self.marker = marker
        self.waypointType = waypointType
        self.source = source
    }

    /// Control points the rider must pass are checkpoints; every other waypoint is a waypoint.
    var kind: Note.Kind {
        switch waypointType {
        case .cp?, .dss?, .ass?, .wpc?: return .checkpoint
        default: return .waypoint
        }
    }
}

/// The book assembled from a route and its notes, with what needed attention.
public struct AssembledBook: Sendable {
    public var book: Book
    public var offRoute: [OffRouteNote]
    /// The route's length, measured once while placing the notes, so that a caller that reports it
    /// does not measure the whole route again.
    public var routeLength: Metres
}

/// Builds a book: the route becomes the book's route, every input note is located by distance
/// along it and gets its CAP, and the notes are put in route order.
///
/// - Parameters:
///   - title: printed in the header.
///   - route: at least two points.
///   - notes: in file order; their order settles which pass of a twice-driven road each is on.
///   - settings: `offRouteDistance` is the off-route threshold.
///   - offRoute: what becomes of notes off the route.
/// - Complexity: O(points log points + notes × passes²).
public func assembleBook(title: String, route: Route, notes: [NoteInput], settings: BookSettings = BookSettings(),
                         offRoute resolution: OffRouteResolution = .keep) -> AssembledBook {
    let line = Polyline(route.coordinates)
    let locator = NoteLocator(route: line, configuration: .init(offRouteDistance: settings.offRouteDistance))
    let locations = locator.locate(notes.map(\.coordinate))

    var placed: [(note: Note, order: Int)] = []
    var offRoute: [OffRouteNote] = []
    for (i, (input, location)) in zip(notes, locations).enumerated() {
        if !location.isOnRoute {
            offRoute.append(OffRouteNote(id: i + 1, text: input.text, marker: input.marker, source: input.source,
                                         distanceAlong: location.distanceAlong, offset: location.offsetFromRoute,
                                         resolution: resolution))
            if resolution == .remove { continue }
        }
        let note = Note(
            id: i + 1, kind: input.kind, distanceAlong: location.distanceAlong, coordinate: input.coordinate,
            offsetFromRoute: location.offsetFromRoute,
            placement: location.isOnRoute || resolution == .move ? .onRoute : .offRoute,
            text: input.text, marker: input.marker, waypointType: input.waypointType,
            cap: line.heading(atDistance: location.distanceAlong, lookahead: Thresholds.capLookahead),
            resetsOdometer: input.waypointType == .dss)
        placed.append((note, i))
    }
    placed.sort { ($0.note.distanceAlong, $0.order) < ($1.note.distanceAlong, $1.order) }
    let book = Book(title: title, settings: settings, route: route, notes: placed.map(\.note))
    return AssembledBook(book: book, offRoute: offRoute, routeLength: line.length)
}
