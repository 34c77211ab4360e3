import Foundation
import Geo
import Testing
import TestSupport
@testable import Formats

private func read(_ text: String, fileName: String = "test.geojson") throws -> RouteFile {
    try GeoJSONRouteReader.read(data: Data(text.utf8), fileName: fileName)
}

private func failure(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> FormatError? {
    #expect(throws: FormatError.self, sourceLocation: sourceLocation) { try read(text) }
}

@Suite("GeoJSON: lines and points")
struct GeoJSONRouteReaderTests {
    @Test("a FeatureCollection's LineString is the track ([lon, lat, alt]), its Points waypoints with name, description and type")
    func featureCollection() throws {
        let file = try read("""
        {"type": "FeatureCollection", "name": "Stage 1", "features": [
          {"type": "Feature", "properties": {"name": "Route"},
           "geometry": {"type": "LineString", "coordinates": [
             [1.5, 42.5, 1200],
             [1.51, 42.51]]}},
          {"type": "Feature", "properties": {"name": "CP1", "description": "Check point", "type": "CP"},
           "geometry": {"type": "Point", "coordinates": [1.505, 42.505]}}
        ]}
        """)
        #expect(file.document.name == "Stage 1")
        #expect(file.document.tracks.map(\.name) == ["Route"])
        let points = file.document.trackPoints
        #expect(points.map(\.coordinate) == [Coordinate(latitude: 42.5, longitude: 1.5), Coordinate(latitude: 42.51, longitude: 1.51)])
        #expect(points.map(\.elevation) == [1200, nil])
        #expect(points.map(\.line) == [4, 5])
        #expect(file.document.waypoints == [GPXWaypoint(coordinate: Coordinate(latitude: 42.505, longitude: 1.505), name: "CP1",
                                                        description: "Check point", type: "CP", line: 7)])
        #expect(file.warnings.isEmpty)
    }

    @Test("a bare geometry, a single Feature, a MultiLineString and a GeometryCollection are read too")
    func shapes() throws {
        #expect(try read(#"{"type": "LineString", "coordinates": [[1.5, 42.5], [1.5001, 42.5]]}"#).document.trackPoints.count == 2)
        let multi = try read(#"""
        {"type": "Feature", "properties": null, "geometry": {"type": "MultiLineString", "coordinates": [[[1.5, 42.5], [1.5001, 42.5]], [[1.5002, 42.5], [1.5003, 42.5]]]}}
        """#)
        #expect(multi.document.tracks[0].segments.map { $0.map(\.coordinate.longitude) } == [[1.5, 1.5001], [1.5002, 1.5003]])
        let collection = try read(#"""
        {"type": "GeometryCollection", "geometries": [{"type": "Point", "coordinates": [1.5, 42.5]},
          {"type": "LineString", "coordinates": [[1.5, 42.5], [1.5001, 42.5]]}, {"type": "MultiPoint", "coordinates": [[1.5, 42.5], [1.6, 42.5]]}]}
        """#)
        #expect(collection.document.trackPoints.count == 2 && collection.document.waypoints.count == 3)
    }

    @Test("lines more than 100 m apart are joined with a warning naming the member; polygons and null geometries are skipped with a warning")
    func warnings() throws {
        let file = try read("""
        {"type": "FeatureCollection", "features": [
         {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[1.5, 42.5], [1.51, 42.5]]}},
         {"type": "Feature", "properties": {"name": "Far"}, "geometry": {"type": "LineString", "coordinates": [[1.6, 42.5], [1.61, 42.5]]}},
         {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [0, 1], [1, 1], [0, 0]]]}},
         {"type": "Feature", "properties": {}, "geometry": null}]}
        """)
        #expect(file.warnings == [
            "test.geojson:3: features[1].geometry.coordinates (\"Far\") starts 7.4 km from the end of the line before it; the two are joined in file order by a straight line",
            "test.geojson: 1 Polygon skipped; only lines (LineString, MultiLineString) and points are read",
            "test.geojson: 1 feature without a geometry skipped"])
    }

    @Test("errors name the member and its line")
    func errors() {
        let collection = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[1.5, 42.5],%@]}}]}"#
        func with(_ position: String) -> String { collection.replacingOccurrences(of: "%@", with: "\n" + position) }
        #expect(failure(with("[42.5, 120.5]"))?.description
                == "test.geojson:2: features[0].geometry.coordinates[1]: latitude 120.5 is out of range (−90…90); the format puts longitude first, are the two swapped?")
        #expect(failure(with("[200, 42.5]"))?.message == "features[0].geometry.coordinates[1]: longitude 200.0 is out of range (−180…180)")
        #expect(failure(with("[1.5, \"42.5\"]"))?.message == "features[0].geometry.coordinates[1]: its latitude is a string, not a number")
        #expect(failure(with("[1.5]"))?.message.hasPrefix("features[0].geometry.coordinates[1]: a position must be [longitude, latitude]") == true)
        #expect(failure(with("[1.5, 42.5, 20000]"))?.message.hasPrefix("features[0].geometry.coordinates[1]: altitude 20000.0 m is not a height on Earth") == true)
        #expect(failure(with("[NaN, 42.5]"))?.description == "test.geojson:2: is not GeoJSON: expected a value, but 'N' was found")
        #expect(failure(#"{"type": "FeatureCollection", "features": [{"type": "Feature"}]}"#)?.message
                == "features[0].geometry: a Feature needs a \"geometry\" (null when it has none)")
        #expect(failure(#"{"type": "Topology"}"#)?.message == "type: \"Topology\" is not a GeoJSON type; expected FeatureCollection, Feature or a geometry")
        #expect(failure("[1, 2]")?.message == "is not GeoJSON: the file holds a list, not an object with a \"type\"")
        #expect(failure(#"{"type": "Point", "coordinates": [1.5, 42.5]}"#)?.message
                == "no line in the file (it has 1 point only); a road book needs the route as a LineString or MultiLineString")
    }

    @Test("a crs other than WGS84 (GeoJSON 2008) is refused; CRS84 is read")
    func crs() throws {
        let line = #""type": "LineString", "coordinates": [[1.5, 42.5], [1.51, 42.5]]"#
        #expect(failure(#"{"crs": {"type": "name", "properties": {"name": "EPSG:25831"}}, "# + line + "}")?.message.hasPrefix(
            "crs: the positions are in EPSG:25831, not WGS84") == true)
        #expect(try read(#"{"crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:OGC:1.3:CRS84"}}, "# + line + "}").document.trackPoints.count == 2)
    }

    @Test("build tells GeoJSON by its type among the first bytes, and a book file (JSON too) is not taken for it")
    func recognised() {
        #expect(GeoJSONFileReader.recognises(head: Data(#"{"type":"FeatureCollection","features":[]}"#.utf8)))
        #expect(GeoJSONFileReader.recognises(head: Data("\u{FEFF}\n{ \"geometry\": {}, \"type\" : \"Feature\" }".utf8)))
        #expect(GeoJSONFileReader.recognises(head: Data(#"{"type": "MultiLineString"}"#.utf8)))
        #expect(!GeoJSONFileReader.recognises(head: Data(#"{"formatVersion": 3, "title": "Stage", "notes": []}"#.utf8)))
        #expect(!GeoJSONFileReader.recognises(head: Data(#"["type", "Feature"]"#.utf8)))
    }
}
