import CCairo
import CPango
import Geo
import Layout
import Model

/// Draws an elevation chart: the ground as a filled area under the heights, height and
/// distance axes with labels, the profile's band and a tick per waypoint.
///
/// On its own (`draw(profile:…)`, for a profile page or `roadbook profile`) it lays the chart
/// out with Pango's measurements; the cover lays it out with the rest of the page and calls
/// `paint(_:…)`.
enum ProfilePainter {
    /// The ground under the line: a light earth tone that prints well in grey too.
    static let groundFill = (red: 0.87, green: 0.80, blue: 0.67)
    static let groundLine = (red: 0.42, green: 0.30, blue: 0.16)
    static let gridGrey = 0.82
    static let lineWidth = 1.1

    /// Lays out and draws the chart of `profile` in `rect`.
    /// - Parameters:
    ///   - profile: heights along the route; nothing is drawn unless it is complete.
    ///   - notes: the book's notes; waypoints and checkpoints on the route get a tick.
    ///   - routeLength: metres; where the last height sits.
    ///   - units: of the distance labels.
    /// - Returns: false when there was nothing to draw (incomplete profile or no room).
    /// - Throws: `RenderError` when Cairo reports a failure.
    @discardableResult
    static func draw(profile: Profile, notes: [Note], routeLength: Metres, units: BookSettings.Units = .kilometres,
                     in rect: Rect, on cairo: CairoContext, text: TextLayout) throws -> Bool {
        guard let chart = ProfileChart.layout(profile: profile, notes: notes, routeLength: routeLength, units: units,
                                              in: rect, measurer: PangoMeasurer(layout: text)) else { return false }
        try paint(chart, on: cairo, text: text)
        return true
    }

    /// Draws a chart already laid out.
    static func paint(_ chart: ProfileChart, on cairo: CairoContext, text: TextLayout) throws {
        let cr = cairo.handle
        let plot = chart.plot
        cairo_save(cr)
        defer { cairo_restore(cr) }

        // Height grid.
        cairo_set_line_width(cr, 0.4)
        cairo_set_source_rgb(cr, gridGrey, gridGrey, gridGrey)
        for tick in chart.heightTicks {
            cairo_move_to(cr, plot.x, tick.position)
            cairo_line_to(cr, plot.maxX, tick.position)
        }
        cairo_stroke(cr)

        // The ground.
        if let first = chart.curve.first, let last = chart.curve.last {
            cairo_move_to(cr, first.x, plot.maxY)
            for p in chart.curve { cairo_line_to(cr, p.x, p.y) }
            cairo_line_to(cr, last.x, plot.maxY)
            cairo_close_path(cr)
            cairo_set_source_rgb(cr, groundFill.red, groundFill.green, groundFill.blue)
            cairo_fill(cr)
            cairo_move_to(cr, first.x, first.y)
            for p in chart.curve.dropFirst() { cairo_line_to(cr, p.x, p.y) }
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_set_line_width(cr, lineWidth)
            cairo_set_source_rgb(cr, groundLine.red, groundLine.green, groundLine.blue)
            cairo_stroke(cr)
        }

        // The band: dashed at the lowest and highest heights.
        let range = chart.heightRange
        func y(_ h: Metres) -> Double { plot.maxY - (h - range.lowerBound) / (range.upperBound - range.lowerBound) * plot.height }
        var dash = [2.0, 2.0]
        cairo_set_dash(cr, &dash, 2, 0)
        cairo_set_line_width(cr, 0.5)
        cairo_set_source_rgb(cr, 0.35, 0.35, 0.35)
        for h in [chart.band.lowerBound, chart.band.upperBound] {
            cairo_move_to(cr, plot.x, y(h))
            cairo_line_to(cr, plot.maxX, y(h))
        }
        cairo_stroke(cr)

        // Waypoints: a dashed line down to the ground, a dot on the top edge, the label above.
        for tick in chart.waypointTicks {
            let colour = CoverColours.waypoint(tick.waypointType)
            cairo_set_source_rgb(cr, colour.red, colour.green, colour.blue)
            cairo_move_to(cr, tick.x, plot.y)
            cairo_line_to(cr, tick.x, plot.maxY)
            cairo_stroke(cr)
        }
        cairo_set_dash(cr, nil, 0, 0)
        for tick in chart.waypointTicks {
            let colour = CoverColours.waypoint(tick.waypointType)
            cairo_set_source_rgb(cr, colour.red, colour.green, colour.blue)
            cairo_new_sub_path(cr)
            cairo_arc(cr, tick.x, plot.y, 1.8, 0, 2 * Double.pi)
            cairo_fill(cr)
            if let r = tick.labelRect {
                showText(tick.label, font: chart.waypointFont,
                         in: r, horizontal: .center, cairo: cairo, text: text)
            }
        }

        // Axes and their labels.
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_set_line_width(cr, 0.7)
        cairo_move_to(cr, plot.x, plot.y)
        cairo_line_to(cr, plot.x, plot.maxY)
        cairo_line_to(cr, plot.maxX, plot.maxY)
        for tick in chart.heightTicks {
            cairo_move_to(cr, plot.x - 2.5, tick.position)
            cairo_line_to(cr, plot.x, tick.position)
        }
        for tick in chart.distanceTicks {
            cairo_move_to(cr, tick.position, plot.maxY)
            cairo_line_to(cr, tick.position, plot.maxY + 2.5)
        }
        cairo_stroke(cr)
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.2)
        for tick in chart.heightTicks {
            showText(tick.label, font: chart.font, in: tick.labelRect, horizontal: .right, cairo: cairo, text: text)
        }
        for tick in chart.distanceTicks {
            showText(tick.label, font: chart.font, in: tick.labelRect, horizontal: .center, cairo: cairo, text: text)
        }
        showText(chart.summary, font: chart.font, in: chart.summaryRect, horizontal: .right, cairo: cairo, text: text)
        try cairo.check("drawing the elevation profile")
    }
}

/// Draws `string` in `rect` with the current source colour, on one line, cut at the rectangle's
/// right edge with an ellipsis if it is too wide.
func showText(_ string: String, font: FontSpec, in rect: Rect, horizontal: Box.HorizontalAlignment = .left,
              vertical: Box.VerticalAlignment = .top, cairo: CairoContext, text: TextLayout) {
    let alignment: PangoAlignment = switch horizontal {
    case .left: PANGO_ALIGN_LEFT
    case .center: PANGO_ALIGN_CENTER
    case .right: PANGO_ALIGN_RIGHT
    }
    // A little slack so a label measured to the exact width is not wrapped by rounding.
    text.set(string, font: font, width: rect.width + 0.5, alignment: alignment, maximumHeight: nil)
    let height = text.size.height
    let y: Double = switch vertical {
    case .top: rect.y
    case .middle: rect.y + (rect.height - height) / 2
    case .bottom: rect.maxY - height
    }
    cairo_move_to(cairo.handle, rect.x, y)
    text.show(in: cairo)
}
