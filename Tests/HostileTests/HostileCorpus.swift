import Foundation
import TestSupport

/// One hostile input and what must happen to it: a row of a `Hostile/**/expected.tsv` (or of
/// `Tests/Hostile/large.tsv`, made at run time). The columns are described in Tests/Hostile/README.md.
struct HostileCase: Sendable, CustomStringConvertible {
    enum Expect: String, Sendable { case ok, fail, any }

    /// gpx, book, template, handles, osm, dem, engine, elevation, output, http… (`HostileCorpus.kinds`).
    var kind: String
    /// The corpus file (nil for output situations and inputs made at run time).
    var file: URL?
    /// The case's name: the file's name, or the situation's.
    var name: String
    var expect: Expect
    /// `key=value` options of the row (`as`, `engine`, `service`, `status`, `setup`, `exit`, `kind`).
    var options: [String: String]
    /// Options without a value (`raw`).
    var flags: Set<String>
    var why: String
    /// The folder the row came from, relative to the package root, for the report.
    var origin: String
    /// For large.tsv rows: how to make the input at run time.
    var generator: String?
    /// For commands.tsv rows: the setup and the command lines.
    var command: CommandCase? = nil

    /// The name the input gets in the case's folder: `as=` or the file's own.
    var inputName: String { options["as"] ?? name }
    var description: String { "\(origin)/\(name)" }
}

enum HostileCorpus {
    /// The kinds, in report order.
    static let kinds = ["gpx", "book", "template", "handles", "draft", "osm", "dem", "engine", "elevation", "output", "undo", "rn2", "kml", "geojson", "openrally", "graph", "saved", "journal", "symbol", "http", "command"]

    /// Every row of every `expected.tsv` below a folder named `Hostile` in `Tests/`, large.tsv and
    /// commands.tsv.
    static func load(root: URL) throws -> [HostileCase] {
        let tests = root.appendingPathComponent("Tests")
        var tables: [URL] = []
        if let walker = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil) {
            for case let url as URL in walker where url.lastPathComponent == "expected.tsv"
                && url.pathComponents.contains("Hostile") {
                tables.append(url)
            }
        }
        var cases: [HostileCase] = []
        for table in tables.sorted(by: { $0.path < $1.path }) {
            cases += try rows(of: table, root: root)
        }
        let large = tests.appendingPathComponent("Hostile/large.tsv")
        if FileManager.default.fileExists(atPath: large.path) { cases += try largeRows(large, root: root) }
        let commands = tests.appendingPathComponent("Hostile/commands.tsv")
        if FileManager.default.fileExists(atPath: commands.path) { cases += try HostileCommands.load(commands) }
        return cases
    }

    /// Reads one expected.tsv. Columns: file, expect (ok, fail or any), options, why; a row whose
    /// columns are laid out otherwise is read leniently: the first column is the file, the first
    /// column that is ok/fail/any (also accepted: pass/accept, error/refuse/reject) the expectation,
    /// a column of `key=value` words the options. The kind comes from `kind=`, else the folder's
    /// name, else the file's extension and content.
    static func rows(of table: URL, root: URL) throws -> [HostileCase] {
        let folder = table.deletingLastPathComponent()
        let origin = String(folder.path.dropFirst(root.path.count + 1))
        let text = try String(contentsOf: table, encoding: .utf8)
        var result: [HostileCase] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("#") || line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let name = columns[0].trimmingCharacters(in: .whitespaces)
            var expect = HostileCase.Expect.any
            var options: [String: String] = [:], flags: Set<String> = []
            var why = ""
            for column in columns.dropFirst() {
                let word = column.trimmingCharacters(in: .whitespaces).lowercased()
                if let e = expectation(word) {
                    expect = e
                } else if !column.isEmpty, column.split(separator: " ").allSatisfy({ $0.contains("=") || $0 == "raw" }) {
                    for item in column.split(separator: " ") {
                        if let eq = item.firstIndex(of: "=") {
                            options[String(item[..<eq])] = String(item[item.index(after: eq)...])
                        } else {
                            flags.insert(String(item))
                        }
                    }
                } else if why.isEmpty {
                    why = column
                }
            }
            let file = folder.appendingPathComponent(name)
            let isSituation = folder.lastPathComponent == "output" || options["setup"] != nil
            guard let kind = options["kind"] ?? (kinds.contains(folder.lastPathComponent) ? folder.lastPathComponent : nil)
                    ?? inferredKind(file) else {
                throw ToolError(message: "\(origin)/expected.tsv: no kind for \(name): add kind=gpx|book|template|handles|osm|dem")
            }
            result.append(HostileCase(kind: kind, file: isSituation ? nil : file, name: name, expect: expect,
                                      options: options, flags: flags, why: why, origin: origin, generator: nil))
        }
        return result
    }

    /// large.tsv: kind, name, generator, expect, options, why.
    static func largeRows(_ table: URL, root: URL) throws -> [HostileCase] {
        let text = try String(contentsOf: table, encoding: .utf8)
        var result: [HostileCase] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let c = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard c.count >= 4 else { throw ToolError(message: "large.tsv: a row needs kind, name, generator, expect") }
            var options: [String: String] = [:], flags: Set<String> = []
            for item in (c.count > 4 ? c[4] : "").split(separator: " ") {
                if let eq = item.firstIndex(of: "=") {
                    options[String(item[..<eq])] = String(item[item.index(after: eq)...])
                } else {
                    flags.insert(String(item))
                }
            }
            result.append(HostileCase(kind: c[0], file: nil, name: c[1], expect: expectation(c[3]) ?? .any, options: options,
                                      flags: flags, why: c.count > 5 ? c[5] : "", origin: "Tests/Hostile/large.tsv",
                                      generator: c[2]))
        }
        return result
    }

    static func expectation(_ word: String) -> HostileCase.Expect? {
        switch word {
        case "ok", "pass", "accept", "accepted", "success": .ok
        case "fail", "error", "refuse", "refused", "reject", "rejected": .fail
        case "any", "either": .any
        default: nil
        }
    }

    /// The kind of a file from another folder's table, by extension (and, for JSON, content).
    static func inferredKind(_ file: URL) -> String? {
        let name = file.lastPathComponent.lowercased()
        if name.hasSuffix(".gpx") { return "gpx" }
        if name.hasSuffix(".geojson") || name.hasSuffix(".txt") { return "handles" }
        if name.hasSuffix(".osm") || name.hasSuffix(".osm.gz") || name.hasSuffix(".pbf") { return "osm" }
        if name.hasSuffix(".roadbook-graph") { return "graph" }
        if name.hasSuffix(".hgt") || name.hasSuffix(".zip") || name.hasSuffix(".tif") || name.hasSuffix(".tiff") { return "dem" }
        if name.hasSuffix(".json") {
            let head = (try? FileHandle(forReadingFrom: file).read(upToCount: 4096)).flatMap { $0 } ?? Data()
            let text = String(decoding: head, as: UTF8.self)
            if text.contains("\"sheetColumns\"") || text.contains("\"margins\"") { return "template" }
            return "book"
        }
        return nil
    }

    /// Makes a large.tsv input at `url`. Generators: `sparse:BYTES` (a file of holes),
    /// `gpx-points:N` (a track of N points 10 m apart), `gpx-stop:N` (N fixes wandering about one
    /// spot, then 2 km on), `handles-geojson:N` (N handles along a
    /// zigzag in Andorra la Vella), `rn2-waypoints:N` (an RN2 route of N waypoints, every 500th a
    /// row), `kml-description:BYTES` (a KML line and a placemark whose description is BYTES long),
    /// `gpx-comment:BYTES` (a comment of BYTES before a short track), `kml-scattered:N` (N lines of
    /// 20 points each, scattered over the globe), `rn2-shown:N` (an RN2 route of N waypoints, all shown),
    /// `journal-name:N` (a book's journal of one step named with N bytes).
    static func generate(_ generator: String, at url: URL) throws {
        let parts = generator.split(separator: ":", maxSplits: 1).map(String.init)
        let count = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        switch parts[0] {
        case "sparse":
            FileManager.default.createFile(atPath: url.path, contents: nil)
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: UInt64(count))
            try handle.close()
        case "gpx-points":
            var text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"hostile\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
            for k in 0..<count {
                text += "<trkpt lat=\"\(String(format: "%.6f", 42.45 + Double(k % 2000) * 0.00009))\" lon=\"\(String(format: "%.6f", 1.40 + Double(k / 2000) * 0.0002))\"/>\n"
            }
            text += "</trkseg></trk></gpx>\n"
            try Data(text.utf8).write(to: url)
        case "gpx-stop":
            // A receiver left running for days: N fixes wandering a metre or two about one spot, then 2 km on.
            var noise = SeededGenerator(seed: 12)
            var text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"hostile\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
            for _ in 0..<count {
                text += "<trkpt lat=\"\(String(format: "%.7f", 42.5 + noise.gaussian(1.5) / 111_132))\" lon=\"\(String(format: "%.7f", 1.5 + noise.gaussian(1.5) / 81_900))\"/>\n"
            }
            for k in 1...200 { text += "<trkpt lat=\"\(String(format: "%.7f", 42.5 + Double(k) * 10 / 111_132))\" lon=\"1.5\"/>\n" }
            text += "</trkseg></trk></gpx>\n"
            try Data(text.utf8).write(to: url)
        case "handles-geojson":
            var features: [String] = []
            for k in 0..<count {
                let lat = 42.5063 + Double(k % 20) * 0.0001, lon = 1.5218 + Double(k / 20) * 0.00001
                features.append("{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(String(format: "%.6f", lon)),\(String(format: "%.6f", lat))]}}")
            }
            try Data("{\"type\":\"FeatureCollection\",\"features\":[\(features.joined(separator: ","))]}".utf8).write(to: url)
        case "rn2-waypoints":
            let waypoints = (0..<count).map { k in
                let lat = String(format: "%.5f", 42.0 + Double(k) * 1e-5), lon = String(format: "%.6f", 1.5 + Double(k % 7) * 1e-6)
                return #"{"waypointid":\#(k),"lat":\#(lat),"lon":\#(lon),"ele":0,"show":\#(k % 500 == 0 || k == count - 1),"#
                    + #""tulip":{"elements":[{"type":"Track","roadIn":{"handles":[]},"roadOut":{"handles":[]}}]},"notes":{"elements":[]}}"#
            }
            let route = #"{"route":{"version":4,"name":"Hostile","description":"","startlocation":"","endlocation":"","#
                + #""settings":{"units":"metric"},"waypoints":["# + waypoints.joined(separator: ",") + "]}}"
            try Data(route.utf8).write(to: url)
        case "gpx-comment":
            // A comment of `count` bytes before a short good track.
            var data = Data("<?xml version=\"1.0\"?>\n<!--".utf8)
            data.append(Data(repeating: UInt8(ascii: "x"), count: count))
            data.append(Data("-->\n<gpx version=\"1.1\" creator=\"hostile\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n".utf8))
            for k in 0..<30 { data.append(Data("<trkpt lat=\"\(42.50 + Double(k) * 0.0004)\" lon=\"\(1.50 + Double(k) * 0.0007)\"/>\n".utf8)) }
            data.append(Data("</trkseg></trk></gpx>\n".utf8))
            try data.write(to: url)
        case "kml-scattered":
            // `count` lines of 20 points each, scattered over the globe.
            var random = SeededGenerator(seed: 20)
            var text = #"<?xml version="1.0"?>"# + "\n" + #"<kml xmlns="http://www.opengis.net/kml/2.2"><Document>"# + "\n"
            for k in 0..<count {
                let lat = -80 + 160 * random.uniform(), lon = -179 + 358 * random.uniform()
                let points = (0..<20).map { String(format: "%.4f,%.4f", lon + Double($0) * 0.001, lat + Double($0) * 0.001) }
                text += "<Placemark><name>L\(k)</name><LineString><coordinates>\(points.joined(separator: " "))</coordinates></LineString></Placemark>\n"
            }
            text += "</Document></kml>\n"
            try Data(text.utf8).write(to: url)
        case "rn2-shown":
            // `count` waypoints, every one shown: `count` rows.
            let waypoints = (0..<count).map { k in
                String(format: #"{"waypointid":%d,"lat":%.5f,"lon":%.6f,"show":true}"#, k, 42.0 + Double(k) * 1e-5, 1.5 + Double(k % 7) * 1e-6)
            }
            try Data((#"{"route":{"version":4,"name":"Hostile","waypoints":["# + waypoints.joined(separator: ",") + "]}}").utf8).write(to: url)
        case "journal-name":
            // One step that changed no file, its name `count` bytes long: refused as the journal is read.
            let step = #"{"kind":"note","name":""# + String(repeating: "x", count: count) + #"","time":"2026-01-01T00:00:00Z"}"#
            try Data((#"{"dropped":0,"format":"roadbook-journal","redo":[],"undo":["# + step + #"],"version":1}"# + "\n").utf8).write(to: url)
        case "kml-description":
            let line = (0..<30).map { (k: Int) -> String in
                let t = Double(k) / 29
                return String(format: "%.6f,%.6f", 1.50 + 0.02 * t, 42.50 + 0.01 * t)
            }.joined(separator: " ")
            let head = #"<?xml version="1.0" encoding="UTF-8"?>\#n<kml xmlns="http://www.opengis.net/kml/2.2"><Document>"#
            let route = "<Placemark><name>Route</name><LineString><coordinates>" + line + "</coordinates></LineString></Placemark>\n"
            let note: String = "<Placemark><name>CP1</name><description>" + String(repeating: "x", count: count)
                + "</description><Point><coordinates>1.51,42.505</coordinates></Point></Placemark>\n"
            let text: String = head + route + note + "</Document></kml>\n"
            try Data(text.utf8).write(to: url)
        default:
            throw ToolError(message: "large.tsv: unknown generator \(generator)")
        }
    }

    /// A body for engine and elevation cases made at run time: `body:BYTES` is a JSON array of
    /// coordinate pairs of about that size, never closed.
    static func body(_ generator: String) -> Data? {
        let parts = generator.split(separator: ":").map(String.init)
        guard parts.first == "body", parts.count == 2, let size = Int(parts[1]) else { return nil }
        var data = Data("{\"code\":\"Ok\",\"routes\":[{\"geometry\":{\"coordinates\":[".utf8)
        let pair = Data("[1.521820,42.506317],".utf8)
        data.reserveCapacity(size + pair.count)
        while data.count < size { data.append(pair) }
        return data
    }
}
