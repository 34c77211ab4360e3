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
///   former name `courseNote`; default `tapped`), `note` (the instruction of the handle note) and
///   `marker`; or one LineString feature, a drawn stroke.
/// - GPX: route points (`<rtept>`) are tapped handles; without a route, waypoints (`<wpt>`) are
///   waypoint handles (surveyed, never moved onto the road) carrying their name and description as
///   a handle note; without either, the track is traced into handles.
/// - Text (`.txt`): one typed coordinate a line, optionally with a note (see `fromText`).
public enum HandlesFile {
    public static func read(contentsOf url: URL) throws -> HandlesInput {
        switch url.pathExtension.lowercased() {
        case "gpx": return try fromGPX(GPXReader.read(contentsOf: url))
        case "geojson", "json": return try fromGeoJSON(data(of: url), fileName: url.path)
        case "txt": return try fromText(String(decoding: data(of: url), as: UTF8.self), fileName: url.path)
        default:
            throw FormatError(file: url.path, message: "is neither GeoJSON (.geojson), GPX (.gpx) nor text (.txt)")
        }
    }

    static func data(of url: URL) throws -> Data {
        do { return try Data(contentsOf: url) } catch {
            throw FormatError(file: url.path, message: "cannot read: \((error as NSError).localizedDescription)")
        }
    }

    static func fromGPX(_ document: GPXDocument) throws -> HandlesInput {
        if let route = document.routes.first(where: { $0.points.count >= 2 }) {
            return HandlesInput(handles: route.points.enumerated().map {
                Handle(id: $0.offset + 1, coordinate: $0.element.coordinate, origin: .tapped)
            })
        }
        if document.waypoints.count >= 2 {
            return HandlesInput(handles: document.waypoints.enumerated().map { i, w in
                let text = [w.description, w.comment].compactMap { $0 }.first { !$0.isEmpty }
                let note = text.map { HandleNote(text: $0, marker: w.name) }
                    ?? w.name.map { HandleNote(text: $0) }
                return Handle(id: i + 1, coordinate: w.coordinate, origin: .waypoint, note: note)
            })
        }
        let track = try document.requireRoute(minimumPoints: 2)
        return HandlesInput(line: track.map(\.coordinate), lineIsTrack: true)
    }

    /// Reads a FeatureCollection of handles (Points) or a stroke (a LineString).
    public static func fromGeoJSON(_ data: Data, fileName: String) throws -> HandlesInput {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw FormatError(file: fileName, message: "is not a GeoJSON object")
        }
        let features: [[String: Any]]
        switch root["type"] as? String {
        case "FeatureCollection": features = root["features"] as? [[String: Any]] ?? []
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
                handles.append(Handle(id: handles.count + 1, coordinate: coordinate, origin: origin, note: note))
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

    static func position(_ value: Any?, field: String, file: String) throws -> Coordinate {
        guard let numbers = value as? [Any], numbers.count >= 2,
              let lon = (numbers[0] as? NSNumber)?.doubleValue, let lat = (numbers[1] as? NSNumber)?.doubleValue,
              Coordinate(latitude: lat, longitude: lon).isValid else {
            throw FormatError(file: file, field: field, message: "\(field) must be [longitude, latitude] within range")
        }
        return Coordinate(latitude: lat, longitude: lon)
    }
}
