import Foundation
import Geo
import Model

/// The words of generated instructions, from one table per language.
///
/// A phrase may hold placeholders: `{ordinal}` (the exit number as an ordinal) and `{road}` (a
/// road's ref or name). Another language is another `Instructions` value with its own table and
/// ordinal rule.
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
    }

    public var phrases: [Phrase: String]
    /// The ordinal of a positive number ("3rd").
    public var ordinal: @Sendable (Int) -> String

    public init(phrases: [Phrase: String], ordinal: @escaping @Sendable (Int) -> String) {
        self.phrases = phrases
        self.ordinal = ordinal
    }

    /// English.
    public static let english = Instructions(
        phrases: [
            .turnLeft: "Turn left", .turnRight: "Turn right",
            .turnSharpLeft: "Turn sharp left", .turnSharpRight: "Turn sharp right",
            .bearLeft: "Bear left", .bearRight: "Bear right",
            .keepLeftAtFork: "Keep left at fork", .keepRightAtFork: "Keep right at fork",
            .keepMiddleAtFork: "Keep straight on at fork",
            .endOfRoadLeft: "End of road, turn left", .endOfRoadRight: "End of road, turn right",
            .roundaboutExit: "Roundabout, {ordinal} exit", .roundabout: "Roundabout",
            .uTurn: "U-turn",
            .straightOn: "Straight on", .straightOnAtCrossroads: "Straight on at crossroads",
            .keepStraight: "Keep straight on",
            .leftThenRight: "Left then right", .rightThenLeft: "Right then left",
            .thenTurnLeft: ", then turn left", .thenTurnRight: ", then turn right",
            .thenBearLeft: ", then bear left", .thenBearRight: ", then bear right",
            .thenSharpLeft: ", then turn sharp left", .thenSharpRight: ", then turn sharp right",
            .thenKeepLeft: ", then keep left", .thenKeepRight: ", then keep right", .thenStraightOn: ", then straight on",
            .onto: " onto {road}",
        ],
        ordinal: englishOrdinal)

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

    /// The words for `maneuver`: the phrase, then " onto {road}" when the road taken has a ref (preferred:
    /// it is what signs show) or a name, neither a placeholder such as "FIXME". Straight-on rows, reminders and U-turns name no road.
    public func text(for maneuver: Maneuver) -> String {
        let phrase = Self.phrase(for: maneuver)
        var words = phrases[phrase] ?? phrase.rawValue
        if let then = Self.thenPhrase(for: maneuver) { words += phrases[then] ?? then.rawValue }
        words = words.replacingOccurrences(of: "{ordinal}", with: ordinal(maneuver.exitNumber ?? 1))
        let namesRoad: Set<Maneuver.Kind> = [.turn, .unclassified, .fork, .endOfRoad, .roundabout]
        if namesRoad.contains(maneuver.kind), let road = nonEmpty(maneuver.exitRef) ?? nonEmpty(maneuver.exitName),
           let onto = phrases[.onto] {
            words += onto.replacingOccurrences(of: "{road}", with: road)
        }
        return words
    }

    /// The road's ref or name, unless empty or a map's placeholder ("FIXME", "?": `MapNames`).
    private func nonEmpty(_ s: String?) -> String? { MapNames.usable(s) }
}
