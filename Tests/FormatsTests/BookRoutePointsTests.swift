import Foundation
@testable import Formats
import Geo
import Model
import Testing

/// A current-version book file (one `BookFile.encode` writes) with its route points list replaced by
/// `points`, written by hand, and `source` as the route's source.
private func bookJSON(points: String, source: String? = nil) throws -> Data {
    let book = Book(title: "T", route: Route(source: source, points: []))
    var object = try #require(try JSONSerialization.jsonObject(with: BookFile.encode(book)) as? [String: Any])
    var route = try #require(object["route"] as? [String: Any])
    route["points"] = "POINTS"
    object["route"] = route
    let text = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    return Data(text.replacingOccurrences(of: "\"POINTS\"", with: points).utf8)
}

/// The scan's points, nil when it leaves the file to the decoder.
private func scan(_ data: Data) -> [RoutePoint]? {
    var bytes = data
    return RoutePointsScan.extract(blanking: &bytes)?.points
}

@Suite("Route points read without the decoder")
struct BookRoutePointsTests {
    @Test("plain points are read by the scan, with elevations, nulls and exponents as JSON means them")
    func plainPoints() throws {
        let data = try bookJSON(points: "[[42.5, 1.5, 900.5], [ 42.6 ,1.6 , null ], [-4.25e1, -0.5]]", source: "a [b] \"c\"")
        var blanked = data
        let scanned = try #require(RoutePointsScan.extract(blanking: &blanked)?.points)
        let expected = [
            RoutePoint(coordinate: Coordinate(latitude: 42.5, longitude: 1.5), elevation: 900.5),
            RoutePoint(coordinate: Coordinate(latitude: 42.6, longitude: 1.6), elevation: nil),
            RoutePoint(coordinate: Coordinate(latitude: -42.5, longitude: -0.5), elevation: nil),
        ]
        #expect(scanned == expected)
        #expect(String(decoding: blanked, as: UTF8.self).contains("\"points\":[" + String(repeating: " ", count: 57) + "]"))
        let book = try BookFile.decode(data, fileName: "b.json")
        #expect(book.route.points == expected)
        #expect(book.route.source == "a [b] \"c\"")
    }

    @Test("anything but the plain form is left to the decoder", arguments: [
        "[[42.5, 1.5, 1, 2]]", "[[42.5]]", "[[\"42.5\", 1.5]]", "[[042.5, 1.5]]", "[[91, 1.5]]", "[[42.5, 1.5e999]]",
        "[[null, 1.5]]", "{}", "[[42.5, 1.5],]",
    ])
    func fallsBack(points: String) throws {
        #expect(scan(try bookJSON(points: points)) == nil)
    }

    @Test("a bad point is still named by its field")
    func badPointNamed() throws {
        let data = try bookJSON(points: "[[42.5, 1.5], [42.6, \"x\"]]")
        #expect(scan(data) == nil)
        do {
            _ = try BookFile.decode(data, fileName: "b.json")
            Issue.record("a string coordinate was read")
        } catch let error as FormatError {
            #expect(error.field?.hasPrefix("route.points[1]") == true)
        }
    }

    @Test("a route key written twice or with escapes is left to the decoder")
    func unusualKeys() {
        let twice = Data("{\"route\": {\"points\": []}, \"route\": {\"points\": [[1, 2]]}}".utf8)
        #expect(scan(twice) == nil)
        let escaped = Data("{\"route\": {\"po\\u0069nts\": [[1, 2]]}}".utf8)
        #expect(scan(escaped) == nil)
    }
}

@Suite("Notes read one at a time")
struct BookNotesScanTests {
    private func book() -> Book {
        let at = Coordinate(latitude: 42.5, longitude: 1.5)
        return Book(title: "T", route: Route(points: [RoutePoint(coordinate: at), RoutePoint(coordinate: Coordinate(latitude: 42.51, longitude: 1.5))]),
                    notes: [Note(id: 1, kind: .turn, distanceAlong: 10, coordinate: at, text: "Left [at] the {fork}", cap: 45),
                            Note(id: 2, kind: .checkpoint, distanceAlong: 500, coordinate: at, text: "CP \"1\"", danger: 2)])
    }

    @Test("a book's notes read one at a time are the notes written")
    func notesRead() throws {
        var data = try BookFile.encode(book())
        let scanned = try #require(RoutePointsScan.extract(blanking: &data))
        #expect(scanned.notes == book().notes)
        #expect(try BookFile.decode(try BookFile.encode(book()), fileName: "b.json") == book())
    }

    @Test("a bad note is still named by its field, as the decoder names it")
    func badNoteNamed() throws {
        let text = String(decoding: try BookFile.encode(book()), as: UTF8.self)
            .replacingOccurrences(of: "\"kind\" : \"checkpoint\"", with: "\"kind\" : 7")
        var data = Data(text.utf8)
        #expect(RoutePointsScan.extract(blanking: &data)?.notes == nil)
        do {
            _ = try BookFile.decode(Data(text.utf8), fileName: "b.json")
            Issue.record("a note with a number for its kind was read")
        } catch let error as FormatError {
            #expect(error.field == "notes[1].kind")
        }
    }
}
