import Foundation
import Formats
import Testing
import TestSupport

/// Inputs from a pipe or standard input: read once, whole, their format told by their first bytes.
@Suite("Route and handles files from a pipe")
struct StreamInputTests {
    /// A pipe carrying `data`, as `/proc/self/fd/N` (what `<(…)` and `/dev/stdin` lead to).
    private func pipe(carrying data: Data) -> (url: URL, pipe: Pipe) {
        signal(SIGPIPE, SIG_IGN)
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        Thread.detachNewThread {
            writer.write(data)
            try? writer.close()
        }
        return (URL(fileURLWithPath: "/proc/self/fd/\(pipe.fileHandleForReading.fileDescriptor)"), pipe)
    }

    @Test("a GPX or a KMZ from a pipe (no extension) is read, though its first bytes are looked at first")
    func routes() throws {
        let root = packageRoot().appendingPathComponent("Tests/Hostile")
        for (name, points) in [("seeds/short.gpx", 80), ("kml/valid.kmz", 30)] {
            let (url, pipe) = pipe(carrying: try Data(contentsOf: root.appendingPathComponent(name)))
            #expect(InputFile.isStream(url))
            let file = try RouteFormats.read(contentsOf: url)
            let read = try file.document.routePoints(minimumPoints: 2).points.count
            #expect(read == points, "\(name): \(read) points")
            // Read again (a second reader of the same run), it gives the same bytes.
            #expect(try RouteFormats.read(contentsOf: url).document.routePoints(minimumPoints: 2).points.count == points)
            _ = pipe
        }
    }

    @Test("an empty pipe, or one of no known format, is refused in one line")
    func refused() throws {
        let (empty, a) = pipe(carrying: Data())
        #expect(throws: FormatError.self) { try RouteFormats.read(contentsOf: empty) }
        let (noise, b) = pipe(carrying: Data("hello\n".utf8))
        let error = #expect(throws: FormatError.self) { try RouteFormats.read(contentsOf: noise) }
        #expect(error?.message.hasPrefix("is not a route file roadbook reads") == true)
        _ = (a, b)
    }

    @Test("handles from a pipe: typed coordinates (with a byte order mark) or GeoJSON, told by their first bytes")
    func handles() throws {
        let (text, a) = pipe(carrying: Data("\u{FEFF}42.5063 1.5218\n42.51 1.53\n".utf8))
        #expect(try HandlesFile.kind(of: text) == "txt")
        #expect(try HandlesFile.read(contentsOf: text).handles.count == 2)
        let geojson = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1.5218,42.5063]}},{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1.53,42.51]}}]}"#
        let (json, b) = pipe(carrying: Data(geojson.utf8))
        #expect(try HandlesFile.read(contentsOf: json).handles.count == 2)
        _ = (a, b)
    }
}
