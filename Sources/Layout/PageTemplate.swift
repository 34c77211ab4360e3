import Model

/// A colour as a template writes it (`#RRGGBB`), channels in [0, 1].
public struct Colour: Sendable, Equatable {
    public var red: Double
    public var green: Double
    public var blue: Double

    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#RRGGBB`; nil for anything else.
    public init?(hex: String) {
        guard hex.count == 7, hex.first == "#", let value = UInt32(hex.dropFirst(), radix: 16) else { return nil }
        red = Double((value >> 16) & 0xFF) / 255
        green = Double((value >> 8) & 0xFF) / 255
        blue = Double(value & 0xFF) / 255
    }

    public static let black = Colour(red: 0, green: 0, blue: 0)
    public static let white = Colour(red: 1, green: 1, blue: 1)
}

/// The geometry, type and colours of road-book pages. Lengths are points unless a field says
/// otherwise. Templates are data files (`Templates/*.json`, see `TemplateFile`); this is their
/// decoded form.
///
/// A row is split into three columns left to right: distance, tulip, notes; a regularity book's
/// rows have a fourth at the right, the ideal time, taken out of the notes. A sheet holds one
/// column of rows (A5, roll, full-width A4) or several side by side (two A5 columns on an A4
/// sheet, to print and cut).
public struct PageTemplate: Sendable, Equatable {
    /// Fonts of each kind of text on the page.
    public struct Fonts: Sendable, Equatable {
        public var title: FontSpec
        public var headerInfo: FontSpec
        public var rowNumber: FontSpec
        public var totalDistance: FontSpec
        /// The hundredths after the odometer's decimal point, set apart in a smaller size.
        public var totalDistanceHundredths: FontSpec
        public var partialDistance: FontSpec
        public var odometerReset: FontSpec
        public var waypointType: FontSpec
        public var marker: FontSpec
        public var noteText: FontSpec
        public var symbol: FontSpec
        public var cap: FontSpec
        public var danger: FontSpec
        public var speedLimit: FontSpec
        public var elevation: FontSpec
        public var footer: FontSpec
    }

    /// Colours of the page.
    public struct Colours: Sendable, Equatable {
        /// Cell frames and text.
        public var ink: Colour
        /// The CAP tag, yellow on FIA books.
        public var cap: Colour
        /// The distance cell when the next row is close.
        public var nearNext: Colour
        /// Danger marks; level 3 is framed in it.
        public var danger: Colour
        /// The odometer reset mark.
        public var reset: Colour
        /// The tag of each waypoint type.
        public var waypoints: [WaypointType: Colour]
    }

    /// A continuous roll (150 mm road-book holders): each page is as long as its rows.
    public struct Roll: Sendable, Equatable {
        /// Rows per page; 0 for as many as fit in the template's page height (at most the
        /// longest page a PDF allows, 5.08 m).
        public var rowsPerCut: Int
        public init(rowsPerCut: Int) { self.rowsPerCut = rowsPerCut }
    }

    /// Template name, as in `BookSettings.template`.
    public var name: String
    /// The sheet; for a roll, its height is that of a full cut.
    public var pageSize: PageSize
    public var margins: Margins
    /// Height of the title block at the top of every sheet.
    public var headerHeight: Double
    /// Height of the page-number line at the bottom of every sheet.
    public var footerHeight: Double
    /// Height of one road-book row.
    public var rowHeight: Double
    /// Columns of rows side by side on a sheet (1, or 2 for two A5 columns on A4), and the gap
    /// between them.
    public var sheetColumns: Int
    public var gutter: Double
    public var roll: Roll?
    /// Shares of the row width for the distance, tulip and notes columns; they add up to 1.
    public var distanceColumnFraction: Double
    public var tulipColumnFraction: Double
    public var notesColumnFraction: Double
    /// Share of the row width for the ideal-time column, printed at the right of the row in a
    /// regularity book only and taken out of the notes column's share.
    public var timeColumnFraction: Double = PageTemplate.defaultTimeColumnFraction
    /// Padding between a cell's frame and its contents.
    public var cellPadding: Double
    public var fonts: Fonts
    public var colours: Colours
    /// Text that does not fit shrinks down to this size before it is clipped: below 6 pt a
    /// rider cannot read it on a bouncing bike.
    public var minimumFontSize: Double
    /// The distance cell is highlighted when the next row is closer than this (metres): the
    /// rider has little time to read on.
    public var highlightNextWithin: Double

    /// The longest page a PDF reader is required to accept: 200 inches (PDF 1.7, annex C).
    public static let maximumPageLength = 14_400.0
    /// The time column's share in a template that does not give one (written before regularity
    /// books printed times): 0.16 of an A5 row is 21 mm, room for "00:00:00" in 12-point bold.
    public static let defaultTimeColumnFraction = 0.16

    /// Rows per sheet column.
    public var rowsPerColumn: Int {
        if let roll {
            let chrome = margins.top + margins.bottom + headerHeight + footerHeight
            let longest = min(pageSize.height, Self.maximumPageLength)
            let most = max(1, Int(((longest - chrome) / rowHeight).rounded(.down)))
            return roll.rowsPerCut > 0 ? min(roll.rowsPerCut, most) : most
        }
        let height = pageSize.height - margins.top - margins.bottom - headerHeight - footerHeight
        return max(1, Int((height / rowHeight).rounded(.down)))
    }

    /// Whole rows that fit on one sheet; at least one, so a template too small still prints.
    public var rowsPerPage: Int { rowsPerColumn * sheetColumns }

    /// The size of a sheet holding `rows` rows: a roll's sheet is as long as its rows.
    public func pageSize(rows: Int) -> PageSize {
        guard roll != nil else { return pageSize }
        let chrome = margins.top + margins.bottom + headerHeight + footerHeight
        return PageSize(width: pageSize.width, height: chrome + Double(max(rows, 1)) * rowHeight)
    }

    /// The rectangle of sheet column `index` (0-based).
    public func columnRect(_ index: Int) -> Rect {
        let width = (pageSize.width - margins.left - margins.right - gutter * Double(sheetColumns - 1)) / Double(sheetColumns)
        return Rect(x: margins.left + Double(index) * (width + gutter), y: margins.top + headerHeight,
                    width: width, height: Double(rowsPerColumn) * rowHeight)
    }
}
