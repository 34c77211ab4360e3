import Foundation
import Geo
import Model

/// The words of generated instructions, in one language: its phrases and its ordinal rule, taken
/// from the language's `Phrasebook`.
///
/// A phrase may hold placeholders: `{ordinal}` (the exit number as an ordinal) and `{road}` (a
/// road's ref or name). Which phrase says a maneuver does not depend on the language
/// (`phrase(for:)`); only its words do.
public struct Instructions: Sendable {
    /// Every phrase the generator uses.
    public enum Phrase: String, Sendable, CaseIterable {
        case turnLeft, turnRight, turnSharpLeft, turnSharpRight, bearLeft, bearRight
        case keepLeftAtFork, keepRightAtFork, keepMiddleAtFork
        case endOfRoadLeft, endOfRoadRight
        case roundaboutExit
        /// A roundabout whose exit number is not known (one read from the track's shape).
        case roundabout
        case uTurn
        case straightOn, straightOnAtCrossroads
        case keepStraight
        case leftThenRight, rightThenLeft
        /// Appended for the second of two junctions merged into one row ("Keep left at fork, then turn right").
        case thenTurnLeft, thenTurnRight, thenBearLeft, thenBearRight, thenSharpLeft, thenSharpRight
        case thenKeepLeft, thenKeepRight, thenStraightOn
        /// Appended when the road taken has a ref or a name.
        case onto

        /// The phrasebook's key of the phrase's words.
        public var key: Phrasebook.Key {
            switch self {
            case .turnLeft: .turnLeft
            case .turnRight: .turnRight
            case .turnSharpLeft: .turnSharpLeft
            case .turnSharpRight: .turnSharpRight
            case .bearLeft: .bearLeft
            case .bearRight: .bearRight
            case .keepLeftAtFork: .keepLeftAtFork
            case .keepRightAtFork: .keepRightAtFork
            case .keepMiddleAtFork: .keepMiddleAtFork
            case .endOfRoadLeft: .endOfRoadLeft
            case .endOfRoadRight: .endOfRoadRight
            case .roundaboutExit: .roundaboutExit
            case .roundabout: .roundabout
            case .uTurn: .uTurn
            case .straightOn: .straightOn
            case .straightOnAtCrossroads: .straightOnAtCrossroads
            case .keepStraight: .keepStraight
            case .leftThenRight: .leftThenRight
            case .rightThenLeft: .rightThenLeft
            case .thenTurnLeft: .thenTurnLeft
            case .thenTurnRight: .thenTurnRight
            case .thenBearLeft: .thenBearLeft
            case .thenBearRight: .thenBearRight
            case .thenSharpLeft: .thenSharpLeft
            case .thenSharpRight: .thenSharpRight
            case .thenKeepLeft: .thenKeepLeft
            case .thenKeepRight: .thenKeepRight
            case .thenStraightOn: .thenStraightOn
            case .onto: .onto
            }
        }

        /// The phrases appended for a second junction (`thenPhrase(for:)`): those named `then…`.
        public static let thenPhrases: [Phrase] = allCases.filter { $0.rawValue.hasPrefix("then") }
    }

    public var phrases: [Phrase: String]
    /// The ordinal of a positive number ("3rd").
    public var ordinal: @Sendable (Int) -> String

    public init(phrases: [Phrase: String], ordinal: @escaping @Sendable (Int) -> String) {
        self.phrases = phrases
        self.ordinal = ordinal
    }

    /// The phrases and the ordinal rule of `words`.
    public init(_ words: Phrasebook) {
        self.init(phrases: Dictionary(uniqueKeysWithValues: Phrase.allCases.map { ($0, words[$0.key]) }),
                  ordinal: { words.ordinal($0) })
    }

    /// The instructions of `language`; English for nil (a book that names no language).
    public init(language: BookLanguage?) {
        self.init(Phrasebook.of(language))
    }

    /// English.
    public static let english = Instructions(Phrasebook.english)

    /// 1st, 2nd, 3rd, 4th … 10th, 11th, 12th, 13th, 21st, 22nd, 101st, 111th.
    @Sendable public static func englishOrdinal(_ n: Int) -> String { Phrasebook.englishOrdinal(n) }

    /// The phrase that says `maneuver`, without the road.
    public static func phrase(for maneuver: Maneuver) -> Phrase {
        let right = maneuver.modifier.side > 0 || (maneuver.modifier.side == 0 && maneuver.turnAngle > 0)
        if let then = maneuver.then, then.side != 0, maneuver.isStaggered {
            return maneuver.modifier.side < 0 ? .leftThenRight : .rightThenLeft
        }
        switch maneuver.kind {
        case .roundabout: return maneuver.exitNumber == nil ? .roundabout : .roundaboutExit
        case .uTurn: return .uTurn
        case .keepStraight: return .keepStraight
        case .straightOn: return maneuver.atCrossroads ? .straightOnAtCrossroads : .straightOn
        case .endOfRoad: return right ? .endOfRoadRight : .endOfRoadLeft
        case .fork:
            switch maneuver.modifier.side {
            case -1: return .keepLeftAtFork
            case 1: return .keepRightAtFork
            default: return .keepMiddleAtFork
            }
        case .turn, .unclassified:
            // An unclassified maneuver (detection not run to its end) reads by its modifier, as a turn.
            switch maneuver.modifier {
            case .slightLeft: return .bearLeft
            case .slightRight: return .bearRight
            case .sharpLeft: return .turnSharpLeft
            case .sharpRight: return .turnSharpRight
            case .left: return .turnLeft
            case .right: return .turnRight
            case .uTurn: return .uTurn
            case .straight: return .straightOn
            }
        }
    }

    /// The phrase appended for the second junction of a merged row that is not a staggered
    /// junction ("…, then turn right"), or nil.
    public static func thenPhrase(for maneuver: Maneuver) -> Phrase? {
        guard let then = maneuver.then, !maneuver.isStaggered else { return nil }
        if maneuver.thenKind == .fork {
            switch then.side {
            case -1: return .thenKeepLeft
            case 1: return .thenKeepRight
            default: return .thenStraightOn
            }
        }
        switch then {
        case .slightLeft: return .thenBearLeft
        case .slightRight: return .thenBearRight
        case .left: return .thenTurnLeft
        case .right: return .thenTurnRight
        case .sharpLeft: return .thenSharpLeft
        case .sharpRight: return .thenSharpRight
        case .straight, .uTurn: return .thenStraightOn
        }
    }

    /// What a generated instruction says, whatever its language: the phrase, the phrase of a second
    /// junction, the exit's number and the road taken.
    public struct Wording: Sendable, Equatable {
        public var phrase: Phrase
        public var then: Phrase?
        /// The roundabout's exit, for `{ordinal}`; nil reads as 1.
        public var exitNumber: Int?
        /// The road's ref or name, appended with `onto`.
        public var road: String?

        public init(phrase: Phrase, then: Phrase? = nil, exitNumber: Int? = nil, road: String? = nil) {
            self.phrase = phrase
            self.then = then
            self.exitNumber = exitNumber
            self.road = road
        }
    }

    /// What the words for `maneuver` say: the phrase, then " onto {road}" when the road taken has a ref
    /// (preferred: it is what signs show) or a name, neither a placeholder such as "FIXME". Straight-on
    /// rows, reminders and U-turns name no road.
    public static func wording(for maneuver: Maneuver) -> Wording {
        let namesRoad: Set<Maneuver.Kind> = [.turn, .unclassified, .fork, .endOfRoad, .roundabout]
        let road = namesRoad.contains(maneuver.kind)
            ? MapNames.usable(maneuver.exitRef) ?? MapNames.usable(maneuver.exitName) : nil
        return Wording(phrase: phrase(for: maneuver), then: thenPhrase(for: maneuver), exitNumber: maneuver.exitNumber,
                       road: road)
    }

    /// The words for `maneuver` (`wording(for:)`) in this language.
    public func text(for maneuver: Maneuver) -> String {
        text(Self.wording(for: maneuver))
    }

    /// The words of `wording` in this language.
    public func text(_ wording: Wording) -> String {
        var words = head(wording.phrase, wording.then, exitNumber: wording.exitNumber)
        if let road = wording.road, let onto = phrases[.onto] {
            words += onto.replacingOccurrences(of: "{road}", with: road)
        }
        return words
    }

    /// The phrase and the second junction's phrase, the ordinal filled in.
    private func head(_ phrase: Phrase, _ then: Phrase?, exitNumber: Int?) -> String {
        var words = phrases[phrase] ?? phrase.rawValue
        if let then { words += phrases[then] ?? then.rawValue }
        return words.replacingOccurrences(of: "{ordinal}", with: ordinal(exitNumber ?? 1))
    }

    /// What `text`, words these instructions generated for a turn at a roundabout's exit
    /// `exitNumber` (nil elsewhere), says; nil when no phrase of this language (with a second
    /// junction's and a road's) makes exactly those words, as when a person wrote them.
    /// Where two readings fit (a road named like a phrase's end), the longer phrase wins.
    public func wording(of text: String, exitNumber: Int?) -> Wording? {
        let onto = (phrases[.onto] ?? "").components(separatedBy: "{road}")
        var best: (wording: Wording, length: Int)?
        for phrase in Phrase.allCases where phrase != .onto && !Phrase.thenPhrases.contains(phrase) {
            for then in [nil] + Phrase.thenPhrases.map(Optional.some) {
                let head = head(phrase, then, exitNumber: exitNumber)
                guard text.hasPrefix(head), head.count > best?.length ?? -1 else { continue }
                let rest = String(text.dropFirst(head.count))
                var road: String?
                if !rest.isEmpty {
                    guard onto.count == 2, rest.hasPrefix(onto[0]), rest.hasSuffix(onto[1]),
                          rest.count > onto[0].count + onto[1].count else { continue }
                    road = String(rest.dropFirst(onto[0].count).dropLast(onto[1].count))
                }
                best = (Wording(phrase: phrase, then: then, exitNumber: exitNumber, road: road), head.count)
            }
        }
        return best?.wording
    }

    /// `text`, generated by `other` for a turn at a roundabout's exit `exitNumber` (nil elsewhere),
    /// in this language; nil when `other` did not make those words (`wording(of:exitNumber:)`).
    public func reword(_ text: String, exitNumber: Int?, from other: Instructions) -> String? {
        other.wording(of: text, exitNumber: exitNumber).map(self.text)
    }
}
