import Foundation
import Geo
import HTTP
import Model
import OSM
import Routing

/// Legs in the router benchmark: enough for a 95th percentile that is not the single slowest leg.
/// `ROADBOOK_ROUTER_LEGS` asks for more, to look for legs OSRM answers and the router does not.
private let routerBenchmarkLegCount = ProcessInfo.processInfo.environment["ROADBOOK_ROUTER_LEGS"].flatMap { Int($0) } ?? 50
/// Leg ends at least this far apart in a straight line: shorter legs measure the snapping, not the
/// search.
private let routerBenchmarkMinimumSpan: Metres = 1_000
/// And at most this far: across Andorra's valleys, about the longest leg a road book asks for
/// between two handles.
private let routerBenchmarkMaximumSpan: Metres = 20_000

/// The embedded router against OSRM over one extract: the graph build, then the same seeded driving
/// legs through each, with the median and 95th-percentile time per leg and how far their lengths
/// agree.
///
/// Leg ends are nodes of roads a car may use, drawn with a fixed seed so every run asks the same
/// legs. The embedded router is timed per leg in this process (snapping, A*, line and junctions);
/// OSRM per request over HTTP on the loopback (`/route/v1/driving`, full overview), so its figure
/// includes the round trip and JSON.
/// - Parameters:
///   - extract: an OpenStreetMap file (PBF or XML).
///   - osrmURL: an OSRM server's base URL, such as `http://127.0.0.1:5000`; nil to skip OSRM.
/// - Returns: lines to print.
func routerBenchmarkLines(extract: URL, osrmURL: URL?) async throws -> [String] {
    var lines: [String] = []
    let (loadSeconds, graph) = try timed { try OSMGraph.load(contentsOf: extract, profile: .allRoads) }
    let (prepareSeconds, router) = timed { EmbeddedRouter(graph: graph) }
    lines.append(String(format: "router: graph of %@ (%d nodes, %d ways) read and built in %.2f s; router prepared in %.2f s",
                        extract.lastPathComponent, graph.count, graph.ways.count, loadSeconds, prepareSeconds))

    let pairs = benchmarkLegs(graph)
    var embeddedSeconds: [Double] = []
    var embeddedLengths: [Metres?] = []
    var embeddedDurations: [TimeInterval?] = []
    for (start, end) in pairs {
        let (seconds, leg) = timed { try? router.leg(from: start, to: end, mode: .drive) }
        embeddedSeconds.append(seconds)
        embeddedLengths.append(leg?.distance)
        embeddedDurations.append(leg?.duration)
    }
    let answered = embeddedLengths.compactMap { $0 }
    lines.append(String(format: "router: embedded, %d driving legs (%d with a road, median %.1f km): median %.2f ms, p95 %.2f ms per leg",
                        pairs.count, answered.count, (percentile(answered, 0.5) ?? 0) / 1000,
                        (percentile(embeddedSeconds, 0.5) ?? 0) * 1000, (percentile(embeddedSeconds, 0.95) ?? 0) * 1000))

    guard let osrmURL else { return lines + ["router: OSRM skipped (no URL given)"] }
    let client = try CurlHTTPClient()
    var osrmSeconds: [Double] = []
    var differences: [Double] = []
    // Of the legs whose lengths agree within 1% (the same roads), our duration over OSRM's.
    var durationRatios: [Double] = []
    // Legs more than 5% off, and of them those the router without tracks routes within 5% of OSRM:
    // its car may take a gravel track (`TravelRules.drive`), OSRM's never does.
    var offByTrack = 0
    var withoutTracks: EmbeddedRouter?
    var failures = 0, onlyOSRM = 0, movedByOSRM = 0
    for (i, (start, end)) in pairs.enumerated() {
        let url = osrmURL.appendingPathComponent(
            "route/v1/driving/\(start.longitude),\(start.latitude);\(end.longitude),\(end.latitude)")
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { continue }
        components.queryItems = [URLQueryItem(name: "overview", value: "full"), URLQueryItem(name: "steps", value: "false")]
        guard let requestURL = components.url else { continue }
        let (seconds, response) = try await timedAsync { try await client.send(HTTPRequest(url: requestURL)) }
        osrmSeconds.append(seconds)
        guard response.status == 200,
              let json = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
              let routes = json["routes"] as? [[String: Any]], let distance = routes.first?["distance"] as? Double
        else { failures += 1; continue }
        // An end OSRM moved onto another road (a track its car profile never takes, a piece of road
        // its graph cannot leave) makes another leg: not compared.
        let moved = (json["waypoints"] as? [[String: Any]])?.compactMap { $0["distance"] as? Double }.contains { $0 > 5 } ?? false
        if moved { movedByOSRM += 1; continue }
        if let ours = embeddedLengths[i], distance > 0 { differences.append(abs(ours - distance) / distance) }
        if let ours = embeddedLengths[i], distance > 0, abs(ours - distance) > 0.05 * distance {
            if withoutTracks == nil { withoutTracks = EmbeddedRouter(graph: graph.keepingWays { $0.highway != "track" }) }
            if let other = try? withoutTracks!.leg(from: start, to: end, mode: .drive).distance,
               abs(other - distance) <= 0.05 * distance { offByTrack += 1 }
        }
        if let ours = embeddedLengths[i], let time = embeddedDurations[i], let osrmTime = routes.first?["duration"] as? Double,
           distance > 0, osrmTime > 0, abs(ours - distance) <= 0.01 * distance {
            durationRatios.append(time / osrmTime)
        }
        if embeddedLengths[i] == nil { onlyOSRM += 1 }
    }
    lines.append(String(format: "router: OSRM over HTTP, same legs (%d without a route): median %.2f ms, p95 %.2f ms per leg",
                        failures, (percentile(osrmSeconds, 0.5) ?? 0) * 1000, (percentile(osrmSeconds, 0.95) ?? 0) * 1000))
    lines.append(String(format: "router: length against OSRM over %d legs (%d more whose end OSRM moved onto another road): median difference %.2f %%, p95 %.2f %%, over 5 %% on %d (of them %d within 5 %% without tracks); %d legs OSRM answers and the embedded router does not",
                        differences.count, movedByOSRM, (percentile(differences, 0.5) ?? 0) * 100,
                        (percentile(differences, 0.95) ?? 0) * 100, differences.count { $0 > 0.05 }, offByTrack, onlyOSRM))
    lines.append(String(format: "router: duration over OSRM's on the %d legs whose lengths agree within 1%%: median %.2f, 5th–95th percentile %.2f–%.2f",
                        durationRatios.count, percentile(durationRatios, 0.5) ?? 0, percentile(durationRatios, 0.05) ?? 0,
                        percentile(durationRatios, 0.95) ?? 0))
    return lines
}

/// Seeded pairs of points on roads a car may use, `routerBenchmarkMinimumSpan` to
/// `routerBenchmarkMaximumSpan` apart.
private func benchmarkLegs(_ graph: RoadGraph) -> [(Coordinate, Coordinate)] {
    let drivable = benchmarkEnds(graph)
    guard drivable.count >= 2 else { return [] }
    var generator = SplitMix(state: 20_260_101)
    var pairs: [(Coordinate, Coordinate)] = []
    var attempts = 0
    while pairs.count < routerBenchmarkLegCount && attempts < 100_000 {
        attempts += 1
        let a = graph.coordinates[drivable[Int(generator.next() % UInt64(drivable.count))]]
        let b = graph.coordinates[drivable[Int(generator.next() % UInt64(drivable.count))]]
        let span = a.distance(to: b)
        if span >= routerBenchmarkMinimumSpan && span <= routerBenchmarkMaximumSpan { pairs.append((a, b)) }
    }
    return pairs
}

/// The value below which `fraction` of `values` lie (nearest rank), or nil when there are none.
private func percentile(_ values: [Double], _ fraction: Double) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// The nodes the routing benchmarks draw their ends from: nodes of ways of a road class a car
/// drives (`TravelRules.drive.speeds`) and may use. Ways a car may use only because a tag opens
/// them (a path with `motor_vehicle=designated`) are left out, so opening or closing such ways
/// changes the answers, not the sample: figures before and after such a change compare.
func benchmarkEnds(_ graph: RoadGraph) -> [Int] {
    let rules = TravelRules.drive
    return (0..<graph.count).filter { node in
        graph.edgeIndices(from: node).contains {
            let way = graph.ways[graph.edge(at: $0).way]
            return rules.speeds[way.highway] != nil && rules.speed(on: way) != nil
        }
    }
}
