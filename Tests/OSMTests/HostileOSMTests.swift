import Foundation
@testable import OSM
import Testing
import TestSupport

@Suite("Hostile OSM files")
struct HostileOSMTests {
    @Test("each hostile OSM XML, gzip or PBF file is refused with one clear line naming the file", arguments: HostileCorpus.cases())
    func refused(_ hostile: HostileCase) {
        HostileCorpus.check(hostile) { _ = try OSMData.read(contentsOf: $0) }
    }

    @Test("every hostile file has its line in expected.tsv")
    func listed() { #expect(HostileCorpus.unlisted() == []) }

    @Test("node marks in hostile files: the controls read a bollard on node 2; a value past the table, cut tags or a 100 kB value leave none; a repeated key is kept once")
    func marks() throws {
        let folder = packageRoot().appendingPathComponent("Tests/Hostile/osm")
        func marks(_ name: String) throws -> [Int64: [String: String]] {
            try OSMData.read(contentsOf: folder.appendingPathComponent(name)).nodeMarks.mapValues(\.tags)
        }
        #expect(try marks("node-bollard.osm") == [2: ["barrier": "bollard"]])
        #expect(try marks("pbf-node-bollard.osm.pbf") == [2: ["barrier": "bollard"]])
        #expect(try marks("pbf-node-mark-past-table.osm.pbf").isEmpty)
        #expect(try marks("pbf-node-marks-short.osm.pbf").isEmpty)
        #expect(try marks("node-barrier-value-100kb.osm").isEmpty)
        #expect(try marks("node-access-repeated.osm") == [2: ["access": "no"]])
    }
}
