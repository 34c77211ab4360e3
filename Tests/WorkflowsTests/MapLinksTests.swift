import Foundation
import Geo
import Model
import Testing
import TestSupport
import Workflows

/// The links are read back with Foundation's `URLComponents` (query values decoded) and checked
/// against the parameters Apple documents for Map Links (`saddr`, `daddr`, `dirflg`: `d` by car,
/// `w` on foot) and Google for Maps URLs directions (`api=1`, `origin`, `destination`,
/// `travelmode` driving/walking/bicycling, `waypoints` separated by "|", at most nine).
@Suite("Map-app links")
struct MapLinksTests {
    /// The query of `url` as name → decoded value, with every name once.
    func query(_ url: URL) -> [String: String] {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(Set(items.map(\.name)).count == items.count, "each parameter once: \(url)")
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
    }

    /// A book routed through handles at 42.50, 42.51, … with the given names.
    func routedBook(names: [String?], mode: TravelMode = .drive) -> Book {
        let handles = names.enumerated().map { i, name in
            Handle(id: i + 1, coordinate: Coordinate(latitude: 42.5 + Double(i) / 100, longitude: 1.5), origin: .tapped, name: name)
        }
        var book = Book(title: "Routed", route: Route(points: handles.map { RoutePoint(coordinate: $0.coordinate) }))
        book.plan = RoutePlan(handles: handles, mode: mode)
        return book
    }

    @Test("a route of 13 stops: Apple gets the ends and the mode, Google the ends and the first nine between")
    func thirteenStops() throws {
        let book = routedBook(names: (1...13).map { "Stop \($0)" })
        let links = try #require(MapLinks(book: book))
        #expect(links.googleCaption == "11 of 13 stops")
        #expect(links.title == "Stop 1 → Stop 13")

        let apple = try #require(URLComponents(url: links.apple, resolvingAgainstBaseURL: false))
        #expect(apple.scheme == "https" && apple.host == "maps.apple.com")
        #expect(query(links.apple) == ["saddr": "42.500000,1.500000", "daddr": "42.620000,1.500000", "dirflg": "d"])

        let google = try #require(URLComponents(url: links.google, resolvingAgainstBaseURL: false))
        #expect(google.scheme == "https" && google.host == "www.google.com" && google.path == "/maps/dir/")
        let between = (1...9).map { String(format: "%.6f,1.500000", 42.5 + Double($0) / 100) }
        #expect(query(links.google) == ["api": "1", "origin": "42.500000,1.500000", "destination": "42.620000,1.500000",
                                        "travelmode": "driving", "waypoints": between.joined(separator: "|")])
    }

    @Test("eleven stops or fewer: every one is carried and the caption counts them")
    func fewStops() throws {
        let eleven = try #require(MapLinks(book: routedBook(names: Array(repeating: nil, count: 11))))
        #expect(eleven.googleCaption == "11 stops")
        #expect(query(eleven.google)["waypoints"]?.split(separator: "|").count == 9)
        let two = try #require(MapLinks(book: routedBook(names: ["A", "B"])))
        #expect(two.googleCaption == "2 stops")
        #expect(query(two.google)["waypoints"] == nil, "no empty waypoints parameter")
    }

    @Test("walking and cycling: Apple's dirflg w, none for cycling (Map Links has no value for it); Google walking and bicycling")
    func modes() throws {
        let walk = try #require(MapLinks(book: routedBook(names: ["A", "B"], mode: .walk)))
        #expect(query(walk.apple)["dirflg"] == "w")
        #expect(query(walk.google)["travelmode"] == "walking")
        let cycle = try #require(MapLinks(book: routedBook(names: ["A", "B"], mode: .cycle)))
        #expect(query(cycle.apple)["dirflg"] == nil)
        #expect(query(cycle.google)["travelmode"] == "bicycling")
    }

    @Test("by name: names with spaces, accents, & and = arrive whole; a name with | goes as its coordinate")
    func namesEncoded() throws {
        let names = ["Sant Julià de Lòria", "Bar & Grill", "a=b+c?d#e", "Left | Right", "Encamp"]
        var configuration = MapLinks.Configuration()
        configuration.placesByName = true
        let links = try #require(MapLinks(book: routedBook(names: names), configuration: configuration))
        #expect(query(links.apple)["saddr"] == "Sant Julià de Lòria")
        #expect(query(links.apple)["daddr"] == "Encamp")
        let google = query(links.google)
        #expect(google["origin"] == "Sant Julià de Lòria")
        #expect(google["waypoints"] == "Bar & Grill|a=b+c?d#e|42.530000,1.500000")
        // Nothing in a value ends a parameter early or reads as a space: the raw query has exactly
        // its parameters, and no "+" or space.
        let raw = try #require(links.google.query)
        #expect(raw.split(separator: "&").count == 5, "\(raw)")
        #expect(!raw.contains("+") && !raw.contains(" ") && !raw.contains("#"), "\(raw)")
    }

    @Test("a track book: the route's ends with its waypoint and checkpoint rows between, not turns or off-route notes")
    func trackBook() throws {
        let points = (0...10).map { RoutePoint(coordinate: Coordinate(latitude: 42.5, longitude: 1.5 + Double($0) / 1000)) }
        let notes = [
            Note(id: 1, kind: .checkpoint, distanceAlong: 100, coordinate: Coordinate(latitude: 42.5, longitude: 1.501), text: "CP", marker: "CP1"),
            Note(id: 2, kind: .turn, distanceAlong: 200, coordinate: Coordinate(latitude: 42.5, longitude: 1.502), text: "Turn left"),
            Note(id: 3, kind: .waypoint, distanceAlong: 300, coordinate: Coordinate(latitude: 42.5002, longitude: 1.503), text: "Chapel"),
            Note(id: 4, kind: .waypoint, distanceAlong: 400, coordinate: Coordinate(latitude: 42.51, longitude: 1.504),
                 offsetFromRoute: 1100, placement: .offRoute, text: "Far away"),
        ]
        var book = Book(title: "Track", route: Route(points: points), notes: notes)
        book.settings.travelMode = .cycle
        let links = try #require(MapLinks(book: book))
        #expect(links.stops.map(\.name) == [nil, nil, nil, nil], "a row's marker and words are not a place's name")
        #expect(links.googleCaption == "4 stops")
        #expect(query(links.google)["waypoints"] == "42.500000,1.501000|42.500200,1.503000")
        #expect(query(links.google)["destination"] == "42.500000,1.510000")
        #expect(query(links.google)["travelmode"] == "bicycling")
    }

    @Test("each place once: a waypoint on the route's first or last point, or a handle on the one before it, is no stop of its own")
    func placesOnce() throws {
        let points = (0...10).map { RoutePoint(coordinate: Coordinate(latitude: 42.5, longitude: 1.5 + Double($0) / 1000)) }
        let notes = [
            Note(id: 1, kind: .waypoint, distanceAlong: 0, coordinate: Coordinate(latitude: 42.50001, longitude: 1.5), text: "Start", marker: "DSS"),
            Note(id: 2, kind: .checkpoint, distanceAlong: 410, coordinate: Coordinate(latitude: 42.5, longitude: 1.505), text: "CP", marker: "CP1"),
            Note(id: 3, kind: .waypoint, distanceAlong: 820, coordinate: Coordinate(latitude: 42.5, longitude: 1.50999), text: "Finish", marker: "ASS"),
        ]
        let track = try #require(MapLinks(book: Book(title: "Track", route: Route(points: points), notes: notes)))
        #expect(track.stops.map(\.coordinate) == [points[0].coordinate, notes[1].coordinate, points[10].coordinate])
        #expect(track.googleCaption == "3 stops")

        var routed = routedBook(names: ["Sant Julià", nil, "Canillo"])
        routed.plan!.handles.insert(Handle(id: 9, coordinate: Coordinate(latitude: 42.51, longitude: 1.50001), origin: .waypoint, name: "Santa Coloma"), at: 2)
        let links = try #require(MapLinks(book: routed))
        #expect(links.stops.map(\.name) == ["Sant Julià", "Santa Coloma", "Canillo"], "the waypoint handle on handle 2's place is that place, with its name")
    }

    @Test("the sample track: 14 places (not 16), named from the extract, never by a marker; the links carry the coordinates, the captions the names")
    func sampleNamed() async throws {
        let folder = try TemporaryFolder()
        let bookFile = folder.path("e.json")
        let sample = packageRoot().appendingPathComponent("samples/andorra-envalira.gpx")
        let book = try await buildBook(BuildRequest(track: sample, bookFile: bookFile, turns: false), log: MessageList()).book
        let osm = try testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf")
        let links = try mapLinks(ofBook: bookFile, placesByName: false, extract: osm)
        #expect(links.stops.count == 14, "start, 12 waypoints between, end: DSS and ASS are the route's ends")
        #expect(links.googleCaption == "11 of 14 stops")
        let markers = Set(book.notes.compactMap(\.marker))
        #expect(links.stops.allSatisfy { $0.name != nil && !markers.contains($0.name!) }, "\(links.stops.map(\.name))")
        #expect(links.title == "Sant Julià de Lòria → \(links.stops.last!.name!)")
        let route = book.route.coordinates
        #expect(query(links.apple) == ["saddr": String(format: "%.6f,%.6f", route[0].latitude, route[0].longitude),
                                       "daddr": String(format: "%.6f,%.6f", route[route.count - 1].latitude, route[route.count - 1].longitude),
                                       "dirflg": "d"])
        #expect(query(links.google)["waypoints"]?.split(separator: "|").count == 9)
        let byName = try mapLinks(ofBook: bookFile, placesByName: true, extract: osm)
        #expect(query(byName.apple)["saddr"] == "Sant Julià de Lòria")
        let waypoints = query(byName.google)["waypoints"]?.split(separator: "|").map(String.init) ?? []
        #expect(waypoints.count == 9 && waypoints.allSatisfy { !markers.contains($0) }, "\(waypoints)")
        #expect(try mapLinks(ofBook: bookFile, placesByName: true).stops.allSatisfy { $0.name == nil }, "without the extract: coordinates")
    }

    @Test("a handle moved onto the road is a stop where the route reaches it, not where it was tapped")
    func snappedHandle() throws {
        var book = routedBook(names: ["A", "B"])
        book.plan!.handles[0].placed = Coordinate(latitude: 42.4990, longitude: 1.4990)
        let links = try #require(MapLinks(book: book))
        #expect(query(links.apple)["saddr"] == "42.500000,1.500000")
    }

    @Test("a route of fewer than two points has no links")
    func noRoute() {
        let book = Book(title: "Empty", route: Route(points: [RoutePoint(coordinate: Coordinate(latitude: 42.5, longitude: 1.5))]))
        #expect(MapLinks(book: book) == nil)
    }
}
