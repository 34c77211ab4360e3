import Foundation
import Geo
import Model

/// Reads GeoJSON (RFC 7946) as a route file: positions are `[longitude, latitude(, altitude)]`
/// in WGS84.
///
/// What is read, in file order:
/// - every `LineString` and every line of a `MultiLineString` is one segment of the one track,
///   named by the first feature with a line (`properties.name`); lines more than
///   `Configuration.gapWarning` apart are joined with a warning naming the feature;
/// - every `Point` (and each point of a `MultiPoint`) is a waypoint, a note for `build`, with the
///   feature's `name`, `description` (else `desc`, else `cmt`) and `type` (else `sym`) properties;
/// - a `GeometryCollection` is read as its members; a bare geometry or a single `Feature` as a
///   collection of one; the collection's `name` member is the file's name.
///
/// Polygons are skipped with a warning, and a feature with a `null` geometry is skipped. A
/// position's altitude is its height. A `crs` member other than WGS84 longitude/latitude (the
/// 2008 GeoJSON draft allowed others) is refused, since the positions would be read wrongly.
/// Errors name the member (`features[3].geometry.coordinates[12]`) and the line.
///
/// The file is parsed whole into a tree (`JSONNode`, by `JSONScanner.parse`) with a line for every
/// value, without recursion; `maximumFileSize` bounds the memory.
public enum GeoJSONRouteReader {
    /// The choices of the reader, each with its reason.
    public struct Configuration: Sendable {
        /// Lines further apart than this (metres) get a warning: see `KMLReader.Configuration.gapWarning`.
        public var gapWarning: Metres = 100

        public init() {}
    }

    /// The largest GeoJSON file read: a day of one GPS point a second is about 3 MB of GeoJSON, a
    /// week of driving some tens; the parsed tree takes several times the file, so 64 MB is the
    /// most that is sure to fit in memory.
    public static let maximumFileSize = 64_000_000

    /// How the text is scanned: GeoJSON nests at most seven deep (a MultiPolygon's positions in a
    /// Feature in a collection), a GeometryCollection a few more; a number too small to hold is
    /// read as 0, as `JSONSerialization` reads it for the handles file.
    static let jsonRules = JSONScanner.Rules(maximumDepth: 64, refusesUnderflow: false)

    /// Reads the GeoJSON file at `url`.
    /// - Throws: `FormatError` naming the file, the member and its line.
    public static func read(contentsOf url: URL, configuration: Configuration = Configuration()) throws -> RouteFile {
        let data = try InputFile.read(url, limit: maximumFileSize, what: "a GeoJSON route file")
        return try read(data: data, fileName: url.relativePath, configuration: configuration)
    }

    /// Reads GeoJSON held in memory.
    /// - Parameter fileName: how errors name the document.
    /// - Throws: `FormatError` as `read(contentsOf:)`.
    public static func read(data: Data, fileName: String, configuration: Configuration = Configuration()) throws -> RouteFile {
        let root: JSONNode
        do { root = try JSONScanner.parse([UInt8](data), rules: jsonRules) } catch {
            throw FormatError(file: fileName, line: error.line, message: "is not GeoJSON: \(error.message)")
        }
        var reader = Reader(fileName: fileName, configuration: configuration)
        try reader.readRoot(root)
        return try reader.result()
    }

    private struct Reader {
        let fileName: String
        let configuration: Configuration
        var document: GPXDocument
        var lines: [(points: [GPXPoint], label: String, line: Int)] = []
        var trackName: String?
        var skipped: [String: Int] = [:]
        var nullGeometries = 0

        init(fileName: String, configuration: Configuration) {
            self.fileName = fileName
            self.configuration = configuration
            self.document = GPXDocument(fileName: fileName)
        }

        func fail(_ node: JSONNode?, _ field: String, _ message: String) -> FormatError {
            FormatError(file: fileName, line: node?.line, field: field, message: "\(field): \(message)")
        }

        static let geometryTypes: Set<String> = ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon",
                                                 "MultiPolygon", "GeometryCollection"]

        mutating func readRoot(_ root: JSONNode) throws {
            guard case .object = root.value else {
                throw FormatError(file: fileName, line: root.line, message: "is not GeoJSON: the file holds \(root.kind), not an object with a \"type\"")
            }
            try checkCRS(root)
            guard let type = root["type"]?.string else {
                throw FormatError(file: fileName, line: root.line, field: "type",
                                  message: "is not GeoJSON: the object has no \"type\" (FeatureCollection, Feature or a geometry)")
            }
            document.name = root["name"]?.string.map { String($0.prefix(LineJoin.maximumNameLength)) }
            switch type {
            case "FeatureCollection":
                guard let features = root["features"]?.array else {
                    throw fail(root["features"] ?? root, "features", "a FeatureCollection needs \"features\", a list of Feature objects")
                }
                for (i, feature) in features.enumerated() {
                    try readFeature(feature, field: "features[\(i)]")
                }
            case "Feature":
                try readFeature(root, field: "feature")
            case _ where Self.geometryTypes.contains(type):
                try readGeometry(root, field: "geometry", properties: nil, label: "")
            default:
                throw fail(root, "type", "\"\(type.prefix(40))\" is not a GeoJSON type; expected FeatureCollection, Feature or a geometry")
            }
        }

        /// Refuses a `crs` (GeoJSON 2008) that is not WGS84 longitude, latitude.
        func checkCRS(_ node: JSONNode) throws {
            guard let crs = node["crs"], case .object = crs.value else { return }
            let name = crs["properties"]?["name"]?.string ?? ""
            let wgs84 = ["urn:ogc:def:crs:OGC:1.3:CRS84", "urn:ogc:def:crs:OGC::CRS84", "EPSG:4326", "urn:ogc:def:crs:EPSG::4326"]
            guard !wgs84.contains(name) else { return }
            throw fail(crs, "crs", "the positions are in \(name.isEmpty ? "a coordinate system that is not named" : name.prefix(60)), "
                           + "not WGS84 longitude, latitude; export the file in WGS84 (EPSG:4326), as RFC 7946 requires")
        }

        mutating func readFeature(_ feature: JSONNode, field: String) throws {
            guard case .object = feature.value, feature["type"]?.string == "Feature" else {
                throw fail(feature, field, "expected a Feature object ({\"type\": \"Feature\", …}), found \(feature.kind)")
            }
            guard let geometry = feature["geometry"] else {
                throw fail(feature, "\(field).geometry", "a Feature needs a \"geometry\" (null when it has none)")
            }
            if case .null = geometry.value {
                nullGeometries += 1
                return
            }
            let properties = feature["properties"]
            let name = properties?["name"]?.string
            let label = name.map { " (\"\($0.prefix(60))\")" } ?? ""
            try readGeometry(geometry, field: "\(field).geometry", properties: properties, label: label)
        }

        mutating func readGeometry(_ geometry: JSONNode, field: String, properties: JSONNode?, label: String) throws {
            guard case .object = geometry.value, let type = geometry["type"]?.string else {
                throw fail(geometry, field, "expected a geometry object with a \"type\", found \(geometry.kind)")
            }
            let coordinatesField = "\(field).coordinates"
            switch type {
            case "LineString":
                let points = try line(geometry["coordinates"], field: coordinatesField, parent: geometry)
                add(points, label: "\(coordinatesField)\(label)", line: geometry.line, properties: properties)
            case "MultiLineString":
                let parts = try list(geometry["coordinates"], field: coordinatesField, parent: geometry)
                for (i, part) in parts.enumerated() {
                    add(try line(part, field: "\(coordinatesField)[\(i)]", parent: geometry), label: "\(coordinatesField)[\(i)]\(label)",
                        line: part.line, properties: properties)
                }
            case "Point":
                let node = geometry["coordinates"]
                let point = try position(node, field: coordinatesField, parent: geometry)
                addWaypoint(point, properties: properties)
            case "MultiPoint":
                for (i, node) in try list(geometry["coordinates"], field: coordinatesField, parent: geometry).enumerated() {
                    addWaypoint(try position(node, field: "\(coordinatesField)[\(i)]", parent: geometry), properties: properties)
                }
            case "GeometryCollection":
                guard let members = geometry["geometries"]?.array else {
                    throw fail(geometry, "\(field).geometries", "a GeometryCollection needs \"geometries\", a list of geometries")
                }
                for (i, member) in members.enumerated() {
                    try readGeometry(member, field: "\(field).geometries[\(i)]", properties: properties, label: label)
                }
            case "Polygon", "MultiPolygon":
                skipped[type, default: 0] += 1
            default:
                throw fail(geometry, "\(field).type", "\"\(type.prefix(40))\" is not a GeoJSON geometry type")
            }
        }

        func list(_ node: JSONNode?, field: String, parent: JSONNode) throws -> [JSONNode] {
            guard let node else { throw fail(parent, field, "is missing") }
            guard let items = node.array else { throw fail(node, field, "must be a list, found \(node.kind)") }
            return items
        }

        func line(_ node: JSONNode?, field: String, parent: JSONNode) throws -> [GPXPoint] {
            try list(node, field: field, parent: parent).enumerated().map { i, item in
                try position(item, field: "\(field)[\(i)]", parent: parent)
            }
        }

        /// `[longitude, latitude(, altitude)]`, checked; members past the third are ignored (RFC 7946 §3.1.1).
        func position(_ node: JSONNode?, field: String, parent: JSONNode) throws -> GPXPoint {
            guard let node else { throw fail(parent, field, "is missing") }
            let numbers: [Double]
            if let all = node.numbers, all.count >= 2 {
                numbers = Array(all.prefix(3))
            } else {
                // Not numbers only: say which member is not a number.
                guard let items = node.array, items.count >= 2 else {
                    throw fail(node, field, "a position must be [longitude, latitude] or [longitude, latitude, altitude], found \(node.kind)")
                }
                for (i, item) in items.prefix(3).enumerated() where item.number == nil {
                    throw fail(item, field, "its \(["longitude", "latitude", "altitude"][i]) is \(item.kind), not a number")
                }
                numbers = items.prefix(3).compactMap(\.number)
            }
            let longitude = numbers[0], latitude = numbers[1]
            if let problem = Positions.rangeProblem(longitude: longitude, latitude: latitude) {
                throw fail(node, field, problem)
            }
            let elevation = numbers.count > 2 ? numbers[2] : nil
            if let elevation, let problem = Positions.heightProblem(elevation) {
                throw fail(node, field, "\(problem); correct it or leave the altitude out")
            }
            return GPXPoint(coordinate: Coordinate(latitude: latitude, longitude: longitude), elevation: elevation, line: node.line)
        }

        mutating func add(_ points: [GPXPoint], label: String, line: Int, properties: JSONNode?) {
            guard !points.isEmpty else { return }
            if trackName == nil { trackName = properties?["name"]?.string.map { String($0.prefix(LineJoin.maximumNameLength)) } }
            lines.append((points, label, line))
        }

        mutating func addWaypoint(_ point: GPXPoint, properties: JSONNode?) {
            let description = ["description", "desc", "cmt"].lazy.compactMap { properties?[$0]?.string }.first { !$0.isEmpty }
            document.waypoints.append(GPXWaypoint(
                coordinate: point.coordinate, elevation: point.elevation, name: properties?["name"]?.string,
                description: description, symbol: properties?["sym"]?.string, type: properties?["type"]?.string,
                line: point.line))
        }

        func result() throws -> RouteFile {
            guard !lines.isEmpty else {
                let points = document.waypoints.count
                throw FormatError(file: fileName, field: "LineString",
                                  message: "no line in the file (it has \(points == 0 ? "no point either" : "\(points) point\(points == 1 ? "" : "s") only")); "
                                      + "a road book needs the route as a LineString or MultiLineString")
            }
            var document = self.document
            document.tracks = [GPXTrack(name: trackName, segments: lines.map(\.points))]
            var warnings = LineJoin.gapWarnings(lines, fileName: fileName, limit: configuration.gapWarning)
            if !skipped.isEmpty {
                let list = skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
                warnings.append("\(fileName): \(list) skipped; only lines (LineString, MultiLineString) and points are read")
            }
            if nullGeometries > 0 {
                warnings.append("\(fileName): \(nullGeometries) feature\(nullGeometries == 1 ? "" : "s") without a geometry skipped")
            }
            return RouteFile(document: document, warnings: warnings)
        }
    }
}

/// GeoJSON through `GeoJSONRouteReader`.
public enum GeoJSONFileReader: RouteFileReader {
    public static let formatName = "GeoJSON"
    public static let fileExtensions = ["geojson"]

    /// A JSON object whose first bytes hold a GeoJSON `"type"`: FeatureCollection, Feature or a
    /// line or point geometry. (A roadbook book file is JSON too, without such a type.)
    public static func recognises(head: Data) -> Bool {
        let text = String(decoding: head, as: UTF8.self)
        guard text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).first == "{" else { return false }
        let types = ["FeatureCollection", "Feature", "LineString", "MultiLineString", "GeometryCollection"]
        return text.range(of: #""type"\s*:\s*"(\#(types.joined(separator: "|")))""#, options: .regularExpression) != nil
    }

    public static func read(contentsOf url: URL) throws -> RouteFile {
        try GeoJSONRouteReader.read(contentsOf: url)
    }

    public static func read(data: Data, fileName: String) throws -> RouteFile {
        try GeoJSONRouteReader.read(data: data, fileName: fileName)
    }
}
