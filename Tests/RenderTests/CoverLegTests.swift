import CCairo
import Foundation
import Geo
import Layout
import Model
@testable import Render
import Testing
import TestSupport

/// A route drawn through four handles on a metre grid: a road leg east with a bend, a straight leg
/// 2000 m north, and a leg as drawn west along a wavy stroke.
///
///     h3 ~~~~~~~~~~~~~ h2      as drawn (dotted)
///                       |
///                       |      straight (dashed)
///     h0 ----^^^^----- h1      along the road (solid)
enum CoverLegFixtures {
    static let grid = MetreGrid()
    static let h = [grid(0, 0), grid(2000, 0), grid(2000, 2000), grid(0, 2000)]
    /// The road of the first leg, from h0 to h1 through a bend 300 m north.
    static let road = grid.line([(0, 0), (1000, 300), (2000, 0)], step: 100)
    /// The stroke of the last leg, from h2 to h3: a wave of 150 m either side of the line.
    static let stroke = (0...20).map { i in grid(2000 - Double(i) * 100, 2000 + 150 * sin(Double(i) * .pi / 5)) }

    /// The book: its route is the legs' lines joined at the handles, as a route through handles is.
    static func book() -> Book {
        let coordinates = road + [h[2]] + stroke.dropFirst().dropLast() + [h[3]]
        var book = Book(title: "Three legs", route: Route(points: coordinates.map { RoutePoint(coordinate: $0) }))
        book.plan = RoutePlan(
            handles: h.enumerated().map { Handle(id: $0.offset + 1, coordinate: $0.element, origin: .tapped) },
            legs: [PlannedLeg(kind: .road, state: .road,
                              answers: [.drive: RoadLeg(line: road, distance: Polyline(road).length, duration: 200)]),
                   PlannedLeg(kind: .straight),
                   PlannedLeg(kind: .asDrawn, stroke: stroke)])
        return book
    }
}

@Suite("The cover map's route line: solid along roads, dashed straight, dotted as drawn")
struct CoverLegTests {
    typealias F = CoverLegFixtures

    @Test("each leg of the plan is a stretch of its kind, joined at the handles")
    func stretches() throws {
        let book = F.book()
        let stretches = RouteStretches.of(book)
        #expect(stretches.map(\.kind) == [.road, .straight, .asDrawn])
        // The road's points, then one straight segment to h2, then the stroke to h3.
        let roadEnd = F.road.count - 1
        #expect(stretches.map(\.points) == [0...roadEnd, roadEnd...(roadEnd + 1), (roadEnd + 1)...(book.route.points.count - 1)])

        let cover = CoverLayout.layout(book: book, template: Fixtures.a5, measurer: FakeMeasurer())
        let map = try #require(cover.map)
        #expect(map.stretches.map(\.kind) == [.road, .straight, .asDrawn])
        for (a, b) in zip(map.stretches, map.stretches.dropFirst()) { #expect(a.points.last == b.points.first) }
        #expect(map.stretches.first?.points.first == map.markers.first { $0.kind == .start }?.point)
        #expect(map.stretches.last?.points.last == map.markers.first { $0.kind == .finish }?.point)
        // The straight leg is one segment, 2000 m on the ground to the map's scale.
        let straight = map.stretches[1].points
        #expect(straight.count == 2)
        let length = ((straight[1].x - straight[0].x) * (straight[1].x - straight[0].x)
                      + (straight[1].y - straight[0].y) * (straight[1].y - straight[0].y)).squareRoot()
        #expect(abs(length - 2000 * map.pointsPerMetre) < 0.005 * length, "\(length) pt, \(2000 * map.pointsPerMetre) expected")
        // North up: h2 is straight above h1 on the page.
        #expect(abs(straight[1].x - straight[0].x) < 0.5 && straight[1].y < straight[0].y)
    }

    @Test("the legend has a line for each kind of leg the map shows, and none for a route all along roads")
    func legend() {
        let entries = Legend.entries(for: F.book())
        #expect(entries.map(\.symbol) == [.start, .finish, .leg(.road), .leg(.straight), .leg(.asDrawn)])
        #expect(entries.map(\.meaning) == ["Start of the route", "Finish of the route", "Route along the roads",
                                           "Straight line between two points", "Line as drawn by hand"])
        // Without the road leg: only the kinds present.
        var noRoad = F.book()
        noRoad.plan?.legs[0] = PlannedLeg(kind: .straight)
        #expect(Legend.entries(for: noRoad).map(\.symbol) == [.start, .finish, .leg(.straight), .leg(.asDrawn)])
        // A route from a track, all along roads: no line for it.
        let track = CoverFixtures.smallBook()
        #expect(!Legend.entries(for: track).contains { if case .leg = $0.symbol { true } else { false } })
        #expect(RouteStretches.of(track).map(\.kind) == [.road])
        // The cover's dump names them.
        let dump = CoverLayout.layout(book: F.book(), template: Fixtures.a5, measurer: FakeMeasurer()).dump()
        #expect(dump.contains("legend leg straight \"\" Straight line between two points"))
        #expect(dump.contains("  stretch asDrawn "))
    }

    @Test("a road leg drawn straight runs straight; a plan the route does not pass is not read")
    func roadLegDrawnStraightAndStalePlan() {
        var book = F.book()
        let roadLength = Polyline(F.road).length
        book.route.straightStretches = [StraightStretch(start: 0, end: roadLength, reason: .noRoad, leg: 1)]
        #expect(RouteStretches.of(book).map(\.kind) == [.straight, .asDrawn])
        // A route that is not the plan's (moved 50 m east): read as along roads.
        var moved = F.book()
        moved.route.points = moved.route.points.map {
            RoutePoint(coordinate: Coordinate(latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude + 0.0006))
        }
        #expect(RouteStretches.of(moved).map(\.kind) == [.road])
    }

    /// Draws the cover into an image and reads the route's colour along the middle of each
    /// stretch: solid along the road, dashes with white gaps on the straight leg, dots as drawn.
    @Test("the painter draws each stretch in its style; ROADBOOK_KEEP_LEGS_COVER=path keeps a PNG")
    func painted() throws {
        let book = F.book()
        if let keep = ProcessInfo.processInfo.environment["ROADBOOK_KEEP_LEGS_COVER"] {
            try BookRenderer(template: Fixtures.a5).renderPNG(book, pages: [1], dpi: 144, to: URL(fileURLWithPath: keep))
        }
        let scale = 4.0
        let surface = try ImageSurface(width: Int((PageSize.a5.width * scale).rounded(.up)),
                                       height: Int((PageSize.a5.height * scale).rounded(.up)))
        let cairo = try CairoContext(surface: surface)
        cairo_scale(cairo.handle, scale, scale)
        let context = try TextContext(fontMap: FontMap())
        context.update(from: cairo)
        let text = try TextLayout(context: context)
        let cover = CoverLayout.layout(book: book, template: Fixtures.a5, measurer: PangoMeasurer(layout: text))
        try CoverPainter(cairo: cairo, text: text).draw(cover)
        cairo_surface_flush(surface.handle)
        let stride = Int(cairo_image_surface_get_stride(surface.handle))
        let pixels = try #require(cairo_image_surface_get_data(surface.handle))
        /// Whether the pixel at page point `p` is the route's colour (a strong red), or white.
        func colour(_ p: PagePoint) -> (route: Bool, white: Bool) {
            let offset = Int(p.y * scale) * stride + Int(p.x * scale) * 4   // ARGB32, little-endian: B G R A
            let (r, g, b) = (Int(pixels[offset + 2]), Int(pixels[offset + 1]), Int(pixels[offset]))
            return (r > 150 && g < 90 && b < 130, r > 235 && g > 235 && b > 235)
        }
        /// The share of route-coloured and of white samples every 0.25 pt along the line through
        /// `points`, its first and last fifth left out (markers and labels stand at the ends).
        func shares(_ points: [PagePoint]) -> (route: Double, white: Double) {
            let segments = zip(points, points.dropFirst()).map { ($0, $1, hypot($1.x - $0.x, $1.y - $0.y)) }
            let total = segments.reduce(0) { $0 + $1.2 }
            var samples: [(route: Bool, white: Bool)] = []
            var along = 0.0
            for (a, b, length) in segments where length > 0 {
                var t = 0.0
                while t < length {
                    if (total * 0.2 ... total * 0.8).contains(along + t) {
                        samples.append(colour(PagePoint(x: a.x + (b.x - a.x) * t / length, y: a.y + (b.y - a.y) * t / length)))
                    }
                    t += 0.25
                }
                along += length
            }
            let count = Double(max(1, samples.count))
            return (Double(samples.filter(\.route).count) / count, Double(samples.filter(\.white).count) / count)
        }
        let map = try #require(cover.map)
        // Along the road: all route colour.
        let solid = shares(map.stretches[0].points)
        #expect(solid.route > 0.95, "road \(solid)")
        // The straight leg: dashes 3 widths long, gaps 2 widths, so 60% red and 40% white.
        let dashed = shares(map.stretches[1].points)
        #expect(abs(dashed.route - 0.6) < 0.1 && abs(dashed.white - 0.4) < 0.1, "straight \(dashed)")
        // The drawn leg: dots one width across every two widths, so about half red, white between.
        let dotted = shares(map.stretches[2].points)
        #expect(abs(dotted.route - 0.5) < 0.15 && dotted.white > 0.3, "as drawn \(dotted)")
    }
}
