import Foundation
import Formats
import Geo
import Model
import Testing
import TestSupport

@Suite("Reading the handles of a route to build")
struct HandlesFileTests {
    @Test("GeoJSON points are handles with their origin and handle note; a LineString is a stroke")
    func geoJSON() throws {
        let json = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1.52, 42.50]}, "properties": {"origin": "coordinate"}},
          {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1.55, 42.52]}, "properties": {"note": "Cattle grid", "marker": "CP1"}},
          {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1.58, 42.53]}}
        ]}
        """
        let input = try HandlesFile.fromGeoJSON(Data(json.utf8), fileName: "h.geojson")
        #expect(input.handles.map(\.origin) == [.coordinate, .tapped, .tapped])
        #expect(input.handles[1].note == HandleNote(text: "Cattle grid", marker: "CP1"))
        #expect(input.handles.map(\.id) == [1, 2, 3])
        let stroke = """
        {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[1.5, 42.5], [1.51, 42.5], [1.52, 42.51]]}}
        """
        let drawn = try HandlesFile.fromGeoJSON(Data(stroke.utf8), fileName: "s.geojson")
        #expect(drawn.handles.isEmpty && drawn.line.count == 3 && !drawn.lineIsTrack)
    }

    @Test("a handle placed for a note has origin note, also under its former name courseNote")
    func noteOrigin() throws {
        let json = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1.52, 42.50]}, "properties": {"origin": "note", "note": "Ford"}},
          {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1.55, 42.52]}, "properties": {"origin": "courseNote", "note": "Gate"}}
        ]}
        """
        let input = try HandlesFile.fromGeoJSON(Data(json.utf8), fileName: "h.geojson")
        #expect(input.handles.map(\.origin) == [.note, .note])
        #expect(input.handles.map(\.note?.text) == ["Ford", "Gate"])
    }

    @Test("a mistake names the feature and field", arguments: [
        ("{\"type\": \"Topology\"}", "type must be FeatureCollection"),
        ("{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [1.5, 95]}}", "features[0].geometry.coordinates"),
        ("{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [1.5, 42]}, \"properties\": {\"origin\": \"teleported\"}}, {\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [1.6, 42]}}]}", "features[0].properties.origin 'teleported'"),
        ("{\"type\": \"Feature\", \"geometry\": {\"type\": \"Polygon\", \"coordinates\": []}}", "neither a handle"),
        ("{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [1.5, 42]}}", "needs two handles"),
        ("not json", "h.geojson: is not GeoJSON: line 1: expected a value"),
    ])
    func mistakes(json: String, expected: String) {
        let error = #expect(throws: FormatError.self) { try HandlesFile.fromGeoJSON(Data(json.utf8), fileName: "h.geojson") }
        #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
    }

    @Test("GPX: route points are tapped handles; waypoints are surveyed handles with their notes; a track is traced")
    func gpx() throws {
        let folder = try TemporaryFolder()
        let header = "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\">"
        try (header + "<rte><rtept lat=\"42.5\" lon=\"1.5\"/><rtept lat=\"42.6\" lon=\"1.6\"/></rte></gpx>")
            .write(to: folder.path("r.gpx"), atomically: true, encoding: .utf8)
        #expect(try HandlesFile.read(contentsOf: folder.path("r.gpx")).handles.map(\.origin) == [.tapped, .tapped])
        try (header + "<wpt lat=\"42.5\" lon=\"1.5\"><name>CP1</name><desc>Fuel</desc></wpt><wpt lat=\"42.6\" lon=\"1.6\"><name>End</name></wpt></gpx>")
            .write(to: folder.path("w.gpx"), atomically: true, encoding: .utf8)
        let w = try HandlesFile.read(contentsOf: folder.path("w.gpx"))
        #expect(w.handles.map(\.origin) == [.waypoint, .waypoint])
        #expect(w.handles[0].note == HandleNote(text: "Fuel", marker: "CP1") && w.handles[1].note?.text == "End")
        try (header + "<trk><trkseg><trkpt lat=\"42.5\" lon=\"1.5\"/><trkpt lat=\"42.6\" lon=\"1.6\"/></trkseg></trk></gpx>")
            .write(to: folder.path("t.gpx"), atomically: true, encoding: .utf8)
        let t = try HandlesFile.read(contentsOf: folder.path("t.gpx"))
        #expect(t.handles.isEmpty && t.line.count == 2 && t.lineIsTrack)
        #expect(throws: FormatError.self) { try HandlesFile.read(contentsOf: folder.path("x.kml")) }
    }
}

extension HandlesFileTests {
    @Test("GPX: route points keep their names, waypoints their names and types (<type>, else <sym>, as build reads them)")
    func gpxNamesAndTypes() throws {
        let folder = try TemporaryFolder()
        let header = "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\">"
        let route = header + """
            <rte><name>SS1</name><rtept lat="42.5" lon="1.5"><name>Sant Julià</name><type>dss</type></rtept>
            <rtept lat="42.55" lon="1.55"/><rtept lat="42.6" lon="1.6"><name> Canillo </name></rtept></rte>
            <trk><trkseg><trkpt lat="42.5" lon="1.5"><name>not kept</name></trkpt><trkpt lat="42.6" lon="1.6"/></trkseg></trk></gpx>
            """
        try route.write(to: folder.path("r.gpx"), atomically: true, encoding: .utf8)
        let r = try HandlesFile.read(contentsOf: folder.path("r.gpx"))
        #expect(r.handles.map(\.name) == ["Sant Julià", nil, "Canillo"], "names trimmed; a point without one has none")
        #expect(r.handles.map(\.waypointType) == [WaypointType.dss, nil, nil])
        #expect(r.handles.map(\.origin) == [Handle.Origin.tapped, .tapped, .tapped])

        let waypoints = header + """
            <wpt lat="42.5" lon="1.5"><name>Start</name><type>DSS</type></wpt>
            <wpt lat="42.55" lon="1.55"><name>CP1</name><desc>Fuel</desc><sym>CP</sym></wpt>
            <wpt lat="42.6" lon="1.6"><name>Finish</name><type>Flag</type><sym>ass</sym></wpt></gpx>
            """
        try waypoints.write(to: folder.path("w.gpx"), atomically: true, encoding: .utf8)
        let w = try HandlesFile.read(contentsOf: folder.path("w.gpx"))
        #expect(w.handles.map(\.name) == ["Start", "CP1", "Finish"])
        #expect(w.handles.map(\.waypointType) == [WaypointType.dss, .cp, .ass], "a <type> that is no waypoint type gives way to <sym>")
        #expect(w.handles[1].note == HandleNote(text: "Fuel", marker: "CP1"))
    }
}
