import Foundation
@testable import Formats
import Testing
import TestSupport

@Suite("Hostile GPX files")
struct HostileGPXTests {
    @Test("each hostile GPX file is refused with one clear line naming the file", arguments: HostileCorpus.cases(in: "Tests/FormatsTests/Hostile/gpx"))
    func refused(_ hostile: HostileCase) {
        HostileCorpus.check(hostile) { url in
            _ = try GPXReader.read(contentsOf: url).routePoints(minimumPoints: 2)
        }
    }

    @Test("every hostile file has its line in expected.tsv")
    func listed() { #expect(HostileCorpus.unlisted(in: "Tests/FormatsTests/Hostile/gpx") == []) }

    @Test("a track of one point beside a good <rte> uses the route, with a warning naming the file and line")
    func onePointTrackWithRoute() throws {
        let text = """
        <?xml version="1.0"?>
        <gpx version="1.1" creator="t">
        <trk><trkseg><trkpt lat="42.5" lon="1.5"/></trkseg></trk>
        <rte><rtept lat="42.5" lon="1.5"/><rtept lat="42.6" lon="1.5"/><rtept lat="42.6" lon="1.6"/></rte>
        </gpx>
        """
        let document = try GPXReader.read(data: Data(text.utf8), fileName: "both.gpx")
        let (points, warning) = try document.routePoints()
        #expect(points.count == 3)
        #expect(warning?.hasPrefix("both.gpx:3: the track has only one point") == true, "\(warning ?? "no warning")")
        // A good track is used as before, with no warning.
        let good = try GPXReader.read(data: Data(text.replacingOccurrences(of: "<trkpt lat=\"42.5\" lon=\"1.5\"/>",
            with: "<trkpt lat=\"42.5\" lon=\"1.5\"/><trkpt lat=\"42.7\" lon=\"1.5\"/>").utf8), fileName: "good.gpx")
        let chosen = try good.routePoints()
        #expect(chosen.points.count == 2 && chosen.warning == nil)
    }
}
