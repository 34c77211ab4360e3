import Foundation
import Formats
import Geo
import Model
import Testing
import TestSupport

@Suite("roadbook links")
struct LinksCommandTests {
    @Test("prints the Apple Maps and the Google Maps links of a routed book, with the stop count")
    func printsLinks() async throws {
        let folder = try TemporaryFolder()
        let handles = (0..<13).map { i in
            Handle(id: i + 1, coordinate: Coordinate(latitude: 42.5 + Double(i) / 100, longitude: 1.5), origin: .tapped,
                   name: i == 0 ? "Canillo" : i == 12 ? "Sant Julià" : nil)
        }
        var book = Book(title: "Routed", route: Route(points: handles.map { RoutePoint(coordinate: $0.coordinate) }))
        book.plan = RoutePlan(handles: handles, mode: .drive)
        try BookFile.encode(book).write(to: folder.path("b.json"))

        let r = await roadbook(["links", folder.path("b.json").path])
        #expect(r.status == 0, "\(r.errors)")
        let lines = r.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(r.output)")
        #expect(lines[0] == "Apple Maps (Canillo → Sant Julià, driving; stops between are left out):")
        #expect(lines[2] == "Google Maps (11 of 13 stops, driving):")
        let apple = try #require(URLComponents(string: lines[1]))
        #expect(apple.host == "maps.apple.com")
        #expect(apple.queryItems?.first { $0.name == "daddr" }?.value == "42.620000,1.500000")
        let google = try #require(URLComponents(string: lines[3]))
        #expect(google.queryItems?.first { $0.name == "waypoints" }?.value?.split(separator: "|").count == 9)

        let byName = await roadbook(["links", folder.path("b.json").path, "--by-name"])
        let named = try #require(URLComponents(string: byName.output.split(separator: "\n").map(String.init)[1]))
        #expect(named.queryItems?.first { $0.name == "daddr" }?.value == "Sant Julià")
    }

    @Test("a missing book fails with its path; a missing argument is a usage error")
    func errors() async throws {
        let missing = await roadbook(["links", "/nonexistent/b.json"])
        #expect(missing.status == 1)
        #expect(missing.errors.contains("/nonexistent/b.json"), "\(missing.errors)")
        let usage = await roadbook(["links"])
        #expect(usage.status == 64)
        #expect(usage.errors.contains("missing BOOK.json"), "\(usage.errors)")
        let help = await roadbook(["links", "--help"])
        #expect(help.status == 0 && help.output.hasPrefix("Usage: roadbook links"))
    }
}
