import Foundation
import Model

/// One thing drawn on a page: a frame, a decoration, or a text fitted into its rectangle.
public struct Box: Sendable, Equatable {
    /// What the box is; Render draws each kind its own way.
    public enum Kind: String, Sendable, CaseIterable {
        /// The title block; drawn as a rule along its bottom edge.
        case header
        case headerTitle
        /// Rally, stage and date.
        case headerInfo
        /// The unit of every distance in the book ("km", "mi").
        case headerUnits
        /// The three framed cells of a row.
        case distanceCell, tulipCell, notesCell
        case rowNumber
        /// The odometer reading, large.
        case totalDistance
        /// Distance since the previous row, in a framed box in the corner of the distance cell.
        case partialDistance
        /// Tells the rider to set the odometer to zero here.
        case odometerReset
        case waypointType
        case marker
        case noteText
        /// The CAP heading on a yellow tag.
        case cap
        case danger
        case footer
    }

    public enum HorizontalAlignment: String, Sendable { case left, center, right }
    public enum VerticalAlignment: String, Sendable { case top, middle, bottom }

    public var kind: Kind
    /// Where the box sits on the page, in points.
    public var rect: Rect
    /// The text to draw, fitted to `rect`; nil for frames and decorations.
    public var text: String?
    /// The font the text fits in (already shrunk when it had to be).
    public var font: FontSpec?
    public var horizontal: HorizontalAlignment
    public var vertical: VerticalAlignment
    /// The text did not fit even at the template's minimum size: the renderer cuts it off at
    /// the box's edge (with an ellipsis) rather than let it run into the next row.
    public var clipped: Bool
    /// The row the box belongs to, 1-based; nil for header and footer.
    public var row: Int?

    public init(kind: Kind, rect: Rect, text: String? = nil, font: FontSpec? = nil,
                horizontal: HorizontalAlignment = .left, vertical: VerticalAlignment = .top,
                clipped: Bool = false, row: Int? = nil) {
        self.kind = kind
        self.rect = rect
        self.text = text
        self.font = font
        self.horizontal = horizontal
        self.vertical = vertical
        self.clipped = clipped
        self.row = row
    }
}

/// The boxes of one page.
public struct PageLayout: Sendable, Equatable {
    /// 1-based.
    public var pageNumber: Int
    public var pageCount: Int
    public var size: PageSize
    /// Book rows on this page, in order (empty for a book without notes).
    public var rowNumbers: [Int]
    /// In drawing order: frames before the texts inside them.
    public var boxes: [Box]

    public init(pageNumber: Int, pageCount: Int, size: PageSize, rowNumbers: [Int], boxes: [Box]) {
        self.pageNumber = pageNumber
        self.pageCount = pageCount
        self.size = size
        self.rowNumbers = rowNumbers
        self.boxes = boxes
    }

    /// A stable, line-per-box text form of the page for golden tests: kind, rectangle (x y w h,
    /// points, two decimals), then for text boxes the font, alignment, a clip mark and the text.
    public func dump() -> String {
        var lines = ["page \(pageNumber) of \(pageCount) size \(Self.number(size.width)) x \(Self.number(size.height))"]
        for box in boxes {
            var line = box.kind.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0)
            line += [box.rect.x, box.rect.y, box.rect.width, box.rect.height].map(Self.number).joined(separator: " ")
            if let text = box.text {
                if let font = box.font {
                    line += " \(Self.number(font.size))pt" + (font.bold ? " bold" : "")
                }
                line += " \(box.horizontal.rawValue)/\(box.vertical.rawValue)"
                if box.clipped { line += " CLIPPED" }
                line += " \"" + text.replacingOccurrences(of: "\n", with: "\\n") + "\""
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func number(_ value: Double) -> String { String(format: "%.2f", value) }
}

/// Turns a book and a template into pages of boxes. Pure: text is measured through the
/// `TextMeasurer` handed in.
public enum BookLayout {
    /// Lays out `book` on pages of `template`. Rows never split across pages; a text that does
    /// not fit its box shrinks down to the template's minimum size and is then marked clipped.
    /// O(notes × shrink steps) measurements.
    public static func paginate(book: Book, template: PageTemplate, measurer: some TextMeasurer) -> [PageLayout] {
        let rows = RowContent.rows(of: book)
        let perPage = template.rowsPerPage
        let pageCount = max(1, (rows.count + perPage - 1) / perPage)
        let fitter = Fitter(measurer: measurer, minimumSize: template.minimumFontSize)
        var pages: [PageLayout] = []
        pages.reserveCapacity(pageCount)
        for index in 0..<pageCount {
            let pageRows = rows[min(rows.count, index * perPage)..<min(rows.count, (index + 1) * perPage)]
            var boxes = headerBoxes(book: book, template: template, fitter: fitter)
            let body = template.bodyRect
            for (slot, row) in pageRows.enumerated() {
                let rect = Rect(x: body.x, y: body.y + Double(slot) * template.rowHeight,
                                width: body.width, height: template.rowHeight)
                boxes += rowBoxes(row, in: rect, template: template, fitter: fitter)
            }
            boxes += footerBoxes(page: index + 1, of: pageCount, template: template, fitter: fitter)
            pages.append(PageLayout(pageNumber: index + 1, pageCount: pageCount, size: template.pageSize,
                                    rowNumbers: pageRows.map(\.number), boxes: boxes))
        }
        return pages
    }

    static func headerBoxes(book: Book, template: PageTemplate, fitter: Fitter<some TextMeasurer>) -> [Box] {
        let m = template.margins
        let header = Rect(x: m.left, y: m.top, width: template.pageSize.width - m.left - m.right,
                          height: template.headerHeight)
        let unitsWidth = 40.0
        let textWidth = header.width - unitsWidth
        let titleHeight = header.height * 0.5
        var boxes = [Box(kind: .header, rect: header)]
        boxes.append(fitter.box(.headerTitle, book.title, template.fonts.title,
                                Rect(x: header.x, y: header.y, width: textWidth, height: titleHeight),
                                vertical: .bottom))
        let info = [book.rally, book.stage, book.date].compactMap { $0 }.filter { !$0.isEmpty }
        if !info.isEmpty {
            boxes.append(fitter.box(.headerInfo, info.joined(separator: "  ·  "), template.fonts.headerInfo,
                                    Rect(x: header.x, y: header.y + titleHeight + 1, width: textWidth,
                                         height: header.height - titleHeight - 4)))
        }
        boxes.append(fitter.box(.headerUnits, DistanceFormat.label(book.settings.units), template.fonts.title,
                                Rect(x: header.maxX - unitsWidth, y: header.y, width: unitsWidth, height: titleHeight),
                                horizontal: .right, vertical: .bottom))
        return boxes
    }

    static func rowBoxes(_ row: RowContent, in rect: Rect, template: PageTemplate,
                         fitter: Fitter<some TextMeasurer>) -> [Box] {
        let fonts = template.fonts
        let p = template.cellPadding
        let distance = Rect(x: rect.x, y: rect.y, width: rect.width * template.distanceColumnFraction,
                            height: rect.height)
        let tulip = Rect(x: distance.maxX, y: rect.y, width: rect.width * template.tulipColumnFraction,
                         height: rect.height)
        let notes = Rect(x: tulip.maxX, y: rect.y, width: rect.maxX - tulip.maxX, height: rect.height)
        let n = row.number
        var boxes = [Box(kind: .distanceCell, rect: distance, row: n),
                     Box(kind: .tulipCell, rect: tulip, row: n),
                     Box(kind: .notesCell, rect: notes, row: n)]

        // Distance cell: number top left, odometer large in the middle, partial in the bottom-right corner.
        let numberHeight = fonts.rowNumber.size * 1.6
        let cornerHeight = fonts.partialDistance.size * 2
        let cornerWidth = distance.width * 0.5
        boxes.append(fitter.box(.rowNumber, String(n), fonts.rowNumber,
                                Rect(x: distance.x + p, y: distance.y + p, width: distance.width / 3, height: numberHeight),
                                row: n))
        boxes.append(fitter.box(.totalDistance, row.totalText, fonts.totalDistance,
                                Rect(x: distance.x + p, y: distance.y + p + numberHeight,
                                     width: distance.width - 2 * p,
                                     height: distance.height - 2 * p - numberHeight - cornerHeight),
                                horizontal: .center, vertical: .middle, row: n))
        let corner = Rect(x: distance.maxX - cornerWidth, y: distance.maxY - cornerHeight,
                          width: cornerWidth, height: cornerHeight)
        boxes.append(fitter.box(.partialDistance, row.partialText, fonts.partialDistance, corner,
                                horizontal: .center, vertical: .middle, row: n))
        if row.resetsOdometer {
            boxes.append(fitter.box(.odometerReset, "RESET", fonts.odometerReset,
                                    Rect(x: distance.x + p, y: corner.y, width: corner.x - distance.x - 2 * p,
                                         height: cornerHeight),
                                    vertical: .middle, row: n))
        }

        // Notes cell: waypoint type and marker on top, instruction, then CAP and danger at the bottom.
        let inner = notes.inset(by: p)
        var textTop = inner.y
        let tagHeight = fonts.marker.size * 1.7
        var x = inner.x
        if let type = row.waypointType {
            let width = min(inner.width, fonts.waypointType.size * 3.6)
            boxes.append(fitter.box(.waypointType, type, fonts.waypointType,
                                    Rect(x: x, y: inner.y, width: width, height: tagHeight),
                                    horizontal: .center, vertical: .middle, row: n))
            x += width + p
        }
        if let marker = row.marker {
            boxes.append(fitter.box(.marker, marker, fonts.marker,
                                    Rect(x: x, y: inner.y, width: max(0, inner.maxX - x), height: tagHeight),
                                    vertical: .middle, row: n))
        }
        if row.waypointType != nil || row.marker != nil { textTop += tagHeight + p }
        var textBottom = inner.maxY
        let bottomHeight = fonts.danger.size * 1.4
        if row.capText != nil || row.dangerText != nil { textBottom -= bottomHeight + p }
        if let cap = row.capText {
            boxes.append(fitter.box(.cap, cap, fonts.cap,
                                    Rect(x: inner.x, y: inner.maxY - bottomHeight, width: fonts.cap.size * 4.6,
                                         height: bottomHeight),
                                    horizontal: .center, vertical: .middle, row: n))
        }
        if let danger = row.dangerText {
            let width = fonts.danger.size * 2.5
            boxes.append(fitter.box(.danger, danger, fonts.danger,
                                    Rect(x: inner.maxX - width, y: inner.maxY - bottomHeight, width: width,
                                         height: bottomHeight),
                                    horizontal: .right, vertical: .middle, row: n))
        }
        if !row.text.isEmpty {
            boxes.append(fitter.box(.noteText, row.text, fonts.noteText,
                                    Rect(x: inner.x, y: textTop, width: inner.width, height: max(0, textBottom - textTop)),
                                    row: n))
        }
        return boxes
    }

    static func footerBoxes(page: Int, of count: Int, template: PageTemplate,
                            fitter: Fitter<some TextMeasurer>) -> [Box] {
        let m = template.margins
        let rect = Rect(x: m.left, y: template.pageSize.height - m.bottom - template.footerHeight,
                        width: template.pageSize.width - m.left - m.right, height: template.footerHeight)
        return [fitter.box(.footer, "page \(page) of \(count)", template.fonts.footer, rect,
                           horizontal: .center, vertical: .bottom)]
    }
}

/// Fits text into a box: shrinks the font in half-point steps down to a minimum, then marks the
/// text clipped.
struct Fitter<M: TextMeasurer> {
    let measurer: M
    let minimumSize: Double
    /// Half a point: fine enough to fill a box, coarse enough that sizes in dumps stay readable.
    static var step: Double { 0.5 }

    func box(_ kind: Box.Kind, _ text: String, _ font: FontSpec, _ rect: Rect,
             horizontal: Box.HorizontalAlignment = .left, vertical: Box.VerticalAlignment = .top,
             row: Int? = nil) -> Box {
        let (fitted, clipped) = fit(text, font, rect)
        return Box(kind: kind, rect: rect, text: text, font: fitted, horizontal: horizontal, vertical: vertical,
                   clipped: clipped, row: row)
    }

    func fit(_ text: String, _ font: FontSpec, _ rect: Rect) -> (FontSpec, clipped: Bool) {
        let tolerance = 1e-6
        var size = font.size
        while true {
            let measured = measurer.measure(text, font: font.resized(size), width: rect.width)
            if measured.width <= rect.width + tolerance && measured.height <= rect.height + tolerance {
                return (font.resized(size), false)
            }
            if size <= minimumSize { return (font.resized(size), true) }
            size = max(minimumSize, size - Self.step)
        }
    }
}
