import Foundation
import OSM
import Testing
import TestSupport

@Suite("roadbook prepare")
struct PrepareCommandTests {
    @Test("prepare writes the road graph beside the extract, and a route through it is the route through the extract")
    func prepareAndRoute() async throws {
        let folder = try TemporaryFolder()
        let extract = folder.path("andorra.osm.pbf")
        try FileManager.default.copyItem(at: try testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf"), to: extract)
        try "42.5432 1.5970\n42.5340 1.5810\n42.5087 1.5383\n".write(to: folder.path("h.txt"), atomically: true, encoding: .utf8)
        let route = ["route", folder.path("h.txt").path, "--engine", "embedded", "--osm", extract.path]

        let direct = await roadbook(route + ["--book", folder.path("direct.json").path])
        #expect(direct.status == 0, "\(direct.errors)")

        let prepared = await roadbook(["prepare", extract.path])
        #expect(prepared.status == 0, "\(prepared.errors)")
        let graph = try OSMGraph.load(contentsOf: extract)
        #expect(prepared.output.contains("andorra.osm.pbf.roadbook-graph: \(graph.count) road nodes, \(graph.edgeCount / 2) road segments, \(graph.ways.count) ways, \(graph.places.count) places"))
        #expect(FileManager.default.fileExists(atPath: folder.path("andorra.osm.pbf.roadbook-graph").path))

        let fast = await roadbook(route + ["--book", folder.path("fast.json").path])
        #expect(fast.status == 0, "\(fast.errors)")
        #expect(!fast.errors.contains("preparing"))
        #expect(try Data(contentsOf: folder.path("fast.json")) == Data(contentsOf: folder.path("direct.json")))

        // A new extract: the next run prepares it again and says so, once.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: extract.path)
        let again = await roadbook(route + ["--book", folder.path("again.json").path])
        #expect(again.status == 0, "\(again.errors)")
        #expect((again.output + again.errors).components(separatedBy: "the extract changed since it was prepared; preparing it again").count == 2)
        #expect(try Data(contentsOf: folder.path("again.json")) == Data(contentsOf: folder.path("direct.json")))

        // regenerate reads the map's turns as build does, and says so too.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 120)], ofItemAtPath: extract.path)
        let sample = packageRoot().appendingPathComponent("samples/andorra-envalira.gpx")
        let regenerated = await roadbook(["regenerate", folder.path("direct.json").path, "--route", sample.path, "--osm", extract.path,
                                          "-o", folder.path("regenerated.json").path])
        #expect(regenerated.status == 0, "\(regenerated.errors)")
        #expect((regenerated.output + regenerated.errors)
            .components(separatedBy: "the extract changed since it was prepared; preparing it again").count == 2)
    }

    @Test("prepare of a missing or broken extract fails in one line naming it, and writes nothing")
    func brokenExtract() async throws {
        let folder = try TemporaryFolder()
        let missing = await roadbook(["prepare", folder.path("none.osm.pbf").path])
        #expect(missing.status != 0 && missing.errors.contains("none.osm.pbf"))
        try Data("<osm><node id=\"1\" lat=\"95\" lon=\"1\"/></osm>".utf8).write(to: folder.path("bad.osm"))
        let bad = await roadbook(["prepare", folder.path("bad.osm").path])
        #expect(bad.status != 0 && bad.errors.contains("bad.osm"))
        #expect(bad.errors.split(separator: "\n").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["bad.osm"])
    }
}
