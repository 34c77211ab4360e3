import Foundation
import Geo
import Model

/// One thing drawn on the cover: a frame, a band, or a text fitted into its rectangle.
public struct CoverBox: Sendable, Equatable {
    /// What the box is; Render draws each kind its own way.
    public enum Kind: String, Sendable, CaseIterable {
        /// The dark title band across the top.
        case banner
        case title
        /// Rally, stage and date.
        case info
        /// A framed cell of the figures strip, holding a caption and a value.
        case statCell
        case statCaption
        case statValue
        /// Frames of the map, profile and legend areas.
        case mapFrame, profileFrame, legendFrame
        /// The small capitals heading an area ("ROUTE", "ELEVATION", "LEGEND").
        case sectionTitle
        /// A legend sample (tag, marker, box) and its meaning.
        case legendSample
        case legendMeaning
        /// Where the route and the heights came from.
        case footer
    }

    public var kind: Kind
    /// Where the box sits on the page, in points.
    public var rect: Rect
    /// The text to draw, fitted to `rect`; nil for frames and bands.
    public var text: String?
    /// The font the text fits in (already shrunk when it had to be).
    public var font: FontSpec?
    public var horizontal: Box.HorizontalAlignment
    public var vertical: Box.VerticalAlignment
    /// The text did not fit even at the minimum size and is cut off at the box's edge.
    public var clipped: Bool
    /// For a legend sample: what to draw.
    public var symbol: LegendEntry.Symbol?

    public init(kind: Kind, rect: Rect, text: String? = nil, font: FontSpec? = nil,
                horizontal: Box.HorizontalAlignment = .left, vertical: Box.VerticalAlignment = .top,
                clipped: Bool = false, symbol: LegendEntry.Symbol? = nil) {
        self.kind = kind
        self.rect = rect
        self.text = text
        self.font = font
        self.horizontal = horizontal
        self.vertical = vertical
        self.clipped = clipped
        self.symbol = symbol
    }
}

/// The map of the cover: the route to scale, north up, with its markers.
public struct CoverMap: Sendable, Equatable {
    /// A point of interest on the map.
    public struct Marker: Sendable, Equatable {
        public enum Kind: String, Sendable { case start, finish, waypoint }
        public var kind: Kind
        public var point: PagePoint
        /// The row the note prints as; nil for start and finish.
        public var row: Int?
        public var waypointType: WaypointType?
        /// The marker or row number as printed.
        public var label: String
        /// Where the label goes; nil when every place beside the marker was taken.
        public var labelRect: Rect?

        public init(kind: Kind, point: PagePoint, row: Int? = nil, waypointType: WaypointType? = nil, label: String,
                    labelRect: Rect?) {
            self.kind = kind
            self.point = point
            self.row = row
            self.waypointType = waypointType
            self.label = label
            self.labelRect = labelRect
        }
    }

    /// A stretch of the route line that runs one way (`RouteStretches`), drawn in its own style:
    /// solid along roads, dashed in a straight line, dotted as drawn.
    public struct Stretch: Sendable, Equatable {
        public var kind: LegKind
        /// Its points on the page, thinned as `route` is; it begins where the stretch before ends.
        public var points: [PagePoint]

        public init(kind: LegKind, points: [PagePoint]) {
            self.kind = kind
            self.points = points
        }
    }

    /// The map area; everything of the map lies inside it.
    public var frame: Rect
    /// Page points per metre on the ground, on both axes.
    public var pointsPerMetre: Double
    /// The route line, thinned to what the page can show.
    public var route: [PagePoint]
    /// The route line cut where the way it runs changes, in route order: one `.road` stretch for a
    /// route all along roads.
    public var stretches: [Stretch]
    /// Waypoints first, then start and finish on top.
    public var markers: [CoverMap.Marker]
    public var markerRadius: Double
    public var labelFont: FontSpec
    public var scaleBar: ScaleBar
    /// The left end of the scale bar, on its baseline.
    public var scaleBarOrigin: PagePoint
    /// The scale bar's label, above the bar.
    public var scaleLabelRect: Rect
    /// The square the north arrow is drawn in.
    public var northArrow: Rect
    /// The letter on the north arrow, in the book's language.
    public var northLabel = "N"
}

/// The laid-out cover page of a book.
public struct CoverPage: Sendable, Equatable {
    public var size: PageSize
    /// In drawing order: bands and frames before the texts inside them.
    public var boxes: [CoverBox]
    /// Nil when the route has no points.
    public var map: CoverMap?
    /// Nil when the book has no complete profile.
    public var profile: ProfileChart?
    public var legend: [LegendEntry]

    /// A stable, line-per-item text form of the cover for golden tests: boxes as in
    /// `PageLayout.dump()`, then the map, the chart and the legend (points, two decimals).
    public func dump() -> String {
        func n(_ v: Double) -> String { String(format: "%.2f", v) }
        func r(_ rect: Rect) -> String { [rect.x, rect.y, rect.width, rect.height].map(n).joined(separator: " ") }
        func p(_ point: PagePoint) -> String { "(\(n(point.x)), \(n(point.y)))" }
        var lines = ["cover size \(n(size.width)) x \(n(size.height))"]
        for box in boxes {
            var line = box.kind.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0) + r(box.rect)
            if let text = box.text {
                if let font = box.font { line += " \(n(font.size))pt" + (font.bold ? " bold" : "") }
                line += " \(box.horizontal.rawValue)/\(box.vertical.rawValue)"
                if box.clipped { line += " CLIPPED" }
                line += " \"" + text.replacingOccurrences(of: "\n", with: "\\n") + "\""
            }
            lines.append(line)
        }
        if let map {
            lines.append("map \(r(map.frame)) scale \(String(format: "%.6f", map.pointsPerMetre)) pt/m")
            lines.append("  route \(map.route.count) points from \(p(map.route.first ?? PagePoint(x: 0, y: 0))) "
                         + "to \(p(map.route.last ?? PagePoint(x: 0, y: 0)))")
            if map.stretches.contains(where: { $0.kind != .road }) {
                for s in map.stretches {
                    let (from, to) = (s.points.first ?? PagePoint(x: 0, y: 0), s.points.last ?? PagePoint(x: 0, y: 0))
                    lines.append("  stretch \(s.kind.rawValue) \(s.points.count) points from \(p(from)) to \(p(to))")
                }
            }
            for m in map.markers {
                var line = "  marker \(m.kind.rawValue) \(p(m.point))"
                if let row = m.row { line += " row \(row)" }
                if let type = m.waypointType { line += " \(type.rawValue)" }
                line += " \"\(m.label)\"" + (m.labelRect.map { " at " + r($0) } ?? " unlabelled")
                lines.append(line)
            }
            lines.append("  scale bar \"\(map.scaleBar.label)\" \(n(map.scaleBar.length)) m drawn \(n(map.scaleBar.drawnLength)) "
                         + "from \(p(map.scaleBarOrigin))")
            lines.append("  north arrow \(r(map.northArrow))")
        }
        if let chart = profile {
            lines.append("profile \(r(chart.frame)) plot \(r(chart.plot)) heights \(n(chart.heightRange.lowerBound))"
                         + "...\(n(chart.heightRange.upperBound)) \"\(chart.summary)\"")
            lines.append("  curve \(chart.curve.count) points")
            lines.append("  heights " + chart.heightTicks.map { "\($0.label)@\(n($0.position))" }.joined(separator: " "))
            lines.append("  distances " + chart.distanceTicks.map { "\($0.label)@\(n($0.position))" }.joined(separator: " "))
            for t in chart.waypointTicks {
                lines.append("  waypoint row \(t.row) \"\(t.label)\" x \(n(t.x))" + (t.labelRect == nil ? " unlabelled" : ""))
            }
        }
        for entry in legend {
            let symbol: String = switch entry.symbol {
            case .waypointType(let type): "type \(type.rawValue)"
            case .danger(let level): "danger \(level)"
            case .leg(let kind): "leg \(kind.rawValue)"
            default: "\(entry.symbol)"
            }
            lines.append("legend \(symbol) \"\(entry.sample)\" \(entry.meaning)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Lays out the cover: title band, the book's figures, the route map, the elevation profile
/// (when the book has complete terrain) and the legend. Pure: text is measured through the
/// `TextMeasurer` handed in.
public enum CoverLayout {
    /// Sizes for an A5 page; other page sizes scale them by page width.
    static let titleSize = 22.0, infoSize = 10.0, captionSize = 6.5, valueSize = 14.0, sectionSize = 7.0,
               legendSize = 7.5, markerLabelSize = 7.0, footerSize = 6.5
    /// Vertical space between areas, in points (A5).
    static let gap = 8.0
    /// The map is never squeezed below this share of the page height: it is the cover's point.
    static let minimumMapShare = 0.25

    /// Lays out the cover of `book` on a page of `template`'s size, inside its margins, its words in
    /// the book's language (`BookSettings.language`).
    /// O(route points + notes) plus a few measurements per text.
    public static func layout(book: Book, template: PageTemplate, measurer: some TextMeasurer) -> CoverPage {
        let words = Phrasebook.of(book.settings.language)
        let k = template.pageSize.width / PageSize.a5.width
        let fitter = Fitter(measurer: measurer, minimumSize: template.minimumFontSize)
        let m = template.margins
        let content = Rect(x: m.left, y: m.top, width: template.pageSize.width - m.left - m.right,
                           height: template.pageSize.height - m.top - m.bottom)
        var boxes: [CoverBox] = []
        func text(_ kind: CoverBox.Kind, _ string: String, _ font: FontSpec, _ rect: Rect,
                  _ horizontal: Box.HorizontalAlignment = .left, _ vertical: Box.VerticalAlignment = .top,
                  symbol: LegendEntry.Symbol? = nil) {
            let (fitted, clipped) = fitter.fit(string, font, rect)
            boxes.append(CoverBox(kind: kind, rect: rect, text: string, font: fitted, horizontal: horizontal,
                                  vertical: vertical, clipped: clipped, symbol: symbol))
        }

        // Title band.
        let info = [book.rally, book.stage, book.date, book.description].compactMap { $0 }.filter { !$0.isEmpty }
        let pad = 10 * k
        let titleHeight = titleSize * k * 1.35, infoHeight = info.isEmpty ? 0 : infoSize * k * 1.5
        let banner = Rect(x: content.x, y: content.y, width: content.width, height: 2 * pad + titleHeight + infoHeight)
        boxes.append(CoverBox(kind: .banner, rect: banner))
        text(.title, book.title, FontSpec(size: titleSize * k, bold: true),
             Rect(x: banner.x + pad, y: banner.y + pad, width: banner.width - 2 * pad, height: titleHeight),
             .left, .bottom)
        if !info.isEmpty {
            text(.info, info.joined(separator: "  ·  "), FontSpec(size: infoSize * k),
                 Rect(x: banner.x + pad, y: banner.y + pad + titleHeight, width: banner.width - 2 * pad,
                      height: infoHeight), .left, .middle)
        }

        // Figures strip.
        let routeLength = Polyline(book.route.coordinates).length
        let units = book.settings.units
        var figures = [(words[.coverDistance], "\(DistanceFormat.text(routeLength, units: units)) \(DistanceFormat.label(units))"),
                       (words[.coverRows], String(RowContent.count(of: book)))]
        let complete = book.profile?.isComplete == true ? book.profile : nil
        if let profile = complete {
            figures.append((words[.coverClimb], "\(Int(profile.climb.rounded())) m"))
            figures.append((words[.coverDescent], "\(Int(profile.descent.rounded())) m"))
            if let range = profile.range { figures.append((words[.coverHighest], "\(Int(range.upperBound.rounded())) m")) }
        }
        let stripTop = banner.maxY + gap * k
        let captionHeight = captionSize * k * 1.4, valueHeight = valueSize * k * 1.3
        let cellPad = 4 * k
        let stripHeight = 2 * cellPad + captionHeight + valueHeight
        let cellGap = 4 * k
        let cellWidth = (content.width - cellGap * Double(figures.count - 1)) / Double(figures.count)
        for (i, (caption, value)) in figures.enumerated() {
            let cell = Rect(x: content.x + Double(i) * (cellWidth + cellGap), y: stripTop, width: cellWidth,
                            height: stripHeight)
            boxes.append(CoverBox(kind: .statCell, rect: cell))
            let inner = cell.inset(by: cellPad)
            text(.statCaption, caption, FontSpec(size: captionSize * k, bold: true),
                 Rect(x: inner.x, y: inner.y, width: inner.width, height: captionHeight))
            text(.statValue, value, FontSpec(size: valueSize * k, bold: true),
                 Rect(x: inner.x, y: inner.y + captionHeight, width: inner.width, height: valueHeight), .left, .bottom)
        }

        // Footer, legend and profile from the bottom up; the map takes what is left.
        var bottom = content.maxY
        // A book asked for terrain that some of the route lacks says so, as the rally app does.
        let noTerrain = book.profile != nil && complete == nil ? words[.coverNoTerrain] : nil
        let sources = [book.route.source.map { words.text(.coverRouteSource, ["source": $0]) },
                       book.route.straightSummary(in: words),
                       complete?.source.map { words.text(.coverTerrainSource, ["source": $0]) }, noTerrain]
            .compactMap { $0 }
        if !sources.isEmpty {
            let h = footerSize * k * 1.4
            text(.footer, sources.joined(separator: "   ·   "), FontSpec(size: footerSize * k),
                 Rect(x: content.x, y: bottom - h, width: content.width, height: h), .right, .bottom)
            bottom -= h + gap * k * 0.5
        }

        let legend = Legend.entries(for: book)
        let sectionHeight = sectionSize * k * 1.5
        var legendBoxes: [CoverBox] = []
        if !legend.isEmpty {
            let lineHeight = legendSize * k * 1.75
            let columns = 2
            let perColumn = (legend.count + columns - 1) / columns
            let height = sectionHeight + Double(perColumn) * lineHeight + 2 * cellPad
            let frame = Rect(x: content.x, y: bottom - height, width: content.width, height: height)
            legendBoxes.append(CoverBox(kind: .legendFrame, rect: frame))
            let titleRect = Rect(x: frame.x + cellPad, y: frame.y + cellPad, width: frame.width - 2 * cellPad,
                                 height: sectionHeight)
            let columnWidth = (frame.width - 2 * cellPad) / Double(columns)
            let sampleWidth = legendSize * k * 5
            var legendTexts: [CoverBox] = []
            for (i, entry) in legend.enumerated() {
                let column = i / perColumn, line = i % perColumn
                let x = frame.x + cellPad + Double(column) * columnWidth
                let y = titleRect.maxY + Double(line) * lineHeight
                let sample = Rect(x: x, y: y + lineHeight * 0.1, width: sampleWidth, height: lineHeight * 0.8)
                let (font, clipped) = fitter.fit(entry.sample.isEmpty ? " " : entry.sample,
                                                 FontSpec(size: legendSize * k, bold: true), sample)
                legendTexts.append(CoverBox(kind: .legendSample, rect: sample, text: entry.sample, font: font,
                                            horizontal: .center, vertical: .middle, clipped: clipped,
                                            symbol: entry.symbol))
                let meaningRect = Rect(x: sample.maxX + 5 * k, y: y, width: columnWidth - sampleWidth - 9 * k,
                                       height: lineHeight)
                let (meaningFont, meaningClipped) = fitter.fit(entry.meaning, FontSpec(size: legendSize * k),
                                                               meaningRect)
                legendTexts.append(CoverBox(kind: .legendMeaning, rect: meaningRect, text: entry.meaning,
                                            font: meaningFont, vertical: .middle, clipped: meaningClipped))
            }
            let (titleFont, titleClipped) = fitter.fit(words[.coverLegend], FontSpec(size: sectionSize * k, bold: true), titleRect)
            legendBoxes.append(CoverBox(kind: .sectionTitle, rect: titleRect, text: words[.coverLegend], font: titleFont,
                                        clipped: titleClipped))
            legendBoxes += legendTexts
            bottom = frame.y - gap * k
        }

        var profileBoxes: [CoverBox] = []
        var chart: ProfileChart?
        let mapTop = stripTop + stripHeight + gap * k
        if let profile = complete {
            let height = min(130 * k, max(85 * k, (bottom - mapTop) * 0.38))
            let minimumMap = template.pageSize.height * minimumMapShare
            if bottom - height - gap * k - mapTop >= minimumMap {
                let frame = Rect(x: content.x, y: bottom - height, width: content.width, height: height)
                let titleRect = Rect(x: frame.x + cellPad, y: frame.y + cellPad, width: frame.width / 3,
                                     height: sectionHeight)
                chart = ProfileChart.layout(profile: profile, notes: book.notes, routeLength: routeLength, units: units,
                                            in: frame.inset(by: cellPad),
                                            font: FontSpec(size: ProfileChart.labelFont.size * k), measurer: measurer)
                if chart != nil {
                    profileBoxes.append(CoverBox(kind: .profileFrame, rect: frame))
                    let (font, clipped) = fitter.fit(words[.profileTitle], FontSpec(size: sectionSize * k, bold: true), titleRect)
                    profileBoxes.append(CoverBox(kind: .sectionTitle, rect: titleRect, text: words[.profileTitle], font: font,
                                                 clipped: clipped))
                    bottom = frame.y - gap * k
                }
            }
        }

        let mapFrame = Rect(x: content.x, y: mapTop, width: content.width, height: max(0, bottom - mapTop))
        boxes.append(CoverBox(kind: .mapFrame, rect: mapFrame))
        let mapTitle = Rect(x: mapFrame.x + cellPad, y: mapFrame.y + cellPad, width: mapFrame.width / 3,
                            height: sectionHeight)
        let (mapTitleFont, mapTitleClipped) = fitter.fit(words[.coverRoute], FontSpec(size: sectionSize * k, bold: true), mapTitle)
        let map = layoutMap(book: book, in: mapFrame, scale: k, avoiding: mapTitle, measurer: measurer, words: words)
        boxes.append(CoverBox(kind: .sectionTitle, rect: mapTitle, text: words[.coverRoute], font: mapTitleFont,
                              clipped: mapTitleClipped))
        boxes += profileBoxes + legendBoxes

        return CoverPage(size: template.pageSize, boxes: boxes, map: map, profile: chart, legend: legend)
    }

    /// Printed when the book has a profile with heights missing for part of the route (English;
    /// the cover prints the book's language's `coverNoTerrain`).
    public static let noTerrainText = Phrasebook.english[.coverNoTerrain]

    /// The map: the route fitted into `frame` (inset so markers and labels stay inside) and cut into
    /// its stretches (`RouteStretches`), its markers with labels placed clear of each other, the scale bar bottom left and the north
    /// arrow top right.
    static func layoutMap(book: Book, in frame: Rect, scale k: Double, avoiding title: Rect,
                          measurer: some TextMeasurer, words: Phrasebook = .english) -> CoverMap? {
        let coordinates = book.route.coordinates
        let markerRadius = 4 * k
        let arrowSide = 26 * k
        let margin = 12 * k
        // Room for the title, north arrow and scale bar along the edges.
        let fitRect = Rect(x: frame.x + margin, y: frame.y + margin + arrowSide * 0.6,
                           width: frame.width - 2 * margin, height: frame.height - 2 * margin - arrowSide * 1.1)
        guard !coordinates.isEmpty, fitRect.width > 0, fitRect.height > 0,
              let projection = MapProjection(fitting: coordinates, into: fitRect) else { return nil }
        let route = projection.line(through: coordinates)
        let stretches = RouteStretches.of(book).map {
            CoverMap.Stretch(kind: $0.kind, points: projection.line(through: Array(coordinates[$0.points])))
        }
        let font = FontSpec(size: markerLabelSize * k, bold: true)

        let scaleBar = ScaleBar.fitting(maximumWidth: frame.width * 0.3, pointsPerMetre: projection.pointsPerMetre,
                                        units: book.settings.units)
        let barOrigin = PagePoint(x: frame.x + margin, y: frame.maxY - margin)
        let scaleLabelSize = measurer.measure(scaleBar.label, font: font, width: ProfileChart.unwrapped)
        let scaleLabel = Rect(x: barOrigin.x, y: barOrigin.y - 4 * k - 2 - scaleLabelSize.height,
                              width: scaleLabelSize.width, height: scaleLabelSize.height)
        let northArrow = Rect(x: frame.maxX - margin * 0.6 - arrowSide, y: frame.y + margin * 0.6, width: arrowSide,
                              height: arrowSide)
        let scaleArea = Rect(x: barOrigin.x, y: scaleLabel.y, width: max(scaleBar.drawnLength, scaleLabel.width),
                             height: barOrigin.y + 2 - scaleLabel.y)

        // Start and finish first in the placement, so their labels win the best places.
        var pending: [CoverMap.Marker] = []
        if let first = coordinates.first, let last = coordinates.last {
            pending.append(CoverMap.Marker(kind: .start, point: projection.point(for: first), label: words[.coverStart],
                                           labelRect: nil))
            if coordinates.count >= 2 {
                pending.append(CoverMap.Marker(kind: .finish, point: projection.point(for: last), label: words[.coverFinish],
                                               labelRect: nil))
            }
        }
        for (row, note) in ProfileChart.markedNotes(book.notes) {
            let label = note.marker.flatMap { $0.isEmpty ? nil : $0 } ?? String(row)
            pending.append(CoverMap.Marker(kind: .waypoint, point: projection.point(for: note.coordinate), row: row,
                                           waypointType: note.waypointType, label: label, labelRect: nil))
        }
        var taken = [title, northArrow, scaleArea]
        taken += pending.map { Rect(x: $0.point.x - markerRadius, y: $0.point.y - markerRadius,
                                    width: 2 * markerRadius, height: 2 * markerRadius) }
        let inside = frame.inset(by: 2)
        for i in pending.indices {
            let size = measurer.measure(pending[i].label, font: font, width: ProfileChart.unwrapped)
            let p = pending[i].point, d = markerRadius + 2
            let candidates = [
                Rect(x: p.x + d, y: p.y - size.height / 2, width: size.width, height: size.height),
                Rect(x: p.x - d - size.width, y: p.y - size.height / 2, width: size.width, height: size.height),
                Rect(x: p.x - size.width / 2, y: p.y - d - size.height, width: size.width, height: size.height),
                Rect(x: p.x - size.width / 2, y: p.y + d, width: size.width, height: size.height),
                Rect(x: p.x + d * 0.7, y: p.y - d * 0.7 - size.height, width: size.width, height: size.height),
                Rect(x: p.x - d * 0.7 - size.width, y: p.y + d * 0.7, width: size.width, height: size.height),
            ]
            // Best a place clear of the route too; else one clear of other labels (the halo keeps it legible).
            let free = candidates.filter { c in inside.contains(c) && !taken.contains { $0.intersects(c) } }
            if let spot = free.first(where: { !crosses(route, $0.inset(by: -1)) }) ?? free.first {
                pending[i].labelRect = spot
                taken.append(spot)
            }
        }
        // Draw waypoints under start and finish.
        let markers = pending.filter { $0.kind == .waypoint } + pending.filter { $0.kind != .waypoint }
        return CoverMap(frame: frame, pointsPerMetre: projection.pointsPerMetre, route: route, stretches: stretches,
                        markers: markers, markerRadius: markerRadius, labelFont: font, scaleBar: scaleBar, scaleBarOrigin: barOrigin,
                        scaleLabelRect: scaleLabel, northArrow: northArrow, northLabel: words[.coverNorth])
    }

    /// True when the line through `points` enters `rect`. O(points).
    static func crosses(_ points: [PagePoint], _ rect: Rect) -> Bool {
        func inside(_ p: PagePoint) -> Bool { p.x >= rect.x && p.x <= rect.maxX && p.y >= rect.y && p.y <= rect.maxY }
        if let first = points.first, inside(first) { return true }
        for (a, b) in zip(points, points.dropFirst()) {
            if max(a.x, b.x) < rect.x || min(a.x, b.x) > rect.maxX || max(a.y, b.y) < rect.y || min(a.y, b.y) > rect.maxY {
                continue
            }
            if inside(b) { return true }
            // Clip the segment to the rectangle (Liang–Barsky): it enters when the window is non-empty.
            var t0 = 0.0, t1 = 1.0
            let dx = b.x - a.x, dy = b.y - a.y
            var enters = true
            for (p, q) in [(-dx, a.x - rect.x), (dx, rect.maxX - a.x), (-dy, a.y - rect.y), (dy, rect.maxY - a.y)] {
                if p == 0 {
                    if q < 0 { enters = false; break }
                } else {
                    let t = q / p
                    if p < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
                    if t0 > t1 { enters = false; break }
                }
            }
            if enters { return true }
        }
        return false
    }
}
