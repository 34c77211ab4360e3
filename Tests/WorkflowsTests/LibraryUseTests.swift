import Foundation
import Formats
import Geo
import Model
import Testing
import TestSupport
import Workflows

/// A program that embeds roadbook builds a book through the library alone, without the command line.
@Suite("The library, used by a program")
struct LibraryUseTests {
    static let sample = packageRoot().appendingPathComponent("samples/andorra-envalira.gpx")

    @Test("a book from the sample track, with turns from the Andorra extract and terrain from its tile: rows, book file, PDF")
    func buildThroughTheLibrary() async throws {
        let data = try testDataFolder()
        let folder = try TemporaryFolder()
        let pdf = folder.path("sample.pdf"), bookFile = folder.path("sample.json")
        let request = BuildRequest(track: Self.sample, pdf: pdf, bookFile: bookFile, title: "Envalira",
                                   osm: data.appendingPathComponent("andorra/andorra.osm.pbf"),
                                   terrain: TerrainRequest(dems: [data.appendingPathComponent("andorra/N42E001.hgt.zip")]))
        let log = MessageList()
        let result = try await buildBook(request, log: log)

        let waypoints = try GPXReader.read(contentsOf: Self.sample).waypoints.count
        #expect(waypoints == 14)
        let generated = result.book.notes.filter { $0.generated != nil }
        #expect(!generated.isEmpty, "turn notes come from the extract's junctions")
        #expect(result.rows == result.book.notes.filter { $0.placement == .onRoute }.count)
        #expect(result.rows >= waypoints)
        #expect(result.book.title == "Envalira")
        #expect(result.book.profile?.isComplete == true, "the tile covers the route")
        // The sample's waypoints whose words disagree with the junction's generated turn: warned, never silently.
        #expect(log.warnings.map(\.text).map { String($0.prefix(while: { $0 != "'" })) }
                == ["row R8 at 21.08 km says "], "\(log.messages)")
        // R8's ring has a `highway=road` arm before CG-2: a car may take it, so it is counted (README,
        // "Roundabout exits"); the waypoint's words do not count it.
        #expect(log.warnings.first?.text.contains("but the route takes exit 2 here") == true, "\(log.messages)")
        #expect(log.messages.contains { $0.text.hasPrefix("terrain: climb") }, "\(log.messages)")
        // One place, one row (docs/turn-notes.md): no two printed rows closer than 20 m, where two rows could
        // contradict each other.
        let printed = result.book.notes.filter { $0.placement == .onRoute }.sorted { $0.distanceAlong < $1.distanceAlong }
        for (a, b) in zip(printed, printed.dropFirst()) {
            #expect(b.distanceAlong - a.distanceAlong >= 20, "'\(a.text)' at \(a.distanceAlong) m and '\(b.text)' at \(b.distanceAlong) m")
        }

        #expect(try BookFile.read(contentsOf: bookFile).notes.count == result.book.notes.count)
        let pages = try #require(result.pages)
        let info = try runTool("pdfinfo", [pdf.path])
        #expect(info.contains("Pages:") && info.split(separator: "\n").contains { $0.hasSuffix(" \(pages)") && $0.hasPrefix("Pages:") },
                "\(info)")
        let text = try runTool("pdftotext", [pdf.path, "-"])
        for marker in ["CP1", "Envalira"] { #expect(text.contains(marker), "\(marker)") }
    }

    @Test("a track scattered anew at every fix, built without a map: one warning says what its shape cannot show and names --osm, when built and when regenerated; the clean sample gives none")
    func scatteredTrackWithoutMap() async throws {
        let folder = try TemporaryFolder()
        // East 1 km, then south 1 km: a fix every 10 m, each moved by 3 m of noise east and north.
        let points = MetreGrid().recorded([(0, 0), (1000, 0), (1000, -1000)], seed: 20_261_201)
        let gpx = folder.path("scattered.gpx")
        try gpxTrack(points).write(to: gpx, atomically: true, encoding: .utf8)
        let messages = MessageList(), bookFile = folder.path("scattered.json")
        let result = try await buildBook(BuildRequest(track: gpx, bookFile: bookFile), log: messages)
        #expect(result.book.notes.contains { $0.generated != nil }, "the right angle is still found from the shape")
        let warned = messages.warnings.map(\.text).filter { $0.contains("turns come from the track's shape") }
        #expect(warned.count == 1, "\(messages.messages)")
        #expect(warned.first?.hasPrefix("scattered.gpx: ") == true && warned.first?.contains("--osm") == true, "\(warned)")
        // Regenerating onto such a track without a map says the same.
        var regeneration = try Regeneration(RegenerateRequest(book: bookFile, route: gpx, output: folder.path("again.json")))
        let again = MessageList()
        try await regeneration.finish(log: again)
        #expect(again.warnings.map(\.text).filter { $0.contains("turns come from the track's shape") } == warned, "\(again.messages)")

        let clean = MessageList()
        _ = try await buildBook(BuildRequest(track: Self.sample), log: clean)
        #expect(!clean.warnings.contains { $0.text.contains("turns come from the track's shape") }, "\(clean.messages)")
    }

    @Test("a receiver left running at two stops: the route is as long as the ride, a waypoint after them keeps its distance, and build says where it stood")
    func standingStill() async throws {
        let folder = try TemporaryFolder()
        let grid = MetreGrid()
        let moving = grid.recorded([(0, 0), (1500, 0), (1500, -1500)], jitter: 1, seed: 4)
        var noise = SeededGenerator(seed: 4)
        var stopped: [Coordinate] = []
        for (i, c) in moving.enumerated() {
            stopped.append(c)
            guard i == 40 || i == 120 else { continue }
            let p = grid.frame.project(c)
            for _ in 0..<90 { stopped.append(grid.frame.unproject(x: p.x + noise.gaussian(1), y: p.y + noise.gaussian(1))) }
        }
        let waypoint = grid(1500, -1000)
        func file(_ points: [Coordinate], _ name: String) throws -> URL {
            let text = gpxTrack(points).replacingOccurrences(of: "<trk>", with: String(
                format: "<wpt lat=\"%.7f\" lon=\"%.7f\"><name>CP1</name><desc>Checkpoint</desc></wpt><trk>", waypoint.latitude, waypoint.longitude))
            let url = folder.path(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url
        }
        let ride = try await buildBook(BuildRequest(track: try file(moving, "ride.gpx"), turns: false), log: MessageList())
        let messages = MessageList()
        let waited = try await buildBook(BuildRequest(track: try file(stopped, "waited.gpx"), turns: false), log: messages)
        #expect(Polyline(stopped).length - Polyline(moving).length > 200, "the stops add track")
        #expect(abs(waited.routeLength - ride.routeLength) < 16, "\(waited.routeLength) m against \(ride.routeLength) m")
        let a = try #require(ride.book.notes.first { $0.marker == "CP1" }), b = try #require(waited.book.notes.first { $0.marker == "CP1" })
        #expect(abs(a.distanceAlong - b.distanceAlong) < 16, "CP1 at \(b.distanceAlong) m against \(a.distanceAlong) m")
        let notice = messages.warnings.map(\.text).filter { $0.hasPrefix("waited.gpx: the track stands still at 2 places") }
        #expect(notice.count == 1 && notice.first?.contains("shorter than the track") == true, "\(messages.messages)")
    }

    @Test("without outputs and without turns: the book in memory, one row per waypoint, nothing written")
    func bookInMemory() async throws {
        let folder = try TemporaryFolder()
        let result = try await buildBook(BuildRequest(track: Self.sample, turns: false), log: MessageList())
        #expect(result.pages == nil)
        #expect(result.rows == 14)
        #expect(result.book.notes.allSatisfy { $0.generated == nil })
        #expect(result.routeLength > 30_000 && result.routeLength < 50_000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test("regenerating onto another route without terrain sources drops the old route's heights, with a warning, and writes where asked")
    func regenerateDropsTerrain() async throws {
        let data = try testDataFolder()
        let folder = try TemporaryFolder()
        let bookFile = folder.path("b.json"), output = folder.path("new.json")
        _ = try await buildBook(BuildRequest(track: Self.sample, bookFile: bookFile, turns: false,
                                             terrain: TerrainRequest(dems: [data.appendingPathComponent("andorra/N42E001.hgt.zip")])),
                                log: MessageList())
        let built = try BookFile.read(contentsOf: bookFile)
        #expect(built.profile != nil)
        // The route cut short by its last third: another line, whose heights the book does not have.
        let kept = built.route.coordinates.prefix(built.route.coordinates.count * 2 / 3)
        let shorter = folder.path("shorter.geojson")
        let line = kept.map { "[\($0.longitude),\($0.latitude)]" }.joined(separator: ",")
        try Data(#"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[\#(line)]}}"#.utf8)
            .write(to: shorter)
        var regeneration = try Regeneration(RegenerateRequest(book: bookFile, route: shorter, output: output))
        let log = MessageList()
        let book = try await regeneration.finish(log: log)
        #expect(book.profile == nil && book.notes.allSatisfy { $0.elevation == nil })
        #expect(log.warnings.map(\.text).contains { $0.hasPrefix("the terrain belonged to the old route") }, "\(log.messages)")
        #expect(try BookFile.read(contentsOf: output).profile == nil)
        #expect(try BookFile.read(contentsOf: bookFile).profile != nil, "the original is left as it was")
    }

    @Test("an output in a folder that does not exist fails before anything is read")
    func unwritable() async throws {
        let folder = try TemporaryFolder()
        let request = BuildRequest(track: folder.path("missing.gpx"), pdf: folder.path("no/such/b.pdf"))
        await #expect(throws: WorkflowError("\(folder.path("no/such/b.pdf").path): cannot write: the folder \(folder.path("no/such").path) does not exist")) {
            _ = try await buildBook(request, log: MessageList())
        }
    }

    @Test("a track that would make a book no later run could read (longer than a route may be) is refused, nothing written")
    func invalidBookIsNotWritten() async throws {
        let folder = try TemporaryFolder()
        // Pole to pole and back, four times: about 142,000 km, over the 100,000 km a route may be.
        let points = (0..<9).map { i in "<trkpt lat=\"\(i % 2 == 0 ? -80 : 80)\" lon=\"\(i * 10)\"/>" }.joined()
        let track = folder.path("world.gpx")
        try Data("<gpx version=\"1.1\" creator=\"t\"><trk><trkseg>\(points)</trkseg></trk></gpx>".utf8).write(to: track)
        let bookFile = folder.path("world.json"), pdf = folder.path("world.pdf")
        // Refused as the track is read, before any work on it.
        let error = await #expect(throws: FormatError.self) {
            _ = try await buildBook(BuildRequest(track: track, pdf: pdf, bookFile: bookFile, turns: false), log: MessageList())
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("world.gpx: the track is 142231 km long, more than the 100000 km a book holds"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["world.gpx"])
    }
}
