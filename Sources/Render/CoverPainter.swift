import CCairo
import CPango
import Foundation
import Layout
import Model

/// Colours of the cover, in one place.
enum CoverColours {
    typealias RGB = (red: Double, green: Double, blue: Double)
    static let start: RGB = (0.0, 0.62, 0.25)
    static let finish: RGB = (0.86, 0.11, 0.11)
    static let route: RGB = (0.80, 0.07, 0.30)
    static let banner: RGB = (0.10, 0.12, 0.15)
    static let accent: RGB = (1.0, 0.80, 0.0)
    static let mapBackground: RGB = (0.965, 0.962, 0.945)
    static let cellBackground: RGB = (0.94, 0.94, 0.94)
    /// The CAP tag's yellow, as on the pages.
    static let capYellow: RGB = (1.0, 0.84, 0.0)
    static let closeRowGreen: RGB = (0.0, 0.62, 0.25)
    static let danger: RGB = (0.8, 0.0, 0.0)

    /// Map and chart colour of a waypoint by kind: controls blue, navigation waypoints purple,
    /// safety orange, selective-section ends black, speed zones red; untyped notes grey.
    static func waypoint(_ type: WaypointType?) -> RGB {
        switch type {
        case .cp?, .wpc?: (0.10, 0.36, 0.75)
        case .wpm?, .wpv?, .wpe?, .wpn?, .wpp?: (0.46, 0.20, 0.62)
        case .wps?: (0.93, 0.48, 0.0)
        case .dss?, .ass?: (0.1, 0.1, 0.1)
        case .dz?, .fz?: (0.86, 0.11, 0.11)
        case nil: (0.45, 0.45, 0.45)
        }
    }
}

/// Draws a laid-out cover page.
struct CoverPainter {
    let cairo: CairoContext
    let text: TextLayout

    static let frameWidth = 0.8

    func draw(_ page: CoverPage) throws {
        let cr = cairo.handle
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        for box in page.boxes {
            cairo_save(cr)
            decorate(box)
            if box.kind == .mapFrame, let map = page.map { drawMap(map) }
            if let string = box.text, let font = box.font, box.symbol == nil {
                showBoxText(string, font: font, box: box)
            }
            cairo_restore(cr)
        }
        if let chart = page.profile { try ProfilePainter.paint(chart, on: cairo, text: text) }
        try cairo.check("drawing the cover")
    }

    // MARK: Boxes

    private func decorate(_ box: CoverBox) {
        let cr = cairo.handle
        let r = box.rect
        setColour((0, 0, 0))
        switch box.kind {
        case .banner:
            setColour(CoverColours.banner)
            cairo_rectangle(cr, r.x, r.y, r.width, r.height)
            cairo_fill(cr)
            setColour(CoverColours.accent)
            cairo_rectangle(cr, r.x, r.maxY - 3, r.width, 3)
            cairo_fill(cr)
        case .title:
            cairo_set_source_rgb(cr, 1, 1, 1)
        case .info:
            setColour(CoverColours.accent)
        case .statCell:
            setColour(CoverColours.cellBackground)
            cairo_rectangle(cr, r.x, r.y, r.width, r.height)
            cairo_fill(cr)
            setColour(CoverColours.accent)
            cairo_rectangle(cr, r.x, r.y, 2.5, r.height)
            cairo_fill(cr)
        case .statCaption, .sectionTitle, .footer:
            cairo_set_source_rgb(cr, 0.38, 0.38, 0.38)
        case .statValue, .legendMeaning:
            break
        case .mapFrame:
            setColour(CoverColours.mapBackground)
            cairo_rectangle(cr, r.x, r.y, r.width, r.height)
            cairo_fill_preserve(cr)
            cairo_set_source_rgb(cr, 0, 0, 0)
            cairo_set_line_width(cr, Self.frameWidth)
            cairo_stroke(cr)
        case .profileFrame, .legendFrame:
            cairo_set_line_width(cr, Self.frameWidth)
            cairo_rectangle(cr, r.x, r.y, r.width, r.height)
            cairo_stroke(cr)
        case .legendSample:
            if let symbol = box.symbol { drawSample(symbol, box: box) }
        }
    }

    private func showBoxText(_ string: String, font: FontSpec, box: CoverBox) {
        let cr = cairo.handle
        if box.clipped {
            cairo_rectangle(cr, box.rect.x, box.rect.y, box.rect.width, box.rect.height)
            cairo_clip(cr)
        }
        showText(string, font: font, in: box.rect, horizontal: box.horizontal, vertical: box.vertical, cairo: cairo,
                 text: text)
    }

    /// A legend sample drawn as the book draws the thing it explains.
    private func drawSample(_ symbol: LegendEntry.Symbol, box: CoverBox) {
        let cr = cairo.handle
        let r = box.rect
        let font = box.font ?? FontSpec(size: 7, bold: true)
        let label = box.text ?? ""
        text.set(label.isEmpty ? " " : label, font: font, width: r.width)
        let tag = Rect(x: r.x + (r.width - min(r.width, text.size.width + 6)) / 2, y: r.y,
                       width: min(r.width, text.size.width + 6), height: r.height)
        switch symbol {
        case .start, .finish:
            marker(at: PagePoint(x: r.x + r.width / 2, y: r.y + r.height / 2), radius: r.height * 0.42,
                   colour: symbol == .start ? CoverColours.start : CoverColours.finish, ring: true)
        case .leg(let kind):
            // A piece of the map's route line on the map's ground, cased as on the map.
            cairo_rectangle(cr, r.x, r.y, r.width, r.height)
            setColour(CoverColours.mapBackground)
            cairo_fill(cr)
            let line = [PagePoint(x: r.x + 3, y: r.y + r.height / 2), PagePoint(x: r.maxX - 3, y: r.y + r.height / 2)]
            strokeLine(line, width: Self.casingWidth, colour: (1, 1, 1), style: .road)
            strokeLine(line, width: Self.routeWidth, colour: CoverColours.route, style: kind)
        case .waypointType(let type):
            cairo.roundedRectangle(tag, radius: 2)
            setColour(CoverColours.waypoint(type))
            cairo_fill(cr)
            cairo_set_source_rgb(cr, 1, 1, 1)
            showText(label, font: font, in: r, horizontal: .center, vertical: .middle, cairo: cairo, text: text)
        case .danger:
            setColour(CoverColours.danger)
            showText(label, font: font, in: r, horizontal: .center, vertical: .middle, cairo: cairo, text: text)
        case .cap:
            cairo.roundedRectangle(tag, radius: 2)
            setColour(CoverColours.capYellow)
            cairo_fill_preserve(cr)
            cairo_set_source_rgb(cr, 0, 0, 0)
            cairo_set_line_width(cr, 0.6)
            cairo_stroke(cr)
            showText(label, font: font, in: r, horizontal: .center, vertical: .middle, cairo: cairo, text: text)
        case .odometerReset:
            setColour(CoverColours.danger)
            showText(label, font: font, in: r, horizontal: .center, vertical: .middle, cairo: cairo, text: text)
        case .closeNextRow:
            cairo_rectangle(cr, tag.x, tag.y, tag.width, tag.height)
            setColour(CoverColours.closeRowGreen)
            cairo_set_line_width(cr, 1.5)
            cairo_stroke(cr)
            cairo_set_source_rgb(cr, 0, 0, 0)
            showText(label, font: font, in: r, horizontal: .center, vertical: .middle, cairo: cairo, text: text)
        }
    }

    // MARK: Map

    private func drawMap(_ map: CoverMap) {
        let cr = cairo.handle
        cairo_save(cr)
        defer { cairo_restore(cr) }
        let f = map.frame
        cairo_rectangle(cr, f.x, f.y, f.width, f.height)
        cairo_clip(cr)

        // A light grid at the scale bar's length, so distances can be judged anywhere on the map.
        if map.scaleBar.drawnLength >= 12 {
            cairo_set_source_rgb(cr, 0.88, 0.88, 0.86)
            cairo_set_line_width(cr, 0.4)
            var x = map.scaleBarOrigin.x
            while x > f.x { x -= map.scaleBar.drawnLength }
            while x < f.maxX { cairo_move_to(cr, x, f.y); cairo_line_to(cr, x, f.maxY); x += map.scaleBar.drawnLength }
            var y = map.scaleBarOrigin.y
            while y < f.maxY { y += map.scaleBar.drawnLength }
            while y > f.y { cairo_move_to(cr, f.x, y); cairo_line_to(cr, f.maxX, y); y -= map.scaleBar.drawnLength }
            cairo_stroke(cr)
        }

        // The route: a white casing under a strong line, round joins so hairpins stay smooth; each
        // stretch in the style of the way it runs (solid along roads, dashed straight, dotted as drawn).
        strokeLine(map.route, width: Self.casingWidth, colour: (1, 1, 1), style: .road)
        let stretches = map.stretches.isEmpty ? [CoverMap.Stretch(kind: .road, points: map.route)] : map.stretches
        for stretch in stretches {
            strokeLine(stretch.points, width: Self.routeWidth, colour: CoverColours.route, style: stretch.kind)
        }

        for m in map.markers {
            switch m.kind {
            case .start: marker(at: m.point, radius: map.markerRadius * 1.4, colour: CoverColours.start, ring: true)
            case .finish: marker(at: m.point, radius: map.markerRadius * 1.4, colour: CoverColours.finish, ring: true)
            case .waypoint: marker(at: m.point, radius: map.markerRadius, colour: CoverColours.waypoint(m.waypointType),
                                   ring: false)
            }
        }
        for m in map.markers {
            guard let r = m.labelRect else { continue }
            let colour: CoverColours.RGB = switch m.kind {
            case .start: CoverColours.start
            case .finish: CoverColours.finish
            case .waypoint: CoverColours.waypoint(m.waypointType)
            }
            haloText(m.label, font: map.labelFont, in: r, colour: colour)
        }
        drawScaleBar(map)
        drawNorthArrow(map.northArrow, label: map.northLabel)
    }

    /// The route line's width on the map, and its white casing's.
    static let routeWidth = 2.2, casingWidth = 4.6

    /// The dash pattern of a route line running `kind`'s way, for a line `width` wide: none along
    /// roads, dashes three widths long with gaps of two straight, round dots two widths apart as
    /// drawn (a dash of no length with round caps is a dot).
    static func dashes(_ kind: LegKind, width: Double) -> (pattern: [Double], cap: cairo_line_cap_t) {
        switch kind {
        case .road: ([], CAIRO_LINE_CAP_ROUND)
        case .straight: ([3 * width, 2 * width], CAIRO_LINE_CAP_BUTT)
        case .asDrawn: ([0, 2 * width], CAIRO_LINE_CAP_ROUND)
        }
    }

    /// Strokes the line through `points` in `kind`'s style, with round joins.
    private func strokeLine(_ points: [PagePoint], width: Double, colour: CoverColours.RGB, style kind: LegKind) {
        guard let first = points.first else { return }
        let cr = cairo.handle
        cairo_save(cr)
        defer { cairo_restore(cr) }
        let (pattern, cap) = Self.dashes(kind, width: width)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cr, cap)
        cairo_set_dash(cr, pattern, Int32(pattern.count), 0)
        cairo_move_to(cr, first.x, first.y)
        for p in points.dropFirst() { cairo_line_to(cr, p.x, p.y) }
        cairo_set_line_width(cr, width)
        setColour(colour)
        cairo_stroke(cr)
    }

    /// A filled circle with a white rim; `ring` adds a white dot in the middle (start and finish).
    private func marker(at p: PagePoint, radius: Double, colour: CoverColours.RGB, ring: Bool) {
        let cr = cairo.handle
        cairo_new_sub_path(cr)
        cairo_arc(cr, p.x, p.y, radius, 0, 2 * Double.pi)
        setColour(colour)
        cairo_fill_preserve(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_set_line_width(cr, 1.2)
        cairo_stroke(cr)
        if ring {
            cairo_new_sub_path(cr)
            cairo_arc(cr, p.x, p.y, radius * 0.38, 0, 2 * Double.pi)
            cairo_fill(cr)
        }
    }

    /// Text with a white outline, readable over the route and the grid.
    private func haloText(_ string: String, font: FontSpec, in r: Rect, colour: CoverColours.RGB) {
        let cr = cairo.handle
        text.set(string, font: font, width: r.width + 0.5)
        cairo_move_to(cr, r.x, r.y)
        pango_cairo_layout_path(cr, text.handle)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_set_line_width(cr, 2.4)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_stroke_preserve(cr)
        setColour(colour)
        cairo_fill(cr)
    }

    /// Two alternating black and white halves, framed, with the length above.
    private func drawScaleBar(_ map: CoverMap) {
        let cr = cairo.handle
        let o = map.scaleBarOrigin, length = map.scaleBar.drawnLength
        let height = max(3, map.markerRadius)
        let plate = Rect(x: o.x - 3, y: map.scaleLabelRect.y - 2, width: max(length, map.scaleLabelRect.width) + 6,
                         height: o.y + 3 - map.scaleLabelRect.y + 2)
        cairo_rectangle(cr, plate.x, plate.y, plate.width, plate.height)
        cairo_set_source_rgba(cr, 1, 1, 1, 0.8)
        cairo_fill(cr)
        for half in 0..<2 {
            cairo_rectangle(cr, o.x + Double(half) * length / 2, o.y - height, length / 2, height)
            if half == 0 { cairo_set_source_rgb(cr, 0, 0, 0) } else { cairo_set_source_rgb(cr, 1, 1, 1) }
            cairo_fill(cr)
        }
        cairo_rectangle(cr, o.x, o.y - height, length, height)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_set_line_width(cr, 0.6)
        cairo_stroke(cr)
        showText(map.scaleBar.label, font: map.labelFont, in: map.scaleLabelRect, cairo: cairo, text: text)
    }

    /// A compass needle, dark half on the left, with `label` ("N" in the book's language) on top.
    private func drawNorthArrow(_ r: Rect, label: String) {
        let cr = cairo.handle
        let cx = r.x + r.width / 2
        cairo_new_sub_path(cr)
        cairo_arc(cr, cx, r.y + r.height / 2, r.width / 2, 0, 2 * Double.pi)
        cairo_set_source_rgba(cr, 1, 1, 1, 0.85)
        cairo_fill_preserve(cr)
        cairo_set_source_rgb(cr, 0.3, 0.3, 0.3)
        cairo_set_line_width(cr, 0.5)
        cairo_stroke(cr)
        let labelHeight = r.height * 0.34
        let top = r.y + labelHeight + r.height * 0.04, bottom = r.maxY - r.height * 0.1
        let middle = top + (bottom - top) * 0.68, halfWidth = r.width * 0.17
        cairo_move_to(cr, cx, top)
        cairo_line_to(cr, cx - halfWidth, bottom)
        cairo_line_to(cr, cx, middle)
        cairo_close_path(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_fill(cr)
        cairo_move_to(cr, cx, top)
        cairo_line_to(cr, cx + halfWidth, bottom)
        cairo_line_to(cr, cx, middle)
        cairo_close_path(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_fill_preserve(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_set_line_width(cr, 0.6)
        cairo_stroke(cr)
        showText(label, font: FontSpec(size: labelHeight * 0.85, bold: true),
                 in: Rect(x: r.x, y: r.y + r.height * 0.06, width: r.width, height: labelHeight), horizontal: .center,
                 cairo: cairo, text: text)
    }

    // MARK: Helpers

    private func setColour(_ c: CoverColours.RGB) { cairo_set_source_rgb(cairo.handle, c.red, c.green, c.blue) }
}
