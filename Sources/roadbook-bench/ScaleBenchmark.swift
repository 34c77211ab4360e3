import Foundation
import Geo
import OSM
import Routing
import Workflows
#if canImport(Glibc)
import Glibc
#endif

/// A synthetic city for the scale subset (docs/scale.md): a square grid of streets, `side` × `side`
/// nodes 50 m apart, written as a sorted PBF at run time (never committed).
///
/// Every row and every column is a street, cut into ways of 10 blocks (as a city's streets are
/// cut at its squares); every 20th street is `secondary`, the others `residential`, each named.
/// Node `row × side + column + 1` lies row × 50 m north and column × 50 m east of the south-west
/// corner (45° N, 5° E), moved up to 2 m either way by a seeded hash of its id, as mapped nodes
/// are never on an exact lattice (without it the file compresses ten times better than a real one). The default side, 2,646, gives 7,001,316 nodes and about
/// 1.4 million ways over 132 km square.
struct GridCity {
    let side: Int
    /// 50 m of latitude and of longitude at 45° N, in 10⁻⁷ degree.
    static let latitudeStepE7: Int32 = 4_497, longitudeStepE7: Int32 = 6_352
    static let originLatitudeE7: Int32 = 450_000_000, originLongitudeE7: Int32 = 50_000_000
    /// Blocks per way, and entities per PBF block (as osmium writes).
    static let blocksPerWay = 10, entitiesPerBlock = 8_000

    var nodeCount: Int { side * side }

    func nodeID(row: Int, column: Int) -> Int64 { Int64(row * side + column + 1) }

    /// The node's coordinate in 10⁻⁷ degree.
    func coordinateE7(row: Int, column: Int) -> (latitude: Int32, longitude: Int32) {
        var hash = SplitMix(state: UInt64(nodeID(row: row, column: column)))
        let jitter = hash.next()
        return (Self.originLatitudeE7 + Int32(row) * Self.latitudeStepE7 + Int32(jitter % 37) - 18,
                Self.originLongitudeE7 + Int32(column) * Self.longitudeStepE7 + Int32((jitter >> 32) % 51) - 25)
    }

    func coordinate(row: Int, column: Int) -> Coordinate {
        let c = coordinateE7(row: row, column: column)
        return Coordinate(latitude: Double(c.latitude) / 1e7, longitude: Double(c.longitude) / 1e7)
    }

    /// Writes the city to `path`; returns the number of ways. O(nodes); memory one block.
    func write(to path: String) throws -> Int {
        let writer = try PBFWriter(path: path)
        var ids: [Int64] = [], latitudes: [Int32] = [], longitudes: [Int32] = []
        for row in 0..<side {
            for column in 0..<side {
                let c = coordinateE7(row: row, column: column)
                ids.append(nodeID(row: row, column: column))
                latitudes.append(c.latitude)
                longitudes.append(c.longitude)
                if ids.count == Self.entitiesPerBlock {
                    try writer.writeNodes(ids: ids, latitudesE7: latitudes, longitudesE7: longitudes)
                    ids.removeAll(keepingCapacity: true); latitudes.removeAll(keepingCapacity: true); longitudes.removeAll(keepingCapacity: true)
                }
            }
        }
        if !ids.isEmpty { try writer.writeNodes(ids: ids, latitudesE7: latitudes, longitudesE7: longitudes) }
        var ways: [OSMWay] = []
        var wayID: Int64 = 0
        for horizontal in [true, false] {
            for street in 0..<side {
                let tags = ["highway": street % 20 == 0 ? "secondary" : "residential",
                            "name": horizontal ? "Street \(street)" : "Avenue \(street)"]
                for start in stride(from: 0, to: side - 1, by: Self.blocksPerWay) {
                    let end = min(start + Self.blocksPerWay, side - 1)
                    let nodes = (start...end).map { horizontal ? nodeID(row: street, column: $0) : nodeID(row: $0, column: street) }
                    wayID += 1
                    ways.append(OSMWay(id: wayID, nodeIDs: nodes, tags: tags))
                    if ways.count == Self.entitiesPerBlock {
                        try writer.writeWays(ways)
                        ways.removeAll(keepingCapacity: true)
                    }
                }
            }
        }
        if !ways.isEmpty { try writer.writeWays(ways) }
        return Int(wayID)
    }

    /// A route along the streets through every node it passes: `east` blocks east from
    /// (`row`, `column`), then `north` blocks north (a routed line, as `build` reads one).
    func route(row: Int, column: Int, east: Int, north: Int) -> [Coordinate] {
        (0...east).map { coordinate(row: row, column: column + $0) }
            + (1...north).map { coordinate(row: row + $0, column: column + east) }
    }

    /// The subset's two routes: 12 km (6 + 6) and 105 km (60 + 45), from near the south-west corner.
    func route(kilometres: Int) -> [Coordinate] {
        kilometres == 12 ? route(row: 200, column: 200, east: 120, north: 120) : route(row: 200, column: 200, east: 1_200, north: 900)
    }
}

/// In a child process: loads the city at `path` as `build` does, the whole map or the route's
/// corridor (from the extract, or from its prepared graph when `roadbook prepare` made one), finds
/// the route's turns, and prints "load-seconds turns-seconds graph-nodes turns peak-MiB".
func scaleChild(path: String, side: Int, corridor: Bool, kilometres: Int) throws {
    let city = GridCity(side: side)
    let route = city.route(kilometres: kilometres)
    let url = URL(fileURLWithPath: path)
    let (load, graph) = try timed { corridor ? try RouteTurns.loadGraph(url, corridor: route) : try OSMGraph.load(contentsOf: url) }
    let (turns, found) = timed { RouteTurns.maneuvers(along: route, graph: graph) }
    print(String(format: "%.4f %.4f %d %d %.1f", load, turns, graph.count, found.maneuvers.count, peakMemoryMiB()))
}

/// The handles of the embedded router's run in the scale subset: every 2 km along the route, and
/// its end (7 handles for 12 km, 54 for 105 km).
func scaleHandles(_ route: [Coordinate]) -> [Coordinate] {
    stride(from: 0, to: route.count - 1, by: 40).map { route[$0] } + [route[route.count - 1]]
}

/// In a child process: the embedded router's run through the route's handles, as `roadbook route
/// --engine embedded --osm` makes it. `whole`: the whole map read and prepared in memory (as
/// before the prepared graph); `region`: the handles' region (`ExtractRouter`), from the prepared
/// graph when there is one; `prepare`: `roadbook prepare` on the city. Prints "setup-seconds
/// legs-seconds graph-nodes legs peak-MiB" (for `prepare`, the file's size in MB as the fourth).
func scaleRouterChild(path: String, side: Int, mode: String, kilometres: Int) async throws {
    let url = URL(fileURLWithPath: path)
    if mode == "prepare" {
        let (seconds, graph) = try timed { try MapExtract(url).prepare() }
        let bytes = (try FileManager.default.attributesOfItem(atPath: MapExtract(url).preparedURL.path)[.size] as? NSNumber)?.doubleValue ?? 0
        print(String(format: "%.4f 0 %d %.1f %.1f", seconds, graph.count, bytes / 1e6, peakMemoryMiB()))
        return
    }
    let handles = scaleHandles(GridCity(side: side).route(kilometres: kilometres))
    var legs = 0, nodes = 0
    let legsSeconds: Double
    let setup: Double
    if mode == "whole" {
        let (seconds, router) = try timed { EmbeddedRouter(graph: try OSMGraph.load(contentsOf: url)) }
        setup = seconds
        nodes = router.graph.count
        legsSeconds = try timed {
            for (a, b) in zip(handles, handles.dropFirst()) { _ = try router.leg(from: a, to: b, mode: .drive); legs += 1 }
        }.seconds
    } else {
        let router = ExtractRouter(extract: MapExtract(url), around: handles)
        let (seconds, graph) = try await timedAsync { try await router.regionGraph() }
        setup = seconds
        nodes = graph.count
        legsSeconds = try await timedAsync {
            for (a, b) in zip(handles, handles.dropFirst()) { _ = try await router.route(from: a, to: b, mode: .drive); legs += 1 }
        }.seconds
    }
    print(String(format: "%.4f %.4f %d %d %.1f", setup, legsSeconds, nodes, legs, peakMemoryMiB()))
}

/// The scale subset (docs/scale.md): `build`'s map loading on a generated grid city of 7 million nodes
/// for a 12 km and a 105 km route, whole map against the route's corridor, beside the time
/// `osmium fileinfo -e` takes to read the same file. `ROADBOOK_SCALE_SIDE` sets a smaller side
/// (at least 1,500, for the 105 km route) for a quick run; `ROADBOOK_SCALE_FILE=PATH` writes the
/// city there and keeps it (for profiling a child: `--scale-child PATH SIDE whole|corridor 12|105`).
func scaleBenchmarkLines() throws -> [String] {
    let side = max(1_500, Int(ProcessInfo.processInfo.environment["ROADBOOK_SCALE_SIDE"] ?? "") ?? 2_646)
    let city = GridCity(side: side)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roadbook-bench-scale-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = ProcessInfo.processInfo.environment["ROADBOOK_SCALE_FILE"] ?? folder.appendingPathComponent("grid-city.osm.pbf").path
    let (generation, wayCount) = try timed { try city.write(to: path) }
    let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.doubleValue ?? 0
    var lines = [String(format: "scale: grid city of %d × %d = %d nodes, %d ways, 50 m apart: %.1f MB PBF, generated in %.1f s",
                        side, side, city.nodeCount, wayCount, bytes / 1e6, generation)]
    var osmium: Double?
    if let program = ["/usr/bin/osmium", "/usr/local/bin/osmium"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
        let runs = try (0..<3).map { _ in try measureProcess(program, ["fileinfo", "-e", path]) }
        guard runs.allSatisfy({ $0.status == 0 }) else { throw BenchError(message: "osmium fileinfo -e \(path) failed") }
        let best = runs.min { $0.seconds < $1.seconds }!
        osmium = best.seconds
        lines.append(String(format: "scale: osmium fileinfo -e (reads every entity): %.2f s, peak memory %.1f MiB (best of 3)", best.seconds, best.peakMiB))
    } else {
        lines.append("scale: osmium is not installed (apt-get install osmium-tool): no reference time; ratios left out")
    }
    let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
    /// Runs a child of this program; returns its five figures and its wall time.
    func child(_ arguments: [String]) throws -> (fields: [Double], wall: Double) {
        let pipe = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: me)
        process.arguments = arguments
        process.standardOutput = pipe
        let (wall, _) = try timed { try process.run(); process.waitUntilExit() }
        let fields = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard process.terminationStatus == 0, fields.count == 5 else { throw BenchError(message: "scale child \(arguments) failed") }
        return (fields, wall)
    }
    func ratio(_ seconds: Double) -> String { osmium.map { String(format: " (%.1f× osmium)", seconds / $0) } ?? "" }
    func buildLine(_ kilometres: Int, _ how: String, _ run: (fields: [Double], wall: Double)) -> String {
        // The child reports its own VmHWM: ru_maxrss of a child includes the parent's memory at fork.
        String(format: "scale: build --osm, %3d km route, %@: map load %.2f s%@, turns %.2f s (%d turns), whole process %.2f s, peak memory %.0f MiB, graph %d nodes",
               kilometres, how, run.fields[0], ratio(run.fields[0]), run.fields[1], Int(run.fields[3]), run.wall,
               run.fields[4], Int(run.fields[2]))
    }
    func routerLine(_ kilometres: Int, _ how: String, _ run: (fields: [Double], wall: Double)) -> String {
        String(format: "scale: embedded router, %3d km, %d legs, %@: map %.2f s, legs %.2f s, whole process %.2f s, peak memory %.0f MiB, graph %d nodes",
               kilometres, Int(run.fields[3]), how, run.fields[0], run.fields[1], run.wall, run.fields[4], Int(run.fields[2]))
    }
    for kilometres in [12, 105] {
        for corridor in [false, true] {
            let run = try child(["--scale-child", path, String(side), corridor ? "corridor" : "whole", String(kilometres)])
            lines.append(buildLine(kilometres, corridor ? "corridor of the extract " : "whole map (as before)   ", run))
        }
    }
    for kilometres in [12, 105] {
        for mode in ["whole", "region"] {
            let run = try child(["--scale-router-child", path, String(side), mode, String(kilometres)])
            lines.append(routerLine(kilometres, mode == "whole" ? "whole map (as before)   " : "region of the extract   ", run))
        }
    }
    let prepared = try child(["--scale-router-child", path, String(side), "prepare", "0"])
    lines.append(String(format: "scale: roadbook prepare: %.2f s%@, %.1f MB prepared graph (%.0f bytes per node), peak memory %.0f MiB",
                        prepared.fields[0], ratio(prepared.fields[0]), prepared.fields[3],
                        prepared.fields[3] * 1e6 / prepared.fields[2], prepared.fields[4]))
    for kilometres in [12, 105] {
        for _ in 0..<2 {
            let run = try child(["--scale-router-child", path, String(side), "region", String(kilometres)])
            lines.append(routerLine(kilometres, "prepared graph          ", run))
        }
    }
    for kilometres in [12, 105] {
        let run = try child(["--scale-child", path, String(side), "corridor", String(kilometres)])
        lines.append(buildLine(kilometres, "prepared graph          ", run))
    }
    try? FileManager.default.removeItem(atPath: MapExtract(URL(fileURLWithPath: path)).preparedURL.path)
    return lines
}
