import CCairo
import CPango
import Layout

/// Pango units per point (the context's resolution is 72 dpi, so a Pango "pixel" is a point).
private let pangoScale = Double(PANGO_SCALE)

/// A PangoCairo font map of its own, so fonts come from the fontconfig configuration
/// `BundledFonts` installed. Owns a `PangoFontMap` reference.
final class FontMap {
    let handle: UnsafeMutablePointer<PangoFontMap>

    init() throws {
        BundledFonts.installOnce()
        handle = try checkHandle(pango_cairo_font_map_new(), "pango_cairo_font_map_new")
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// The font families this map can draw with.
    var families: Set<String> {
        var list: UnsafeMutablePointer<UnsafeMutablePointer<PangoFontFamily>?>? = nil
        var count: Int32 = 0
        pango_font_map_list_families(handle, &list, &count)
        defer { g_free(list) }
        var names: Set<String> = []
        for i in 0..<Int(count) {
            if let family = list?[i], let name = pango_font_family_get_name(family) { names.insert(String(cString: name)) }
        }
        return names
    }
}

/// A Pango context at 72 dpi, so font sizes are points on a PDF page: PangoCairo assumes
/// 96 dpi otherwise, and a 22 pt font would come out at 29.3 pt. Keeps its font map alive.
final class TextContext {
    let handle: OpaquePointer
    let fontMap: FontMap

    init(fontMap: FontMap) throws {
        handle = try checkHandle(pango_font_map_create_context(fontMap.handle), "pango_font_map_create_context")
        self.fontMap = fontMap
        pango_cairo_context_set_resolution(handle, 72)
        // Unhinted metrics on every surface, so a page measures and wraps the same in PDF, PNG
        // and SVG.
        let options = try checkHandle(cairo_font_options_create(), "cairo_font_options_create")
        defer { cairo_font_options_destroy(options) }
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        pango_cairo_context_set_font_options(handle, options)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// Takes the target's transformation and font options from `cairo`, so measuring and drawing agree.
    func update(from cairo: CairoContext) {
        pango_cairo_update_context(cairo.handle, handle)
    }
}

/// A Pango font description. Owns its `PangoFontDescription`.
final class FontDescription {
    let handle: OpaquePointer

    /// `pango_font_description_new` aborts rather than return NULL (GLib's allocator), so this cannot fail.
    init(_ font: FontSpec) {
        handle = pango_font_description_new()
        pango_font_description_set_family(handle, font.family)
        pango_font_description_set_size(handle, Int32((font.size * pangoScale).rounded()))
        pango_font_description_set_weight(handle, font.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
    }

    deinit { pango_font_description_free(handle) }
}

/// A Pango layout, reused for every text drawn through one context. Owns its `PangoLayout`
/// and keeps the context alive.
final class TextLayout {
    let handle: OpaquePointer
    let context: TextContext
    private var fonts: [FontSpec: FontDescription] = [:]

    init(context: TextContext) throws {
        handle = try checkHandle(pango_layout_new(context.handle), "pango_layout_new")
        self.context = context
        pango_layout_set_wrap(handle, PANGO_WRAP_WORD_CHAR)
    }

    deinit {
        clearCache()
        clearCache()
        g_object_unref(UnsafeMutableRawPointer(handle))
    }

    /// What a shaped text depends on.
    struct Key: Hashable {
        var text: String
        var font: FontSpec
        var width: Double
        var markup: Bool
        var maximumHeight: Double?
    }

    /// Shaped layouts of the current page, by key: a box measured while laying out the page is
    /// drawn from the same layout, so its text is shaped once, not twice.
    private var shaped: [Key: OpaquePointer] = [:]
    /// The previous page's layouts: the header, the units, the CAP and danger tags, the waypoint
    /// types and symbols come back on every page, and are shaped again only when a page went by
    /// without them. Two pages of layouts at most are kept, so memory stays flat.
    private var previous: [Key: OpaquePointer] = [:]

    /// The shaped, left-aligned layout of `key`, made on first use.
    func shapedLayout(_ key: Key) -> OpaquePointer {
        if let layout = shaped[key] { return layout }
        if let layout = previous.removeValue(forKey: key) {
            shaped[key] = layout
            return layout
        }
        if let layout = unwrappedLine(for: key) {
            g_object_ref(UnsafeMutableRawPointer(layout))
            shaped[key] = layout
            return layout
        }
        let layout = pango_layout_new(context.handle)!
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_font_description(layout, description(key.font).handle)
        pango_layout_set_width(layout, key.width.isFinite ? Int32((key.width * pangoScale).rounded(.down)) : -1)
        if let height = key.maximumHeight {
            pango_layout_set_height(layout, Int32((height * pangoScale).rounded(.down)))
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        }
        if key.markup { pango_layout_set_markup(layout, key.text, -1) } else { pango_layout_set_text(layout, key.text, -1) }
        shaped[key] = layout
        return layout
    }

    /// A text measured on one line at `BookLayout.unboundedWidth` (the odometer, the symbol tags)
    /// and then boxed at least as wide as that line lays out the same at the box's width: one line,
    /// left-aligned, nothing to wrap or cut. Its layout is used again rather than shaped a second time.
    private func unwrappedLine(for key: Key) -> OpaquePointer? {
        guard key.maximumHeight == nil, key.width.isFinite, key.width < BookLayout.unboundedWidth else { return nil }
        var line = key
        line.width = BookLayout.unboundedWidth
        guard let layout = shaped[line] ?? previous[line], pango_layout_get_line_count(layout) == 1 else { return nil }
        var width: Int32 = 0
        pango_layout_get_size(layout, &width, nil)
        return width <= Int32((key.width * pangoScale).rounded(.down)) ? layout : nil
    }
    /// Logical size of a shaped layout, in points.
    func size(of layout: OpaquePointer) -> TextSize {
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_size(layout, &width, &height)
        return TextSize(width: Double(width) / pangoScale, height: Double(height) / pangoScale)
    }

    /// Ends a page: its layouts become the previous page's, and those of the page before are freed.
    func clearCache() {
        for layout in previous.values { g_object_unref(UnsafeMutableRawPointer(layout)) }
        previous.removeAll(keepingCapacity: true)
        swap(&shaped, &previous)
    }

    private func description(_ font: FontSpec) -> FontDescription {
        if let cached = fonts[font] { return cached }
        let description = FontDescription(font)
        fonts[font] = description
        return description
    }

    /// Sets the text, font and wrapping width; when `maximumHeight` is given, lines beyond it are
    /// dropped and the last one ends in an ellipsis.
    func set(_ text: String, font: FontSpec, width: Double, alignment: PangoAlignment = PANGO_ALIGN_LEFT,
             maximumHeight: Double? = nil, markup: Bool = false) {
        pango_layout_set_font_description(handle, description(font).handle)
        pango_layout_set_width(handle, width.isFinite ? Int32((width * pangoScale).rounded(.down)) : -1)
        pango_layout_set_alignment(handle, alignment)
        if let maximumHeight {
            pango_layout_set_height(handle, Int32((maximumHeight * pangoScale).rounded(.down)))
            pango_layout_set_ellipsize(handle, PANGO_ELLIPSIZE_END)
        } else {
            pango_layout_set_height(handle, -1)
            pango_layout_set_ellipsize(handle, PANGO_ELLIPSIZE_NONE)
        }
        if markup {
            pango_layout_set_markup(handle, text, -1)
        } else {
            pango_layout_set_attributes(handle, nil)
            pango_layout_set_text(handle, text, -1)
        }
    }

    /// The logical size of the current text, in points.
    var size: TextSize {
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_size(handle, &width, &height)
        return TextSize(width: Double(width) / pangoScale, height: Double(height) / pangoScale)
    }

    /// Draws the current text with its top left corner at the current point of `cairo`.
    func show(in cairo: CairoContext) {
        pango_cairo_show_layout(cairo.handle, handle)
    }
}

/// Measures text with the same Pango layout the renderer draws with.
struct PangoMeasurer: TextMeasurer {
    let layout: TextLayout

    func measure(_ text: String, font: FontSpec, width: Double) -> TextSize {
        layout.size(of: layout.shapedLayout(.init(text: text, font: font, width: width, markup: false)))
    }

    func measure(markup: String, font: FontSpec, width: Double) -> TextSize {
        layout.size(of: layout.shapedLayout(.init(text: markup, font: font, width: width, markup: true)))
    }
}
