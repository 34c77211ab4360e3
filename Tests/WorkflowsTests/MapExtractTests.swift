import Foundation
import Geo
import OSM
import Testing
import TestSupport
@testable import Workflows

@Suite("Map extract and its prepared graph")
struct MapExtractTests {
    let extract: URL
    init() throws { extract = try testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf") }

    private func copy(in folder: TemporaryFolder) throws -> MapExtract {
        let url = folder.path("andorra.osm.pbf")
        try FileManager.default.copyItem(at: extract, to: url)
        return MapExtract(url)
    }

    private func isFresh(_ map: MapExtract) throws -> Bool {
        if case .fresh = try map.preparedState() { return true }
        return false
    }

    @Test("without a prepared graph the extract is read; prepare writes one beside it and later reads use it")
    func prepareThenUse() throws {
        let folder = try TemporaryFolder()
        let map = try copy(in: folder)
        guard case .none = try map.preparedState() else { Issue.record("a prepared graph before prepare"); return }
        let direct = try map.graph()
        try map.prepare()
        #expect(map.preparedURL.lastPathComponent == "andorra.osm.pbf.roadbook-graph")
        #expect(try isFresh(map))
        let log = MessageList()
        let prepared = try map.graph(log: log)
        #expect(prepared.osmIDs == direct.osmIDs && prepared.ways == direct.ways)
        #expect(log.messages.isEmpty)
        // Nothing but the two files and no temporary left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
                == ["andorra.osm.pbf", "andorra.osm.pbf.roadbook-graph"])
    }

    @Test("when the extract changes, or the file is damaged, the prepared graph is made again and the log says why")
    func remadeWhenStale() throws {
        let folder = try TemporaryFolder()
        let map = try copy(in: folder)
        try map.prepare()
        // The extract is replaced (same bytes, a new time: as a download does).
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 3600)], ofItemAtPath: map.url.path)
        guard case .stale(let reason) = try map.preparedState() else { Issue.record("not stale"); return }
        #expect(reason.contains("extract changed"))
        let log = MessageList()
        let line = [Coordinate(latitude: 42.5432, longitude: 1.5970), Coordinate(latitude: 42.5340, longitude: 1.5810)]
        let graph = try map.graph(in: RouteCorridor(route: line), log: log)
        #expect(graph.count > 100)
        #expect(log.messages.map(\.text) == ["\(map.preparedURL.relativePath): the extract changed since it was prepared; preparing it again"])
        #expect(try isFresh(map))
        // A damaged file: truncated by a full disk.
        let bytes = try Data(contentsOf: map.preparedURL)
        try bytes.prefix(1000).write(to: map.preparedURL)
        let again = MessageList()
        #expect(try map.graph(in: RouteCorridor(route: line), log: again).osmIDs == graph.osmIDs)
        #expect(again.messages.first?.text.contains("truncated") == true)
        #expect(try isFresh(map))
    }

    @Test("a prepared graph that cannot be written again is left, and the extract read instead, with a warning")
    func cannotWrite() throws {
        let folder = try TemporaryFolder()
        let map = try copy(in: folder)
        // A folder where the prepared graph would be: unreadable as a graph, and no file can replace it.
        try FileManager.default.createDirectory(at: map.preparedURL, withIntermediateDirectories: false)
        try FileManager.default.createDirectory(at: map.preparedURL.appendingPathComponent("keep"), withIntermediateDirectories: false)
        let log = MessageList()
        #expect(try map.graph(log: log).count > 10_000)
        #expect(log.warnings.count == 1)
        #expect(log.warnings.first?.text.contains("reading the extract itself") == true)
        #expect(FileManager.default.fileExists(atPath: map.preparedURL.appendingPathComponent("keep").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
                == ["andorra.osm.pbf", "andorra.osm.pbf.roadbook-graph"])
    }
}
