import AtomicFile
import CCairo
import CPango
import Foundation
import Layout
import Model

/// Prints a book as a PDF road book: lays it out on `template` and draws the pages with Cairo
/// and Pango.
public struct PDFBookRenderer: Sendable {
    /// Written as the PDF's creation and modification dates, so the same book gives the same
    /// bytes; a road book's date is the rally's, printed in its header.
    public static let fixedDocumentDate = "2000-01-01T00:00:00Z"

    public var template: PageTemplate

    public init(template: PageTemplate = .a5) {
        self.template = template
    }

    /// Renders `book` to a PDF at `url`. The file appears only when complete: a failed render
    /// leaves whatever was at `url` before and no temporary file.
    /// - Returns: the number of pages.
    /// - Throws: `AtomicFile.WriteError` or `RenderError`, both naming the path.
    @discardableResult
    public func render(_ book: Book, to url: URL) throws -> Int {
        try AtomicFile.write(to: url) { temporary in
            do {
                // The surface is finished and released before the rename, so the file is closed by then.
                let surface = try PDFSurface(path: temporary.path, width: template.pageSize.width,
                                             height: template.pageSize.height)
                return try draw(book, on: surface)
            } catch let error as RenderError {
                // Name the file the user asked for, not the hidden temporary one.
                throw RenderError(call: error.call, reason: error.reason, path: url.path)
            }
        }
    }

    private func draw(_ book: Book, on surface: PDFSurface) throws -> Int {
        try setMetadata(of: book, on: surface)
        let cairo = try CairoContext(surface: surface)
        let context = try TextContext(fontMap: FontMap())
        context.update(from: cairo)
        let text = try TextLayout(context: context)
        let pages = BookLayout.paginate(book: book, template: template, measurer: PangoMeasurer(layout: text))
        let painter = PagePainter(cairo: cairo, text: text)
        for page in pages {
            try painter.draw(page)
            try cairo.showPage()
        }
        try surface.finish()
        return pages.count
    }

    private func setMetadata(of book: Book, on surface: PDFSurface) throws {
        try surface.setMetadata(CAIRO_PDF_METADATA_TITLE, book.title)
        if let rally = book.rally, !rally.isEmpty {
            try surface.setMetadata(CAIRO_PDF_METADATA_AUTHOR, rally)
        }
        if let stage = book.stage, !stage.isEmpty {
            try surface.setMetadata(CAIRO_PDF_METADATA_SUBJECT, stage)
        }
        try surface.setMetadata(CAIRO_PDF_METADATA_CREATOR, "roadbook")
        try surface.setMetadata(CAIRO_PDF_METADATA_CREATE_DATE, Self.fixedDocumentDate)
        try surface.setMetadata(CAIRO_PDF_METADATA_MOD_DATE, Self.fixedDocumentDate)
    }
}

/// Draws the boxes of a page. Each kind of box has one look; colours and line widths are here.
struct PagePainter {
    let cairo: CairoContext
    let text: TextLayout

    /// Line widths in points: cell frames thin enough to leave room for writing, the header rule bolder.
    static let frameWidth = 0.8
    static let headerRuleWidth = 1.5
    /// The CAP tag's yellow, as on FIA road books.
    static let capYellow = (red: 1.0, green: 0.84, blue: 0.0)

    func draw(_ page: PageLayout) throws {
        let cr = cairo.handle
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        for box in page.boxes {
            cairo_save(cr)
            decorate(box)
            if let string = box.text, let font = box.font { show(string, font: font, in: box) }
            cairo_restore(cr)
        }
        try cairo.check("drawing page \(page.pageNumber)")
    }

    /// Frames and backgrounds; leaves the source colour set for the box's text.
    private func decorate(_ box: Box) {
        let cr = cairo.handle
        let r = box.rect
        cairo_set_source_rgb(cr, 0, 0, 0)
        switch box.kind {
        case .header:
            cairo_set_line_width(cr, Self.headerRuleWidth)
            cairo_move_to(cr, r.x, r.maxY - Self.headerRuleWidth / 2)
            cairo_line_to(cr, r.maxX, r.maxY - Self.headerRuleWidth / 2)
            cairo_stroke(cr)
        case .distanceCell, .tulipCell, .notesCell, .partialDistance:
            cairo_set_line_width(cr, Self.frameWidth)
            cairo_rectangle(cr, r.x, r.y, r.width, r.height)
            cairo_stroke(cr)
        case .cap:
            roundedRectangle(r, radius: 2.5)
            cairo_set_source_rgb(cr, Self.capYellow.red, Self.capYellow.green, Self.capYellow.blue)
            cairo_fill_preserve(cr)
            cairo_set_source_rgb(cr, 0, 0, 0)
            cairo_set_line_width(cr, 0.6)
            cairo_stroke(cr)
        case .waypointType:
            roundedRectangle(r, radius: 2)
            cairo_fill(cr)
            cairo_set_source_rgb(cr, 1, 1, 1)
        case .odometerReset:
            cairo_set_source_rgb(cr, 0.75, 0, 0)
        case .danger:
            cairo_set_source_rgb(cr, 0.8, 0, 0)
        case .rowNumber, .footer, .headerInfo:
            cairo_set_source_rgb(cr, 0.3, 0.3, 0.3)
        case .headerTitle, .headerUnits, .totalDistance, .marker, .noteText:
            break
        }
    }

    /// Draws `string` aligned in the box; a clipped box cuts its text at the box's edge with an ellipsis.
    private func show(_ string: String, font: FontSpec, in box: Box) {
        let cr = cairo.handle
        let r = box.rect
        let alignment: PangoAlignment = switch box.horizontal {
        case .left: PANGO_ALIGN_LEFT
        case .center: PANGO_ALIGN_CENTER
        case .right: PANGO_ALIGN_RIGHT
        }
        text.set(string, font: font, width: r.width, alignment: alignment,
                 maximumHeight: box.clipped ? r.height : nil)
        let height = text.size.height
        let y: Double = switch box.vertical {
        case .top: r.y
        case .middle: r.y + (r.height - height) / 2
        case .bottom: r.maxY - height
        }
        if box.clipped {
            cairo_rectangle(cr, r.x, r.y, r.width, r.height)
            cairo_clip(cr)
        }
        cairo_move_to(cr, r.x, y)
        text.show(in: cairo)
    }

    private func roundedRectangle(_ r: Rect, radius: Double) {
        let cr = cairo.handle
        let k = min(radius, r.width / 2, r.height / 2)
        cairo_new_sub_path(cr)
        cairo_arc(cr, r.maxX - k, r.y + k, k, -Double.pi / 2, 0)
        cairo_arc(cr, r.maxX - k, r.maxY - k, k, 0, Double.pi / 2)
        cairo_arc(cr, r.x + k, r.maxY - k, k, Double.pi / 2, Double.pi)
        cairo_arc(cr, r.x + k, r.y + k, k, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }
}
