import Foundation
import Geo

/// A metre grid on the ground near `origin`, for drawing test routes: x east, y north.
public struct MetreGrid: Sendable {
    public let frame: LocalFrame
    public init(origin: Coordinate = Coordinate(latitude: 42.5, longitude: 1.5)) {
        frame = LocalFrame(origin: origin)
    }
    /// The coordinate `x` metres east and `y` metres north of the origin.
    public func callAsFunction(_ x: Double, _ y: Double) -> Coordinate {
        frame.unproject(x: x, y: y)
    }
    /// A line through grid points, with extra vertices every `step` metres so it looks like a track.
    public func line(_ points: [(Double, Double)], step: Double = 10) -> [Coordinate] {
        var result: [Coordinate] = []
        for (a, b) in zip(points, points.dropFirst()) {
            let dx = b.0 - a.0, dy = b.1 - a.1
            let n = max(1, Int((dx * dx + dy * dy).squareRoot() / step))
            for k in 0..<n { result.append(self(a.0 + dx * Double(k) / Double(n), a.1 + dy * Double(k) / Double(n))) }
        }
        if let last = points.last { result.append(self(last.0, last.1)) }
        return result
    }
}

extension MetreGrid {
    /// OpenStreetMap XML (nodes and ways, no header) of roundabouts of 15 m radius centred at
    /// `centres` (metres on the grid), joined to no road, each one closed way of 12 nodes drawn
    /// clockwise, as traffic goes where it keeps left; ids from `firstID` on. Their rings tell a
    /// map's side of the road.
    public func clockwiseRingsXML(_ centres: [(Double, Double)], firstID: Int) -> String {
        var xml = "", id = firstID
        for (x, y) in centres {
            let first = id
            for k in 0..<12 {
                let a = -Double(k) * 30 * .pi / 180, c = self(x + 15 * cos(a), y + 15 * sin(a))
                xml += "<node id=\"\(id)\" lat=\"\(c.latitude)\" lon=\"\(c.longitude)\"/>\n"
                id += 1
            }
            xml += "<way id=\"\(id)\">" + (first..<first + 12).map { "<nd ref=\"\($0)\"/>" }.joined() + "<nd ref=\"\(first)\"/>"
                + "<tag k=\"highway\" v=\"tertiary\"/><tag k=\"junction\" v=\"roundabout\"/></way>\n"
            id += 1
        }
        return xml
    }
}

/// A temporary folder removed when the value is released.
public final class TemporaryFolder: @unchecked Sendable {
    public let url: URL
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("roadbook-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    public func path(_ name: String) -> URL { url.appendingPathComponent(name) }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Runs an external program and returns its standard output; throws when it exits non-zero.
/// - Parameter input: written to the program's standard input, which is then closed.
public func runTool(_ tool: String, _ arguments: [String], input: String? = nil) throws -> String {
    let run = try runProgram(tool, arguments, input: input)
    guard run.status == 0 else {
        throw ToolError(message: "\(tool) \(arguments.joined(separator: " ")) exited \(run.status): \(run.errors)")
    }
    return run.output
}

/// Runs an external program, found on the PATH, and returns its exit status, standard output and
/// standard error, whatever the status.
/// - Parameter input: written to the program's standard input, which is then closed.
public func runProgram(_ tool: String, _ arguments: [String], input: String? = nil) throws
    -> (status: Int32, output: String, errors: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    let pipe = Pipe(), errors = Pipe(), stdin = Pipe()
    process.standardOutput = pipe
    process.standardError = errors
    process.standardInput = stdin
    try process.run()
    // Feed the input from another thread so a large output cannot fill its pipe and block us.
    let feeder = Thread { [data = Data((input ?? "").utf8)] in
        stdin.fileHandleForWriting.write(data)
        try? stdin.fileHandleForWriting.close()
    }
    feeder.start()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
}

public struct ToolError: Error, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// The folder of test and sample data committed with the project (`samples/data`: the Andorra
/// OpenStreetMap extract, its SRTM tile and the OpenRally schemas; see `samples/data/README.md`).
public func testDataFolder(file: StaticString = #filePath) throws -> URL {
    let url = packageRoot(file: file).appendingPathComponent("samples/data")
    guard FileManager.default.fileExists(atPath: url.appendingPathComponent("andorra/andorra.osm.pbf").path) else {
        throw ToolError(message: "test data missing: \(url.path)/andorra/andorra.osm.pbf should be in the checkout")
    }
    return url
}

/// The root of the package checkout.
public func packageRoot(file: StaticString = #filePath) -> URL {
    var url = URL(fileURLWithPath: "\(file)")
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
    }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
}

/// Compares `text` with the golden file `Goldens/<name>` beside the calling test file.
/// With `ROADBOOK_RECORD_GOLDENS=1` it writes the golden instead and fails, so a recording run
/// can never pass by accident.
public func goldenMismatch(_ text: String, named name: String, file: StaticString = #filePath) -> String? {
    let url = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appendingPathComponent("Goldens/\(name)")
    if ProcessInfo.processInfo.environment["ROADBOOK_RECORD_GOLDENS"] == "1" {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(text.utf8).write(to: url)
        return "recorded \(url.path); run again without ROADBOOK_RECORD_GOLDENS to compare"
    }
    guard let golden = try? String(contentsOf: url, encoding: .utf8) else {
        return "no golden at \(url.path): record it with ROADBOOK_RECORD_GOLDENS=1"
    }
    if golden == text { return nil }
    let a = golden.split(separator: "\n", omittingEmptySubsequences: false)
    let b = text.split(separator: "\n", omittingEmptySubsequences: false)
    let line = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
    let expected = line < a.count ? String(a[line]) : "<end>", actual = line < b.count ? String(b[line]) : "<end>"
    return "differs from \(url.lastPathComponent) at line \(line + 1):\n  golden: \(expected)\n  actual: \(actual)"
}

/// A seeded random generator (SplitMix64, Steele, Lea & Flood 2014), so random tests draw the same
/// numbers on every run.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform draw in [0, 1).
    public mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// A normal draw with standard deviation `sigma` (Box–Muller).
    public mutating func gaussian(_ sigma: Double) -> Double {
        let u = max(uniform(), 1e-12), v = uniform()
        return sigma * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}

extension MetreGrid {
    /// A recorded-style track of the line through `points` (metres): a fix every `spacing` metres
    /// along it, each moved east and north by seeded Gaussian noise of `sigma` metres, of which
    /// `jitter` is drawn anew at every fix and the rest drifts (its correlation falls to 1/e over
    /// 300 m), as the turn-quality benchmark records its tracks: `jitter` equal to `sigma` (the
    /// default) is independent scatter at every fix, its "noisy" tracks; 1 m of jitter a
    /// receiver's, its "recorded" ones.
    public func recorded(_ points: [(Double, Double)], sigma: Double = 3, jitter: Double? = nil, spacing: Double = 10,
                         seed: UInt64) -> [Coordinate] {
        var noise = SeededGenerator(seed: seed)
        let jitter = jitter ?? sigma
        let drift = max(0, sigma * sigma - jitter * jitter).squareRoot()
        let kept = exp(-spacing / 300), renewed = (1 - kept * kept).squareRoot()
        var driftX = drift > 0 ? noise.gaussian(drift) : 0, driftY = drift > 0 ? noise.gaussian(drift) : 0
        var along: [Double] = [0]
        for (a, b) in zip(points, points.dropFirst()) {
            along.append(along[along.count - 1] + ((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1)).squareRoot())
        }
        var fixes: [Coordinate] = []
        var d = 0.0, k = 0
        while d <= along[along.count - 1] {
            while k < along.count - 2, along[k + 1] < d { k += 1 }
            let t = along[k + 1] > along[k] ? (d - along[k]) / (along[k + 1] - along[k]) : 0
            let x = points[k].0 + t * (points[k + 1].0 - points[k].0), y = points[k].1 + t * (points[k + 1].1 - points[k].1)
            if drift > 0 {
                driftX = kept * driftX + renewed * noise.gaussian(drift)
                driftY = kept * driftY + renewed * noise.gaussian(drift)
            }
            fixes.append(self(x + noise.gaussian(jitter) + driftX, y + noise.gaussian(jitter) + driftY))
            d += spacing
        }
        return fixes
    }
}

/// A GPX 1.1 file with one track through `points`.
public func gpxTrack(_ points: [Coordinate], name: String = "Recce") -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><name>\(name)</name><trkseg>"
        + points.map { String(format: "<trkpt lat=\"%.7f\" lon=\"%.7f\"/>", $0.latitude, $0.longitude) }.joined()
        + "</trkseg></trk></gpx>\n"
}

/// The handles' coordinates in the text `roadbook handles BOOK list` prints, in order: each line
/// `handle N: LAT, LON, …`.
public func listedHandleCoordinates(_ text: String) -> [Coordinate] {
    text.split(separator: "\n").filter { $0.hasPrefix("handle ") }.compactMap { line in
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let numbers = parts[1].split(separator: ",").prefix(2).compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        return numbers.count == 2 ? Coordinate(latitude: numbers[0], longitude: numbers[1]) : nil
    }
}
