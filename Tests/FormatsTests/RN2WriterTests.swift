import Foundation
import Formats
import Geo
import Model
import Testing
import TestSupport

/// The RN2 writer: what it writes is accepted under the rules the two public RN2 readers apply
/// (RoadbookNavi's `readRn2` checks and the fields rn2viewer's file model requires), and reads back
/// through `RN2Reader` with everything RN2 can hold.
@Suite("Rally Navigator RN2 writing")
struct RN2WriterTests {
    /// A book with a row between two points, a row on a point, a roundabout, every road class, and
    /// what RN2 cannot hold.
    func sampleBook() -> Book {
        let points = (0...10).map { RoutePoint(coordinate: Coordinate(latitude: 42.5, longitude: 1.5 + Double($0) / 1000), elevation: 1000 + Double($0)) }
        let line = Polyline(points.map(\.coordinate))
        let tulip = Tulip(origin: .generated, roads: [
            Tulip.Road(role: .entry, angle: 180, roadClass: .gravel), Tulip.Road(role: .exit, angle: -90, roadClass: .tarmac),
            Tulip.Road(role: .side, angle: 45, roadClass: .motorway), Tulip.Road(role: .side, angle: 90, roadClass: .track),
            Tulip.Road(role: .side, angle: -30, roadClass: .path), Tulip.Road(role: .side, angle: 135, roadClass: .offPiste),
        ])
        let roundabout = Tulip(origin: .drawn, roads: [
            Tulip.Road(role: .entry, angle: 180), Tulip.Road(role: .side, angle: 90), Tulip.Road(role: .exit, angle: 0),
        ], roundabout: Tulip.Roundabout(exitNumber: 2), strokes: [[Tulip.Point(x: 0, y: 0), Tulip.Point(x: 0.5, y: 0.5)]])
        let between = line.cumulativeDistances[3] + 20
        let notes = [
            Note(id: 1, kind: .checkpoint, distanceAlong: 0, coordinate: points[0].coordinate, text: "Start", marker: "DSS",
                 waypointType: .dss, resetsOdometer: true),
            Note(id: 2, kind: .turn, distanceAlong: between, coordinate: line.coordinate(atDistance: between),
                 text: "Left onto the track\nDanger: ruts", danger: 2, symbols: [.fuel, .water, .bridge, .gate], tulip: tulip),
            Note(id: 3, kind: .waypoint, distanceAlong: line.cumulativeDistances[6], coordinate: points[6].coordinate,
                 text: "Roundabout", waypointType: .dz, speedLimit: 50, tulip: roundabout),
            Note(id: 4, kind: .waypoint, distanceAlong: line.cumulativeDistances[8], coordinate: Coordinate(latitude: 42.51, longitude: 1.508),
                 offsetFromRoute: 1100, placement: .offRoute, text: "Far"),
        ]
        var book = Book(title: "Étape & co", settings: BookSettings(units: .miles), route: Route(points: points), notes: notes)
        book.description = "Route via CG-2"
        return book
    }

    @Test("what is written reads back: rows at their distances, words, danger, reset, symbols, tulips, units")
    func roundTrip() throws {
        let book = sampleBook()
        let (data, warnings) = try RN2Writer.encode(book, fileName: "out.rn2")
        let file = try RN2Reader.read(data, fileName: "out.rn2", source: "out.rn2")
        let back = try #require(file.book)
        #expect(back.title == "Étape & co" && back.description == "Route via CG-2" && back.settings.units == .miles)
        // One point added for the row between points 3 and 4.
        #expect(back.route.points.count == 12)
        #expect(back.route.points[0].elevation == 1000)
        #expect(back.notes.count == 4)
        for (a, b) in zip(book.notes.prefix(3), back.notes) {
            #expect(abs(a.distanceAlong - b.distanceAlong) < 0.01, "\(a.text): \(a.distanceAlong) → \(b.distanceAlong)")
            #expect(a.coordinate.distance(to: b.coordinate) < 0.01)
            #expect(a.danger == b.danger && a.resetsOdometer == b.resetsOdometer)
        }
        #expect(back.notes.map(\.text) == ["DSS\nStart", "Left onto the track\nDanger: ruts", "Roundabout", "Far"])
        #expect(Set(back.notes[1].symbols) == [.fuel, .water, .bridge])
        let tulip = try #require(back.notes[1].tulip)
        #expect(tulip.exit.map { abs($0.angle + 90) < 1e-6 && $0.roadClass == .tarmac } == true)
        #expect(tulip.entry?.roadClass == .gravel)
        let sides = tulip.roads.filter { $0.role == .side }.map { (Int($0.angle.rounded()), $0.roadClass) }
        #expect(sides.map(\.0) == [45, 90, -30, 135])
        #expect(sides.map(\.1) == [.motorway, .track, .path, .offPiste])
        // The roundabout's exit straight on, with one road on the right before it: the second exit.
        #expect(back.notes[2].tulip?.roundabout?.exitNumber == 2)
        #expect(back.notes[0].tulip == nil)
        // The off-route row is written at its nearest place on the route.
        #expect(back.notes[3].coordinate.distance(to: book.route.points[8].coordinate) < 0.01)
        #expect(warnings.contains { $0.contains("waypoint types (DSS, DZ)") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("1 speed limit") })
        #expect(warnings.contains { $0.contains("symbols not written: gate") })
        #expect(warnings.contains { $0.contains("strokes drawn in 1 tulip") })
        #expect(warnings.contains { $0.contains("1 row off the route") })
        #expect(try back.validate() == ())
    }

    @Test("a real book (roadbook build over Andorra) keeps its rows and their distances")
    func realBook() throws {
        let book = try BookFile.read(contentsOf: packageRoot().appendingPathComponent("Tests/Hostile/seeds/book.json"))
        let (data, _) = try RN2Writer.encode(book, fileName: "b.rn2")
        let back = try #require(try RN2Reader.read(data, fileName: "b.rn2", source: "b.rn2").book)
        #expect(back.notes.count == book.notes.count)
        for (a, b) in zip(book.notes, back.notes) where a.placement == .onRoute {
            #expect(abs(a.distanceAlong - b.distanceAlong) < 0.5, "\(a.text)")
            #expect(a.text == b.text || "\(a.marker ?? "")\n\(a.text)" == b.text)
        }
        #expect(abs(Polyline(back.route.coordinates).length - Polyline(book.route.coordinates).length) < 0.5)
    }

    @Test("accepted under the public readers' rules: RoadbookNavi's checks and rn2viewer's required fields")
    func acceptedByReaders() throws {
        let (data, _) = try RN2Writer.encode(sampleBook(), fileName: "out.rn2")
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let route = try #require(root["route"] as? [String: Any])
        // RoadbookNavi (src/core/rn2/document.ts): version 4; a name of at most 300 characters;
        // 2 to 100,000 waypoints with unique whole ids, a boolean show, finite positions on the
        // globe; tulip and notes with at most 1,000 elements, each an object; one shown waypoint.
        #expect(route["version"] as? Int == 4)
        #expect((route["name"] as? String).map { $0.count <= 300 } == true)
        let waypoints = try #require(route["waypoints"] as? [[String: Any]])
        #expect((2...100_000).contains(waypoints.count))
        var ids = Set<Int>()
        for w in waypoints {
            let id = try #require(w["waypointid"] as? Int)
            #expect(ids.insert(id).inserted)
            #expect(w["show"] is Bool)
            let lat = try #require(w["lat"] as? Double), lon = try #require(w["lon"] as? Double)
            #expect(abs(lat) <= 90 && abs(lon) <= 180)
            // rn2viewer (domain/JsonRouteResponse.kt): t_uuid, waypointid, lat, lon, show, tulip and
            // notes are required; elements are Road, Track, Text or Icon (any other type is an
            // error); an icon needs its id; a text its text, fontSize, width, height, x and y; a
            // track its roadIn and roadOut.
            #expect(w["t_uuid"] is String)
            for cell in ["tulip", "notes"] {
                let elements = try #require((w[cell] as? [String: Any])?["elements"] as? [[String: Any]])
                #expect(elements.count <= 1000)
                for e in elements {
                    let type = try #require(e["type"] as? String)
                    #expect(["Road", "Track", "Text", "Icon"].contains(type))
                    if type == "Icon" { #expect(e["id"] is String) }
                    if type == "Text" {
                        #expect(e["text"] is String && e["fontSize"] is Int)
                        for key in ["width", "height", "x", "y"] { #expect(e[key] is NSNumber, "\(key)") }
                    }
                    if type == "Track" { #expect(e["roadIn"] is [String: Any] && e["roadOut"] is [String: Any]) }
                }
            }
        }
        #expect(waypoints.contains { $0["show"] as? Bool == true })
    }

    @Test("a book whose route has fewer than two points is refused, naming the file")
    func noRoute() {
        let book = Book(title: "x", route: Route(points: [RoutePoint(coordinate: Coordinate(latitude: 1, longitude: 1))]))
        #expect(throws: FormatError.self) { try RN2Writer.encode(book, fileName: "out.rn2") }
    }
}
