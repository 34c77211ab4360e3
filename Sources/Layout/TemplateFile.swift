import Foundation
import Model

/// A mistake in a template file, naming the field: `my.json: rows.height must be more than 0, found -3`.
public struct TemplateError: Error, CustomStringConvertible, Equatable, RemedyCarrying {
    public var file: String
    public var field: String?
    public var message: String
    /// What the caller can give to mend it (a template file in place of a book's): the caller words it.
    public var remedy: Remedy?

    public init(file: String, field: String? = nil, message: String, remedy: Remedy? = nil) {
        self.file = file
        self.field = field
        self.message = message
        self.remedy = remedy
    }

    public var description: String { "\(file): " + (field.map { "\($0) " } ?? "") + message }
}

/// Reads page templates from JSON (`Templates/*.json`). Lengths in millimetres, font sizes in
/// points, colours `#RRGGBB`, fractions of the row width for the columns. Every field is
/// required, and a field the format does not know is an error, so a typo cannot go unnoticed.
/// The format is documented in `Templates/README.md`.
public enum TemplateFile {
    /// Decodes and checks a template.
    /// - Parameter fileName: used in messages.
    /// - Throws: `TemplateError` naming the field.
    public static func decode(_ data: Data, fileName: String) throws -> PageTemplate {
        let root: JSONValue
        do { root = try JSONDecoder().decode(JSONValue.self, from: data) } catch {
            // Foundation says only "not valid JSON": find the syntax error or the number out of range.
            if let problem = JSONScanner.problem(in: data) {
                throw TemplateError(file: fileName, field: problem.field, message: problem.field == nil
                                    ? "is not JSON: \(problem.description)" : problem.message)
            }
            throw TemplateError(file: fileName, message: "is not JSON")
        }
        let fields = try Fields(root, path: "", file: fileName)
        return try template(fields)
    }

    /// Limits of a template's numbers, each with its reason. Lengths in millimetres.
    public enum Limits {
        /// A page narrower or lower than 50 mm cannot hold a row's three columns.
        public static let smallestPage = 50.0
        /// The largest sheet: 2 m is beyond any printer's paper; a longer page is a roll.
        public static let largestSheet = 2_000.0
        /// A roll's page: 200 inches, the longest page a PDF reader must accept (PDF 1.7, annex C).
        public static let longestRoll = 5_080.0
        /// A row lower than 5 mm cannot hold one line of the smallest text.
        public static let lowestRow = 5.0
        /// Padding inside a cell: beyond 20 mm the cell is all padding.
        public static let largestPadding = 20.0
        /// A roll is cut every so many rows; 1,000 rows is past any printer's roll.
        public static let rowsPerCut: ClosedRange<Int> = 0...1_000
        /// Font sizes in points: below 4 pt nobody reads it, above 200 pt a word fills a page.
        public static let fontSize: ClosedRange<Double> = 4...200
        /// Beyond 100 km "the next row is close" means every row.
        public static let highlightNextWithin: ClosedRange<Double> = 0...100_000
    }

    static let fontKinds = ["title", "headerInfo", "rowNumber", "totalDistance", "totalDistanceHundredths",
                            "partialDistance", "odometerReset", "waypointType", "marker", "noteText", "symbol",
                            "cap", "danger", "speedLimit", "elevation", "footer"]

    private static func template(_ f: Fields) throws -> PageTemplate {
        try f.only(["name", "description", "page", "margins", "header", "footer", "rows", "sheetColumns", "gutter",
                    "roll", "columns", "cellPadding", "minimumFontSize", "highlightNextWithin", "fonts", "colours"])
        // The description is for people reading the file; it is not used, but it must be text.
        if f.has("description") { _ = try f.string("description") }
        let mm = pointsPerMillimetre
        let page = try f.object("page")
        try page.only(["width", "height"])
        let longest = f.has("roll") ? Limits.longestRoll : Limits.largestSheet
        let pageSize = PageSize(width: try page.length("width", in: Limits.smallestPage...Limits.largestSheet) * mm,
                                height: try page.length("height", in: Limits.smallestPage...longest) * mm)
        let m = try f.object("margins")
        try m.only(["top", "right", "bottom", "left"])
        let margins = Margins(top: try m.length("top", in: 0...longest) * mm, left: try m.length("left", in: 0...Limits.largestSheet) * mm,
                              bottom: try m.length("bottom", in: 0...longest) * mm, right: try m.length("right", in: 0...Limits.largestSheet) * mm)
        let rows = try f.object("rows")
        try rows.only(["height"])
        let columns = try f.object("columns")
        try columns.only(["distance", "tulip", "notes", "time"])
        let fractions = [try columns.fraction("distance"), try columns.fraction("tulip"), try columns.fraction("notes")]
        let sum = fractions.reduce(0, +)
        guard abs(sum - 1) < 0.005 else {
            throw f.error("columns", "must add up to 1 (the whole row), found \(format(sum))")
        }
        // The one field a template may leave out: templates written before regularity books printed
        // an ideal-time column still read.
        let time = columns.has("time") ? try columns.fraction("time") : PageTemplate.defaultTimeColumnFraction
        var roll: PageTemplate.Roll? = nil
        if f.has("roll") {
            let r = try f.object("roll")
            try r.only(["rowsPerCut"])
            roll = PageTemplate.Roll(rowsPerCut: try r.integer("rowsPerCut", in: Limits.rowsPerCut))
        }
        let fontsObject = try f.object("fonts")
        try fontsObject.only(["family"] + fontKinds)
        let family = try fontsObject.string("family")
        func font(_ key: String) throws -> FontSpec {
            let o = try fontsObject.object(key)
            try o.only(["size", "bold"])
            let size = try o.number("size")
            guard Limits.fontSize.contains(size) else {
                throw o.error("size", "must be from \(format(Limits.fontSize.lowerBound)) to \(format(Limits.fontSize.upperBound)) points, found \(format(size))")
            }
            return FontSpec(family: family, size: size, bold: o.has("bold") ? try o.bool("bold") : false)
        }
        let fonts = PageTemplate.Fonts(
            title: try font("title"), headerInfo: try font("headerInfo"), rowNumber: try font("rowNumber"),
            totalDistance: try font("totalDistance"), totalDistanceHundredths: try font("totalDistanceHundredths"),
            partialDistance: try font("partialDistance"), odometerReset: try font("odometerReset"),
            waypointType: try font("waypointType"), marker: try font("marker"), noteText: try font("noteText"),
            symbol: try font("symbol"), cap: try font("cap"), danger: try font("danger"),
            speedLimit: try font("speedLimit"), elevation: try font("elevation"), footer: try font("footer"))
        let c = try f.object("colours")
        try c.only(["ink", "cap", "nearNext", "danger", "reset", "waypoints"])
        let w = try c.object("waypoints")
        try w.only(WaypointType.allCases.map(\.rawValue))
        var waypointColours: [WaypointType: Colour] = [:]
        for type in WaypointType.allCases { waypointColours[type] = try w.colour(type.rawValue) }
        let colours = PageTemplate.Colours(ink: try c.colour("ink"), cap: try c.colour("cap"),
                                           nearNext: try c.colour("nearNext"), danger: try c.colour("danger"),
                                           reset: try c.colour("reset"), waypoints: waypointColours)

        let template = PageTemplate(
            name: try f.string("name"), pageSize: pageSize, margins: margins,
            headerHeight: try f.length("header", in: 0...longest) * mm, footerHeight: try f.length("footer", in: 0...longest) * mm,
            rowHeight: try rows.length("height", in: Limits.lowestRow...longest) * mm,
            sheetColumns: try f.integer("sheetColumns", in: 1...4), gutter: try f.length("gutter", in: 0...Limits.largestSheet) * mm,
            roll: roll, distanceColumnFraction: fractions[0], tulipColumnFraction: fractions[1],
            notesColumnFraction: fractions[2], timeColumnFraction: time, cellPadding: try f.length("cellPadding", in: 0...Limits.largestPadding) * mm, fonts: fonts,
            colours: colours, minimumFontSize: try f.number("minimumFontSize"),
            highlightNextWithin: try f.number("highlightNextWithin"))
        try check(template, f)
        return template
    }

    /// Checks that the parts fit together: a row fits on the page, columns are wide enough.
    private static func check(_ t: PageTemplate, _ f: Fields) throws {
        let mm = pointsPerMillimetre
        let usableWidth = t.pageSize.width - t.margins.left - t.margins.right - t.gutter * Double(t.sheetColumns - 1)
        guard usableWidth > 0 else {
            throw f.error("margins", "and gutter leave no width on a \(format(t.pageSize.width / mm)) mm page")
        }
        // A roll's sheet grows with its rows up to the longest page; a sheet is its page.
        let longest = t.roll == nil ? t.pageSize.height : min(t.pageSize.height, PageTemplate.maximumPageLength)
        let usableHeight = longest - t.margins.top - t.margins.bottom - t.headerHeight - t.footerHeight
        guard usableHeight > 0 else {
            throw f.error("margins", "with header and footer leave no height on a \(format(longest / mm)) mm page")
        }
        if t.rowHeight > usableHeight {
            throw f.error("rows.height", "\(format(t.rowHeight / mm)) mm does not fit between header and footer (\(format(usableHeight / mm)) mm)")
        }
        if t.cellPadding * 2 >= t.rowHeight {
            throw f.error("cellPadding", "\(format(t.cellPadding / mm)) mm leaves no room inside a \(format(t.rowHeight / mm)) mm row")
        }
        let rowWidth = usableWidth / Double(t.sheetColumns)
        // Narrower than this, a column cannot hold its contents: 12 mm for the odometer's digits,
        // 15 mm for a tulip a rider can read, 15 mm for a few words.
        for (key, fraction, least) in [("columns.distance", t.distanceColumnFraction, 12.0),
                                       ("columns.tulip", t.tulipColumnFraction, 15.0),
                                       ("columns.notes", t.notesColumnFraction, 15.0)] where rowWidth * fraction < least * mm {
            throw f.error(key, "is \(format(rowWidth * fraction / mm)) mm wide on this page; it needs at least \(format(least)) mm")
        }
        // The time column holds "00:00:00" (12 mm at the smallest text), and leaves the notes their 15 mm.
        if rowWidth * t.timeColumnFraction < 12 * mm {
            throw f.error("columns.time", "is \(format(rowWidth * t.timeColumnFraction / mm)) mm wide on this page; it needs at least 12 mm")
        }
        if rowWidth * (t.notesColumnFraction - t.timeColumnFraction) < 15 * mm {
            throw f.error("columns.time", "leaves the notes \(format(rowWidth * (t.notesColumnFraction - t.timeColumnFraction) / mm)) mm "
                          + "in a regularity book; they need at least 15 mm")
        }
        guard Limits.fontSize.contains(t.minimumFontSize) else {
            throw f.error("minimumFontSize", "must be from \(format(Limits.fontSize.lowerBound)) to \(format(Limits.fontSize.upperBound)) points, found \(format(t.minimumFontSize))")
        }
        guard Limits.highlightNextWithin.contains(t.highlightNextWithin) else {
            throw f.error("highlightNextWithin", "must be from 0 to \(format(Limits.highlightNextWithin.upperBound)) metres, found \(format(t.highlightNextWithin))")
        }
    }

    /// A number in a message: whole numbers as written, others to two decimals, and a number too
    /// large for either (`1e+308`) as Swift writes it.
    static func format(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
        if value == value.rounded() { return String(Int(value)) }
        return abs(value) < 0.01 ? "\(value)" : String(format: "%.2f", value)
    }
}

/// Any JSON value, decoded keeping booleans and numbers apart.
enum JSONValue: Decodable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    var text: String {
        switch self {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let n): TemplateFile.format(n)
        case .string(let s): "\"\(s)\""
        case .array: "a list"
        case .object: "an object"
        }
    }
}

/// A JSON object being read, with its path for messages.
private struct Fields {
    let values: [String: JSONValue]
    let path: String
    let file: String

    init(_ value: JSONValue, path: String, file: String) throws {
        guard case .object(let object) = value else {
            throw TemplateError(file: file, field: path.isEmpty ? nil : path,
                                message: path.isEmpty ? "must be a JSON object" : "must be an object")
        }
        values = object
        self.path = path
        self.file = file
    }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
    func error(_ key: String, _ message: String) -> TemplateError {
        TemplateError(file: file, field: key.contains(".") && !path.isEmpty ? key : name(key), message: message)
    }
    func has(_ key: String) -> Bool {
        if let v = values[key], case .null = v { return false }
        return values[key] != nil
    }

    /// Refuses fields the format does not know.
    func only(_ known: [String]) throws {
        for key in values.keys.sorted() where !known.contains(key) {
            // The file's own key, escaped: a line break in it keeps the message one line.
            throw TemplateError(file: file, field: name(JSONScanner.printable(key)),
                                message: "is not a template field (known here: \(known.joined(separator: ", ")))")
        }
    }

    func value(_ key: String) throws -> JSONValue {
        guard has(key), let v = values[key] else { throw error(key, "is missing") }
        return v
    }

    func object(_ key: String) throws -> Fields { try Fields(try value(key), path: name(key), file: file) }

    func string(_ key: String) throws -> String {
        guard case .string(let s) = try value(key) else { throw error(key, "must be a string") }
        return s
    }

    func bool(_ key: String) throws -> Bool {
        let v = try value(key)
        guard case .bool(let b) = v else { throw error(key, "must be true or false, found \(v.text)") }
        return b
    }

    func number(_ key: String) throws -> Double {
        let v = try value(key)
        guard case .number(let n) = v, n.isFinite else { throw error(key, "must be a number, found \(v.text)") }
        return n
    }

    func integer(_ key: String, in range: ClosedRange<Int>) throws -> Int {
        let n = try number(key)
        // Compared as numbers first: Int(1e308) would trap.
        guard n == n.rounded(), n >= Double(range.lowerBound), n <= Double(range.upperBound) else {
            throw error(key, "must be a whole number from \(range.lowerBound) to \(range.upperBound), found \(TemplateFile.format(n))")
        }
        return Int(n)
    }

    /// A length in millimetres within `range`.
    func length(_ key: String, in range: ClosedRange<Double>) throws -> Double {
        let n = try number(key)
        guard range.contains(n) else {
            throw error(key, "must be from \(TemplateFile.format(range.lowerBound)) to \(TemplateFile.format(range.upperBound)) millimetres, found \(TemplateFile.format(n))")
        }
        return n
    }

    func fraction(_ key: String) throws -> Double {
        let n = try number(key)
        guard n > 0, n < 1 else { throw error(key, "must be a share of the row between 0 and 1, found \(TemplateFile.format(n))") }
        return n
    }

    func colour(_ key: String) throws -> Colour {
        let s = try string(key)
        guard let c = Colour(hex: s) else { throw error(key, "must be a colour written #RRGGBB, found \"\(s)\"") }
        return c
    }
}
