import Foundation
import Geo
import Model

/// A note of the book that was a handle note (of a waypoint or any other handle), to become a
/// handle carrying it again when the route is traced.
public struct TracedHandleNote: Sendable, Equatable {
    /// Metres along the route where the note sits.
    public var distanceAlong: Metres
    /// The note's own position (a waypoint's surveyed point), which the handle keeps.
    public var coordinate: Coordinate
    /// `.waypoint` or `.note`.
    public var origin: Handle.Origin
    public var note: HandleNote
    /// The waypoint's kind (`DSS`, `CP`…), which the handle keeps, and its row with it.
    public var waypointType: WaypointType?
    /// The book's note this is (`Handle.noteID`), so Apply keeps that row instead of adding another.
    public var noteID: Int?

    public init(distanceAlong: Metres, coordinate: Coordinate, origin: Handle.Origin, note: HandleNote,
                waypointType: WaypointType? = nil, noteID: Int? = nil) {
        self.distanceAlong = distanceAlong
        self.coordinate = coordinate
        self.origin = origin
        self.note = note
        self.waypointType = waypointType
        self.noteID = noteID
    }

    /// The handle for a book's note: its words as the instruction, its marker and kind kept, and
    /// the note's id, so the row stays the one row of that note.
    public init(_ note: Note, origin: Handle.Origin) {
        self.init(distanceAlong: note.distanceAlong, coordinate: note.coordinate, origin: origin,
                  note: HandleNote(text: note.text, marker: note.marker), waypointType: note.waypointType, noteID: note.id)
    }
}

extension RouteEditor {
    /// Lays handles along an existing route so it can be edited by hand ("Trace the current route
    /// into handles").
    ///
    /// Handles are evenly spaced, start and end included, the spacing nearest `traceSpacing` that
    /// divides the route, and at most `traceMaximumHandles` (the spacing grows on a longer route). Each note becomes a handle of
    /// its origin at its own position, in order of distance, and replaces a traced handle closer than
    /// `traceMergeDistance` along the route. Legs are as drawn, each keeping its stretch of the
    /// route, so the traced plan draws exactly the route it came from and asks nothing until a leg is
    /// switched to follow the road. The traced handles are `.drawn`: they move onto a road when one
    /// of their legs follows it.
    /// - Parameters:
    ///   - line: the route's line, in order of travel.
    ///   - notes: notes made from handles and waypoints; their distances along `line`.
    public static func traced(from line: [Coordinate], notes: [TracedHandleNote] = [], mode: TravelMode = .drive,
                              configuration: Configuration = Configuration()) -> RouteEditor {
        let route = Polyline(line)
        guard route.length > 0 else {
            let handles = line.prefix(1).map { Handle(id: 1, coordinate: $0, origin: .drawn) }
            return RouteEditor(plan: RoutePlan(handles: handles, mode: mode), configuration: configuration)
        }
        let legs = min(max(1, Int((route.length / configuration.traceSpacing).rounded())),
                       max(1, configuration.traceMaximumHandles - 1))
        let spacing = route.length / Double(legs)
        let noteStops = notes
            .map { (distance: min(max($0.distanceAlong, 0), route.length), note: Optional($0)) }
            .sorted { $0.distance < $1.distance }
        let tracedStops = (0...legs)
            .map { (distance: Double($0) * spacing, note: TracedHandleNote?.none) }
            .filter { stop in
                !noteStops.contains { abs($0.distance - stop.distance) < configuration.traceMergeDistance }
            }
        // Stable: at equal distances a traced stop comes before a note.
        let stops = (tracedStops + noteStops).enumerated()
            .sorted { ($0.element.distance, $0.offset) < ($1.element.distance, $1.offset) }
            .map(\.element)
        var plan = RoutePlan(mode: mode)
        for (k, stop) in stops.enumerated() {
            if let note = stop.note {
                plan.handles.append(Handle(id: k + 1, coordinate: note.coordinate, origin: note.origin, note: note.note,
                                           waypointType: note.waypointType, noteID: note.noteID))
            } else {
                plan.handles.append(Handle(id: k + 1, coordinate: route.coordinate(atDistance: stop.distance),
                                           origin: .drawn))
            }
            if k > 0 {
                let stroke = route.sliced(fromDistance: stops[k - 1].distance, toDistance: stop.distance).coordinates
                plan.legs.append(PlannedLeg(kind: .asDrawn, stroke: stroke))
            }
        }
        return RouteEditor(plan: plan, configuration: configuration)
    }
}
