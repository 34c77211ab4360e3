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
        Coordinate(latitude: frame.origin.latitude + y / frame.metresPerDegreeLatitude,
                   longitude: frame.origin.longitude + x / frame.metresPerDegreeLongitude)
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
public func runTool(_ tool: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    let pipe = Pipe(), errors = Pipe()
    process.standardOutput = pipe
    process.standardError = errors
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw ToolError(message: "\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(String(decoding: errorData, as: UTF8.self))")
    }
    return String(decoding: data, as: UTF8.self)
}

public struct ToolError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// The folder of shared test data (`../shared/data` beside the checkout, or `$ROADBOOK_DATA`).
/// Fails loudly when missing: CI always has it.
public func sharedDataFolder(file: StaticString = #filePath) throws -> URL {
    if let env = ProcessInfo.processInfo.environment["ROADBOOK_DATA"] { return URL(fileURLWithPath: env) }
    var url = URL(fileURLWithPath: "\(file)")
    while url.path != "/" {
        url.deleteLastPathComponent()
        let candidate = url.appendingPathComponent("../shared/data").standardizedFileURL
        if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("andorra").path) { return candidate }
    }
    throw ToolError(message: "shared test data not found: set ROADBOOK_DATA or put it at ../shared/data beside the checkout")
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
