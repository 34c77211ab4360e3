import BookAssembly
import Formats
import Foundation
import Model

/// Size of the synthetic GPX file: large enough that reading it takes a
/// measurable time and a reader that kept the file in memory would show it in RSS.
private let gpxBenchmarkTargetBytes = 100 * 1_000_000
/// Points written between two writes to disk; keeps the writer's own memory small.
private let gpxBenchmarkPointsPerWrite = 10_000

/// Writes a ~100 MB synthetic GPX 1.1 track (every point with `ele` and `time`)
/// to a temporary directory, reads it with `GPXReader` and then with the plain C floor (when
/// given), deletes it, and reports.
/// - Parameter floor: the program built from `scripts/bench/gpx-floor.c`, run on the same file
///   after the reader (the file is then in the page cache for both); nil to measure the reader alone.
/// - Returns: lines for the benchmark report: the file written, the read time
///   and rate in points/s and MB/s, and the peak resident set size of the read
///   (`VmHWM` from `/proc/self/status`, reset just before reading when the
///   kernel allows it); with a floor, its time and memory and the reader's time as a multiple of it.
/// - Throws: any error writing, reading or removing the temporary file, or a floor that fails or
///   counts other points.
func gpxBenchmarkLines(floor: String?) throws -> [String] {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("roadbook-bench-gpx-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("synthetic.gpx")

    let clock = ContinuousClock()
    var written = (points: 0, bytes: 0)
    let writeTime = try clock.measure { written = try writeSyntheticGPX(to: url) }

    let peakReset = resetPeakRSS()
    var document: GPXDocument?
    let readTime = try clock.measure { document = try GPXReader.read(contentsOf: url) }
    let peak = peakRSSBytes()
    let points = document?.trackPoints.count ?? 0
    guard points == written.points else {
        throw FormatError(file: url.path, message: "read \(points) points but wrote \(written.points)")
    }

    let readSeconds = seconds(readTime)
    // The pass that reads where the track stands still runs over every track `build` reads: its
    // cost beside the read's.
    let routePoints = (document?.trackPoints ?? []).map { RoutePoint(coordinate: $0.coordinate, elevation: $0.elevation) }
    var stops = 0
    let stopTime = clock.measure { stops = StandingStill().collapsed(routePoints).stops.count }
    let floorLine = try floor.map { try gpxFloorLine($0, file: url, points: points, readSeconds: readSeconds) }
    return [
        "GPX write: \(megabytes(written.bytes)) MB synthetic track, \(grouped(written.points)) points "
            + "in \(String(format: "%.2f", seconds(writeTime))) s",
        "GPX read: \(grouped(points)) points in \(String(format: "%.2f", readSeconds)) s "
            + "(\(grouped(Int(Double(points) / readSeconds))) points/s, "
            + "\(String(format: "%.1f", Double(written.bytes) / 1e6 / readSeconds)) MB/s)",
        "GPX read: peak RSS \(peak.map { "\(megabytes($0)) MB" } ?? "unknown (no /proc/self/status)")"
            + (peakReset ? " during the read" : " for the whole process (could not reset VmHWM)"),
        "GPX stops: where the track stands still, over the same points: \(String(format: "%.2f", seconds(stopTime))) s "
            + "(\(String(format: "%.0f", 100 * seconds(stopTime) / readSeconds))% of the read), \(stops) stops",
    ] + [floorLine].compactMap { $0 }
}

/// Runs the plain C floor on `file` and words its figures beside the reader's `readSeconds`.
/// - Throws: `BenchError` when the floor fails, prints something else, or counts other than `points`.
private func gpxFloorLine(_ floor: String, file: URL, points: Int, readSeconds: Double) throws -> String {
    let pipe = Pipe()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: floor)
    process.arguments = [file.path]
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let fields = output.split(whereSeparator: \.isWhitespace)
    guard process.terminationStatus == 0, fields.count == 3, let floorSeconds = Double(fields[0]),
          let floorMiB = Double(fields[1]), let floorPoints = Int(fields[2]) else {
        throw BenchError(message: "the GPX floor \(floor) failed (status \(process.terminationStatus)): \(output)")
    }
    guard floorPoints == points else {
        throw BenchError(message: "the GPX floor read \(floorPoints) points, the reader \(points)")
    }
    return "GPX read: plain C expat floor \(String(format: "%.2f", floorSeconds)) s, "
        + "\(String(format: "%.1f", floorMiB)) MiB peak (reader \(String(format: "%.2f", readSeconds / floorSeconds))× the floor)"
}

/// Writes a track that winds around Andorra, one point per second, until the file
/// reaches `gpxBenchmarkTargetBytes`.
/// - Returns: the number of points and bytes written.
private func writeSyntheticGPX(to url: URL) throws -> (points: Int, bytes: Int) {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
        throw FormatError(file: url.path, message: "cannot create the benchmark file; is the temporary directory writable?")
    }
    let file = try FileHandle(forWritingTo: url)
    defer { try? file.close() }
    var bytes = 0
    var points = 0
    func write(_ text: String) throws {
        let data = Data(text.utf8)
        try file.write(contentsOf: data)
        bytes += data.count
    }
    try write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="roadbook-bench" xmlns="http://www.topografix.com/GPX/1/1">
        <trk><name>synthetic</name><trkseg>

        """)
    // One point a second from 2024-05-01T08:00:00Z; ~1 million points stay within May.
    let startSecondOfMonth = 8 * 3600
    while bytes < gpxBenchmarkTargetBytes {
        var chunk = ""
        chunk.reserveCapacity(gpxBenchmarkPointsPerWrite * 120)
        for _ in 0..<gpxBenchmarkPointsPerWrite {
            let step = Double(points)
            let latitude = 42.5 + 0.05 * sin(step / 5_000)
            let longitude = 1.55 + 0.08 * cos(step / 7_000)
            let elevation = 1_500 + 600 * sin(step / 3_000)
            let secondOfMonth = startSecondOfMonth + points
            let (day, time) = (1 + secondOfMonth / 86_400, secondOfMonth % 86_400)
            chunk += "<trkpt lat=\"\(latitude)\" lon=\"\(longitude)\"><ele>\(Int(elevation)).\(points % 10)</ele>"
                + "<time>2024-05-\(twoDigits(day))T"
                + "\(twoDigits(time / 3600)):\(twoDigits(time / 60 % 60)):\(twoDigits(time % 60))Z</time></trkpt>\n"
            points += 1
        }
        try write(chunk)
    }
    try write("</trkseg></trk>\n</gpx>\n")
    return (points, bytes)
}

private func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

/// Resets the kernel's peak-RSS counter (`VmHWM`) by writing 5 to `/proc/self/clear_refs`.
/// - Returns: whether the kernel accepted it.
private func resetPeakRSS() -> Bool {
    guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
    defer { try? handle.close() }
    return (try? handle.write(contentsOf: Data("5".utf8))) != nil
}

/// Peak resident set size in bytes, from `VmHWM` in `/proc/self/status`; nil off Linux.
private func peakRSSBytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kilobytes = Int(line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces)
                                .replacingOccurrences(of: " kB", with: ""))
    else { return nil }
    return kilobytes * 1024
}

private func seconds(_ duration: Duration) -> Double {
    let (whole, attoseconds) = duration.components
    return Double(whole) + Double(attoseconds) / 1e18
}

private func megabytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1e6) }

/// `1234567` as `1,234,567`, independent of the locale.
private func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (index, character) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
        result.append(character)
    }
    return (value < 0 ? "-" : "") + result
}
