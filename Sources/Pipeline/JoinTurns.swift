import Foundation
import Geo
import Model

/// Puts generated turns into a book's notes: a turn close to a located note joins that note rather
/// than adding a row of its own, so one place on the road is one row.
public struct TurnJoiner: Sendable {
    /// Thresholds of joining, each with its reason.
    public struct Configuration: Sendable, Equatable {
        /// A turn within this many metres along the route of a located note joins it. 50 m is the
        /// off-route distance too: GPS error plus the size of a junction, so a waypoint recorded at a
        /// junction is about that junction; two junctions 50 m apart are a staggered junction, already
        /// one row.
        public var joinDistance: Metres = 50

        public init(joinDistance: Metres = 50) { self.joinDistance = joinDistance }
    }

    public var configuration: Configuration
    public var instructions: Instructions

    public init(configuration: Configuration = Configuration(), instructions: Instructions = .english) {
        self.configuration = configuration
        self.instructions = instructions
    }

    /// The notes with the turns joined in or added, in route order.
    ///
    /// A note may take a turn when it lies on the route, is not itself a generated turn row
    /// (`kind == .turn`) and carries no turn yet; each takes at most one, the nearest. Joining gives the note the turn's tulip
    /// unless it carries a drawn one, keeps its words (or takes the instruction when it has none), and
    /// records the turn in `generated`; the note keeps its kind. Every other turn becomes a new note of
    /// kind `.turn`, with the next free ids, its CAP the bearing of the road taken.
    /// - Parameters:
    ///   - maneuvers: generated turns, in route order.
    ///   - notes: the book's located notes.
    /// - Complexity: O(maneuvers × notes).
    public func join(_ maneuvers: [Maneuver], into notes: [Note]) -> [Note] {
        var result = notes
        var taken = Set<Int>()   // indices of notes that have joined a turn
        var added: [Note] = []
        var nextID = (notes.map(\.id).max() ?? 0) + 1
        for maneuver in maneuvers {
            let (text, tulip, generated) = describe(maneuver)
            // A note already carrying a turn (joined before, kept by regeneration) takes no second one.
            let candidates = result.indices.filter { i in
                let n = result[i]
                return !taken.contains(i) && n.kind != .turn && n.generated == nil && n.placement == .onRoute
                    && abs(n.distanceAlong - maneuver.distanceAlong) <= configuration.joinDistance
            }
            if let i = candidates.min(by: { abs(result[$0].distanceAlong - maneuver.distanceAlong)
                                            < abs(result[$1].distanceAlong - maneuver.distanceAlong) }) {
                taken.insert(i)
                if result[i].tulip?.origin != .drawn { result[i].tulip = tulip }
                if result[i].text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { result[i].text = text }
                result[i].generated = generated
                continue
            }
            let exitBearing = maneuver.junctions.last?.exit?.bearing
            added.append(Note(id: nextID, kind: .turn, distanceAlong: maneuver.distanceAlong,
                              coordinate: maneuver.coordinate, text: text, cap: exitBearing, tulip: tulip,
                              generated: generated))
            nextID += 1
        }
        // Stable: at one distance, the existing notes come before the added turns.
        let ordered = (result.map { ($0, 0) } + added.map { ($0, 1) }).enumerated().sorted {
            ($0.element.0.distanceAlong, $0.element.1, $0.offset) < ($1.element.0.distanceAlong, $1.element.1, $1.offset)
        }
        return ordered.map(\.element.0)
    }

    /// The words, the tulip and the record of a generated turn.
    public func describe(_ maneuver: Maneuver) -> (text: String, tulip: Tulip, generated: GeneratedTurn) {
        let text = instructions.text(for: maneuver)
        let generated = GeneratedTurn(maneuver: maneuver.kind.rawValue, modifier: maneuver.modifier.words,
                                      exitNumber: maneuver.exitNumber, junction: rounded(maneuver.combinedJunction),
                                      text: text)
        return (text, TulipBuilder.tulip(for: maneuver), generated)
    }

    /// The junction with bearings rounded to whole degrees, as `GeneratedTurn.junction` stores it.
    func rounded(_ junction: Junction) -> Junction {
        var j = junction
        for k in j.spokes.indices { j.spokes[k].bearing = normalizedBearing(j.spokes[k].bearing.rounded()) }
        return j
    }
}
