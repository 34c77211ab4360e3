import Foundation
import Geo
import Testing
@testable import Formats
import XML

private func read(_ xml: String, fileName: String = "test.gpx") throws -> GPXDocument {
    try GPXReader.read(data: Data(xml.utf8), fileName: fileName)
}

/// The error reading `xml` throws; records an issue when it does not throw one.
private func failure(_ xml: String, fileName: String = "test.gpx",
                     sourceLocation: SourceLocation = #_sourceLocation) -> FormatError? {
    #expect(throws: FormatError.self, sourceLocation: sourceLocation) { try read(xml, fileName: fileName) }
}

/// A fresh directory under the system temporary directory, removed by the caller.
private func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("roadbook-gpx-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Suite struct GPXReaderDocumentTests {
    @Test func readsGPX10() throws {
        let document = try read(FixturesGPX.gpx10)
        #expect(document.creator == "GPSBabel")
        #expect(document.name == "Pyrenees day 1")
        #expect(document.waypoints == [GPXWaypoint(coordinate: Coordinate(latitude: 42.5078, longitude: 1.5211),
                                                   elevation: 1023, name: "Andorra la Vella", symbol: "Flag", line: 5)])
        #expect(document.routes == [GPXRoute(name: "Planned", points: [
            GPXPoint(coordinate: Coordinate(latitude: 42.5, longitude: 1.5), elevation: 1000, line: 12),
            GPXPoint(coordinate: Coordinate(latitude: 42.6, longitude: 1.6), line: 13),
        ])])
        #expect(document.tracks == [GPXTrack(name: "Recorded", segments: [[
            GPXPoint(coordinate: Coordinate(latitude: 42.50, longitude: 1.50), elevation: 1001.5, line: 18),
            GPXPoint(coordinate: Coordinate(latitude: 42.51, longitude: 1.51), line: 19),
        ]])])
    }

    @Test func readsGPX11AndSkipsExtensionsOfOtherNamespaces() throws {
        let document = try read(FixturesGPX.gpx11WithExtensions)
        #expect(document.creator == "roadbook tests")
        #expect(document.name == "Cross-country stage")
        #expect(document.waypoints.count == 2)
        #expect(document.waypoints.first?.name == "WPS 1")
        #expect(document.waypoints.last == GPXWaypoint(
            coordinate: Coordinate(latitude: -33.5, longitude: -70.25), elevation: 512.25,
            name: "CP1", description: "Neutralized fuel stop",
            comment: "Fuel", symbol: "Gas Station", type: "fuel", line: 22))
        #expect(document.tracks.count == 1)
        #expect(document.tracks.first?.name == "Stage")
        #expect(document.trackPoints.map(\.coordinate) == [Coordinate(latitude: -33.5, longitude: -70.25),
                                                           Coordinate(latitude: -33.6, longitude: -70.30)])
        #expect(document.trackPoints.first?.elevation == 512)
        #expect(document.routes.isEmpty)
    }

    @Test func keepsSegmentsApartAndTrackPointsJoinsThemInOrder() throws {
        let document = try read(FixturesGPX.multipleSegments)
        #expect(document.tracks.map { $0.segments.map(\.count) } == [[2, 0, 1], [1]])
        #expect(document.trackPoints.map(\.coordinate.latitude) == [1, 1.1, 2, 3])
        #expect(document.trackPoints.map(\.line) == [5, 6, 10, 14])
    }

    @Test func trackPointsFallsBackToRoutePointsWithoutTracks() throws {
        let document = try read(FixturesGPX.gpx11("""
            <rte><rtept lat="1" lon="2"/><rtept lat="3" lon="4"/></rte>
            <rte><rtept lat="5" lon="6"/></rte>
            """))
        #expect(document.trackPoints.map(\.coordinate.longitude) == [2, 4, 6])
    }

    @Test func acceptsGPXWithoutNamespace() throws {
        let document = try read("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>")
        #expect(document.trackPoints.count == 1)
    }

    @Test func ignoresGPXElementsInAnotherNamespace() throws {
        let document = try read(FixturesGPX.gpx11("""
            <other:trk xmlns:other="http://www.topografix.com/GPX/1/0"><other:trkseg><other:trkpt lat="1" lon="2"/></other:trkseg></other:trk>
            """))
        #expect(document.tracks.isEmpty)
    }

    @Test func emptyElevationMeansNone() throws {
        let document = try read(FixturesGPX.gpx11("<wpt lat=\"1\" lon=\"2\"><ele> </ele><time></time></wpt>"))
        #expect(document.waypoints.first?.elevation == nil)
    }

    /// Numbers as GPS units and programs write them: short and long, signed, with a bare point,
    /// an exponent, leading zeros, surrounding spaces, and more digits than a Double holds (each
    /// read bit for bit as Swift's own `Double(String)` reads it).
    @Test(arguments: ["42.5", "-0.0", "+5", "5.", ".5", "-.25", "1.6299999999999999", "42.54792305438239",
                      "0.000000000000000000000123", "89.99999999999999999999", "007.125", " 12.75 ", "1e1", "-1.5E-3",
                      "12.3456789123456789", "9.007199254740993", "0.1"])
    func numbersAreReadAsSwiftReadsThem(text: String) throws {
        let document = try read(FixturesGPX.gpx11(
            "<trk><trkseg><trkpt lat=\"\(text)\" lon=\"\(text)\"><ele>\(text)</ele></trkpt></trkseg></trk>"))
        let expected = try #require(Double(text.trimmingCharacters(in: .whitespaces)))
        let point = try #require(document.trackPoints.first)
        #expect(point.coordinate.latitude.bitPattern == expected.bitPattern)
        #expect(point.coordinate.longitude.bitPattern == expected.bitPattern)
        #expect(point.elevation?.bitPattern == expected.bitPattern)
    }

    @Test func routePointsKeepTheirTextsAndTrackPointsHaveNone() throws {
        let document = try read(FixturesGPX.gpx11("""
            <rte><rtept lat="1" lon="2"><name>Fuel</name><sym>Gas</sym><type>stop</type></rtept><rtept lat="1" lon="3"/></rte>
            <trk><trkseg><trkpt lat="1" lon="2"><name>ignored</name></trkpt></trkseg></trk>
            """))
        let stops = try #require(document.routes.first).points
        #expect(stops.map(\.name) == ["Fuel", nil])
        #expect(stops.map(\.symbol) == ["Gas", nil])
        #expect(stops.map(\.type) == ["stop", nil])
        #expect(stops[0] != GPXPoint(coordinate: stops[0].coordinate, line: stops[0].line), "the texts are part of equality")
        var edited = stops[1]
        edited.symbol = "Flag"
        #expect(edited.name == nil && edited.symbol == "Flag" && edited.type == nil)
        edited.symbol = nil
        #expect(edited == stops[1])
        let track = try #require(document.tracks.first?.segments.first?.first)
        #expect(track.name == nil && track.symbol == nil && track.type == nil)
    }

    @Test func readsFromAFileLikeFromData() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("day1.gpx")
        try Data(FixturesGPX.gpx11WithExtensions.utf8).write(to: url)
        var fromFile = try GPXReader.read(contentsOf: url)
        #expect(fromFile.fileName == url.path)
        fromFile.fileName = "test.gpx"
        #expect(fromFile == (try read(FixturesGPX.gpx11WithExtensions)))
    }

    /// Text split across the 64 KiB chunk boundaries must arrive whole, from a file and from memory.
    @Test func textAcrossChunkBoundariesIsWhole() throws {
        let count = 5_000
        var body = "<trk><trkseg>\n"
        for index in 0..<count {
            body += "<trkpt lat=\"45.\(index)\" lon=\"7\"><ele>\(1000 + index).25</ele>"
                + "<time>2024-01-01T00:00:00.\(index)Z</time></trkpt>\n"
        }
        body += "</trkseg></trk>"
        let xml = FixturesGPX.gpx11(body)
        #expect(xml.utf8.count > 4 * XMLStream.chunkSize)
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("chunks.gpx")
        try Data(xml.utf8).write(to: url)
        for document in [try read(xml), try GPXReader.read(contentsOf: url)] {
            let points = document.trackPoints
            #expect(points.count == count)
            #expect(points.map(\.elevation) == (0..<count).map { Double(1000 + $0) + 0.25 })
            #expect(points.map(\.line) == (0..<count).map { $0 + 4 })
        }
    }

    /// Two million points from a temporary file: the reader streams it and keeps every point.
    @Test func streamsTwoMillionPoints() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("large.gpx")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let file = try FileHandle(forWritingTo: url)
        let blockSize = 1_000, blocks = 2_000
        var block = ""
        for index in 0..<blockSize {
            block += "<trkpt lat=\"\(Double(index) / 1000)\" lon=\"-1.5\"/>\n"
        }
        try file.write(contentsOf: Data("<?xml version=\"1.0\"?>\n<gpx xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n".utf8))
        let blockData = Data(block.utf8)
        for _ in 0..<blocks { try file.write(contentsOf: blockData) }
        try file.write(contentsOf: Data("</trkseg></trk></gpx>\n".utf8))
        try file.close()

        let document = try GPXReader.read(contentsOf: url)
        let points = document.trackPoints
        #expect(points.count == blockSize * blocks)
        #expect(points.last?.coordinate == Coordinate(latitude: 0.999, longitude: -1.5))
        #expect(points.last?.line == 2 + blockSize * blocks)
    }
}

@Suite struct GPXReaderErrorTests {
    @Test func latitudeOutOfRangeNamesFileLineAndAttribute() {
        let error = failure(FixturesGPX.gpx11("<trk><trkseg>\n<trkpt lat=\"95.0\" lon=\"1\"/></trkseg></trk>"),
                            fileName: "track.gpx")
        #expect(error?.description == "track.gpx:4: <trkpt> lat=\"95.0\" is out of range (−90…90)")
        #expect(error?.field == "lat")
    }

    @Test func longitudeOutOfRange() {
        let error = failure(FixturesGPX.gpx11("<rte><rtept lat=\"1\" lon=\"-180.5\"/></rte>"))
        #expect(error?.description == "test.gpx:3: <rtept> lon=\"-180.5\" is out of range (−180…180)")
    }

    @Test func missingAttributeIsNamed() {
        let error = failure(FixturesGPX.gpx11("<wpt lon=\"1\"/>"))
        #expect(error?.line == 3)
        #expect(error?.field == "lat")
        #expect(error?.message.hasPrefix("<wpt> has no lat attribute") == true)
    }

    @Test(arguments: ["abc", "", "NaN", "nan", "inf", "-Infinity", "0x1p3", "1,5", "1e999"])
    func nonNumericOrNonFiniteLongitudeIsRefused(value: String) {
        let error = failure(FixturesGPX.gpx11("<trk><trkseg><trkpt lat=\"1\" lon=\"\(value)\"/></trkseg></trk>"))
        #expect(error?.description == "test.gpx:3: <trkpt> lon=\"\(value)\" is not a decimal number of degrees")
    }

    @Test func badElevationIsNamedWithItsLine() {
        let error = failure(FixturesGPX.gpx11("<trk><trkseg><trkpt lat=\"1\" lon=\"1\">\n<ele>high</ele></trkpt></trkseg></trk>"))
        #expect(error?.line == 4)
        #expect(error?.field == "ele")
        #expect(error?.message.hasPrefix("<ele> \"high\" is not a number") == true)
    }

    /// Nothing uses a point's time, so a time no parser would accept must not cost the whole file.
    @Test func malformedTimeDoesNotRejectTheFile() throws {
        let document = try read(FixturesGPX.gpx11("""
            <wpt lat="1" lon="1"><time>01/05/2024 10:00</time><name>Start</name></wpt>
            <trk><trkseg><trkpt lat="2" lon="3"><ele>10</ele><time>yesterday</time></trkpt></trkseg></trk>
            """))
        #expect(document.waypoints.map(\.name) == ["Start"])
        #expect(document.trackPoints.map(\.coordinate) == [Coordinate(latitude: 2, longitude: 3)])
        #expect(document.trackPoints.map(\.elevation) == [10])
    }

    @Test func wrongRootIsNamed() {
        let error = failure("<?xml version=\"1.0\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\"></kml>")
        #expect(error?.line == 2)
        #expect(error?.message.hasPrefix("expected <gpx>, found <kml>") == true)
    }

    @Test func gpxInAnUnknownNamespaceIsRefused() {
        let error = failure("<gpx xmlns=\"http://www.topografix.com/GPX/2/0\"/>")
        #expect(error?.message.contains("http://www.topografix.com/GPX/2/0") == true)
    }

    @Test func notXMLGivesExpatsMessageAndLine() {
        let error = failure("{\"type\": \"FeatureCollection\"}")
        #expect(error?.line == 1)
        #expect(error?.message == "XML error: not well-formed (invalid token) at column 1; is this a GPX file?")
    }

    @Test func emptyInputSaysSo() {
        #expect(failure("")?.description == "test.gpx: the file is empty; expected a GPX document")
    }

    @Test func truncatedFileGivesTheLineWhereItEnds() {
        let whole = FixturesGPX.gpx10
        let cut = String(whole[..<whole.range(of: "<trkpt lat=\"42.51\"")!.upperBound])
        let error = failure(cut)
        #expect(error?.line == 19)
        #expect(error?.message.contains("truncated") == true)
    }

    @Test func fileCutAfterACompleteTagStillFails() {
        let whole = FixturesGPX.multipleSegments
        let error = failure(String(whole[..<whole.range(of: "</trkseg>")!.upperBound]))
        #expect(error?.line == 7)
        #expect(error?.message.contains("truncated") == true)
    }

    @Test func doctypeIsRefused() {
        let error = failure("<?xml version=\"1.0\"?>\n<!DOCTYPE gpx SYSTEM \"http://example.org/gpx.dtd\">\n<gpx/>")
        #expect(error?.description == "test.gpx:2: DOCTYPE is not allowed in GPX; remove the <!DOCTYPE …> declaration")
    }

    @Test func billionLaughsFailsAtTheDoctype() {
        let error = failure(FixturesGPX.billionLaughs)
        #expect(error?.field == "DOCTYPE")
        #expect(error?.line == 2)
    }

    @Test func undeclaredEntityIsAnXMLError() {
        let error = failure(FixturesGPX.gpx11("<wpt lat=\"1\" lon=\"1\"><name>&xxe;</name></wpt>"))
        #expect(error?.line == 3)
        #expect(error?.message.contains("undefined entity") == true)
    }

    @Test func missingFileIsNamed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("absent.gpx")
        let error = #expect(throws: FormatError.self) { try GPXReader.read(contentsOf: url) }
        #expect(error?.file == url.path)
        #expect(error?.message.hasPrefix("cannot open the file: No such file or directory") == true)
    }
}

@Suite struct GPXRequireRouteTests {
    @Test func noPointsAtAll() throws {
        let document = try read(FixturesGPX.gpx11("<wpt lat=\"1\" lon=\"1\"/>"), fileName: "wpts.gpx")
        let error = #expect(throws: FormatError.self) { try document.requireRoute() }
        #expect(error?.description.hasPrefix("wpts.gpx: no track or route in the file (it has 1 waypoint only)") == true)
    }

    @Test func onePointIsNotARoute() throws {
        let document = try read(FixturesGPX.gpx11("<trk><trkseg><trkpt lat=\"1\" lon=\"1\"/></trkseg></trk>"))
        let error = #expect(throws: FormatError.self) { try document.requireRoute(minimumPoints: 2) }
        #expect(error?.description == "test.gpx:3: track has only one point; a route needs at least two")
    }

    @Test func oneRoutePointNamesTheRoute() throws {
        let document = try read(FixturesGPX.gpx11("<trk/><rte><rtept lat=\"1\" lon=\"1\"/></rte>"))
        let error = #expect(throws: FormatError.self) { try document.requireRoute() }
        #expect(error?.message == "route has only one point; a route needs at least two")
    }

    @Test func enoughPointsAreReturned() throws {
        let document = try read(FixturesGPX.multipleSegments)
        #expect(try document.requireRoute(minimumPoints: 4).count == 4)
        #expect(throws: FormatError.self) { try document.requireRoute(minimumPoints: 5) }
    }
}
