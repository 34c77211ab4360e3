import CCairo
import CRsvg
import Foundation
import Layout
#if canImport(Glibc)
import Glibc
#endif

/// An SVG picture read through librsvg, drawn onto a page's Cairo context: the one place librsvg is
/// called. The symbol library's pictograms are these.
///
/// A picture is read from bytes in memory with no base file or URL, so librsvg loads nothing the
/// picture names outside itself (an `<image>` of a file or a web address, an `xi:include`, a `<use>`
/// of another file): only what the bytes hold, and `data:` URLs, are drawn.
final class SVGImage {
    /// The largest file read: a pictogram is a few kilobytes; a megabyte is a drawing pasted by
    /// mistake, or a file made to exhaust the reader.
    static let maximumBytes = 1 << 20
    /// The most `<use>` elements a picture may have. Each draws another part of the picture, which
    /// may itself hold uses: ten uses of ten uses, eleven deep, draw 10^11 paths, and librsvg takes
    /// gigabytes before its own limit stops it. Sixteen uses draw at most some 240 copies (e^(16/e))
    /// of a part, and a pictogram needs few if any.
    static let maximumUses = 16

    private let handle: UnsafeMutablePointer<RsvgHandle>
    /// The file (or the name given for bytes), for messages.
    let name: String

    /// Reads a picture from `data`.
    /// - Parameter name: the file it came from, for messages.
    /// - Throws: `SVGError` naming `name`: more than `maximumBytes`, or what librsvg found wrong.
    init(data: Data, name: String) throws {
        guard data.count <= Self.maximumBytes else {
            throw SVGError(file: name, message: "is \(data.count) bytes, more than the \(Self.maximumBytes) a picture may have")
        }
        guard !data.isEmpty else { throw SVGError(file: name, message: "is empty, not an SVG picture") }
        let uses = Self.useCount(data)
        guard uses <= Self.maximumUses else {
            throw SVGError(file: name, message: "has \(uses) <use> elements, more than the \(Self.maximumUses) a pictogram may have "
                           + "(each may draw the others many times over)")
        }
        var error: UnsafeMutablePointer<GError>?
        let made = data.withUnsafeBytes { bytes in
            rsvg_handle_new_from_data(bytes.bindMemory(to: guint8.self).baseAddress, gsize(bytes.count), &error)
        }
        guard let made else {
            throw SVGError(file: name, message: "is not an SVG picture librsvg can draw: \(Self.consume(error))")
        }
        if error != nil { g_error_free(error) }
        handle = made
        self.name = name
    }

    /// Reads the picture in the file `url`: a regular file of at most `maximumBytes`, checked before
    /// it is read (a named pipe or a device is never read).
    /// - Throws: `SVGError` naming the file.
    convenience init(contentsOf url: URL) throws {
        try self.init(data: Self.read(url), name: url.path)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// Draws the whole picture fitted into `rect` (its proportions kept, centred), on `cairo`.
    /// - Throws: `SVGError` naming the file when librsvg cannot draw it.
    func draw(in rect: Rect, on cairo: OpaquePointer) throws {
        var viewport = RsvgRectangle(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        var error: UnsafeMutablePointer<GError>?
        cairo_save(cairo)
        let drawn = rsvg_handle_render_document(handle, cairo, &viewport, &error)
        cairo_restore(cairo)
        guard drawn != 0 else {
            throw SVGError(file: name, message: "cannot be drawn: \(Self.consume(error))")
        }
        if error != nil { g_error_free(error) }
    }

    /// The number of `<use` start tags (with or without a namespace prefix, `<svg:use`) in `data`,
    /// counted on the bytes, before any parsing.
    static func useCount(_ data: Data) -> Int {
        var count = 0
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            let b = bytes.bindMemory(to: UInt8.self)
            var i = 0
            while i < b.count {
                guard b[i] == UInt8(ascii: "<") else { i += 1; continue }
                // Past an optional prefix (`svg:`), the name must be `use` ended by a space, `/` or `>`.
                var j = i + 1
                var k = j
                while k < b.count, k - j < 64, b[k] != UInt8(ascii: ":"), b[k] != UInt8(ascii: ">"), b[k] > 0x20 { k += 1 }
                if k < b.count, b[k] == UInt8(ascii: ":") { j = k + 1 }
                if j + 3 < b.count, b[j] == UInt8(ascii: "u"), b[j + 1] == UInt8(ascii: "s"), b[j + 2] == UInt8(ascii: "e"),
                   b[j + 3] <= 0x20 || b[j + 3] == UInt8(ascii: "/") || b[j + 3] == UInt8(ascii: ">") {
                    count += 1
                }
                i += 1
            }
        }
        return count
    }

    /// The error's message, the error freed.
    private static func consume(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "librsvg gave no reason" }
        defer { g_error_free(error) }
        guard let message = error.pointee.message else { return "librsvg gave no reason" }
        // librsvg's messages may end with a line feed or run over several lines: kept to one.
        return String(cString: message).split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// The bytes of `url`, refused when it is not a regular file or holds more than `maximumBytes`.
    static func read(_ url: URL) throws -> Data {
        // Opened without blocking, so a named pipe with no writer does not hang; checked before reading.
        let fd = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw SVGError(file: url.path, message: "cannot be opened: \(String(cString: strerror(errno)))") }
        defer { Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SVGError(file: url.path, message: "cannot be read: \(String(cString: strerror(errno)))") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw SVGError(file: url.path, message: "is not a regular file") }
        guard Int(info.st_size) <= maximumBytes else {
            throw SVGError(file: url.path, message: "is \(info.st_size) bytes, more than the \(maximumBytes) a picture may have")
        }
        // Read up to one byte past the limit: a file that grew since fstat is refused, not read whole.
        var data = Data(count: maximumBytes + 1)
        var total = 0
        while total < data.count {
            let n = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + total, $0.count - total) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SVGError(file: url.path, message: "cannot be read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            total += n
        }
        guard total <= maximumBytes else {
            throw SVGError(file: url.path, message: "holds more than the \(maximumBytes) bytes a picture may have")
        }
        return data.prefix(total)
    }
}

/// An SVG picture that cannot be read or drawn: the file and what is wrong, in one line.
public struct SVGError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var message: String
    public var description: String { "\(file): \(message)" }
}
