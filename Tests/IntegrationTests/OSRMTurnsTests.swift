import Foundation
import Geo
import Guidance
import Model
import OSM
import Workflows
import Testing
import TestSupport

/// The generated turn notes against a real OSRM (from the `osrm-bindings` wheel, started on
/// 127.0.0.1 by scripts/test.sh over the same Andorra extract): for routes through many real
/// junctions, OSRM's turn, fork, end-of-road and roundabout maneuvers must be found by roadbook
/// at the same place (30 m) on the same side, and the bearings of the roads at each junction must
/// agree with OSRM's intersection bearings.
@Suite("Turn notes against OSRM on the Andorra extract", .serialized)
struct OSRMTurnsTests {
    /// Town to town across Andorra, and through the streets of Andorra la Vella and Escaldes.
    static let routes: [(String, [Coordinate])] = [
        ("Sant Julià → Pas de la Casa", [.init(latitude: 42.4637, longitude: 1.4912), .init(latitude: 42.5667, longitude: 1.5989),
                                          .init(latitude: 42.5428, longitude: 1.7336)]),
        ("Andorra la Vella → Arinsal", [.init(latitude: 42.5075, longitude: 1.5218), .init(latitude: 42.5722, longitude: 1.4844)]),
        ("Escaldes → Ordino", [.init(latitude: 42.5096, longitude: 1.5387), .init(latitude: 42.5562, longitude: 1.5331)]),
        ("Encamp → El Serrat", [.init(latitude: 42.5345, longitude: 1.5806), .init(latitude: 42.6167, longitude: 1.5397)]),
        ("across Andorra la Vella", [.init(latitude: 42.5050, longitude: 1.5160), .init(latitude: 42.5110, longitude: 1.5300),
                                     .init(latitude: 42.5085, longitude: 1.5410)]),
        ("Escaldes streets", [.init(latitude: 42.5120, longitude: 1.5340), .init(latitude: 42.5070, longitude: 1.5440),
                              .init(latitude: 42.5035, longitude: 1.5290)]),
    ]

    struct OSRMStep {
        var type: String
        var modifier: String?
        var exit: Int?
        var location: Coordinate
        var name: String
    }

    struct OSRMIntersection {
        var location: Coordinate
        var bearings: [Double]
    }

    static func osrm() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["ROADBOOK_OSRM_URL"] else {
            throw ToolError(message: "ROADBOOK_OSRM_URL is not set: run the suite with scripts/test.sh, which starts OSRM on 127.0.0.1")
        }
        return url
    }

    /// Asks OSRM for a car route through `points` with steps.
    static func route(_ points: [Coordinate]) throws -> (line: [Coordinate], steps: [OSRMStep], intersections: [OSRMIntersection]) {
        let where_ = points.map { String(format: "%.6f,%.6f", $0.longitude, $0.latitude) }.joined(separator: ";")
        let body = try runTool("curl", ["-sf", "\(try osrm())/route/v1/driving/\(where_)?steps=true&overview=full&geometries=geojson"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        #expect(json["code"] as? String == "Ok", "OSRM answered \(body.prefix(200))")
        let route = try #require((json["routes"] as? [[String: Any]])?.first)
        let coordinates = try #require((route["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        var steps: [OSRMStep] = []
        var intersections: [OSRMIntersection] = []
        for leg in route["legs"] as? [[String: Any]] ?? [] {
            for step in leg["steps"] as? [[String: Any]] ?? [] {
                let maneuver = step["maneuver"] as? [String: Any] ?? [:]
                let location = maneuver["location"] as? [Double] ?? [0, 0]
                steps.append(OSRMStep(type: maneuver["type"] as? String ?? "", modifier: maneuver["modifier"] as? String,
                                      exit: maneuver["exit"] as? Int,
                                      location: Coordinate(latitude: location[1], longitude: location[0]),
                                      name: step["name"] as? String ?? ""))
                for i in step["intersections"] as? [[String: Any]] ?? [] {
                    let at = i["location"] as? [Double] ?? [0, 0]
                    intersections.append(OSRMIntersection(location: Coordinate(latitude: at[1], longitude: at[0]),
                                                          bearings: (i["bearings"] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }))
                }
            }
        }
        return (coordinates.map { Coordinate(latitude: $0[1], longitude: $0[0]) }, steps, intersections)
    }

    static let graph: RoadGraph? = try? OSMGraph.load(contentsOf: testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf"))

    /// -1 left, +1 right, 0 neither.
    static func side(_ modifier: String?) -> Int {
        guard let m = modifier else { return 0 }
        if m.contains("left") { return -1 }
        if m.contains("right") { return 1 }
        return 0
    }

    @Test("OSRM's turns, forks, ends of road and roundabouts are found at the same place, on the same side")
    func maneuversMatchOSRM() throws {
        let data = try testDataFolder().path
        let graph = try #require(Self.graph, "the Andorra extract could not be loaded from \(data)")
        var compared = 0, found = 0, junctionsPassed = 0, covered = 0
        var misses: [String] = []
        for (name, points) in Self.routes {
            let osrm = try Self.route(points)
            junctionsPassed += osrm.intersections.filter { $0.bearings.count >= 3 }.count
            let ours = RouteTurns.maneuvers(along: osrm.line, graph: graph).maneuvers
            let considered = osrm.steps.filter { step in
                switch step.type {
                case "turn", "end of road", "fork": return Self.side(step.modifier) != 0
                case "roundabout", "rotary": return true
                default: return false
                }
            }
            for step in considered {
                compared += 1
                let roundabout = step.type == "roundabout" || step.type == "rotary"
                let side = Self.side(step.modifier)
                let hit = ours.contains { m in
                    // A staggered row ("Left then right") stands for both of its junctions.
                    let places = [m.coordinate] + (m.then != nil ? m.junctions.dropFirst().map(\.coordinate) : [])
                    guard places.contains(where: { $0.distance(to: step.location) <= 30 }) else { return false }
                    if roundabout { return m.kind == .roundabout }
                    return m.modifier.side == side || m.then?.side == side
                }
                // OSRM gives the fork into a roundabout's entry lane a step of its own; the book's
                // roundabout row, a few metres on, is the row a rider reads there.
                let coveredByRoundabout = !hit && step.type == "fork"
                    && ours.contains { $0.kind == .roundabout && $0.coordinate.distance(to: step.location) <= 30 }
                if coveredByRoundabout { covered += 1 }
                if hit || coveredByRoundabout { found += 1 } else {
                    let near = ours.filter { $0.coordinate.distance(to: step.location) <= 60 }
                        .map { "\(Instructions.english.text(for: $0)) (\(Int($0.coordinate.distance(to: step.location))) m)" }
                    misses.append("\(name): OSRM \(step.type) \(step.modifier ?? "") \(step.exit.map { "exit \($0)" } ?? "") onto \(step.name) at \(step.location); roadbook: \(near)")
                }
            }
        }
        let share = Double(found) / Double(max(compared, 1))
        print(String(format: "OSRM comparison: %d of %d maneuvers found (%.1f%%; %d forks into a roundabout's entry found as its roundabout row) over %d junctions passed",
                     found, compared, share * 100, covered, junctionsPassed))
        for miss in misses { print("  missed: \(miss)") }
        #expect(junctionsPassed >= 50, "the routes must pass at least 50 real junctions")
        #expect(compared >= 30, "too few maneuvers to compare")
        #expect(share >= 0.95, "\(found) of \(compared) OSRM maneuvers found:\n\(misses.joined(separator: "\n"))")
    }

    /// OSRM reports the bearings of the roads at an intersection in steps of 15° (its `BearingClass`
    /// stores them discretely): a bearing within 5° of the road's true bearing is within
    /// 5° + 7.5° of OSRM's reported one. The test checks that, and that OSRM's bearings are indeed in
    /// 15° steps, so the allowance is not taken where it is not needed.
    static let osrmBearingStep = 15.0

    @Test("the roads at each junction have OSRM's bearings, within 5° (plus OSRM's 15° steps)")
    func spokeBearingsMatchOSRM() throws {
        let graph = try #require(Self.graph)
        var compared = 0, within = 0, inSteps = 0, exactlyWithin5 = 0
        var worst: [(Double, String)] = []
        for (name, points) in Self.routes {
            let osrm = try Self.route(points)
            let match = RouteMatcher(graph: graph).match(osrm.line)
            let junctions = JunctionFinder(graph: graph).junctions(along: match)
            for intersection in osrm.intersections where intersection.bearings.count >= 3 {
                guard let junction = junctions.first(where: { $0.coordinate.distance(to: intersection.location) < 1 }) else { continue }
                for bearing in intersection.bearings {
                    let nearest = junction.spokes.map { abs(normalizedTurn($0.bearing - bearing)) }.min() ?? 180
                    compared += 1
                    if bearing.truncatingRemainder(dividingBy: Self.osrmBearingStep) == 0 { inSteps += 1 }
                    if nearest <= 5 { exactlyWithin5 += 1 }
                    if nearest <= 5 + Self.osrmBearingStep / 2 { within += 1 } else {
                        worst.append((nearest, "\(name) at \(intersection.location): OSRM \(bearing)°, ours \(junction.spokes.map { Int($0.bearing.rounded()) })"))
                    }
                }
            }
        }
        let share = Double(within) / Double(max(compared, 1))
        print(String(format: "bearings: %d of %d within 5° + 7.5° of OSRM's (%.1f%%); %d within 5° of OSRM's stepped value; %d of OSRM's %d in 15° steps",
                     within, compared, share * 100, exactlyWithin5, inSteps, compared))
        for w in worst.sorted(by: { $0.0 > $1.0 }).prefix(10) { print(String(format: "  %.1f° off: %@", w.0, w.1)) }
        #expect(compared >= 150)
        #expect(Double(inSteps) >= 0.9 * Double(compared), "OSRM's bearings are not in 15° steps: the allowance is wrong")
        #expect(share >= 0.95, "only \(within) of \(compared) bearings within 5° of OSRM's")
    }
}
