import CCairo
import CPango
import Foundation
import Layout
import Model

/// Draws the boxes of a page with Cairo and Pango. Each kind of box has one look; sizes of lines
/// are here, colours come from the template.
final class PagePainter {
    let cairo: CairoContext
    let template: PageTemplate
    let text: TextLayout
    let warn: @Sendable (String) -> Void
    /// The pictograms of the symbols the pages draw.
    let pictograms: Pictograms
    /// Families already reported missing, so the warning is said once per run.
    private static let warnedFamilies = WarnedOnce()
    /// Texts already reported for missing glyphs, so a warning is said once.
    private var reported: Set<String> = []

    /// Line widths in points: cell frames thin enough to leave room for writing, the header rule bolder.
    static let frameWidth = 0.8
    static let headerRuleWidth = 1.5

    init(cairo: CairoContext, template: PageTemplate, pictograms: Pictograms? = nil,
         warn: @escaping @Sendable (String) -> Void) throws {
        self.cairo = cairo
        self.template = template
        self.warn = warn
        self.pictograms = pictograms ?? Pictograms(warn: warn)
        let fontMap = try FontMap()
        let family = template.fonts.noteText.family
        if !fontMap.families.contains(family), Self.warnedFamilies.insert(family) {
            warn("the template's font family \"\(family)\" is not installed (have: \(fontMap.families.sorted().joined(separator: ", "))); text prints in a substitute")
        }
        let context = try TextContext(fontMap: fontMap)
        context.update(from: cairo)
        text = try TextLayout(context: context)
    }

    /// Measures with the layout this painter draws with.
    var measurer: PangoMeasurer { PangoMeasurer(layout: text) }

    /// Draws a page of the document: the cover, or a page of rows.
    func draw(_ page: BookRenderer.DocumentPage) throws {
        switch page {
        case .cover(let cover):
            try CoverPainter(cairo: cairo, text: text).draw(cover)
            text.clearCache()
            try cairo.check("drawing the cover")
        case .rows(let rows):
            try draw(rows)
        }
    }

    func draw(_ page: PageLayout) throws {
        let cr = cairo.handle
        cairo_save(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        // Every box sets the colour and line width it draws with, so only a clipped box needs the
        // state saved: each save and restore is a q/Q pair in the PDF, and the text after a restore
        // selects its font again.
        for box in page.boxes {
            if box.clipped { cairo_save(cr) }
            if let symbol = box.symbol, let image = pictograms.images[symbol] {
                do { try image.draw(in: box.rect, on: cr) } catch { pictograms.say("\(error)") }
                setColour(template.colours.ink)
            } else {
                try decorate(box)
            }
            if let string = box.text, let font = box.font { show(string, font: font, in: box) }
            if box.clipped { cairo_restore(cr) }
        }
        cairo_restore(cr)
        text.clearCache()
        try cairo.check("drawing page \(page.pageNumber)")
    }

    private func setColour(_ c: Colour) { cairo_set_source_rgb(cairo.handle, c.red, c.green, c.blue) }

    /// Frames and backgrounds; leaves the source colour set for the box's text.
    private func decorate(_ box: Box) throws {
        let cr = cairo.handle
        let r = box.rect
        let colours = template.colours
        setColour(colours.ink)
        // Text leaves a current point behind; a shape must not start from it.
        cairo_new_path(cr)
        switch box.kind {
        case .header:
            cairo_set_line_width(cr, Self.headerRuleWidth)
            cairo_move_to(cr, r.x, r.maxY - Self.headerRuleWidth / 2)
            cairo_line_to(cr, r.maxX, r.maxY - Self.headerRuleWidth / 2)
            cairo_stroke(cr)
        case .nearNext:
            setColour(colours.nearNext)
            cairo_rectangle(cr, r.x, r.y, r.width, r.height)
            cairo_fill(cr)
        case .distanceCell, .notesCell, .partialDistance, .timeCell:
            frame(r)
        case .tulipCell:
            frame(r)
            if let tulip = box.tulip {
                try TulipPainter(cairo: cairo, text: text).draw(tulip, in: r.inset(by: template.cellPadding * 2))
                setColour(colours.ink)
            }
        case .cap:
            cairo.roundedRectangle(r, radius: 2.5)
            setColour(colours.cap)
            cairo_fill_preserve(cr)
            setColour(colours.ink)
            cairo_set_line_width(cr, 0.6)
            cairo_stroke(cr)
        case .waypointType:
            cairo.roundedRectangle(r, radius: 2)
            if let type = box.text.flatMap(WaypointType.init(name:)), let c = colours.waypoints[type] { setColour(c) }
            cairo_fill(cr)
            cairo_set_source_rgb(cr, 1, 1, 1)
        case .symbol, .speedChange:
            cairo.roundedRectangle(r, radius: 1.5)
            cairo_set_line_width(cr, box.kind == .speedChange ? 1.2 : 0.6)
            cairo_stroke(cr)
        case .sectionStart, .sectionFinish:
            // Tagged as the section's DSS and ASS are.
            cairo.roundedRectangle(r, radius: 2)
            if let c = colours.waypoints[box.kind == .sectionStart ? .dss : .ass] { setColour(c) }
            cairo_fill(cr)
            cairo_set_source_rgb(cr, 1, 1, 1)
        case .speedLimit, .speedLimitEnd:
            // A speed sign: the limit in a red ring (DZ); at the zone's end (FZ) a grey ring with
            // the limit struck through, as on road signs.
            let end = box.kind == .speedLimitEnd
            let radius = min(r.width, r.height) / 2
            let cx = r.x + r.width / 2, cy = r.y + r.height / 2
            cairo_arc(cr, cx, cy, radius - radius * 0.09, 0, 2 * .pi)
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_fill_preserve(cr)
            if end { cairo_set_source_rgb(cr, 0.45, 0.45, 0.45) } else { setColour(colours.danger) }
            cairo_set_line_width(cr, radius * 0.18)
            cairo_stroke(cr)
            if end {
                let d = radius * 0.7
                cairo_move_to(cr, cx - d, cy + d)
                cairo_line_to(cr, cx + d, cy - d)
                cairo_set_line_width(cr, radius * 0.12)
                cairo_stroke(cr)
                cairo_set_source_rgb(cr, 0.45, 0.45, 0.45)
            } else {
                setColour(colours.ink)
            }
        case .odometerReset, .danger:
            setColour(box.kind == .danger ? colours.danger : colours.reset)
        case .dangerHigh:
            cairo.roundedRectangle(r, radius: 1.5)
            setColour(colours.danger)
            cairo_set_line_width(cr, 1.6)
            cairo_stroke(cr)
        case .rowNumber, .footer, .headerInfo, .elevation, .lexiconGroup:
            cairo_set_source_rgb(cr, 0.3, 0.3, 0.3)
        case .headerTitle, .headerUnits, .headerTime, .totalDistance, .totalDistanceHundredths, .marker, .noteText, .idealTime,
             .lexiconTitle, .lexiconMeaning:
            break
        }
    }

    /// Draws `string` aligned in the box from the layout shaped when the page was measured; a
    /// clipped box cuts its text at the box's edge with an ellipsis.
    private func show(_ string: String, font: FontSpec, in box: Box) {
        let cr = cairo.handle
        let r = box.rect
        let layout = text.shapedLayout(.init(text: string, font: font, width: r.width, markup: box.markup,
                                             maximumHeight: box.clipped ? r.height : nil))
        let unknown = Int(pango_layout_get_unknown_glyphs_count(layout))
        if unknown > 0, reported.insert(string).inserted {
            let plain = box.markup ? NoteMarkup.plainText(ofMarkup: string) : string
            warn("\(unknown) character(s) of \"\(plain)\" are missing from the font \(font.family); they print as boxes")
        }
        let size = text.size(of: layout)
        // Lines are laid out from the left; a centred or right-aligned box moves the block.
        let x: Double = switch box.horizontal {
        case .left: r.x
        case .center: r.x + (r.width - size.width) / 2
        case .right: r.maxX - size.width
        }
        let y: Double = switch box.vertical {
        case .top: r.y
        case .middle: r.y + (r.height - size.height) / 2
        case .bottom: r.maxY - size.height
        }
        if box.clipped {
            cairo_rectangle(cr, r.x, r.y, r.width, r.height)
            cairo_clip(cr)
        }
        cairo_move_to(cr, x, y)
        pango_cairo_show_layout(cr, layout)
    }

    private func frame(_ r: Rect) {
        let cr = cairo.handle
        cairo_set_line_width(cr, Self.frameWidth)
        cairo_rectangle(cr, r.x, r.y, r.width, r.height)
        cairo_stroke(cr)
    }
}

/// A set of things already warned about, shared by every painter of a run.
final class WarnedOnce: @unchecked Sendable {
    private var seen: Set<String> = []
    private let lock = NSLock()
    /// True the first time `key` is inserted.
    func insert(_ key: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return seen.insert(key).inserted
    }
}
