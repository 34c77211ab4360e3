import Foundation
import Geo
import Model

/// The elevation chart of a route, laid out in a rectangle: distance across, height up, with
/// axis labels placed so none overlaps another. Pure geometry; `ProfilePainter` draws it.
public struct ProfileChart: Sendable, Equatable {
    /// An axis mark: where it sits along its axis (x for distance, y for height) and its label.
    public struct Tick: Sendable, Equatable {
        /// Page x of a distance tick, page y of a height tick, in points.
        public var position: Double
        public var label: String
        public var labelRect: Rect

        public init(position: Double, label: String, labelRect: Rect) {
            self.position = position
            self.label = label
            self.labelRect = labelRect
        }
    }

    /// A waypoint's place along the route, marked above the plot.
    public struct WaypointTick: Sendable, Equatable {
        /// Page x of the tick.
        public var x: Double
        /// The row the note prints as, 1-based.
        public var row: Int
        public var waypointType: WaypointType?
        /// The marker or row number as printed.
        public var label: String
        /// Where the label goes; nil when it would overlap a label already placed.
        public var labelRect: Rect?

        public init(x: Double, row: Int, waypointType: WaypointType?, label: String, labelRect: Rect?) {
            self.x = x
            self.row = row
            self.waypointType = waypointType
            self.label = label
            self.labelRect = labelRect
        }
    }

    /// The whole area given.
    public var frame: Rect
    /// The plot: heights from `heightRange.lowerBound` at its bottom to the upper bound at its top.
    public var plot: Rect
    /// The heights axis spans this, in metres (round numbers around the profile's band).
    public var heightRange: ClosedRange<Metres>
    /// The profile's own band, lowest to highest height, in metres.
    public var band: ClosedRange<Metres>
    /// The top of the filled area, left to right.
    public var curve: [PagePoint]
    public var heightTicks: [Tick]
    public var distanceTicks: [Tick]
    public var waypointTicks: [WaypointTick]
    /// Band, climb and descent, for example "900–2400 m  ↑ 1520 m  ↓ 20 m".
    public var summary: String
    public var summaryRect: Rect
    /// Font of the axis labels and the summary.
    public var font: FontSpec
    /// Font of the waypoint labels: the axis font in bold.
    public var waypointFont: FontSpec { FontSpec(family: font.family, size: font.size, bold: true) }

    /// A width no label reaches, for measuring one-line labels: finite, since Pango takes widths
    /// as 32-bit integers of 1/1024 point.
    static let unwrapped = 10_000.0

    /// The default label size: small, like a map's, yet above the 6 pt readable floor.
    public static let labelFont = FontSpec(size: 6.5)

    /// Lays out the chart of `profile` in `rect`.
    /// - Parameters:
    ///   - profile: must be complete (`isComplete`), else there is nothing to draw.
    ///   - notes: the book's notes; those on the route with a waypoint type, or made from a
    ///     waypoint or checkpoint, get a tick. Row numbers count every note on the route.
    ///   - routeLength: metres; the last height sits here (0 takes the profile's own length).
    ///   - units: of the distance labels.
    /// - Returns: nil for an incomplete profile, one with fewer than two heights, or a rectangle
    ///   too small to hold the axes. O(heights + notes) measurements.
    public static func layout(profile: Profile, notes: [Note], routeLength: Metres,
                              units: BookSettings.Units = .kilometres, in rect: Rect,
                              font: FontSpec = labelFont, measurer: some TextMeasurer) -> ProfileChart? {
        guard profile.isComplete, profile.heights.count >= 2, let band = profile.range else { return nil }
        let heights = profile.heights.map { $0 ?? 0 }
        let sampledLength = profile.spacing * Double(heights.count - 1)
        let length = routeLength > 0 ? routeLength : sampledLength
        guard length > 0 else { return nil }
        let lineHeight = measurer.measure("0", font: font, width: ProfileChart.unwrapped).height
        let gap = 3.0

        // Summary on top, waypoint labels under it, the plot, then distance labels.
        let summary = "\(metres(band.lowerBound))–\(metres(band.upperBound)) m   ↑ \(metres(profile.climb)) m   "
            + "↓ \(metres(profile.descent)) m"
        let summaryWidth = min(rect.width, measurer.measure(summary, font: font, width: rect.width).width)
        let summaryRect = Rect(x: rect.maxX - summaryWidth, y: rect.y, width: summaryWidth, height: lineHeight)
        let waypointRowTop = rect.y + lineHeight + 3
        // The top height label is centred on the plot's top edge: keep it clear of the waypoint labels.
        let plotTop = waypointRowTop + lineHeight + max(gap, lineHeight / 2 + 1)
        let plotBottom = rect.maxY - lineHeight - gap

        // Heights: round steps, three to six ticks depending on room.
        let targetTicks = min(6, max(2, Int(((plotBottom - plotTop) / (lineHeight * 1.3)).rounded(.down))))
        let span = max(band.upperBound - band.lowerBound, 10)
        let step = RoundNumber.atLeast(span / Double(targetTicks))
        let low = (band.lowerBound / step).rounded(.down) * step
        var high = (band.upperBound / step).rounded(.up) * step
        if high <= low { high = low + step }
        let heightLabels = stride(from: low, through: high + step * 1e-6, by: step).map { "\(metres($0)) m" }
        let labelWidth = heightLabels.map { measurer.measure($0, font: font, width: ProfileChart.unwrapped).width }
            .max() ?? 0
        let plot = Rect(x: rect.x + labelWidth + gap, y: plotTop, width: rect.maxX - rect.x - labelWidth - gap - 2,
                        height: plotBottom - plotTop)
        guard plot.width > 20, plot.height > 10 else { return nil }

        func x(_ distance: Metres) -> Double { plot.x + min(max(distance / length, 0), 1) * plot.width }
        func y(_ height: Metres) -> Double { plot.maxY - (height - low) / (high - low) * plot.height }

        let heightTicks = heightLabels.enumerated().map { i, label in
            let value = low + Double(i) * step
            return Tick(position: y(value), label: label,
                        labelRect: Rect(x: rect.x, y: y(value) - lineHeight / 2, width: labelWidth, height: lineHeight))
        }

        var curve: [PagePoint] = []
        curve.reserveCapacity(heights.count)
        for (i, h) in heights.enumerated() {
            let d = i == heights.count - 1 ? length : min(Double(i) * profile.spacing, length)
            curve.append(PagePoint(x: x(d), y: y(h)))
        }

        let distanceTicks = distanceAxis(length: length, units: units, plot: plot, labelTop: plotBottom + gap,
                                         lineHeight: lineHeight, font: font, measurer: measurer)

        // Waypoints: tick on the plot's top edge, label centred above it unless it would overlap.
        let waypointFont = FontSpec(family: font.family, size: font.size, bold: true)
        var waypointTicks: [WaypointTick] = []
        var placed: [Rect] = [summaryRect]
        for (row, note) in markedNotes(notes) {
            let label = note.marker.flatMap { $0.isEmpty ? nil : $0 } ?? String(row)
            let tx = x(note.distanceAlong)
            let w = measurer.measure(label, font: waypointFont, width: ProfileChart.unwrapped).width
            let left = min(max(tx - w / 2, rect.x), rect.maxX - w)
            let candidate = Rect(x: left, y: waypointRowTop, width: w, height: lineHeight)
            let fits = !placed.contains { $0.intersects(candidate, spacing: 2) }
            if fits { placed.append(candidate) }
            waypointTicks.append(WaypointTick(x: tx, row: row, waypointType: note.waypointType, label: label,
                                              labelRect: fits ? candidate : nil))
        }

        return ProfileChart(frame: rect, plot: plot, heightRange: low...high, band: band, curve: curve,
                            heightTicks: heightTicks, distanceTicks: distanceTicks, waypointTicks: waypointTicks,
                            summary: summary, summaryRect: summaryRect, font: font)
    }

    /// Notes that mark a place on the cover's map and chart, with their row numbers: those on the
    /// route that carry a waypoint type or were made from a waypoint or checkpoint.
    public static func markedNotes(_ notes: [Note]) -> [(row: Int, note: Note)] {
        notes.filter { $0.placement == .onRoute }.enumerated().compactMap { index, note in
            note.waypointType != nil || note.kind == .waypoint || note.kind == .checkpoint
                ? (index + 1, note) : nil
        }
    }

    /// Distance ticks at the smallest round step whose labels do not touch; the last label
    /// carries the unit.
    private static func distanceAxis(length: Metres, units: BookSettings.Units, plot: Rect, labelTop: Double,
                                     lineHeight: Double, font: FontSpec, measurer: some TextMeasurer) -> [Tick] {
        let unit = units == .kilometres ? 1000.0 : DistanceFormat.metresPerMile
        let total = length / unit
        var step = RoundNumber.atLeast(total / 12)
        while true {
            let values = stride(from: 0.0, through: total + step * 1e-6, by: step).map { $0 }
            let ticks = values.enumerated().map { i, value -> Tick in
                var label = number(value)
                if i == values.count - 1 { label += " " + DistanceFormat.label(units) }
                let w = measurer.measure(label, font: font, width: ProfileChart.unwrapped).width
                let px = plot.x + value / total * plot.width
                let left = min(max(px - w / 2, plot.x - w / 2), plot.maxX + 2 - w)
                return Tick(position: px, label: label,
                            labelRect: Rect(x: i == 0 ? px - w / 2 : left, y: labelTop, width: w, height: lineHeight))
            }
            let overlaps = zip(ticks, ticks.dropFirst()).contains { $0.labelRect.maxX + 4 > $1.labelRect.x }
            if !overlaps || values.count <= 2 { return ticks }
            step = RoundNumber.atLeast(step * 1.5)
        }
    }

    private static func metres(_ value: Metres) -> String { String(Int(value.rounded())) }

    private static func number(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        var text = String(format: "%.3f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}

extension Rect {
    /// True when the rectangles come closer than `spacing` points.
    public func intersects(_ other: Rect, spacing: Double = 0) -> Bool {
        x < other.maxX + spacing && other.x < maxX + spacing && y < other.maxY + spacing && other.y < maxY + spacing
    }
}
