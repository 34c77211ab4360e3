import AtomicFile
import CCairo
import Foundation
import Geo
import Layout
import Model

/// The elevation profile of a book on its own: a chart with distance across, height up, the band
/// of heights, climb and descent, and a tick for each row that fits. PNG, SVG or PDF by the file's
/// extension.
public enum ProfileImage {
    /// A book without a complete profile has no chart to draw. How to give it terrain is the
    /// caller's to say (the command line names its options).
    public enum NoTerrain: Error, CustomStringConvertible, Equatable {
        /// The book has no profile at all.
        case missing
        /// Some of the route has no height.
        case incomplete

        public var description: String {
            switch self {
            case .missing: "the book has no terrain"
            case .incomplete: "\(CoverLayout.noTerrainText): some of the route has no height"
            }
        }
    }

    /// Writes the chart of `book` to `url`. Width and height in points (a PNG has 2 pixels a point).
    /// - Throws: `NoTerrain` when the book has no complete profile; `RenderError`, naming the path.
    public static func write(_ book: Book, to url: URL, width: Double = 720, height: Double = 260) throws {
        guard let profile = book.profile, profile.isComplete else {
            throw book.profile == nil ? NoTerrain.missing : NoTerrain.incomplete
        }
        let rows = RowContent.count(of: book)
        let notes = Array(book.notes.filter { $0.placement == .onRoute }.prefix(rows))
        let length = Polyline(book.route.coordinates).length
        let area = Rect(x: 12, y: 12, width: width - 24, height: height - 24)
        try AtomicFile.write(to: url) { temporary in
            do {
                func draw(on surface: Surface, scale: Double) throws {
                    let cairo = try CairoContext(surface: surface)
                    cairo_scale(cairo.handle, scale, scale)
                    cairo_set_source_rgb(cairo.handle, 1, 1, 1)
                    cairo_paint(cairo.handle)
                    let context = try TextContext(fontMap: FontMap())
                    context.update(from: cairo)
                    let text = try TextLayout(context: context)
                    guard try ProfilePainter.draw(profile: profile, notes: notes, routeLength: length,
                                                  units: book.settings.units, in: area, on: cairo, text: text) else {
                        throw RenderError(call: "ProfileChart.layout", reason: "the chart does not fit \(width) × \(height) points")
                    }
                    try cairo.check("drawing the profile")
                }
                switch url.pathExtension.lowercased() {
                case "svg":
                    let surface = try SVGSurface(path: temporary.path, width: width, height: height)
                    try draw(on: surface, scale: 1)
                    try surface.finish()
                case "pdf":
                    let surface = try PDFSurface(path: temporary.path, width: width, height: height)
                    try surface.setMetadata(CAIRO_PDF_METADATA_TITLE, "\(book.title): elevation profile")
                    try surface.setMetadata(CAIRO_PDF_METADATA_CREATE_DATE, BookRenderer.fixedDocumentDate)
                    try surface.setMetadata(CAIRO_PDF_METADATA_MOD_DATE, BookRenderer.fixedDocumentDate)
                    try draw(on: surface, scale: 1)
                    try surface.finish()
                default:
                    let surface = try ImageSurface(width: Int(width * 2), height: Int(height * 2))
                    try draw(on: surface, scale: 2)
                    try surface.writePNG(to: temporary.path)
                }
            } catch let error as RenderError {
                throw error.naming(url.path)
            }
        }
    }
}
