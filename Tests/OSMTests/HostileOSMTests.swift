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
}
