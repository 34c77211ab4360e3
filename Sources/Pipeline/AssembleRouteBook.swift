import Foundation
import Geo
import Model

/// Builds a book from a route drawn through handles: the route is the editor's line, every handle
/// note sits at the exact distance where the route reaches its handle (not projected afterwards),
/// and the turns at the junctions of the road legs become turn notes (joining a handle note when
/// close to it). The plan is stored so the route reopens editable.
/// - Parameters:
///   - editor: the route, its road legs already resolved.
///   - turns: whether to add turn notes from the road legs' junctions.
public func assembleRouteBook(title: String, editor: RouteEditor, settings: BookSettings = BookSettings(),
                              turns: Bool = true, detector: TurnDetector = TurnDetector(),
                              joiner: TurnJoiner = TurnJoiner()) -> Book {
    let line = editor.line()
    let polyline = Polyline(line)
    let handles = editor.plan.handles
    let notes = editor.handleNotes().enumerated().map { i, placement -> Note in
        let origin = handles.first { $0.id == placement.handleID }?.origin
        return Note(id: i + 1, kind: origin == .waypoint ? .waypoint : .typed, distanceAlong: placement.distanceAlong,
                    coordinate: placement.coordinate, text: placement.note.text, marker: placement.note.marker,
                    cap: polyline.heading(atDistance: placement.distanceAlong, lookahead: Thresholds.capLookahead),
                    handleID: placement.handleID, wordsEdited: placement.note.wordsEdited)
    }
    var book = Book(title: title, settings: settings,
                    route: Route(source: editor.engineName.map { "handles, roads by \($0)" } ?? "handles",
                                 points: line.map { RoutePoint(coordinate: $0) }),
                    notes: notes)
    if turns {
        book.notes = joiner.join(detector.maneuvers(in: editor.geometry()), into: book.notes)
    }
    book.plan = editor.plan
    return book
}
