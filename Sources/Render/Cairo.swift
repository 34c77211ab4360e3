import AtomicFile
import CCairo
import Layout
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file Cairo writes through a stream callback instead of opening it itself, so that the system's
/// reason for a failed write (no space left, quota, I/O error) is kept: Cairo's own file output
/// reports every failure as "error while writing to output stream". Made with `memory()`, it keeps
/// the bytes in memory instead (the editor's server answers with a drawing and writes no file).
final class FileSink {
    private(set) var fd: Int32
    let path: String
    /// The errno of the first failed write or close; 0 when none failed.
    private(set) var failure: Int32 = 0
    /// The bytes written, for a sink in memory; nil for a file.
    private(set) var bytes: Data?

    /// Creates (or truncates) the file at `path`.
    init(path: String, call: String) throws {
        fd = AtomicFile.openTemporary(path, flags: O_WRONLY | O_TRUNC)
        self.path = path
        guard fd >= 0 else { throw RenderError(call: call, reason: AtomicFile.reason(errno: errno), path: path) }
    }

    private init() {
        fd = -1
        path = ""
        bytes = Data()
    }

    /// A sink that keeps what is written in `bytes`.
    static func memory() -> FileSink { FileSink() }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    /// Closes the file, keeping the error of a failed close (NFS reports a full disk there).
    func close() {
        guard fd >= 0 else { return }
        if Glibc.close(fd) != 0 && failure == 0 { failure = errno }
        fd = -1
    }

    fileprivate func write(_ data: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        if bytes != nil {
            bytes?.append(data, count: length)
            return true
        }
        guard failure == 0, fd >= 0 else { return false }
        var offset = 0
        while offset < length {
            let n = Glibc.write(fd, data + offset, length - offset)
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno
                return false
            }
            offset += n
        }
        return true
    }

    /// The callback handed to Cairo, with the sink as its closure.
    static let callback: cairo_write_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<FileSink>.fromOpaque(closure).takeUnretainedValue()
        return sink.write(data, Int(length)) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
    }

    var closure: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Throws a `RenderError` with the system's reason when a write failed.
    func check(_ call: String) throws {
        if failure != 0 { throw RenderError(call: call, reason: AtomicFile.reason(errno: failure), path: path) }
    }
}

/// A Cairo surface: owns its `cairo_surface_t`, frees it in `deinit`. Subclasses open the
/// output kinds roadbook writes: PDF, SVG and image (PNG).
package class Surface {
    package let handle: OpaquePointer
    /// The file being written, for messages; empty for an in-memory image.
    let path: String

    /// The file written, for a PDF or SVG surface; kept alive as long as the surface.
    let sink: FileSink?

    fileprivate init(handle: OpaquePointer?, call: String, path: String, sink: FileSink? = nil) throws {
        let surface = try checkHandle(handle, call)
        do {
            try checkCairo(cairo_surface_status(surface), call, path: path)
        } catch {
            cairo_surface_destroy(surface)
            throw error
        }
        self.handle = surface
        self.path = path
        self.sink = sink
    }

    deinit { cairo_surface_destroy(handle) }

    /// Throws unless `status` is success, with the system's reason when a write to the file failed.
    func check(_ status: cairo_status_t, _ call: String) throws {
        try sink?.check(call)
        try checkCairo(status, call, path: path)
    }

    /// Writes everything out and closes the file; write errors surface here.
    func finish() throws {
        cairo_surface_flush(handle)
        cairo_surface_finish(handle)
        sink?.close()
        try check(cairo_surface_status(handle), "cairo_surface_finish")
    }

    /// The bytes of a PDF or SVG surface made in memory, once finished; empty for one written to a file.
    var data: Data { sink?.bytes ?? Data() }
}

/// A PDF file of pages `width` × `height` points.
final class PDFSurface: Surface {
    /// - Throws: `RenderError` naming `cairo_pdf_surface_create` and the path when the file
    ///   cannot be opened.
    init(path: String, width: Double, height: Double) throws {
        let sink = try FileSink(path: path, call: "cairo_pdf_surface_create_for_stream")
        try super.init(handle: cairo_pdf_surface_create_for_stream(FileSink.callback, sink.closure, width, height),
                       call: "cairo_pdf_surface_create_for_stream", path: path, sink: sink)
    }

    /// A PDF kept in memory: its bytes are `data` once finished.
    init(width: Double, height: Double) throws {
        let sink = FileSink.memory()
        try super.init(handle: cairo_pdf_surface_create_for_stream(FileSink.callback, sink.closure, width, height),
                       call: "cairo_pdf_surface_create_for_stream", path: "", sink: sink)
    }

    /// Sets one document-information entry. Dates are ISO 8601, for example `2000-01-01T00:00:00Z`.
    func setMetadata(_ key: cairo_pdf_metadata_t, _ value: String) throws {
        cairo_pdf_surface_set_metadata(handle, key, value)
        try check(cairo_surface_status(handle), "cairo_pdf_surface_set_metadata")
    }

    /// Sets the size of the pages that follow (a roll's last page is shorter).
    func setPageSize(width: Double, height: Double) throws {
        cairo_pdf_surface_set_size(handle, width, height)
        try check(cairo_surface_status(handle), "cairo_pdf_surface_set_size")
    }
}

/// An SVG file of one page `width` × `height` points.
final class SVGSurface: Surface {
    convenience init(path: String, width: Double, height: Double) throws {
        try self.init(sink: try FileSink(path: path, call: "cairo_svg_surface_create_for_stream"), width: width, height: height)
    }

    /// An SVG kept in memory: its bytes are `data` once finished.
    convenience init(width: Double, height: Double) throws {
        try self.init(sink: FileSink.memory(), width: width, height: height)
    }

    private init(sink: FileSink, width: Double, height: Double) throws {
        try super.init(handle: cairo_svg_surface_create_for_stream(FileSink.callback, sink.closure, width, height),
                       call: "cairo_svg_surface_create_for_stream", path: sink.path, sink: sink)
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
        let sink = try FileSink(path: path, call: "cairo_surface_write_to_png_stream")
        let status = cairo_surface_write_to_png_stream(handle, FileSink.callback, sink.closure)
        sink.close()
        try sink.check("cairo_surface_write_to_png_stream")
        try checkCairo(status, "cairo_surface_write_to_png_stream", path: path)
    }

    /// The image as PNG bytes.
    func pngData() throws -> Data {
        cairo_surface_flush(handle)
        let sink = FileSink.memory()
        let status = cairo_surface_write_to_png_stream(handle, FileSink.callback, sink.closure)
        try checkCairo(status, "cairo_surface_write_to_png_stream", path: "")
        return sink.bytes ?? Data()
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
        try surface.check(cairo_status(handle), call)
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
