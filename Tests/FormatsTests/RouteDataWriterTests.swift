import Foundation
@testable import Formats
import Geo
import Model
import Testing
import TestSupport

/// The four route-data files, read back by GDAL (`ogrinfo`), not by us: each must give the line, the
/// rows and every saved route property with the values worked out by hand in `RouteDataBooks`.
@Suite("Route data files read back by GDAL")
struct RouteDataWriterTests {
    /// The properties of `RouteDataBooks.handlesBook()`, as text.
    static let properties: [String: String] = [
        "routeStart": "Canillo & <Soldeu>", "routeEnd": "Ordino", "routeDistance": "11.2 km", "routeTravelTime": "10m",
        "routeTransportType": "Drive", "routeSource": "OSRM Directions", "routeViaCount": "2", "routeStraightLegs": "2",
    ]
    static let name = "Canillo & <Soldeu> → Ordino"
    static let description = "Route via OSRM Directions"
    /// (minX, minY, maxX, maxY) of the line, and of the rows on the route.
    static let lineExtent = [0, 0, 0.1, 0.001]
    static let rowsExtent = [0, 0, 0.1, 0.001]

    /// The line's x, y (longitude, latitude) in order.
    static let lineCoordinates: [Double] = [0, 0, 0.05, 0, 0.1, 0, 0.1, 0.001]

    /// The numbers of a WKT geometry, in order.
    func coordinates(_ wkt: String?) -> [Double] {
        (wkt ?? "").matches(of: /-?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?/).compactMap { Double($0.output.0) }
    }

    func write(_ writer: any BookWriter.Type, _ book: Book = RouteDataBooks.handlesBook()) throws -> (URL, [String], TemporaryFolder) {
        let folder = try TemporaryFolder()
        let file = folder.path("route.\(writer.fileExtensions[0])")
        let warnings = try writer.write(book, to: file)
        return (file, warnings, folder)
    }

    func expectExtent(_ extent: [Double]?, _ want: [Double], _ what: String) {
        guard let extent, extent.count == 4 else { Issue.record("\(what): no extent"); return }
        for (a, b) in zip(extent, want) { #expect(abs(a - b) < 1e-6, "\(what) extent \(extent), want \(want)") }
    }

    func expectRows(_ features: [OGRFeature], name: String, instruction: String, type: String?) {
        #expect(features.map { $0.values[name] } == ["DSS", "2", "ASS"])
        #expect(features.map { $0.values[instruction] } == ["Start & \"go\" <fast>", "Keep left → CG-2", "Finish"])
        if let type { #expect(features.map { $0.values[type] } == ["DSS", "turn", "ASS"]) }
        #expect(features.allSatisfy { $0.geometry?.hasPrefix("POINT") == true })
    }

    @Test("GPX: a track (not a route) with the properties, the rows as waypoints, valid against GPX 1.1")
    func gpx() throws {
        let (file, warnings, _folder) = try write(GPXTrackWriter.self)
        _ = _folder
        #expect(warnings == ["GPX: 1 note off the route is not written (only rows on the route are)"])
        let layers = try ogrinfo(file)
        let tracks = try #require(layers.first { $0.name == "tracks" })
        #expect(tracks.geometry == "Multi Line String")
        #expect(tracks.featureCount == 1)
        expectExtent(tracks.extent, Self.lineExtent, "tracks")
        let track = try #require(tracks.features.first)
        #expect(track.values["name"] == Self.name)
        #expect(track.values["desc"] == Self.description)
        for (key, value) in Self.properties where key != "routeDistance" {
            #expect(track.values[key] == value, "\(key)")
        }
        // GDAL's GPX driver guesses an extension field's type from its text and takes "11.2 km" for
        // the number 11.2; the text itself is read with xmllint.
        let distance = try runTool("xmllint", ["--xpath", "string(//*[local-name()='routeDistance'])", file.path])
        #expect(distance.trimmingCharacters(in: .whitespacesAndNewlines) == "11.2 km")
        #expect(layers.first { $0.name == "routes" }?.featureCount == 0, "the line is a track, not a GPX route")
        #expect(layers.first { $0.name == "track_points" }?.featureCount == 4)
        let waypoints = try #require(layers.first { $0.name == "waypoints" })
        #expect(waypoints.featureCount == 3)
        expectExtent(waypoints.extent, Self.rowsExtent, "waypoints")
        expectRows(waypoints.features, name: "name", instruction: "desc", type: "type")
        #expect(waypoints.features.map { $0.values["distance"] } == ["0", "5566", "11242"])

        let schema = packageRoot().appendingPathComponent("samples/data/openrally/common/gpx.xsd")
        _ = try runTool("xmllint", ["--noout", "--schema", schema.path, file.path])
    }

    @Test("GPX: heights of the line and the rows as <ele>, valid against GPX 1.1")
    func gpxHeights() throws {
        let (file, _, _folder) = try write(GPXTrackWriter.self, RouteDataBooks.trackBook())
        _ = _folder
        let layers = try ogrinfo(file)
        let points = try #require(layers.first { $0.name == "track_points" })
        #expect(points.features.map { $0.values["ele"] } == ["1000", "1000", "1000", "1000"])
        let schema = packageRoot().appendingPathComponent("samples/data/openrally/common/gpx.xsd")
        _ = try runTool("xmllint", ["--noout", "--schema", schema.path, file.path])
    }

    @Test("KML: a Route folder with the line and its ExtendedData, a Rows folder of points")
    func kml() throws {
        let (file, warnings, _folder) = try write(KMLWriter.self)
        _ = _folder
        #expect(warnings.count == 1)
        let layers = try ogrinfo(file)
        #expect(layers.map(\.name) == ["Route", "Rows"])
        let route = layers[0]
        #expect(route.featureCount == 1)
        expectExtent(route.extent, Self.lineExtent, "Route")
        let line = try #require(route.features.first)
        #expect(line.geometry?.hasPrefix("LINESTRING") == true)
        #expect(line.values["Name"] == Self.name)
        #expect(line.values["description"] == Self.description)
        for (key, value) in Self.properties { #expect(line.values[key] == value, "\(key)") }
        let rows = layers[1]
        #expect(rows.featureCount == 3)
        expectExtent(rows.extent, Self.rowsExtent, "Rows")
        expectRows(rows.features, name: "Name", instruction: "description", type: "type")
        #expect(rows.features.map { $0.values["number"] } == ["1", "2", "3"])
    }

    @Test("GeoJSON: the LineString feature with the properties, then the Point rows, longitude first, no crs")
    func geojson() throws {
        let (file, warnings, _folder) = try write(GeoJSONWriter.self)
        _ = _folder
        #expect(warnings.count == 1)
        let layers = try ogrinfo(file)
        #expect(layers.count == 1)
        let layer = layers[0]
        #expect(layer.featureCount == 4)
        expectExtent(layer.extent, Self.lineExtent, "GeoJSON")
        let line = layer.features[0]
        #expect(line.geometry?.hasPrefix("LINESTRING (") == true)
        #expect(coordinates(line.geometry) == Self.lineCoordinates, "longitude first")
        #expect(line.values["name"] == Self.name)
        #expect(line.values["description"] == Self.description)
        for (key, value) in Self.properties { #expect(line.values[key] == value, "\(key)") }
        #expect(layer.fields["routeViaCount"] == "Integer")
        expectRows(Array(layer.features.dropFirst()), name: "name", instruction: "instruction", type: "type")
        #expect(layer.features.dropFirst().map { $0.values["cap"] } == ["90", "90", nil])
        // RFC 7946 §4: no crs member.
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        #expect(json?["crs"] == nil)
        #expect(json?["type"] as? String == "FeatureCollection")
    }

    @Test("GeoPackage: route and rows tables with bounds, properties as columns, accepted by GDAL")
    func geopackage() throws {
        let (file, warnings, _folder) = try write(GeoPackageWriter.self)
        _ = _folder
        #expect(warnings.count == 1)
        let layers = try ogrinfo(file)
        #expect(layers.map(\.name) == ["route", "rows"])
        let route = layers[0]
        #expect(route.geometry == "Line String")
        #expect(route.featureCount == 1)
        expectExtent(route.extent, Self.lineExtent, "route")
        #expect(route.fields["routeViaCount"] == "Integer64")
        #expect(route.fields["routeDistance"] == "String")
        let line = try #require(route.features.first)
        #expect(line.values["name"] == Self.name)
        #expect(line.values["description"] == Self.description)
        for (key, value) in Self.properties { #expect(line.values[key] == value, "\(key)") }
        #expect(line.geometry?.hasPrefix("LINESTRING (") == true)
        #expect(coordinates(line.geometry) == Self.lineCoordinates)
        let rows = layers[1]
        #expect(rows.geometry == "Point")
        #expect(rows.featureCount == 3)
        expectExtent(rows.extent, Self.rowsExtent, "rows")
        expectRows(rows.features, name: "name", instruction: "instruction", type: "type")
        #expect(rows.features.map { $0.values["distance"] } == ["0", "5566", "11242"])
        #expect(rows.features.map { $0.values["danger"] } == ["0", "2", "0"])

        // The SQLite header (sqlite.org/fileformat.html): user_version at byte 60, application_id at 68, big-endian.
        let head = try [UInt8](Data(contentsOf: file).prefix(72))
        func int32(at i: Int) -> Int { head[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
        #expect(int32(at: 68) == 0x4750_4B47, "application_id 'GPKG'")
        #expect(int32(at: 60) == 10300, "user_version 1.3.0")
    }

    @Test("GeoPackage: GDAL's own validator (validate_gpkg.py) finds nothing wrong")
    func geopackageValidates() throws {
        let (file, _, _folder) = try write(GeoPackageWriter.self, RouteDataBooks.trackBook())
        _ = _folder
        let candidates = ["/usr/lib/python3/dist-packages/osgeo_utils/samples/validate_gpkg.py",
                          "/usr/share/doc/python3-gdal/examples/validate_gpkg.py"]
        guard let script = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            Issue.record("GDAL's validate_gpkg.py is missing: `scripts/install-deps.sh test` installs it (Debian python3-gdal)")
            return
        }
        _ = try runTool("python3", [script, file.path])
        let layers = try ogrinfo(file)
        // With heights on every point, the line is a LineString Z.
        #expect(layers.first?.geometry == "3D Line String")
        #expect(layers.first?.features.first?.geometry?.hasPrefix("LINESTRING Z (0 0 1000,") == true)
    }

    @Test("a writer refuses a temporary that already exists, and leaves it as it was")
    func existingTemporary() throws {
        let folder = try TemporaryFolder()
        for writer in BookFormats.writers {
            let file = folder.path("taken.\(writer.fileExtensions[0])")
            try Data("mine".utf8).write(to: file)
            #expect(throws: (any Error).self) { try writer.write(RouteDataBooks.handlesBook(), to: file) }
            #expect(try Data(contentsOf: file) == Data("mine".utf8))
        }
    }

    @Test("the writers are listed in order gpx, kml, geojson, gpkg, and each extension picks its writer")
    func registered() {
        #expect(BookFormats.writers.prefix(4).map { $0.formatName } == ["gpx", "kml", "geojson", "gpkg"])
        for ext in ["gpx", "kml", "geojson", "gpkg"] {
            #expect(BookFormats.writer(named: nil, for: URL(fileURLWithPath: "/x/route.\(ext)"))?.formatName == ext)
        }
    }
}
