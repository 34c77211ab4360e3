import CCairo
import Render
import Foundation

/// Compares two PNG images pixel by pixel with two tolerances, as swift-snapshot-testing does:
/// how much one channel of a pixel may differ before the pixel counts as different, and what
/// share of the pixels may differ. Used by golden-image tests of tulips and pages; it reads images
/// through the renderer's own Cairo wrappers (`package` in `Render`).
public enum ImageComparison {
    /// How far two images may differ and still match.
    public struct Tolerance: Sendable, Equatable {
        /// Share of the pixels, in [0, 1], allowed to differ.
        public var differingShare: Double
        /// How much one channel (red, green, blue or alpha, each 0–255) may differ before its
        /// pixel counts as differing.
        public var channelDifference: Int

        public init(differingShare: Double, channelDifference: Int) {
            self.differingShare = differingShare
            self.channelDifference = channelDifference
        }

        /// Every pixel exactly the same.
        public static let exact = Tolerance(differingShare: 0, channelDifference: 0)
        /// For rendered goldens: absorbs antialiasing that shifts between Cairo and Pango versions
        /// (a fraction of edge pixels a little lighter or darker), not a moved or missing line.
        public static let golden = Tolerance(differingShare: 0.004, channelDifference: 40)
    }

    /// What a comparison found.
    public struct Result: Sendable, Equatable, CustomStringConvertible {
        /// Sizes in pixels of the actual and the expected image.
        public var actualWidth: Int, actualHeight: Int, expectedWidth: Int, expectedHeight: Int
        /// Pixels whose largest channel difference exceeds the tolerance's `channelDifference`.
        public var differingPixels: Int
        /// `differingPixels` as a share of all pixels, in [0, 1]; 1 when the sizes differ.
        public var differingShare: Double
        /// The largest difference of one channel over all pixels, 0–255; 255 when the sizes differ.
        public var maximumChannelDifference: Int
        /// The tolerance this result was measured against.
        public var tolerance: Tolerance

        public var sizesMatch: Bool { actualWidth == expectedWidth && actualHeight == expectedHeight }

        /// True when the sizes agree and no more than the tolerated share of pixels differ.
        public var matches: Bool { sizesMatch && differingShare <= tolerance.differingShare }

        public var description: String {
            guard sizesMatch else {
                return "size \(actualWidth)×\(actualHeight) px, expected \(expectedWidth)×\(expectedHeight) px"
            }
            let share = String(format: "%.4f", differingShare * 100)
            let allowed = String(format: "%.4f", tolerance.differingShare * 100)
            return "\(differingPixels) pixels (\(share)%, \(allowed)% allowed) differ by more than "
                + "\(tolerance.channelDifference); largest channel difference \(maximumChannelDifference)"
        }
    }

    /// Compares the PNG at `actual` with the PNG at `expected`. O(pixels).
    /// - Parameters:
    ///   - tolerance: what may differ; see `Tolerance`.
    ///   - diff: when given and the sizes agree, a PNG is written there showing the expected
    ///     image faded and every differing pixel in red, darker the larger the difference.
    /// - Returns: the comparison; `matches` says whether it is within `tolerance`.
    /// - Throws: `RenderError` naming the file when either cannot be read as a PNG (missing,
    ///   unreadable or not a PNG), or naming `diff` when it cannot be written.
    public static func compare(_ actual: URL, with expected: URL, tolerance: Tolerance = .golden,
                               diff: URL? = nil) throws -> Result {
        let a = try PNGImage(path: actual.path)
        let e = try PNGImage(path: expected.path)
        guard a.width == e.width, a.height == e.height else {
            return Result(actualWidth: a.width, actualHeight: a.height, expectedWidth: e.width, expectedHeight: e.height,
                          differingPixels: max(a.width * a.height, e.width * e.height), differingShare: 1,
                          maximumChannelDifference: 255, tolerance: tolerance)
        }
        let diffImage = try diff.map { _ in try ImageSurface(width: a.width, height: a.height) }
        let diffPixels = try diffImage.map { image in
            cairo_surface_flush(image.handle)
            return try checkHandle(cairo_image_surface_get_data(image.handle), "cairo_image_surface_get_data")
        }
        let diffStride = diffImage.map { Int(cairo_image_surface_get_stride($0.handle)) } ?? 0
        var differing = 0
        var largest = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixel(x: x, y: y), q = e.pixel(x: x, y: y)
                var d = 0
                for shift in stride(from: 0, through: 24, by: 8) {
                    d = max(d, abs(Int((p >> UInt32(shift)) & 0xff) - Int((q >> UInt32(shift)) & 0xff)))
                }
                largest = max(largest, d)
                let differs = d > tolerance.channelDifference
                if differs { differing += 1 }
                if let diffPixels {
                    let out = UnsafeMutableRawPointer(diffPixels).advanced(by: y * diffStride + x * 4)
                        .assumingMemoryBound(to: UInt32.self)
                    out.pointee = differs ? diffColour(d) : faded(q)
                }
            }
        }
        if let diffImage, let diff {
            cairo_surface_mark_dirty(diffImage.handle)
            try diffImage.writePNG(to: diff.path)
        }
        let total = a.width * a.height
        return Result(actualWidth: a.width, actualHeight: a.height, expectedWidth: e.width, expectedHeight: e.height,
                      differingPixels: differing, differingShare: total == 0 ? 0 : Double(differing) / Double(total),
                      maximumChannelDifference: largest, tolerance: tolerance)
    }

    /// Opaque red, from light (small difference) to full (255).
    private static func diffColour(_ d: Int) -> UInt32 {
        let other = UInt32(max(0, 200 - d * 200 / 255))
        return 0xff00_0000 | 0x00ff_0000 | other << 8 | other
    }

    /// A premultiplied ARGB pixel mixed a quarter of the way into white, opaque.
    private static func faded(_ p: UInt32) -> UInt32 {
        let alpha = (p >> 24) & 0xff
        func channel(_ shift: UInt32) -> UInt32 {
            // Composite on white, then fade: c' = 255 - (255 - c) / 4.
            let c = ((p >> shift) & 0xff) + (255 - alpha)
            return (255 - (255 - min(c, 255)) / 4) << shift
        }
        return 0xff00_0000 | channel(16) | channel(8) | channel(0)
    }
}

/// A PNG file read into memory as a Cairo image surface. Owns its `cairo_surface_t`.
public final class PNGImage {
    let handle: OpaquePointer
    public let width: Int
    public let height: Int
    private let stride: Int
    private let data: UnsafeMutablePointer<UInt8>
    /// RGB24 leaves the top byte undefined; it is read as opaque.
    private let opaque: Bool

    /// - Throws: `RenderError` naming `cairo_image_surface_create_from_png` and `path` when the
    ///   file is missing, unreadable or not a PNG.
    public init(path: String) throws {
        let surface = try checkHandle(cairo_image_surface_create_from_png(path), "cairo_image_surface_create_from_png")
        do {
            try checkCairo(cairo_surface_status(surface), "cairo_image_surface_create_from_png", path: path)
            let format = cairo_image_surface_get_format(surface)
            guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24 else {
                throw RenderError(call: "cairo_image_surface_create_from_png",
                                  reason: "pixel format \(format.rawValue) is neither ARGB32 nor RGB24", path: path)
            }
            cairo_surface_flush(surface)
            guard let pixels = cairo_image_surface_get_data(surface) else {
                throw RenderError(call: "cairo_image_surface_get_data", reason: "no pixel data", path: path)
            }
            opaque = format == CAIRO_FORMAT_RGB24
            data = pixels
        } catch {
            cairo_surface_destroy(surface)
            throw error
        }
        handle = surface
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
        stride = Int(cairo_image_surface_get_stride(surface))
    }

    deinit { cairo_surface_destroy(handle) }

    /// The premultiplied ARGB value of a pixel (alpha in the top byte).
    public func pixel(x: Int, y: Int) -> UInt32 {
        let value = UnsafeRawPointer(data).advanced(by: y * stride + x * 4).assumingMemoryBound(to: UInt32.self).pointee
        return opaque ? value | 0xff00_0000 : value
    }
}
