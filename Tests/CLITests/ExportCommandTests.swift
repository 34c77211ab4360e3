import Foundation
import Formats
import Geo
import Model
import Testing
import TestSupport

/// `roadbook export` to the route-data formats, end to end: the sample book and a book routed
/// through handles, read back by GDAL; failures leave neither the output nor a temporary.
@Suite("roadbook export: the route as data")
struct ExportCommandTests {
    static let formats = ["gpx", "kml", "geojson", "gpkg"]

    /// The sample track built into a book file, in `folder`.
    func sampleBook(in folder: TemporaryFolder) async throws -> URL {
        let sample = packageRoot().appendingPathComponent("samples/andorra-envalira.gpx")
        let book = folder.path("sample.json")
        let r = await roadbook(["build", sample.path, "-o", folder.path("sample.pdf").path, "--book", book.path])
        try #require(r.status == 0, "\(r.errors)")
        return book
    }

    /// The route-book seed (three handles routed by the embedded router), changed by `edit` (its JSON).
    func routeBook(in folder: TemporaryFolder, _ edit: (inout [String: Any]) -> Void = { _ in }) throws -> URL {
        let seed = packageRoot().appendingPathComponent("Tests/Hostile/seeds/route-book.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: seed)) as? [String: Any])
        edit(&json)
        let book = folder.path("route-book.json")
        try JSONSerialization.data(withJSONObject: json).write(to: book)
        return book
    }

    /// The files in `folder` whose names are not in `expected`: outputs or temporaries left behind.
    func strays(in folder: TemporaryFolder, besides expected: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { !expected.contains($0) }.sorted()
    }

    @Test("the sample book in each format: exit 0, the format named, every row, the track's length as routeDistance")
    func sample() async throws {
        let folder = try TemporaryFolder()
        let book = try await sampleBook(in: folder)
        // The expected figures come from the GPX file and GeodSolve, not from the book.
        let gpx = packageRoot().appendingPathComponent("samples/andorra-envalira.gpx")
        let document = try GPXReader.read(contentsOf: gpx)
        let track = document.trackPoints.map(\.coordinate)
        let input = zip(track, track.dropFirst()).map { "\($0.latitude) \($0.longitude) \($1.latitude) \($1.longitude)" }
            .joined(separator: "\n") + "\n"
        let metres = try runTool("GeodSolve", ["-i", "-p", "6"], input: input).split(separator: "\n")
            .map { Double($0.split(separator: " ")[2])! }.reduce(0, +)
        let distance = String(format: "%.1f km", metres / 1000)
        let rows = try BookFile.read(contentsOf: book).notes.filter { $0.placement == .onRoute }.count

        for format in Self.formats {
            let output = folder.path("sample.\(format)")
            let r = await roadbook(["export", book.path, "-o", output.path])
            #expect(r.status == 0, "\(format): \(r.errors)")
            #expect(r.output == "\(output.path): \(format)\n")
            #expect(r.errors.isEmpty, "\(format): no note of the sample is off the route: \(r.errors)")
            let layers = try ogrinfo(output)
            let line: OGRFeature?
            let points: Int
            switch format {
            case "gpx":
                line = layers.first { $0.name == "tracks" }?.features.first
                points = layers.first { $0.name == "waypoints" }?.featureCount ?? -1
                let text = try runTool("xmllint", ["--xpath", "string(//*[local-name()='routeDistance'])", output.path])
                #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == distance)
            case "kml":
                line = layers.first { $0.name == "Route" }?.features.first
                points = layers.first { $0.name == "Rows" }?.featureCount ?? -1
            case "geojson":
                line = layers.first?.features.first
                points = (layers.first?.featureCount ?? 0) - 1
            default:
                line = layers.first { $0.name == "route" }?.features.first
                points = layers.first { $0.name == "rows" }?.featureCount ?? -1
            }
            #expect(points == rows, "\(format): every row of the book")
            // The sample's waypoint DSS stands on the track's first point, ASS on its last.
            #expect(line?.values["routeStart"] == "DSS", "\(format)")
            #expect(line?.values["routeEnd"] == "ASS", "\(format)")
            #expect(line?.values["name"] ?? line?.values["Name"] == "DSS → ASS", "\(format)")
            if format != "gpx" { #expect(line?.values["routeDistance"] == distance, "\(format)") }
            #expect(line?.values["routeTransportType"] == "Drive", "\(format)")
            #expect(line?.values["routeSource"] == "andorra-envalira.gpx", "\(format)")
            #expect(line?.values["routeTravelTime"] == nil, "\(format): a recorded track has no engine's travel time")
            #expect(line?.values["routeViaCount"] == nil, "\(format)")
        }
        #expect(try strays(in: folder, besides: Set(["sample.json", "sample.pdf"] + Self.formats.map { "sample.\($0)" })) == [])
    }

    @Test("a route through three handles: one via stop, the engine's travel time and source")
    func handles() async throws {
        let folder = try TemporaryFolder()
        let book = try routeBook(in: folder)
        let output = folder.path("route.gpkg")
        let r = await roadbook(["export", book.path, "-o", output.path])
        #expect(r.status == 0, "\(r.errors)")
        let line = try #require(try ogrinfo(output).first { $0.name == "route" }?.features.first)
        // The seed's two legs took 55.7 s and 54.3 s: 110 s, "2m".
        #expect(line.values["routeTravelTime"] == "2m")
        #expect(line.values["routeViaCount"] == "1")
        #expect(line.values["routeStraightLegs"] == nil)
        #expect(line.values["routeSource"] == "embedded router Directions")
        #expect(line.values["description"] == "Route via embedded router Directions")
        #expect(line.values["routeStart"] == nil, "the handles have no names")
        #expect(line.values["name"]?.hasPrefix("Drive, ") == true)
    }

    @Test("a straight leg is counted, and adds nothing to the travel time")
    func straightLeg() async throws {
        let folder = try TemporaryFolder()
        let book = try routeBook(in: folder) { json in
            var plan = json["plan"] as! [String: Any]
            var legs = plan["legs"] as! [[String: Any]]
            legs[1]["kind"] = "straight"
            legs[1]["state"] = nil
            plan["legs"] = legs
            json["plan"] = plan
        }
        for format in Self.formats {
            let output = folder.path("route.\(format)")
            let r = await roadbook(["export", book.path, "-o", output.path])
            #expect(r.status == 0, "\(format): \(r.errors)")
            let layers = try ogrinfo(output)
            let line = layers.lazy.flatMap(\.features).first { $0.values["routeStraightLegs"] != nil }
            #expect(line?.values["routeStraightLegs"] == "1", "\(format)")
            // Only the first leg's 55.7 s: "1m".
            #expect(line?.values["routeTravelTime"] == "1m", "\(format)")
        }
    }

    @Test("--format chooses the writer whatever the extension")
    func formatOption() async throws {
        let folder = try TemporaryFolder()
        let book = try routeBook(in: folder)
        let output = folder.path("route.data")
        let r = await roadbook(["export", book.path, "-o", output.path, "--format", "geojson"])
        #expect(r.status == 0, "\(r.errors)")
        #expect(try ogrinfo(output).first?.featureCount == 5, "the line and four rows")
    }

    @Test("a failing export writes nothing, leaves no temporary and keeps an earlier output")
    func failures() async throws {
        let folder = try TemporaryFolder()
        let book = try routeBook(in: folder)
        let notJSON = folder.path("broken.json")
        try Data("{ not a book".utf8).write(to: notJSON)
        let kept = folder.path("kept.gpkg")
        try Data("earlier".utf8).write(to: kept)

        var r = await roadbook(["export", book.path, "-o", folder.path("route.txt").path])
        #expect(r.status != 0)
        #expect(r.errors.contains("gpx (.gpx), kml (.kml), geojson (.geojson), gpkg (.gpkg)"), "\(r.errors)")
        r = await roadbook(["export", book.path, "-o", folder.path("route.gpx").path, "--format", "shapefile"])
        #expect(r.status != 0)
        #expect(r.errors.contains("'shapefile' is not a format export writes"), "\(r.errors)")
        for format in Self.formats {
            r = await roadbook(["export", notJSON.path, "-o", folder.path("broken.\(format)").path])
            #expect(r.status != 0, "\(format)")
            #expect(r.errors.contains("broken.json"), "\(format): \(r.errors)")
        }
        r = await roadbook(["export", notJSON.path, "-o", kept.path])
        #expect(r.status != 0)
        #expect(try Data(contentsOf: kept) == Data("earlier".utf8))
        r = await roadbook(["export", book.path, "-o", folder.path("no-such-folder/route.gpkg").path])
        #expect(r.status != 0)
        #expect(try strays(in: folder, besides: ["route-book.json", "broken.json", "kept.gpkg"]) == [])
    }
}
