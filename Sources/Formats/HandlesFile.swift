import Foundation
import Geo
import Model

/// The handles of a route to be built, as `roadbook route` reads them.
public struct HandlesInput: Sendable, Equatable {
    /// Handles in route order.
    public var handles: [Handle]
    /// A line to turn into handles (a drawn stroke, or a recorded track to trace), when the file
    /// has one instead of handles.
    public var line: [Coordinate]
    /// Whether `line` is a drawn stroke (GeoJSON LineString) or a recorded track (GPX track).
    public var lineIsTrack: Bool

    public init(handles: [Handle] = [], line: [Coordinate] = [], lineIsTrack: Bool = false) {
        self.handles = handles
        self.line = line
        self.lineIsTrack = lineIsTrack
    }
}

/// Reads handles from GeoJSON, GPX or text.
///
/// - GeoJSON: a FeatureCollection whose Point features are the handles in order, with optional
///   properties `origin` (`tapped`, `drawn`, `coordinate`, `waypoint`, `note`, also read under its
///   former name `courseNote`; default `tapped`), `note` (the instruction of the handle note),
///   `marker` and `name` (what the handle is called); or one LineString feature, a drawn stroke.
/// - GPX: route points (`<rtept>`) are tapped handles named by their `<name>`; without a route,
///   waypoints (`<wpt>`) are waypoint handles (surveyed, never moved onto the road) carrying their
///   name and description as a handle note, and their name as the handle's; without either, the
///   track is traced into handles. A point's `<type>` (else `<sym>`) that names a waypoint type
///   (`DSS`, `CP`, `ASS`…, as `build` reads it) is the handle's, and its row's.
/// - Text (`.txt`): one typed coordinate a line, optionally with a note (see `fromText`).
public enum HandlesFile {
    /// The most handles a file may hold (`BookLimits.maximumHandles`): a route of rally stages is
    /// built from tens of handles; more is a track saved as points, which belongs in a GPX track.
    public static let maximumHandles = BookLimits.maximumHandles
    /// The largest handles file read: a thousand handles with notes are well under 1 MB, and a drawn
    /// stroke of a million points is about 40 MB.
    public static let maximumFileSize = 64_000_000

    public static func read(contentsOf url: URL) throws -> HandlesInput {
        let name = InputFile.name(of: url)
        switch try kind(of: url) {
        case "gpx":
            let document = InputFile.isStream(url) ? try GPXReader.read(data: data(of: url), fileName: name) : try GPXReader.read(contentsOf: url)
            return try fromGPX(document, fileName: name)
        case "geojson", "json": return try fromGeoJSON(data(of: url), fileName: name)
        case "txt": return try fromText(String(decoding: data(of: url), as: UTF8.self), fileName: name)
        default:
            throw FormatError(file: name, message: "is neither GeoJSON (.geojson), GPX (.gpx) nor text (.txt)")
        }
    }

    /// The format of a handles file: its extension's; for one without (standard input, a pipe),
    /// told by its first bytes: `gpx` for XML whose root is `<gpx>`, `geojson` for a JSON object,
    /// else `txt`.
    public static func kind(of url: URL) throws -> String {
        let ext = url.pathExtension.lowercased()
        guard ext.isEmpty || InputFile.isStream(url) && !["gpx", "geojson", "json", "txt"].contains(ext) else { return ext }
        let head = try InputFile.read(url, prefix: RouteFormats.sniffLength)
        if XMLHead(head).rootElement?.localName == "gpx" { return "gpx" }
        let first = String(decoding: head, as: UTF8.self).first { !$0.isWhitespace && $0 != "\u{FEFF}" }
        return first == "{" ? "geojson" : "txt"
    }

    static func data(of url: URL) throws -> Data {
        try InputFile.read(url, limit: maximumFileSize, what: "a handles file")
    }

    /// Refuses a file with more than `maximumHandles` handles.
    static func checkCount(_ count: Int, fileName: String, field: String? = nil, line: Int? = nil) throws {
        guard count <= maximumHandles else {
            throw FormatError(file: fileName, line: line, field: field,
                              message: (field.map { "\($0): " } ?? "") + "more than \(maximumHandles) handles; a route has at most \(maximumHandles) (split it into stages, or give the line as a GPX track)")
        }
    }

    static func fromGPX(_ document: GPXDocument, fileName: String = "") throws -> HandlesInput {
        if let route = document.routes.first(where: { $0.points.count >= 2 }) {
            try checkCount(route.points.count, fileName: fileName, field: "<rtept>")
            return HandlesInput(handles: route.points.enumerated().map {
                Handle(id: $0.offset + 1, coordinate: $0.element.coordinate, origin: .tapped,
                       name: $0.element.name.flatMap(Self.name),
                       waypointType: waypointType(type: $0.element.type, symbol: $0.element.symbol))
            })
        }
        if document.waypoints.count >= 2 {
            try checkCount(document.waypoints.count, fileName: fileName, field: "<wpt>")
            return HandlesInput(handles: document.waypoints.enumerated().map { i, w in
                let text = [w.description, w.comment].compactMap { $0 }.first { !$0.isEmpty }
                let note = text.map { HandleNote(text: $0, marker: w.name) }
                    ?? w.name.map { HandleNote(text: $0) }
                return Handle(id: i + 1, coordinate: w.coordinate, origin: .waypoint, note: note,
                              name: w.name.flatMap(Self.name), waypointType: waypointType(type: w.type, symbol: w.symbol))
            })
        }
        let track = try document.requireRoute(minimumPoints: 2)
        return HandlesInput(line: track.map(\.coordinate), lineIsTrack: true)
    }

    /// A GPX point's type (`DSS`, `CP`…) as `build` reads it: `<type>`, else `<sym>`, when either
    /// names a waypoint type.
    static func waypointType(type: String?, symbol: String?) -> WaypointType? {
        type.flatMap(WaypointType.init(name:)) ?? symbol.flatMap(WaypointType.init(name:))
    }

    /// Reads a FeatureCollection of handles (Points) or a stroke (a LineString).
    public static func fromGeoJSON(_ data: Data, fileName: String) throws -> HandlesInput {
        let parsed: Any
        do { parsed = try JSONSerialization.jsonObject(with: data) } catch {
            // Foundation's message names no place: find the syntax error or the number out of range.
            let problem = JSONScanner.problem(in: data)
            throw FormatError(file: fileName, field: problem?.field,
                              message: "is not GeoJSON: " + (problem?.description ?? "it is not JSON"))
        }
        guard let root = parsed as? [String: Any] else {
            throw FormatError(file: fileName, message: "is not GeoJSON: it must be a JSON object with \"type\": \"FeatureCollection\"")
        }
        let features: [[String: Any]]
        switch root["type"] as? String {
        case "FeatureCollection":
            guard let list = root["features"] as? [Any] else {
                throw FormatError(file: fileName, field: "features", message: "features must be a list of Feature objects")
            }
            features = try list.enumerated().map { i, item in
                guard let feature = item as? [String: Any] else {
                    throw FormatError(file: fileName, field: "features[\(i)]", message: "features[\(i)] must be a Feature object")
                }
                return feature
            }
        case "Feature": features = [root]
        default: throw FormatError(file: fileName, field: "type", message: "type must be FeatureCollection or Feature")
        }
        var handles: [Handle] = []
        var line: [Coordinate] = []
        for (i, feature) in features.enumerated() {
            let field = "features[\(i)]"
            guard let geometry = feature["geometry"] as? [String: Any], let type = geometry["type"] as? String else {
                throw FormatError(file: fileName, field: field, message: "\(field).geometry is missing")
            }
            let properties = feature["properties"] as? [String: Any] ?? [:]
            switch type {
            case "Point":
                let coordinate = try position(geometry["coordinates"], field: "\(field).geometry.coordinates", file: fileName)
                let originName = properties["origin"] as? String ?? "tapped"
                guard let origin = Handle.Origin(rawValue: originName == "courseNote" ? "note" : originName) else {
                    throw FormatError(file: fileName, field: "\(field).properties.origin",
                                      message: "\(field).properties.origin '\(originName)' is not one of tapped, drawn, coordinate, waypoint, note")
                }
                let note = (properties["note"] as? String).map { HandleNote(text: $0, marker: properties["marker"] as? String) }
                let name = (properties["name"] as? String).flatMap(Self.name)
                try checkCount(handles.count + 1, fileName: fileName, field: field)
                handles.append(Handle(id: handles.count + 1, coordinate: coordinate, origin: origin, note: note, name: name))
            case "LineString":
                guard let positions = geometry["coordinates"] as? [Any], positions.count >= 2 else {
                    throw FormatError(file: fileName, field: field, message: "\(field): a LineString needs two positions or more")
                }
                line = try positions.enumerated().map { try position($1, field: "\(field).geometry.coordinates[\($0)]", file: fileName) }
            default:
                throw FormatError(file: fileName, field: field, message: "\(field): a \(type) is neither a handle (Point) nor a stroke (LineString)")
            }
        }
        guard handles.count >= 2 || line.count >= 2 else {
            throw FormatError(file: fileName, message: "needs two handles (Point features) or a stroke (a LineString)")
        }
        return HandlesInput(handles: handles, line: handles.isEmpty ? line : [])
    }

    /// A handle's name as a file gives it: one line, its spaces trimmed, at most
    /// `maximumNameLength` characters; nil when empty.
    static func name(_ text: String) -> String? {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        return line.isEmpty ? nil : String(line.prefix(maximumNameLength))
    }

    /// The longest handle name kept: a place or a road name is a few words; a longer one is cut.
    public static let maximumNameLength = 80

    static func position(_ value: Any?, field: String, file: String) throws -> Coordinate {
        guard let numbers = value as? [Any], numbers.count >= 2, numbers.count <= 3,
              let lon = (numbers[0] as? NSNumber)?.doubleValue, let lat = (numbers[1] as? NSNumber)?.doubleValue else {
            throw FormatError(file: file, field: field, message: "\(field) must be [longitude, latitude] (numbers)")
        }
        guard Coordinate(latitude: lat, longitude: lon).isValid else {
            throw FormatError(file: file, field: field, message: "\(field) [\(lon), \(lat)] is out of range: longitude within ±180, latitude within ±90 (GeoJSON puts longitude first)")
        }
        return Coordinate(latitude: lat, longitude: lon)
    }
}
