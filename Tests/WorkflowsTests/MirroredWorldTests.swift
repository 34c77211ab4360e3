import Foundation
import Formats
import Geo
import Guidance
import OSM
import Routing
import Testing
import TestSupport
import Workflows

/// Andorra seen in a mirror, east for west (every node's longitude reflected about 1.55° E): every
/// way keeps its nodes and tags, so its roundabouts run clockwise, as where traffic keeps left, and
/// every junction is the mirror image of one of the real extract. Reflecting longitude keeps every
/// geodesic length and mirrors every bearing exactly, so the turn notes of a mirrored route on the
/// mirrored map must be those of the route on the map, each on the other side, each roundabout
/// with the same exit number: anything else is a rule that takes traffic to keep right.
@Suite("Turn notes on a mirrored Andorra, whose rings run clockwise")
struct MirroredWorldTests {
    /// 1.55° E in 10⁻⁷ degree: the meridian of the mirror, through the middle of the extract.
    static let meridianE7: Int64 = 15_500_000

    static func mirrored(_ c: Coordinate) -> Coordinate {
        let e7 = (c.longitude * 1e7).rounded()
        return Coordinate(latitude: c.latitude, longitude: (Double(2 * meridianE7) - e7) / 1e7)
    }

    /// The extract's road graph, and the same roads with every node mirrored.
    static func worlds() throws -> (world: RoadGraph, mirror: RoadGraph) {
        let url = try testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf")
        let data = try OSMData.read(contentsOf: url, keepingWaysTagged: "highway")
        var nodes = OSMNodeTable()
        for i in 0..<data.nodes.count {
            let c = data.nodes.coordinate(at: i)
            let longitudeE7 = 2 * meridianE7 - Int64((c.longitude * 1e7).rounded())
            nodes.append(id: data.nodes.ids[i], latitudeE7: Int32((c.latitude * 1e7).rounded()), longitudeE7: Int32(longitudeE7))
        }
        nodes.finish()
        let mirror = OSMData(nodes: nodes, ways: data.ways, restrictions: data.restrictions, places: data.places)
        return (OSMGraph.build(from: data), OSMGraph.build(from: mirror))
    }

    /// A row as it reads where traffic keeps right, and as its mirror image must read.
    static func reading(_ m: Maneuver, mirrored: Bool) -> String {
        func side(_ modifier: Maneuver.Modifier?) -> Int { (modifier?.side ?? 0) * (mirrored ? -1 : 1) }
        return "\(m.kind) side \(side(m.modifier)) then \(side(m.then)) exit \(m.exitNumber ?? 0) at \(Int(m.distanceAlong.rounded()))"
    }

    /// Counted the way traffic keeps right whatever the ring, 4 of these 31 routes had a roundabout
    /// exit number wrong on the mirrored map.
    @Test("the sample track and 30 seeded car routes give the same rows on the mirrored map, sides swapped, exits kept")
    func mirroredRows() throws {
        let (world, mirror) = try Self.worlds()
        // The mirror's rings say themselves that traffic keeps left there: no side is given below.
        #expect(world.ringTurning().drivingSide == .right && mirror.ringTurning().drivingSide == .left)
        #expect(abs(world.ringTurning().anticlockwise - mirror.ringTurning().clockwise) < 1e-6)
        var lines: [[Coordinate]] = []
        let sample = packageRoot().appendingPathComponent("samples/andorra-envalira.gpx")
        lines.append(try GPXReader.read(contentsOf: sample).tracks.flatMap { $0.segments.flatMap { $0 } }.map(\.coordinate))
        let router = EmbeddedRouter(graph: world, modes: [.drive])
        var generator = SeededGenerator(seed: 20_261_201)
        while lines.count < 31 {
            let a = world.coordinates[Int.random(in: 0..<world.count, using: &generator)]
            let b = world.coordinates[Int.random(in: 0..<world.count, using: &generator)]
            guard (2_000...15_000).contains(a.distance(to: b)), let leg = try? router.leg(from: a, to: b, mode: .drive) else { continue }
            lines.append(leg.line)
        }
        var rows = 0, roundabouts = 0
        for (k, line) in lines.enumerated() {
            let here = RouteTurns.maneuvers(along: line, graph: world).maneuvers
            let there = RouteTurns.maneuvers(along: line.map(Self.mirrored), graph: mirror).maneuvers
            let expected = here.map { Self.reading($0, mirrored: false) }
            let got = there.map { Self.reading($0, mirrored: true) }
            let same = got == expected
            #expect(same, "route \(k): \(zip(expected, got).filter { $0 != $1 }.prefix(3)) of \(expected.count) / \(got.count) rows")
            rows += here.count
            roundabouts += here.filter { $0.kind == .roundabout && $0.exitNumber != nil }.count
        }
        // The routes reach the cases that matter.
        // (425 rows, 185 of them roundabouts, when written.)
        #expect(rows >= 300 && roundabouts >= 100, "\(rows) rows, \(roundabouts) roundabouts with an exit number")
    }
}
