import Foundation
import Geo
import Model

/// A note of the book that was a handle note (of a waypoint or any other handle), to become a
/// handle carrying it again when the route is traced.
public struct TracedHandleNote: Sendable, Equatable {
    /// Metres along the route where the note sits: its handle is traced there.
    public var distanceAlong: Metres
    /// The note's own position (a waypoint's surveyed point, which may lie beside the road). The
    /// traced handle sits where the route passes it instead, at `distanceAlong`, so the traced legs
    /// follow the route and do not detour to the point and back.
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
    /// At most `traceMaximumHandles` handles in all, the notes' handles among them (only more when
    /// the notes alone are more). The route's start and end, and each note, are fixed stops; between
    /// two fixed stops drawn handles are laid evenly, the spacing the smallest of at least
    /// `traceSpacing` that keeps the total within the maximum, so on a long route the spacing grows.
    /// Each note becomes a handle of its origin where the route passes it (`distanceAlong`: a
    /// waypoint's projection on the line, not its own point beside the road), in order of distance;
    /// a note closer than `traceMergeDistance` to the route's start or end takes that end's place.
    /// Legs are as drawn, each keeping its stretch of the route, so the traced plan draws exactly the
    /// route it came from, as long as it, and asks nothing until a leg is switched to follow the
    /// road. The traced handles are `.drawn`: they move onto a road when one of their legs follows it.
    /// - Parameters:
    ///   - line: the route's line, in order of travel.
    ///   - notes: notes made from handles and waypoints; their distances along `line`.
    /// - Complexity: O(line + notes × log(route length / `traceSpacing`)).
    public static func traced(from line: [Coordinate], notes: [TracedHandleNote] = [], mode: TravelMode = .drive,
                              configuration: Configuration = Configuration()) -> RouteEditor {
        let route = Polyline(line)
        guard route.length > 0 else {
            let handles = line.prefix(1).map { Handle(id: 1, coordinate: $0, origin: .drawn) }
            return RouteEditor(plan: RoutePlan(handles: handles, mode: mode), configuration: configuration)
        }
        let stops = tracedStops(length: route.length, notes: notes, configuration: configuration)
        var plan = RoutePlan(mode: mode)
        for (k, stop) in stops.enumerated() {
            let coordinate = route.coordinate(atDistance: stop.distance)
            if let note = stop.note {
                plan.handles.append(Handle(id: k + 1, coordinate: coordinate, origin: note.origin, note: note.note,
                                           waypointType: note.waypointType, noteID: note.noteID))
            } else {
                plan.handles.append(Handle(id: k + 1, coordinate: coordinate, origin: .drawn))
            }
            if k > 0 {
                let stroke = route.sliced(fromDistance: stops[k - 1].distance, toDistance: stop.distance).coordinates
                plan.legs.append(PlannedLeg(kind: .asDrawn, stroke: stroke))
            }
        }
        return RouteEditor(plan: plan, configuration: configuration)
    }

    /// The traced route's stops in order: its ends and notes fixed, drawn stops evenly between them.
    private static func tracedStops(length: Metres, notes: [TracedHandleNote],
                                    configuration: Configuration) -> [(distance: Metres, note: TracedHandleNote?)] {
        // Notes by distance (stable), each clamped onto the route; one near an end sits at the end.
        var fixed: [(distance: Metres, note: TracedHandleNote?)] = notes.enumerated()
            .map { (offset: $0.offset, distance: min(max($0.element.distanceAlong, 0), length), note: $0.element) }
            .sorted { ($0.distance, $0.offset) < ($1.distance, $1.offset) }
            .map { stop in
                let distance = stop.distance <= configuration.traceMergeDistance ? 0
                    : stop.distance >= length - configuration.traceMergeDistance ? length : stop.distance
                return (distance, Optional(stop.note))
            }
        if fixed.first?.distance != 0 { fixed.insert((0, nil), at: 0) }
        if fixed.last?.distance != length { fixed.append((length, nil)) }
        let gaps = zip(fixed, fixed.dropFirst()).map { $1.distance - $0.distance }
        let budget = max(0, configuration.traceMaximumHandles - fixed.count)
        // Drawn stops inside a gap at `spacing`: the gap cut into the whole number of parts nearest it.
        func inside(_ gap: Metres, _ spacing: Metres) -> Int { max(0, Int((gap / spacing).rounded()) - 1) }
        func count(_ spacing: Metres) -> Int { gaps.reduce(0) { $0 + inside($1, spacing) } }
        var spacing = max(configuration.traceSpacing, 1)
        if count(spacing) > budget {
            // The smallest spacing within the budget: `count` only falls as the spacing grows, and at
            // twice the longest gap every gap is one part.
            var low = spacing, high = max(spacing, 2 * (gaps.max() ?? length))
            while high - low > 0.01 {
                let middle = (low + high) / 2
                if count(middle) > budget { low = middle } else { high = middle }
            }
            spacing = high
        }
        var stops = [fixed[0]]
        for (k, gap) in gaps.enumerated() {
            let parts = inside(gap, spacing) + 1
            for j in 1..<parts { stops.append((fixed[k].distance + gap * Double(j) / Double(parts), nil)) }
            stops.append(fixed[k + 1])
        }
        return stops
    }
}
