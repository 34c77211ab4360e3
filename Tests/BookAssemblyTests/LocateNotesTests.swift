import BookAssembly
import Foundation
import Geo
import Testing
import TestSupport

private let grid = MetreGrid()

private func locate(_ route: [(Double, Double)], _ notes: [(Double, Double)], offRoute: Double = 50) -> [NoteLocation] {
    let line = Polyline(grid.line(route))
    return NoteLocator(route: line, configuration: .init(offRouteDistance: offRoute)).locate(notes.map { grid($0.0, $0.1) })
}

@Suite("Locating notes by distance along the route")
struct LocateNotesTests {
    @Test("a note beside a straight road sits where the road passes it, with a signed offset")
    func straightRoad() {
        let found = locate([(0, 0), (1000, 0)], [(100, 5), (500, -20)])
        #expect(abs(found[0].distanceAlong - 100) < 0.01)
        #expect(abs(found[0].offsetFromRoute - -5) < 0.01, "north of an eastbound road is on the left")
        #expect(abs(found[1].distanceAlong - 500) < 0.01)
        #expect(abs(found[1].offsetFromRoute - 20) < 0.01)
        #expect(found.allSatisfy { $0.isOnRoute })
    }

    @Test("out-and-back: each note takes the pass that keeps the file order")
    func outAndBack() {
        // Out on the south side of the road, back on the north side, as a rider keeps right.
        let route = [(0.0, -3.0), (1000, -3), (1000, 3), (0, 3)]
        let found = locate(route, [(200, 0), (800, 0), (600, 0), (100, 0)])
        let expected: [Double] = [200, 800, 1006 + 400, 1006 + 900]
        for (f, e) in zip(found, expected) { #expect(abs(f.distanceAlong - e) < 0.5, "\(f.distanceAlong) vs \(e)") }
        #expect(found.allSatisfy { $0.passes == 2 })
    }

    @Test("the same out-and-back notes in the other file order take the other passes")
    func outAndBackReversedOrder() {
        let route = [(0.0, -3.0), (1000, -3), (1000, 3), (0, 3)]
        // Listed as they would be met driving back first: the first two can only come first on the way out
        // if the order is kept, so a file starting at the far end puts them on the way back.
        let found = locate(route, [(900, 0), (950, 0), (300, 0)])
        let expected: [Double] = [900, 950, 1006 + 700]
        for (f, e) in zip(found, expected) { #expect(abs(f.distanceAlong - e) < 0.5, "\(f.distanceAlong) vs \(e)") }
    }

    @Test("loop: a note at the shared start and finish is the start when first and the finish when last")
    func loop() {
        let route = [(0.0, 0.0), (500, 0), (500, 500), (0, 500), (0, 0)]
        let found = locate(route, [(0, 0), (250, 2), (500, 250), (2, 250), (0, 0)])
        let expected: [Double] = [0, 250, 750, 1750, 2000]
        for (f, e) in zip(found, expected) { #expect(abs(f.distanceAlong - e) < 0.5, "\(f.distanceAlong) vs \(e)") }
    }

    @Test("figure-eight: the crossing is met twice, and each note there takes its turn")
    func figureEight() {
        // Two squares meeting at (0, 0), crossing diagonally: the route passes (0, 0) at 0, 800·2 and the end.
        let route = [(-200.0, -200.0), (200, 200), (200, -200), (-200, 200), (-200, -200)]
        let line = Polyline(grid.line(route))
        #expect(line.length > 0)
        let crossingFirst = 200 * 2.0.squareRoot()
        let crossingSecond = 400 * 2.0.squareRoot() + 400 + 200 * 2.0.squareRoot()
        let found = locate(route, [(-100, -100), (0, 0), (200, 0), (0, 0), (-200, 0)])
        #expect(abs(found[1].distanceAlong - crossingFirst) < 0.5)
        #expect(abs(found[3].distanceAlong - crossingSecond) < 0.5)
        #expect(zip(found, found.dropFirst()).allSatisfy { $0.distanceAlong < $1.distanceAlong })
    }

    @Test("a note farther than the limit is reported off the route with its nearest place and distance")
    func offRoute() {
        let found = locate([(0, 0), (1000, 0)], [(300, 80), (600, 49)])
        #expect(!found[0].isOnRoute)
        #expect(abs(found[0].distanceAlong - 300) < 0.01)
        #expect(abs(abs(found[0].offsetFromRoute) - 80) < 0.01)
        #expect(found[1].isOnRoute)
        let tight = locate([(0, 0), (1000, 0)], [(600, 49)], offRoute: 40)
        #expect(!tight[0].isOnRoute)
    }

    @Test("an off-route note beyond the route's end is measured to the end")
    func offRouteBeyondEnd() {
        let found = locate([(0, 0), (1000, 0)], [(1500, 0)])
        #expect(!found[0].isOnRoute)
        #expect(abs(found[0].distanceAlong - 1000) < 0.01)
        #expect(abs(abs(found[0].offsetFromRoute) - 500) < 0.5)
    }

    @Test("notes listed out of order on a road driven once are still placed right")
    func unorderedFile() {
        let found = locate([(0, 0), (1000, 0)], [(700, 0), (100, 0), (400, 0)])
        #expect(found.map { ($0.distanceAlong).rounded() } == [700, 100, 400])
    }

    @Test("a bend hugging a note is one pass, not two")
    func bendIsOnePass() {
        // A zig-zag keeps coming within the limit of the note, but it is one visit of that place.
        let zigzag = [(0.0, 0.0), (100, 10), (200, 0), (300, 10), (400, 0)]
        let found = locate(zigzag, [(200, 5)])
        #expect(found[0].passes == 1)
    }

    @Test("on a twisting track driven once, every note lands where a brute-force search puts it")
    func matchesBruteForce() {
        var generator = SeededGenerator(seed: 7)
        var points: [(Double, Double)] = [(0, 0)]
        var heading = 0.0
        for _ in 0..<400 {
            heading += Double.random(in: -0.6...0.6, using: &generator)
            let last = points[points.count - 1]
            points.append((last.0 + 25 * cos(heading) + 20, last.1 + 25 * sin(heading)))
        }
        let line = Polyline(grid.line(points, step: 25))
        let distances = (0..<200).map { _ in Double.random(in: 0...line.length, using: &generator) }.sorted()
        let notes = distances.map { d -> Coordinate in
            let p = line.coordinate(atDistance: d)
            return Coordinate(latitude: p.latitude + Double.random(in: -0.0002...0.0002, using: &generator),
                              longitude: p.longitude + Double.random(in: -0.0002...0.0002, using: &generator))
        }
        let found = NoteLocator(route: line, configuration: .init(offRouteDistance: 1000)).locate(notes)
        for (note, location) in zip(notes, found) {
            let brute = line.position(closestTo: note)!
            #expect(abs(abs(location.offsetFromRoute) - abs(brute.offsetFromRoute)) < 0.01
                    || location.passes > 1, "note \(note): \(location.position) vs \(brute)")
        }
    }
}

