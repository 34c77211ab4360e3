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
        /// The distance cell's background when the next row is close.
        case nearNext
        /// The three framed cells of a row. A tulip cell carries the note's tulip, drawn in it.
        case distanceCell, tulipCell, notesCell
        case rowNumber
        /// The odometer reading, large, up to its decimal point.
        case totalDistance
        /// The odometer's hundredths, set apart in a smaller size after the decimal point.
        case totalDistanceHundredths
        /// The height at the row.
        case elevation
        /// Distance since the previous row, in a framed box in the corner of the distance cell.
        case partialDistance
        /// Tells the rider to set the odometer to zero here.
        case odometerReset
        case waypointType
        case marker
        case noteText
        /// The CAP heading on a yellow tag.
        case cap
        /// `!` and `!!`.
        case danger
        /// `!!!`: framed in the danger colour.
        case dangerHigh
        /// A speed-zone sign at a DZ: the limit in a red ring.
        case speedLimit
        /// The end of a speed zone (FZ): the limit struck through in grey.
        case speedLimitEnd
        /// A road-book symbol: its pictogram (`Box.symbol`), or, without one, its name as a small tag.
        case symbol
        /// A regularity book's time column: its header over the column in the page header, the
        /// framed cell, the ideal time in it, a new average ("→ 42 km/h") framed at its foot, and
        /// a section's first row and its finish tagged in the DSS and ASS colours.
        case headerTime, timeCell, idealTime, speedChange, sectionStart, sectionFinish
        case footer
        /// The lexicon's title, its groups' titles, and the meaning beside each symbol.
        case lexiconTitle, lexiconGroup, lexiconMeaning
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
    /// The text is Pango markup (bold and italic runs).
    public var markup: Bool = false
    /// The tulip drawn in a tulip cell.
    public var tulip: Tulip? = nil
    /// The symbol whose pictogram is drawn in the box, fitted to `rect` (its text, if any, on top:
    /// the limit in the speed sign); nil for a box drawn its kind's own way.
    public var symbol: NoteSymbol? = nil

    public init(kind: Kind, rect: Rect, text: String? = nil, font: FontSpec? = nil,
                horizontal: HorizontalAlignment = .left, vertical: VerticalAlignment = .top,
                clipped: Bool = false, row: Int? = nil, tulip: Tulip? = nil) {
        self.tulip = tulip
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
                if box.markup { line += " markup" }
                line += " \"" + text.replacingOccurrences(of: "\n", with: "\\n") + "\""
            }
            if let tulip = box.tulip { line += " tulip " + Self.describe(tulip) }
            if let symbol = box.symbol { line += " pictogram \(symbol.name)" }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func number(_ value: Double) -> String { String(format: "%.2f", value) }

    /// A tulip in one line: origin, roads as role:class@angle, roundabout exit, stroke count.
    static func describe(_ tulip: Tulip) -> String {
        var parts = [tulip.origin.rawValue]
        parts += tulip.roads.map { "\($0.role.rawValue):\($0.roadClass.rawValue)@\(Int($0.angle.rounded()))" }
        if let r = tulip.roundabout { parts.append("roundabout exit \(r.exitNumber)\(r.clockwise ? " clockwise" : "")") }
        if !tulip.strokes.isEmpty { parts.append("\(tulip.strokes.count) strokes") }
        return "[" + parts.joined(separator: " ") + "]"
    }
}

/// Turns a book and a template into pages of boxes. Pure: text is measured through the
/// `TextMeasurer` handed in.
///
/// Pages are made one at a time (`BookPages`), so a renderer that draws each page before asking
/// for the next keeps memory flat however long the book is.
public enum BookLayout {
    /// A width no text reaches: measures a line without wrapping it.
    public static let unboundedWidth = 100_000.0

    /// The pages of `book`, laid out on demand. Rows never split across pages; a text that does not
    /// fit its box shrinks down to the template's minimum size and is then marked clipped.
    /// - Parameter precedingPages: pages printed before the rows (1 for a cover): they count in
    ///   the footers' "page N of M".
    /// - Parameters:
    ///   - followingPages: pages printed after the rows (the lexicon): they count in "of M" too.
    ///   - pictograms: the symbols whose pictograms can be drawn; every other symbol prints as its
    ///     name in a tag, and a field (waypoint type, danger, …) as its text.
    public static func pages<M: TextMeasurer>(book: Book, template: PageTemplate, measurer: M,
                                              precedingPages: Int = 0, followingPages: Int = 0,
                                              pictograms: Set<NoteSymbol> = []) -> BookPages<M> {
        BookPages(book: book, template: template, measurer: measurer, precedingPages: precedingPages,
                  followingPages: followingPages, pictograms: pictograms)
    }

    /// Number of row pages `book` needs on `template`.
    public static func pageCount(rows: Int, template: PageTemplate) -> Int {
        max(1, (rows + template.rowsPerPage - 1) / template.rowsPerPage)
    }

    static func headerBoxes(book: Book, template: PageTemplate, width: Double, fitter: Fitter<some TextMeasurer>) -> [Box] {
        let m = template.margins
        let header = Rect(x: m.left, y: m.top, width: width - m.left - m.right, height: template.headerHeight)
        let unitsWidth = 40.0
        let textWidth = header.width - unitsWidth
        let titleHeight = header.height * 0.5
        let timed = book.settings.purpose == .regularity
        // In a regularity book, "Time" stands over each sheet column's time column, at the foot of
        // the header; the rally line keeps left of the first.
        let timeColumns = timed ? (0..<template.sheetColumns).map { timeRect(inRow: template.columnRect($0), template: template) } : []
        var boxes = [Box(kind: .header, rect: header)]
        boxes.append(fitter.box(.headerTitle, book.title, template.fonts.title,
                                Rect(x: header.x, y: header.y, width: textWidth, height: titleHeight),
                                vertical: .bottom))
        let info = [book.rally, book.stage, book.date].compactMap { $0 }.filter { !$0.isEmpty }
        if !info.isEmpty {
            let infoWidth = timeColumns.first.map { min(textWidth, $0.x - header.x - template.cellPadding) } ?? textWidth
            boxes.append(fitter.box(.headerInfo, info.joined(separator: "  ·  "), template.fonts.headerInfo,
                                    Rect(x: header.x, y: header.y + titleHeight + 1, width: max(0, infoWidth),
                                         height: header.height - titleHeight - 4)))
        }
        boxes.append(fitter.box(.headerUnits, DistanceFormat.label(book.settings.units), template.fonts.title,
                                Rect(x: header.maxX - unitsWidth, y: header.y, width: unitsWidth, height: titleHeight),
                                horizontal: .right, vertical: .bottom))
        for column in timeColumns {
            boxes.append(fitter.box(.headerTime, IdealTimeFormat.header(in: Phrasebook.of(book.settings.language)), template.fonts.headerInfo,
                                    Rect(x: column.x, y: header.y + titleHeight + 1, width: column.width,
                                         height: header.height - titleHeight - 4),
                                    horizontal: .center, vertical: .bottom))
        }
        return boxes
    }

    /// The time column of a regularity book's row `rect`: its right-hand share (`timeColumnFraction`).
    static func timeRect(inRow rect: Rect, template: PageTemplate) -> Rect {
        let width = rect.width * template.timeColumnFraction
        return Rect(x: rect.maxX - width, y: rect.y, width: width, height: rect.height)
    }

    /// The boxes of one row; `timed` (a regularity book) adds the time column at its right.
    /// - Parameter words: the book's language, for the reset mark and the symbols' tags.
    static func rowBoxes(_ row: RowContent, in rect: Rect, template: PageTemplate,
                         fitter: Fitter<some TextMeasurer>, words: Phrasebook = .english, timed: Bool = false,
                         pictograms: Set<NoteSymbol> = []) -> [Box] {
        let fonts = template.fonts
        let p = template.cellPadding
        let distance = Rect(x: rect.x, y: rect.y, width: rect.width * template.distanceColumnFraction,
                            height: rect.height)
        let tulip = Rect(x: distance.maxX, y: rect.y, width: rect.width * template.tulipColumnFraction,
                         height: rect.height)
        let time = timed ? timeRect(inRow: rect, template: template) : nil
        let notes = Rect(x: tulip.maxX, y: rect.y, width: (time?.x ?? rect.maxX) - tulip.maxX, height: rect.height)
        let n = row.number
        var boxes: [Box] = []
        if row.nextIsNear { boxes.append(Box(kind: .nearNext, rect: distance, row: n)) }
        boxes += [Box(kind: .distanceCell, rect: distance, row: n),
                  Box(kind: .tulipCell, rect: tulip, row: n, tulip: row.tulip),
                  Box(kind: .notesCell, rect: notes, row: n)]
        boxes += distanceBoxes(row, in: distance, template: template, fitter: fitter, words: words, pictograms: pictograms)
        if let time { boxes += timeBoxes(row, in: time, template: template, fitter: fitter, words: words) }

        // Notes cell: waypoint type, marker and speed sign on top; the instruction; symbols; CAP and
        // danger at the bottom. A field the library has a pictogram for is drawn as it, where its
        // text would be; the line it is on grows to hold it (up to a third of the cell on top, a
        // quarter at the bottom).
        let inner = notes.inset(by: p)
        var textTop = inner.y
        let tagHeight = fonts.marker.size * 1.7
        let typeSymbol = row.waypointType.flatMap(WaypointType.init(name:)).map(NoteSymbol.of)
        let typePictogram = typeSymbol.flatMap { pictograms.contains($0) ? $0 : nil }
        let topHeight = typePictogram == nil ? tagHeight : max(tagHeight, min(PictogramSize.side, inner.height / 3))
        var x = inner.x
        var right = inner.maxX
        let speedSide = min(tagHeight * 1.6, inner.height / 3)
        if let limit = row.speedLimit {
            let end = row.waypointType == WaypointType.fz.rawValue
            let sign = Rect(x: right - speedSide, y: inner.y, width: speedSide, height: speedSide)
            if !end, pictograms.contains(.speedLimit) {
                // The limit inside the sign's ring: fitted to the ring's inner part, centred in the sign.
                let (font, clipped) = fitter.fit(String(limit), fonts.speedLimit, sign.inset(by: speedSide * 0.2))
                var box = Box(kind: .speedLimit, rect: sign, text: String(limit), font: font, horizontal: .center,
                              vertical: .middle, clipped: clipped, row: n)
                box.symbol = .speedLimit
                boxes.append(box)
            } else {
                boxes.append(fitter.box(end ? .speedLimitEnd : .speedLimit, String(limit), fonts.speedLimit, sign,
                                        horizontal: .center, vertical: .middle, row: n))
            }
            right -= speedSide + p
        }
        if let type = row.waypointType {
            if let symbol = typePictogram {
                boxes.append(Self.pictogram(.waypointType, symbol, Rect(x: x, y: inner.y, width: topHeight, height: topHeight), row: n))
                x += topHeight + p
            } else {
                let width = min(inner.width, fonts.waypointType.size * 3.6)
                boxes.append(fitter.box(.waypointType, type, fonts.waypointType,
                                        Rect(x: x, y: inner.y, width: width, height: tagHeight),
                                        horizontal: .center, vertical: .middle, row: n))
                x += width + p
            }
        }
        if let marker = row.marker {
            // On the top line's first tag height, as beside a type's tag: level with the row number.
            boxes.append(fitter.box(.marker, marker, fonts.marker,
                                    Rect(x: x, y: inner.y, width: max(0, right - x), height: tagHeight),
                                    vertical: .middle, row: n))
        }
        if row.waypointType != nil || row.marker != nil || row.speedLimit != nil {
            textTop += (row.speedLimit != nil ? max(topHeight, speedSide) : topHeight) + p
        }
        var textBottom = inner.maxY
        let dangerSymbol = row.dangerText.flatMap { NoteSymbol.danger($0.count) }
        let dangerPictogram = dangerSymbol.flatMap { pictograms.contains($0) ? $0 : nil }
        let capPictogram = row.capText != nil && pictograms.contains(.cap)
        var bottomHeight = fonts.danger.size * 1.4
        if dangerPictogram != nil || capPictogram {
            bottomHeight = max(bottomHeight, min(PictogramSize.side, inner.height / 4))
        }
        if row.capText != nil || row.dangerText != nil { textBottom -= bottomHeight + p }
        if let cap = row.capText {
            var capX = inner.x
            if capPictogram {
                boxes.append(Self.pictogram(.cap, .cap, Rect(x: capX, y: inner.maxY - bottomHeight, width: bottomHeight,
                                                             height: bottomHeight), row: n))
                capX += bottomHeight + p
            }
            let tag = fonts.danger.size * 1.4
            boxes.append(fitter.box(.cap, cap, fonts.cap,
                                    Rect(x: capX, y: inner.maxY - (bottomHeight + tag) / 2, width: fonts.cap.size * 4.6,
                                         height: tag),
                                    horizontal: .center, vertical: .middle, row: n))
        }
        if let danger = row.dangerText {
            if let symbol = dangerPictogram {
                boxes.append(Self.pictogram(.danger, symbol, Rect(x: inner.maxX - bottomHeight, y: inner.maxY - bottomHeight,
                                                                  width: bottomHeight, height: bottomHeight), row: n))
            } else {
                let width = fonts.danger.size * 2.5
                boxes.append(fitter.box(danger.count >= 3 ? .dangerHigh : .danger, danger, fonts.danger,
                                        Rect(x: inner.maxX - width, y: inner.maxY - bottomHeight, width: width,
                                             height: bottomHeight),
                                        horizontal: .center, vertical: .middle, row: n))
            }
        }
        if !row.symbols.isEmpty {
            let reserve = row.text.isEmpty ? 0 : fonts.noteText.size * 1.2
            let flow = symbolBoxes(row.symbols, from: inner.x, to: inner.maxX, bottom: textBottom,
                                   room: max(0, textBottom - textTop - reserve), template: template, fitter: fitter,
                                   words: words, pictograms: pictograms, row: n)
            boxes += flow.boxes
            textBottom = flow.top - p
        }
        if !row.text.isEmpty {
            boxes.append(fitter.box(.noteText, NoteMarkup.pango(from: row.text), fonts.noteText,
                                    Rect(x: inner.x, y: textTop, width: inner.width, height: max(0, textBottom - textTop)),
                                    row: n, markup: true))
        }
        return boxes
    }

    /// A box drawing `symbol`'s pictogram in `rect`.
    static func pictogram(_ kind: Box.Kind, _ symbol: NoteSymbol, _ rect: Rect, row: Int?) -> Box {
        var box = Box(kind: kind, rect: rect, row: row)
        box.symbol = symbol
        return box
    }

    /// A row's own symbols, side by side from `left` to `right` in lines ending at `bottom`:
    /// pictograms `PictogramSize.side` square, shrinking down to `PictogramSize.minimumSide` when
    /// their lines would take more than `room`; a symbol without a pictogram as its name in a tag.
    /// Lines wrap as the width asks; a symbol that finds no place even at the smallest size is left
    /// out (a row has few symbols; ten at 5 mm fill an A5 notes cell's line twice).
    /// - Returns: the boxes and the top of the lines (`bottom` when there are none).
    static func symbolBoxes(_ symbols: [NoteSymbol], from left: Double, to right: Double, bottom: Double, room: Double,
                            template: PageTemplate, fitter: Fitter<some TextMeasurer>, words: Phrasebook = .english,
                            pictograms: Set<NoteSymbol>, row: Int) -> (boxes: [Box], top: Double) {
        let fonts = template.fonts
        let p = template.cellPadding
        let tagHeight = fonts.symbol.size * 1.6
        let tagWidths = symbols.map { symbol in
            pictograms.contains(symbol) ? 0
                : fitter.measurer.measure(SymbolFormat.label(symbol, in: words), font: fonts.symbol, width: BookLayout.unboundedWidth).width + 2 * p
        }
        let drawsPictograms = symbols.contains { pictograms.contains($0) }
        /// The lines at pictogram side `side`: the indices of each line's symbols, and the line height.
        func lines(side: Double) -> (lines: [[Int]], height: Double) {
            let height = drawsPictograms ? max(side, tagHeight) : tagHeight
            var result: [[Int]] = [[]]
            var x = left
            for (i, symbol) in symbols.enumerated() {
                let width = pictograms.contains(symbol) ? side : tagWidths[i]
                if x + width > right + 1e-6, !result[result.count - 1].isEmpty {
                    result.append([])
                    x = left
                }
                result[result.count - 1].append(i)
                x += width + p
            }
            return (result, height)
        }
        func extent(_ laid: (lines: [[Int]], height: Double)) -> Double {
            Double(laid.lines.count) * laid.height + Double(laid.lines.count - 1) * p
        }
        var side = drawsPictograms ? min(PictogramSize.side, max(room, PictogramSize.minimumSide)) : 0
        var laid = lines(side: side)
        while drawsPictograms, extent(laid) > room + 1e-6, side > PictogramSize.minimumSide {
            side = max(PictogramSize.minimumSide, side - 1)
            laid = lines(side: side)
        }
        // As many lines as the room takes (one at least), the last lines left out.
        let fitting = max(1, min(laid.lines.count, Int(((room + p) / (laid.height + p)).rounded(.down))))
        let kept = Array(laid.lines.prefix(fitting))
        let top = bottom - Double(kept.count) * laid.height - Double(kept.count - 1) * p
        var boxes: [Box] = []
        for (k, line) in kept.enumerated() {
            let y = top + Double(k) * (laid.height + p)
            var x = left
            for i in line {
                let symbol = symbols[i]
                if pictograms.contains(symbol) {
                    guard x + side <= right + 1e-6 else { break }
                    boxes.append(pictogram(.symbol, symbol, Rect(x: x, y: y, width: side, height: side), row: row))
                    x += side + p
                } else {
                    guard x + tagWidths[i] <= right + 1e-6 else { break }
                    boxes.append(fitter.box(.symbol, SymbolFormat.label(symbol, in: words), fonts.symbol,
                                            Rect(x: x, y: y + (laid.height - tagHeight) / 2, width: tagWidths[i], height: tagHeight),
                                            horizontal: .center, vertical: .middle, row: row))
                    x += tagWidths[i] + p
                }
            }
        }
        return (boxes, top)
    }

    /// The time cell: a section's START or FINISH tag at the top, the ideal time large in the
    /// middle (blank where the row has none), a new average framed at the foot.
    static func timeBoxes(_ row: RowContent, in cell: Rect, template: PageTemplate,
                          fitter: Fitter<some TextMeasurer>, words: Phrasebook = .english) -> [Box] {
        let fonts = template.fonts
        let p = template.cellPadding
        let n = row.number
        let inner = cell.inset(by: p)
        var boxes = [Box(kind: .timeCell, rect: cell, row: n)]
        var top = inner.y, bottom = inner.maxY
        if let mark = row.sectionMark {
            let height = fonts.waypointType.size * 1.7
            boxes.append(fitter.box(mark == .start ? .sectionStart : .sectionFinish, IdealTimeFormat.label(mark, in: words), fonts.waypointType,
                                    Rect(x: inner.x, y: inner.y, width: inner.width, height: height),
                                    horizontal: .center, vertical: .middle, row: n, oneLine: true))
            top += height + p
        }
        if let speed = row.speedChange {
            let height = fonts.marker.size * 1.7
            let bold = FontSpec(family: fonts.marker.family, size: fonts.marker.size, bold: true)
            boxes.append(fitter.box(.speedChange, IdealTimeFormat.speedChange(speed, in: words), bold,
                                    Rect(x: inner.x, y: inner.maxY - height, width: inner.width, height: height),
                                    horizontal: .center, vertical: .middle, row: n, oneLine: true))
            bottom -= height + p
        }
        if let time = row.idealTimeText {
            // The odometer's hundredths' size, bold: read at a glance, and "00:00:00" fits an A5 time column.
            let font = FontSpec(family: fonts.totalDistanceHundredths.family, size: fonts.totalDistanceHundredths.size, bold: true)
            boxes.append(fitter.box(.idealTime, time, font,
                                    Rect(x: inner.x, y: top, width: inner.width, height: max(0, bottom - top)),
                                    horizontal: .center, vertical: .middle, row: n, oneLine: true))
        }
        return boxes
    }

    /// Number top left, height top right, odometer large in the middle with its hundredths set
    /// apart, the partial in the bottom-right corner box, a reset mark beside it.
    static func distanceBoxes(_ row: RowContent, in distance: Rect, template: PageTemplate,
                              fitter: Fitter<some TextMeasurer>, words: Phrasebook = .english,
                              pictograms: Set<NoteSymbol> = []) -> [Box] {
        let fonts = template.fonts
        let p = template.cellPadding
        let n = row.number
        var boxes: [Box] = []
        let numberHeight = fonts.rowNumber.size * 1.6
        let cornerHeight = fonts.partialDistance.size * 2
        let cornerWidth = distance.width * 0.5
        boxes.append(fitter.box(.rowNumber, String(n), fonts.rowNumber,
                                Rect(x: distance.x + p, y: distance.y + p, width: distance.width / 3, height: numberHeight),
                                row: n))
        if let elevation = row.elevationText {
            boxes.append(fitter.box(.elevation, elevation, fonts.elevation,
                                    Rect(x: distance.x + distance.width / 3, y: distance.y + p,
                                         width: distance.width * 2 / 3 - p, height: numberHeight),
                                    horizontal: .right, row: n))
        }
        let odometer = Rect(x: distance.x + p, y: distance.y + p + numberHeight, width: distance.width - 2 * p,
                            height: distance.height - 2 * p - numberHeight - cornerHeight)
        boxes += odometerBoxes(row.totalText, in: odometer, template: template, fitter: fitter, row: n)
        let corner = Rect(x: distance.maxX - cornerWidth, y: distance.maxY - cornerHeight,
                          width: cornerWidth, height: cornerHeight)
        boxes.append(fitter.box(.partialDistance, row.partialText, fonts.partialDistance, corner,
                                horizontal: .center, vertical: .middle, row: n))
        if row.resetsOdometer, pictograms.contains(.reset) {
            boxes.append(pictogram(.odometerReset, .reset, Rect(x: distance.x + p, y: corner.y, width: cornerHeight,
                                                                height: cornerHeight), row: n))
        } else if row.resetsOdometer {
            boxes.append(fitter.box(.odometerReset, words[.odometerReset], fonts.odometerReset,
                                    Rect(x: distance.x + p, y: corner.y, width: corner.x - distance.x - 2 * p,
                                         height: cornerHeight),
                                    vertical: .middle, row: n))
        }
        return boxes
    }

    /// "12.34" as "12." in the large font and "34" after it in the smaller one, centred together
    /// and sharing a bottom line; both shrink together when the reading is too wide.
    static func odometerBoxes(_ text: String, in rect: Rect, template: PageTemplate,
                              fitter: Fitter<some TextMeasurer>, row: Int) -> [Box] {
        guard let dot = text.lastIndex(of: ".") else {
            return [fitter.box(.totalDistance, text, template.fonts.totalDistance, rect,
                               horizontal: .center, vertical: .middle, row: row)]
        }
        let whole = String(text[...dot]), hundredths = String(text[text.index(after: dot)...])
        var big = template.fonts.totalDistance, small = template.fonts.totalDistanceHundredths
        let ratio = small.size / big.size
        var w1 = 0.0, w2 = 0.0, h = 0.0
        var clipped = false
        while true {
            let a = fitter.measurer.measure(whole, font: big, width: BookLayout.unboundedWidth)
            let b = fitter.measurer.measure(hundredths, font: small, width: BookLayout.unboundedWidth)
            w1 = a.width; w2 = b.width; h = a.height
            if w1 + w2 <= rect.width + 1e-6 && h <= rect.height + 1e-6 { break }
            if big.size <= template.minimumFontSize { clipped = true; break }
            big = big.resized(max(template.minimumFontSize, big.size - 0.5))
            small = small.resized(max(template.minimumFontSize * ratio, big.size * ratio))
        }
        let x = rect.x + max(0, (rect.width - w1 - w2) / 2)
        let y = rect.y + max(0, (rect.height - h) / 2)
        return [
            Box(kind: .totalDistance, rect: Rect(x: x, y: y, width: min(w1, rect.width), height: min(h, rect.height)),
                text: whole, font: big, horizontal: .right, vertical: .bottom, clipped: clipped, row: row),
            Box(kind: .totalDistanceHundredths,
                rect: Rect(x: x + w1, y: y, width: max(0, min(w2, rect.maxX - x - w1)), height: min(h, rect.height)),
                text: hundredths, font: small, horizontal: .left, vertical: .bottom, clipped: clipped, row: row),
        ]
    }

    static func footerBoxes(page: Int, of count: Int, size: PageSize, template: PageTemplate,
                            fitter: Fitter<some TextMeasurer>, words: Phrasebook = .english) -> [Box] {
        let m = template.margins
        let rect = Rect(x: m.left, y: size.height - m.bottom - template.footerHeight,
                        width: size.width - m.left - m.right, height: template.footerHeight)
        return [fitter.box(.footer, words.text(.pageFooter, ["page": String(page), "pages": String(count)]),
                           template.fonts.footer, rect,
                           horizontal: .center, vertical: .bottom)]
    }
}

/// The row pages of a book, laid out one at a time as they are iterated.
public struct BookPages<M: TextMeasurer>: Sequence {
    public let book: Book
    public let template: PageTemplate
    let measurer: M
    public let rows: [RowContent]
    /// Number of row pages.
    public let count: Int
    /// Pages printed before the rows (a cover).
    let precedingPages: Int
    /// Pages printed after the rows (the lexicon).
    let followingPages: Int
    /// The symbols drawn as pictograms.
    let pictograms: Set<NoteSymbol>
    /// The words of the book's language (`BookSettings.language`).
    let words: Phrasebook

    init(book: Book, template: PageTemplate, measurer: M, precedingPages: Int, followingPages: Int = 0,
         pictograms: Set<NoteSymbol> = []) {
        self.book = book
        self.template = template
        self.measurer = measurer
        rows = RowContent.rows(of: book, nearNextWithin: template.highlightNextWithin)
        count = BookLayout.pageCount(rows: rows.count, template: template)
        self.precedingPages = precedingPages
        self.followingPages = followingPages
        self.pictograms = pictograms
        words = Phrasebook.of(book.settings.language)
    }

    /// Row page `index` (0-based) laid out.
    public func page(_ index: Int) -> PageLayout {
        let fitter = Fitter(measurer: measurer, minimumSize: template.minimumFontSize)
        let perPage = template.rowsPerPage
        let pageRows = rows[Swift.min(rows.count, index * perPage)..<Swift.min(rows.count, (index + 1) * perPage)]
        let size = template.pageSize(rows: template.roll == nil ? perPage : pageRows.count)
        var boxes = BookLayout.headerBoxes(book: book, template: template, width: size.width, fitter: fitter)
        for (slot, row) in pageRows.enumerated() {
            let column = template.columnRect(slot / template.rowsPerColumn)
            let rect = Rect(x: column.x, y: column.y + Double(slot % template.rowsPerColumn) * template.rowHeight,
                            width: column.width, height: template.rowHeight)
            boxes += BookLayout.rowBoxes(row, in: rect, template: template, fitter: fitter, words: words,
                                         timed: book.settings.purpose == .regularity, pictograms: pictograms)
        }
        let number = precedingPages + index + 1
        let total = precedingPages + count + followingPages
        boxes += BookLayout.footerBoxes(page: number, of: total, size: size, template: template, fitter: fitter, words: words)
        return PageLayout(pageNumber: number, pageCount: total, size: size,
                          rowNumbers: pageRows.map(\.number), boxes: boxes)
    }

    public func makeIterator() -> AnyIterator<PageLayout> {
        var next = 0
        return AnyIterator {
            guard next < count else { return nil }
            defer { next += 1 }
            return page(next)
        }
    }
}

/// Printed symbol names, for a symbol drawn without its pictogram.
public enum SymbolFormat {
    /// The tag printed for a symbol, in capitals so it reads at a glance: the phrasebook's word in
    /// `words`' language for a symbol it has one for, else its name's words (`cattleGrid` is
    /// "CATTLE GRID", `danger2` "DANGER 2", a name the library lacks as written, in capitals).
    public static func label(_ symbol: NoteSymbol, in words: Phrasebook = .english) -> String {
        if let key = key(of: symbol) { return words[key] }
        var parts: [String] = []
        var word = ""
        var previous: Character?
        for character in symbol.name {
            let breaks = character == "-" || character == "_"
                || (character.isUppercase && previous.map { $0.isLowercase || $0.isNumber } == true)
                || (character.isNumber && previous.map { $0.isLetter } == true)
            if breaks, !word.isEmpty { parts.append(word); word = "" }
            if character != "-" && character != "_" { word.append(character) }
            previous = character
        }
        if !word.isEmpty { parts.append(word) }
        return parts.joined(separator: " ").uppercased()
    }

    /// The phrasebook's key of a symbol's tag; nil for a symbol the phrasebook has no word for.
    public static func key(of symbol: NoteSymbol) -> Phrasebook.Key? {
        switch symbol {
        case .fuel: .symbolFuel
        case .bridge: .symbolBridge
        case .ford: .symbolFord
        case .cattleGrid: .symbolCattleGrid
        case .gate: .symbolGate
        case .village: .symbolVillage
        case .railway: .symbolRailway
        case .hump: .symbolHump
        case .hole: .symbolHole
        case .stones: .symbolStones
        case .sand: .symbolSand
        case .dunes: .symbolDunes
        case .fork: .symbolFork
        case .summit: .symbolSummit
        case .viewpoint: .symbolViewpoint
        case .water: .symbolWater
        case .police: .symbolPolice
        case .radar: .symbolRadar
        default: nil
        }
    }
}

/// The size of a pictogram in a row.
public enum PictogramSize {
    /// 8 mm: read at a glance on a bouncing bike, five or six side by side in an A5 notes cell.
    public static let side = 8 * 72 / 25.4
    /// 5 mm: the smallest a row's pictograms shrink to when they would not fit at 8 mm.
    public static let minimumSide = 5 * 72 / 25.4
}

/// Fits text into a box: shrinks the font in half-point steps down to a minimum, then marks the
/// text clipped.
struct Fitter<M: TextMeasurer> {
    let measurer: M
    let minimumSize: Double
    /// Half a point: fine enough to fill a box, coarse enough that sizes in dumps stay readable.
    static var step: Double { 0.5 }

    /// - Parameter oneLine: the text shrinks rather than wraps (a time, which a line break would
    ///   split at its colons).
    func box(_ kind: Box.Kind, _ text: String, _ font: FontSpec, _ rect: Rect,
             horizontal: Box.HorizontalAlignment = .left, vertical: Box.VerticalAlignment = .top,
             row: Int? = nil, markup: Bool = false, oneLine: Bool = false) -> Box {
        let (fitted, clipped) = fit(text, font, rect, markup: markup, oneLine: oneLine)
        var box = Box(kind: kind, rect: rect, text: text, font: fitted, horizontal: horizontal, vertical: vertical,
                      clipped: clipped, row: row)
        box.markup = markup
        return box
    }

    /// The largest size, in half-point steps from the font's own down to the minimum, at which the
    /// text fits; found by bisection, so a long text costs a handful of measurements, not one per step.
    func fit(_ text: String, _ font: FontSpec, _ rect: Rect, markup: Bool = false, oneLine: Bool = false) -> (FontSpec, clipped: Bool) {
        let tolerance = 1e-6
        let width = oneLine ? BookLayout.unboundedWidth : rect.width
        func fits(_ size: Double) -> Bool {
            let measured = markup ? measurer.measure(markup: text, font: font.resized(size), width: width)
                : measurer.measure(text, font: font.resized(size), width: width)
            return measured.width <= rect.width + tolerance && measured.height <= rect.height + tolerance
        }
        if fits(font.size) { return (font, false) }
        // Candidate sizes: font.size − k·step for k = 1…n, the last one the minimum.
        let steps = Int(((font.size - minimumSize) / Self.step).rounded(.up))
        guard steps > 0 else { return (font, true) }
        func size(_ k: Int) -> Double { max(minimumSize, font.size - Double(k) * Self.step) }
        if !fits(size(steps)) { return (font.resized(size(steps)), true) }
        var fitting = steps, failing = 0   // size(fitting) fits, size(failing) does not
        while fitting - failing > 1 {
            let middle = (fitting + failing) / 2
            if fits(size(middle)) { fitting = middle } else { failing = middle }
        }
        return (font.resized(size(fitting)), false)
    }
}
