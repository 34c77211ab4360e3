import Foundation
import Geo
import Model

/// One line of the cover's legend: a symbol as the book prints it and what it means.
public struct LegendEntry: Sendable, Equatable {
    /// What the sample shows; Render draws each its own way.
    public enum Symbol: Sendable, Equatable {
        /// The green start marker of the map.
        case start
        /// The red finish marker of the map.
        case finish
        /// The route line of the map where it runs one way: solid along roads, dashed in a straight
        /// line, dotted along a stroke drawn by hand (`RouteStretches`).
        case leg(LegKind)
        /// A waypoint type tag, as in the notes cell.
        case waypointType(WaypointType)
        /// "!", "!!" or "!!!" for levels 1 to 3.
        case danger(Int)
        /// The yellow CAP tag.
        case cap
        /// The red RESET mark in the distance cell.
        case odometerReset
        /// The green box round the distance when the next row follows within `Legend.closeRowDistance`.
        case closeNextRow
    }

    public var symbol: Symbol
    /// The sample's text, for example "WPM", "!!", "C.090"; empty for a drawn marker.
    public var sample: String
    /// What it means, in a few words.
    public var meaning: String

    public init(symbol: Symbol, sample: String, meaning: String) {
        self.symbol = symbol
        self.sample = sample
        self.meaning = meaning
    }
}

/// The legend of a book: only the symbols and waypoint types the book uses.
public enum Legend {
    /// The next row is "close" below this distance: at rally speed 300 m pass in under 15 s, so
    /// FIM and FIA books box the distance to warn the rider to read the next row now.
    public static let closeRowDistance: Metres = 300

    /// The entries for `book`, in a fixed order: map markers, the route's kinds of line (in the
    /// order of `LegKind.allCases`, each the map shows, where one is not along roads), waypoint types
    /// (in the order of `WaypointType.allCases`), danger levels, CAP, odometer reset, close next row.
    /// Only notes on the route count, as only they print as rows. O(notes + route points).
    public static func entries(for book: Book) -> [LegendEntry] {
        let notes = book.notes.filter { $0.placement == .onRoute }
        var entries: [LegendEntry] = []
        if book.route.points.count >= 2 {
            entries.append(LegendEntry(symbol: .start, sample: "", meaning: "Start of the route"))
            entries.append(LegendEntry(symbol: .finish, sample: "", meaning: "Finish of the route"))
        }
        // A route all along roads needs no word for its line; one with straight or drawn stretches
        // says what each kind of line the map shows means.
        let legs = Set(RouteStretches.of(book).map(\.kind))
        if legs.contains(where: { $0 != .road }) {
            for kind in LegKind.allCases where legs.contains(kind) {
                entries.append(LegendEntry(symbol: .leg(kind), sample: "", meaning: meaning(of: kind)))
            }
        }
        let types = Set(notes.compactMap(\.waypointType))
        for type in WaypointType.allCases where types.contains(type) {
            entries.append(LegendEntry(symbol: .waypointType(type), sample: type.rawValue, meaning: meaning(of: type)))
        }
        let dangers = Set(notes.map { min(3, max(0, $0.danger)) })
        for level in 1...3 where dangers.contains(level) {
            entries.append(LegendEntry(symbol: .danger(level), sample: DangerFormat.text(level) ?? "",
                                       meaning: dangerMeanings[level - 1]))
        }
        if notes.contains(where: { $0.cap != nil }) {
            entries.append(LegendEntry(symbol: .cap, sample: "C.090", meaning: "Compass heading (CAP) to follow"))
        }
        if notes.contains(where: \.resetsOdometer) {
            entries.append(LegendEntry(symbol: .odometerReset, sample: "RESET", meaning: "Set the trip meter to zero"))
        }
        if RowContent.hasRowCloser(than: closeRowDistance, in: book) {
            let sample = DistanceFormat.text(closeRowDistance * 0.5, units: book.settings.units)
            entries.append(LegendEntry(symbol: .closeNextRow, sample: sample,
                                       meaning: "Next row closer than \(Int(closeRowDistance)) m"))
        }
        return entries
    }

    private static let dangerMeanings = ["Caution", "Danger", "Great danger: slow right down"]

    /// The meaning of a kind of route line as printed in the legend.
    public static func meaning(of kind: LegKind) -> String {
        switch kind {
        case .road: "Route along the roads"
        case .straight: "Straight line between two points"
        case .asDrawn: "Line as drawn by hand"
        }
    }

    /// The meaning of a waypoint type as printed in the legend, after the FIM/FIA cross-country
    /// rules' definitions.
    public static func meaning(of type: WaypointType) -> String {
        switch type {
        case .wpm: "Masked waypoint: hidden on the GPS"
        case .wpv: "Visible waypoint: shown on the GPS"
        case .wps: "Safety waypoint: pass it, danger near"
        case .wpe: "Eclipse waypoint: GPS masked nearby"
        case .wpc: "Control waypoint: manned control"
        case .wpn: "Navigation waypoint"
        case .wpp: "Passage waypoint"
        case .dss: "Start of the selective section"
        case .ass: "Arrival of the selective section"
        case .cp: "Checkpoint: stop for the time card"
        case .dz: "Start of a speed-limited zone"
        case .fz: "End of the speed-limited zone"
        }
    }
}
