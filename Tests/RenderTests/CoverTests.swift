import CCairo
import Foundation
import Geo
import Layout
import Model
@testable import Render
import Testing
import TestSupport

/// Synthetic books for the cover: routes drawn on a metre grid near Andorra.
enum CoverFixtures {
    static let grid = MetreGrid()

    /// A mountain stage of about 19 km: up a valley, six hairpins to a pass, down the other side.
    static func mountainRoute() -> [Coordinate] {
        var corners: [(Double, Double)] = [(0, 0), (600, 1500), (300, 3200), (1200, 4300), (1500, 5200)]
        for i in 0..<6 {   // switchbacks climbing north
            let y = 5400 + Double(i) * 260
            corners.append(i % 2 == 0 ? (2600, y) : (1500, y))
        }
        corners += [(2800, 7200), (4200, 7600), (5200, 8600), (6300, 8900)]
        return grid.line(corners, step: 25)
    }

    /// Heights every 100 m rising 900 → 2400 m to the pass, then down to 2050 m.
    static func mountainProfile(length: Metres) -> Profile {
        let count = Int(length / 100) + 2
        let heights: [Metres?] = (0..<count).map { i in
            let d = min(Double(i) * 100, length), pass = length * 0.78
            let base = d < pass ? 900 + 1500 * pow(d / pass, 1.3) : 2400 - 350 * (d - pass) / (length - pass)
            return base + 25 * sin(d / 700)
        }
        return Profile(spacing: 100, heights: heights, climb: 1560, descent: 410, source: "synthetic")
    }

    static func note(_ id: Int, _ line: Polyline, at d: Metres, _ text: String, marker: String? = nil,
                     type: WaypointType? = nil, cap: Degrees? = nil, danger: Int = 0, resets: Bool = false,
                     placement: Note.Placement = .onRoute) -> Note {
        Note(id: id, kind: type == nil ? .turn : .waypoint, distanceAlong: d, coordinate: line.coordinate(atDistance: d),
             placement: placement, text: text, marker: marker, waypointType: type, cap: cap, danger: danger,
             resetsOdometer: resets)
    }

    static func mountainBook(profile: Bool = true) -> Book {
        let coordinates = mountainRoute()
        let line = Polyline(coordinates)
        let notes = [
            note(1, line, at: 0, "DSS", marker: "DSS", type: .dss, cap: 20, resets: true),
            note(2, line, at: 1600, "Right at the bridge", cap: 350),
            note(3, line, at: 3300, "Fuel on the left", marker: "CP1", type: .cp, cap: 45),
            note(4, line, at: 3450, "Keep left", cap: 40, danger: 1),
            note(5, line, at: 5600, "Hairpins begin", marker: "WPM1", type: .wpm, danger: 2),
            note(6, line, at: 8800, "Narrow, drop on the right", danger: 3),
            note(7, line, at: 11800, "Pass", marker: "WPV1", type: .wpv, cap: 80),
            note(8, line, at: 12500, "Speed zone 50", marker: "DZ", type: .dz),
            note(9, line, at: 14200, "End of zone", marker: "FZ", type: .fz),
            note(10, line, at: line.length, "ASS", marker: "ASS", type: .ass),
            note(11, line, at: 9000, "Viewpoint off the road", marker: "WPS9", type: .wps, placement: .offRoute),
        ].sorted { $0.distanceAlong < $1.distanceAlong }
        return Book(title: "Envalira Pass", rally: "Pyrenees Trophy", stage: "Stage 2 — Canillo to Pas de la Casa",
                    date: "2026-03-14", route: Route(source: "envalira.gpx", points: coordinates.map { RoutePoint(coordinate: $0) }),
                    profile: profile ? mountainProfile(length: line.length) : nil, notes: notes)
    }

    /// A 2 km × 1 km rectangle driven round once, with a CP at each corner.
    static func smallBook() -> Book {
        let coordinates = grid.line([(0, 0), (2000, 0), (2000, 1000), (0, 1000), (0, 10)], step: 100)
        let line = Polyline(coordinates)
        let profile = Profile(spacing: 1000, heights: [1000, 1050, 1100, 1150, 1100, 1060, 1010], climb: 150,
                              descent: 140)
        return Book(title: "Loop", rally: "Test Rally", stage: "Prologue", date: "2026-01-01",
                    route: Route(points: coordinates.map { RoutePoint(coordinate: $0) }), profile: profile,
                    notes: [note(1, line, at: 2000, "Corner", marker: "CP1", type: .cp, cap: 0),
                            note(2, line, at: 3000, "Corner", type: .wpm, danger: 1),
                            note(3, line, at: 3200, "Close")])
    }
}

@Suite struct CoverLayoutTests {
    @Test func roundNumbers() {
        #expect(RoundNumber.atMost(7300) == 5000)
        #expect(RoundNumber.atMost(2000) == 2000)
        #expect(RoundNumber.atMost(0.9) == 0.5)
        #expect(RoundNumber.atLeast(1.2) == 2)
        #expect(RoundNumber.atLeast(600) == 1000)
        #expect(RoundNumber.isRound(200) && RoundNumber.isRound(0.05) && !RoundNumber.isRound(300))
    }

    @Test func scaleBarIsRoundAndMatchesTheGround() throws {
        let book = CoverFixtures.mountainBook()
        let cover = CoverLayout.layout(book: book, template: Fixtures.a5, measurer: FakeMeasurer())
        let map = try #require(cover.map)
        #expect(RoundNumber.isRound(map.scaleBar.length), "\(map.scaleBar.length) m")
        #expect(map.scaleBar.drawnLength <= map.frame.width * 0.3 + 1e-9)
        #expect(map.scaleBar.drawnLength > map.frame.width * 0.3 / 2.5, "longest round bar that fits")
        // The bar's page length per ground metre agrees with real distances on the map to 1 %:
        // start to finish, and start to the pass, measured on WGS84.
        let coordinates = book.route.coordinates
        let start = try #require(map.markers.first { $0.kind == .start }).point
        let finish = try #require(map.markers.first { $0.kind == .finish }).point
        let pass = try #require(map.markers.first { $0.label == "WPV1" }).point
        let barScale = map.scaleBar.drawnLength / map.scaleBar.length
        let passCoordinate = try #require(book.notes.first { $0.marker == "WPV1" }).coordinate
        for (a, b, ground) in [(start, finish, coordinates[0].distance(to: coordinates.last!)),
                               (start, pass, coordinates[0].distance(to: passCoordinate))] {
            let onPage = ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
            #expect(abs(onPage / ground / barScale - 1) < 0.01, "page \(onPage) pt for \(ground) m")
        }
        #expect(map.scaleBar.label == (map.scaleBar.length >= 1000
            ? "\(Int(map.scaleBar.length / 1000)) km" : "\(Int(map.scaleBar.length)) m"))
    }

    @Test func milesBookGetsARoundBarInMiles() {
        let bar = ScaleBar.fitting(maximumWidth: 100, pointsPerMetre: 0.01, units: .miles)
        // 100 pt is 10 km, 6.2 mi: the bar is 5 mi.
        #expect(bar.label == "5 mi")
        #expect(abs(bar.length - 5 * DistanceFormat.metresPerMile) < 1e-6)
        #expect(abs(bar.drawnLength - bar.length * 0.01) < 1e-9)
    }

    @Test func mapKeepsAspectRatioAndFitsItsRect() throws {
        let book = CoverFixtures.smallBook()
        let cover = CoverLayout.layout(book: book, template: Fixtures.a5, measurer: FakeMeasurer())
        let map = try #require(cover.map)
        let xs = map.route.map(\.x), ys = map.route.map(\.y)
        let width = xs.max()! - xs.min()!, height = ys.max()! - ys.min()!
        // The loop is 2000 m × 1000 m on the ground.
        #expect(abs(width / height - 2) < 0.02, "\(width) × \(height)")
        #expect(abs(width / 2000 / map.pointsPerMetre - 1) < 0.01)
        for p in map.route { #expect(map.frame.contains(Rect(x: p.x, y: p.y, width: 0, height: 0))) }
        for m in map.markers {
            if let r = m.labelRect { #expect(map.frame.contains(r), "\(m.label) label") }
        }
        #expect(map.frame.contains(map.northArrow))
        #expect(map.frame.contains(map.scaleLabelRect))
        // North up: the leg driven north (east side, 2000 m → 3000 m) goes up the page.
        let corner = try #require(map.markers.first { $0.label == "CP1" }).point
        let next = try #require(map.markers.first { $0.row == 2 }).point
        #expect(abs(corner.x - next.x) < 0.5 && next.y < corner.y)
        // Every area inside the margins, none overlapping the next.
        let content = Rect(x: 22.68, y: 22.68, width: PageSize.a5.width - 45.36, height: PageSize.a5.height - 45.36)
        let areas = cover.boxes.filter { [.banner, .statCell, .mapFrame, .profileFrame, .legendFrame].contains($0.kind) }
        for box in areas { #expect(content.inset(by: -0.01).contains(box.rect), "\(box.kind)") }
        let stacked = areas.filter { $0.kind != .statCell }.map(\.rect).sorted { $0.y < $1.y }
        for (a, b) in zip(stacked, stacked.dropFirst()) { #expect(a.maxY <= b.y) }
    }

    @Test func legendListsOnlyWhatTheBookUses() {
        let entries = Legend.entries(for: CoverFixtures.smallBook())
        #expect(entries.map(\.symbol) == [.start, .finish, .waypointType(.wpm), .waypointType(.cp), .danger(1), .cap,
                                          .closeNextRow])
        let mountain = Legend.entries(for: CoverFixtures.mountainBook()).map(\.symbol)
        // The off-route WPS prints no row, so it has no legend line.
        #expect(!mountain.contains(.waypointType(.wps)))
        #expect(mountain.contains(.odometerReset) && mountain.contains(.danger(3)) && mountain.contains(.waypointType(.dz)))
        #expect(!mountain.contains(.closeNextRow) || RowContent.rows(of: CoverFixtures.mountainBook())
            .dropFirst().contains { $0.partialDistance < Legend.closeRowDistance })
        // A bare book: only the map's markers.
        var bare = CoverFixtures.smallBook()
        bare.notes = []
        #expect(Legend.entries(for: bare).map(\.symbol) == [.start, .finish])
    }

    @Test func profileIsOmittedWithoutCompleteTerrain() {
        var book = CoverFixtures.smallBook()
        let with = CoverLayout.layout(book: book, template: Fixtures.a5, measurer: FakeMeasurer())
        #expect(with.profile != nil)
        #expect(with.boxes.contains { $0.text == "CLIMB" })
        book.profile?.heights[2] = nil
        let incomplete = CoverLayout.layout(book: book, template: Fixtures.a5, measurer: FakeMeasurer())
        book.profile = nil
        let without = CoverLayout.layout(book: book, template: Fixtures.a5, measurer: FakeMeasurer())
        for cover in [incomplete, without] {
            #expect(cover.profile == nil)
            #expect(!cover.boxes.contains { $0.kind == .profileFrame || $0.text == "CLIMB" || $0.text == "ELEVATION" })
            // The map takes the room.
            let mapHeight = cover.boxes.first { $0.kind == .mapFrame }?.rect.height ?? 0
            #expect(mapHeight > (with.boxes.first { $0.kind == .mapFrame }?.rect.height ?? 0))
        }
    }

    @Test func profileLabelsDoNotOverlap() throws {
        let book = CoverFixtures.mountainBook()
        let length = Polyline(book.route.coordinates).length
        let profile = try #require(book.profile)
        let chart = try #require(ProfileChart.layout(profile: profile, notes: book.notes,
                                                     routeLength: length, in: Rect(x: 0, y: 0, width: 300, height: 100),
                                                     measurer: FakeMeasurer()))
        #expect(chart.heightRange.lowerBound <= chart.band.lowerBound && chart.heightRange.upperBound >= chart.band.upperBound)
        let labels = chart.distanceTicks.map(\.labelRect) + chart.heightTicks.map(\.labelRect)
            + chart.waypointTicks.compactMap(\.labelRect) + [chart.summaryRect]
        for (i, a) in labels.enumerated() {
            for b in labels[(i + 1)...] { #expect(!a.intersects(b), "\(a) overlaps \(b)") }
        }
        #expect(chart.distanceTicks.last?.label.hasSuffix(" km") == true)
        #expect(chart.curve.first?.x == chart.plot.x && abs((chart.curve.last?.x ?? 0) - chart.plot.maxX) < 1e-9)
        // Markers on the route get ticks in row order; the off-route WPS does not.
        #expect(chart.waypointTicks.map(\.label) == ["DSS", "CP1", "WPM1", "WPV1", "DZ", "FZ", "ASS"])
        #expect(chart.waypointTicks.map(\.x) == chart.waypointTicks.map(\.x).sorted())
        #expect(chart.waypointTicks.contains { $0.labelRect != nil })
        // No chart for a profile with a gap.
        var gap = try #require(book.profile)
        gap.heights[3] = nil
        #expect(ProfileChart.layout(profile: gap, notes: [], routeLength: length,
                                    in: Rect(x: 0, y: 0, width: 300, height: 100), measurer: FakeMeasurer()) == nil)
    }
}

/// The cover of a small book, as text. When the layout changes on purpose, print
/// `cover.dump()` and paste it here after reading the difference line by line.
@Suite struct CoverGoldenTests {
    @Test func smallBookDump() {
        let cover = CoverLayout.layout(book: CoverFixtures.smallBook(), template: Fixtures.a5, measurer: FakeMeasurer())
        let dump = cover.dump()
        #expect(dump == Self.golden, "\n\(dump)")
    }

    static let golden = """
        cover size 419.53 x 595.28
        banner        22.68 22.68 374.17 64.70
        title         32.68 32.68 354.17 29.70 22.00pt bold left/bottom "Loop"
        info          32.68 62.38 354.17 15.00 10.00pt left/middle "Test Rally  ·  Prologue  ·  2026-01-01"
        statCell      22.68 95.38 71.63 35.30
        statCaption   26.68 99.38 63.63 9.10 6.50pt bold left/top "DISTANCE"
        statValue     26.68 108.48 63.63 18.20 14.00pt bold left/bottom "5.99 km"
        statCell      98.31 95.38 71.63 35.30
        statCaption   102.31 99.38 63.63 9.10 6.50pt bold left/top "ROWS"
        statValue     102.31 108.48 63.63 18.20 14.00pt bold left/bottom "3"
        statCell      173.95 95.38 71.63 35.30
        statCaption   177.95 99.38 63.63 9.10 6.50pt bold left/top "CLIMB"
        statValue     177.95 108.48 63.63 18.20 14.00pt bold left/bottom "150 m"
        statCell      249.58 95.38 71.63 35.30
        statCaption   253.58 99.38 63.63 9.10 6.50pt bold left/top "DESCENT"
        statValue     253.58 108.48 63.63 18.20 14.00pt bold left/bottom "140 m"
        statCell      325.22 95.38 71.63 35.30
        statCaption   329.22 99.38 63.63 9.10 6.50pt bold left/top "HIGHEST"
        statValue     329.22 108.48 63.63 18.20 14.00pt bold left/bottom "1150 m"
        mapFrame      22.68 138.68 374.17 216.92
        sectionTitle  26.68 142.68 124.72 10.50 7.00pt bold left/top "ROUTE"
        profileFrame  22.68 363.60 374.17 130.00
        sectionTitle  26.68 367.60 124.72 10.50 7.00pt bold left/top "ELEVATION"
        legendFrame   22.68 501.60 374.17 71.00
        sectionTitle  26.68 505.60 366.17 10.50 7.00pt bold left/top "LEGEND"
        legendSample  26.68 517.41 37.50 10.50 7.50pt bold center/middle ""
        legendMeaning 69.18 516.10 136.59 13.12 7.50pt left/middle "Start of the route"
        legendSample  26.68 530.54 37.50 10.50 7.50pt bold center/middle ""
        legendMeaning 69.18 529.22 136.59 13.12 7.50pt left/middle "Finish of the route"
        legendSample  26.68 543.66 37.50 10.50 7.50pt bold center/middle "WPM"
        legendMeaning 69.18 542.35 136.59 13.12 7.00pt left/middle "Masked waypoint: hidden on the GPS"
        legendSample  26.68 556.79 37.50 10.50 7.50pt bold center/middle "CP"
        legendMeaning 69.18 555.47 136.59 13.12 7.00pt left/middle "Checkpoint: stop for the time card"
        legendSample  209.76 517.41 37.50 10.50 7.50pt bold center/middle "!"
        legendMeaning 252.26 516.10 136.59 13.12 7.50pt left/middle "Caution"
        legendSample  209.76 530.54 37.50 10.50 7.50pt bold center/middle "C.090"
        legendMeaning 252.26 529.22 136.59 13.12 7.50pt left/middle "Compass heading (CAP) to follow"
        legendSample  209.76 543.66 37.50 10.50 7.50pt bold center/middle "0.15"
        legendMeaning 252.26 542.35 136.59 13.12 7.50pt left/middle "Next row closer than 300 m"
        map 22.68 138.68 374.17 216.92 scale 0.164321 pt/m
          route 60 points from (45.45, 330.60) to (45.45, 328.96)
          marker waypoint (374.07, 330.60) row 1 CP "CP1" at 380.07 326.40 11.55 8.40
          marker waypoint (374.07, 166.28) row 2 WPM "2" at 372.15 172.28 3.85 8.40
          marker start (45.45, 330.60) "START" at 49.65 318.00 19.25 8.40
          marker finish (45.45, 328.96) "FINISH" unlabelled
          scale bar "500 m" 500.00 m drawn 82.16 from (34.68, 343.60)
          north arrow 363.65 145.88 26.00 26.00
        profile 26.68 367.60 366.17 122.00 plot 51.13 391.10 339.72 87.70 heights 1000.00...1150.00 "1000–1150 m   ↑ 150 m   ↓ 140 m"
          curve 7 points
          heights 1000 m@478.80 1050 m@449.57 1100 m@420.33 1150 m@391.10
          distances 0@51.13 0.5@79.49 1@107.84 1.5@136.20 2@164.56 2.5@192.92 3@221.28 3.5@249.64 4@278.00 4.5@306.36 5@334.72 5.5 km@363.07
          waypoint row 1 "CP1" x 164.56
          waypoint row 2 "2" x 221.28
        legend start "" Start of the route
        legend finish "" Finish of the route
        legend type WPM "WPM" Masked waypoint: hidden on the GPS
        legend type CP "CP" Checkpoint: stop for the time card
        legend danger 1 "!" Caution
        legend cap "C.090" Compass heading (CAP) to follow
        legend closeNextRow "0.15" Next row closer than 300 m
        """ + "\n"
}

@Suite struct CoverRenderTests {
    /// Renders the mountain stage's cover to PNG; `ROADBOOK_KEEP_COVER=path` keeps a copy to look at.
    @Test func coverRendersToPNG() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("cover.png")
        let book = CoverFixtures.mountainBook()
        try BookRenderer(template: Fixtures.a5).renderPNG(book, pages: [1], dpi: 144, to: url)
        if let keep = ProcessInfo.processInfo.environment["ROADBOOK_KEEP_COVER"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(at: url, to: URL(fileURLWithPath: keep))
        }
        let data = try Data(contentsOf: url)
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // IHDR: width and height, big-endian, at bytes 16 and 20.
        func uint32(_ at: Int) -> Int { data[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        #expect(uint32(16) == Int((PageSize.a5.width * 2).rounded()) && uint32(20) == Int((PageSize.a5.height * 2).rounded()))
    }

    /// Draws the cover into an image and reads back pixels where the layout put the start and
    /// finish markers and the banner.
    @Test func markersArePaintedWhereTheLayoutPutThem() throws {
        let surface = try ImageSurface(width: Int(PageSize.a5.width.rounded(.up)), height: Int(PageSize.a5.height.rounded(.up)))
        let cairo = try CairoContext(surface: surface)
        let context = try TextContext(fontMap: FontMap())
        context.update(from: cairo)
        let text = try TextLayout(context: context)
        let cover = CoverLayout.layout(book: CoverFixtures.mountainBook(), template: Fixtures.a5, measurer: PangoMeasurer(layout: text))
        try CoverPainter(cairo: cairo, text: text).draw(cover)
        cairo_surface_flush(surface.handle)
        let stride = Int(cairo_image_surface_get_stride(surface.handle))
        let pixels = try #require(cairo_image_surface_get_data(surface.handle))
        func rgb(_ p: PagePoint) -> (Int, Int, Int) {
            let offset = Int(p.y) * stride + Int(p.x) * 4   // ARGB32, little-endian: B G R A
            return (Int(pixels[offset + 2]), Int(pixels[offset + 1]), Int(pixels[offset]))
        }
        let map = try #require(cover.map)
        let start = try #require(map.markers.first { $0.kind == .start })
        let finish = try #require(map.markers.first { $0.kind == .finish })
        // Just off the centre dot, on the coloured ring.
        let s = rgb(PagePoint(x: start.point.x + map.markerRadius * 0.9, y: start.point.y))
        let f = rgb(PagePoint(x: finish.point.x + map.markerRadius * 0.9, y: finish.point.y))
        #expect(s.1 > 120 && s.0 < 60 && s.2 < 110, "start \(s)")
        #expect(f.0 > 180 && f.1 < 60, "finish \(f)")
        let banner = try #require(cover.boxes.first { $0.kind == .banner }).rect
        let b = rgb(PagePoint(x: banner.maxX - 3, y: banner.y + 3))
        #expect(b.0 < 40 && b.1 < 40 && b.2 < 50, "banner \(b)")
    }
}
