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

    /// The notes with the turns joined in or added, in route order (see `joinReporting`).
    public func join(_ maneuvers: [Maneuver], into notes: [Note]) -> [Note] {
        joinReporting(maneuvers, into: notes).notes
    }

    /// The notes with the turns joined in or added, in route order, and the joined notes whose own
    /// words contradict the turn generated at their junction.
    ///
    /// A note may take a turn when it lies on the route, is not itself a generated turn row
    /// (`kind == .turn`) and carries no turn yet; each note takes at most one turn and each turn joins
    /// at most one note. Turns and notes are paired by distance along the route over all candidates,
    /// nearest pairs first (ties in route order), so a turn never takes a note that sits nearer
    /// another turn. Joining moves the note to the turn's junction (`distanceAlong`, so rows stay in
    /// the road's order; its coordinate stays the person's; a turn from the track's shape has no
    /// junction, see `sitsAtJunction`), gives it the turn's tulip unless it
    /// carries a drawn one, keeps its words (or takes the instruction when it has none), and records
    /// the turn in `generated`; the note keeps its kind. Every other turn becomes a new note of kind
    /// `.turn`, with the next free ids in route order, its CAP the bearing of the road taken.
    /// - Parameters:
    ///   - maneuvers: generated turns, in route order.
    ///   - notes: the book's located notes.
    ///   - firstID: the least id a new note may take: a book's `nextNoteID`, so that no new note
    ///     takes the id of a deleted one (its tombstone).
    /// - Complexity: O(maneuvers × notes × log(maneuvers × notes)).
    public func joinReporting(_ maneuvers: [Maneuver], into notes: [Note], firstID: Int = 1) -> JoinResult {
        var result = notes
        // Every pair within the join distance, nearest first; ties in route order of the turn, then the note.
        var pairs: [(gap: Metres, turn: Int, note: Int)] = []
        for (t, maneuver) in maneuvers.enumerated() {
            for (i, n) in notes.enumerated() where n.kind != .turn && n.generated == nil && n.placement == .onRoute {
                // A note already carrying a turn (joined before, kept by regeneration) takes no second one.
                let gap = abs(n.distanceAlong - maneuver.distanceAlong)
                if gap <= configuration.joinDistance { pairs.append((gap, t, i)) }
            }
        }
        pairs.sort { ($0.gap, $0.turn, $0.note) < ($1.gap, $1.turn, $1.note) }
        var noteOfTurn: [Int: Int] = [:]
        var taken = Set<Int>()   // indices of notes that have joined a turn
        for pair in pairs where noteOfTurn[pair.turn] == nil && !taken.contains(pair.note) {
            noteOfTurn[pair.turn] = pair.note
            taken.insert(pair.note)
        }
        var added: [Note] = []
        var contradictions: [JoinContradiction] = []
        var nextID = max(firstID, (notes.map(\.id).max() ?? 0) + 1)
        for (t, maneuver) in maneuvers.enumerated() {
            let (text, tulip, generated) = describe(maneuver)
            if let i = noteOfTurn[t] {
                if result[i].tulip?.origin != .drawn { result[i].tulip = tulip }
                result[i].generated = generated
                if result[i].text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    result[i].text = text
                    if result[i].kind != .turn { result[i].generated?.wordsGiven = true }
                }
                // A handle's row stays exactly where the route reaches its handle; any other row
                // joined to a junction of the map moves to the junction.
                if Self.sitsAtJunction(maneuver), result[i].handleID == nil { result[i].distanceAlong = maneuver.distanceAlong }
                if let conflict = JoinContradiction.conflict(words: result[i].text, maneuver: maneuver) {
                    contradictions.append(JoinContradiction(noteID: result[i].id, marker: result[i].marker,
                                                            distanceAlong: maneuver.distanceAlong, words: result[i].text,
                                                            generatedText: text, conflict: conflict))
                }
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
        return JoinResult(notes: ordered.map(\.element.0), contradictions: contradictions,
                          joinedNotes: noteOfTurn.mapValues { notes[$0].id })
    }

    /// Whether a turn is at a junction of roads (one with a road not taken), whose distance a joined
    /// row takes. A turn read from the track's shape has only its entry and exit: its place is where
    /// the fitted heading bends, less exact than the waypoint a person put there, so the row keeps
    /// the waypoint's distance.
    package static func sitsAtJunction(_ maneuver: Maneuver) -> Bool {
        maneuver.junctions.contains { $0.spokes.count >= 3 }
    }

    /// The words, the tulip and the record of a generated turn.
    public func describe(_ maneuver: Maneuver) -> (text: String, tulip: Tulip, generated: GeneratedTurn) {
        let text = instructions.text(for: maneuver)
        let generated = GeneratedTurn(maneuver: maneuver.kind.rawValue, modifier: maneuver.modifier.words,
                                      exitNumber: maneuver.exitNumber, junction: rounded(maneuver.combinedJunction),
                                      text: text, source: maneuver.source.rawValue)
        return (text, TulipBuilder.tulip(for: maneuver), generated)
    }

    /// The junction with bearings rounded to whole degrees (its roads after a roundabout's exit too),
    /// as `GeneratedTurn.junction` stores it.
    func rounded(_ junction: Junction) -> Junction {
        var j = junction
        for k in j.spokes.indices { j.spokes[k].bearing = normalizedBearing(j.spokes[k].bearing.rounded()) }
        j.ringArms = j.ringArms?.map { var arm = $0; arm.bearing = normalizedBearing(arm.bearing.rounded()); return arm }
        return j
    }
}

/// What `TurnJoiner.joinReporting` made: the notes, and the joined notes whose words contradict
/// their generated turn.
public struct JoinResult: Sendable, Equatable {
    public var notes: [Note]
    /// In route order of the turns.
    public var contradictions: [JoinContradiction]
    /// The notes the turns joined: by the turn's index in the turns given, the note's id.
    public var joinedNotes: [Int: Int] = [:]
}

/// A note whose own words contradict the turn generated at its junction: it says left where the
/// road turns right, or one roundabout exit where the generated turn takes another. The note's words
/// stay printed; this is reported so a person checks the row.
///
/// Detection is deliberately conservative: only English whole words "left" and "right" (a note
/// naming both sides says nothing checkable), compared with a turn that has one side (not a
/// roundabout, U-turn, straight on or a staggered "left then right"); and an exit number written
/// "2nd exit", "second exit" or "exit 2", compared with a roundabout's exit number.
public struct JoinContradiction: Sendable, Equatable, CustomStringConvertible {
    public enum Conflict: Sendable, Equatable {
        /// −1 left, +1 right: what the words say and where the generated turn goes.
        case side(said: Int, generated: Int)
        /// The exit the words name and the roundabout exit the generated turn takes.
        case exit(said: Int, generated: Int)
    }

    public var noteID: Int
    public var marker: String?
    /// The junction's distance along the route, where the row now sits.
    public var distanceAlong: Metres
    /// The note's words.
    public var words: String
    /// The generated instruction.
    public var generatedText: String
    public var conflict: Conflict

    public init(noteID: Int, marker: String?, distanceAlong: Metres, words: String, generatedText: String,
                conflict: Conflict) {
        self.noteID = noteID
        self.marker = marker
        self.distanceAlong = distanceAlong
        self.words = words
        self.generatedText = generatedText
        self.conflict = conflict
    }

    /// "row R2 at 2.74 km says 'Bear left onto CG-1' but the road turns right here".
    public var description: String {
        let row = marker.map { "row \($0)" } ?? "row #\(noteID)"
        let place = String(format: "%@ at %.2f km says '%@'", row, distanceAlong / 1000, words)
        switch conflict {
        case .side(_, let generated):
            return "\(place) but the road turns \(generated < 0 ? "left" : "right") here (generated: '\(generatedText)')"
        case .exit(_, let generated):
            return "\(place) but the route takes exit \(generated) here (generated: '\(generatedText)')"
        }
    }

    /// The conflict between a note's words and a generated turn, if the words clearly say otherwise.
    package static func conflict(words: String, maneuver: Maneuver) -> Conflict? {
        let tokens = words.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
        if maneuver.kind == .roundabout {
            guard let generated = maneuver.exitNumber, let said = exitNumber(in: tokens), said != generated else { return nil }
            return .exit(said: said, generated: generated)
        }
        guard maneuver.kind != .uTurn, maneuver.then == nil else { return nil }
        let generated = maneuver.modifier.side
        let saysLeft = tokens.contains("left"), saysRight = tokens.contains("right")
        guard generated != 0, saysLeft != saysRight else { return nil }
        let said = saysLeft ? -1 : 1
        return said == generated ? nil : .side(said: said, generated: generated)
    }

    static let ordinals = ["first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
                           "eighth": 8, "ninth": 9, "tenth": 10]

    /// The exit number in "2nd exit", "second exit" or "exit 2"; nil when none, or several different ones.
    static func exitNumber(in tokens: [String]) -> Int? {
        var found = Set<Int>()
        for (k, token) in tokens.enumerated() where token == "exit" || token == "exits" {
            if k > 0 {
                let before = tokens[k - 1]
                if let n = ordinals[before] { found.insert(n) }
                for suffix in ["st", "nd", "rd", "th"] where before.hasSuffix(suffix) {
                    if let n = Int(before.dropLast(2)) { found.insert(n) }
                }
            }
            if k + 1 < tokens.count, let n = Int(tokens[k + 1]) { found.insert(n) }
        }
        return found.count == 1 ? found.first : nil
    }
}
