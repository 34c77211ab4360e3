import Foundation
import Geo
import Model

/// Rally Navigator's `.rn2` route files (version 4), as RoadbookNavi and other editors exchange
/// them: a JSON object `{"route": {…}}` whose `waypoints` are every point of the line, in order,
/// the visible ones (`"show": true`) being the road book's rows. What the format holds and how it
/// maps onto a book is in docs/rn2.md.
///
/// The reader makes the whole book: the line from every waypoint, and a row for every visible
/// waypoint at its distance along the line (the file stores no distances: every reader sums the
/// line up to the row), with the words of its notes, its danger, odometer reset, waypoint type and
/// symbols from the icons' OpenRally tags, and its tulip from the drawing's roads. The rows are also
/// given as waypoints, so a reader of `document` alone still has them. What a book cannot hold
/// (drawings other than roads, text inside tulips, unknown icons, start and end location names) is
/// named in one warning line each.
///
/// Memory is linear in the file (JSON is parsed whole; a file is at most `Configuration.maximumBytes`).
public enum RN2Reader: RouteFileReader {
    public static let formatName = "Rally Navigator RN2"
    public static let fileExtensions = ["rn2"]

    /// Limits and conventions, each with its reason.
    public struct Configuration: Sendable {
        /// RoadbookNavi refuses RN2 files over 25 MB; twice that leaves room for long rallies with
        /// embedded images, and bounds the memory the parse takes.
        public var maximumBytes = 50_000_000
        /// The only version publicly described (RoadbookNavi's RN2 documentation: "Version 4").
        public var supportedVersion = 4
        /// Where the junction is in a tulip drawing when its track gives no `roadOut.start`: the
        /// standard anchor of Rally Navigator's 200 × 130 tulip (RoadbookNavi: `(99.5, 84)`).
        /// Positions inside a drawing are relative to it, so only its existence matters here.
        public var anchor = (x: 99.5, y: 84.0)
        /// A road of the drawing whose line passes farther than this from the junction (drawing
        /// units, the tulip being 200 wide) is a landmark road, not one of the junction's roads.
        public var junctionReach = 15.0
        /// An end of a road closer than this to the junction is where it meets the junction; the
        /// other end gives its direction.
        public var spokeMinimum = 10.0

        public init() {}
    }

    public static let configuration = Configuration()

    /// An object whose first key is `"route"` holding an object: RN2's top level. (GeoJSON and
    /// the book file begin otherwise.)
    public static func recognises(head: Data) -> Bool {
        var text = Substring(String(decoding: head.prefix(256), as: UTF8.self))
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        return text.range(of: #"^\s*\{\s*"route"\s*:\s*\{"#, options: .regularExpression) != nil
    }

    public static func read(contentsOf url: URL) throws -> RouteFile {
        let data = try InputFile.read(url, limit: configuration.maximumBytes, what: "an RN2 file")
        return try read(data, fileName: url.path, source: url.lastPathComponent)
    }

    public static func read(data: Data, fileName: String) throws -> RouteFile {
        guard data.count <= configuration.maximumBytes else {
            throw FormatError(file: fileName, message: "is more than \(configuration.maximumBytes / 1_000_000) MB; an RN2 file is at most \(configuration.maximumBytes / 1_000_000) MB")
        }
        return try read(data, fileName: fileName, source: URL(fileURLWithPath: fileName).lastPathComponent)
    }

    /// Reads RN2 bytes.
    /// - Parameters:
    ///   - fileName: the file as the user named it, for messages.
    ///   - source: the route's source in the book (the file's name without its folder).
    /// - Throws: `FormatError` naming the file and the field.
    public static func read(_ data: Data, fileName: String, source: String) throws -> RouteFile {
        let file: RN2File
        do {
            file = try JSONDecoder().decode(RN2File.self, from: data)
        } catch {
            throw JSONFile.formatError(error, data: data, fileName: fileName, what: "an RN2 route file",
                                       wholeNumberKeys: ["version", "waypointid", "typeId"])
        }
        return try convert(file.route, fileName: fileName, source: source)
    }

    // MARK: - From the file's values to a book

    static func convert(_ route: RN2Route, fileName: String, source: String) throws -> RouteFile {
        guard route.version == configuration.supportedVersion else {
            throw FormatError(file: fileName, field: "route.version",
                              message: "route.version is \(route.version); roadbook reads RN2 version \(configuration.supportedVersion)")
        }
        let waypoints = route.waypoints
        for (i, w) in waypoints.enumerated() where !Coordinate(latitude: w.lat, longitude: w.lon).isValid {
            throw FormatError(file: fileName, field: "route.waypoints[\(i)]",
                              message: "route.waypoints[\(i)] lat \(w.lat), lon \(w.lon) is not a position (latitude within ±90, longitude within ±180)")
        }
        let coordinates = waypoints.map { Coordinate(latitude: $0.lat, longitude: $0.lon) }
        guard coordinates.count >= 2 else {
            throw FormatError(file: fileName, field: "route.waypoints",
                              message: "route.waypoints has \(coordinates.count) point\(coordinates.count == 1 ? "" : "s"); a route needs at least two")
        }
        let line = Polyline(coordinates)
        guard line.length >= GPXDocument.minimumRouteLength else {
            throw FormatError(file: fileName, field: "route.waypoints",
                              message: "route.waypoints has no length: its \(coordinates.count) points are all at one place (\(coordinates[0]))")
        }
        guard waypoints.contains(where: \.show) else {
            throw FormatError(file: fileName, field: "route.waypoints",
                              message: "route.waypoints has no visible waypoint (\"show\": true): the road book would have no row")
        }
        let shown = waypoints.reduce(0) { $0 + ($1.show ? 1 : 0) }
        guard shown <= BookLimits.maximumNotes else {
            throw FormatError(file: fileName, field: "route.waypoints",
                              message: "route.waypoints has \(shown) visible waypoints, more than the \(BookLimits.maximumNotes) rows a book holds; "
                                  + "split the route into several files (one per stage)")
        }
        for (i, w) in waypoints.enumerated() {
            if let ele = w.ele, !BookLimits.heights.contains(ele) {
                throw FormatError(file: fileName, field: "route.waypoints[\(i)].ele",
                                  message: "route.waypoints[\(i)].ele \(ele) m is not a height on Earth "
                                      + "(\(Int(BookLimits.heights.lowerBound))…\(Int(BookLimits.heights.upperBound)) m)")
            }
        }
        // `ele` 0 stands for a height not known: rn2viewer reads a missing `ele` as 0, and its
        // example file has 0 on every point but the rows whose height was set (730 m), so 0 is no height.
        let elevation = { (w: RN2Waypoint) -> Metres? in w.ele.flatMap { $0 != 0 ? $0 : nil } }
        let points = waypoints.map { RoutePoint(coordinate: Coordinate(latitude: $0.lat, longitude: $0.lon), elevation: elevation($0)) }

        var lost = Lost()
        var notes: [Note] = []
        var gpxWaypoints: [GPXWaypoint] = []
        for (i, w) in waypoints.enumerated() where w.show {
            let distance = line.cumulativeDistances[i]
            var note = Note(id: notes.count + 1, kind: .waypoint, distanceAlong: distance, coordinate: coordinates[i],
                            text: "", cap: line.heading(atDistance: distance, lookahead: Thresholds.capLookahead))
            let noteElements = w.notes?.elements ?? []
            let tulipElements = w.tulip?.elements ?? []
            note.text = noteElements.compactMap { $0.type == "Text" ? $0.text?.trimmingCharacters(in: .whitespacesAndNewlines) : nil }
                .filter { !$0.isEmpty }.joined(separator: "\n")
            for element in noteElements + tulipElements where element.type == "Icon" {
                apply(icon: element, to: &note, lost: &lost)
            }
            note.tulip = tulip(from: tulipElements, line: line, at: distance, settings: route.settings, lost: &lost)
            lost.tulipTexts += tulipElements.filter { $0.type == "Text" && !($0.text ?? "").isEmpty }.count
            lost.drawings += tulipElements.filter { !["Track", "Road", "Icon", "Text"].contains($0.type ?? "") }.count
            lost.drawings += noteElements.filter { !["Icon", "Text"].contains($0.type ?? "") }.count
            notes.append(note)
            gpxWaypoints.append(GPXWaypoint(coordinate: coordinates[i], elevation: elevation(w),
                                            description: note.text.isEmpty ? nil : note.text,
                                            type: note.waypointType?.rawValue, line: i + 1))
        }

        let name = route.name.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        var settings = BookSettings()
        if route.settings?.units == "imperial" { settings.units = .miles }
        var book = Book(title: name ?? (source as NSString).deletingPathExtension, settings: settings,
                        route: Route(source: source, points: points), notes: notes)
        if let description = route.description, !description.trimmingCharacters(in: .whitespaces).isEmpty {
            book.description = description
        }
        let places = [route.startlocation, route.endlocation].compactMap { $0 }.filter { !$0.isEmpty }
        if !places.isEmpty { lost.places = places }

        let document = GPXDocument(fileName: fileName, creator: "Rally Navigator RN2", name: name,
                                   tracks: [GPXTrack(name: name, segments: [points.enumerated().map { i, p in
                                       GPXPoint(coordinate: p.coordinate, elevation: p.elevation, line: i + 1)
                                   }])],
                                   waypoints: gpxWaypoints)
        return RouteFile(document: document, book: book, warnings: lost.warnings(fileName: fileName))
    }

    /// What an icon means to a row, from its OpenRally tags (`gpx_tags`, the GPX the editor writes
    /// for it) or, for icons without tags, from the ids of Rally Navigator's system icons.
    static func apply(icon: RN2Element, to note: inout Note, lost: inout Lost) {
        var understood = false
        if let tags = icon.gpxTags, !tags.isEmpty {
            for (element, value, attributes) in openRallyTags(in: tags) {
                switch element {
                case "danger":
                    if let level = Int(value.trimmingCharacters(in: .whitespaces)), (1...3).contains(level) {
                        note.danger = max(note.danger, level); understood = true
                    }
                case "reset", "resettozero":
                    note.resetsOdometer = true; understood = true
                case "fuel":
                    if !note.symbols.contains(.fuel) { note.symbols.append(.fuel) }
                    understood = true
                case _ where OpenRally.symbolOfElement[element] != nil:
                    // A marker of OpenRally's (medical, police, village, …) is the library's symbol of it.
                    if let symbol = OpenRally.symbolOfElement[element], !note.symbols.contains(symbol) { note.symbols.append(symbol) }
                    understood = true
                default:
                    if let type = WaypointType(name: element) {
                        note.waypointType = type
                        if let speed = attributes["speed"].flatMap({ Int($0) }) ?? Int(value.trimmingCharacters(in: .whitespaces)),
                           (type == .dz || type == .fz), (1...300).contains(speed) {
                            note.speedLimit = speed
                        }
                        understood = true
                    }
                }
            }
        }
        if let id = icon.id, let known = SystemIcon(rawValue: id.lowercased()) {
            switch known {
            case .danger1: note.danger = max(note.danger, 1)
            case .danger2: note.danger = max(note.danger, 2)
            case .danger3: note.danger = max(note.danger, 3)
            case .resetDistance: note.resetsOdometer = true
            case .fuelZone: if !note.symbols.contains(.fuel) { note.symbols.append(.fuel) }
            case .aboveBridge, .underBridge: if !note.symbols.contains(.bridge) { note.symbols.append(.bridge) }
            case .riverWater: if !note.symbols.contains(.water) { note.symbols.append(.water) }
            case .roundabout: break  // drawn as the tulip's roundabout
            }
            understood = true
        }
        if !understood { lost.icons.insert(icon.name ?? icon.id ?? "unnamed icon") }
    }

    /// The elements of an RN2 icon's `gpx_tags` ("<danger>1</danger>", "<openrally:reset>0</openrally:reset>",
    /// "<fuel/>", "<openrally:dz speed=\"50\"/>"): each element's local name, its text and its
    /// attributes. A small scanner, not an XML parser: the tags are a fragment the editor writes.
    static func openRallyTags(in text: String) -> [(String, String, [String: String])] {
        var result: [(String, String, [String: String])] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            guard let close = rest.firstIndex(of: ">") else { break }
            let tag = rest[..<close]
            rest = rest[rest.index(after: close)...]
            if tag.hasPrefix("/") || tag.hasPrefix("?") || tag.hasPrefix("!") { continue }
            let selfClosing = tag.hasSuffix("/")
            let body = selfClosing ? tag.dropLast() : tag
            let words = body.split(whereSeparator: \.isWhitespace)
            guard let qualified = words.first else { continue }
            let local = String(qualified.split(separator: ":").last ?? qualified).lowercased()
            var attributes: [String: String] = [:]
            for word in words.dropFirst() {
                let pair = word.split(separator: "=", maxSplits: 1)
                if pair.count == 2 { attributes[String(pair[0])] = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'")) }
            }
            var value = ""
            if !selfClosing, let end = rest.firstIndex(of: "<") { value = String(rest[..<end]) }
            result.append((local, value, attributes))
        }
        return result
    }

    /// The tulip of a row from its drawing's track and roads: the exit from the track's outgoing
    /// road (or, when the file leaves it to the reader, from the route's turn there, as Rally
    /// Navigator's readers do), the other roads from the roads that reach the junction. Nil when
    /// the drawing has no track.
    static func tulip(from elements: [RN2Element], line: Polyline, at distance: Metres, settings: RN2Settings?,
                      lost: inout Lost) -> Tulip? {
        guard let track = elements.first(where: { $0.type == "Track" }) else { return nil }
        let defaultType = settings?.defaultTrackType ?? 17
        let inType = track.roadIn?.typeId ?? defaultType
        let outType = track.roadOut?.typeId ?? inType
        let exitAngle: Degrees
        if let end = track.roadOut?.end, hypot(end.x, end.y) >= configuration.spokeMinimum {
            exitAngle = angle(of: end)
        } else {
            let before = line.heading(atDistance: max(0, distance - Thresholds.capLookahead), lookahead: Thresholds.capLookahead)
            let after = line.heading(atDistance: distance, lookahead: Thresholds.capLookahead)
            exitAngle = before.flatMap { b in after.map { normalised($0 - b) } } ?? 0
        }
        var roads = [Tulip.Road(role: .entry, angle: 180, roadClass: roadClass(inType)),
                     Tulip.Road(role: .exit, angle: exitAngle, roadClass: roadClass(outType))]
        for road in elements where road.type == "Road" {
            guard let end = road.end else { continue }
            let start = road.start ?? RN2Point(x: 0, y: 0)
            let path = [start] + (road.handles ?? []) + [end]
            let reach = zip(path, path.dropFirst()).map { distanceToOrigin($0, $1) }.min() ?? .infinity
            guard reach <= configuration.junctionReach else { lost.landmarkRoads += 1; continue }
            for spoke in [start, end] where hypot(spoke.x, spoke.y) >= configuration.spokeMinimum {
                roads.append(Tulip.Road(role: .side, angle: angle(of: spoke), roadClass: roadClass(road.typeId ?? 4)))
            }
        }
        var tulip = Tulip(origin: .drawn, roads: roads)
        if elements.contains(where: { $0.type == "Icon" && ($0.isRoundabout == true || $0.id?.lowercased() == SystemIcon.roundabout.rawValue) }) {
            // Counted from the entry the way traffic goes round (counterclockwise, driving on the
            // right): the roads met first are those on the right, largest angle first.
            let passed = roads.filter { $0.role == .side && $0.angle > exitAngle }.count
            tulip.roundabout = Tulip.Roundabout(exitNumber: passed + 1)
        }
        return tulip
    }

    /// The turn angle of a point of the drawing seen from the junction: 0 up (straight on), +90
    /// right; the drawing's y grows downwards.
    static func angle(of p: RN2Point) -> Degrees {
        normalised(atan2(p.x, -p.y) * 180 / .pi)
    }

    /// `a` in (−180, 180].
    static func normalised(_ a: Degrees) -> Degrees {
        var r = a.truncatingRemainder(dividingBy: 360)
        if r <= -180 { r += 360 }
        if r > 180 { r -= 360 }
        return r
    }

    /// Distance from the junction (0, 0) to the segment a–b, in drawing units.
    static func distanceToOrigin(_ a: RN2Point, _ b: RN2Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let length2 = dx * dx + dy * dy
        let t = length2 > 0 ? max(0, min(1, -(a.x * dx + a.y * dy) / length2)) : 0
        return hypot(a.x + t * dx, a.y + t * dy)
    }

    /// Our road class for an RN2 road type, from how Rally Navigator draws each type (RoadbookNavi's
    /// renderer, made by inspecting Rally Navigator): 12 a double line with a grey centre (dual
    /// carriageway), 8, 10 and 18 open double lines (tarmac), 6, 14 and 17 thick lines (gravel
    /// roads and wide tracks), 2 and 15 dashed (path, low-visibility track), 16 dotted (off track),
    /// the rest, 4 among them, a thin line (track).
    static func roadClass(_ type: Int) -> Tulip.RoadClass {
        switch type {
        case 12: .motorway
        case 8, 10, 18: .tarmac
        case 6, 14, 17: .gravel
        case 2, 15: .path
        case 16: .offPiste
        default: .track
        }
    }

    /// Rally Navigator's system icons a reader recognises by id when they carry no OpenRally tags
    /// (the ids of the public RN2 viewer rn2viewer).
    enum SystemIcon: String {
        case danger1 = "bffeadbd-116b-49a7-921e-20dff8deec4b"
        case danger2 = "a6c80c12-49b1-4e68-a21f-a6d48ef0a0ed"
        case danger3 = "fab72ac2-f809-4ddc-9a7a-c9a24768bb4e"
        case fuelZone = "e5167bd4-314b-47d3-ba23-708182be76a9"
        case resetDistance = "308c7365-bc3f-451b-9e98-531e9015024f"
        case aboveBridge = "a49a0b2e-3be5-4659-8251-8205fd4e9571"
        case underBridge = "79f8c10f-d67b-4ba5-bf12-6a801ed79ed3"
        case riverWater = "aabe9acd-ab1b-467d-9bbb-877bb0d0da23"
        case roundabout = "5d157992-6013-4bef-86cb-92fea891944c"
    }

    /// What the file holds that the book cannot, gathered over the rows.
    struct Lost {
        var icons: Set<String> = []
        var tulipTexts = 0
        var drawings = 0
        var landmarkRoads = 0
        var places: [String] = []

        func warnings(fileName: String) -> [String] {
            var lines: [String] = []
            if !icons.isEmpty {
                lines.append("\(fileName): icons with no meaning a book holds are left out: \(icons.sorted().joined(separator: ", "))")
            }
            if tulipTexts > 0 { lines.append("\(fileName): \(tulipTexts) text\(tulipTexts == 1 ? "" : "s") inside tulip drawings left out") }
            if drawings > 0 { lines.append("\(fileName): \(drawings) free drawing\(drawings == 1 ? "" : "s") (lines, shapes) left out") }
            if landmarkRoads > 0 {
                lines.append("\(fileName): \(landmarkRoads) road\(landmarkRoads == 1 ? "" : "s") drawn away from the junction left out of the tulips")
            }
            if !places.isEmpty { lines.append("\(fileName): start and end locations (\(places.joined(separator: " → "))) not kept") }
            return lines
        }
    }
}

// MARK: - The file's values

/// Decoding leniently: a decorative field of an unexpected type is treated as absent rather than
/// refusing a file every RN2 reader opens.
private extension KeyedDecodingContainer {
    func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }
}

struct RN2File: Decodable {
    var route: RN2Route
}

struct RN2Route: Decodable {
    var version: Int
    var name: String?
    var description: String?
    var startlocation: String?
    var endlocation: String?
    var waypoints: [RN2Waypoint]
    var settings: RN2Settings?

    private enum CodingKeys: String, CodingKey { case version, name, description, startlocation, endlocation, waypoints, settings }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decode(Int.self, forKey: .version)
        name = c.lenient(String.self, .name)
        description = c.lenient(String.self, .description)
        startlocation = c.lenient(String.self, .startlocation)
        endlocation = c.lenient(String.self, .endlocation)
        waypoints = try c.decode([RN2Waypoint].self, forKey: .waypoints)
        settings = c.lenient(RN2Settings.self, .settings)
    }
}

struct RN2Settings: Decodable {
    var units: String?
    var defaultTrackType: Int?

    private enum CodingKeys: String, CodingKey { case units, defaultTrackType }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        units = c.lenient(String.self, .units)
        defaultTrackType = c.lenient(Int.self, .defaultTrackType)
    }
}

struct RN2Waypoint: Decodable {
    var lat: Double
    var lon: Double
    var ele: Double?
    var show: Bool
    var tulip: RN2Cell?
    var notes: RN2Cell?

    private enum CodingKeys: String, CodingKey { case lat, lon, ele, show, tulip, notes }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        lat = try c.decode(Double.self, forKey: .lat)
        lon = try c.decode(Double.self, forKey: .lon)
        ele = c.lenient(Double.self, .ele)
        show = try c.decode(Bool.self, forKey: .show)
        tulip = try c.decodeIfPresent(RN2Cell.self, forKey: .tulip)
        notes = try c.decodeIfPresent(RN2Cell.self, forKey: .notes)
    }
}

/// A waypoint's tulip or notes box: its drawing's elements.
struct RN2Cell: Decodable {
    var elements: [RN2Element]

    private enum CodingKeys: String, CodingKey { case elements }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        elements = try c.decodeIfPresent([RN2Element].self, forKey: .elements) ?? []
    }
}

struct RN2Point: Decodable {
    var x: Double
    var y: Double

    init(x: Double, y: Double) { self.x = x; self.y = y }

    private enum CodingKeys: String, CodingKey { case x, y }

    /// A point whose coordinates are not finite numbers is refused, so no angle is computed from it.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        x = try c.decode(Double.self, forKey: .x)
        y = try c.decode(Double.self, forKey: .y)
        guard x.isFinite, y.isFinite else {
            throw DecodingError.dataCorruptedError(forKey: .x, in: c, debugDescription: "must be a finite number")
        }
    }
}

/// The incoming or outgoing road of a drawing's track.
struct RN2RoadPart: Decodable {
    var end: RN2Point?
    var typeId: Int?

    private enum CodingKeys: String, CodingKey { case end, typeId }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        end = c.lenient(RN2Point.self, .end)
        typeId = c.lenient(Int.self, .typeId)
    }
}

/// One element of a drawing: `Track`, `Road`, `Icon`, `Text`, `Line` and others, with the fields
/// the reader uses; the rest of each element is ignored.
struct RN2Element: Decodable {
    var type: String?
    var text: String?
    var id: String?
    var name: String?
    var gpxTags: String?
    var isRoundabout: Bool?
    var start: RN2Point?
    var end: RN2Point?
    var handles: [RN2Point]?
    var typeId: Int?
    var roadIn: RN2RoadPart?
    var roadOut: RN2RoadPart?

    private enum CodingKeys: String, CodingKey {
        case type, text, id, name, gpxTags = "gpx_tags", isRoundabout, start, end, handles, typeId, roadIn, roadOut
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        type = c.lenient(String.self, .type)
        text = c.lenient(String.self, .text)
        id = c.lenient(String.self, .id)
        name = c.lenient(String.self, .name)
        gpxTags = c.lenient(String.self, .gpxTags)
        isRoundabout = c.lenient(Bool.self, .isRoundabout)
        start = c.lenient(RN2Point.self, .start)
        end = c.lenient(RN2Point.self, .end)
        handles = c.lenient([RN2Point].self, .handles)
        typeId = c.lenient(Int.self, .typeId)
        roadIn = c.lenient(RN2RoadPart.self, .roadIn)
        roadOut = c.lenient(RN2RoadPart.self, .roadOut)
    }
}
