import CCairo
import Layout
import Foundation

/// A Cairo surface: owns its `cairo_surface_t`, frees it in `deinit`. Subclasses open the
/// output kinds roadbook writes: PDF, SVG and image (PNG).
package class Surface {
    package let handle: OpaquePointer
    /// The file being written, for messages; empty for an in-memory image.
    let path: String

    fileprivate init(handle: OpaquePointer?, call: String, path: String) throws {
        let surface = try checkHandle(handle, call)
        do {
            try checkCairo(cairo_surface_status(surface), call, path: path)
        } catch {
            cairo_surface_destroy(surface)
            throw error
        }
        self.handle = surface
        self.path = path
    }

    deinit { cairo_surface_destroy(handle) }

    /// Writes everything out and closes the file; write errors surface here.
    func finish() throws {
        cairo_surface_flush(handle)
        cairo_surface_finish(handle)
        try checkCairo(cairo_surface_status(handle), "cairo_surface_finish", path: path)
    }
}

/// A PDF file of pages `width` × `height` points.
final class PDFSurface: Surface {
    /// - Throws: `RenderError` naming `cairo_pdf_surface_create` and the path when the file
    ///   cannot be opened.
    init(path: String, width: Double, height: Double) throws {
        try super.init(handle: cairo_pdf_surface_create(path, width, height), call: "cairo_pdf_surface_create", path: path)
    }

    /// Sets one document-information entry. Dates are ISO 8601, for example `2000-01-01T00:00:00Z`.
    func setMetadata(_ key: cairo_pdf_metadata_t, _ value: String) throws {
        cairo_pdf_surface_set_metadata(handle, key, value)
        try checkCairo(cairo_surface_status(handle), "cairo_pdf_surface_set_metadata", path: path)
    }

    /// Sets the size of the pages that follow (a roll's last page is shorter).
    func setPageSize(width: Double, height: Double) throws {
        cairo_pdf_surface_set_size(handle, width, height)
        try checkCairo(cairo_surface_status(handle), "cairo_pdf_surface_set_size", path: path)
    }
}

/// An SVG file of one page `width` × `height` points.
final class SVGSurface: Surface {
    init(path: String, width: Double, height: Double) throws {
        try super.init(handle: cairo_svg_surface_create(path, width, height), call: "cairo_svg_surface_create", path: path)
        // Points as the document unit, so an SVG page has the size of the printed page.
        cairo_svg_surface_set_document_unit(handle, CAIRO_SVG_UNIT_PT)
    }
}

/// An image in memory, 32-bit ARGB, written out as PNG.
package final class ImageSurface: Surface {
    let width: Int
    let height: Int

    /// - Parameters: pixel size; both at least 1.
    package init(width: Int, height: Int) throws {
        self.width = width
        self.height = height
        try super.init(handle: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
                       call: "cairo_image_surface_create", path: "")
    }

    /// Writes the image as PNG to `path` (callers go through `AtomicFile`).
    package func writePNG(to path: String) throws {
        cairo_surface_flush(handle)
        try checkCairo(cairo_surface_write_to_png(handle, path), "cairo_surface_write_to_png", path: path)
    }
}

/// A Cairo drawing context. Owns its `cairo_t` and keeps its surface alive.
final class CairoContext {
    let handle: OpaquePointer
    let surface: Surface

    init(surface: Surface) throws {
        let cr = try checkHandle(cairo_create(surface.handle), "cairo_create")
        do {
            try checkCairo(cairo_status(cr), "cairo_create")
        } catch {
            cairo_destroy(cr)
            throw error
        }
        self.handle = cr
        self.surface = surface
    }

    deinit { cairo_destroy(handle) }

    /// Throws if any drawing call so far failed (Cairo records the first error on the context).
    func check(_ call: String) throws {
        try checkCairo(cairo_status(handle), call, path: surface.path)
    }

    /// Adds a rectangle with rounded corners (radius in points, at most half a side) to the path.
    func roundedRectangle(_ r: Rect, radius: Double) {
        let k = min(radius, r.width / 2, r.height / 2)
        cairo_new_sub_path(handle)
        cairo_arc(handle, r.maxX - k, r.y + k, k, -Double.pi / 2, 0)
        cairo_arc(handle, r.maxX - k, r.maxY - k, k, 0, Double.pi / 2)
        cairo_arc(handle, r.x + k, r.maxY - k, k, Double.pi / 2, Double.pi)
        cairo_arc(handle, r.x + k, r.y + k, k, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(handle)
    }

    /// Ends the page and starts the next one.
    func showPage() throws {
        cairo_show_page(handle)
        try check("cairo_show_page")
    }
}
