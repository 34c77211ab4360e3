// roadbook-bench: prints the speed, memory and turn-quality figures of docs/benchmarks.md and docs/turn-quality.md. Build and run in release mode:
//   scripts/bench.sh   (builds in release, compiles the C floor, runs everything)
//   .build/release/roadbook-bench [--only SUBSET] [--floor PATH] [--gpx-floor PATH] [--osrm URL]   (--help lists the subsets)
// Figures are wall-clock times on this machine and peak resident memory (VmHWM / ru_maxrss).
import BookAssembly
import Foundation
import Formats
import Geo
import Guidance
import Layout
import Model
import OSM
import Render
import Workflows
import Terrain
#if canImport(Glibc)
import Glibc
#endif

/// Seconds taken by `body`, and its result.
func timed<T>(_ body: () throws -> T) rethrows -> (seconds: Double, value: T) {
    var start = timespec(), end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    let value = try body()
    clock_gettime(CLOCK_MONOTONIC, &end)
    return (Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9, value)
}

/// Peak resident memory of this process so far, in MiB (VmHWM).
func peakMemoryMiB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return .nan }
    return kb / 1024
}

/// Runs a program, returning its wall time and peak memory (ru_maxrss of the child). Linux counts
/// the parent's resident memory at the fork in a child's ru_maxrss, so call this while the
/// benchmark process is still small.
func measureProcess(_ path: String, _ arguments: [String]) throws -> (seconds: Double, peakMiB: Double, status: Int32) {
    var pid: pid_t = 0
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let (seconds, result): (Double, (Int32, rusage)) = try timed {
        guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else {
            throw BenchError(message: "cannot start \(path)")
        }
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        return (status, usage)
    }
    return (seconds, Double(result.1.ru_maxrss) / 1024, result.0)
}

struct BenchError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A seeded generator so every run measures the same work.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform draw in [0, 1): the top 53 bits as a fraction.
    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// A winding synthetic track: `count` vertices about 10 m apart, heading wandering like a road.
func syntheticTrack(count: Int, generator: inout SplitMix) -> [Coordinate] {
    var points: [Coordinate] = []
    points.reserveCapacity(count)
    var here = Coordinate(latitude: 42.0, longitude: 1.0)
    var heading = 45.0
    for _ in 0..<count {
        points.append(here)
        heading = normalizedBearing(heading + Double.random(in: -8...8, using: &generator))
        let step = Double.random(in: 5...15, using: &generator)
        let rad = heading * .pi / 180
        here = Coordinate(latitude: here.latitude + step * cos(rad) / 111_132,
                          longitude: here.longitude + step * sin(rad) / (111_320 * cos(here.latitude * .pi / 180)))
    }
    return points
}

func benchLocate() {
    var generator = SplitMix(state: 42)
    let track = syntheticTrack(count: 200_000, generator: &generator)
    let (tLine, line) = timed { Polyline(track) }
    let (tIndex, index) = timed { PolylineIndex(line, cellSize: 50) }
    let distances = (0..<10_000).map { _ in Double.random(in: 0...line.length, using: &generator) }.sorted()
    let notes = distances.map { d -> Coordinate in
        let p = line.coordinate(atDistance: d)
        return Coordinate(latitude: p.latitude + Double.random(in: -0.0002...0.0002, using: &generator),
                          longitude: p.longitude + Double.random(in: -0.0002...0.0002, using: &generator))
    }
    let locator = NoteLocator(index: index, configuration: .init(offRouteDistance: 50))
    let (tLocate, found) = timed { locator.locate(notes) }
    let onRoute = found.filter(\.isOnRoute).count
    print(String(format: "locate: 10,000 notes on a 200,000-vertex track (%.0f km): %.1f ms (goal < 100 ms); %d on the route",
                 line.length / 1000, tLocate * 1000, onRoute))
    print(String(format: "locate: measuring the track (200,000 geodesics) %.1f ms; building the segment index %.1f ms",
                 tLine * 1000, tIndex * 1000))
}

func benchSample() throws {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("roadbook").path
    guard FileManager.default.isExecutableFile(atPath: binary) else {
        throw BenchError(message: "build the roadbook product first: swift build -c release")
    }
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("roadbook-bench-\(getpid())")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: out) }
    let sample = checkoutRoot.appendingPathComponent("samples/andorra-envalira.gpx").path
    var runs: [(Double, Double)] = []
    for _ in 0..<5 {
        let r = try measureProcess(binary, ["build", sample, "-o", out.appendingPathComponent("s.pdf").path,
                                            "--book", out.appendingPathComponent("s.json").path])
        guard r.status == 0 else { throw BenchError(message: "roadbook build failed (status \(r.status))") }
        runs.append((r.seconds, r.peakMiB))
    }
    let best = runs.map(\.0).min()!, median = runs.map(\.0).sorted()[runs.count / 2]
    print(String(format: "sample book (samples/andorra-envalira.gpx → PDF + book file, whole process): best %.0f ms, median %.0f ms, peak memory %.1f MiB",
                 best * 1000, median * 1000, runs.map(\.1).max()!))
}

/// A synthetic book of `rows` rows like a real one: varied instructions, CAPs, types, dangers
/// and a generated tulip on every row.
func syntheticBook(rows: Int) -> Book {
    let words = ["Turn right onto the gravel track", "Keep left at the fork towards the pass",
                 "Straight on at crossroads", "Roundabout, 3rd exit", "Sharp left down the hairpin"]
    let origin = Coordinate(latitude: 42.5, longitude: 1.5)
    let notes = (0..<rows).map { i -> Note in
        let exit = Double((i * 53) % 300 - 150)
        let tulip = Tulip(origin: .generated, roads: [
            Tulip.Road(role: .entry, angle: 180, roadClass: .tarmac),
            Tulip.Road(role: .exit, angle: exit, roadClass: i % 3 == 0 ? .gravel : .tarmac),
            Tulip.Road(role: .side, angle: exit > 0 ? -70 : 70, roadClass: .track),
        ])
        return Note(id: i + 1, kind: .turn, distanceAlong: Double(i) * 1234.5, coordinate: origin,
                    text: "\(words[i % words.count]) \(i + 1)", marker: i % 7 == 0 ? "CP\(i / 7 + 1)" : nil,
                    waypointType: i % 7 == 0 ? .wpv : nil, cap: Double(i * 37 % 360), danger: i % 4, tulip: tulip)
    }
    return Book(title: "Benchmark", rally: "roadbook-bench", route: Route(points: [RoutePoint(coordinate: origin)]),
                notes: notes)
}

/// In a child process: renders `rows` rows to `path` and prints "seconds pages".
func renderChild(rows: Int, path: String, templateName: String) throws {
    let book = syntheticBook(rows: rows)
    let renderer = BookRenderer(template: try TemplateLibrary.load(templateName))
    let (seconds, pages) = try timed { try renderer.renderPDF(book, to: URL(fileURLWithPath: path)) }
    print(String(format: "%.4f %d %.1f", seconds, pages, peakMemoryMiB()))
}

func benchRender(floor: String?) throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("roadbook-bench-render-\(getpid()).pdf").path
    defer { unlink(out) }
    let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
    for rows in [1000, 5000, 20000] {
        var best = (wall: Double.infinity, render: 0.0, pages: 0, peak: 0.0)
        for _ in 0..<3 {
            let pipe = Pipe()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: me)
            process.arguments = ["--render-child", String(rows), out, "a5"]
            process.standardOutput = pipe
            let (wall, _) = try timed { try process.run(); process.waitUntilExit() }
            let fields = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: " ")
            guard process.terminationStatus == 0, fields.count == 3 else { throw BenchError(message: "render child failed") }
            // The child reports its own VmHWM: ru_maxrss of a child includes the parent's memory at fork.
            let peak = Double(fields[2].trimmingCharacters(in: .whitespacesAndNewlines))!
            if wall < best.wall { best = (wall, Double(fields[0])!, Int(fields[1])!, peak) }
        }
        var line = String(format: "render: %d rows → %d A5 pages in %.2f s (%.0f pages/s; whole process %.2f s), peak memory %.1f MiB",
                          rows, best.pages, best.render, Double(best.pages) / best.render, best.wall, best.peak)
        if let floor {
            let pipe = Pipe()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: floor)
            process.arguments = [String(rows), out]
            process.standardOutput = pipe
            try process.run()
            process.waitUntilExit()
            let fields = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
            if fields.count == 2 {
                line += String(format: "; plain C floor %.2f s, %.1f MiB (%.1f× the floor)", fields[0], fields[1], best.render / fields[0])
            }
        }
        print(line)
    }
}

/// The root of the checkout this benchmark was built from.
let checkoutRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A file of the sample data committed with the project (`samples/data`).
func sampleData(_ path: String) throws -> URL {
    let url = checkoutRoot.appendingPathComponent("samples/data").appendingPathComponent(path)
    guard FileManager.default.fileExists(atPath: url.path) else {
        throw BenchError(message: "\(url.path) not found: it should be in the checkout")
    }
    return url
}

/// The Andorra extract in `samples/data`.
func andorraExtract() throws -> URL { try sampleData("andorra/andorra.osm.pbf") }

func benchTurns() throws {
    let extract = try andorraExtract()
    var loads: [Double] = []
    var graph: RoadGraph? = nil
    for _ in 0..<5 {
        let (t, g) = try timed { try OSMGraph.load(contentsOf: extract) }
        loads.append(t)
        graph = g
    }
    let g = graph!
    print(String(format: "turns: Andorra graph load (PBF → road graph, %d nodes, %d ways): best %.1f ms, median %.1f ms",
                 g.count, g.ways.count, loads.min()! * 1000, loads.sorted()[2] * 1000))
    let sample = try GPXReader.read(contentsOf: checkoutRoot.appendingPathComponent("samples/andorra-envalira.gpx")).trackPoints.map(\.coordinate)
    // The sample there and back, three times: 233 km through Andorra's junctions.
    var route: [Coordinate] = []
    for _ in 0..<3 { route += sample; route += sample.reversed() }
    let length = Polyline(route).length
    var runs: [Double] = []
    var count = 0
    for _ in 0..<3 {
        let (t, found) = timed { RouteTurns.maneuvers(along: route, graph: g) }
        runs.append(t)
        count = found.maneuvers.count
    }
    let best = runs.min()!
    print(String(format: "turns: from the map (match, junctions, passes) over %.0f km: %.0f ms, %.0f ms per 100 km (%d turns)",
                 length / 1000, best * 1000, best * 1000 / (length / 100_000), count))
    var generator = SplitMix(state: 7)
    let track = syntheticTrack(count: 100_000, generator: &generator)
    let trackLength = Polyline(track).length
    let (tShape, shapeTurns) = timed { TrackTurns().maneuvers(in: track) }
    print(String(format: "turns: from a track's shape alone over %.0f km: %.0f ms, %.0f ms per 100 km (%d turns)",
                 trackLength / 1000, tShape * 1000, tShape * 1000 / (trackLength / 100_000), shapeTurns.count))
    // The 233 km route as a receiver logs it (3 m of error, 1 m of it jitter), a fix every 10 m and a
    // fix every metre: the dense one is read from the means of its fixes (`TrackTurns.denseFix`).
    for spacing: Metres in [10, 1] {
        var errors = SplitMix(state: 11)
        let logged = recordedTrack(route, jitter: 1, spacing: spacing, generator: &errors)
        let (t, found) = timed { TrackTurns().maneuvers(in: logged) }
        print(String(format: "turns: from the shape of the route logged every %.0f m (%d fixes, %.0f km of road): %.0f ms, %.0f ms per 100 km (%d turns)",
                     spacing, logged.count, length / 1000, t * 1000, t * 1000 / (length / 100_000), found.count))
    }
}

/// The profile of a 1,000 km route inside the Andorra tile: zig-zags across it, heights every 15 m.
func benchProfile() async throws {
    let tile = try andorraExtract().deletingLastPathComponent().appendingPathComponent("N42E001.hgt.zip")
    let dem = try DEMSource(contentsOf: tile)
    var points: [Coordinate] = []
    var latitude = 42.05
    var eastward = true
    // Rows 0.01° apart, each crossing 0.9° of longitude (about 74 km) with a vertex every 10 m.
    while points.count < 101_000 {
        let steps = 7400
        for k in 0...steps {
            let f = Double(k) / Double(steps)
            points.append(Coordinate(latitude: latitude, longitude: 1.05 + 0.9 * (eastward ? f : 1 - f)))
        }
        latitude += 0.01
        eastward.toggle()
    }
    let (tLine, line) = timed { Polyline(points) }
    let builder = ProfileBuilder()
    let (tSamples, samples) = timed { builder.samplePoints(along: line) }
    let (tHeights, heights) = try await timedAsync { try await dem.elevations(at: samples) }
    let (tProfile, profile) = timed { builder.profile(heights: heights, source: dem.name) }
    print(String(format: "terrain: profile of a %.0f km route (%d heights every %.0f m): %.0f ms (measuring the line %.0f ms, sampling %.0f ms, heights %.0f ms, climb and descent %.0f ms); climb %.0f m",
                 line.length / 1000, samples.count, builder.configuration.spacing,
                 (tLine + tSamples + tHeights + tProfile) * 1000, tLine * 1000, tSamples * 1000, tHeights * 1000, tProfile * 1000,
                 profile.climb))
}

/// Seconds taken by an async `body`, and its result.
func timedAsync<T>(_ body: () async throws -> T) async rethrows -> (seconds: Double, value: T) {
    var start = timespec(), end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    let value = try await body()
    clock_gettime(CLOCK_MONOTONIC, &end)
    return (Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9, value)
}

let arguments = CommandLine.arguments
if let i = arguments.firstIndex(of: "--render-child"), i + 3 < arguments.count {
    do { try renderChild(rows: Int(arguments[i + 1])!, path: arguments[i + 2], templateName: arguments[i + 3]) } catch {
        FileHandle.standardError.write(Data("roadbook-bench: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
if let i = arguments.firstIndex(of: "--scale-child"), i + 4 < arguments.count {
    do {
        try scaleChild(path: arguments[i + 1], side: Int(arguments[i + 2])!, corridor: arguments[i + 3] == "corridor",
                       kilometres: Int(arguments[i + 4])!)
    } catch {
        FileHandle.standardError.write(Data("roadbook-bench: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
if let i = arguments.firstIndex(of: "--scale-city"), i + 1 < arguments.count {
    // Only writes the grid city (for profiling a child): --scale-city PATH [SIDE].
    let side = i + 2 < arguments.count ? Int(arguments[i + 2]) ?? 2_646 : 2_646
    do { _ = try GridCity(side: side).write(to: arguments[i + 1]) } catch {
        FileHandle.standardError.write(Data("roadbook-bench: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
if let i = arguments.firstIndex(of: "--scale-router-child"), i + 4 < arguments.count {
    do {
        try await scaleRouterChild(path: arguments[i + 1], side: Int(arguments[i + 2])!, mode: arguments[i + 3],
                                   kilometres: Int(arguments[i + 4])!)
    } catch {
        FileHandle.standardError.write(Data("roadbook-bench: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
if arguments.contains("--help") || arguments.contains("-h") {
    print("""
    usage: roadbook-bench [--only SUBSET] [--floor PATH] [--gpx-floor PATH] [--osrm URL] [--extract PBF]
      --only SUBSET   run one subset: sample, gpx, locate, turns, terrain, router, turns-quality, render, journal,
                      or scale (only when asked: a generated 7-million-node grid city, build's map
                      loading whole and by corridor for a 12 and a 105 km route beside osmium fileinfo -e;
                      about 2 minutes and 2 GB; ROADBOOK_SCALE_SIDE=1500 for a smaller city)
      --floor PATH    the plain C floor program the renderer is measured against (scripts/bench.sh builds it)
      --gpx-floor PATH
                      the plain C expat program the GPX reader is measured against, on the same file
                      (scripts/bench/gpx-floor.c; scripts/bench.sh builds it)
      --osrm URL      an OSRM server over the Andorra extract (default: ROADBOOK_OSRM_URL); router and
                      turns-quality need it (turns-quality: generated turn rows against OSRM's maneuvers)
      --extract PBF   turns-quality over this OpenStreetMap extract instead of Andorra's, to measure on
                      roads the turn passes were not tuned on; --osrm must serve the same extract
    """)
    exit(0)
}
/// The value after `flag`, if the flag is given.
func option(_ flag: String) -> String? {
    guard let i = arguments.firstIndex(of: flag) else { return nil }
    guard i + 1 < arguments.count else {
        FileHandle.standardError.write(Data("roadbook-bench: \(flag) needs a value (see --help)\n".utf8))
        exit(2)
    }
    return arguments[i + 1]
}
let only = option("--only")
let floorProgram = option("--floor")
let gpxFloorProgram = option("--gpx-floor")
let qualityExtract = option("--extract").map { URL(fileURLWithPath: $0) }
let osrmURL = (option("--osrm") ?? ProcessInfo.processInfo.environment["ROADBOOK_OSRM_URL"]).flatMap(URL.init(string:))
do {
    if only == nil || only == "sample" { try benchSample() }
    // The GPX reader's peak memory is read from this process's high-water mark: run it before
    // anything else that allocates much.
    if only == nil || only == "gpx" { for line in try gpxBenchmarkLines(floor: gpxFloorProgram) { print(line) } }
    if only == nil || only == "locate" { benchLocate() }
    if only == nil || only == "turns" { try benchTurns() }
    if only == nil || only == "terrain" {
        for line in try demBenchmarkLines() { print(line) }
        try await benchProfile()
    }
    if only == nil || only == "router" {
        for line in try await routerBenchmarkLines(extract: andorraExtract(), osrmURL: osrmURL) { print(line) }
    }
    if only == nil || only == "turns-quality" {
        for line in try await turnQualityBenchmarkLines(extract: qualityExtract ?? andorraExtract(), osrmURL: osrmURL) { print(line) }
    }
    if only == nil || only == "render" { try benchRender(floor: floorProgram) }
    if only == "scale" { for line in try scaleBenchmarkLines() { print(line) } }
    if only == nil || only == "journal" { for line in try await journalBenchmarkLines() { print(line) } }
    print(String(format: "peak memory of the benchmark process: %.1f MiB", peakMemoryMiB()))
} catch {
    FileHandle.standardError.write(Data("roadbook-bench: \(error)\n".utf8))
    exit(1)
}
