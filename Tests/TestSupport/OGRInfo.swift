import Foundation

/// A layer as GDAL's `ogrinfo -al` prints it: what a GIS would read from a file we wrote.
public struct OGRLayer: Sendable {
    public var name: String
    /// As ogrinfo names it: "Line String", "Point", "Multi Line String", "Unknown (any)".
    public var geometry: String = ""
    public var featureCount: Int = -1
    /// (minX, minY, maxX, maxY), as printed.
    public var extent: [Double]?
    /// Field name → type ("String", "Integer", "Real").
    public var fields: [String: String] = [:]
    public var features: [OGRFeature] = []
}

/// A feature as `ogrinfo -al` prints it: its field values (null ones left out) and its geometry in WKT.
public struct OGRFeature: Sendable {
    public var values: [String: String] = [:]
    public var geometry: String?
}

/// Runs GDAL's `ogrinfo -al` on `file` (read only) and reads its report.
/// - Throws: `ToolError` saying how to install GDAL when `ogrinfo` is missing, or its own failure.
public func ogrinfo(_ file: URL) throws -> [OGRLayer] {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ogrinfo")
            || ProcessInfo.processInfo.environment["PATH", default: ""].split(separator: ":")
                .contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/ogrinfo") }) else {
        throw ToolError(message: "ogrinfo (GDAL) is missing: `scripts/install-deps.sh test` installs it (Debian gdal-bin)")
    }
    return parseOGRInfo(try runTool("ogrinfo", ["-ro", "-al", file.path]))
}

/// Reads the text `ogrinfo -al` prints.
public func parseOGRInfo(_ text: String) -> [OGRLayer] {
    var layers: [OGRLayer] = []
    let fieldType = /^([A-Za-z_][A-Za-z0-9_]*): (String|Integer|Integer64|Real|Date|DateTime|Time|StringList|IntegerList|RealList|Binary) \(/
    let value = /^  ([A-Za-z_][A-Za-z0-9_]*) \(([A-Za-z0-9]+)\) = (.*)$/
    let wkt = /^  ((MULTI)?(POINT|LINESTRING|POLYGON)|GEOMETRYCOLLECTION)( [ZM]+)? ?\(.*$/
    let number = /-?[0-9.]+(e[-+]?[0-9]+)?/
    var inFeature = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        if line.hasPrefix("Layer name: ") {
            layers.append(OGRLayer(name: String(line.dropFirst("Layer name: ".count))))
            inFeature = false
            continue
        }
        guard !layers.isEmpty else { continue }
        let i = layers.count - 1
        if line.hasPrefix("OGRFeature(") {
            layers[i].features.append(OGRFeature())
            inFeature = true
        } else if inFeature {
            if let m = line.wholeMatch(of: value) {
                if m.3 != "(null)" { layers[i].features[layers[i].features.count - 1].values[String(m.1)] = String(m.3) }
            } else if line.wholeMatch(of: wkt) != nil {
                layers[i].features[layers[i].features.count - 1].geometry = line.trimmingCharacters(in: .whitespaces)
            }
        } else if line.hasPrefix("Geometry: ") {
            layers[i].geometry = String(line.dropFirst("Geometry: ".count))
        } else if line.hasPrefix("Feature Count: ") {
            layers[i].featureCount = Int(line.dropFirst("Feature Count: ".count)) ?? -1
        } else if line.hasPrefix("Extent: ") {
            layers[i].extent = line.matches(of: number).compactMap { Double($0.output.0) }
        } else if let m = line.firstMatch(of: fieldType) {
            layers[i].fields[String(m.1)] = String(m.2)
        }
    }
    return layers
}
