import Foundation
import Formats
import Model
import Testing
import TestSupport

/// `roadbook export --format openrally` and `roadbook build` of an OpenRally GPX file, on the sample
/// book (built from `samples/andorra-envalira.gpx` as a rider would): the export is valid against the
/// published schemas, and building it back then exporting again changes nothing.
@Suite("OpenRally export and build")
struct OpenRallyCommandTests {
    static let schema = packageRoot().appendingPathComponent("samples/data/openrally/cross-country/test_wrapper.xsd")

    @Test("the sample book exports to schema-valid OpenRally GPX, builds back into the same rows, and exports to the same bytes")
    func sampleRoundTrip() async throws {
        let folder = try TemporaryFolder()
        let sample = packageRoot().appendingPathComponent("samples/andorra-envalira.gpx")
        let book = folder.path("sample.json"), gpx = folder.path("sample.gpx")
        let built = await roadbook(["build", sample.path, "-o", folder.path("sample.pdf").path, "--book", book.path])
        #expect(built.status == 0, "\(built.errors)")

        let exported = await roadbook(["export", book.path, "-o", gpx.path, "--format", "openrally"])
        #expect(exported.status == 0, "\(exported.errors)")
        // The sample book holds nothing the format cannot carry (its generated turns go with their tulips).
        #expect(!exported.errors.contains("warning"), "\(exported.errors)")
        _ = try runTool("xmllint", ["--noout", "--schema", Self.schema.path, gpx.path])

        let again = folder.path("again.json"), gpxAgain = folder.path("again.gpx")
        let rebuilt = await roadbook(["build", gpx.path, "-o", folder.path("again.pdf").path, "--book", again.path])
        #expect(rebuilt.status == 0, "\(rebuilt.errors)")
        let original = try BookFile.read(contentsOf: book), read = try BookFile.read(contentsOf: again)
        #expect(read.title == original.title)
        #expect(read.notes.count == original.notes.count)
        for (a, b) in zip(read.notes, original.notes) {
            #expect(abs(a.distanceAlong - b.distanceAlong) < 0.01)
            #expect(a.text == b.text && a.marker == b.marker && a.waypointType == b.waypointType && a.kind == b.kind)
            #expect(a.danger == b.danger && a.resetsOdometer == b.resetsOdometer && a.speedLimit == b.speedLimit)
            #expect(a.cap.map { Int($0) } == b.cap.map { Int($0.rounded()) % 360 })
            #expect(a.tulip == b.tulip && a.generated == b.generated)
        }
        let exportedAgain = await roadbook(["export", again.path, "-o", gpxAgain.path, "--format", "openrally"])
        #expect(exportedAgain.status == 0, "\(exportedAgain.errors)")
        #expect(try Data(contentsOf: gpx) == Data(contentsOf: gpxAgain))
    }

    @Test("with --osm, an OpenRally book's turn rows stay and only turns where it has none are added")
    func turnsWithMap() async throws {
        let folder = try TemporaryFolder()
        let sample = packageRoot().appendingPathComponent("samples/andorra-envalira.gpx")
        let osm = packageRoot().appendingPathComponent("samples/data/andorra/andorra.osm.pbf")
        let book = folder.path("s.json"), gpx = folder.path("s.gpx"), again = folder.path("again.json")
        #expect(await roadbook(["build", sample.path, "-o", folder.path("s.pdf").path, "--book", book.path, "--osm", osm.path]).status == 0)
        #expect(await roadbook(["export", book.path, "-o", gpx.path, "--format", "openrally"]).status == 0)
        let r = await roadbook(["build", gpx.path, "-o", folder.path("again.pdf").path, "--book", again.path, "--osm", osm.path])
        #expect(r.status == 0, "\(r.errors)")
        // The same map finds the same turns: every one is already a row, so nothing is added.
        let original = try BookFile.read(contentsOf: book), read = try BookFile.read(contentsOf: again)
        #expect(read.notes.count == original.notes.count)
        #expect(read.notes.map(\.text) == original.notes.map(\.text))
    }

    @Test("a .gpx with --format openrally is OpenRally; a bad OpenRally file is refused naming file, line and field")
    func refusal() async throws {
        let folder = try TemporaryFolder()
        let bad = folder.path("bad.gpx")
        try """
        <?xml version="1.0"?>
        <gpx xmlns="http://www.topografix.com/GPX/1/1" version="1.1" xmlns:openrally="\(OpenRally.namespace)">
        <wpt lat="42.5" lon="1.5"><extensions><openrally:distance>twelve</openrally:distance></extensions></wpt>
        <trk><trkseg><trkpt lat="42.5" lon="1.5"/><trkpt lat="42.6" lon="1.5"/></trkseg></trk>
        </gpx>
        """.write(to: bad, atomically: true, encoding: .utf8)
        let r = await roadbook(["build", bad.path, "-o", folder.path("bad.pdf").path])
        #expect(r.status != 0)
        #expect(r.errors.contains("bad.gpx:3") && r.errors.contains("openrally:distance"), "\(r.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("bad.pdf").path))
    }
}
