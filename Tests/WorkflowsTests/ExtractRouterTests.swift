import Foundation
import Geo
import Model
import OSM
import Routing
import Testing
import TestSupport
@testable import Workflows

/// Seeded leg ends: nodes of roads a car may use, drawn over the whole extract.
private func legs(_ graph: RoadGraph, count: Int, seed: UInt64) -> [(Coordinate, Coordinate)] {
    let rules = TravelRules.forMode(.drive)
    let drivable = (0..<graph.count).filter { node in
        graph.edgeIndices(from: node).contains { rules.speed(on: graph.ways[graph.edge(at: $0).way]) != nil }
    }
    var random = SeededGenerator(seed: seed)
    var pairs: [(Coordinate, Coordinate)] = []
    while pairs.count < count {
        let a = graph.coordinates[drivable.randomElement(using: &random)!], b = graph.coordinates[drivable.randomElement(using: &random)!]
        let span = a.distance(to: b)
        if span > 1_000 && span < 20_000 { pairs.append((a, b)) }
    }
    return pairs
}

@Suite("Embedded router over a region of the extract")
struct ExtractRouterTests {
    let extract: URL
    init() throws { extract = try testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf") }

    /// A copy of the extract with its prepared graph beside it, in `folder`.
    private func preparedCopy(in folder: TemporaryFolder) throws -> MapExtract {
        let copy = folder.path("andorra.osm.pbf")
        try FileManager.default.copyItem(at: extract, to: copy)
        let map = MapExtract(copy)
        try map.prepare()
        return map
    }

    @Test("legs through the handles' region, read from the extract or its prepared graph, are the legs of the router over the whole extract")
    func sameAsWholeMap() async throws {
        let whole = EmbeddedRouter(graph: try OSMGraph.load(contentsOf: extract))
        let folder = try TemporaryFolder()
        let prepared = try preparedCopy(in: folder)
        for (i, (start, end)) in legs(whole.graph, count: 40, seed: 14).enumerated() {
            let router = ExtractRouter(extract: i < 8 ? MapExtract(extract) : prepared, around: [start, end])
            let expected = try? whole.leg(from: start, to: end, mode: .drive)
            let leg = try? await router.route(from: start, to: end, mode: .drive)
            #expect(leg?.line == expected?.line, "\(start) → \(end)")
            #expect(leg?.duration == expected?.duration)
            #expect(leg?.junctions.map(\.nodeID) == expected?.junctions.map(\.nodeID))
        }
    }

    @Test("a region too narrow to prove a leg is widened until it does: the leg is still the whole map's")
    func widening() async throws {
        let whole = EmbeddedRouter(graph: try OSMGraph.load(contentsOf: extract))
        var narrow = ExtractRouter.Configuration()
        narrow.minimumMargin = 300
        narrow.legFraction = 0
        var widened = 0
        let folder = try TemporaryFolder()
        let prepared = try preparedCopy(in: folder)
        for (start, end) in legs(whole.graph, count: 20, seed: 15) {
            let router = ExtractRouter(extract: prepared, around: [start, end], configuration: narrow)
            let expected = try? whole.leg(from: start, to: end, mode: .drive)
            let leg = try? await router.route(from: start, to: end, mode: .drive)
            #expect(leg?.line == expected?.line, "\(start) → \(end)")
            #expect(leg?.duration == expected?.duration)
            if await router.reads > 1 { widened += 1 }
        }
        // A 300 m margin proves no leg of a kilometre or more: every one was widened.
        #expect(widened == 20)
    }

    @Test("a leg whose ends lie outside the first region reads a region that holds them")
    func endOutside() async throws {
        let whole = EmbeddedRouter(graph: try OSMGraph.load(contentsOf: extract))
        let (start, end) = legs(whole.graph, count: 1, seed: 16)[0]
        var small = ExtractRouter.Configuration()
        small.minimumMargin = 1_000
        let far = Coordinate(latitude: start.latitude + 0.2, longitude: start.longitude)
        let router = ExtractRouter(extract: MapExtract(extract), around: [far, Coordinate(latitude: far.latitude, longitude: far.longitude + 0.01)],
                                   configuration: small)
        let leg = try await router.route(from: start, to: end, mode: .drive)
        #expect(leg.line == (try whole.leg(from: start, to: end, mode: .drive)).line)
    }
}
