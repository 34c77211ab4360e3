import CCairo
import CPango
import Foundation
import Geo
import Layout
import Model

/// Draws a `Tulip` as rally riders know it from FIA/FIM cross-country road books: the rider
/// arrives from the bottom edge (a filled dot where the entry road starts), the junction sits a
/// little below the centre, the road taken ends in an arrowhead and the other roads leave as
/// shorter stubs at their angles, spread where two lie too close to tell apart (`TulipLayout`: at
/// least 20° between neighbours, order and sides kept). Each road class has its own line (see
/// `Style`); the route (entry, junction, exit) is drawn bolder and on top of the other roads; a road
/// one may not leave by (`Tulip.Road.noExit`, a roundabout's one-way arm into the ring) has a bar
/// across its end.
///
/// Every size is a fraction of the side of the square the tulip is fitted into, so the same
/// drawing reads at 40 mm in a road-book row and at 300 px on its own. Cost: O(roads + stroke points).
struct TulipPainter {
    let cairo: CairoContext
    /// Prints the exit number inside a roundabout's ring; without it the number is left out.
    let text: TextLayout?

    /// Proportions, as fractions of the side of the tulip's square.
    enum Proportion {
        /// How far below the centre the junction sits, so the entry is long enough to read and
        /// a road going straight on still has room above.
        static let junctionDrop = 0.06
        /// Length of the entry from the junction to the rider's dot: almost to the bottom edge.
        static let entryLength = 0.40
        /// Length of the exit from the junction to the arrow's tip.
        static let exitLength = 0.42
        /// Length of a side road: shorter than the route so the eye follows the route.
        static let sideLength = 0.32
        /// Radius of a roundabout's ring, to the middle of its line.
        static let ringRadius = 0.13
        /// Radius of the bend of a U-turn, so its two legs sit apart like a double line and a half.
        static let uTurnRadius = 0.11
        /// The rider's dot, radius (larger on a motorway, to stand out of its line).
        static let dotRadius = 0.048
        /// The arrowhead: length along the road and half its width.
        static let arrowLength = 0.13
        static let arrowHalfWidth = 0.075
        /// Hand-drawn strokes: line width.
        static let strokeWidth = 0.018
        /// Exit number in the ring: font size.
        static let ringDigitSize = 0.12
        /// Width of a roundabout's ring line: thin, the route drawn round it is what the eye follows.
        static let ringWidth = 0.022
        /// Side roads are drawn at this share of the route's line widths.
        static let sideScale = 0.62
        /// A U-turn is drawn as a bend rather than at its angle when the exit lies this close
        /// (degrees) to the entry, where a straight exit would be drawn over the entry.
        static let uTurnThreshold = 165.0
        /// The bar across the end of a road one may not leave by: half its length and its width,
        /// as wide as a tarmac road's line so it reads as a mark, not a road.
        static let noExitBarHalfLength = 0.055
        static let noExitBarWidth = 0.03
    }

    /// How one road class looks, in fractions of the square's side.
    struct Style: Equatable {
        /// Width of the black line; for a double line the outer width.
        var width: Double
        /// Width of the white inside of a double line; 0 for a solid line.
        var innerWidth: Double
        /// Dash pattern (on, off, …) in fractions of the side; empty for a solid line.
        var dashes: [Double]
        /// Round caps (dots for a dotted line), else butt caps.
        var roundCaps: Bool

        static func of(_ roadClass: Tulip.RoadClass) -> Style {
            switch roadClass {
            case .motorway: Style(width: 0.105, innerWidth: 0.05, dashes: [], roundCaps: false)
            case .tarmac: Style(width: 0.08, innerWidth: 0.044, dashes: [], roundCaps: false)
            case .gravel: Style(width: 0.055, innerWidth: 0, dashes: [], roundCaps: false)
            case .track: Style(width: 0.026, innerWidth: 0, dashes: [], roundCaps: false)
            case .path: Style(width: 0.02, innerWidth: 0, dashes: [0.055, 0.035], roundCaps: false)
            case .offPiste: Style(width: 0.028, innerWidth: 0, dashes: [0, 0.05], roundCaps: true)
            }
        }

        /// The same style thinner, for a side road.
        func scaled(_ k: Double) -> Style {
            Style(width: width * k, innerWidth: innerWidth * k, dashes: dashes, roundCaps: roundCaps)
        }
    }

    /// A point on the page, in points (y down, as in Cairo).
    struct Point: Equatable {
        var x: Double
        var y: Double
        static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
        static func * (a: Point, k: Double) -> Point { Point(x: a.x * k, y: a.y * k) }
    }

    /// One line to draw: a path of points in one style, with at most one arc in it.
    private struct Line {
        var points: [Point]
        var arc: Arc?
        var style: Style
        /// Part of entry → junction → exit, drawn on top.
        var isRoute: Bool
    }

    /// An arc round `centre` from `startAngle` to `endAngle` (Cairo angles, radians), drawn
    /// after the first `before` points and before the rest.
    private struct Arc {
        var centre: Point
        var radius: Double
        var startAngle: Double
        var endAngle: Double
        /// Clockwise on screen (Cairo's `cairo_arc`), else counterclockwise (`cairo_arc_negative`).
        var clockwiseOnScreen: Bool
        var before: Int
    }

    /// The unit vector of a turn angle on the page: 0 up, +90 right, 180 down.
    static func direction(_ angle: Degrees) -> Point {
        let a = angle * .pi / 180
        return Point(x: sin(a), y: -cos(a))
    }

    /// Cairo's angle (radians, from +x towards +y) of a turn angle.
    static func cairoAngle(_ angle: Degrees) -> Double { (angle - 90) * .pi / 180 }

    /// Draws `tulip` fitted into the largest square centred in `rect`. A tulip with no roads and
    /// no strokes draws nothing.
    /// - Throws: `RenderError` when a Cairo call failed.
    func draw(_ tulip: Tulip, in rect: Rect) throws {
        guard !(tulip.roads.isEmpty && tulip.strokes.isEmpty) else { return }
        let cr = cairo.handle
        let side = min(rect.width, rect.height)
        guard side > 0 else { return }
        let centre = Point(x: rect.x + rect.width / 2, y: rect.y + rect.height / 2)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_set_source_rgb(cr, 0, 0, 0)
        if !tulip.roads.isEmpty {
            drawRoads(of: tulip, centre: centre, side: side)
        }
        drawStrokes(tulip.strokes, centre: centre, side: side)
        try cairo.check("drawing a tulip")
    }

    // MARK: - Roads

    private func drawRoads(of given: Tulip, centre: Point, side: Double) {
        let junction = centre + Point(x: 0, y: Proportion.junctionDrop * side)
        let frame = Frame(centre: centre, side: side)
        // Each road at the angle it is drawn at; whether the exit turns back is its true angle's.
        var tulip = given
        for (i, angle) in TulipLayout.displayAngles(of: given).enumerated() { tulip.roads[i].angle = angle }
        let trueExit = given.exit?.angle ?? 0
        let turnsBack = abs(trueExit) >= Proportion.uTurnThreshold
        let ring = tulip.roundabout.map { _ in Proportion.ringRadius * side }
        let exit = tulip.exit
        // The rider always arrives from the bottom: a tulip without an entry road gets one in the
        // class of the road taken.
        let entry = tulip.entry ?? Tulip.Road(role: .entry, angle: 180, roadClass: exit?.roadClass ?? .tarmac)
        let start = ring ?? 0

        var lines: [Line] = []
        var bars: [(at: Point, direction: Point)] = []
        for road in tulip.roads where road.role == .side {
            let d = Self.direction(road.angle)
            let length = frame.length(Proportion.sideLength * side + start, from: junction, along: d)
            lines.append(Line(points: [junction + d * start, junction + d * length],
                              style: Style.of(road.roadClass).scaled(Proportion.sideScale), isRoute: false))
            if road.noExit {
                // Inside the road's end, so the bar's half length stays in the square.
                bars.append((junction + d * max(start, length - Proportion.noExitBarWidth * side), d))
            }
        }
        let entryDirection = Self.direction(entry.angle)
        // The dot stands out of the widest road (a motorway's double line).
        let dotRadius = max(Proportion.dotRadius, Style.of(entry.roadClass).width / 2 + 0.012) * side
        let dot = junction + entryDirection * frame.length(Proportion.entryLength * side, from: junction,
                                                           along: entryDirection, keeping: dotRadius)
        let arrowLength = Proportion.arrowLength * side
        var ringLine: Line?
        var arrow: (tip: Point, direction: Point)?

        if let roundabout = tulip.roundabout, let ring {
            // The ring is a thin line, so the route round it stands out.
            let ringStyle = Style(width: Proportion.ringWidth, innerWidth: 0, dashes: [], roundCaps: false)
            ringLine = Line(points: [], arc: Arc(centre: junction, radius: ring, startAngle: 0, endAngle: 2 * .pi,
                                                 clockwiseOnScreen: true, before: 0), style: ringStyle, isRoute: false)
            let entryOnRing = junction + entryDirection * ring
            if let exit {
                let d = Self.direction(exit.angle)
                let tip = junction + d * frame.length(ring + Proportion.exitLength * side * 0.85, from: junction, along: d)
                let from = Self.cairoAngle(entry.angle)
                var to = Self.cairoAngle(exit.angle)
                // Round the ring the way traffic goes: counterclockwise on the page unless clockwise.
                // An exit at the entry itself goes all the way round.
                if roundabout.clockwise {
                    while to <= from { to += 2 * .pi }
                } else {
                    while to >= from { to -= 2 * .pi }
                }
                let arc = Arc(centre: junction, radius: ring, startAngle: from, endAngle: to,
                              clockwiseOnScreen: roundabout.clockwise, before: 2)
                lines += routeLines([dot, entryOnRing, junction + d * ring, tip + d * -arrowLength], arc: arc,
                                    entry: entry, exit: exit)
                arrow = (tip, d)
            } else {
                lines.append(Line(points: [dot, entryOnRing], style: Style.of(entry.roadClass), isRoute: true))
            }
        } else if let exit {
            if turnsBack {
                // A U-turn: round a bend beside the junction and back down, parallel to the entry.
                // 180 turns left (driving on the right); a road just right of the entry turns right.
                let toRight = trueExit > 0 && trueExit < 180
                let radius = Proportion.uTurnRadius * side
                let offset = Point(x: toRight ? radius : -radius, y: 0)
                let bendCentre = junction + offset
                let arc = Arc(centre: bendCentre, radius: radius, startAngle: toRight ? .pi : 0,
                              endAngle: toRight ? 2 * .pi : .pi, clockwiseOnScreen: toRight, before: 2)
                let legStart = bendCentre + offset
                let down = Point(x: 0, y: 1)
                let tip = legStart + down * frame.length(Proportion.exitLength * side, from: legStart, along: down)
                lines += routeLines([dot, junction, legStart, tip + down * -arrowLength], arc: arc,
                                    entry: entry, exit: exit)
                arrow = (tip, down)
            } else {
                let d = Self.direction(exit.angle)
                let tip = junction + d * frame.length(Proportion.exitLength * side, from: junction, along: d)
                lines += routeLines([dot, junction, tip + d * -arrowLength], arc: nil, entry: entry, exit: exit)
                arrow = (tip, d)
            }
        } else {
            lines.append(Line(points: [dot, junction], style: Style.of(entry.roadClass), isRoute: true))
        }

        drawLayered(lines, ring: ringLine, side: side)
        for bar in bars { strokeBar(at: bar.at, across: bar.direction, side: side) }
        fillDot(at: dot, radius: dotRadius)
        if let arrow { fillArrow(tip: arrow.tip, direction: arrow.direction, side: side) }
        if let roundabout = tulip.roundabout { printExitNumber(roundabout.exitNumber, at: junction, side: side) }
    }

    /// The route as one line when entry and exit share a class, else the entry (its first two
    /// points) in its class and the rest in the exit's.
    private func routeLines(_ points: [Point], arc: Arc?, entry: Tulip.Road, exit: Tulip.Road) -> [Line] {
        if entry.roadClass == exit.roadClass {
            return [Line(points: points, arc: arc, style: Style.of(exit.roadClass), isRoute: true)]
        }
        var rest = arc
        rest?.before -= 1
        return [Line(points: Array(points.prefix(2)), style: Style.of(entry.roadClass), isRoute: true),
                Line(points: Array(points.dropFirst()), arc: rest, style: Style.of(exit.roadClass), isRoute: true)]
    }

    /// The square a tulip is drawn in, less a margin, so no road runs off it whatever its angle.
    private struct Frame {
        var centre: Point
        var side: Double
        /// Room kept between a road's end and the edge of the square, so line ends and arrowheads stay inside.
        static let margin = 0.035

        /// `wanted`, shortened so a road from `start` along the unit vector `d` ends inside the
        /// square with `keeping` points to spare.
        func length(_ wanted: Double, from start: Point, along d: Point, keeping: Double = 0) -> Double {
            let half = side / 2 - Self.margin * side - keeping
            var reach = Double.infinity
            if abs(d.x) > 1e-9 { reach = min(reach, ((d.x > 0 ? centre.x + half : centre.x - half) - start.x) / d.x) }
            if abs(d.y) > 1e-9 { reach = min(reach, ((d.y > 0 ? centre.y + half : centre.y - half) - start.y) / d.y) }
            return max(0, min(wanted, reach))
        }
    }

    /// Draws lines so they join as roads do on a map: first every black line, then every white
    /// inside of a double line (a road's inside runs into the one it meets), then the solid
    /// route lines again so no white inside cuts across them. Later lines (the route) lie on top.
    /// At a roundabout the side roads end at the ring, drawn after them, and the route goes over it.
    private func drawLayered(_ lines: [Line], ring: Line?, side: Double) {
        var layers = [lines]
        if let ring {
            let sides = lines.filter { !$0.isRoute }
            for line in sides { stroke(line, side: side, outline: true) }
            for line in sides { stroke(line, side: side, outline: false) }
            stroke(ring, side: side, outline: true)
            layers = [lines.filter(\.isRoute)]
        }
        for group in layers {
            for line in group { stroke(line, side: side, outline: true) }
            for line in group { stroke(line, side: side, outline: false) }
            for line in group where line.isRoute && line.style.innerWidth == 0 { stroke(line, side: side, outline: true) }
        }
    }

    /// Strokes the black line (`outline`) or the white inside of a double line.
    private func stroke(_ line: Line, side: Double, outline: Bool) {
        let cr = cairo.handle
        let style = line.style
        if !outline && style.innerWidth == 0 { return }
        trace(line)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cr, style.roundCaps ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT)
        if outline {
            cairo_set_source_rgb(cr, 0, 0, 0)
            cairo_set_line_width(cr, style.width * side)
            let dashes = style.dashes.map { $0 * side }
            cairo_set_dash(cr, dashes, Int32(dashes.count), 0)
        } else {
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_set_line_width(cr, style.innerWidth * side)
            cairo_set_dash(cr, nil, 0, 0)
        }
        cairo_stroke(cr)
        cairo_set_dash(cr, nil, 0, 0)
        cairo_set_source_rgb(cr, 0, 0, 0)
    }

    private func trace(_ line: Line) {
        let cr = cairo.handle
        cairo_new_path(cr)
        for (i, p) in line.points.enumerated() {
            if let arc = line.arc, arc.before == i { addArc(arc) }
            if i == 0 && line.arc?.before != 0 { cairo_move_to(cr, p.x, p.y) } else { cairo_line_to(cr, p.x, p.y) }
        }
        if let arc = line.arc, arc.before >= line.points.count { addArc(arc) }
    }

    private func addArc(_ arc: Arc) {
        let cr = cairo.handle
        if arc.clockwiseOnScreen {
            cairo_arc(cr, arc.centre.x, arc.centre.y, arc.radius, arc.startAngle, arc.endAngle)
        } else {
            cairo_arc_negative(cr, arc.centre.x, arc.centre.y, arc.radius, arc.startAngle, arc.endAngle)
        }
    }

    /// A bar across a road at `p`, square to its direction `d`: no way out along it.
    private func strokeBar(at p: Point, across d: Point, side: Double) {
        let cr = cairo.handle
        let half = Point(x: -d.y, y: d.x) * (Proportion.noExitBarHalfLength * side)
        cairo_new_path(cr)
        cairo_move_to(cr, p.x - half.x, p.y - half.y)
        cairo_line_to(cr, p.x + half.x, p.y + half.y)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_set_line_width(cr, Proportion.noExitBarWidth * side)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        cairo_set_dash(cr, nil, 0, 0)
        cairo_stroke(cr)
    }

    /// The rider's position: a filled dot where the entry starts.
    private func fillDot(at p: Point, radius: Double) {
        let cr = cairo.handle
        cairo_new_path(cr)
        cairo_arc(cr, p.x, p.y, radius, 0, 2 * .pi)
        cairo_fill(cr)
    }

    /// A filled arrowhead with its tip at `tip`, pointing along the unit vector `direction`.
    private func fillArrow(tip: Point, direction d: Point, side: Double) {
        let cr = cairo.handle
        let base = tip + d * -(Proportion.arrowLength * side)
        let normal = Point(x: -d.y, y: d.x) * (Proportion.arrowHalfWidth * side)
        cairo_new_path(cr)
        cairo_move_to(cr, tip.x, tip.y)
        cairo_line_to(cr, base.x + normal.x, base.y + normal.y)
        cairo_line_to(cr, base.x - normal.x, base.y - normal.y)
        cairo_close_path(cr)
        cairo_fill(cr)
    }

    /// Prints the exit number small in the middle of the ring, when a text layout was given.
    private func printExitNumber(_ number: Int, at junction: Point, side: Double) {
        guard let text else { return }
        let cr = cairo.handle
        let box = 2 * Proportion.ringRadius * side
        text.set(String(number), font: FontSpec(size: Proportion.ringDigitSize * side, bold: true), width: box,
                 alignment: PANGO_ALIGN_CENTER)
        let size = text.size
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_move_to(cr, junction.x - box / 2, junction.y - size.height / 2)
        text.show(in: cairo)
    }

    // MARK: - Hand-drawn strokes

    /// Thin lines through the stroke points, the tulip's square [−1, 1]² mapped onto the square
    /// of side `side` round `centre` (y up in the model, down on the page).
    private func drawStrokes(_ strokes: [[Tulip.Point]], centre: Point, side: Double) {
        let cr = cairo.handle
        let half = side / 2
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_set_line_width(cr, Proportion.strokeWidth * side)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_dash(cr, nil, 0, 0)
        for stroke in strokes where !stroke.isEmpty {
            cairo_new_path(cr)
            for (i, p) in stroke.enumerated() {
                let x = centre.x + p.x * half, y = centre.y - p.y * half
                if i == 0 { cairo_move_to(cr, x, y) } else { cairo_line_to(cr, x, y) }
            }
            // A single point is a dot: a zero-length segment with round caps.
            if stroke.count == 1 { cairo_rel_line_to(cr, 0, 0) }
            cairo_stroke(cr)
        }
    }
}
