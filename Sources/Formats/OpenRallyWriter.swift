import Foundation
import Geo
import Model

/// The OpenRally GPX extensions, v1.0.3 (openrally.org; the schema is in
/// `samples/data/openrally/cross-country/openrally.xsd`): what the writer and the reader share.
public enum OpenRally {
    /// The extensions' namespace; a file declaring another version is not read as OpenRally.
    public static let namespace = "http://www.openrally.org/xmlschemas/GpxExtensions/v1.0.3"
    /// The prefix of every namespace version, to tell another version from plain GPX.
    public static let namespacePrefix = "http://www.openrally.org/xmlschemas/GpxExtensions/"

    /// The element of each waypoint type (`CP` is `checkpoint`).
    public static func element(of type: WaypointType) -> String {
        type == .cp ? "checkpoint" : type.rawValue.lowercased()
    }

    /// The waypoint type an element names, if it names one.
    public static func waypointType(element: String) -> WaypointType? {
        element == "checkpoint" ? .cp : WaypointType(rawValue: element.uppercased())
    }

    /// The elements a note's fields are written as (`Note.fieldSymbols`): the waypoint types, the
    /// danger, the speed, the reset and the CAP. A library symbol naming one of them is no marker
    /// of its own: a row carrying it as a symbol keeps it in roadbook's data (`symbolsDataID`).
    public static let fieldElements: Set<String> = Set(WaypointType.allCases.map(element(of:)) + ["danger", "speed", "reset", "cap"])

    /// The marker elements of the published v1.0.3 schema a library symbol is written as
    /// (`<openrally:medical/>`). The schema comments out gps, passagecontrol, endfuel, radio,
    /// begintireservice, endtireservice, toilets, giveway, sensitivezone, startofassistance,
    /// finishofassistance, startofzone and village, so a file with them would not validate: those
    /// symbols are kept in roadbook's data instead, and read back from another program's file that
    /// has the elements. `neutralization` needs a time in seconds a symbol does not have: kept the
    /// same way.
    public static let writtenSymbolElements: Set<String> = ["medical", "helicopter", "police", "fire", "spectators", "media",
                                                            "fuel", "stop", "timecontrol", "show_coordinates", "fn", "dt", "ft"]

    /// The library symbol each OpenRally marker element is read as (`medical`, `village`,
    /// `show_coordinates`, …): every element the library names that is no field's.
    public static let symbolOfElement: [String: NoteSymbol] = Dictionary(
        NoteSymbol.entries.compactMap { entry in
            entry.openRally.flatMap { fieldElements.contains($0) ? nil : ($0, entry.symbol) }
        }, uniquingKeysWith: { first, _ in first })

    /// The element `symbol` is written as: its library entry's marker element, when the published
    /// schema has it; nil for a symbol kept only in roadbook's data.
    public static func element(of symbol: NoteSymbol) -> String? {
        symbol.entry?.openRally.flatMap { writtenSymbolElements.contains($0) ? $0 : nil }
    }

    /// The id of the SVG `<desc>` inside an `<openrally:notes>` drawing that holds the row's symbols
    /// as a JSON list of names, in order, those OpenRally has no element for and names the library
    /// does not have included, so roadbook reads back every symbol it wrote (other readers see them
    /// drawn).
    public static let symbolsDataID = "roadbook-symbols"
    /// The largest pictogram embedded in a notes drawing: the drawing is one element's text, read
    /// back within the XML reader's limit of 1 MiB.
    public static let largestEmbeddedPictogram = 64 << 10

    /// The id of the SVG `<desc>` inside an `<openrally:tulip>` that holds the tulip as the book
    /// file's JSON, so roadbook reads back the drawing it wrote (other readers draw the SVG).
    public static let tulipDataID = "roadbook-tulip"
    /// The id of the SVG `<desc>` beside it holding what a generated turn was generated from
    /// (`Note.generated`), so regeneration still knows the turn after a round trip.
    public static let generatedDataID = "roadbook-generated"

    /// Metres in one unit of distance (km or statute mile).
    static func metresPerUnit(_ units: BookSettings.Units) -> Double { units == .miles ? 1609.344 : 1000 }
    /// Yards (the radii under statute units) in metres.
    static let metresPerYard = 0.9144
}

/// OpenRally GPX v1.0.3: a GPX 1.1 file whose waypoints are the book's rows with the OpenRally
/// extensions (distance, CAP, danger, waypoint types with their radii, resets, speed zones, tulip
/// and notes drawings) and whose track is the route. Valid against GPX 1.1 (strict extensions) and
/// the OpenRally schema together (`test_wrapper.xsd`).
///
/// What goes where, per row (`<wpt>`): the coordinate; `<ele>` its height; `<name>` its marker;
/// `<desc>` its words; `<type>` the note's kind (`turn`, `waypoint`, …, so roadbook reads it
/// back); extensions: `distance` (total distance in the book's units, five decimals), the waypoint
/// type element with `name` (the marker), `open` and `clear` (the note's radii; none is invented when
/// the book has none, the schema giving no default), `speed` at DZ/FZ, `danger`, `cap`, `reset`,
/// the symbols' marker elements (`fuel`, `medical`, … `OpenRally.element(of:)`), `tulip` (an SVG drawn from
/// the tulip, carrying the tulip's JSON, and a generated turn's record, in `<desc>` elements that
/// other readers ignore) and `notes` (an SVG with the words and the symbols drawn, their pictograms
/// when given, carrying the list of the row's symbols in a `<desc>`). What the format has no place
/// for is named in the warnings.
///
/// Written as it goes through a 64 KiB buffer: memory is the buffer, not the file.
public enum OpenRallyWriter: BookWriter {
    public static let formatName = "openrally"
    public static let fileExtensions = ["gpx"]
    public static let summary = "OpenRally GPX v1.0.3: rows as waypoints with distance, CAP, danger, waypoint types and radii, resets, tulips; the route as a track"

    public static func write(_ book: Book, to file: URL) throws -> [String] {
        try write(book, to: file, pictograms: [:])
    }

    /// Writes `book`, drawing each row's symbols in its notes drawing with `pictograms` (SVG files'
    /// bytes by symbol) where given, and as their names elsewhere.
    public static func write(_ book: Book, to file: URL, pictograms: [NoteSymbol: Data]) throws -> [String] {
        // Created new, as every writer creates the export's temporary file: one that exists is refused.
        let out = OpenRallyOutput(sink: try TextFileSink(creating: file))
        try write(book, into: out, pictograms: pictograms)
        try out.finish()
        return warnings(for: book)
    }

    /// The book as OpenRally GPX, in memory (for tests and the fuzz harness).
    public static func data(of book: Book, pictograms: [NoteSymbol: Data] = [:]) throws -> Data {
        let out = OpenRallyOutput(sink: nil)
        try write(book, into: out, pictograms: pictograms)
        return Data(out.buffer)
    }

    private static func write(_ book: Book, into out: OpenRallyOutput, pictograms: [NoteSymbol: Data]) throws {
        let units = book.settings.units
        let perUnit = OpenRally.metresPerUnit(units)
        let length = Polyline(book.route.coordinates).length
        try out.raw("""
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx xmlns="http://www.topografix.com/GPX/1/1" version="1.1" creator="roadbook" \
            xmlns:openrally="\(OpenRally.namespace)">
              <metadata>

            """)
        try out.element("name", book.title, indent: 4)
        if let description = book.description { try out.element("desc", description, indent: 4) }
        try out.raw("""
                <extensions>
                  <openrally:units>\(units == .miles ? "statue" : "metric")</openrally:units>
                  <openrally:distance>\(decimal(length / perUnit, places: 5))</openrally:distance>
                </extensions>
              </metadata>

            """)
        let embedded = embeddable(pictograms)
        for note in book.notes { try write(note, units: units, into: out, pictograms: embedded) }
        try out.raw("  <trk>\n")
        try out.element("name", book.title, indent: 4)
        try out.raw("    <trkseg>\n")
        for point in book.route.points {
            try out.raw("      <trkpt lat=\"\(decimal(point.coordinate.latitude, places: 9))\" lon=\"\(decimal(point.coordinate.longitude, places: 9))\"")
            if let e = point.elevation {
                try out.raw("><ele>\(decimal(e, places: 3))</ele></trkpt>\n")
            } else {
                try out.raw("/>\n")
            }
        }
        try out.raw("    </trkseg>\n  </trk>\n</gpx>\n")
    }

    private static func write(_ note: Note, units: BookSettings.Units, into out: OpenRallyOutput,
                              pictograms: [NoteSymbol: String]) throws {
        let perUnit = OpenRally.metresPerUnit(units)
        try out.raw("  <wpt lat=\"\(decimal(note.coordinate.latitude, places: 9))\" lon=\"\(decimal(note.coordinate.longitude, places: 9))\">\n")
        if let e = note.elevation { try out.raw("    <ele>\(decimal(e, places: 3))</ele>\n") }
        if let marker = note.marker { try out.element("name", marker, indent: 4) }
        if !note.text.isEmpty { try out.element("desc", note.text, indent: 4) }
        try out.element("type", note.kind.rawValue, indent: 4)
        try out.raw("    <extensions>\n")
        try out.raw("      <openrally:distance>\(decimal(note.distanceAlong / perUnit, places: 5))</openrally:distance>\n")
        if let type = note.waypointType {
            var attributes = ""
            if let marker = note.marker { attributes += " name=\"\(escaped(marker, attribute: true))\"" }
            let radius = { (metres: Int) in units == .miles ? max(1, Int((Double(metres) / OpenRally.metresPerYard).rounded())) : metres }
            if let open = note.openRadius { attributes += " open=\"\(radius(open))\"" }
            if let clear = note.clearRadius { attributes += " clear=\"\(radius(clear))\"" }
            try out.raw("      <openrally:\(OpenRally.element(of: type))\(attributes)/>\n")
            if let limit = note.speedLimit, type == .dz || type == .fz {
                let speed = units == .miles ? max(1, Int((Double(limit) * 1000 / perUnit).rounded())) : limit
                try out.raw("      <openrally:speed>\(speed)</openrally:speed>\n")
            }
        }
        if (1...3).contains(note.danger) { try out.raw("      <openrally:danger>\(note.danger)</openrally:danger>\n") }
        if let cap = note.cap { try out.raw("      <openrally:cap>\(Int(cap.rounded()) % 360)</openrally:cap>\n") }
        if note.resetsOdometer { try out.raw("      <openrally:reset/>\n") }
        var written: Set<String> = []
        for symbol in note.symbols {
            if let element = OpenRally.element(of: symbol), written.insert(element).inserted {
                try out.raw("      <openrally:\(element)/>\n")
            }
        }
        if let tulip = note.tulip {
            try out.raw("      <openrally:tulip><![CDATA[\(cdata(tulipSVG(tulip, generated: note.generated)))]]></openrally:tulip>\n")
        }
        if !note.text.isEmpty || note.marker != nil || !note.symbols.isEmpty {
            try out.raw("      <openrally:notes><![CDATA[\(cdata(notesSVG(note, pictograms: pictograms)))]]></openrally:notes>\n")
        }
        try out.raw("    </extensions>\n  </wpt>\n")
    }

    /// The tulip as an SVG in a 200 × 200 box, arriving from the bottom: the roads as lines from
    /// the centre at the angles they are drawn at (`TulipLayout`: spread at least 20° apart), the
    /// exit thick with a dot at its end, a bar across the end of a road one may not leave by, a ring
    /// for a roundabout, the drawn strokes; with the tulip's JSON (its true angles) in
    /// `<desc id="roadbook-tulip">` and, for a generated turn, what it was generated from in
    /// `<desc id="roadbook-generated">`.
    static func tulipSVG(_ tulip: Tulip, generated: GeneratedTurn? = nil) -> String {
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"200\" viewBox=\"-100 -100 200 200\">"
        func desc(_ id: String, _ value: some Encodable) -> String {
            let json = (try? OpenRallyWriter.sortedKeysEncoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            return "<desc id=\"\(id)\">\(escaped(json, attribute: false))</desc>"
        }
        svg += desc(OpenRally.tulipDataID, tulip)
        if let generated { svg += desc(OpenRally.generatedDataID, generated) }
        let ring = tulip.roundabout == nil ? 0.0 : 25
        if tulip.roundabout != nil { svg += "<circle cx=\"0\" cy=\"0\" r=\"25\" fill=\"none\" stroke=\"black\" stroke-width=\"6\"/>" }
        for (road, angle) in zip(tulip.roads, TulipLayout.displayAngles(of: tulip)) {
            let a = angle * .pi / 180
            let (dx, dy) = (sin(a), -cos(a))
            let width = road.role == .exit ? 10 : road.role == .entry ? 8 : 5
            let dash = road.roadClass == .path || road.roadClass == .offPiste ? " stroke-dasharray=\"8 6\"" : ""
            svg += "<line x1=\"\(decimal(dx * ring, places: 2))\" y1=\"\(decimal(dy * ring, places: 2))\" "
                + "x2=\"\(decimal(dx * 85, places: 2))\" y2=\"\(decimal(dy * 85, places: 2))\" stroke=\"black\" stroke-width=\"\(width)\"\(dash)/>"
            if road.role == .exit {
                svg += "<circle cx=\"\(decimal(dx * 85, places: 2))\" cy=\"\(decimal(dy * 85, places: 2))\" r=\"9\" fill=\"black\"/>"
            }
            if road.noExit {
                let (px, py) = (dx * 80, dy * 80), (nx, ny) = (-dy * 11, dx * 11)
                svg += "<line x1=\"\(decimal(px - nx, places: 2))\" y1=\"\(decimal(py - ny, places: 2))\" "
                    + "x2=\"\(decimal(px + nx, places: 2))\" y2=\"\(decimal(py + ny, places: 2))\" stroke=\"black\" stroke-width=\"6\"/>"
            }
        }
        if tulip.roundabout == nil, !tulip.roads.isEmpty { svg += "<circle cx=\"0\" cy=\"0\" r=\"7\" fill=\"black\"/>" }
        for stroke in tulip.strokes where stroke.count > 1 {
            let points = stroke.map { "\(decimal($0.x * 100, places: 2)),\(decimal(-$0.y * 100, places: 2))" }.joined(separator: " ")
            svg += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"black\" stroke-width=\"3\"/>"
        }
        return svg + "</svg>"
    }

    /// The notes box as an SVG: the marker, then the words, one line of text each, then the row's
    /// symbols four a line, 40 × 40 each: its pictogram (an SVG embedded as a `data:` URL) where
    /// `pictograms` has one, else its name in a frame. The symbols' names, in order, are in
    /// `<desc id="roadbook-symbols">` as JSON.
    static func notesSVG(_ note: Note, pictograms: [NoteSymbol: String] = [:]) -> String {
        let lines = ([note.marker].compactMap { $0 } + (note.text.isEmpty ? [] : note.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)))
        let symbolLines = (note.symbols.count + 3) / 4
        let height = 20 + 20 * lines.count + 44 * symbolLines
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"200\" height=\"\(height)\">"
        if !note.symbols.isEmpty {
            let json = (try? sortedKeysEncoder.encode(note.symbols.map(\.name))).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
            svg += "<desc id=\"\(OpenRally.symbolsDataID)\">\(escaped(json, attribute: false))</desc>"
        }
        for (i, line) in lines.enumerated() {
            svg += "<text x=\"4\" y=\"\(20 + 20 * i)\" font-size=\"16\">\(escaped(line, attribute: false))</text>"
        }
        for (i, symbol) in note.symbols.enumerated() {
            let x = 4 + 48 * (i % 4), y = 8 + 20 * lines.count + 44 * (i / 4)
            if let data = pictograms[symbol] {
                svg += "<image x=\"\(x)\" y=\"\(y)\" width=\"40\" height=\"40\" xlink:href=\"data:image/svg+xml;base64,\(data)\"/>"
            } else {
                svg += "<rect x=\"\(x)\" y=\"\(y)\" width=\"40\" height=\"40\" fill=\"none\" stroke=\"black\"/>"
                    + "<text x=\"\(x + 20)\" y=\"\(y + 24)\" font-size=\"8\" text-anchor=\"middle\">\(escaped(symbol.name, attribute: false))</text>"
            }
        }
        return svg + "</svg>"
    }

    /// The pictograms that may go into a notes drawing, base64: each at most
    /// `largestEmbeddedPictogram` bytes and self-contained (no reference to another file or a web
    /// address, which a reader might follow: the schema asks drawings not to reference anything).
    static func embeddable(_ pictograms: [NoteSymbol: Data]) -> [NoteSymbol: String] {
        pictograms.compactMapValues { data in
            data.count <= OpenRally.largestEmbeddedPictogram && isSelfContained(data) ? data.base64EncodedString() : nil
        }
    }

    /// Whether an SVG file refers to nothing outside itself: every `href` and `url(…)` names a part
    /// of it (`#id`) or is a `data:` URL, and it includes no other file (`xi:include`, `<!ENTITY`).
    static func isSelfContained(_ data: Data) -> Bool {
        let text = String(decoding: data, as: UTF8.self)
        if text.contains("<!ENTITY") || text.contains("XInclude") { return false }
        for marker in ["href", "url("] {
            var rest = Substring(text)
            while let found = rest.range(of: marker) {
                rest = rest[found.upperBound...]
                // `href = "…"` or `url( '…' )`: what the reference names, past the spaces, `=` and quote.
                let value = rest.drop { $0.isWhitespace || $0 == "=" || $0 == "\"" || $0 == "'" }
                if !(value.hasPrefix("#") || value.hasPrefix("data:")) { return false }
            }
        }
        return true
    }

    /// What the format has no place for, one line each; empty when nothing of `book` is lost.
    static func warnings(for book: Book) -> [String] {
        var lost: [String] = []
        let named = [("rally", book.rally), ("stage", book.stage), ("date", book.date)].filter { $0.1 != nil }.map(\.0)
        if !named.isEmpty { lost.append("the book's \(named.joined(separator: ", ")) are not kept: OpenRally GPX has no place for them") }
        let defaults = BookSettings()
        var settings: [String] = []
        if book.settings.template != defaults.template { settings.append("template") }
        if book.settings.purpose != defaults.purpose { settings.append("purpose") }
        if book.settings.offRouteDistance != defaults.offRouteDistance { settings.append("off-route distance") }
        if book.settings.travelMode != nil { settings.append("travel mode") }
        if !settings.isEmpty { lost.append("the book's \(settings.joined(separator: ", ")) are not kept (only its units are)") }
        if book.profile != nil { lost.append("the elevation profile is not kept (the track points' heights are)") }
        if book.plan != nil { lost.append("the route plan (handles and legs) is not kept: the route is written as a track and reopens as a recorded track") }
        if book.route.straightStretches != nil { lost.append("the record of legs drawn straight is not kept") }
        if let deleted = book.deletedNotes, !deleted.isEmpty { lost.append("\(deleted.count) deleted notes are not kept: regeneration may make them again") }
        func count(_ what: String, _ test: (Note) -> Bool) {
            let n = book.notes.filter(test).count
            if n > 0 { lost.append("\(n) row\(n == 1 ? "" : "s") \(what)") }
        }
        count("without a tulip lose what their turn was generated from (regeneration will treat them as written by a person)") { $0.generated != nil && $0.tulip == nil }
        count("lose their link to a handle of the plan") { $0.handleID != nil }
        count("lose when their words were edited") { $0.wordsEdited != nil }
        let others = Set(book.notes.flatMap(\.symbols).filter { OpenRally.element(of: $0) == nil }).map(\.name).sorted()
        if !others.isEmpty {
            lost.append("the symbols \(others.prefix(10).joined(separator: ", "))\(others.count > 10 ? ", …" : "") have no OpenRally element: "
                        + "they are kept in the notes drawings, where roadbook reads them back and other programs see them drawn")
        }
        count("have a speed limit on a row that is not DZ or FZ, not kept") { $0.speedLimit != nil && $0.waypointType != .dz && $0.waypointType != .fz }
        count("have radii without a waypoint type, not kept") { ($0.openRadius != nil || $0.clearRadius != nil) && $0.waypointType == nil }
        if book.settings.units == .miles {
            count("have speed limits or radii written in mph and yards, rounded") { $0.speedLimit != nil || $0.openRadius != nil || $0.clearRadius != nil }
        }
        return lost
    }

    /// `value` with at most `places` decimals and no exponent, trailing zeros dropped (`12.5`, `0`).
    static func decimal(_ value: Double, places: Int) -> String {
        var text = String(format: "%.\(places)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// `text` escaped for XML character data, or for an attribute value in double quotes (where tab,
    /// line feed and carriage return are written as character references, so they survive
    /// attribute-value normalisation). Characters XML 1.0 does not allow (controls other than tab,
    /// line feed and carriage return) are dropped. Every writer of XML here escapes with this.
    static func escaped(_ text: String, attribute: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "\n" where attribute: out += "&#10;"
            case "\r": out += "&#13;"
            case "\t" where attribute: out += "&#9;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                let v = scalar.value
                if v < 0x20 || v == 0xFFFE || v == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Text safe inside a CDATA section: a `]]>` is split across two sections.
    static func cdata(_ text: String) -> String { text.replacingOccurrences(of: "]]>", with: "]]]]><![CDATA[>") }
}

extension OpenRallyWriter {
    /// An encoder with sorted keys, so the same value always encodes to the same bytes.
    static var sortedKeysEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

/// XML text written into a file as it is made (`TextFileSink`), or, without a file, kept in memory.
final class OpenRallyOutput {
    private let sink: TextFileSink?
    private(set) var buffer: [UInt8] = []

    init(sink: TextFileSink?) {
        self.sink = sink
    }

    func raw(_ text: String) throws {
        if let sink { try sink.write(text) } else { buffer.append(contentsOf: text.utf8) }
    }

    /// `<name>text</name>` on a line of its own, the text escaped.
    func element(_ name: String, _ text: String, indent: Int) throws {
        try raw(String(repeating: " ", count: indent) + "<\(name)>\(OpenRallyWriter.escaped(text, attribute: false))</\(name)>\n")
    }

    /// Writes what is left to the file and closes it.
    func finish() throws {
        try sink?.finish()
    }
}
