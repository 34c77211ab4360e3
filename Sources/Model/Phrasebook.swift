import Foundation

/// A language a book prints in: the words of its generated turn notes and of its pages (labels,
/// cover, legend, profile, lexicon). A person's words are never translated.
public enum BookLanguage: String, Codable, Sendable, CaseIterable {
    case en, fr, es, pt, it

    /// The language's name in itself, as help and messages list it.
    public var name: String {
        switch self {
        case .en: "English"
        case .fr: "français"
        case .es: "español"
        case .pt: "português"
        case .it: "italiano"
        }
    }
}

/// Every word roadbook prints, in one language: one table of `Key`s, the same keys in every
/// language, and the ordinal rule of a roundabout's exit.
///
/// A text may hold placeholders, written `{name}`: `{ordinal}`, `{road}`, `{page}`, `{pages}`,
/// `{source}`, `{count}`, `{distance}`, `{speed}`. A translation holds exactly the placeholders the English
/// text holds (a test checks every language: a key missing, a placeholder missing or extra, an
/// empty text). Adding a language is one table with every key (`docs/languages.md`).
public struct Phrasebook: Sendable {
    /// Every text roadbook prints, by what it is for. The raw value names the key in tests and docs.
    public enum Key: String, Sendable, CaseIterable {
        // Generated turn notes (`Guidance.Instructions`): one phrase a maneuver, a phrase appended for
        // the second of two junctions merged into one row, and the road taken.
        case turnLeft = "turn.turnLeft", turnRight = "turn.turnRight"
        case turnSharpLeft = "turn.turnSharpLeft", turnSharpRight = "turn.turnSharpRight"
        case bearLeft = "turn.bearLeft", bearRight = "turn.bearRight"
        case keepLeftAtFork = "turn.keepLeftAtFork", keepRightAtFork = "turn.keepRightAtFork"
        case keepMiddleAtFork = "turn.keepMiddleAtFork"
        case endOfRoadLeft = "turn.endOfRoadLeft", endOfRoadRight = "turn.endOfRoadRight"
        /// Holds `{ordinal}`, the exit's number written by the language's ordinal rule.
        case roundaboutExit = "turn.roundaboutExit"
        case roundabout = "turn.roundabout"
        case uTurn = "turn.uTurn"
        case straightOn = "turn.straightOn", straightOnAtCrossroads = "turn.straightOnAtCrossroads"
        case keepStraight = "turn.keepStraight"
        case leftThenRight = "turn.leftThenRight", rightThenLeft = "turn.rightThenLeft"
        case thenTurnLeft = "turn.thenTurnLeft", thenTurnRight = "turn.thenTurnRight"
        case thenBearLeft = "turn.thenBearLeft", thenBearRight = "turn.thenBearRight"
        case thenSharpLeft = "turn.thenSharpLeft", thenSharpRight = "turn.thenSharpRight"
        case thenKeepLeft = "turn.thenKeepLeft", thenKeepRight = "turn.thenKeepRight"
        case thenStraightOn = "turn.thenStraightOn"
        /// Appended with its leading space: holds `{road}`, a road's ref or name.
        case onto = "turn.onto"

        // The row pages.
        /// The footer: `{page}` and `{pages}`.
        case pageFooter = "page.footer"
        /// The mark in the distance cell telling the rider to set the trip meter to zero.
        case odometerReset = "page.reset"
        /// A regularity book's column of ideal times: its header, the tags of a section's first and
        /// last rows, and a new average from a row on (`{speed}`, in km/h).
        case timeHeader = "page.time", sectionStart = "page.sectionStart", sectionFinish = "page.sectionFinish"
        case speedChange = "page.speedChange"

        // A note's symbols, printed as small tags in capitals.
        case symbolFuel = "symbol.fuel", symbolBridge = "symbol.bridge", symbolFord = "symbol.ford"
        case symbolCattleGrid = "symbol.cattleGrid", symbolGate = "symbol.gate", symbolVillage = "symbol.village"
        case symbolRailway = "symbol.railway", symbolHump = "symbol.hump", symbolHole = "symbol.hole"
        case symbolStones = "symbol.stones", symbolSand = "symbol.sand", symbolDunes = "symbol.dunes"
        case symbolFork = "symbol.fork", symbolSummit = "symbol.summit", symbolViewpoint = "symbol.viewpoint"
        case symbolWater = "symbol.water", symbolPolice = "symbol.police", symbolRadar = "symbol.radar"

        // The cover.
        case coverDistance = "cover.distance", coverRows = "cover.rows", coverClimb = "cover.climb"
        case coverDescent = "cover.descent", coverHighest = "cover.highest"
        /// The headings of the map and the legend.
        case coverRoute = "cover.route", coverLegend = "cover.legend"
        /// The labels of the map's first and last markers.
        case coverStart = "cover.start", coverFinish = "cover.finish"
        /// The letter on the map's north arrow.
        case coverNorth = "cover.north"
        /// The footer's sources: `{source}`.
        case coverRouteSource = "cover.routeSource", coverTerrainSource = "cover.terrainSource"
        case coverNoTerrain = "cover.noTerrain"
        /// What the footer says of road legs drawn straight: `{count}` legs, one form for 1, one for more.
        case coverRouteRemoved = "cover.routeRemoved"
        case coverLegsNoRoadOne = "cover.legsNoRoad.one", coverLegsNoRoadOther = "cover.legsNoRoad.other"
        case coverLegsWaitingOne = "cover.legsWaiting.one", coverLegsWaitingOther = "cover.legsWaiting.other"

        // The elevation profile.
        /// The heading of the profile on the cover.
        case profileTitle = "profile.title"

        // The legend: what each mark of the book means.
        case legendStart = "legend.start", legendFinish = "legend.finish"
        case legendWPM = "legend.wpm", legendWPV = "legend.wpv", legendWPS = "legend.wps", legendWPE = "legend.wpe"
        case legendWPC = "legend.wpc", legendWPN = "legend.wpn", legendWPP = "legend.wpp"
        case legendDSS = "legend.dss", legendASS = "legend.ass", legendCP = "legend.cp"
        case legendDZ = "legend.dz", legendFZ = "legend.fz"
        case legendCaution = "legend.caution", legendDanger = "legend.danger", legendGreatDanger = "legend.greatDanger"
        case legendCap = "legend.cap", legendReset = "legend.reset"
        case legendRoadLeg = "legend.leg.road", legendStraightLeg = "legend.leg.straight", legendAsDrawnLeg = "legend.leg.asDrawn"
        /// `{distance}`: metres.
        case legendCloseNextRow = "legend.closeNextRow"

        // The lexicon page of symbols.
        case lexiconTitle = "lexicon.title"
        /// Said of a symbol the symbol library does not hold.
        case lexiconUnknown = "lexicon.unknown"
        /// The title over symbols of no group the library knows.
        case lexiconOther = "lexicon.other"
    }

    public let language: BookLanguage
    /// The texts, by key: every key has one (checked by a test for every language).
    public let table: [Key: String]
    /// The ordinal of a roundabout's exit (1 → "1st", "1re", "1.ª", "1ª").
    private let ordinalRule: @Sendable (Int) -> String

    public init(language: BookLanguage, table: [Key: String], ordinal: @escaping @Sendable (Int) -> String) {
        self.language = language
        self.table = table
        ordinalRule = ordinal
    }

    /// The phrasebook of `language`; English for nil (a book that names no language).
    public static func of(_ language: BookLanguage?) -> Phrasebook {
        switch language ?? .en {
        case .en: english
        case .fr: french
        case .es: spanish
        case .pt: portuguese
        case .it: italian
        }
    }

    /// The text of `key`, placeholders as written. A key missing from a table (which the tests
    /// refuse) falls back to English, then to the key's name, so nothing prints blank.
    public subscript(key: Key) -> String {
        table[key] ?? Phrasebook.englishTable[key] ?? key.rawValue
    }

    /// The text of `key` with its placeholders filled from `values` (a name without a value stays
    /// as written). Values are put in as they are: a road named "{page}" stays so.
    public func text(_ key: Key, _ values: [String: String] = [:]) -> String {
        Self.fill(self[key], values)
    }

    /// `n` as the ordinal of a roundabout's exit, in this language.
    public func ordinal(_ n: Int) -> String { ordinalRule(n) }

    /// The text of `one` when `count` is 1, else of `other`, its `{count}` filled.
    public func counted(_ count: Int, one: Key, other: Key) -> String {
        text(count == 1 ? one : other, ["count": String(count)])
    }

    /// `template` with each `{name}` that `values` has replaced, in one pass.
    public static func fill(_ template: String, _ values: [String: String]) -> String {
        guard !values.isEmpty, template.contains("{") else { return template }
        var result = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), let value = values[String(after[..<close])] {
                result += value
                rest = after[after.index(after: close)...]
            } else {
                result += "{"
                rest = after
            }
        }
        return result + rest
    }

    /// What is wrong with this table against the English one, one line a problem, in key order: a
    /// key without a text, a text that is empty (or only spaces), a placeholder the English text
    /// holds and this one lacks, or one it holds that the English text does not. Empty for a table
    /// ready to print.
    public func problems() -> [String] {
        var problems: [String] = []
        for key in Key.allCases {
            let name = "\(language.rawValue): \(key.rawValue)"
            guard let text = table[key] else {
                problems.append("\(name) has no text")
                continue
            }
            if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { problems.append("\(name) is empty") }
            let own = Self.placeholders(in: text), english = Self.placeholders(in: Self.englishTable[key] ?? "")
            let missing = english.filter { p in english.filter { $0 == p }.count > own.filter { $0 == p }.count }
            let extra = own.filter { p in own.filter { $0 == p }.count > english.filter { $0 == p }.count }
            for placeholder in Set(missing).sorted() { problems.append("\(name) lacks {\(placeholder)}") }
            for placeholder in Set(extra).sorted() { problems.append("\(name) has {\(placeholder)}, which English has not") }
        }
        return problems
    }

    /// The placeholders `text` holds, by name, in order of appearance (a name written twice is
    /// listed twice): what the tests compare between languages.
    public static func placeholders(in text: String) -> [String] {
        var names: [String] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            names.append(String(after[..<close]))
            rest = after[after.index(after: close)...]
        }
        return names
    }
}

extension Phrasebook {
    public static let english = Phrasebook(language: .en, table: englishTable, ordinal: englishOrdinal)
    public static let french = Phrasebook(language: .fr, table: frenchTable, ordinal: frenchOrdinal)
    public static let spanish = Phrasebook(language: .es, table: spanishTable, ordinal: spanishOrdinal)
    public static let portuguese = Phrasebook(language: .pt, table: portugueseTable, ordinal: portugueseOrdinal)
    public static let italian = Phrasebook(language: .it, table: italianTable, ordinal: italianOrdinal)

    /// 1st, 2nd, 3rd, 4th … 10th, 11th, 12th, 13th, 21st, 22nd, 101st, 111th.
    @Sendable public static func englishOrdinal(_ n: Int) -> String {
        let tens = abs(n) % 100, units = abs(n) % 10
        let suffix: String
        if (11...13).contains(tens) { suffix = "th" } else {
            switch units {
            case 1: suffix = "st"
            case 2: suffix = "nd"
            case 3: suffix = "rd"
            default: suffix = "th"
            }
        }
        return "\(n)\(suffix)"
    }

    /// Agrees with "sortie", which is feminine: 1re, then 2e, 3e, 11e, 21e (only the first takes -re).
    @Sendable public static func frenchOrdinal(_ n: Int) -> String { n == 1 ? "1re" : "\(n)e" }

    /// Agrees with "salida", feminine: the number, a full stop, then the feminine ordinal indicator:
    /// 1.ª, 2.ª, 11.ª.
    @Sendable public static func spanishOrdinal(_ n: Int) -> String { "\(n).ª" }

    /// Agrees with "saída", feminine: 1.ª, 2.ª, 11.ª, as Spanish writes it.
    @Sendable public static func portugueseOrdinal(_ n: Int) -> String { "\(n).ª" }

    /// Agrees with "uscita", feminine: the feminine ordinal indicator right after the number, no
    /// full stop: 1ª, 2ª, 11ª.
    @Sendable public static func italianOrdinal(_ n: Int) -> String { "\(n)ª" }
}
