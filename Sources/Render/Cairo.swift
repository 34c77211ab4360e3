import CCairo

/// A Cairo PDF surface writing to a file. Owns its `cairo_surface_t`.
final class PDFSurface {
    let handle: OpaquePointer
    let path: String

    /// Opens `path` for writing a PDF whose pages are `width` × `height` points.
    /// - Throws: `RenderError` naming `cairo_pdf_surface_create` and the path when the file
    ///   cannot be opened.
    init(path: String, width: Double, height: Double) throws {
        let surface = try checkHandle(cairo_pdf_surface_create(path, width, height), "cairo_pdf_surface_create")
        do {
            try checkCairo(cairo_surface_status(surface), "cairo_pdf_surface_create", path: path)
        } catch {
            cairo_surface_destroy(surface)
            throw error
        }
        self.handle = surface
        self.path = path
    }

    deinit { cairo_surface_destroy(handle) }

    /// Sets one document-information entry. Dates are ISO 8601, for example `2000-01-01T00:00:00Z`.
    func setMetadata(_ key: cairo_pdf_metadata_t, _ value: String) throws {
        cairo_pdf_surface_set_metadata(handle, key, value)
        try checkCairo(cairo_surface_status(handle), "cairo_pdf_surface_set_metadata", path: path)
    }

    /// Writes everything out and closes the file; write errors surface here.
    func finish() throws {
        cairo_surface_finish(handle)
        try checkCairo(cairo_surface_status(handle), "cairo_surface_finish", path: path)
    }
}

/// A Cairo drawing context on a PDF surface. Owns its `cairo_t` and keeps the surface alive.
final class CairoContext {
    let handle: OpaquePointer
    let surface: PDFSurface

    init(surface: PDFSurface) throws {
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

    /// Ends the page and starts the next one.
    func showPage() throws {
        cairo_show_page(handle)
        try check("cairo_show_page")
    }
}
