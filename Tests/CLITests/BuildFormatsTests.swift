import Foundation
import Formats
import Model
import Testing
import TestSupport

/// `build` from KML, KMZ and GeoJSON, as a person runs it: the format is told by the file's first
/// bytes, the line is the route, the points are rows whose source is `file:line`.
@Suite("build reads KML, KMZ and GeoJSON")
struct BuildFormatsTests {
    static let kml = """
    <?xml version="1.0" encoding="UTF-8"?>
    <kml xmlns="http://www.opengis.net/kml/2.2">
    <Document><name>Short</name>
    <Placemark><name>Route</name><LineString><coordinates>
    1.5000,42.5000 1.5050,42.5000 1.5100,42.5000
    </coordinates></LineString></Placemark>
    <Placemark><name>CP1</name><description>Cattle grid</description>
    <Point><coordinates>1.5010,42.5000</coordinates></Point></Placemark>
    <Placemark><name>Far away</name><Point><coordinates>1.5000,42.5300</coordinates></Point></Placemark>
    </Document></kml>
    """

    static let geojson = """
    {"type": "FeatureCollection", "features": [
     {"type": "Feature", "properties": {"name": "Route"},
      "geometry": {"type": "LineString", "coordinates": [[1.5, 42.5], [1.505, 42.5], [1.51, 42.5]]}},
     {"type": "Feature", "properties": {"name": "CP1", "description": "Cattle grid", "type": "CP"},
      "geometry": {"type": "Point", "coordinates": [1.501, 42.5]}},
     {"type": "Feature", "properties": {"name": "Far away"},
      "geometry": {"type": "Point", "coordinates": [1.5, 42.53]}}
    ]}
    """

    /// Builds `file` and returns the book it wrote, and what build printed on standard error.
    func build(_ file: URL, in folder: TemporaryFolder, sourceLocation: SourceLocation = #_sourceLocation) async throws -> (book: Book, errors: String) {
        let result = await roadbook(["build", file.path, "-o", folder.path("book.pdf").path, "--book", folder.path("book.json").path, "--no-turns", "--force"])
        #expect(result.status == 0, "\(result.errors)", sourceLocation: sourceLocation)
        return (try BookFile.read(contentsOf: folder.path("book.json")), result.errors)
    }

    /// The rows printed in the book: the notes on the route.
    func rows(_ book: Book) -> [Note] { book.notes.filter { $0.placement == .onRoute } }

    @Test("a KML LineString is the route and its Placemark point a row, sourced at the Placemark's line")
    func kml() async throws {
        let folder = try TemporaryFolder()
        let file = folder.path("stage.kml")
        try Data(Self.kml.utf8).write(to: file)
        let (book, errors) = try await build(file, in: folder)
        #expect(book.title == "Short")
        #expect(rows(book).map(\.text) == ["Cattle grid"])
        #expect(rows(book).first?.marker == "CP1")
        // 0.001° of longitude at 42.5° N is 82 m.
        #expect(rows(book).first.map { abs($0.distanceAlong - 82) < 2 } == true, "\(rows(book).first?.distanceAlong ?? -1)")
        // The far point is reported by its source, the file and the line of its Placemark.
        #expect(errors.contains("stage.kml:9: Far away is 33"), "\(errors)")
    }

    @Test("a KMZ builds as its doc.kml would; a file named .gpx that holds KML is read as KML")
    func kmzAndMisnamed() async throws {
        let folder = try TemporaryFolder()
        try Data(Self.kml.utf8).write(to: folder.path("doc.kml"))
        _ = try runTool("sh", ["-c", "cd '\(folder.url.path)' && zip -q -X stage.kmz doc.kml && cp doc.kml misnamed.gpx"])
        let kmz = try await build(folder.path("stage.kmz"), in: folder)
        #expect(rows(kmz.book).map(\.text) == ["Cattle grid"])
        #expect(kmz.errors.contains("stage.kmz:9: Far away is 33"), "\(kmz.errors)")
        let misnamed = try await build(folder.path("misnamed.gpx"), in: folder)
        #expect(rows(misnamed.book).map(\.text) == ["Cattle grid"])
    }

    @Test("a GeoJSON LineString is the route and its Point a row with its type")
    func geojson() async throws {
        let folder = try TemporaryFolder()
        let file = folder.path("stage.geojson")
        try Data(Self.geojson.utf8).write(to: file)
        let (book, errors) = try await build(file, in: folder)
        #expect(rows(book).map(\.text) == ["Cattle grid"])
        #expect(rows(book).first?.waypointType == WaypointType(name: "CP"))
        #expect(errors.contains("stage.geojson:7: Far away is 33"), "\(errors)")
    }

    @Test("a file with points and no line is refused in one line that says so")
    func pointsOnly() async throws {
        let folder = try TemporaryFolder()
        let file = folder.path("points.geojson")
        try Data(#"{"type": "Feature", "properties": {"name": "CP1"}, "geometry": {"type": "Point", "coordinates": [1.5, 42.5]}}"#.utf8).write(to: file)
        let result = await roadbook(["build", file.path, "-o", folder.path("book.pdf").path])
        #expect(result.status == 1)
        #expect(result.errors == "roadbook build: \(file.path): no line in the file (it has 1 point only); a road book needs the route as a LineString or MultiLineString\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path("book.pdf").path))
    }

    @Test("every foreign KML, KMZ and GeoJSON file with a line builds a book of that line",
          arguments: ForeignFiles.withLines)
    func foreign(_ name: String) async throws {
        let folder = try TemporaryFolder()
        let url = packageRoot().appendingPathComponent("samples/data/foreign/\(name)")
        let (book, _) = try await build(url, in: folder)
        let expected = try RouteFormats.read(contentsOf: url).document.routePoints(minimumPoints: 2).points
        #expect(book.route.points.count == expected.count)
    }
}

enum ForeignFiles {
    /// The KML, KMZ and GeoJSON files of `samples/data/foreign` that hold a line (see its README).
    static let withLines = ["gdal-gx_track_without_when.kml", "gdal-linestring.geojson", "gdal-multilinestring.geojson",
                            "gdal-non_conformant_multi.kml", "gpsbabel-geojson.geojson", "gpsbabel-opentracks.kml",
                            "gpsbabel-segmented_tracks.geojson", "togeojson-gxmultitrack.kml", "togeojson-gxtrack.kml",
                            "togeojson-gxtrack.kmz", "togeojson-linestring.kml", "togeojson-multigeometry.kml", "togeojson-noname.kml"]
}
