import Foundation
import Geo
import Guidance
import Model
import Testing
import TestSupport

@Suite("Turns from a bare track's change of heading")
struct TrackTurnsTests {
    let grid = MetreGrid()

    /// The rows found, for a failed expectation's message: kind, modifier and whole degrees.
    func described(_ found: [Maneuver]) -> String { "\(found.map { ($0.kind, $0.modifier, Int($0.turnAngle)) })" }

    /// East 500 m, then south 500 m: one right turn at 500 m. A point every 5 m.
    var lShape: [(Double, Double)] {
        (0...100).map { (Double($0) * 5, 0) } + (1...100).map { (500, -Double($0) * 5) }
    }

    func track(_ points: [(Double, Double)], noise sigma: Double = 0, seed: UInt64 = 1) -> [Coordinate] {
        var noise = SeededGenerator(seed: seed)
        return points.map { grid($0.0 + (sigma > 0 ? noise.gaussian(sigma) : 0), $0.1 + (sigma > 0 ? noise.gaussian(sigma) : 0)) }
    }

    @Test("a clean L-shaped track gives exactly one right turn at the corner, the same twice")
    func cleanCorner() throws {
        let line = track(lShape)
        let first = TrackTurns().maneuvers(in: line)
        #expect(first.count == 1)
        let m = try #require(first.first)
        #expect(m.kind == .turn && m.modifier == .right)
        #expect(abs(m.distanceAlong - 500) <= 5, "\(m.distanceAlong)")
        #expect(abs(m.turnAngle - 90) < 3, "\(m.turnAngle)")
        #expect(TrackTurns().maneuvers(in: line) == first)
        #expect(Instructions.english.text(for: m) == "Turn right")
        let tulip = TulipBuilder.tulip(for: m)
        #expect(tulip.roads.count == 2)
        #expect(tulip.entry?.angle == 180)
        #expect(abs((tulip.exit?.angle ?? 0) - 90) < 3)
    }

    @Test("the same track with seeded GPS noise of 3 to 5 m gives the same single right turn", arguments: [3.0, 4.0, 5.0])
    func noisyCorner(sigma: Double) throws {
        for seed: UInt64 in [1, 2, 3, 42] {
            let found = TrackTurns().maneuvers(in: track(lShape, noise: sigma, seed: seed))
            #expect(found.count == 1, "σ \(sigma) m, seed \(seed): \(found.map { (Int($0.coordinate.distance(to: grid(500, 0))), Int($0.turnAngle)) })")
            guard let m = found.first else { continue }
            #expect(m.modifier == .right, "σ \(sigma) m, seed \(seed): \(m.turnAngle)")
            // Noise lengthens the line, so the place is checked on the ground, not by distance along.
            let miss = m.coordinate.distance(to: grid(500, 0))
            #expect(miss <= 20, "σ \(sigma) m, seed \(seed): \(miss) m from the corner")
        }
    }

    /// A straight, a quarter circle of radius 300 m curving right, a straight: a point every 5 m.
    var gentleCurve300: [(Double, Double)] {
        var points: [(Double, Double)] = (0..<40).map { (Double($0) * 5 - 200, 300) }
        let steps = Int(300 * Double.pi / 2 / 5)
        for k in 0...steps {
            let a = Double(k) / Double(steps) * .pi / 2
            points.append((300 * sin(a), 300 * cos(a)))
        }
        return points + (1...40).map { (300, -Double($0) * 5) }
    }

    @Test("a gently curving road (radius 300 m through 90°) gives no turn, clean or noisy")
    func gentleCurve() {
        let points = gentleCurve300
        #expect(TrackTurns().maneuvers(in: track(points)).isEmpty)
        #expect(TrackTurns().maneuvers(in: track(points, noise: 4, seed: 7)).isEmpty)
    }

    @Test("a left hairpin and a U-turn are named from their angle")
    func hairpinAndUTurn() throws {
        // North 300 m, then back down south-west at 150° to the left.
        let back = (1...60).map { k in (-Double(k) * 5 * sin(30 * Double.pi / 180), 300 - Double(k) * 5 * cos(30 * Double.pi / 180)) }
        let hairpin = (0...60).map { (0.0, Double($0) * 5) } + back
        let m = try #require(TrackTurns().maneuvers(in: track(hairpin)).first)
        #expect(m.modifier == .sharpLeft, "\(m.turnAngle)")
        // Out and back along a road 10 m wide.
        let uTurn = (0...60).map { (0.0, Double($0) * 5) } + (0...60).map { (-10.0, 300 - Double($0) * 5) }
        let u = TrackTurns().maneuvers(in: track(uTurn))
        #expect(u.map(\.kind) == [.uTurn], "\(u.map(\.turnAngle))")
    }

    /// Points every 5 m along straight legs from `start` through each corner in turn.
    func legs(_ corners: [(Double, Double)]) -> [(Double, Double)] {
        var points: [(Double, Double)] = [corners[0]]
        for (a, b) in zip(corners, corners.dropFirst()) {
            let length = ((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1)).squareRoot()
            let steps = Int((length / 5).rounded())
            for k in 1...steps {
                let t = Double(k) / Double(steps)
                points.append((a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1)))
            }
        }
        return points
    }

    @Test("a hairpin (north, a half circle of 15 m radius to the left, south) is a sharp left, not a U-turn")
    func hairpinIsSharp() throws {
        // The legs are 30 m apart: the track does not come back along itself.
        var points = legs([(0, 0), (0, 300)])
        for k in 1...9 {
            let a = Double(k) / 10 * .pi
            points.append((-15 + 15 * cos(a), 300 + 15 * sin(a)))
        }
        points += legs([(-30, 300), (-30, 0)]).dropFirst()
        let found = TrackTurns().maneuvers(in: track(points))
        #expect(found.count == 1, "\(found.map { ($0.kind, $0.turnAngle) })")
        let m = try #require(found.first)
        #expect(m.kind == .turn && m.modifier == .sharpLeft, "\(m.kind) \(m.modifier) \(m.turnAngle)")
        #expect(m.source == .shape)
    }

    /// North 300 m, a tight bend of 15 m radius turning left through 215°, then a wider one of 60 m
    /// radius back right through 35°, and on 300 m: a mountain road's hairpin, which turns further
    /// than a half circle through the bend and leaves the way it came (180° from the road before).
    var overturnedHairpin: [(Double, Double)] {
        var points = legs([(0, 0), (0, 300)])
        var (x, y, heading) = (0.0, 300.0, 0.0)
        // Arcs walked in 2.5° steps, heading in degrees from north, + right.
        for (radius, sweep) in [(15.0, -215.0), (60.0, 35.0)] {
            let steps = Int(abs(sweep) / 2.5)
            let stepLength = radius * abs(sweep) / Double(steps) * .pi / 180
            for _ in 0..<steps {
                heading += sweep / Double(steps)
                x += stepLength * sin(heading * .pi / 180); y += stepLength * cos(heading * .pi / 180)
                points.append((x, y))
            }
        }
        let end = (x + 300 * sin(heading * .pi / 180), y + 300 * cos(heading * .pi / 180))
        return points + legs([(x, y), end]).dropFirst()
    }

    @Test("a hairpin that turns 215° through its bend, the road on back the way it came, is a sharp left, not a roundabout, clean and recorded",
          arguments: [nil] + recordings.map(Optional.some))
    func overturnedHairpinIsNoRoundabout(seed: UInt64?) throws {
        let line = seed.map { recorded(overturnedHairpin, jitter: 1, seed: $0) } ?? track(overturnedHairpin)
        let found = TrackTurns().maneuvers(in: line)
        #expect(!found.contains { $0.kind == .roundabout }, "\(described(found))")
        #expect(found.contains { $0.kind == .turn && $0.modifier == .sharpLeft }, "\(described(found))")
    }

    @Test("out and back along one road (the legs 6 m apart) is a U-turn")
    func outAndBack() throws {
        let points = legs([(0, 0), (0, 300), (-6, 300), (-6, 0)])
        let found = TrackTurns().maneuvers(in: track(points))
        #expect(found.map(\.kind) == [.uTurn], "\(found.map { ($0.kind, $0.turnAngle) })")
        #expect(found.first.map { Instructions.english.text(for: $0) } == "U-turn")
    }

    @Test("a loop of 270° round a 15 m circle is a roundabout without an exit number; words and tulip still work")
    func roundaboutLoop() throws {
        // East to (0, 0), anticlockwise round the circle centred at (0, 15) from −90° to 180°
        // (270°, 71 m), then south from (−15, 15).
        var points = legs([(-300, 0), (0, 0)])
        for k in 1...14 {
            let a = -Double.pi / 2 + Double(k) / 14 * 1.5 * .pi
            points.append((15 * cos(a), 15 + 15 * sin(a)))
        }
        points += legs([(-15, 15), (-15, -285)]).dropFirst()
        let found = TrackTurns().maneuvers(in: track(points))
        #expect(found.map(\.kind) == [.roundabout], "\(found.map { ($0.kind, $0.turnAngle) })")
        let m = try #require(found.first)
        #expect(m.exitNumber == nil)
        // Place: where the loop starts, at (0, 0), 300 m along.
        #expect(abs(m.distanceAlong - 300) <= 10, "\(m.distanceAlong)")
        #expect(Instructions.english.text(for: m) == "Roundabout")
        let tulip = TulipBuilder.tulip(for: m)
        #expect(tulip.roundabout == nil && tulip.roads.count == 2)
    }

    @Test("left then right 30 m apart is one row 'Left then right'")
    func staggered() throws {
        let points = legs([(0, 0), (300, 0), (300, 30), (600, 30)])
        let found = TrackTurns().maneuvers(in: track(points))
        #expect(found.count == 1, "\(found.map { ($0.kind, $0.distanceAlong, $0.turnAngle) })")
        let m = try #require(found.first)
        #expect(m.modifier == .left, "\(m.modifier) \(m.turnAngle)")
        #expect(m.then == .right)
        #expect(Instructions.english.text(for: m) == "Left then right")
        #expect(abs(m.distanceAlong - 300) <= 10, "\(m.distanceAlong)")
    }

    @Test("a winding road with right-angle turns 80 m apart gives each turn, where it is")
    func winding() {
        // Corners at 300, 380, 460 and 540 m along: left, right, left, right.
        let points = legs([(0, 0), (300, 0), (300, 80), (380, 80), (380, 160), (680, 160)])
        let found = TrackTurns().maneuvers(in: track(points))
        #expect(found.map(\.modifier) == [.left, .right, .left, .right], "\(found.map { ($0.distanceAlong, $0.turnAngle) })")
        for (m, corner) in zip(found, [300.0, 380, 460, 540]) {
            #expect(abs(m.distanceAlong - corner) <= 10, "\(m.distanceAlong) for the corner at \(corner)")
        }
    }

    @Test("a row sits where the heading starts to change: a right curve of 30 m radius starting 300 m along")
    func placeAtStartOfCurve() throws {
        // East 300 m, a quarter circle of 30 m radius to the right (47 m), south.
        var points = legs([(0, 0), (300, 0)])
        for k in 1...9 {
            let a = Double(k) / 10 * .pi / 2
            points.append((300 + 30 * sin(a), -30 + 30 * cos(a)))
        }
        points += legs([(330, -30), (330, -330)])
        let m = try #require(TrackTurns().maneuvers(in: track(points)).first)
        #expect(m.modifier == .right)
        // Where the curve starts, not its apex (about 323 m along).
        // The row stands where the track is off the straight before it by a quarter of the 3 m
        // departure tolerance, √(2 × 30 × 0.75) ≈ 7 m of arc, give or take a 5 m sample: within
        // 12 m of the start and well before the apex. (The first round placed it 10–15 m late; a
        // tighter share walks an L-shaped corner's row back before the corner.)
        #expect(m.distanceAlong >= 300 && m.distanceAlong <= 312, "\(m.distanceAlong)")
    }

    /// East 300 m, a curve to the right of 80 m radius through 40° (56 m), then, at the junction,
    /// a corner 60° further right and a straight 300 m: the road curves into the junction.
    var curvingIntoJunction: (points: [(Double, Double)], junction: (Double, Double)) {
        var points = legs([(0, 0), (300, 0)])
        let sweep = 40 * Double.pi / 180, radius = 80.0
        for k in 1...11 {
            let a = Double(k) / 11 * sweep
            points.append((300 + radius * sin(a), -radius + radius * cos(a)))
        }
        let junction = points[points.count - 1]
        // 100° right of east in all: heading 190° on the compass, a little west of south.
        let heading = 190 * Double.pi / 180
        let end = (junction.0 + 300 * sin(heading), junction.1 + 300 * cos(heading))
        return (points + legs([junction, end]).dropFirst(), junction)
    }

    @Test("a road curving into a junction: the row sits at the corner, not where the curve before it starts, clean and recorded",
          arguments: [nil] + recordings.map(Optional.some))
    func curvingIntoJunction(seed: UInt64?) throws {
        let (points, corner) = curvingIntoJunction
        let line = seed.map { recorded(points, jitter: 1, seed: $0) } ?? track(points)
        let found = TrackTurns().maneuvers(in: line)
        #expect(found.count == 1, "\(described(found))")
        let m = try #require(found.first)
        #expect(m.kind == .turn && m.modifier.side == 1, "\(m.kind) \(m.modifier)")
        // The curve starts 56 m before the corner. The row is at the junction: within 10 m of it on
        // the clean line, and on a recording within 30 m, where the turn-quality benchmark calls it
        // the same place (placed where the track leaves the line before the curve, one recording's
        // row was 34 m short of it).
        let miss = m.coordinate.distance(to: grid(corner.0, corner.1))
        #expect(miss <= (seed == nil ? 10 : 30), "\(miss) m from the corner")
    }

    /// See `MetreGrid.recorded`.
    func recorded(_ points: [(Double, Double)], sigma: Double = 3, jitter: Double? = nil, spacing: Double = 10, seed: UInt64) -> [Coordinate] {
        grid.recorded(points, sigma: sigma, jitter: jitter, spacing: spacing, seed: seed)
    }

    /// Seeds of the noisy-track tests: each is a different recording of the same road.
    static let recordings: [UInt64] = [11, 12, 13, 14, 15, 16, 17, 18]

    @Test("a recorded track (a fix every 10 m, 3 m noise) of a 90° right turn gives one right turn at the corner",
          arguments: recordings)
    func recordedRightAngle(seed: UInt64) throws {
        let found = TrackTurns().maneuvers(in: recorded(legs([(0, 0), (400, 0), (400, -400)]), seed: seed))
        #expect(found.count == 1, "\(described(found))")
        let m = try #require(found.first)
        #expect(m.kind == .turn && m.modifier.side == 1, "\(m.kind) \(m.modifier)")
        #expect(m.coordinate.distance(to: grid(400, 0)) <= 20, "\(m.coordinate.distance(to: grid(400, 0))) m from the corner")
    }

    @Test("a recorded track of a hairpin (a half circle of 15 m radius to the left) gives one sharp left, no U-turn",
          arguments: recordings)
    func recordedHairpin(seed: UInt64) throws {
        var points = legs([(0, 0), (0, 300)])
        for k in 1...9 {
            let a = Double(k) / 10 * .pi
            points.append((-15 + 15 * cos(a), 300 + 15 * sin(a)))
        }
        points += legs([(-30, 300), (-30, 0)]).dropFirst()
        let found = TrackTurns().maneuvers(in: recorded(points, seed: seed))
        #expect(found.count == 1, "\(described(found))")
        let m = try #require(found.first)
        #expect(m.kind == .turn && m.modifier == .sharpLeft, "\(m.kind) \(m.modifier) \(m.turnAngle)")
        #expect(m.coordinate.distance(to: grid(0, 300)) <= 30, "\(m.coordinate.distance(to: grid(0, 300))) m from the bend")
    }

    @Test("a recorded track round a small roundabout (15 m radius, left at the third exit) gives one row there, a roundabout or a left",
          arguments: recordings)
    func recordedSmallRoundabout(seed: UInt64) throws {
        // East to (0, 0), anticlockwise 270° round the circle centred at (0, 15), south from (−15, 15).
        var points = legs([(-300, 0), (0, 0)])
        for k in 1...14 {
            let a = -Double.pi / 2 + Double(k) / 14 * 1.5 * .pi
            points.append((15 * cos(a), 15 + 15 * sin(a)))
        }
        points += legs([(-15, 15), (-15, -285)]).dropFirst()
        let found = TrackTurns().maneuvers(in: recorded(points, seed: seed))
        #expect(found.count == 1, "\(described(found))")
        let m = try #require(found.first)
        #expect(m.kind == .roundabout || m.modifier.side == -1, "\(m.kind) \(m.modifier) \(m.turnAngle)")
        #expect(m.coordinate.distance(to: grid(0, 0)) <= 30, "\(m.coordinate.distance(to: grid(0, 0))) m from the entry")
    }

    @Test("a recorded track of S-bends (right angles left, right, left, right, 100 m apart) gives each, in order",
          arguments: recordings)
    func recordedSBends(seed: UInt64) {
        let corners: [(Double, Double)] = [(300, 0), (300, 100), (400, 100), (400, 200)]
        let found = TrackTurns().maneuvers(in: recorded(legs([(0, 0)] + corners + [(700, 200)]), seed: seed))
        #expect(found.map(\.modifier.side) == [-1, 1, -1, 1], "\(described(found))")
        for (m, corner) in zip(found, corners) {
            let miss = m.coordinate.distance(to: grid(corner.0, corner.1))
            #expect(miss <= 20, "\(miss) m from the corner at \(corner)")
        }
    }

    @Test("a recorded track of a straight road, and of a 300 m radius curve, gives no row", arguments: recordings)
    func recordedNothing(seed: UInt64) {
        #expect(TrackTurns().maneuvers(in: recorded(legs([(0, 0), (800, 0)]), seed: seed)).isEmpty)
        let points = gentleCurve300
        let curve = TrackTurns().maneuvers(in: recorded(points, seed: seed))
        #expect(curve.isEmpty, "\(curve.map { ($0.kind, $0.modifier, Int($0.turnAngle)) })")
    }

    /// East along y = 0, through a roundabout of radius `radius` centred at the origin, driven
    /// anticlockwise (on the right) and left straight on: in at 210°, round the south side, out at
    /// 330°. The line swings right, left and right again and keeps its heading.
    func straightThroughRoundabout(radius: Double) -> [(Double, Double)] {
        var points = legs([(-300, 0), (-radius - 8, 0)])
        for k in 0...12 {
            let a = (210 + Double(k) * 10) * .pi / 180
            points.append((radius * cos(a), radius * sin(a)))
        }
        return points + legs([(radius + 8, 0), (300, 0)])
    }

    @Test("a receiver's track (3 m of error, 1 m of it jitter) of a 90° right turn gives one right turn at the corner",
          arguments: recordings)
    func receiverRightAngle(seed: UInt64) throws {
        let found = TrackTurns().maneuvers(in: recorded(legs([(0, 0), (400, 0), (400, -400)]), jitter: 1, seed: seed))
        #expect(found.count == 1, "\(described(found))")
        let m = try #require(found.first)
        #expect(m.kind == .turn && m.modifier.side == 1, "\(m.kind) \(m.modifier)")
        #expect(m.coordinate.distance(to: grid(400, 0)) <= 20, "\(m.coordinate.distance(to: grid(400, 0))) m from the corner")
    }

    /// Read from the track smoothed over 15 m, as before, one of these eight tracks did not give this
    /// row: smoothing so rounds corners cut by a metre of jitter and melts turns this close together.
    @Test("a receiver's track of a 60° left then a 60° right turn 35 m apart gives one row 'Left then right' at the first corner",
          arguments: recordings)
    func receiverStaggered(seed: UInt64) throws {
        let found = TrackTurns().maneuvers(in: recorded(legs([(0, 0), (300, 0), (317.5, 30.3), (617.5, 30.3)]), jitter: 1, seed: seed))
        #expect(found.count == 1, "\(found.map { ($0.kind, $0.modifier, $0.then as Any, Int($0.turnAngle)) })")
        let m = try #require(found.first)
        #expect(Instructions.english.text(for: m) == "Left then right", "\(m.kind) \(m.modifier) \(m.then as Any)")
        #expect(m.coordinate.distance(to: grid(300, 0)) <= 20, "\(m.coordinate.distance(to: grid(300, 0))) m from the corner")
    }

    @Test("a receiver's track of a straight road, and of a 300 m radius curve, gives no row", arguments: recordings)
    func receiverNothing(seed: UInt64) {
        let straight = TrackTurns().maneuvers(in: recorded(legs([(0, 0), (800, 0)]), jitter: 1, seed: seed))
        #expect(straight.isEmpty, "\(straight.map { ($0.kind, $0.modifier, Int($0.turnAngle)) })")
        let points = gentleCurve300
        let curve = TrackTurns().maneuvers(in: recorded(points, jitter: 1, seed: seed))
        #expect(curve.isEmpty, "\(curve.map { ($0.kind, $0.modifier, Int($0.turnAngle)) })")
    }

    @Test("a small roundabout passed straight on (12 m radius) gives one row at its entry on a clean line and on a receiver's track",
          arguments: recordings)
    func receiverStraightThroughRoundabout(seed: UInt64) throws {
        let line = straightThroughRoundabout(radius: 12)
        for (name, track) in [("clean", track(line)), ("receiver", recorded(line, jitter: 1, seed: seed))] {
            let found = TrackTurns().maneuvers(in: track)
            #expect(found.count == 1, "\(name): \(described(found))")
            let m = try #require(found.first)
            // Where the line meets the ring, as OSRM places a roundabout maneuver.
            let entry = grid(12 * cos(210 * .pi / 180), 12 * sin(210 * .pi / 180))
            #expect(m.coordinate.distance(to: entry) <= 30, "\(name): \(m.coordinate.distance(to: entry)) m from the entry")
        }
    }

    @Test("where traffic keeps left, a track seen in a mirror gives the rows of the track itself where traffic keeps right, sides swapped: a small roundabout passed straight on is a ring both ways round",
          arguments: recordings)
    func leftHandMirrored(seed: UInt64) throws {
        var left = TrackTurns.Configuration()
        left.leftHandTraffic = true
        let drivenLeft = TrackTurns(configuration: left), drivenRight = TrackTurns()
        // 8 m: a ring whose swings are too short for the bends, so its row comes from the wiggle alone.
        let line = straightThroughRoundabout(radius: 8)
        func mirrored(_ track: [Coordinate]) -> [Coordinate] {
            track.map { let p = grid.frame.project($0); return grid.frame.unproject(x: p.x, y: -p.y) }
        }
        func rows(_ found: [Maneuver]) -> [String] { found.map { "\($0.kind) \($0.modifier) \(Int($0.turnAngle.rounded()))" } }
        // The clean line: a ring driven anticlockwise where traffic keeps right, clockwise seen in the mirror.
        #expect(drivenRight.maneuvers(in: track(line)).map(\.kind) == [.roundabout])
        #expect(drivenLeft.maneuvers(in: mirrored(track(line))).map(\.kind) == [.roundabout])
        // The wrong way round for the side traffic keeps to, the same swings are a jog of the road.
        for wrong in [drivenLeft.maneuvers(in: track(line)), drivenRight.maneuvers(in: mirrored(track(line)))] {
            #expect(!wrong.isEmpty && !wrong.contains { $0.kind == .roundabout }, "\(rows(wrong))")
        }
        // A receiver's track and its mirror image, whatever each finds.
        let recording = recorded(line, jitter: 1, seed: seed)
        let right = drivenRight.maneuvers(in: recording), seenLeft = drivenLeft.maneuvers(in: mirrored(recording))
        #expect(right.map(\.kind) == seenLeft.map(\.kind) && right.map { -$0.modifier.side } == seenLeft.map(\.modifier.side),
                "right: \(rows(right)); mirrored, left: \(rows(seenLeft))")
    }

    /// A receiver's jitter makes wiggles of its own that bulge either way: on the turn-quality
    /// benchmark's routes two in three "Roundabout" rows read from them stood at no roundabout, so a
    /// receiver's track names none; its ring passed straight is still a row, "Straight on".
    @Test("a receiver's track of an 8 m ring passed straight on gives one row there, Straight on, never a roundabout", arguments: recordings)
    func receiverRingNotNamed(seed: UInt64) throws {
        let found = TrackTurns().maneuvers(in: recorded(straightThroughRoundabout(radius: 8), jitter: 1, seed: seed))
        #expect(!found.contains { $0.kind == .roundabout }, "\(described(found))")
        let rows = found.filter { $0.coordinate.distance(to: grid(-8, 0)) <= 30 }
        #expect(rows.count == 1 && rows.allSatisfy { $0.kind == .straightOn || abs($0.turnAngle) < 45 },
                "\(found.map { ($0.kind, $0.modifier, Int($0.turnAngle), Int($0.coordinate.distance(to: grid(-8, 0)))) })")
    }

    /// South-east 200 m, then a curve of 30 m radius to the left through 45°, 38° of it in its last
    /// 20 m, straight into `straightThroughRoundabout(radius: 8)`'s ring: the approach is no steady road.
    var ringAfterCurve: [(Double, Double)] {
        let r = 30.0, centre = (-16.0, r)
        func onArc(_ phi: Double) -> (Double, Double) { (centre.0 + r * cos((-90 - phi) * .pi / 180), centre.1 + r * sin((-90 - phi) * .pi / 180)) }
        let sweep = 45.0, start = onArc(sweep)
        let heading = (90 + sweep) * .pi / 180
        var points = legs([(start.0 - 200 * sin(heading), start.1 - 200 * cos(heading)), start])
        points += stride(from: sweep - 2.5, through: 0, by: -2.5).map(onArc)
        return points + straightThroughRoundabout(radius: 8).drop { $0.0 <= -16 }
    }

    @Test("a ring-shaped wiggle right after a curve is a ring only where the approach is steady: after 38° of curve in its last 20 m it is no roundabout; with the approach's limit lifted it is")
    func ringNeedsSteadyApproach() {
        let line = track(ringAfterCurve)
        func describe(_ found: [Maneuver]) -> String { "\(found.map { ($0.kind, $0.modifier, Int($0.turnAngle), Int($0.distanceAlong)) })" }
        let found = TrackTurns().maneuvers(in: line)
        var lifted = TrackTurns.Configuration()
        lifted.ringApproachTurn = 360
        let unlimited = TrackTurns(configuration: lifted).maneuvers(in: line)
        #expect(!found.contains { $0.kind == .roundabout }, "\(describe(found))")
        #expect(unlimited.contains { $0.kind == .roundabout }, "\(describe(unlimited))")
    }

    /// A mountain road's jog between hairpins, as drawn in the map (the vertices of a road in the
    /// Andorra extract, metres east and north of the jog): heading 26°, then 7°, 351°, 17° and on at
    /// 334°. It bulges out to the right of its ends, as a ring passed straight does, and was named a
    /// roundabout; but it swings left, left, right and left: off a ring the track swings out
    /// (right), not back in.
    @Test("a jog of the road that bulges right but swings back in at its end is no roundabout; the ring passed straight still is one")
    func jogIsNoRing() {
        let jog = legs([
            (89.9, -93.3), (119.4, -87.4), (124.4, -81.3), (116.9, -76.4), (81.1, -70.2),
            (38.6, -72.2), (4.3, -89.2), (-22.5, -118.1), (-27.6, -118.3), (-28.9, -115.0),
            (2.1, -50.1), (4.5, -29.0), (-1.1, 7.3), (7.8, 36.0), (-35.2, 125.8), (-42.7, 145.2),
            (-48.2, 159.7), (-50.7, 170.2), (-51.9, 182.9), (-54.1, 193.9), (-56.9, 201.4),
            (-62.4, 205.5), (-70.3, 207.5), (-77.5, 205.9), (-84.1, 202.0), (-90.3, 186.7),
            (-98.6, 167.5), (-103.1, 154.8), (-103.7, 147.9), (-102.1, 140.7), (-102.6, 133.8),
            (-104.6, 117.9), (-107.4, 97.1), (-107.2, 19.7)
        ])
        let found = TrackTurns().maneuvers(in: track(jog))
        #expect(!found.isEmpty && !found.contains { $0.kind == .roundabout }, "\(described(found))")
        #expect(TrackTurns().maneuvers(in: track(straightThroughRoundabout(radius: 8))).map(\.kind) == [.roundabout])
    }

    @Test("a track is read as clean, a receiver's (jittered) or scattered by its own scatter; one too short is not read",
          arguments: recordings)
    func readings(seed: UInt64) throws {
        let road = legs([(0, 0), (600, 0), (600, -600)])
        let clean = try #require(TrackTurns().read(track(road)).reading)
        #expect(clean.kind == .clean && clean.scatter < 0.05, "\(clean)")
        let receiver = try #require(TrackTurns().read(recorded(road, jitter: 1, seed: seed)).reading)
        #expect(receiver.kind == .jittered, "\(receiver)")
        let scattered = try #require(TrackTurns().read(recorded(road, seed: seed)).reading)
        #expect(scattered.kind == .scattered && scattered.scatter > receiver.scatter, "\(scattered)")
        #expect(TrackTurns().read(track([(0, 0), (20, 0)])).reading == nil)
    }

    @Test("a receiver's track logged densely (a fix every metre) of a 90° right turn is read as a receiver's: one right turn at the corner, at its distance along the track",
          arguments: recordings)
    func denseReceiverRightAngle(seed: UInt64) throws {
        let track = recorded(legs([(0, 0), (400, 0), (400, -400)]), jitter: 1, spacing: 1, seed: seed)
        #expect(TrackTurns().read(track).reading?.kind == .jittered, "\(String(describing: TrackTurns().read(track).reading))")
        let found = TrackTurns().maneuvers(in: track)
        #expect(found.count == 1, "\(described(found))")
        let m = try #require(found.first)
        #expect(m.kind == .turn && m.modifier.side == 1, "\(m.kind) \(m.modifier)")
        #expect(m.coordinate.distance(to: grid(400, 0)) <= 20, "\(m.coordinate.distance(to: grid(400, 0))) m from the corner")
        // A metre of jitter at every metre makes the track about twice as long as the 800 m road: the row
        // is placed along the track, within 20 m of ground of the corner.
        let line = Polyline(track)
        let corner = try #require(line.position(closestTo: grid(400, 0))).distanceAlong
        #expect(line.length > 1_200 && abs(m.distanceAlong - corner) * 800 / line.length <= 20,
                "row at \(m.distanceAlong) m, corner at \(corner) m of \(line.length) m")
        #expect(m.coordinate.distance(to: line.coordinate(atDistance: m.distanceAlong)) < 0.01)
    }
}
