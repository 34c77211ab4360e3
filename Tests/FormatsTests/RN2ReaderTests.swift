import Foundation
import Formats
import Geo
import Model
import Testing
import TestSupport

/// The RN2 reader against real files published by other RN2 readers (samples/data/rn2): the
/// expectations are read off the files' JSON by hand (positions, shown flags, texts, icons and
/// their OpenRally tags, drawing coordinates), distances with an independent haversine sum as the
/// public viewer rn2viewer computes them.
@Suite("Rally Navigator RN2")
struct RN2ReaderTests {
    func sample(_ name: String) throws -> URL {
        try testDataFolder().appendingPathComponent("rn2/\(name)")
    }

    /// Great-circle distance on a sphere of the mean Earth radius: not our geodesic, so the check is
    /// independent of the code under test.
    func haversine(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let r = 6_371_008.8, p1 = a.0 * .pi / 180, p2 = b.0 * .pi / 180
        let dp = p2 - p1, dl = (b.1 - a.1) * .pi / 180
        let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * r * asin(sqrt(h))
    }

    @Test("rn2viewer's example: every waypoint is the line, the four shown ones the rows, at their distance along it")
    func example() throws {
        let url = try sample("rn2viewer-route_example.rn2")
        #expect(try RouteFormats.reader(for: url) == RN2Reader.self)
        let file = try RouteFormats.read(contentsOf: url)
        let book = try #require(file.book)
        // 12 waypoints, ids 0…11; shown: 0, 5, 7 and 11.
        #expect(book.route.points.count == 12)
        #expect(book.route.points[0].coordinate == Coordinate(latitude: 40.61058219907636, longitude: -3.7146450977646452))
        #expect(book.route.points[11].coordinate == Coordinate(latitude: 40.60866, longitude: -3.714611))
        #expect(file.document.tracks.first?.segments.first?.count == 12)
        let rows: [(Double, Double)] = [(40.61058219907636, -3.7146450977646452), (40.609974, -3.713571),
                                        (40.609852, -3.713642), (40.60866, -3.714611)]
        #expect(book.notes.map(\.coordinate) == rows.map { Coordinate(latitude: $0.0, longitude: $0.1) })
        #expect(file.document.waypoints.count == 4)

        let all: [(Double, Double)] = [
            (40.61058219907636, -3.7146450977646452), (40.610418, -3.714337), (40.610276, -3.714041), (40.610165, -3.71382),
            (40.610035, -3.713634), (40.609974, -3.713571), (40.609932, -3.71357), (40.609852, -3.713642),
            (40.609508, -3.713917), (40.609283, -3.714098), (40.60902, -3.714309), (40.60866, -3.714611)]
        var along = [0.0]
        for i in 1..<all.count { along.append(along[i - 1] + haversine(all[i - 1], all[i])) }
        for (note, index) in zip(book.notes, [0, 5, 7, 11]) {
            #expect(abs(note.distanceAlong - along[index]) <= 0.005 * along[index] + 0.01,
                    "row at waypoint \(index): \(note.distanceAlong) m, the sum along the line is \(along[index]) m")
        }

        // Waypoint 7's notes: "Reset to Distance to Zero" (<openrally:reset>0</openrally:reset>) and
        // "Danger Level 1" (<danger>1</danger>); its tulip: "River / Water", a roundabout, "Fuel Zone" (<fuel/>).
        let seven = book.notes[2]
        #expect(seven.resetsOdometer)
        #expect(seven.danger == 1)
        #expect(Set(seven.symbols) == [.water, .fuel])
        #expect(book.notes.filter(\.resetsOdometer).count == 1)
        // Waypoint 11's notes hold the text "FIN"; its tulip the text "!!!", which a tulip cannot hold.
        #expect(book.notes[3].text == "FIN")
        #expect(book.notes.prefix(3).allSatisfy { $0.text.isEmpty })
        #expect(file.warnings.contains { $0.contains("1 text inside tulip drawings") }, "\(file.warnings)")
        #expect(file.warnings.contains { $0.contains("House") && $0.contains("Traffic Light") }, "\(file.warnings)")
        // Heights: 730 m at waypoints 5 and 11; the others say 0, which RN2 editors write for unknown.
        #expect(book.route.points[5].elevation == 730 && book.route.points[11].elevation == 730)
        #expect(book.route.points[0].elevation == nil)
        // Metric settings; an empty name gives the file's name.
        #expect(book.settings.units == .kilometres)
        #expect(book.title == "rn2viewer-route_example")
        #expect(try book.validate() == ())
    }

    @Test("tulips: the track's outgoing road is the exit, roads reaching the junction are the other roads, by type")
    func tulips() throws {
        let book = try #require(try RouteFormats.read(contentsOf: sample("rn2viewer-route_example.rn2")).book)
        // Waypoint 5: roadOut.end (59.71, 0.72) is to the right; a road (typeId 17) ends at
        // (−80.5, −49), ahead on the left; a roundabout icon.
        let five = try #require(book.notes[1].tulip)
        #expect(five.origin == .drawn)
        let exit = try #require(five.exit)
        #expect(abs(exit.angle - atan2(59.714824120603026, -0.7242719184027919) * 180 / .pi) < 1e-9)
        let side = five.roads.filter { $0.role == .side }
        #expect(side.count == 1)
        #expect(abs(side[0].angle - atan2(-80.5, 49) * 180 / .pi) < 1e-9)
        #expect(side[0].roadClass == .gravel)
        // Counterclockwise from the entry, the right-hand exit is the first.
        #expect(five.roundabout?.exitNumber == 1)
        #expect(five.entry?.angle == 180)
        // Waypoint 11: four roads from the junction, typeIds 12, 4, 16, 15, ending left, right,
        // ahead right and ahead left; the outgoing road typeId 18.
        let eleven = try #require(book.notes[3].tulip)
        let classes = Dictionary(eleven.roads.filter { $0.role == .side }.map { (Int($0.angle.rounded()), $0.roadClass) },
                                 uniquingKeysWith: { a, _ in a })
        #expect(classes == [-90: .motorway, 90: .track, 45: .offPiste, -45: .path])
        #expect(eleven.exit?.roadClass == .tarmac)
        // Waypoint 7's road starts 33 units up the track, away from the junction: a landmark road.
        #expect(book.notes[2].tulip?.roads.filter { $0.role == .side }.isEmpty == true)
    }

    @Test("RoadbookNavi's minimal file has one waypoint: refused, as RoadbookNavi refuses it, naming the field")
    func minimal() throws {
        let url = try sample("roadbooknavi-minimal.rn2")
        #expect(RN2Reader.recognises(head: try Data(contentsOf: url)))
        #expect(throws: FormatError.self) { try RouteFormats.read(contentsOf: url) }
        do { _ = try RouteFormats.read(contentsOf: url) } catch let error as FormatError {
            #expect(error.description.contains("roadbooknavi-minimal.rn2"))
            #expect(error.description.contains("route.waypoints"))
            #expect(error.description.contains("a route needs at least two"))
        }
    }

    @Test("a file made by hand: texts, OpenRally waypoint types with speed, danger by icon id, imperial units, start and end locations")
    func handMade() throws {
        let json = """
        {"route": {"version": 4, "name": "Étape 1 & 2", "description": "Crossing the valley",
          "startlocation": "Canillo", "endlocation": "Encamp",
          "settings": {"units": "imperial"},
          "waypoints": [
            {"waypointid": 0, "lat": 42.5, "lon": 1.5, "show": true,
             "notes": {"elements": [{"type": "Icon", "name": "DSS", "gpx_tags": "<openrally:dss open=\\"800\\" clear=\\"90\\"/>"},
                                    {"type": "Text", "text": "Start"}]}},
            {"waypointid": 1, "lat": 42.5, "lon": 1.501, "show": false},
            {"waypointid": 2, "lat": 42.5, "lon": 1.502, "show": true,
             "tulip": {"elements": [{"type": "Track", "roadIn": {}, "roadOut": {"end": {"x": -50, "y": 0}}},
                                    {"type": "Line", "path": [["M", 0, 0], ["L", 10, 10]]}]},
             "notes": {"elements": [{"type": "Icon", "id": "FAB72AC2-F809-4DDC-9A7A-C9A24768BB4E"},
                                    {"type": "Icon", "gpx_tags": "<openrally:dz speed=\\"50\\"/>"},
                                    {"type": "Text", "text": " Left "}, {"type": "Text", "text": "to the \\"bridge\\""}]}},
            {"waypointid": 3, "lat": 42.501, "lon": 1.502, "show": true, "ele": "unknown"}
          ]}}
        """
        let file = try RN2Reader.read(Data(json.utf8), fileName: "hand.rn2", source: "hand.rn2")
        let book = try #require(file.book)
        #expect(book.title == "Étape 1 & 2")
        #expect(book.description == "Crossing the valley")
        #expect(book.settings.units == .miles)
        #expect(book.notes.map(\.text) == ["Start", "Left\nto the \"bridge\"", ""])
        #expect(book.notes[0].waypointType == .dss)
        #expect(book.notes[1].waypointType == .dz && book.notes[1].speedLimit == 50)
        #expect(book.notes[1].danger == 3, "Danger Level 3 by its id, whatever its case")
        #expect(book.notes[1].tulip?.exit?.angle == -90, "(−50, 0) is to the left")
        #expect(book.notes[0].tulip == nil, "no drawing, no tulip")
        #expect(file.warnings.contains { $0.contains("Canillo → Encamp") }, "\(file.warnings)")
        #expect(file.warnings.contains { $0.contains("1 free drawing") }, "\(file.warnings)")
        #expect(file.document.waypoints.map(\.type) == ["DSS", "DZ", nil])
        #expect(try book.validate() == ())
    }

    @Test("bad files are refused in one line naming the file and the field", arguments: [
        (#"{"route": {"version": 3, "waypoints": []}}"#, "route.version"),
        (#"{"route": {"version": 4}}"#, "waypoints"),
        (#"{"route": {"version": 4, "waypoints": [{"lat": 91, "lon": 0, "show": true}, {"lat": 0, "lon": 0, "show": true}]}}"#, "route.waypoints[0]"),
        (#"{"route": {"version": 4, "waypoints": [{"lat": 1, "lon": 1, "show": true}, {"lat": 1, "lon": 1, "show": true}]}}"#, "no length"),
        (#"{"route": {"version": 4, "waypoints": [{"lat": 1, "lon": 1, "show": false}, {"lat": 1, "lon": 2, "show": false}]}}"#, "no visible waypoint"),
        (#"{"route": {"version": 4, "waypoints": [{"lat": "north", "lon": 1, "show": true}]}}"#, "lat"),
        (#"{"route": {"version": 4, "waypoints": [ {"lat": 1,"#, "rn2"),
        (#"{"route": {"version": 4, "waypoints": ["# + (0...BookLimits.maximumNotes).map { #"{"lat": 42, "lon": \#(1 + Double($0) * 1e-5), "show": true}"# }
            .joined(separator: ",") + "]}}", "more than the \(BookLimits.maximumNotes) rows a book holds"),
    ])
    func refused(json: String, words: String) {
        #expect {
            _ = try RN2Reader.read(Data(json.utf8), fileName: "bad.rn2", source: "bad.rn2")
        } throws: { error in
            let text = "\(error)"
            return error is FormatError && text.hasPrefix("bad.rn2") && text.contains(words) && !text.contains("\n")
        }
    }

    @Test("recognised by its first bytes: an object whose first key is route; GPX, GeoJSON and a book file are not")
    func recognises() {
        #expect(RN2Reader.recognises(head: Data("\u{FEFF}  {\n  \"route\" : {\"version\": 4".utf8)))
        #expect(!RN2Reader.recognises(head: Data(#"{"type": "FeatureCollection", "route": {}}"#.utf8)))
        #expect(!RN2Reader.recognises(head: Data(#"<?xml version="1.0"?><gpx>"#.utf8)))
        #expect(!RN2Reader.recognises(head: Data(#"{"schemaVersion": 3, "route": {"points": []}}"#.utf8)))
    }
}
