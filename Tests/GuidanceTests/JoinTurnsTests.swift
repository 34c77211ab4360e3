import Foundation
import Geo
import Guidance
import Model
import Testing
import TestSupport

@Suite("Joining generated turns into located notes")
struct JoinTurnsTests {
    typealias F = TurnFixtures

    /// A left turn at a crossroads `distanceAlong` metres along, onto CG-4.
    func turn(at distanceAlong: Metres) -> Maneuver {
        F.detect([F.junction(distanceAlong, heading: 90, exit: 0, sides: [90, 180], exitRef: "CG-4")])[0]
    }

    /// A right turn at a crossroads `distanceAlong` metres along, onto CG-5.
    func rightTurn(at distanceAlong: Metres) -> Maneuver {
        F.detect([F.junction(distanceAlong, heading: 90, exit: 180, sides: [90, 0], exitRef: "CG-5")])[0]
    }

    func note(_ id: Int, at distanceAlong: Metres, text: String, tulip: Tulip? = nil) -> Note {
        Note(id: id, kind: .waypoint, distanceAlong: distanceAlong, coordinate: F.grid(distanceAlong, 0), text: text,
             marker: "WP\(id)", tulip: tulip)
    }

    @Test("a turn 30 m from a located note joins it: the note keeps its words and gains the tulip")
    func joinsNearNote() throws {
        let notes = [note(1, at: 270, text: "Bridge, then left")]
        let joined = TurnJoiner().join([turn(at: 300)], into: notes)
        #expect(joined.count == 1)
        let n = try #require(joined.first)
        #expect(n.id == 1 && n.kind == .waypoint && n.text == "Bridge, then left")
        #expect(n.distanceAlong == 300, "a joined row sits at its junction")
        #expect(n.coordinate == F.grid(270, 0), "the waypoint's own position is kept")
        #expect(n.tulip?.origin == .generated)
        #expect(n.tulip?.exit?.angle == -90)
        #expect(n.generated?.maneuver == "turn" && n.generated?.modifier == "left")
        #expect(n.generated?.text == "Turn left onto CG-4")
    }

    @Test("a turn 200 m from every note adds a row of its own, in route order, with the next id")
    func addsRowWhenFar() throws {
        let notes = [note(1, at: 100, text: "Start"), note(2, at: 900, text: "Fuel")]
        let joined = TurnJoiner().join([turn(at: 300)], into: notes)
        #expect(joined.map(\.id) == [1, 3, 2])
        let row = joined[1]
        #expect(row.kind == .turn && row.text == "Turn left onto CG-4" && row.distanceAlong == 300)
        #expect(row.generated?.text == row.text)
        #expect(row.tulip?.origin == .generated)
        #expect(row.cap == 0, "CAP is the bearing of the road taken")
        #expect(joined[0].generated == nil && joined[2].generated == nil)
    }

    @Test("a note's drawn tulip is kept when a turn joins it")
    func keepsDrawnTulip() throws {
        let drawn = Tulip(origin: .drawn, roads: [Tulip.Road(role: .entry, angle: 180), Tulip.Road(role: .exit, angle: 45)])
        let joined = TurnJoiner().join([turn(at: 300)], into: [note(1, at: 320, text: "Chapel", tulip: drawn)])
        #expect(joined.count == 1)
        #expect(joined[0].tulip == drawn)
        #expect(joined[0].generated != nil)
    }

    @Test("a note without words takes the instruction")
    func emptyNoteTakesWords() {
        let joined = TurnJoiner().join([turn(at: 300)], into: [note(1, at: 310, text: " ")])
        #expect(joined.map(\.text) == ["Turn left onto CG-4"])
    }

    @Test("the join distance is a setting: at 20 m a turn 30 m away adds its own row")
    func joinDistanceSetting() {
        let joiner = TurnJoiner(configuration: .init(joinDistance: 20))
        #expect(joiner.join([turn(at: 300)], into: [note(1, at: 270, text: "Bridge")]).count == 2)
    }

    @Test("a roundabout's generated junction holds the entry, every ring exit and the exit taken, rounded")
    func roundaboutJunction() throws {
        let m = try #require(F.detect(F.roundabout()).first)
        let row = try #require(TurnJoiner().join([m], into: []).first)
        #expect(row.generated?.exitNumber == 3 && row.generated?.maneuver == "roundabout")
        #expect(row.generated?.junction.spokes.map(\.bearing) == [180, 90, 0, 270])
        #expect(row.tulip?.roundabout?.exitNumber == 3)
    }

    @Test("turns and notes pair nearest first: a waypoint on the next junction goes to that junction's turn")
    func nearestPairsFirst() throws {
        // Junction A at 300 m (left), junction B at 340 m (right). WP2 sits on B, 38 m after A, so A,
        // taking its nearest note in route order, used to steal it and leave B a row of its own.
        let notes = [note(1, at: 255, text: "Chapel"), note(2, at: 338, text: "Bridge")]
        let result = TurnJoiner().joinReporting([turn(at: 300), rightTurn(at: 340)], into: notes)
        #expect(result.notes.map(\.id) == [1, 2], "both turns joined, no row added")
        #expect(result.notes.map(\.distanceAlong) == [300, 340], "each joined row at its junction, in route order")
        #expect(result.notes.map { $0.generated?.modifier } == ["left", "right"])
        #expect(result.contradictions.isEmpty)
    }

    @Test("a joined row moves to its junction, so rows keep the road's order")
    func joinedRowKeepsOrder() throws {
        // WP1 sits on B (320 m, right); WP2, 45 m past A (300 m, left), is A's. At their own distances
        // WP2, carrying A's turn, would print after WP1, carrying B's: the rows would swap.
        let notes = [note(1, at: 321, text: "Bridge"), note(2, at: 345, text: "Fuel")]
        let joined = TurnJoiner().join([turn(at: 300), rightTurn(at: 320)], into: notes)
        #expect(joined.map(\.id) == [2, 1])
        #expect(joined.map(\.distanceAlong) == [300, 320])
        #expect(joined.map { $0.generated?.modifier } == ["left", "right"])
    }

    @Test("a turn from the track's shape has no junction: the joined waypoint keeps its own distance")
    func shapeTurnKeepsWaypointDistance() throws {
        var shape = turn(at: 300)
        shape.junctions = [F.junction(300, heading: 90, exit: 0)]   // entry and exit only
        let joined = TurnJoiner().join([shape], into: [note(1, at: 280, text: "Bridge")])
        #expect(joined.map(\.distanceAlong) == [280])
        #expect(joined.first?.generated != nil)
    }

    @Test("words that say the other side are reported, naming the row; matching words are not")
    func sideContradiction() throws {
        let notes = [note(1, at: 290, text: "Bear left onto CG-5"), note(2, at: 1010, text: "Turn right at the chapel"),
                     note(3, at: 2005, text: "Left then right"), note(4, at: 3000, text: "Cattle grid, leftover fence")]
        let result = TurnJoiner().joinReporting([rightTurn(at: 300), rightTurn(at: 1000), rightTurn(at: 2000),
                                                 rightTurn(at: 3000)], into: notes)
        #expect(result.notes.map(\.text) == notes.map(\.text), "the person's words stay printed")
        let c = try #require(result.contradictions.first)
        #expect(result.contradictions.count == 1)
        #expect(c.noteID == 1 && c.marker == "WP1" && c.distanceAlong == 300)
        #expect(c.conflict == .side(said: -1, generated: 1))
        #expect(c.description.hasPrefix("row WP1 at 0.30 km says 'Bear left onto CG-5' but the road turns right here"))
    }

    @Test("a roundabout exit number that differs from the generated one is reported")
    func exitContradiction() throws {
        let m = try #require(F.detect(F.roundabout()).first)
        #expect(m.exitNumber == 3)
        for (words, said) in [("Roundabout, 2nd exit", 2), ("Roundabout, take exit 1", 1), ("first exit", 1)] {
            let result = TurnJoiner().joinReporting([m], into: [note(1, at: 110, text: words)])
            #expect(result.contradictions.map(\.conflict) == [.exit(said: said, generated: 3)], "\(words)")
            #expect(result.contradictions.first?.description.contains("takes exit 3") == true)
        }
        for words in ["Roundabout, 3rd exit", "exit 3 towards Encamp", "third exit", "Roundabout, then left"] {
            #expect(TurnJoiner().joinReporting([m], into: [note(1, at: 110, text: words)]).contradictions.isEmpty, "\(words)")
        }
    }
}
