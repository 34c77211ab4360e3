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

/// The legend of a book: only the symbols and waypoint types the book uses, in the book's language.
public enum Legend {
    /// The next row is "close" below this distance: at rally speed 300 m pass in under 15 s, so
    /// FIM and FIA books box the distance to warn the rider to read the next row now.
    public static let closeRowDistance: Metres = 300

    /// The entries for `book`, in a fixed order: map markers, the route's kinds of line (in the
    /// order of `LegKind.allCases`, each the map shows, where one is not along roads), waypoint types
    /// (in the order of `WaypointType.allCases`), danger levels, CAP, odometer reset, close next row.
    /// Only notes on the route count, as only they print as rows. Their words are in the book's
    /// language (`BookSettings.language`). O(notes + route points).
    public static func entries(for book: Book) -> [LegendEntry] {
        let words = Phrasebook.of(book.settings.language)
        let notes = book.notes.filter { $0.placement == .onRoute }
        var entries: [LegendEntry] = []
        if book.route.points.count >= 2 {
            entries.append(LegendEntry(symbol: .start, sample: "", meaning: words[.legendStart]))
            entries.append(LegendEntry(symbol: .finish, sample: "", meaning: words[.legendFinish]))
        }
        // A route all along roads needs no word for its line; one with straight or drawn stretches
        // says what each kind of line the map shows means.
        let legs = Set(RouteStretches.of(book).map(\.kind))
        if legs.contains(where: { $0 != .road }) {
            for kind in LegKind.allCases where legs.contains(kind) {
                entries.append(LegendEntry(symbol: .leg(kind), sample: "", meaning: words[key(of: kind)]))
            }
        }
        let types = Set(notes.compactMap(\.waypointType))
        for type in WaypointType.allCases where types.contains(type) {
            entries.append(LegendEntry(symbol: .waypointType(type), sample: type.rawValue, meaning: meaning(of: type, in: words)))
        }
        let dangers = Set(notes.map { min(3, max(0, $0.danger)) })
        let dangerMeanings: [Phrasebook.Key] = [.legendCaution, .legendDanger, .legendGreatDanger]
        for level in 1...3 where dangers.contains(level) {
            entries.append(LegendEntry(symbol: .danger(level), sample: DangerFormat.text(level) ?? "",
                                       meaning: words[dangerMeanings[level - 1]]))
        }
        if notes.contains(where: { $0.cap != nil }) {
            entries.append(LegendEntry(symbol: .cap, sample: "C.090", meaning: words[.legendCap]))
        }
        if notes.contains(where: \.resetsOdometer) {
            entries.append(LegendEntry(symbol: .odometerReset, sample: words[.odometerReset], meaning: words[.legendReset]))
        }
        if RowContent.hasRowCloser(than: closeRowDistance, in: book) {
            let sample = DistanceFormat.text(closeRowDistance * 0.5, units: book.settings.units)
            entries.append(LegendEntry(symbol: .closeNextRow, sample: sample,
                                       meaning: words.text(.legendCloseNextRow, ["distance": String(Int(closeRowDistance))])))
        }
        return entries
    }

    /// The meaning of a waypoint type as printed in the legend, in `words`' language, after the
    /// FIM/FIA cross-country rules' definitions.
    public static func meaning(of type: WaypointType, in words: Phrasebook = .english) -> String {
        words[key(of: type)]
    }

    /// The phrasebook's key of a kind of route line's meaning in the legend.
    public static func key(of kind: LegKind) -> Phrasebook.Key {
        switch kind {
        case .road: .legendRoadLeg
        case .straight: .legendStraightLeg
        case .asDrawn: .legendAsDrawnLeg
        }
    }

    /// The phrasebook's key of a waypoint type's meaning.
    public static func key(of type: WaypointType) -> Phrasebook.Key {
        switch type {
        case .wpm: .legendWPM
        case .wpv: .legendWPV
        case .wps: .legendWPS
        case .wpe: .legendWPE
        case .wpc: .legendWPC
        case .wpn: .legendWPN
        case .wpp: .legendWPP
        case .dss: .legendDSS
        case .ass: .legendASS
        case .cp: .legendCP
        case .dz: .legendDZ
        case .fz: .legendFZ
        }
    }
}
