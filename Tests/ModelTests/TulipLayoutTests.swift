import Foundation
import Geo
import Model
import TestSupport
import Testing

/// The spread of a tulip's roads for drawing (`TulipLayout`), against angles worked out by hand:
/// with the exit kept, each side's roads are the least-squares placement at 20° steps within the
/// room between the entry and the exit.
@Suite struct TulipLayoutTests {
    typealias Road = Tulip.Road
    static let entry = Road(role: .entry, angle: 180)

    func shown(_ roads: [Road], clockwise: Bool = false) -> [Degrees] {
        TulipLayout.displayAngles(of: roads, clockwise: clockwise)
    }

    func expectClose(_ actual: [Degrees], _ expected: [Degrees], _ comment: Comment? = nil,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(actual.count == expected.count, comment, sourceLocation: sourceLocation)
        for (a, e) in zip(actual, expected) {
            #expect(abs(normalizedTurn(a - e)) < 1e-9, "\(actual) is not \(expected)", sourceLocation: sourceLocation)
        }
    }

    @Test("a fork 7° apart (0° taken, 7° not): the exit stays, the other road goes to 20°")
    func forkSevenDegrees() {
        // Seen from the entry, going round left then right: the exit 180° on, the side 187°: the
        // side needs 200° (20° past the exit), the least it can move.
        let angles = shown([Self.entry, Road(role: .exit, angle: 0), Road(role: .side, angle: 7)])
        expectClose(angles, [180, 0, 20])
    }

    @Test("two roads left of an exit at 16° (−22° and 7°): both stay left of it, 20° apart, least squares")
    func twoRoadsLeftOfTheExit() {
        // Going round from the entry, −22° is 158°, 7° is 187°, the exit (16°) 196°. Left of the
        // exit there is room from 20° to 176°: the nearer road goes to 176° (−4°), the other 20°
        // before it, to 156° (−24°): squares 121 + 4, the least with both in order.
        let angles = shown([Self.entry, Road(role: .side, angle: -22), Road(role: .side, angle: 7), Road(role: .exit, angle: 16)])
        expectClose(angles, [180, -24, -4, 16])
    }

    @Test("bear right at 23° past a road at 6°: the road not taken goes to 3°")
    func bearRight() {
        let angles = shown([Self.entry, Road(role: .side, angle: 6), Road(role: .exit, angle: 23)])
        expectClose(angles, [180, 3, 23])
    }

    @Test("roads already 20° apart or more are drawn exactly where they are")
    func nothingToSpread() {
        let roads = [Self.entry, Road(role: .side, angle: 70), Road(role: .side, angle: 10),
                     Road(role: .exit, angle: -60), Road(role: .side, angle: -130)]
        #expect(shown(roads) == roads.map(\.angle))
        let eight = (0..<8).map { Road(role: $0 == 0 ? .entry : $0 == 3 ? .exit : .side, angle: normalizedTurn(180 + Double($0) * 45)) }
        #expect(shown(eight) == eight.map(\.angle))
    }

    @Test("an exit too near the entry to keep moves the least it can, the road beside it before it")
    func exitWithoutRoom() {
        // 170° is 350° round from the entry: at most 340° (160°) leaves 20° to the entry.
        expectClose(shown([Self.entry, Road(role: .exit, angle: 170)]), [180, 160])
        // A road at 150° (330°) must stay before the exit: 320° (140°).
        expectClose(shown([Self.entry, Road(role: .side, angle: 150), Road(role: .exit, angle: 170)]), [180, 140, 160])
    }

    @Test("three roads 5° apart with no exit: the middle one stays, the others 20° from it")
    func threeWithoutExit() {
        expectClose(shown([Self.entry, Road(role: .side, angle: -5), Road(role: .side, angle: 0), Road(role: .side, angle: 5)]),
                    [180, -20, 0, 20])
    }

    @Test("a road on the entry is drawn on the side the ring is left from: left counterclockwise, right clockwise")
    func roadOnTheEntry() {
        let roads = [Self.entry, Road(role: .exit, angle: 180)]
        expectClose(shown(roads), [180, -160])
        expectClose(shown(roads, clockwise: true), [180, 160])
    }

    @Test("at a roundabout a road met after the exit is drawn after it going round, whatever side its bearing lies on")
    func roundaboutSides() {
        // Traffic goes counterclockwise: from the entry at the bottom it meets the right first.
        // The first exit goes on at −1°; the three other roads are met after it, on the left:
        // 25° (one-way into the ring) goes to the left of the exit, −21°; −127° stays; 125° lies
        // right of the entry, nearer the entry than the exit going round, so it goes just left of
        // the entry, −160°.
        let roads = [Self.entry, Road(role: .exit, angle: -1),
                     Road(role: .side, angle: 25, noExit: true, metBeforeExit: false),
                     Road(role: .side, angle: -127, metBeforeExit: false), Road(role: .side, angle: 125, metBeforeExit: false)]
        expectClose(shown(roads), [180, -1, -21, -127, -160])
        // Said to be met before the exit, the road at 125° stays where it is, and one at −30° goes
        // right of the exit: 19°.
        let before = [Self.entry, Road(role: .exit, angle: -1), Road(role: .side, angle: 125, metBeforeExit: true),
                      Road(role: .side, angle: -30, metBeforeExit: true)]
        expectClose(shown(before), [180, -1, 125, 19])
        // Clockwise, the roads met before the exit lie left of it: the road at 125° goes to −160°.
        expectClose(shown([Self.entry, Road(role: .exit, angle: -1), Road(role: .side, angle: 125, metBeforeExit: true)], clockwise: true),
                    [180, -1, -160])
        // Without the flag its angle decides, as at any junction.
        expectClose(shown([Self.entry, Road(role: .exit, angle: -1), Road(role: .side, angle: 125)]), [180, -1, 125])
    }

    @Test("a tulip without an entry keeps its roads clear of the entry drawn at 180°")
    func noEntry() {
        expectClose(shown([Road(role: .exit, angle: 0), Road(role: .side, angle: 10), Road(role: .side, angle: -175)]),
                    [0, 20, -160])
    }

    @Test("19 roads or more cannot be 20° apart: they are drawn evenly round the circle, in order")
    func tooManyRoads() {
        #expect(TulipLayout.separation(forRoads: 18) == 20)
        #expect(abs(TulipLayout.separation(forRoads: 19) - 360.0 / 19) < 1e-12)
        // The entry and 18 roads all ahead: drawn 360/19 apart from the entry on, in their order.
        var roads = [Self.entry]
        for k in 0..<18 { roads.append(Road(role: k == 9 ? .exit : .side, angle: Double(k) * 0.1)) }
        let angles = shown(roads)
        #expect(angles[0] == 180)
        for k in 1...18 {
            let expected = normalizedTurn(180 + Double(k) * 360 / 19)
            #expect(abs(normalizedTurn(angles[k] - expected)) < 1e-9, "road \(k): \(angles[k]), expected \(expected)")
        }
        let tulip = Tulip(origin: .generated, roads: roads)
        #expect(TulipLayout.narrowestGap(of: tulip)! >= 360.0 / 19 - 1e-9)
    }

    @Test("seeded random tulips: 20° apart when drawn, order round the entry kept, entry fixed, exit kept where it has room")
    func randomTulips() {
        var random = SeededGenerator(seed: 20)
        for round in 0..<2_000 {
            let count = 2 + Int(random.next() % 10)
            var roads = [Self.entry]
            let exitAt = 1 + Int(random.next() % UInt64(count - 1))
            for k in 1..<count {
                // Clustered: most roads within 40° of straight on, as forks and slip roads are.
                let angle = random.uniform() < 0.7 ? (random.uniform() - 0.5) * 80 : (random.uniform() - 0.5) * 360
                roads.append(Road(role: k == exitAt ? .exit : .side, angle: normalizedTurn(angle)))
            }
            let angles = shown(roads)
            #expect(angles[0] == 180)
            let gap = TulipLayout.narrowestGap(angles)!
            #expect(gap >= 20 - 1e-9, "round \(round): \(roads.map(\.angle)) drawn \(angles)")
            // Order round the entry, going round from it: the same before and after.
            func around(_ a: Degrees) -> Degrees { normalizedBearing(a - 180) }
            let before = roads.indices.dropFirst().sorted { (around(roads[$0].angle), $0) < (around(roads[$1].angle), $1) }
            let after = roads.indices.dropFirst().sorted { (around(angles[$0]), $0) < (around(angles[$1]), $1) }
            #expect(before == after, "round \(round): order changed, \(roads.map(\.angle)) drawn \(angles)")
            // Where the roads on each side of the exit fit at 20° steps, the exit stays.
            let rank = before.firstIndex(of: exitAt)!, place = around(roads[exitAt].angle)
            if place >= Double(rank + 1) * 20, 360 - place >= Double(count - 1 - rank) * 20 {
                #expect(angles[exitAt] == roads[exitAt].angle, "round \(round): exit moved, \(roads.map(\.angle)) drawn \(angles)")
            }
        }
    }
}
