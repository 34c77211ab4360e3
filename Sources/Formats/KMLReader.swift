import Archive
import Foundation
import Geo
import Model
import XML

/// Reads KML 2.0–2.2 (Google Earth, OGC 07-147r2) as a route file, streaming through `XMLStream`:
/// memory grows with the points kept, never with the text of one element (a `<coordinates>` of a
/// million points is parsed as it arrives).
///
/// What is read, in document order:
/// - every `<LineString>` and every `<gx:Track>` (also inside `<MultiGeometry>` and
///   `<gx:MultiTrack>`, nested to any depth) is one segment of the one track, named by the first
///   Placemark with a line; `<coordinates>` tuples are `lon,lat[,alt]` separated by whitespace,
///   `<gx:coord>` is `lon lat [alt]`. The altitude is the point's height unless the geometry's
///   `altitudeMode` is relative (`relativeToGround`, `relativeToSeaFloor`), whose heights are not
///   above sea level. Consecutive lines more than `Configuration.gapWarning` apart are still
///   joined, with a warning naming the Placemark;
/// - every `<Point>` of a Placemark is a waypoint (a note for `build`) with the Placemark's
///   `<name>` and `<description>` (HTML tags removed), its line the Placemark's;
/// - `<Document>`'s first `<name>` is the file's name.
///
/// An empty `<gx:coord/>` (OpenTracks marks pauses so) is skipped, where GDAL reads it as 0,0.
/// Polygons (`<Polygon>`, `<LinearRing>`), models and overlays are skipped with one warning.
/// Elements in other namespaces (`atom:`, `xal:`) are skipped. A DOCTYPE is refused (so no entity
/// can expand), and a file with no line is refused with a message naming what it has instead.
public enum KMLReader {
    /// The choices of the reader, each with its reason.
    public struct Configuration: Sendable {
        /// Lines further apart than this (metres, end of one to start of the next) get a warning:
        /// a GPS fix wanders a few metres and a drawn line's pieces meet, so 100 m means a piece
        /// of the route is missing between them, and `build` would draw a straight line there.
        public var gapWarning: Metres = 100
        /// The longest coordinate tuple accepted, in bytes: three numbers of 20 digits and their
        /// commas are about 65 bytes; more is not a coordinate.
        public var maximumTupleBytes = 256

        public init() {}
    }

    /// Reads the KML file at `url`, 64 KiB at a time.
    /// - Throws: `FormatError` naming the file (as `url.relativePath`) and the line.
    public static func read(contentsOf url: URL, configuration: Configuration = Configuration()) throws -> RouteFile {
        let fileName = url.relativePath
        guard let file = fopen(url.path, "rb") else {
            let reason = String(cString: strerror(errno))
            throw FormatError(file: fileName, message: "cannot open the file: \(reason); check the path and permissions")
        }
        defer { fclose(file) }
        return try read(fileName: fileName, configuration: configuration) { try $0.parse(file: file) }
    }

    /// Reads a KML document held in memory.
    /// - Parameter fileName: how errors name the document (`route.kmz:doc.kml`).
    /// - Throws: `FormatError` as `read(contentsOf:)`.
    public static func read(data: Data, fileName: String, configuration: Configuration = Configuration()) throws -> RouteFile {
        try read(fileName: fileName, configuration: configuration) { stream in
            try data.withUnsafeBytes { try stream.parse(bytes: $0) }
        }
    }

    static func read(fileName: String, configuration: Configuration,
                     _ parse: (XMLStream) throws -> Void) throws -> RouteFile {
        let handler = KMLHandler(fileName: fileName, configuration: configuration)
        do {
            try parse(try XMLStream(handler: handler))
        } catch let error as XMLStreamError {
            throw FormatError(error, fileName: fileName, format: "KML", texts: "a KML name, description or coordinate")
        }
        return try handler.result()
    }
}

/// KML through `KMLReader`.
public enum KMLFileReader: RouteFileReader {
    public static let formatName = "KML"
    public static let fileExtensions = ["kml"]

    /// A root element `<kml` (with or without a prefix) among the first bytes.
    public static func recognises(head: Data) -> Bool {
        XMLHead(head).rootElement?.localName == "kml"
    }

    public static func read(contentsOf url: URL) throws -> RouteFile {
        try KMLReader.read(contentsOf: url)
    }

    public static func read(data: Data, fileName: String) throws -> RouteFile {
        try KMLReader.read(data: data, fileName: fileName)
    }
}

/// KMZ: a zip archive holding a KML document (`doc.kml`, else the first `.kml` at the archive's
/// root, else the first `.kml` anywhere), read with `KMLReader`. Images and other entries are
/// ignored.
///
/// The KML entry's declared uncompressed size is checked against `maximumKMLBytes` before
/// anything is inflated, and libzip inflates no more than the declared size and checks the CRC,
/// so a zip bomb is refused without being expanded.
public enum KMZFileReader: RouteFileReader {
    public static let formatName = "KMZ"
    public static let fileExtensions = ["kmz"]
    /// The largest KML inside a KMZ read: a recorded day of one point a second is about 3 MB of
    /// KML, a week of driving some tens; 256 MB is far beyond any route and still fits in memory.
    public static let maximumKMLBytes: UInt64 = 256 << 20

    /// A zip archive's local file header signature `PK\3\4` at the start. No other format `build`
    /// reads is a zip; a zip without a `.kml` is refused by `read` with a message saying so.
    public static func recognises(head: Data) -> Bool {
        head.starts(with: [0x50, 0x4B, 0x03, 0x04])
    }

    /// The KML is inflated as it is parsed, 64 KiB at a time: memory does not grow with it.
    public static func read(contentsOf url: URL) throws -> RouteFile {
        try read(fileName: url.relativePath) { try ZipArchive(contentsOf: url) }
    }

    /// A KMZ read whole from a pipe: the archive is read from memory.
    public static func read(data: Data, fileName: String) throws -> RouteFile {
        try read(fileName: fileName) { try ZipArchive(data: data, name: fileName) }
    }

    private static func read(fileName: String, _ open: () throws -> ZipArchive) throws -> RouteFile {
        do {
            let archive = try open()
            guard let index = kmlEntry(in: archive.entryNames) else {
                let held = archive.entryNames.prefix(10).joined(separator: ", ")
                throw FormatError(file: fileName, message: "the KMZ holds no .kml document (it holds: \(held.isEmpty ? "nothing" : held)); "
                                      + "a KMZ is a zip with doc.kml inside")
            }
            let entryName = archive.entryNames[index]
            return try archive.withEntry(at: index, accepting: { $0 <= maximumKMLBytes },
                                         expected: "a KMZ's KML is at most \(maximumKMLBytes >> 20) MB uncompressed (is this a zip bomb?)") { fill in
                try KMLReader.read(fileName: "\(fileName):\(entryName)", configuration: KMLReader.Configuration()) { try $0.parse(from: fill) }
            }
        } catch let error as ArchiveError {
            throw FormatError(file: fileName, message: error.message)
        }
    }

    /// The entry holding the document: `doc.kml`, else the first `.kml` at the root, else the
    /// first `.kml` in a folder (as Google Earth and GDAL choose).
    static func kmlEntry(in names: [String]) -> Int? {
        let kml = names.indices.filter { names[$0].lowercased().hasSuffix(".kml") && !names[$0].hasSuffix("/") }
        return kml.first { names[$0].lowercased() == "doc.kml" }
            ?? kml.first { !names[$0].contains("/") }
            ?? kml.first
    }
}

/// The KML state machine: the open elements (KML ones by local name, others as nil), the
/// Placemark being read and the geometry being read inside it.
private final class KMLHandler: XMLStreamHandler {
    private struct Line {
        var points: [GPXPoint] = []
        var relativeAltitude = false
        var line: Int
    }
    private struct Placemark {
        var name: String?
        var description: String?
        var line: Int
        var lines: [Line] = []
        var points: [(coordinate: Coordinate, elevation: Metres?)] = []
        var pointRelative: [Bool] = []
    }
    /// What the current `<coordinates>` or `<gx:coord>` text feeds.
    private enum Target { case line, point, track }

    private let fileName: String
    private let configuration: KMLReader.Configuration
    /// Local names of the open elements; nil for an element in a namespace that is not KML's.
    private var stack: [String?] = []
    private var placemark: Placemark?
    /// The geometries open inside the Placemark, innermost last.
    private var geometries: [String] = []
    private var target: Target?
    private var point: [(coordinate: Coordinate, elevation: Metres?)] = []
    private var pointRelative = false
    /// Whether the open gx:MultiTrack's altitudeMode is relative.
    private var multiTrackRelative = false
    /// The coordinate tuple being read from `<coordinates>` text, and the line it started on.
    private var tuple: [UInt8] = []
    private var tupleLine = 0
    private var textLine = 0

    private var document: GPXDocument
    private var trackName: String?
    private var segments: [(points: [GPXPoint], placemark: String, line: Int)] = []
    private var skipped: [String: Int] = [:]
    private var emptyLines: [String] = []
    private var placemarkCount = 0

    init(fileName: String, configuration: KMLReader.Configuration) {
        self.fileName = fileName
        self.configuration = configuration
        self.document = GPXDocument(fileName: fileName, creator: nil)
    }

    private static func isKML(_ namespace: String?) -> Bool {
        guard let namespace else { return true }
        return namespace.contains("opengis.net/kml") || namespace.contains("earth.google.com/kml")
            || namespace.contains("google.com/kml/ext")
    }

    private func fail(_ line: Int?, _ message: String, field: String? = nil) -> FormatError {
        FormatError(file: fileName, line: line, field: field, message: message)
    }

    func startElement(_ name: XMLName, attributes: XMLAttributes, line: Int, stream: XMLStream) throws {
        guard !stack.isEmpty else {
            guard name.localName == "kml" else {
                throw fail(line, "expected <kml>, found <\(name.localName)>; this is not a KML file", field: name.localName)
            }
            stack.append("kml")
            return
        }
        guard Self.isKML(name.namespace) else {
            stack.append(nil)
            return
        }
        let local = name.localName
        let parent = stack.last ?? nil
        stack.append(local)
        switch local {
        case "Placemark":
            placemarkCount += 1
            placemark = Placemark(line: line)
            geometries = []
        case "LineString", "Track":
            guard placemark != nil else { return }
            geometries.append(local)
            // A gx:MultiTrack's altitudeMode (written before its tracks) holds for each of them.
            placemark!.lines.append(Line(relativeAltitude: local == "Track" && parent == "MultiTrack" && multiTrackRelative, line: line))
        case "Point":
            guard placemark != nil else { return }
            geometries.append(local)
            point = []
            pointRelative = false
        case "MultiGeometry", "MultiTrack":
            if placemark != nil { geometries.append(local) }
            if local == "MultiTrack" { multiTrackRelative = false }
        case "Polygon", "LinearRing", "Model", "GroundOverlay", "PhotoOverlay", "ScreenOverlay":
            skipped[local, default: 0] += 1
            if placemark != nil { geometries.append(local) }
        case "coordinates":
            switch parent {
            case "LineString"? where placemark != nil && geometries.last == "LineString": target = .line
            case "Point"? where placemark != nil && geometries.last == "Point": target = .point
            default: target = nil
            }
            if target != nil {
                stream.streamsText = true
                tuple.removeAll(keepingCapacity: true)
                textLine = line
            }
        case "coord" where parent == "Track" && placemark != nil && geometries.last == "Track":
            target = .track
            stream.collectsText = true
        case "name", "description":
            if parent == "Placemark" || parent == "Document" || parent == "Folder" { stream.collectsText = true }
        case "altitudeMode" where ["LineString", "Point", "Track", "MultiTrack"].contains(parent ?? ""):
            stream.collectsText = true
        default:
            break
        }
    }

    func characters(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, stream: XMLStream) throws {
        textLine = line
        for byte in bytes {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                if byte == 0x0A { textLine += 1 }
                // "lon, lat" (a space after a comma) is one tuple still.
                if let last = tuple.last, last != 0x2C { try endTuple() }
                continue
            }
            if tuple.isEmpty { tupleLine = textLine }
            guard tuple.count < configuration.maximumTupleBytes else {
                throw fail(tupleLine, "<coordinates> holds a tuple longer than \(configuration.maximumTupleBytes) bytes "
                               + "(\"\(String(decoding: tuple.prefix(40), as: UTF8.self))…\"); expected lon,lat[,alt] tuples separated by spaces",
                           field: "coordinates")
            }
            tuple.append(byte)
        }
    }

    /// Parses the tuple read so far, if any, into the current line or point.
    private func endTuple() throws {
        guard !tuple.isEmpty else { return }
        defer { tuple.removeAll(keepingCapacity: true) }
        let parts = tuple.split(separator: 0x2C, omittingEmptySubsequences: false)
        let text = String(decoding: tuple.prefix(80), as: UTF8.self)
        guard parts.count == 2 || parts.count == 3 else {
            throw fail(tupleLine, "<coordinates> \"\(text)\" is not lon,lat[,alt] (three numbers at most, separated by commas, tuples by spaces)",
                       field: "coordinates")
        }
        let position = try self.position(parts.map { Positions.decimal($0.drop { $0 == 0x20 }) }, text: text, line: tupleLine,
                                         element: "<coordinates>")
        add(position, line: tupleLine)
    }

    /// A position from its parsed numbers, checked.
    private func position(_ numbers: [Double?], text: String, line: Int, element: String) throws -> (Coordinate, Metres?) {
        for (i, number) in numbers.enumerated() where number == nil {
            throw fail(line, "\(element) \"\(text)\": its \(["longitude", "latitude", "altitude"][i]) is not a decimal number",
                       field: element)
        }
        let longitude = numbers[0]!, latitude = numbers[1]!
        if let problem = Positions.rangeProblem(longitude: longitude, latitude: latitude) {
            throw fail(line, "\(element) \"\(text)\": \(problem)", field: element)
        }
        return (Coordinate(latitude: latitude, longitude: longitude), numbers.count > 2 ? numbers[2] : nil)
    }

    private func add(_ position: (Coordinate, Metres?), line: Int) {
        switch target {
        case .line?, .track?:
            guard placemark != nil, !placemark!.lines.isEmpty else { return }
            placemark!.lines[placemark!.lines.count - 1].points.append(GPXPoint(coordinate: position.0, elevation: position.1, line: line))
        case .point?:
            point.append(position)
        case nil:
            break
        }
    }

    func endElement(_ name: XMLName, stream: XMLStream) throws {
        guard let local = stack.removeLast() else { return }
        let parent = stack.last ?? nil
        switch local {
        case "coordinates" where target != nil:
            try endTuple()
            target = nil
        case "coord" where target == .track:
            let line = stream.currentLine
            let text = stream.text
            let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            // An empty <gx:coord/> (OpenTracks writes one at each pause) has no position: skipped.
            if words.isEmpty { target = nil; break }
            guard words.count == 2 || words.count == 3 else {
                throw fail(line, "<gx:coord> \"\(text.prefix(80))\" is not \"lon lat [alt]\" (numbers separated by spaces)", field: "gx:coord")
            }
            add(try position(words.map { Positions.decimal($0.utf8) }, text: String(text.prefix(80)), line: line, element: "<gx:coord>"),
                line: line)
            target = nil
        case "altitudeMode":
            let relative = stream.text.contains("relative")
            if parent == "Point" { pointRelative = relative }
            else if parent == "MultiTrack" { multiTrackRelative = relative }
            else if placemark != nil, !placemark!.lines.isEmpty, relative { placemark!.lines[placemark!.lines.count - 1].relativeAltitude = true }
        case "name", "description":
            guard stream.collectsText || parent == "Placemark" || parent == "Document" || parent == "Folder" else { break }
            let text = local == "description" ? Self.plainText(stream.text) : Self.oneLine(stream.text)
            if parent == "Placemark", placemark != nil {
                if local == "name" { placemark!.name = text } else { placemark!.description = text }
            } else if parent == "Document" || parent == "Folder", local == "name", document.name == nil, !text.isEmpty {
                document.name = text
            }
        case "Point" where placemark != nil && geometries.last == "Point":
            geometries.removeLast()
            if let first = point.first {
                placemark!.points.append(first)
                placemark!.pointRelative.append(pointRelative)
            }
        case "LineString", "Track", "MultiGeometry", "MultiTrack", "Polygon", "LinearRing", "Model":
            if placemark != nil, geometries.last == local { geometries.removeLast() }
        case "Placemark":
            if let placemark { try finish(placemark) }
            placemark = nil
        default:
            break
        }
    }

    /// Files the Placemark's lines as segments and its points as waypoints.
    private func finish(_ placemark: Placemark) throws {
        let label = placemark.name.map { "Placemark \"\($0.prefix(60))\"" } ?? "the Placemark"
        for var line in placemark.lines {
            if line.points.isEmpty {
                emptyLines.append("\(fileName):\(line.line): \(label) has an empty line (no coordinates); it is skipped")
                continue
            }
            for i in line.points.indices {
                if line.relativeAltitude { line.points[i].elevation = nil; continue }
                if let e = line.points[i].elevation, let problem = Positions.heightProblem(e) {
                    throw fail(line.points[i].line, "\(label): \(problem); correct it, or set altitudeMode relativeToGround", field: "coordinates")
                }
            }
            if trackName == nil { trackName = placemark.name }
            segments.append((line.points, label, line.line))
        }
        for (i, point) in placemark.points.enumerated() {
            var elevation = placemark.pointRelative[i] ? nil : point.elevation
            if let e = elevation, Positions.heightProblem(e) != nil { elevation = nil }
            document.waypoints.append(GPXWaypoint(coordinate: point.coordinate, elevation: elevation, name: placemark.name,
                                                  description: placemark.description.flatMap { $0.isEmpty ? nil : $0 },
                                                  line: placemark.line))
        }
    }

    func result() throws -> RouteFile {
        guard !segments.isEmpty else {
            let what = document.waypoints.isEmpty
                ? (placemarkCount == 0 ? "no Placemark" : "\(placemarkCount) Placemark\(placemarkCount == 1 ? "" : "s") without a line")
                : "\(document.waypoints.count) point\(document.waypoints.count == 1 ? "" : "s") only"
            throw FormatError(file: fileName, field: "LineString",
                              message: "no line in the file (it has \(what)); a road book needs the route as a <LineString> or <gx:Track>")
        }
        document.tracks = [GPXTrack(name: trackName, segments: segments.map(\.points))]
        var warnings = emptyLines
        warnings += LineJoin.gapWarnings(segments.map { ($0.points, $0.placemark, $0.line) }, fileName: fileName,
                                         limit: configuration.gapWarning)
        if !skipped.isEmpty {
            let list = skipped.sorted { $0.key < $1.key }.map { "\($0.value) <\($0.key)>" }.joined(separator: ", ")
            warnings.append("\(fileName): \(list) skipped; only lines (LineString, gx:Track) and points are read")
        }
        return RouteFile(document: document, warnings: warnings)
    }

    /// A name on one line, its spaces trimmed, at most `LineJoin.maximumNameLength` characters.
    private static func oneLine(_ text: String) -> String {
        String(text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ").prefix(LineJoin.maximumNameLength))
    }

    /// A description without its HTML tags (KML descriptions are often HTML in CDATA), on one line.
    private static func plainText(_ text: String) -> String {
        guard text.contains("<") else { return oneLine(text) }
        var out = ""
        var inTag = false
        for character in text {
            if character == "<" { inTag = true; out.append(" "); continue }
            if character == ">", inTag { inTag = false; continue }
            if !inTag { out.append(character) }
        }
        return out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

/// Joining the lines of a file into one route, in file order.
enum LineJoin {
    /// The longest name a reader keeps for the file or its line (it becomes the book's title):
    /// a route's name is a few words; a longer one is cut, not refused.
    static let maximumNameLength = 200

    /// A warning for each line that starts more than `limit` metres from where the line before
    /// it ended: the route has a hole there, which `build` crosses in a straight line.
    /// - Parameter lines: each line's points, what names it (`Placemark "Col"`,
    ///   `features[3].geometry.coordinates[1]`) and its line in the file (0 when unknown).
    static func gapWarnings(_ lines: [(points: [GPXPoint], label: String, line: Int)], fileName: String,
                            limit: Metres) -> [String] {
        var warnings: [String] = []
        for i in lines.indices.dropFirst() {
            guard let end = lines[i - 1].points.last?.coordinate, let start = lines[i].points.first?.coordinate else { continue }
            let gap = end.distance(to: start)
            guard gap > limit else { continue }
            let place = lines[i].line > 0 ? "\(fileName):\(lines[i].line)" : fileName
            let distance = gap >= 1000 ? String(format: "%.1f km", gap / 1000) : "\(Int(gap.rounded())) m"
            warnings.append("\(place): \(lines[i].label) starts \(distance) from the end of the line before it; "
                                + "the two are joined in file order by a straight line")
        }
        return warnings
    }
}
