import AtomicFile
import CCairo
import CPango
import Foundation
import Layout
import Model

/// Tulips on their own, outside a road book: one tulip as PNG or SVG, or many on a contact sheet
/// (`roadbook tulip --sheet`). White background; files appear only when complete.
public enum TulipImage {
    /// A request that cannot make an image, naming the file it was for.
    public struct InvalidRequest: Error, CustomStringConvertible, Equatable {
        public var path: String
        public var reason: String
        public var description: String { "\(path): cannot draw tulips: \(reason)" }
    }

    /// Share of a contact-sheet cell's side taken by its label's font.
    static let labelSizeRatio = 0.085
    /// Share of a cell's side left blank round its tulip (the label sits in it, top left).
    static let cellPaddingRatio = 0.06

    /// Writes `tulip` as a square PNG of `size` × `size` pixels.
    /// - Throws: `InvalidRequest` when `size` is below 1; `AtomicFile.WriteError` or `RenderError`
    ///   naming `url` when the file cannot be written.
    public static func writePNG(_ tulip: Tulip, size: Int, to url: URL) throws {
        guard size >= 1 else { throw InvalidRequest(path: url.path, reason: "size \(size) px is below 1") }
        try writing(to: url) { temporary in
            let surface = try ImageSurface(width: size, height: size)
            let cairo = try CairoContext(surface: surface)
            try paintWhite(cairo, width: Double(size), height: Double(size))
            try TulipPainter(cairo: cairo, text: textLayout(for: cairo))
                .draw(tulip, in: Rect(x: 0, y: 0, width: Double(size), height: Double(size)))
            try surface.writePNG(to: temporary.path)
        }
    }

    /// Writes `tulip` as a square SVG of `size` × `size` points.
    /// - Throws: `InvalidRequest` when `size` is not positive; `AtomicFile.WriteError` or
    ///   `RenderError` naming `url` when the file cannot be written.
    public static func writeSVG(_ tulip: Tulip, size: Double, to url: URL) throws {
        guard size > 0, size.isFinite else { throw InvalidRequest(path: url.path, reason: "size \(size) pt is not positive") }
        try writing(to: url) { temporary in
            // The surface is finished (the file closed) before the rename.
            try drawSVG(tulip, size: size, on: SVGSurface(path: temporary.path, width: size, height: size))
        }
    }

    /// `tulip` as the bytes of a square SVG of `size` × `size` points: the drawing `writeSVG`
    /// writes, kept in memory.
    /// - Throws: `InvalidRequest` when `size` is not positive; `RenderError` when Cairo fails.
    public static func svgData(_ tulip: Tulip, size: Double) throws -> Data {
        guard size > 0, size.isFinite else { throw InvalidRequest(path: "an SVG in memory", reason: "size \(size) pt is not positive") }
        let surface = try SVGSurface(width: size, height: size)
        try drawSVG(tulip, size: size, on: surface)
        return surface.data
    }

    /// Draws `tulip` on a white square filling `surface` and finishes it.
    private static func drawSVG(_ tulip: Tulip, size: Double, on surface: SVGSurface) throws {
        do {
            let cairo = try CairoContext(surface: surface)
            try paintWhite(cairo, width: size, height: size)
            try TulipPainter(cairo: cairo, text: textLayout(for: cairo))
                .draw(tulip, in: Rect(x: 0, y: 0, width: size, height: size))
        }
        try surface.finish()
    }

    /// Writes a PNG grid of tulips, `columns` to a row, each in a square cell of `cellSize`
    /// pixels framed in grey and labelled top left (with its row number in a road book).
    /// - Throws: `InvalidRequest` when there is no tulip, `cellSize` is below 16, `columns` below 1
    ///   or the sheet larger than `ImageLimits` allows; `AtomicFile.WriteError` or `RenderError`
    ///   naming `url`.
    public static func writeContactSheet(_ tulips: [(label: String, tulip: Tulip)], cellSize: Int, columns: Int,
                                         to url: URL) throws {
        guard !tulips.isEmpty else { throw InvalidRequest(path: url.path, reason: "there are no tulips to draw") }
        guard cellSize >= 16 else { throw InvalidRequest(path: url.path, reason: "cell size \(cellSize) px is below 16") }
        guard columns >= 1 else { throw InvalidRequest(path: url.path, reason: "\(columns) columns: need at least 1") }
        let columnCount = min(columns, tulips.count)
        let rowCount = (tulips.count + columnCount - 1) / columnCount
        let width = columnCount * cellSize, height = rowCount * cellSize
        if let excess = ImageLimits.excess(width: Double(width), height: Double(height)) {
            throw InvalidRequest(path: url.path, reason: "a sheet of \(tulips.count) tulips in cells of \(cellSize) px, \(columnCount) a line, "
                                     + "would be \(excess); use smaller cells or more of them a line")
        }
        try writing(to: url) { temporary in
            let surface = try ImageSurface(width: width, height: height)
            let cairo = try CairoContext(surface: surface)
            try paintWhite(cairo, width: Double(width), height: Double(height))
            let text = try textLayout(for: cairo)
            let painter = TulipPainter(cairo: cairo, text: text)
            let cell = Double(cellSize)
            let cr = cairo.handle
            for (index, item) in tulips.enumerated() {
                let x = Double(index % columnCount) * cell, y = Double(index / columnCount) * cell
                cairo_set_source_rgb(cr, 0.6, 0.6, 0.6)
                cairo_set_line_width(cr, 1)
                cairo_rectangle(cr, x + 0.5, y + 0.5, cell - 1, cell - 1)
                cairo_stroke(cr)
                let padding = (cell * cellPaddingRatio).rounded()
                cairo_set_source_rgb(cr, 0.3, 0.3, 0.3)
                text.set(item.label, font: FontSpec(size: cell * labelSizeRatio, bold: true), width: cell - 2 * padding,
                         maximumHeight: cell * labelSizeRatio * 1.6)
                cairo_move_to(cr, x + padding / 2, y + padding / 3)
                text.show(in: cairo)
                try painter.draw(item.tulip, in: Rect(x: x, y: y, width: cell, height: cell).inset(by: padding))
            }
            try cairo.check("drawing a contact sheet")
            try surface.writePNG(to: temporary.path)
        }
    }

    /// Runs `body` on a temporary path renamed onto `url`; a `RenderError` names `url`, not the
    /// hidden temporary file.
    private static func writing(to url: URL, _ body: (URL) throws -> Void) throws {
        try AtomicFile.write(to: url) { temporary in
            do {
                try body(temporary)
            } catch let error as RenderError {
                throw error.naming(url.path)
            }
        }
    }

    private static func paintWhite(_ cairo: CairoContext, width: Double, height: Double) throws {
        cairo_set_source_rgb(cairo.handle, 1, 1, 1)
        cairo_rectangle(cairo.handle, 0, 0, width, height)
        cairo_fill(cairo.handle)
        try cairo.check("painting the background")
    }

    /// A Pango layout drawing through `cairo` (for exit numbers and labels).
    private static func textLayout(for cairo: CairoContext) throws -> TextLayout {
        let context = try TextContext(fontMap: FontMap())
        context.update(from: cairo)
        return try TextLayout(context: context)
    }
}
