import Foundation
import Geo
import Model
import Pipeline
import Testing
import TestSupport

@Suite("Joining generated turns into located notes")
struct JoinTurnsTests {
    typealias F = TurnFixtures

    /// A left turn at a crossroads `distanceAlong` metres along, onto CG-4.
    func turn(at distanceAlong: Metres) -> Maneuver {
        F.detect([F.junction(distanceAlong, heading: 90, exit: 0, sides: [90, 180], exitRef: "CG-4")])[0]
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
}
