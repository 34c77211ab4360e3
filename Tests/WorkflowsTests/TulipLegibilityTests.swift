import Foundation
import Geo
import Guidance
import Model
import OSM
import Routing
import Testing
import TestSupport
import Workflows

/// Tulips a rider can read at speed: every arm drawn at least 20° from its neighbours
/// (`TulipLayout`), and a roundabout drawn with every road that meets its ring.
///
/// The routes are the turn-quality benchmark's (docs/turn-quality.md): 60 seeded driving routes
/// between drivable nodes of the Andorra extract 1 to 8 km apart, drawn as the benchmark draws them
/// (seed 20261111), here routed by the embedded router over the extract instead of OSRM, so the
/// test needs no server. Only the turns are read (map mode, as `build --osm` reads them), no book.
@Suite("Legible tulips over the benchmark's routes and the sample book")
struct TulipLegibilityTests {
    static let extract = packageRoot().appendingPathComponent("samples/data/andorra/andorra.osm.pbf")
    /// The benchmark's seed, route count and spans (`Sources/roadbook-bench/TurnQualityBenchmark.swift`).
    static let seed: UInt64 = 20_261_111
    static let routeCount = 60
    static let spans: ClosedRange<Metres> = 1_000...8_000

    /// The roads meeting the ring through `node`, counted on the map itself: every node reached from
    /// it along ways tagged as a roundabout, and at each such node every neighbour along a way that
    /// is not one (a neighbour once, as a junction's spokes are); and of them, those one-way into
    /// the ring.
    static func mapArms(ringThrough node: Int, in graph: RoadGraph) -> (arms: Int, oneWayIn: Int) {
        var ring: Set<Int> = [node], queue = [node]
        while let n = queue.popLast() {
            for edge in graph.edges(from: n) where graph.ways[edge.way].isRoundabout && ring.insert(edge.target).inserted {
                queue.append(edge.target)
            }
        }
        var arms = 0, oneWayIn = 0
        for n in ring {
            let out = graph.edges(from: n).filter { !graph.ways[$0.way].isRoundabout }
            arms += Set(out.map(\.target)).count
            oneWayIn += out.filter { !graph.canTravel($0) }.count
        }
        return (arms, oneWayIn)
    }

    /// The tulip a maneuver read from the map's junctions is drawn from, and what the drawing must
    /// satisfy: its narrowest gap between neighbouring arms as drawn, and the separation it must keep.
    static func drawnGap(_ tulip: Tulip) -> (gap: Degrees, wanted: Degrees) {
        let roads = tulip.roads.count + (tulip.entry == nil ? 1 : 0)
        return (TulipLayout.narrowestGap(of: tulip) ?? 360, TulipLayout.separation(forRoads: roads))
    }

    /// The exit a rider counts on the drawing: going round from the entry the way traffic goes, the
    /// roads drawn before the exit that carry no bar (one may leave by them), and one.
    static func drawnExitNumber(_ tulip: Tulip) -> Int? {
        guard let roundabout = tulip.roundabout, let exit = tulip.roads.firstIndex(where: { $0.role == .exit }) else { return nil }
        let shown = TulipLayout.displayAngles(of: tulip)
        // Round from the entry at the bottom: counterclockwise on the page, right first; clockwise, left first.
        func round(_ angle: Degrees) -> Degrees { roundabout.clockwise ? normalizedBearing(angle - 180) : normalizedBearing(180 - angle) }
        return 1 + tulip.roads.indices.filter { i in
            tulip.roads[i].role == .side && !tulip.roads[i].noExit && round(shown[i]) < round(shown[exit])
        }.count
    }

    /// The narrowest gap between neighbouring arms at their true angles.
    static func trueGap(_ tulip: Tulip) -> Degrees {
        TulipLayout.narrowestGap(tulip.roads.map(\.angle) + (tulip.entry == nil ? [180] : [])) ?? 360
    }

    @Test("the benchmark's 60 routes: every junction tulip drawn with its arms 20° apart, every ring with every road the map has")
    func benchmarkRoutes() throws {
        let graph = try OSMGraph.load(contentsOf: Self.extract)
        let router = EmbeddedRouter(graph: graph, modes: [.drive])
        let rules = TravelRules.forMode(.drive)
        let drivable = (0..<graph.count).filter { node in
            graph.edgeIndices(from: node).contains {
                let way = graph.ways[graph.edge(at: $0).way]
                return rules.speeds[way.highway] != nil && rules.speed(on: way) != nil
            }
        }
        // The map the turns are read on (`RouteTurns.junctions`), its nodes by OpenStreetMap id.
        let junctionGraph = rules.junctionGraph(of: graph)
        let nodeOf = Dictionary(junctionGraph.osmIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        var random = SeededGenerator(seed: Self.seed)
        var lines: [[Coordinate]] = []
        var attempts = 0
        while lines.count < Self.routeCount && attempts < 200 * Self.routeCount {
            attempts += 1
            let a = graph.coordinates[drivable[Int(random.next() % UInt64(drivable.count))]]
            let b = graph.coordinates[drivable[Int(random.next() % UInt64(drivable.count))]]
            guard Self.spans.contains(a.distance(to: b)), let leg = try? router.leg(from: a, to: b, mode: .drive) else { continue }
            lines.append(leg.line)
        }
        #expect(lines.count == Self.routeCount)

        var tulips = 0, closeAtTrueAngles = 0, closeAtRings = 0, rings = 0, ringArms = 0, ringArmsBefore = 0
        for (index, line) in lines.enumerated() {
            for maneuver in RouteTurns.maneuvers(along: line, graph: graph).maneuvers
            where maneuver.junctions.contains(where: { $0.nodeID != nil && $0.spokes.count >= 3 }) {
                let tulip = TulipBuilder.tulip(for: maneuver)
                tulips += 1
                if Self.trueGap(tulip) < TulipLayout.minimumSeparation {
                    closeAtTrueAngles += 1
                    if tulip.roundabout != nil { closeAtRings += 1 }
                }
                let (gap, wanted) = Self.drawnGap(tulip)
                let drawn = TulipLayout.displayAngles(of: tulip)
                #expect(gap >= wanted - 1e-9,
                        "route \(index), \(maneuver.kind) at \(Int(maneuver.distanceAlong)) m: \(tulip.roads.map(\.angle)) drawn \(drawn), \(gap)° apart")
                guard maneuver.kind == .roundabout, tulip.roundabout != nil,
                      let id = maneuver.junctions.first?.nodeID, let node = nodeOf[id] else { continue }
                let onMap = Self.mapArms(ringThrough: node, in: junctionGraph)
                rings += 1
                ringArms += onMap.arms
                ringArmsBefore += 1 + maneuver.junctions.flatMap(\.spokes).filter { !$0.isRoundabout && $0.role != .entry }.count
                #expect(tulip.roads.count == onMap.arms,
                        "route \(index), roundabout at \(maneuver.coordinate): \(tulip.roads.count) roads drawn, the map has \(onMap.arms)")
                // Every arm one-way into the ring is barred (the entry is the route's own, not barred).
                let entryOneWay = maneuver.junctions.first?.entry?.canLeave == false ? 1 : 0
                #expect(tulip.roads.filter(\.noExit).count >= onMap.oneWayIn - entryOneWay, "route \(index), roundabout at \(maneuver.coordinate)")
                // Counting the roads drawn before the exit gives the exit the row says.
                #expect(Self.drawnExitNumber(tulip) == maneuver.exitNumber,
                        "route \(index), roundabout at \(maneuver.coordinate): \(tulip.roads.map(\.angle)) drawn \(drawn)")
            }
        }
        // Enough of both to mean something: the routes cross Andorra's valleys, ring after ring.
        #expect(tulips >= 200 && rings >= 50, "\(tulips) tulips, \(rings) roundabouts")
        #expect(closeAtTrueAngles > 0, "some junction has arms closer than 20° on the map, or the spread is never tried")
        if ProcessInfo.processInfo.environment["ROADBOOK_TULIP_FIGURES"] == "1" {
            print("tulip figures: \(lines.count) routes, \(tulips) junction tulips, \(closeAtTrueAngles) with arms closer than "
                  + "20° at their true angles (\(closeAtRings) of them roundabouts); \(rings) roundabouts, \(ringArms) roads meeting "
                  + "their rings on the map, \(ringArmsBefore) of them at the ring nodes the route passes")
        }
    }

    @Test("the sample book: rows 13, 17 and 24 drawn 20° apart, each roundabout with every road of its ring, row 5 an arrow")
    func sampleBook() async throws {
        let data = try testDataFolder()
        let request = BuildRequest(track: packageRoot().appendingPathComponent("samples/andorra-envalira.gpx"),
                                   osm: data.appendingPathComponent("andorra/andorra.osm.pbf"))
        let book = try await buildBook(request, log: MessageList()).book
        let rows = book.notes.filter { $0.placement == .onRoute }
        try #require(rows.count == 28)
        // The three Ys of the sample whose arms lie 7°, 8° and 17° apart at their true angles.
        for (row, words, apart) in [(13, "Bear right", 17.0), (17, "Bear right onto CG-2", 9.0), (24, "Keep left onto CG-2", 7.0)] {
            let note = rows[row - 1]
            #expect(note.text == words, "row \(row)")
            let tulip = try #require(note.tulip, "row \(row)")
            #expect(abs(Self.trueGap(tulip) - apart) <= 1, "row \(row): \(tulip.roads.map(\.angle))")
            #expect(Self.drawnGap(tulip).gap >= 20 - 1e-9, "row \(row): drawn \(TulipLayout.displayAngles(of: tulip))")
            // The road taken stays where it is, its side roads on their own side of it.
            let shown = TulipLayout.displayAngles(of: tulip)
            let exit = try #require(tulip.roads.firstIndex { $0.role == .exit })
            #expect(shown[exit] == tulip.roads[exit].angle, "row \(row)")
            for (k, road) in tulip.roads.enumerated() where road.role == .side {
                #expect((road.angle < tulip.roads[exit].angle) == (shown[k] < shown[exit]), "row \(row), road \(k)")
            }
        }
        // Every roundabout with every road of its ring, as many as the map has.
        let graph = TravelRules.forMode(.drive).junctionGraph(of: try OSMGraph.load(contentsOf: Self.extract))
        let nodeOf = Dictionary(graph.osmIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        var roundabouts = 0
        for (k, note) in rows.enumerated() where note.generated?.maneuver == "roundabout" {
            let tulip = try #require(note.tulip)
            let node = try #require(note.generated?.junction.nodeID.flatMap { nodeOf[$0] })
            let onMap = Self.mapArms(ringThrough: node, in: graph).arms
            #expect(onMap >= 3, "row \(k + 1)")
            #expect(tulip.roads.count == onMap, "row \(k + 1): \(tulip.roads.count) roads, the map has \(onMap)")
            #expect(Self.drawnGap(tulip).gap >= 20 - 1e-9, "row \(k + 1)")
            #expect(Self.drawnExitNumber(tulip) == note.generated?.exitNumber, "row \(k + 1)")
            roundabouts += 1
        }
        #expect(roundabouts == 15)
        // Row 5, R2, stands off any junction: its tulip is the road's own heading, generated.
        let r2 = rows[4]
        #expect(r2.marker == "R2" && r2.generated == nil)
        #expect(r2.tulip?.origin == .generated && r2.tulip?.roads.count == 2)
        // Every printed row has a tulip.
        #expect(rows.allSatisfy { $0.tulip != nil }, "\(rows.filter { $0.tulip == nil }.map(\.text))")
    }
}
