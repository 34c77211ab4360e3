import Foundation
import Geo
import Guidance
import Model
import Testing
import TestSupport

/// Junction fixtures built from bearings. Each is drawn as a small map: `>` / `^` is where the rider
/// comes from, `*` the junction, `X` the road taken, `o` another road.
enum TurnFixtures {
    static let grid = MetreGrid()

    /// A junction at `distanceAlong` metres, arriving with compass heading `heading`, leaving along
    /// compass bearing `exit`, with other roads at `sides` (compass bearings).
    static func junction(_ distanceAlong: Metres, heading: Degrees, exit: Degrees, sides: [Degrees] = [],
                         exitRef: String? = nil, exitName: String? = nil) -> Junction {
        var spokes = [Spoke(bearing: normalizedBearing(heading + 180), role: .entry),
                      Spoke(bearing: exit, role: .exit, name: exitName, ref: exitRef)]
        spokes += sides.map { Spoke(bearing: $0, role: .side) }
        return Junction(coordinate: grid(distanceAlong, 0), distanceAlong: distanceAlong, spokes: spokes)
    }

    static func detect(_ junctions: [Junction], configuration: TurnDetector.Configuration = .init()) -> [Maneuver] {
        TurnDetector(configuration: configuration).maneuvers(in: RoadGeometry(line: [], junctions: junctions))
    }

    static func words(_ junctions: [Junction], configuration: TurnDetector.Configuration = .init()) -> [String] {
        detect(junctions, configuration: configuration).map(Instructions.english.text(for:))
    }

    /// Tulip roads as (role, angle rounded to a degree), sorted by angle, for comparing.
    static func roads(_ m: Maneuver) -> [String] {
        TulipBuilder.tulip(for: m).roads.map { "\($0.role.rawValue) \(Int($0.angle.rounded()))" }.sorted()
    }

    /// A roundabout of radius 20 m entered at its south node heading north and driven counterclockwise
    /// (driving on the right): S (entry) → E (1st exit) → N (2nd exit) → W (3rd exit, taken).
    ///
    ///            o
    ///          . N .
    ///     X - W     E - o
    ///          . S .
    ///            ^
    static func roundabout() -> [Junction] {
        let quarter = 2 * Double.pi * 20 / 4
        func ring(_ bearing: Degrees, _ role: RoadRole, canLeave: Bool = true) -> Spoke {
            Spoke(bearing: bearing, role: role, canLeave: canLeave, isRoundabout: true)
        }
        let s = Junction(coordinate: grid(0, -20), distanceAlong: 100, spokes: [
            Spoke(bearing: 180, role: .entry), ring(45, .exit), ring(315, .side, canLeave: false)])
        let e = Junction(coordinate: grid(20, 0), distanceAlong: 100 + quarter, spokes: [
            ring(225, .entry), ring(315, .exit), Spoke(bearing: 90, role: .side)])
        let n = Junction(coordinate: grid(0, 20), distanceAlong: 100 + 2 * quarter, spokes: [
            ring(135, .entry), ring(225, .exit), Spoke(bearing: 0, role: .side)])
        let w = Junction(coordinate: grid(-20, 0), distanceAlong: 100 + 3 * quarter, spokes: [
            ring(45, .entry), Spoke(bearing: 270, role: .exit, ref: "CG-2"), ring(135, .side)])
        return [s, e, n, w]
    }
}

@Suite("Turn detection from junctions")
struct TurnDetectionTests {
    typealias F = TurnFixtures

    //       X
    //   > - * - o
    //       o
    @Test("crossroads, turning left: Turn left, exit drawn at −90")
    func crossroadsLeft() throws {
        let found = F.detect([F.junction(100, heading: 90, exit: 0, sides: [90, 180])])
        let m = try #require(found.first)
        #expect(found.count == 1)
        #expect(m.kind == .turn && m.modifier == .left && m.atCrossroads)
        #expect(Instructions.english.text(for: m) == "Turn left")
        #expect(F.roads(m) == ["entry 180", "exit -90", "side 0", "side 90"])
    }

    @Test("every junction starts unclassified; after the classifying pass no maneuver is")
    func classification() {
        let junctions = F.roundabout() + [
            F.junction(500, heading: 90, exit: 0, sides: [90, 180]),      // crossroads, turn left
            F.junction(800, heading: 90, exit: 90, sides: [60]),          // straight on past a mistakable road
            F.junction(1100, heading: 0, exit: 330, sides: [30]),         // fork, keep left
            F.junction(1400, heading: 0, exit: 90, sides: [270]),         // end of road, turn right
            F.junction(1700, heading: 0, exit: 10, sides: [270]),         // no row: the road bends
        ]
        var steps = junctions.map {
            Maneuver(kind: .unclassified, modifier: .straight, distanceAlong: $0.distanceAlong, coordinate: $0.coordinate,
                     turnAngle: 0, junctions: [$0])
        }
        let context = TurnDetector.Context()
        var unclassifiedAfter: [String: Int] = [:]
        for pass in TurnDetector.passes {
            steps = pass.run(steps, context)
            unclassifiedAfter[pass.name] = steps.filter { $0.kind == .unclassified }.count
        }
        #expect(unclassifiedAfter["mark U-turns"] == 5)
        #expect(unclassifiedAfter["classify junctions"] == 0 && unclassifiedAfter["add keep-straight reminders"] == 0)
        #expect(steps.map(\.kind) == [.roundabout, .turn, .straightOn, .fork, .endOfRoad])
        #expect(steps == F.detect(junctions))
    }

    @Test("crossroads, turning right onto a named road: Turn right onto Main Street")
    func crossroadsRight() throws {
        let m = try #require(F.detect([F.junction(100, heading: 90, exit: 180, sides: [90, 0], exitName: "Main Street")]).first)
        #expect(m.kind == .turn && m.modifier == .right)
        #expect(Instructions.english.text(for: m) == "Turn right onto Main Street")
        #expect(F.roads(m) == ["entry 180", "exit 90", "side -90", "side 0"])
    }

    @Test("crossroads straight on makes no row when nothing could be mistaken, unless asked for every crossroads")
    func crossroadsStraight() throws {
        let plain = F.junction(100, heading: 90, exit: 90, sides: [0, 180])
        #expect(F.detect([plain]).isEmpty)
        var every = TurnDetector.Configuration()
        every.straightOnAtEveryCrossroads = true
        #expect(F.words([plain], configuration: every) == ["Straight on at crossroads"])
    }

    //      o X
    //      |/
    //      *
    //      ^       a side road 35° off straight could be taken for the way on
    @Test("straight on past a side road that could be mistaken makes a Straight on row")
    func straightPastMistakableRoad() throws {
        let m = try #require(F.detect([F.junction(100, heading: 0, exit: 0, sides: [35])]).first)
        #expect(m.kind == .straightOn && m.modifier == .straight)
        #expect(Instructions.english.text(for: m) == "Straight on")
        #expect(F.roads(m) == ["entry 180", "exit 0", "side 35"])
    }

    //   o - * - X
    //       ^
    @Test("T junction: End of road, turn right onto the ref")
    func tJunction() throws {
        let m = try #require(F.detect([F.junction(100, heading: 0, exit: 90, sides: [270], exitRef: "CG-2")]).first)
        #expect(m.kind == .endOfRoad && m.modifier == .right)
        #expect(Instructions.english.text(for: m) == "End of road, turn right onto CG-2")
        #expect(F.roads(m) == ["entry 180", "exit 90", "side -90"])
        let left = try #require(F.detect([F.junction(100, heading: 0, exit: 270, sides: [90])]).first)
        #expect(Instructions.english.text(for: left) == "End of road, turn left")
    }

    //   X   o        o   X
    //    \ /          \ /
    //     *            *
    //     ^            ^
    @Test("Y fork: Keep left at fork and Keep right at fork")
    func yFork() throws {
        let left = try #require(F.detect([F.junction(100, heading: 0, exit: 335, sides: [25])]).first)
        #expect(left.kind == .fork && left.modifier == .slightLeft)
        #expect(Instructions.english.text(for: left) == "Keep left at fork")
        #expect(F.roads(left) == ["entry 180", "exit -25", "side 25"])
        let right = try #require(F.detect([F.junction(100, heading: 0, exit: 25, sides: [335])]).first)
        #expect(right.kind == .fork && right.modifier == .slightRight)
        #expect(Instructions.english.text(for: right) == "Keep right at fork")
    }

    //      o          two equal roads both bearing right, 25° and 40°: the side is the route's
    //     X|          place between the branches, not its side of straight ahead
    //     |/
    //     *
    //     ^
    @Test("a fork whose branches both bear right: Keep left on the lesser, Keep right on the greater")
    func forkOnOneSide() throws {
        let lesser = try #require(F.detect([F.junction(100, heading: 0, exit: 25, sides: [40])]).first)
        #expect(lesser.kind == .fork && lesser.modifier == .slightLeft)
        #expect(Instructions.english.text(for: lesser) == "Keep left at fork")
        let greater = try #require(F.detect([F.junction(100, heading: 0, exit: 40, sides: [25])]).first)
        #expect(Instructions.english.text(for: greater) == "Keep right at fork")
        // Both bearing left, −25° and −40°: the lesser is the right-hand branch.
        let left = try #require(F.detect([F.junction(100, heading: 0, exit: 335, sides: [320])]).first)
        #expect(Instructions.english.text(for: left) == "Keep right at fork")
    }

    @Test("roundabout: four ring nodes become one row, Roundabout, 3rd exit, with every exit drawn")
    func roundabout() throws {
        let found = F.detect(F.roundabout())
        #expect(found.count == 1)
        let m = try #require(found.first)
        #expect(m.kind == .roundabout && m.exitNumber == 3 && m.junctions.count == 4)
        #expect(m.modifier == .left)
        #expect(abs(m.distanceAlong - 100) < 1e-9)
        #expect(Instructions.english.text(for: m) == "Roundabout, 3rd exit onto CG-2")
        let tulip = TulipBuilder.tulip(for: m)
        #expect(tulip.origin == .generated)
        #expect(tulip.roundabout == Tulip.Roundabout(exitNumber: 3, clockwise: false))
        #expect(F.roads(m) == ["entry 180", "exit -90", "side 0", "side 90"])
    }

    @Test("roundabout: leaving by the first arm is the 1st exit")
    func roundaboutFirstExit() throws {
        var ring = F.roundabout()
        // Leave at E: its ring continuation becomes a side road.
        ring[1].spokes = [Spoke(bearing: 225, role: .entry, isRoundabout: true),
                          Spoke(bearing: 315, role: .side, isRoundabout: true),
                          Spoke(bearing: 90, role: .exit)]
        let m = try #require(F.detect(Array(ring[0...1])).first)
        #expect(m.kind == .roundabout && m.exitNumber == 1 && m.modifier == .right)
        #expect(Instructions.english.text(for: m) == "Roundabout, 1st exit")
    }

    //       o  X
    //       |  |
    //   > - *  * - o        left at the first, right at the second, 30 m on
    //          |
    @Test("staggered junction: left then right 30 m apart is one row, Left then right")
    func staggered() throws {
        let first = F.junction(200, heading: 90, exit: 0, sides: [90])
        let second = F.junction(230, heading: 0, exit: 90, sides: [0])
        let found = F.detect([first, second])
        #expect(found.count == 1)
        let m = try #require(found.first)
        #expect(m.modifier == .left && m.then == .right && m.junctions.count == 2)
        #expect(abs(m.turnAngle) < 1e-9, "left then right leaves in the direction of arrival")
        #expect(Instructions.english.text(for: m) == "Left then right")
        #expect(F.roads(m) == ["entry 180", "exit -90", "side 0"], "drawn as the first junction")
        // The same two turns 120 m apart are two rows.
        let apart = F.detect([first, F.junction(320, heading: 0, exit: 90, sides: [0])])
        #expect(apart.map(Instructions.english.text(for:)) == ["Turn left", "Turn right"])
    }

    //       o  X
    //       | /     (X runs back down at 150°)
    //       *
    //       ^
    @Test("hairpin: Turn sharp right, exit drawn at 150")
    func hairpin() throws {
        let m = try #require(F.detect([F.junction(100, heading: 0, exit: 150, sides: [0])]).first)
        #expect(m.kind == .turn && m.modifier == .sharpRight)
        #expect(Instructions.english.text(for: m) == "Turn sharp right")
        #expect(F.roads(m) == ["entry 180", "exit 150", "side 0"])
    }

    @Test("U-turn at a dead end is kept though the junction offers no choice")
    func uTurn() throws {
        let m = try #require(F.detect([F.junction(100, heading: 0, exit: 180)]).first)
        #expect(m.kind == .uTurn && m.modifier == .uTurn)
        #expect(Instructions.english.text(for: m) == "U-turn")
        #expect(F.roads(m) == ["entry 180", "exit 180"])
        let nearly = try #require(F.detect([F.junction(100, heading: 0, exit: 175, sides: [0])]).first)
        #expect(nearly.kind == .uTurn, "turning back more than 170° is a U-turn")
    }

    //      o X      main road on, slip road 25° right
    //      |/
    //      *
    //      ^
    @Test("slip road: leaving a main road 25° right is Bear right, drawn as motorway classes")
    func slipRoad() throws {
        let j = Junction(coordinate: F.grid(0, 0), distanceAlong: 100, spokes: [
            Spoke(bearing: 180, role: .entry, highway: "trunk"),
            Spoke(bearing: 0, role: .side, highway: "trunk"),
            Spoke(bearing: 25, role: .exit, highway: "trunk_link", ref: "CG-3")])
        let m = try #require(F.detect([j]).first)
        #expect(m.kind == .turn && m.modifier == .slightRight)
        #expect(Instructions.english.text(for: m) == "Bear right onto CG-3")
        let tulip = TulipBuilder.tulip(for: m)
        #expect(tulip.roads.allSatisfy { $0.roadClass == .motorway })
        #expect(F.roads(m) == ["entry 180", "exit 25", "side 0"])
    }

    @Test("turning off where a one-way road comes in is a row: the rider sees the junction (OSRM: turn right)")
    func oneWayComingIn() {
        let j = Junction(coordinate: F.grid(0, 0), distanceAlong: 100, spokes: [
            Spoke(bearing: 180, role: .entry), Spoke(bearing: 90, role: .exit),
            Spoke(bearing: 0, role: .side, canLeave: false)])
        let found = F.detect([j])
        #expect(found.map(\.kind) == [.turn] && found.map(\.modifier) == [.right])
        let ahead = Junction(coordinate: F.grid(0, 0), distanceAlong: 100, spokes: [
            Spoke(bearing: 180, role: .entry), Spoke(bearing: 90, role: .exit),
            Spoke(bearing: 270, role: .side, canLeave: false)])
        #expect(F.detect([ahead]).map(\.kind) == [.endOfRoad], "no road ahead: end of road")
    }

    @Test("two turns closer than the minimum spacing keep only the sharper")
    func minimumSpacing() throws {
        var first = TurnPasses.seed(F.junction(100, heading: 0, exit: 300, sides: [0]))
        first.kind = .turn; first.turnAngle = -60
        var second = TurnPasses.seed(F.junction(108, heading: 300, exit: 180, sides: [300]))
        second.kind = .turn; second.turnAngle = -120
        let found = TurnPasses.enforceMinimumSpacing([first, second], TurnDetector.Context())
        #expect(found.count == 1)
        #expect(found.first?.distanceAlong == 108)
    }

    @Test("a Straight on gives way to a row with a real choice, however sharp")
    func spacingPrefersAChoice() throws {
        var straight = TurnPasses.seed(F.junction(100, heading: 0, exit: 0, sides: [30]))
        straight.kind = .straightOn; straight.turnAngle = 15
        var turn = TurnPasses.seed(F.junction(110, heading: 0, exit: 330, sides: [0]))
        turn.kind = .turn; turn.turnAngle = -12
        #expect(TurnPasses.enforceMinimumSpacing([straight, turn], TurnDetector.Context()).map(\.distanceAlong) == [110])
    }

    @Test("two turns the same way 8 m apart are one row: the second is its 'then'; coming back they are a U-turn")
    func closeRowsMerge() throws {
        let found = F.detect([F.junction(100, heading: 0, exit: 300, sides: [0]),
                              F.junction(108, heading: 300, exit: 250, sides: [300])])
        #expect(found.count == 1)
        #expect(found.first.map { Instructions.english.text(for: $0) } == "Turn left, then bear left")
        let back = F.detect([F.junction(100, heading: 0, exit: 270, sides: [0]),
                             F.junction(110, heading: 270, exit: 180, sides: [270])])
        #expect(back.map(\.kind) == [.uTurn])
    }

    @Test("keep-straight reminders: none by default, one per interval on a long empty stretch when asked")
    func keepStraight() {
        let line = F.grid.line([(0, 0), (6000, 0)], step: 100)
        #expect(TurnDetector().maneuvers(in: RoadGeometry(line: line)).isEmpty)
        var c = TurnDetector.Configuration()
        c.keepStraightInterval = 2000
        let found = TurnDetector(configuration: c).maneuvers(in: RoadGeometry(line: line))
        #expect(found.map(\.kind) == [.keepStraight, .keepStraight])
        #expect(found.map { ($0.distanceAlong).rounded() } == [2000, 4000])
        #expect(Instructions.english.text(for: found[0]) == "Keep straight on")
    }

    @Test("modifiers follow the named thresholds")
    func modifiers() {
        let cases: [(Degrees, Maneuver.Modifier)] = [(0, .straight), (19, .straight), (-25, .slightLeft), (59, .slightRight),
                                                      (60, .right), (-119, .left), (-121, .sharpLeft), (169, .sharpRight),
                                                      (171, .uTurn), (180, .uTurn)]
        for (angle, expected) in cases { #expect(TurnDetector.modifier(for: angle) == expected, "\(angle)") }
    }

    @Test("ordinals and a complete English table")
    func words() {
        let ordinals = [1, 2, 3, 4, 10, 11, 12, 13, 21, 22, 23, 111].map(Instructions.englishOrdinal)
        #expect(ordinals == ["1st", "2nd", "3rd", "4th", "10th", "11th", "12th", "13th", "21st", "22nd", "23rd", "111th"])
        for phrase in Instructions.Phrase.allCases { #expect(Instructions.english.phrases[phrase] != nil, "\(phrase)") }
    }

    @Test("the passes run in the documented order")
    func passOrder() {
        #expect(TurnDetector.passes.map(\.name) == [
            "produce candidates", "collapse roundabouts", "mark U-turns", "classify junctions",
            "merge staggered junctions", "merge close rows", "enforce minimum spacing", "add keep-straight reminders"])
    }
}
