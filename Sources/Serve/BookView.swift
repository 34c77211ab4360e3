import Foundation
import Geo
import Layout
import Model
import Workflows

/// The book as the editor's page shows it (`GET /api/book`): its rows numbered as printed and
/// `inspect` numbers them, the route and the profile thinned to what a map and a chart draw, the
/// drawing's handles and legs (the draft's when there is one, else the book's plan).
public struct BookView: Encodable, Sendable, Equatable {
    /// Points of the route sent at most: a map draws no more on a screen.
    public static let maximumRoutePoints = 5_000
    /// Points of the profile sent at most.
    public static let maximumProfilePoints = 2_000

    public struct Status: Encodable, Sendable, Equatable {
        /// Whether the drawing is the book's route (nothing to apply).
        public var applied: Bool
        public var message: String
    }

    public struct Leg: Encodable, Sendable, Equatable {
        public var kind: String
        /// `ok`, `waiting` (still to ask, or waiting for a retry) or `failed` (no road in this mode).
        public var state: String
        public var message: String?
        public var line: [[Double]]
    }

    public struct HandleView: Encodable, Sendable, Equatable {
        /// From 1, as `handles list` numbers them.
        public var index: Int
        public var lat: Double
        public var lon: Double
        public var name: String?
    }

    public struct Row: Encodable, Sendable, Equatable {
        /// The printed row number, from 1.
        public var number: Int
        public var id: Int
        public var marker: String?
        /// Metres on the odometer (from the start, or from the last reset).
        public var total: Double
        /// Metres from the row before.
        public var partial: Double
        public var text: String
        public var danger: Int
        public var symbols: [String]
        public var cap: Int?
        public var waypointType: String?
        public var lat: Double
        public var lon: Double
        public var removed: Bool
        /// The odometer restarts at the row.
        public var reset: Bool
    }

    public struct RemovedRow: Encodable, Sendable, Equatable {
        public var id: Int
        public var text: String
    }

    /// A warning, with the place it applies to when it has one.
    public struct Warning: Encodable, Sendable, Equatable {
        /// The words, as the command line prints them.
        public var text: String
        /// Where it applies: a point of the leg's road, or the place of the note off the route.
        public var lat: Double?
        public var lon: Double?
        /// The leg it is about, from 1 as `handles list` numbers them (leg N runs from handle N to N + 1).
        public var leg: Int?
        /// The note it is about, by its id (`#ID` in a change): a note off the route has no printed row.
        public var row: Int?

        /// A leg's warning, at its place.
        init(_ warning: LegWarning) {
            self.init(text: warning.text, lat: warning.place?.latitude, lon: warning.place?.longitude, leg: warning.leg + 1)
        }

        public init(text: String, lat: Double? = nil, lon: Double? = nil, leg: Int? = nil, row: Int? = nil) {
            self.text = text
            self.lat = lat
            self.lon = lon
            self.leg = leg
            self.row = row
        }
    }

    public var revision: Int
    public var name: String
    public var units: String
    public var language: String
    public var status: Status
    public var route: [[Double]]
    public var legs: [Leg]
    public var handles: [HandleView]
    /// The drawing's travel mode and the kind of leg its new handles make; nil without a drawing.
    public var mode: String?
    public var newLegs: String?
    public var rows: [Row]
    public var removed: [RemovedRow]
    public var profile: [[Double]]
    /// The route's legs drawn straight, the drawing's leg warnings (as `handles list` prints them
    /// after each leg), the notes off the route.
    public var warnings: [Warning]

    /// The view of `book`, with the drawing `draft` when one is beside it.
    public init(book: Book, draft: RouteDraft?) {
        revision = book.revision ?? 0
        name = book.title
        units = book.settings.units.rawValue
        language = (book.settings.language ?? .en).rawValue
        route = Self.thinned(book.route.coordinates, to: Self.maximumRoutePoints).map { [$0.latitude, $0.longitude] }
        // A book without handles shows the handles its route traces into: the drawing its first
        // change starts from, numbered as that change numbers them.
        let plan = draft?.editor.plan ?? (book.route.coordinates.count > 1 ? RouteDraft.plan(of: book) : book.plan)
        // Without a draft the drawing is the book's route.
        let difference = draft.map { PlanDifference(drawing: $0.editor.plan, of: book) } ?? PlanDifference()
        status = Status(applied: difference.isEmpty, message: difference.statusLines(applyCommand: "Apply").joined(separator: "; "))
        handles = plan.map(Self.handles) ?? []
        mode = plan?.mode.rawValue
        newLegs = plan?.defaultLegKind.rawValue
        legs = plan.map(Self.legs) ?? []
        let onRoute = book.notes.filter { $0.placement == .onRoute }
        rows = zip(RowContent.rows(of: book), onRoute).map { row, note in
            Row(number: row.number, id: note.id, marker: row.marker, total: row.totalDistance, partial: row.partialDistance,
                text: note.text, danger: note.danger, symbols: note.symbols.map(\.name), cap: note.cap.map { Int($0.rounded()) },
                waypointType: note.waypointType?.rawValue, lat: note.coordinate.latitude, lon: note.coordinate.longitude, removed: false,
                reset: note.resetsOdometer)
        }
        removed = (book.deletedNotes ?? []).map { RemovedRow(id: $0.id, text: $0.note?.text ?? $0.text ?? "") }
        profile = book.profile.map(Self.profilePoints) ?? []
        var warnings: [Warning] = []
        if let straight = book.route.straightSummary { warnings.append(Warning(text: straight)) }
        warnings += LegWarning.drawing(of: book, draft: draft).map(Warning.init)
        for note in book.notes where note.placement == .offRoute {
            warnings.append(Warning(text: String(format: "#%d is %.0f m off the route: kept, not printed", note.id, abs(note.offsetFromRoute)),
                                    lat: note.coordinate.latitude, lon: note.coordinate.longitude, row: note.id))
        }
        self.warnings = warnings
    }

    /// The handles of `plan`, numbered from 1.
    static func handles(_ plan: RoutePlan) -> [HandleView] {
        plan.handles.enumerated().map {
            HandleView(index: $0.offset + 1, lat: $0.element.placed.latitude, lon: $0.element.placed.longitude, name: $0.element.name)
        }
    }

    /// The legs of `plan`, each with the line the map draws: the engine's road in the plan's mode,
    /// else the drawn stroke, else the straight line between its handles.
    static func legs(_ plan: RoutePlan) -> [Leg] {
        plan.legs.enumerated().map { index, leg in
            let ends = index + 1 < plan.handles.count ? [plan.handles[index].placed, plan.handles[index + 1].placed] : []
            let road = leg.kind == .road ? leg.answers[plan.mode] : nil
            let line = road?.line ?? leg.stroke ?? ends
            let state: String
            var message: String? = nil
            switch (leg.kind, leg.state) {
            case (.road, .noRoad?):
                state = "failed"
                message = "no road in this mode: drawn straight"
            case (.road, _) where leg.noRoadModes.contains(plan.mode):
                state = "failed"
                message = "no road in this mode: drawn straight"
            case (.road, let s?) where s.waitsForRetry:
                state = "waiting"
                message = s.detail.map { "\(s.name): \($0)" } ?? s.name
            case (.road, _) where road == nil:
                state = "waiting"
                message = "still to ask of the engine"
            default:
                state = "ok"
            }
            return Leg(kind: leg.kind.rawValue, state: state, message: message,
                       line: thinned(line, to: maximumRoutePoints).map { [$0.latitude, $0.longitude] })
        }
    }

    /// `[distance, height]` pairs of the profile's known heights, at most `maximumProfilePoints`.
    static func profilePoints(_ profile: Profile) -> [[Double]] {
        let known = profile.heights.enumerated().compactMap { i, h in h.map { [Double(i) * profile.spacing, $0] } }
        return thinned(known, to: maximumProfilePoints)
    }

    /// At most `limit` of `points`, evenly spaced by index, the first and the last always kept.
    static func thinned<T>(_ points: [T], to limit: Int) -> [T] {
        guard points.count > limit, limit >= 2 else { return points }
        let step = Double(points.count - 1) / Double(limit - 1)
        return (0..<limit).map { points[min(points.count - 1, Int((Double($0) * step).rounded()))] }
    }
}
