import Foundation
import Geo
import Model
import XML

/// Reads OpenRally GPX (v1.0.3, see `OpenRally`) into a whole book: its track is the route, each
/// `<wpt>` a row with its distance, words, waypoint type and radii, speed, danger, CAP, reset and
/// (when roadbook wrote it) its tulip. Chosen before plain GPX when the root `<gpx>` declares an
/// OpenRally namespace.
///
/// Two streaming passes, so memory grows with what is kept, never with the file: `GPXReader` for
/// the GPX (points, names, words), then a pass for the OpenRally extensions of the metadata and of
/// each top-level `<wpt>`, matched to the waypoints by their order.
///
/// A row is placed at its `openrally:distance` (converted from the file's units) when it has one,
/// else where the track passes nearest; when the track passes the waypoint more than the off-route
/// distance away from the distance given, a warning says so. What roadbook has no place for (stops,
/// neutralizations, time controls, drawings roadbook did not make, extra waypoint types on a row, …)
/// is named in the warnings, one line per kind of thing. Bad values (a distance that is no number,
/// a radius of 0, a danger of 4) are refused with the file, line and field.
public enum OpenRallyReader: RouteFileReader {
    public static let formatName = "OpenRally GPX"
    public static let fileExtensions = ["gpx"]

    /// Thresholds of the reader, each with its reason.
    public struct Configuration: Sendable {
        /// Highest speed limit read, in km/h: the book file's own limit (`Note.speedLimit`).
        public var maximumSpeed = 300
        /// Largest radius read, in metres: 100 km is more than any waypoint of a rally is opened
        /// from, and keeps a typo from reaching the book.
        public var maximumRadius = 100_000
        public init() {}
    }

    /// A root `<gpx>` whose start tag declares a namespace of OpenRally's (any version: a reader of
    /// another version is told so in a warning rather than read as plain GPX, which would drop it all).
    public static func recognises(head: Data) -> Bool {
        guard let root = XMLHead(head).rootElement, root.localName == "gpx" else { return false }
        return root.tag.contains(OpenRally.namespacePrefix)
    }

    public static func read(contentsOf url: URL) throws -> RouteFile {
        let document = try GPXReader.read(contentsOf: url)
        let fileName = url.relativePath
        guard let file = fopen(url.path, "rb") else {
            throw FormatError(file: fileName, message: "cannot open the file: \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        let extras = try extensions(fileName: fileName) { try $0.parse(file: file) }
        return try makeBook(document: document, extras: extras, fileName: fileName)
    }

    public static func read(data: Data, fileName: String) throws -> RouteFile {
        let document = try GPXReader.read(data: data, fileName: fileName)
        let extras = try extensions(fileName: fileName) { stream in try data.withUnsafeBytes { try stream.parse(bytes: $0) } }
        return try makeBook(document: document, extras: extras, fileName: fileName)
    }

    /// The second pass: the OpenRally extensions, as `parse` feeds the stream.
    private static func extensions(fileName: String, _ parse: (XMLStream) throws -> Void) throws -> ExtensionsHandler {
        let handler = ExtensionsHandler(fileName: fileName, configuration: Configuration())
        do {
            try parse(try XMLStream(handler: handler))
        } catch XMLStreamError.textTooLong(let line, let limit) {
            // The GPX pass skips extensions; this one keeps their text, drawings included.
            throw FormatError(file: fileName, line: line, field: "openrally",
                              message: "an OpenRally element's text is longer than \(limit) bytes (a tulip or notes drawing too large to read); "
                                  + "make the drawing smaller or remove it")
        } catch let error as XMLStreamError {
            // The GPX pass read the same bytes without fault; only a file changed meanwhile gets here.
            throw FormatError(file: fileName, message: "the file changed while it was read (\(error)); read it again")
        }
        return handler
    }

    // MARK: - The book

    private static func makeBook(document: GPXDocument, extras: ExtensionsHandler, fileName: String) throws -> RouteFile {
        let url = URL(fileURLWithPath: fileName)
        var warnings = extras.warnings
        let (points, routeWarning) = try document.routePoints(minimumPoints: 2)
        if let routeWarning { warnings.append(routeWarning) }
        let route = Route(source: url.lastPathComponent,
                          points: points.map { RoutePoint(coordinate: $0.coordinate, elevation: $0.elevation) })
        let polyline = Polyline(route.coordinates)
        let index = PolylineIndex(polyline)
        var settings = BookSettings()
        settings.units = extras.units
        let perUnit = OpenRally.metresPerUnit(extras.units)
        let offRoute = settings.offRouteDistance
        let length = polyline.length

        if let total = extras.totalDistance, abs(total * perUnit - length) > offRoute {
            warnings.append("\(fileName): the metadata's openrally:distance \(OpenRallyWriter.decimal(total, places: 3)) "
                + "differs from the track's length \(OpenRallyWriter.decimal(length / perUnit, places: 3)); the track's is used")
        }
        guard document.waypoints.count == extras.points.count else {
            throw FormatError(file: fileName, message: "has \(document.waypoints.count) waypoints as GPX but "
                + "\(extras.points.count) with OpenRally extensions; the file changed while it was read")
        }
        var notes: [Note] = []
        var disagreements: [String] = []
        var beyondEnd = 0
        var foreignDrawings = 0
        var tooManySymbols = 0
        for (i, (waypoint, extra)) in zip(document.waypoints, extras.points).enumerated() {
            let ours = waypoint.type.flatMap(Note.Kind.init(rawValue:))
            let kind = ours ?? {
                switch extra.type {
                case .cp?, .dss?, .ass?, .wpc?: return .checkpoint
                default: return .waypoint
                }
            }()
            let instruction = [waypoint.description, waypoint.comment].compactMap { $0 }.first { !$0.isEmpty }
            let text: String, marker: String?
            if ours != nil {
                (text, marker) = (waypoint.description ?? "", waypoint.name ?? extra.typeName)
            } else {
                // As a GPX waypoint's (`noteInput`), with the waypoint type's name as the marker.
                text = instruction ?? waypoint.name ?? ""
                marker = instruction == nil ? extra.typeName : (waypoint.name ?? extra.typeName)
            }
            // Where the track passes the waypoint, the pass nearest the distance given.
            let given = extra.distance.map { $0 * perUnit }
            var passes = index.segments(near: waypoint.coordinate, radius: offRoute)
                .map { polyline.project(waypoint.coordinate, ontoSegment: $0) }
                .filter { abs($0.offsetFromRoute) <= offRoute }
            if let given { passes.sort { abs($0.distanceAlong - given) < abs($1.distanceAlong - given) } }
            else { passes.sort { abs($0.offsetFromRoute) < abs($1.offsetFromRoute) } }
            let nearest = passes.first ?? index.position(closestTo: waypoint.coordinate)
            var along = given ?? nearest?.distanceAlong ?? 0
            if let given, let pass = passes.first, abs(pass.distanceAlong - given) > offRoute {
                disagreements.append("line \(waypoint.line) (\(OpenRallyWriter.decimal(given / perUnit, places: 3)) given, "
                    + "\(OpenRallyWriter.decimal(pass.distanceAlong / perUnit, places: 3)) on the track)")
            }
            // A few metres past the end is rounding (BookLimits.endTolerance); more is said.
            if along > length {
                if along > length + BookLimits.endTolerance { beyondEnd += 1 }
                along = length
            }
            var tulip: Tulip?
            var generated: GeneratedTurn?
            if let drawing = extra.tulip {
                tulip = roadbookTulip(in: drawing)
                generated = tulip == nil ? nil : roadbookData(OpenRally.generatedDataID, in: drawing)
                if tulip == nil { foreignDrawings += 1 }
            }
            if extra.notes != nil, ours == nil { foreignDrawings += 1 }
            // The symbols as roadbook wrote them (every one, in order), then any marker another
            // program added since.
            var symbols: [NoteSymbol] = []
            if let drawing = extra.notes, let names: [String] = roadbookData(OpenRally.symbolsDataID, in: drawing) {
                symbols = names.filter(NoteSymbol.isWellFormed).map(NoteSymbol.init)
            }
            for symbol in extra.symbols where !symbols.contains(symbol) { symbols.append(symbol) }
            if symbols.count > BookLimits.maximumSymbols {
                symbols = Array(symbols.prefix(BookLimits.maximumSymbols))
                tooManySymbols += 1
            }
            let speed = extra.speed.map { extras.units == .miles ? Int((Double($0) * perUnit / 1000).rounded()) : $0 }
            let metres = { (r: Int?) in r.map { extras.units == .miles ? max(1, Int((Double($0) * OpenRally.metresPerYard).rounded())) : $0 } }
            notes.append(Note(
                id: i + 1, kind: kind, distanceAlong: along, coordinate: waypoint.coordinate,
                offsetFromRoute: nearest?.offsetFromRoute ?? 0,
                placement: passes.isEmpty ? .offRoute : .onRoute,
                text: text, marker: marker, waypointType: extra.type, cap: extra.cap.map { Double($0 % 360) },
                danger: extra.danger ?? 0, elevation: waypoint.elevation, resetsOdometer: extra.reset,
                speedLimit: speed.map { min(max($0, 1), 300) }, symbols: symbols, tulip: tulip, generated: generated,
                openRadius: metres(extra.open), clearRadius: metres(extra.clear)))
        }
        if !disagreements.isEmpty {
            warnings.append("\(fileName): \(disagreements.count) waypoint\(disagreements.count == 1 ? " lies" : "s lie") on the track more than "
                + "\(Int(offRoute)) m from the place their openrally:distance gives, placed at the distance given: "
                + disagreements.prefix(5).joined(separator: ", ") + (disagreements.count > 5 ? ", …" : ""))
        }
        if beyondEnd > 0 {
            warnings.append("\(fileName): \(beyondEnd) waypoint\(beyondEnd == 1 ? " has" : "s have") an openrally:distance beyond the track's end; placed at its end")
        }
        if tooManySymbols > 0 {
            warnings.append("\(fileName): \(tooManySymbols) waypoint\(tooManySymbols == 1 ? " has" : "s have") more than "
                + "\(BookLimits.maximumSymbols) symbols; the first \(BookLimits.maximumSymbols) are kept")
        }
        if foreignDrawings > 0 {
            warnings.append("\(fileName): \(foreignDrawings) tulip or notes drawings are not kept: roadbook draws its own tulips and prints the words")
        }
        notes = notes.enumerated().sorted { ($0.element.distanceAlong, $0.offset) < ($1.element.distanceAlong, $1.offset) }.map(\.element)
        let title = document.name ?? document.tracks.first?.name ?? url.deletingPathExtension().lastPathComponent
        var book = Book(title: title, settings: settings, route: route, notes: notes)
        book.description = extras.description
        return RouteFile(document: document, book: book, warnings: warnings)
    }

    /// The tulip roadbook wrote into an `<openrally:tulip>` SVG (`<desc id="roadbook-tulip">`), if any.
    static func roadbookTulip(in drawing: String) -> Tulip? { roadbookData(OpenRally.tulipDataID, in: drawing) }

    /// A value roadbook wrote as JSON into a `<desc id="…">` of a drawing, if there is one that decodes.
    static func roadbookData<Value: Decodable>(_ id: String, in drawing: String) -> Value? {
        guard let start = drawing.range(of: "<desc id=\"\(id)\">"),
              let end = drawing.range(of: "</desc>", range: start.upperBound..<drawing.endIndex) else { return nil }
        let json = drawing[start.upperBound..<end.lowerBound]
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
        return try? JSONDecoder().decode(Value.self, from: Data(json.utf8))
    }
}

/// What one `<wpt>` holds in OpenRally extensions.
struct OpenRallyPoint {
    var line: Int
    var distance: Double?
    var type: WaypointType?
    var typeName: String?
    var open: Int?
    var clear: Int?
    var speed: Int?
    var danger: Int?
    var cap: Int?
    var reset = false
    var symbols: [NoteSymbol] = []
    var tulip: String?
    /// The notes drawing's SVG, when there is one.
    var notes: String?
}

/// The OpenRally pass: the extensions of `<metadata>` and of each top-level `<wpt>`.
private final class ExtensionsHandler: XMLStreamHandler {
    let fileName: String
    let configuration: OpenRallyReader.Configuration
    var units: BookSettings.Units = .kilometres
    var totalDistance: Double?
    var description: String?
    var points: [OpenRallyPoint] = []
    /// Elements roadbook keeps nothing of, by name, with how many times each was seen.
    private var dropped: [String: Int] = [:]
    /// Marker elements read as symbols whose time (a stop's or neutralization's seconds, a time
    /// control's minutes allowed) is not kept, by name.
    private var timesDropped: [String: Int] = [:]
    private var extraTypes = 0
    private var otherVersion: String?
    private var gpxNamespace: String?
    /// The local names of the open elements (the depth stays small: deeper ones are only counted).
    private var stack: [String] = []
    private var deeper = 0
    private var current: OpenRallyPoint?
    private var textLine = 0

    init(fileName: String, configuration: OpenRallyReader.Configuration) {
        self.fileName = fileName
        self.configuration = configuration
    }

    var warnings: [String] {
        var lines: [String] = []
        if let otherVersion {
            lines.append("\(fileName): declares OpenRally namespace \(otherVersion); read as v1.0.3 (\(OpenRally.namespace))")
        }
        if extraTypes > 0 {
            lines.append("\(fileName): \(extraTypes) waypoint\(extraTypes == 1 ? "" : "s") have more than one waypoint type; the first is kept")
        }
        for (name, count) in dropped.sorted(by: { $0.key < $1.key }) {
            lines.append("\(fileName): \(count) <openrally:\(name)> not kept: a road book row has no place for it")
        }
        for (name, count) in timesDropped.sorted(by: { $0.key < $1.key }) {
            lines.append("\(fileName): the time of \(count) <openrally:\(name)> not kept: the row keeps the symbol, not its time")
        }
        return lines
    }

    private func isOpenRally(_ name: XMLName) -> Bool {
        guard let ns = name.namespace, ns.hasPrefix(OpenRally.namespacePrefix) else { return false }
        if ns != OpenRally.namespace, otherVersion == nil { otherVersion = ns }
        return true
    }

    func startElement(_ name: XMLName, attributes: XMLAttributes, line: Int, stream: XMLStream) throws {
        if stack.count >= 4 { deeper += 1; return }
        if stack.isEmpty { gpxNamespace = name.namespace }
        stack.append(name.localName)
        switch stack.count {
        case 2 where stack[1] == "wpt" && name.namespace == gpxNamespace:
            current = OpenRallyPoint(line: line)
        case 3 where stack == ["gpx", "metadata", "desc"] && name.namespace == gpxNamespace:
            stream.collectsText = true
        case 4 where stack[2] == "extensions" && isOpenRally(name):
            textLine = line
            stream.collectsText = true
            if stack[1] == "wpt", current != nil { try startPointElement(name.localName, attributes: attributes, line: line) }
        default:
            break
        }
    }

    func endElement(_ name: XMLName, stream: XMLStream) throws {
        if deeper > 0 { deeper -= 1; return }
        defer { stack.removeLast() }
        if stack.count == 3, stack == ["gpx", "metadata", "desc"] { description = stream.text }
        if stack.count == 2, stack[1] == "wpt", let current {
            points.append(current)
            self.current = nil
        }
        guard stack.count == 4, stack[2] == "extensions", isOpenRally(name) else { return }
        let local = name.localName
        if stack[1] == "metadata" {
            switch local {
            case "units":
                switch stream.text.trimmingCharacters(in: .whitespacesAndNewlines) {
                case "metric": units = .kilometres
                case "statue", "statute", "imperial": units = .miles
                case let other:
                    throw FormatError(file: fileName, line: textLine, field: "openrally:units",
                                      message: "units \"\(other.prefix(40))\" is neither metric nor statute (written \"statue\" in the schema)")
                }
            case "distance": totalDistance = try number(stream.text, field: "distance")
            default: dropped[local, default: 0] += 1
            }
        } else if stack[1] == "wpt", current != nil {
            try endPointElement(local, text: stream.text)
        }
    }

    private func startPointElement(_ local: String, attributes: XMLAttributes, line: Int) throws {
        if local == "timecontrol", attributes["allowed"] != nil { timesDropped[local, default: 0] += 1 }
        guard let type = OpenRally.waypointType(element: local) else { return }
        if current!.type != nil { extraTypes += 1; return }
        current!.type = type
        current!.typeName = attributes["name"].flatMap { $0.isEmpty ? nil : $0 }
        current!.open = try radius(attributes["open"], field: "\(local) open", line: line)
        current!.clear = try radius(attributes["clear"], field: "\(local) clear", line: line)
    }

    private func endPointElement(_ local: String, text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch local {
        case "distance": current!.distance = try number(text, field: "distance")
        case "danger":
            guard let level = Int(trimmed), (1...3).contains(level) else {
                throw fail("danger", "\"\(trimmed.prefix(40))\" is not a danger level; give 1, 2 or 3")
            }
            current!.danger = level
        case "cap":
            guard let cap = Int(trimmed), (0...360).contains(cap) else {
                throw fail("cap", "\"\(trimmed.prefix(40))\" is not a heading; give whole degrees from 0 to 360")
            }
            current!.cap = cap
        case "speed":
            current!.speed = try speed(trimmed, field: "speed")
        case "dz", "fz":
            // The official example writes a zone's speed as the element's text (`<openrally:dz>40</openrally:dz>`).
            if current!.speed == nil, !trimmed.isEmpty { current!.speed = try speed(trimmed, field: local) }
        case "reset":
            current!.reset = true
            if !trimmed.isEmpty, (try number(text, field: "reset")) != 0 { dropped["reset (to a reading other than 0)", default: 0] += 1 }
        case "tulip": current!.tulip = text
        case "notes": current!.notes = text
        default:
            if let symbol = OpenRally.symbolOfElement[local] {
                if !current!.symbols.contains(symbol) { current!.symbols.append(symbol) }
                // A stop's or a neutralization's time in seconds: the row keeps the symbol only.
                if local == "stop" || local == "neutralization", !trimmed.isEmpty, trimmed != "0" {
                    timesDropped[local, default: 0] += 1
                }
            } else if OpenRally.waypointType(element: local) == nil {
                dropped[local, default: 0] += 1
            }
        }
    }

    private func fail(_ field: String, _ message: String) -> FormatError {
        FormatError(file: fileName, line: textLine, field: "openrally:\(field)", message: "openrally:\(field) \(message)")
    }

    /// A distance: a decimal number, 0 or more.
    private func number(_ text: String, field: String) throws -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" }),
              let value = Double(trimmed), value.isFinite else {
            throw fail(field, "\"\(trimmed.prefix(40))\" is not a number; give a decimal distance such as 12.34")
        }
        guard value >= 0, value < 1_000_000 else {
            throw fail(field, "\(trimmed.prefix(40)) is not a distance along a route; give 0 or more")
        }
        return value
    }

    private func speed(_ text: String, field: String) throws -> Int {
        guard let value = Int(text), (1...configuration.maximumSpeed).contains(value) else {
            throw fail(field, "\"\(text.prefix(40))\" is not a speed limit; give a whole number from 1 to \(configuration.maximumSpeed)")
        }
        return value
    }

    private func radius(_ text: String?, field: String, line: Int) throws -> Int? {
        guard let text else { return nil }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), (1...configuration.maximumRadius).contains(value) else {
            throw FormatError(file: fileName, line: line, field: "openrally:\(field)",
                              message: "openrally:\(field) \"\(text.prefix(40))\" is not a radius; give a whole number from 1 to \(configuration.maximumRadius)")
        }
        return value
    }
}
