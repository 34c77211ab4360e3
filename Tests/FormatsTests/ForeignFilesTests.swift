import Foundation
import Testing
import TestSupport
@testable import Formats

/// What GDAL's `ogrinfo` finds in a file: the positions of its lines and its points, counted from
/// the WKT it prints for each feature (`ogrinfo -ro -al -q`), or for GPX from the feature counts
/// of its `track_points`, `route_points` and `waypoints` layers.
struct OGRCounts: Equatable, CustomStringConvertible {
    var linePositions = 0
    var lines = 0
    var points = 0
    var description: String { "\(lines) lines of \(linePositions) positions, \(points) points" }

    static func of(_ url: URL) throws -> OGRCounts {
        if url.pathExtension == "gpx" {
            func count(_ layer: String) throws -> Int {
                let text = try runTool("ogrinfo", ["-ro", "-so", url.path, layer])
                guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Feature Count:") }),
                      let n = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) else {
                    throw ToolError(message: "ogrinfo printed no feature count for \(layer) of \(url.lastPathComponent)")
                }
                return n
            }
            let track = try count("track_points"), route = try count("route_points")
            // As `build` does: a track of fewer than two points gives way to the file's route.
            return OGRCounts(linePositions: track >= 2 ? track : route, lines: track + route > 0 ? 1 : 0, points: try count("waypoints"))
        }
        var counts = OGRCounts()
        for raw in try runTool("ogrinfo", ["-ro", "-al", "-q", url.path]).split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard let keyword = line.split(separator: " ").first.map(String.init) else { continue }
            // The positions of a WKT geometry: its text between the outer brackets, split at commas.
            let body = line.drop { $0 != "(" }
            let positions = body.isEmpty ? 0 : body.split(separator: ",").count
            switch keyword {
            case "LINESTRING":
                counts.linePositions += positions
                counts.lines += positions > 0 ? 1 : 0
            case "MULTILINESTRING":
                counts.linePositions += positions
                counts.lines += body.components(separatedBy: "),(").count
            case "POINT", "MULTIPOINT": counts.points += positions
            default: continue
            }
        }
        return counts
    }
}

/// Files from the test suites of togeojson, GDAL, gpxpy and GPSBabel (`samples/data/foreign`, see
/// its README): each one `build` reads has the lines and points GDAL finds in it; each it refuses
/// is refused in one line naming the file, and GDAL finds no line in it either (or cannot read it).
@Suite("Route files from other tools' test suites")
struct ForeignFilesTests {
    static let folder = packageRoot().appendingPathComponent("samples/data/foreign")

    /// The files `build` refuses, with a words its message holds. Every other file in the folder must build.
    static let refused: [String: String] = [
        "gdal-featurecollection_pointz.json": "no line in the file (it has 1 point only)",
        "gdal-kml_with_space_content_in_coordinates.kml": "no line in the file (it has 1 Placemark without a line)",
        "gdal-truncated.kml": "the file ends early",
        "togeojson-bad.kml": "<coordinates> \"no,no\": its longitude is not a decimal number",
        "togeojson-cdata.kml": "no line in the file (it has 1 point only)",
        "togeojson-point.kml": "no line in the file (it has 1 point only)",
        "togeojson-twopoints.kml": "no line in the file (it has 2 points only)",
        "togeojson-selfclosing.kml": "no line in the file (it has 1 Placemark without a line)",
        "gpxpy-unicode_with_bom.gpx": "no track or route in the file (it has 1 waypoint only)",
        "togeojson-empty_trk.gpx": "no track or route in the file",
        "togeojson-trek_no_rtept.gpx": "no track or route in the file",
    ]

    /// Where our reading differs from GDAL's on purpose, the expectation from the file's text instead.
    static let readFromText: [String: OGRCounts] = [
        // Two of its four gx:coord are empty (OpenTracks' pauses): GDAL reads them as 0,0, we skip them.
        "gpsbabel-opentracks.kml": OGRCounts(linePositions: 2, lines: 1, points: 0),
        // Seven gx:coord in one gx:Track; GDAL 3.6's LIBKML driver crashes on a gx:Track without <when>.
        "gdal-gx_track_without_when.kml": OGRCounts(linePositions: 7, lines: 1, points: 0),
    ]

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0 != "README.md" }.sorted()
    }

    @Test("the folder holds a dozen files or more, each named in its README")
    func listed() throws {
        let readme = try String(contentsOf: Self.folder.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(Self.files.count >= 12)
        for file in Self.files {
            let stem = file.split(separator: "-", maxSplits: 1).last.map(String.init) ?? file
            #expect(readme.contains(file) || readme.contains("`\(stem)`"),
                    "\(file) is not in samples/data/foreign/README.md")
        }
    }

    @Test("each file is read with the lines and points GDAL finds in it, or refused in one clear line", arguments: files)
    func readsOrRefuses(_ name: String) throws {
        let url = Self.folder.appendingPathComponent(name)
        if let words = Self.refused[name] {
            let error = #expect(throws: FormatError.self) {
                _ = try RouteFormats.read(contentsOf: url).document.routePoints(minimumPoints: 2)
            }
            let message = error?.description ?? ""
            #expect(message.contains(words), "\(message)")
            #expect(HostileCorpus.problems(with: message, file: url, expected: words).isEmpty, "\(message)")
            // GDAL finds no line in it either, or cannot read it at all.
            if let counts = try? OGRCounts.of(url) { #expect(counts.linePositions == 0, "\(counts)") }
            return
        }
        let file = try RouteFormats.read(contentsOf: url)
        let (points, _) = try file.document.routePoints(minimumPoints: 2)
        let expected = try Self.readFromText[name] ?? OGRCounts.of(url)
        #expect(points.count == expected.linePositions, "\(name): GDAL finds \(expected)")
        #expect(file.document.waypoints.count == expected.points, "\(name): GDAL finds \(expected)")
        if url.pathExtension != "gpx" {
            #expect(file.document.tracks.first?.segments.count == expected.lines, "\(name): GDAL finds \(expected)")
        }
    }

    @Test("ogrinfo is installed (scripts/install-deps.sh installs gdal-bin): the comparison above needs it")
    func ogrinfoPresent() throws {
        #expect(throws: Never.self) { _ = try runTool("ogrinfo", ["--version"]) }
    }
}
