import Foundation
@testable import Formats
import Geo
import Model
import Testing
import TestSupport

/// Books made by hand for the route-data writers, with lengths known without our geodesics: the
/// line runs along the equator, where 0.1° of longitude is a·π/1800 = 11 131.9 m on WGS 84, then
/// 0.001° north, 110.6 m of meridian (a(1−e²)·π/180 000 at the equator): 11 242.5 m in all, "11.2 km"
/// or 6.99 mi, "7.0 mi".
enum RouteDataBooks {
    static let line = [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 0.05),
                       Coordinate(latitude: 0, longitude: 0.1), Coordinate(latitude: 0.001, longitude: 0.1)]

    static func notes() -> [Note] {
        [
            Note(id: 1, kind: .checkpoint, distanceAlong: 0, coordinate: Coordinate(latitude: 0, longitude: 0),
                 text: "Start & \"go\" <fast>", marker: "DSS", waypointType: .dss, cap: 90),
            Note(id: 2, kind: .turn, distanceAlong: 5566, coordinate: Coordinate(latitude: 0.0002, longitude: 0.05),
                 text: "Keep left → CG-2", cap: 89.6, danger: 2),
            Note(id: 3, kind: .typed, distanceAlong: 9000, coordinate: Coordinate(latitude: 0.3, longitude: 0.08),
                 offsetFromRoute: 33_000, placement: .offRoute, text: "Far away"),
            Note(id: 4, kind: .checkpoint, distanceAlong: 11_242, coordinate: Coordinate(latitude: 0.001, longitude: 0.1),
                 text: "Finish", marker: "ASS", waypointType: .ass),
        ]
    }

    /// A book drawn through four named handles: a road leg the engine timed at 10 minutes, a
    /// straight leg, and a road leg with no road (recorded straight when applied).
    static func handlesBook(units: BookSettings.Units = .kilometres) -> Book {
        let handles = [
            Handle(id: 1, coordinate: line[0], origin: .tapped, name: "Canillo & <Soldeu>"),
            Handle(id: 2, coordinate: line[1], origin: .tapped, name: "Mid"),
            Handle(id: 3, coordinate: line[2], origin: .tapped, name: nil),
            Handle(id: 4, coordinate: line[3], origin: .tapped, name: "Ordino"),
        ]
        let road = RoadLeg(line: [line[0], line[1]], distance: 5566, duration: 600)
        let legs = [
            PlannedLeg(kind: .road, state: .road, answers: [.drive: road, .cycle: RoadLeg(line: [], distance: 1, duration: 5000)]),
            PlannedLeg(kind: .straight),
            PlannedLeg(kind: .road, state: .noRoad, noRoadModes: [.drive]),
        ]
        var book = Book(title: "Handles book", settings: BookSettings(units: units),
                        route: Route(source: "handles, roads by OSRM", points: line.map { RoutePoint(coordinate: $0) },
                                     straightStretches: [StraightStretch(start: 11_131.9, end: 11_242.5, reason: .noRoad, leg: 3)]),
                        notes: notes())
        book.plan = RoutePlan(handles: handles, legs: legs, mode: .drive)
        return book
    }

    /// A book from a recorded track: no plan, its rows' markers at the two ends.
    static func trackBook() -> Book {
        Book(title: "Track book", route: Route(source: "stage-1.gpx",
                                               points: line.map { RoutePoint(coordinate: $0, elevation: 1000) }),
             notes: notes())
    }
}

@Suite("The saved route properties of a book")
struct RoutePropertiesTests {
    @Test("a route through handles: ends' names, via count, straight legs, the engine's time and source")
    func handles() {
        let p = RouteProperties(book: RouteDataBooks.handlesBook())
        #expect(p.routeStart == "Canillo & <Soldeu>")
        #expect(p.routeEnd == "Ordino")
        #expect(p.name == "Canillo & <Soldeu> → Ordino")
        #expect(p.routeDistance == "11.2 km")
        #expect(p.routeTravelTime == "10m", "only the answered road leg counts, in the plan's mode")
        #expect(p.routeTransportType == "Drive")
        #expect(p.routeSource == "OSRM Directions")
        #expect(p.description == "Route via OSRM Directions")
        #expect(p.routeViaCount == 2)
        #expect(p.routeStraightLegs == 2, "the straight leg and the road leg with no road, each once")
        #expect(p.fields.map(\.key) == RouteProperties.keys.map(\.name))
    }

    @Test("the distance is text in the book's units; the name falls back to mode and distance")
    func milesAndUnnamedEnds() {
        var book = RouteDataBooks.handlesBook(units: .miles)
        book.plan!.handles[3].name = nil
        book.plan!.mode = .cycle
        book.description = "Route via CG-1 and CG-2"
        let p = RouteProperties(book: book)
        #expect(p.routeDistance == "7.0 mi")
        #expect(p.routeEnd == nil)
        #expect(p.name == "Cycle, 7.0 mi")
        #expect(p.routeTransportType == "Cycle")
        #expect(p.routeTravelTime == "1h 23m", "the cycle answer of the first leg: 5000 s")
        #expect(p.description == "Route via CG-1 and CG-2", "the book's own description wins")
        #expect(!p.fields.contains { $0.key == "routeEnd" })
    }

    @Test("a route of two stops has no via count; one with no straight leg has no straight-leg count")
    func twoStops() {
        var book = RouteDataBooks.handlesBook()
        book.plan!.handles = [book.plan!.handles[0], book.plan!.handles[3]]
        book.plan!.legs = [book.plan!.legs[0]]
        book.route.straightStretches = nil
        let p = RouteProperties(book: book)
        #expect(p.routeViaCount == nil)
        #expect(p.routeStraightLegs == nil)
        #expect(!p.fields.contains { $0.key == "routeViaCount" || $0.key == "routeStraightLegs" })
    }

    @Test("a recorded track: ends named by the rows at its ends, no travel time, the file as source")
    func track() {
        let p = RouteProperties(book: RouteDataBooks.trackBook())
        #expect(p.routeStart == "DSS")
        #expect(p.routeEnd == "ASS")
        #expect(p.name == "DSS → ASS")
        #expect(p.routeTravelTime == nil)
        #expect(p.routeSource == "stage-1.gpx")
        #expect(p.description == "Route via stage-1.gpx")
        #expect(p.routeViaCount == nil)
        #expect(p.routeStraightLegs == nil)
    }

    @Test("a track whose first row is not at its start has no start name")
    func trackWithoutEnds() {
        var book = RouteDataBooks.trackBook()
        book.notes[0].distanceAlong = 400
        book.notes.removeLast()
        let p = RouteProperties(book: book)
        #expect(p.routeStart == nil)
        #expect(p.routeEnd == nil)
        #expect(p.name == "Drive, 11.2 km")
    }

    @Test("rows are the notes on the route, numbered in order, named by marker else number")
    func rows() {
        let rows = Array(RouteRow.rows(of: RouteDataBooks.handlesBook()))
        #expect(rows.map(\.number) == [1, 2, 3])
        #expect(rows.map(\.name) == ["DSS", "2", "ASS"])
        #expect(rows.map(\.type) == ["DSS", "turn", "ASS"])
    }

    @Test("the engine is read back from the source books have always stored")
    func engineSource() {
        // The form in book files written before (Tests/Hostile/seeds/route-book.json has it).
        #expect(Route.handlesSource(roadsBy: "embedded router") == "handles, roads by embedded router")
        #expect(Route(source: "handles, roads by embedded router", points: []).engineName == "embedded router")
        #expect(Route(source: "handles", points: []).engineName == nil)
        #expect(Route(source: "handles, roads by ", points: []).engineName == nil)
        #expect(Route(source: "stage.gpx", points: []).engineName == nil)
    }

    @Test("fixed-point numbers are written without exponent or sign trouble")
    func fixed() {
        #expect(RouteText.fixed(1.52163305, digits: 7) == "1.5216331" || RouteText.fixed(1.52163305, digits: 7) == "1.5216330")
        #expect(RouteText.fixed(-0.00000001, digits: 7) == "0.0000000")
        #expect(RouteText.fixed(-12.5, digits: 1) == "-12.5")
        #expect(RouteText.fixed(0.05, digits: 7) == "0.0500000")
        #expect(RouteText.json("a\"b\\c\n\u{1}") == #""a\"b\\c\n\u0001""#)
        #expect(RouteText.xml("a&<b>\"\u{1}") == "a&amp;&lt;b&gt;&quot;")
    }
}
