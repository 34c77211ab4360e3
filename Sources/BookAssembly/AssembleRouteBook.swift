import Foundation
import Geo
import Guidance
import Model
import RouteEditing

/// Builds a book from a route drawn through handles: the route is the editor's line, every handle
/// note sits at the exact distance where the route reaches its handle (not projected afterwards),
/// and the turns at the junctions of the road legs become turn notes (joining a handle note when
/// close to it). The plan is stored so the route reopens editable, and the route is described by its
/// longest named roads (`RouteNaming.description(of:)`).
/// - Parameters:
///   - editor: the route, its road legs already resolved.
///   - turns: whether to add turn notes from the road legs' junctions.
///   - joiner: joins the turns; nil for one in the language of `settings`.
public func assembleRouteBook(title: String, editor: RouteEditor, settings: BookSettings = BookSettings(),
                              turns: Bool = true, detector: TurnDetector = TurnDetector(),
                              joiner: TurnJoiner? = nil) -> Book {
    let line = editor.line()
    let polyline = Polyline(line)
    let handles = editor.plan.handles
    let notes = editor.handleNotes().enumerated().map { i, placement -> Note in
        let origin = handles.first { $0.id == placement.handleID }?.origin
        let handle = handles.first { $0.id == placement.handleID }
        return Note(id: i + 1, kind: origin == .waypoint ? .waypoint : .typed, distanceAlong: placement.distanceAlong,
                    coordinate: placement.coordinate, text: placement.note.text, marker: placement.note.marker,
                    waypointType: handle?.waypointType,
                    cap: polyline.heading(atDistance: placement.distanceAlong, lookahead: Thresholds.capLookahead),
                    handleID: placement.handleID, wordsEdited: placement.note.wordsEdited)
    }
    var book = Book(title: title, settings: settings,
                    route: Route(source: Route.handlesSource(roadsBy: editor.engineName),
                                 points: line.map { RoutePoint(coordinate: $0) }),
                    notes: notes)
    let geometry = editor.geometry()
    book.description = RouteNaming.description(of: geometry, engine: editor.engineName)
    if turns {
        let joiner = joiner ?? TurnJoiner(instructions: Instructions(language: settings.language))
        book.notes = joiner.join(detector.maneuvers(in: geometry), into: book.notes)
    }
    book.plan = editor.plan
    return book
}

/// The name and the description of a route drawn through handles, as a directions app gives them:
/// the name joins the first and the last handles' names with an arrow ("Canillo → Encamp"), the
/// description names the roads that carry most of the route and the engine that gave them
/// ("Route via CG-1 and CG-2 · OSRM Directions").
public enum RouteNaming {
    public struct Configuration: Sendable {
        /// The most roads a description names: two say which way the route goes and still fit on
        /// one line of the cover.
        public var maximumRoads = 2
        /// A road carrying less of the route than this share is not named: a short link between two
        /// main roads says nothing about the way.
        public var minimumShare = 0.1

        public init() {}
    }

    /// "Start → End" from the first and last handles' names; nil when either end has no name.
    public static func name(of handles: [Handle]) -> String? {
        guard handles.count >= 2 else { return nil }
        return RouteNames.name(start: handles.first?.name, end: handles.last?.name)
    }

    /// "Drive, 12.3 km": a name from the travel mode and the length, for a route whose ends have no name.
    public static func name(mode: TravelMode, length: Metres) -> String {
        RouteNames.name(mode: mode, length: length)
    }

    /// A book's description when a person has given none: the roads (`description(of:)`) and the
    /// engine that gave them, by its own name: "Route via CG-1 and CG-2 · OSRM Directions"; "Route
    /// via OSRM Directions" when no road is named, "Route via CG-1 and CG-2" without an engine; nil
    /// with neither.
    public static func description(of geometry: RoadGeometry, engine: String?,
                                   configuration: Configuration = Configuration()) -> String? {
        let roads = description(of: geometry, configuration: configuration)
        guard let engine = engine?.trimmingCharacters(in: .whitespaces), !engine.isEmpty else { return roads }
        return roads.map { "\($0) · \(engine) Directions" } ?? "Route via \(engine) Directions"
    }

    /// Whether `text` is a description this type gives the route of `plan` (with or without its
    /// engine's name, as books before the name had it), not one a person wrote.
    public static func isGenerated(_ text: String, for plan: RoutePlan, engine: String?) -> Bool {
        // A plan stored with its handles alone (no legs) has no roads to name.
        guard plan.legs.count == max(0, plan.handles.count - 1) else { return text == "Route via \(engine ?? "") Directions" }
        let geometry = RouteEditor(plan: plan).geometry()
        return text == description(of: geometry, engine: engine) || text == description(of: geometry)
    }

    /// "Route via A and B": the longest named roads of the route, in the order the route meets
    /// them. A road is known by its number (`ref`, "CG-2") when it has one, else its name; the
    /// stretch from one junction to the next is on the road the route leaves the first by (before
    /// the first junction, the road it arrives by). Nil when no road is named.
    ///
    /// Complexity: O(j log j) for j junctions.
    public static func description(of geometry: RoadGeometry, configuration: Configuration = Configuration()) -> String? {
        let length = Polyline(geometry.line).length
        let junctions = geometry.junctions.sorted { $0.distanceAlong < $1.distanceAlong }
        guard length > 0, let first = junctions.first else { return nil }
        func label(_ spoke: Spoke?) -> String? {
            [spoke?.ref, spoke?.name].compactMap { $0?.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
        }
        var metres: [String: Metres] = [:]
        var firstMet: [String: Metres] = [:]
        func credit(_ name: String?, from start: Metres, to end: Metres) {
            guard let name, end > start else { return }
            metres[name, default: 0] += end - start
            if firstMet[name] == nil { firstMet[name] = start }
        }
        credit(label(first.entry), from: 0, to: max(0, first.distanceAlong))
        for (i, junction) in junctions.enumerated() {
            let end = i + 1 < junctions.count ? junctions[i + 1].distanceAlong : length
            credit(label(junction.exit), from: max(0, junction.distanceAlong), to: min(end, length))
        }
        let roads = metres.filter { $0.value >= configuration.minimumShare * length }
            .sorted { ($0.value, firstMet[$1.key]!) > ($1.value, firstMet[$0.key]!) }
            .prefix(configuration.maximumRoads)
            .map(\.key)
            .sorted { firstMet[$0]! < firstMet[$1]! }
        guard !roads.isEmpty else { return nil }
        return "Route via " + (roads.count == 1 ? roads[0] : roads.dropLast().joined(separator: ", ") + " and " + roads.last!)
    }
}
