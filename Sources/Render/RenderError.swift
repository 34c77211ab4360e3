import CCairo
import Model

/// A drawing or output failure, naming the C call that failed.
public struct RenderError: Error, CustomStringConvertible, Equatable, RemedyCarrying {
    /// The C function that reported the failure, for example `cairo_pdf_surface_create`.
    public var call: String
    /// What the library said, for example "error while writing to output stream".
    public var reason: String
    /// The file being written, when the failure concerns one.
    public var path: String?
    /// What the caller can change to mend it (a lower resolution): the caller words it.
    public var remedy: Remedy?

    public init(call: String, reason: String, path: String? = nil, remedy: Remedy? = nil) {
        self.call = call
        self.reason = reason
        self.path = path
        self.remedy = remedy
    }

    /// The same failure, naming `path` (the file the user named rather than a hidden temporary one).
    func naming(_ path: String) -> RenderError {
        var named = self
        named.path = path
        return named
    }

    public var description: String {
        if let path { return "\(path): cannot render: \(call) failed: \(reason)" }
        return "cannot render: \(call) failed: \(reason)"
    }
}

/// The one place a Cairo status becomes a Swift error (as swift-nio's `System.swift` does for
/// system calls): throws a `RenderError` naming `call` unless `status` is success.
package func checkCairo(_ status: cairo_status_t, _ call: String, path: String? = nil) throws {
    guard status != CAIRO_STATUS_SUCCESS else { return }
    throw RenderError(call: call, reason: String(cString: cairo_status_to_string(status)), path: path)
}

/// Unwraps a handle a C constructor returned, or throws a `RenderError` naming `call`.
package func checkHandle<T>(_ handle: T?, _ call: String) throws -> T {
    guard let handle else { throw RenderError(call: call, reason: "returned no object (out of memory?)") }
    return handle
}
