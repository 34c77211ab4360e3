/// The geometry and type of a road-book page. All lengths are in points.
///
/// A row is split into three columns left to right: distance, tulip, notes. Later templates
/// (roll, A4, letter, a cover page) are further values of this struct.
public struct PageTemplate: Sendable, Equatable {
    /// Fonts of each kind of text on the page.
    public struct Fonts: Sendable, Equatable {
        public var title: FontSpec
        public var headerInfo: FontSpec
        public var rowNumber: FontSpec
        public var totalDistance: FontSpec
        public var partialDistance: FontSpec
        public var odometerReset: FontSpec
        public var waypointType: FontSpec
        public var marker: FontSpec
        public var noteText: FontSpec
        public var cap: FontSpec
        public var danger: FontSpec
        public var footer: FontSpec

        public init(title: FontSpec, headerInfo: FontSpec, rowNumber: FontSpec, totalDistance: FontSpec,
                    partialDistance: FontSpec, odometerReset: FontSpec, waypointType: FontSpec, marker: FontSpec,
                    noteText: FontSpec, cap: FontSpec, danger: FontSpec, footer: FontSpec) {
            self.title = title
            self.headerInfo = headerInfo
            self.rowNumber = rowNumber
            self.totalDistance = totalDistance
            self.partialDistance = partialDistance
            self.odometerReset = odometerReset
            self.waypointType = waypointType
            self.marker = marker
            self.noteText = noteText
            self.cap = cap
            self.danger = danger
            self.footer = footer
        }
    }

    /// Template name, as in `BookSettings.template`.
    public var name: String
    public var pageSize: PageSize
    public var margins: Margins
    /// Height of the title block at the top of every page.
    public var headerHeight: Double
    /// Height of the page-number line at the bottom of every page.
    public var footerHeight: Double
    /// Height of one road-book row; a page holds as many whole rows as fit between header and footer.
    public var rowHeight: Double
    /// Shares of the row width for the distance, tulip and notes columns; they add up to 1.
    public var distanceColumnFraction: Double
    public var tulipColumnFraction: Double
    public var notesColumnFraction: Double
    /// Padding between a cell's frame and its contents.
    public var cellPadding: Double
    public var fonts: Fonts
    /// Text that does not fit shrinks down to this size before it is clipped: below 6 pt a
    /// rider cannot read it on a bouncing bike.
    public var minimumFontSize: Double

    public init(name: String, pageSize: PageSize, margins: Margins, headerHeight: Double, footerHeight: Double,
                rowHeight: Double, distanceColumnFraction: Double, tulipColumnFraction: Double,
                notesColumnFraction: Double, cellPadding: Double, fonts: Fonts, minimumFontSize: Double) {
        self.name = name
        self.pageSize = pageSize
        self.margins = margins
        self.headerHeight = headerHeight
        self.footerHeight = footerHeight
        self.rowHeight = rowHeight
        self.distanceColumnFraction = distanceColumnFraction
        self.tulipColumnFraction = tulipColumnFraction
        self.notesColumnFraction = notesColumnFraction
        self.cellPadding = cellPadding
        self.fonts = fonts
        self.minimumFontSize = minimumFontSize
    }

    /// A5 portrait (148 × 210 mm): 8 mm margins, six 81 pt (28.6 mm) rows per page, columns
    /// 25 % distance, 37 % tulip, 38 % notes — the proportions of FIM/FIA cross-country books.
    public static let a5 = PageTemplate(
        name: "a5",
        pageSize: .a5,
        margins: Margins(all: 8 * pointsPerMillimetre),
        headerHeight: 15 * pointsPerMillimetre,
        footerHeight: 7 * pointsPerMillimetre,
        rowHeight: 81,
        distanceColumnFraction: 0.25,
        tulipColumnFraction: 0.37,
        notesColumnFraction: 0.38,
        cellPadding: 3,
        fonts: Fonts(
            title: FontSpec(size: 14, bold: true),
            headerInfo: FontSpec(size: 8.5),
            rowNumber: FontSpec(size: 7.5, bold: true),
            totalDistance: FontSpec(size: 20, bold: true),
            partialDistance: FontSpec(size: 9),
            odometerReset: FontSpec(size: 6.5, bold: true),
            waypointType: FontSpec(size: 8, bold: true),
            marker: FontSpec(size: 8, bold: true),
            noteText: FontSpec(size: 10),
            cap: FontSpec(size: 8, bold: true),
            danger: FontSpec(size: 12, bold: true),
            footer: FontSpec(size: 7.5)),
        minimumFontSize: 6)

    /// The area rows are laid out in: between the header and the footer, inside the margins.
    public var bodyRect: Rect {
        let x = margins.left
        let y = margins.top + headerHeight
        return Rect(x: x, y: y, width: pageSize.width - margins.left - margins.right,
                    height: pageSize.height - margins.top - margins.bottom - headerHeight - footerHeight)
    }

    /// Whole rows that fit on one page; at least one, so a template too small still prints.
    public var rowsPerPage: Int { max(1, Int((bodyRect.height / rowHeight).rounded(.down))) }
}
