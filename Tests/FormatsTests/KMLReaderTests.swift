import Foundation
import Geo
import Testing
import TestSupport
@testable import Formats

private func read(_ body: String, fileName: String = "test.kml") throws -> RouteFile {
    try KMLReader.read(data: Data(kml(body).utf8), fileName: fileName)
}

/// A KML 2.2 document around `body` (its first line is line 1; `body` starts on line 3).
private func kml(_ body: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>
    \(body)
    </Document></kml>
    """
}

private func failure(_ body: String, sourceLocation: SourceLocation = #_sourceLocation) -> FormatError? {
    #expect(throws: FormatError.self, sourceLocation: sourceLocation) { try read(body) }
}

@Suite("KML: lines, tracks and points")
struct KMLReaderTests {
    @Test("a LineString's lon,lat,alt tuples are the track's points, altitude as height, with their lines")
    func lineString() throws {
        let file = try read("""
        <name>Stage 1</name>
        <Placemark><name>Route</name><LineString><coordinates>
          1.5,42.5,1200 1.51,42.51,1210
          1.52,42.52
        </coordinates></LineString></Placemark>
        """)
        #expect(file.document.name == "Stage 1")
        #expect(file.document.tracks.count == 1 && file.document.tracks[0].name == "Route")
        let points = file.document.trackPoints
        #expect(points.map(\.coordinate) == [Coordinate(latitude: 42.5, longitude: 1.5), Coordinate(latitude: 42.51, longitude: 1.51),
                                             Coordinate(latitude: 42.52, longitude: 1.52)])
        #expect(points.map(\.elevation) == [1200, 1210, nil])
        #expect(points.map(\.line) == [5, 5, 6])
        #expect(file.warnings.isEmpty)
    }

    @Test("gx:Track's gx:coord are 'lon lat alt'; an empty gx:coord is skipped; when elements are ignored")
    func gxTrack() throws {
        let file = try read("""
        <Placemark><gx:Track><when>2020-01-01T00:00:00Z</when>
        <gx:coord>1.5 42.5 1000</gx:coord>
        <gx:coord/>
        <gx:coord>1.51 42.51 1001.5</gx:coord>
        </gx:Track></Placemark>
        """)
        let points = file.document.trackPoints
        #expect(points.map(\.coordinate) == [Coordinate(latitude: 42.5, longitude: 1.5), Coordinate(latitude: 42.51, longitude: 1.51)])
        #expect(points.map(\.elevation) == [1000, 1001.5])
        #expect(points.map(\.line) == [4, 6])
    }

    @Test("several lines (MultiGeometry, gx:MultiTrack, Placemarks) are segments of one track in document order")
    func documentOrder() throws {
        let file = try read("""
        <Placemark><name>A</name><MultiGeometry>
          <LineString><coordinates>1.5,42.5 1.5001,42.5</coordinates></LineString>
          <MultiGeometry><LineString><coordinates>1.5002,42.5 1.5003,42.5</coordinates></LineString></MultiGeometry>
        </MultiGeometry></Placemark>
        <Placemark><name>B</name><gx:MultiTrack><gx:Track><gx:coord>1.5004 42.5 0</gx:coord></gx:Track></gx:MultiTrack></Placemark>
        """)
        #expect(file.document.tracks[0].segments.map { $0.map(\.coordinate.longitude) } == [[1.5, 1.5001], [1.5002, 1.5003], [1.5004]])
        #expect(file.document.tracks[0].name == "A")
        #expect(file.warnings.isEmpty)
    }

    @Test("lines more than 100 m apart are joined with a warning naming the Placemark and its line")
    func gap() throws {
        let file = try read("""
        <Placemark><name>A</name><LineString><coordinates>1.5,42.5 1.51,42.5</coordinates></LineString></Placemark>
        <Placemark><name>Far</name><LineString><coordinates>1.6,42.5 1.61,42.5</coordinates></LineString></Placemark>
        """, fileName: "gap.kml")
        #expect(file.document.trackPoints.count == 4)
        #expect(file.warnings.count == 1)
        #expect(file.warnings.first?.hasPrefix("gap.kml:4: Placemark \"Far\" starts 7.4 km from the end of the line before it") == true,
                "\(file.warnings)")
    }

    @Test("a Placemark's Point is a waypoint with its name and description (HTML removed) and the Placemark's line")
    func points() throws {
        let file = try read("""
        <Placemark><LineString><coordinates>1.5,42.5 1.51,42.51</coordinates></LineString></Placemark>
        <Placemark>
          <name>Bridge</name>
          <description><![CDATA[<b>Cross</b> the <i>old</i> bridge]]></description>
          <Point><coordinates>1.505,42.505,1100</coordinates></Point>
        </Placemark>
        """)
        #expect(file.document.waypoints == [GPXWaypoint(coordinate: Coordinate(latitude: 42.505, longitude: 1.505), elevation: 1100,
                                                        name: "Bridge", description: "Cross the old bridge", line: 4)])
    }

    @Test("a relative altitudeMode's heights are not kept: they are not above sea level")
    func relativeAltitude() throws {
        let file = try read("""
        <Placemark><LineString><altitudeMode>relativeToGround</altitudeMode>
        <coordinates>1.5,42.5,50 1.51,42.51,50</coordinates></LineString></Placemark>
        """)
        #expect(file.document.trackPoints.map(\.elevation) == [nil, nil])
        let multiTrack = try read("""
        <Placemark><gx:MultiTrack><altitudeMode>relativeToGround</altitudeMode>
        <gx:Track><gx:coord>1.5 42.5 50</gx:coord><gx:coord>1.51 42.51 50</gx:coord></gx:Track></gx:MultiTrack></Placemark>
        """)
        #expect(multiTrack.document.trackPoints.map(\.elevation) == [nil, nil])
    }

    @Test("a space after a tuple's comma is accepted; elements in other namespaces (atom:name) are not the name")
    func lenient() throws {
        let file = try read("""
        <Placemark xmlns:atom="http://www.w3.org/2005/Atom"><atom:author><atom:name>someone</atom:name></atom:author>
        <LineString><coordinates>1.5, 42.5 1.51, 42.51</coordinates></LineString></Placemark>
        """)
        #expect(file.document.trackPoints.count == 2)
        #expect(file.document.tracks[0].name == nil)
    }

    @Test("a line of 100,000 points, its <coordinates> over 3 MB, is read as it streams (longer than any text the XML reader collects)")
    func longLine() throws {
        let count = 100_000
        var tuples = ""
        tuples.reserveCapacity(count * 32)
        for i in 0..<count { tuples += "\(1.5 + Double(i) * 1e-6),\(42.5 + Double(i) * 1e-6),\(1000 + i % 100) " }
        let file = try read("<Placemark><LineString><coordinates>\(tuples)</coordinates></LineString></Placemark>")
        let points = file.document.trackPoints
        #expect(points.count == count)
        #expect(points.last?.coordinate == Coordinate(latitude: 42.5 + Double(count - 1) * 1e-6, longitude: 1.5 + Double(count - 1) * 1e-6))
        #expect(points.last?.elevation == Double(1000 + (count - 1) % 100))
    }

    @Test("bad coordinates are refused naming the line and what is wrong")
    func badCoordinates() {
        #expect(failure("<Placemark><LineString><coordinates>1.5,42.5\n1.5,95</coordinates></LineString></Placemark>")?.description
                == "test.kml:4: <coordinates> \"1.5,95\": latitude 95.0 is out of range (−90…90); the format puts longitude first, are the two swapped?")
        #expect(failure("<Placemark><LineString><coordinates>NaN,42.5</coordinates></LineString></Placemark>")?.message
                == "<coordinates> \"NaN,42.5\": its longitude is not a decimal number")
        #expect(failure("<Placemark><LineString><coordinates>1.5,42.5,high</coordinates></LineString></Placemark>")?.message
                == "<coordinates> \"1.5,42.5,high\": its altitude is not a decimal number")
        #expect(failure("<Placemark><LineString><coordinates>1.5</coordinates></LineString></Placemark>")?.message.hasPrefix(
            "<coordinates> \"1.5\" is not lon,lat[,alt]") == true)
        #expect(failure("<Placemark><gx:Track><gx:coord>1.5,42.5</gx:coord></gx:Track></Placemark>")?.message.hasPrefix(
            "<gx:coord> \"1.5,42.5\" is not \"lon lat [alt]\"") == true)
        #expect(failure("<Placemark><LineString><coordinates>1.5,42.5,20000</coordinates></LineString></Placemark>")?.message
                == "the Placemark: altitude 20000.0 m is not a height on Earth (-1000…10000 m); correct it, or set altitudeMode relativeToGround")
    }

    @Test("a file without a line is refused, saying what it has instead")
    func noLine() {
        #expect(failure("<Placemark><name>A</name><Point><coordinates>1.5,42.5</coordinates></Point></Placemark>")?.description
                == "test.kml: no line in the file (it has 1 point only); a road book needs the route as a <LineString> or <gx:Track>")
        #expect(failure("<Placemark><LineString><coordinates> </coordinates></LineString></Placemark>")?.message
                == "no line in the file (it has 1 Placemark without a line); a road book needs the route as a <LineString> or <gx:Track>")
    }

    @Test("polygons are skipped with one warning; an empty line beside a good one is skipped with a warning")
    func skipped() throws {
        let file = try read("""
        <Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 0,1 1,1 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
        <Placemark><LineString><coordinates/></LineString></Placemark>
        <Placemark><LineString><coordinates>1.5,42.5 1.51,42.51</coordinates></LineString></Placemark>
        """)
        #expect(file.document.trackPoints.count == 2)
        #expect(file.warnings == ["test.kml:4: the Placemark has an empty line (no coordinates); it is skipped",
                                  "test.kml: 1 <LinearRing>, 1 <Polygon> skipped; only lines (LineString, gx:Track) and points are read"])
    }

    @Test("a DOCTYPE is refused, so no entity can expand")
    func doctype() {
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE kml [<!ENTITY a \"aaaa\">]>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\"><name>&a;</name></kml>"
        let error = #expect(throws: FormatError.self) { try KMLReader.read(data: Data(text.utf8), fileName: "bomb.kml") }
        #expect(error?.description == "bomb.kml:2: DOCTYPE is not allowed in KML; remove the <!DOCTYPE …> declaration")
    }

    @Test("RouteFormats chooses KML by its root element, KMZ by the zip signature, whatever the extension")
    func recognised() {
        #expect(KMLFileReader.recognises(head: Data(kml("").utf8)))
        #expect(KMLFileReader.recognises(head: Data("<?xml version=\"1.0\"?><!-- c --><kml:kml xmlns:kml=\"x\">".utf8)))
        #expect(!KMLFileReader.recognises(head: Data("<gpx version=\"1.1\">".utf8)))
        #expect(KMZFileReader.recognises(head: Data([0x50, 0x4B, 0x03, 0x04, 0x14])))
        #expect(!KMZFileReader.recognises(head: Data("<kml>".utf8)))
        #expect(!GPXFileReader.recognises(head: Data(kml("").utf8)))
    }

    @Test("a KMZ's document is doc.kml, else the first .kml at the root, else the first anywhere")
    func kmzEntry() {
        #expect(KMZFileReader.kmlEntry(in: ["files/a.kml", "b.kml", "doc.kml"]) == 2)
        #expect(KMZFileReader.kmlEntry(in: ["files/a.kml", "b.kml", "c.kml"]) == 1)
        #expect(KMZFileReader.kmlEntry(in: ["files/a.kml", "files/icon.png"]) == 0)
        #expect(KMZFileReader.kmlEntry(in: ["icon.png", "kml/"]) == nil)
    }
}

@Suite("KMZ files")
struct KMZReaderTests {
    let folder = packageRoot().appendingPathComponent("Tests/Hostile/kml")

    @Test("a KMZ is read through its doc.kml, which errors and warnings name after the archive")
    func reads() throws {
        let url = folder.appendingPathComponent("valid.kmz")
        #expect(try RouteFormats.reader(for: url) == KMZFileReader.self)
        let file = try RouteFormats.read(contentsOf: url)
        #expect(file.document.trackPoints.count == 30)
        #expect(file.document.waypoints.map(\.name) == ["CP1"])
        #expect(file.document.fileName.hasSuffix("valid.kmz:doc.kml"))
    }

    @Test("a zip bomb is refused from its declared size, before anything is inflated")
    func zipBomb() {
        let error = #expect(throws: FormatError.self) { try RouteFormats.read(contentsOf: folder.appendingPathComponent("kmz-bomb.kmz")) }
        #expect(error?.message == "doc.kml declares 4294967280 bytes uncompressed; a KMZ's KML is at most 256 MB uncompressed (is this a zip bomb?)")
    }

    @Test("a KMZ without a .kml is refused, listing what it holds")
    func noKML() {
        let error = #expect(throws: FormatError.self) { try RouteFormats.read(contentsOf: folder.appendingPathComponent("kmz-no-kml.kmz")) }
        #expect(error?.message == "the KMZ holds no .kml document (it holds: readme.txt, files/icon.png); a KMZ is a zip with doc.kml inside")
    }
}

/// The kinds `kml` and `geojson` of the hostile corpus, read through `RouteFormats` as `build`
/// reads them: a `fail` row is refused with one clear line naming the file, an `ok` row is read.
@Suite("Hostile KML, KMZ and GeoJSON files")
struct HostileRouteFormatTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var url: URL
        var expect: String
        var testDescription: String { "\(url.deletingLastPathComponent().lastPathComponent)/\(url.lastPathComponent)" }
    }

    static var rows: [Row] {
        ["kml", "geojson"].flatMap { kind -> [Row] in
            let folder = packageRoot().appendingPathComponent("Tests/Hostile/\(kind)")
            let table = (try? String(contentsOf: folder.appendingPathComponent("expected.tsv"), encoding: .utf8)) ?? ""
            return table.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
                let columns = $0.split(separator: "\t", omittingEmptySubsequences: false)
                return Row(url: folder.appendingPathComponent(String(columns[0])), expect: String(columns[1]))
            }
        }
    }

    @Test("both corpora are there", arguments: ["kml", "geojson"])
    func present(kind: String) {
        #expect(Self.rows.filter { $0.url.path.contains("/\(kind)/") }.count >= 20)
    }

    @Test("each is refused in one line naming the file, or read", arguments: rows)
    func hostile(_ row: Row) throws {
        do {
            let file = try RouteFormats.read(contentsOf: row.url)
            _ = try file.document.routePoints(minimumPoints: 2)
            #expect(row.expect != "fail", "\(row.url.lastPathComponent) was read")
        } catch let error as FormatError {
            #expect(row.expect != "ok", "\(error)")
            let problems = HostileCorpus.problems(with: error.description, file: row.url, expected: row.url.lastPathComponent)
            #expect(problems.isEmpty, "\(problems): \(error)")
        }
    }
}
