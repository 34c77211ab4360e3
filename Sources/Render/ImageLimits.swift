/// The one cap on the size of an image roadbook draws (a page rendered as PNG, a contact sheet of
/// tulips): the image is drawn in memory whole, 4 bytes a pixel, before it is written.
enum ImageLimits {
    /// Cairo's own limit on an image's side, in pixels.
    static let largestSide: Double = 32_767
    /// Pixels of one image at most: 100 million pixels are 400 MB in memory, an A4 page at about
    /// 1,200 dpi; a larger image is a mistaken resolution or cell size, not a wish.
    static let largestPixels: Double = 100_000_000

    /// Nil when an image of `width` × `height` pixels may be drawn; else what is too large, as
    /// "W × H pixels, more than an image may have (32767 a side, 100 million in all)".
    static func excess(width: Double, height: Double) -> String? {
        guard width > largestSide || height > largestSide || width * height > largestPixels else { return nil }
        return "\(Int(width)) × \(Int(height)) pixels, more than an image may have (\(Int(largestSide)) a side, "
            + "\(Int(largestPixels) / 1_000_000) million in all)"
    }
}
