import Foundation
import FoundationXML
@testable import Formats
import Geo
import Model
import Testing
import TestSupport

/// OpenRally GPX v1.0.3 both ways: what the writer writes is valid against the published schemas
/// (xmllint with `test_wrapper.xsd`: GPX 1.1 strict extensions and OpenRally at once), reads back
/// into the same book, and the official example reads as its elements say (checked against an
/// independent parse with FoundationXML).
@Suite("OpenRally GPX")
struct OpenRallyTests {
    static let schema = packageRoot().appendingPathComponent("samples/data/openrally/cross-country/test_wrapper.xsd")
    static let example = packageRoot().appendingPathComponent("samples/data/openrally/cross-country/example.gpx")

    /// Runs xmllint with the published schemas; throws (with xmllint's words) when the file is not valid.
    static func validate(_ url: URL) throws {
        _ = try runTool("xmllint", ["--noout", "--schema", schema.path, url.path])
    }

    /// A straight route of 10 km north from (42.5, 1.5), and a book on it with every feature the
    /// format carries: every waypoint type with radii, dangers 1 to 3, a reset, speed zones,
    /// fuel and police, CAPs, heights, tulips (a roundabout, strokes, a dashed track) with what a
    /// generated turn was generated from, words that need escaping.
    static func everyFeatureBook(units: BookSettings.Units = .kilometres) -> Book {
        let start = Coordinate(latitude: 42.5, longitude: 1.5)
        let points = (0...100).map { RoutePoint(coordinate: Geodesic.wgs84.direct(from: start, bearing: 0, distance: Double($0) * 100).coordinate,
                                                elevation: 1000 + Double($0)) }
        let line = Polyline(points.map(\.coordinate))
        var notes: [Note] = []
        for (i, type) in WaypointType.allCases.enumerated() {
            let along = 250.0 * Double(i + 1)
            notes.append(Note(id: i + 1, kind: type == .cp || type == .dss || type == .ass ? .checkpoint : .waypoint,
                              distanceAlong: along, coordinate: line.coordinate(atDistance: along),
                              text: "\(type.rawValue) <here> & \"there\" ]]> done\nsecond line", marker: "\(type.rawValue)\(i)",
                              waypointType: type, cap: Double(i * 29 % 360), danger: i % 4, elevation: 1000 + Double(i),
                              resetsOdometer: type == .dss, speedLimit: type == .dz || type == .fz ? 50 : nil,
                              symbols: i == 3 ? [.fuel, .police] : [], openRadius: 800 + i, clearRadius: 90 + i))
        }
        let tulip = Tulip(origin: .drawn, roads: [Tulip.Road(role: .entry, angle: 180), Tulip.Road(role: .exit, angle: 87.5, roadClass: .gravel),
                                                  Tulip.Road(role: .side, angle: -45, roadClass: .path, noExit: true, metBeforeExit: false)],
                          roundabout: Tulip.Roundabout(exitNumber: 2, clockwise: true),
                          strokes: [[Tulip.Point(x: -0.5, y: 0.25), Tulip.Point(x: 0.125, y: -0.75)]])
        let junction = Junction(coordinate: line.coordinate(atDistance: 6000), distanceAlong: 6000,
                                spokes: [Spoke(bearing: 180, role: .entry, highway: "primary", name: "Carrer <Major> & Co"),
                                         Spoke(bearing: 87, role: .exit, surface: "gravel", ref: "CG-2", isRoundabout: true)],
                                nodeID: 123_456_789)
        let generated = GeneratedTurn(maneuver: "roundabout", modifier: "right", exitNumber: 2, junction: junction,
                                      text: "Roundabout, 2nd exit", source: "map")
        notes.append(Note(id: 50, kind: .turn, distanceAlong: 6000, coordinate: line.coordinate(atDistance: 6000), text: "Roundabout, 2nd exit",
                          cap: 90, tulip: tulip, generated: generated))
        notes.append(Note(id: 51, kind: .typed, distanceAlong: 7000, coordinate: line.coordinate(atDistance: 7000), text: "",
                          marker: "only a marker", danger: 3))
        var book = Book(title: "Every <feature> & more", settings: BookSettings(units: units), route: Route(points: points), notes: notes)
        book.description = "Route via the N-S line"
        return book
    }

    /// `note` with the values that depend on where it was read (distance to the centimetre, offset)
    /// taken from `like`, and its id: what a round trip must leave exactly as it was.
    static func comparable(_ note: Note, like original: Note) -> Note {
        var n = note
        n.distanceAlong = original.distanceAlong
        n.offsetFromRoute = original.offsetFromRoute
        n.coordinate = original.coordinate
        n.id = original.id
        return n
    }

    @Test("a book with every feature is valid against GPX 1.1 and OpenRally v1.0.3 (xmllint), in km and in miles")
    func everyFeatureValid() throws {
        let folder = try TemporaryFolder()
        for units in BookSettings.Units.allCases {
            let url = folder.path("every-\(units.rawValue).gpx")
            _ = try OpenRallyWriter.write(Self.everyFeatureBook(units: units), to: url)
            try Self.validate(url)
        }
    }

    @Test("every feature reads back as it was written, and writing it again gives the same bytes")
    func roundTrip() throws {
        let folder = try TemporaryFolder()
        let book = Self.everyFeatureBook()
        let first = folder.path("first.gpx"), second = folder.path("second.gpx")
        let lost = try OpenRallyWriter.write(book, to: first)
        #expect(lost == [], "nothing of this book should be lost: \(lost)")
        let file = try OpenRallyReader.read(contentsOf: first)
        let back = try #require(file.book)
        #expect(file.warnings == [])
        #expect(back.title == book.title && back.description == book.description && back.settings.units == .kilometres)
        #expect(back.route.points.count == book.route.points.count)
        #expect(back.notes.count == book.notes.count)
        for (read, original) in zip(back.notes, book.notes) {
            #expect(abs(read.distanceAlong - original.distanceAlong) < 0.01, "\(original.marker ?? original.text)")
            #expect(read.coordinate.distance(to: original.coordinate) < 0.001)
            #expect(read.placement == .onRoute && abs(read.offsetFromRoute) < 0.5)
            #expect(Self.comparable(read, like: original) == original)
        }
        _ = try OpenRallyWriter.write(back, to: second)
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
    }

    @Test("a tulip's drawing spreads roads closer than 20° and bars a road one may not leave by; its data keeps the true angles")
    func tulipDrawing() throws {
        // A fork: the exit straight on, the other branch 7° right, drawn 20° right: its end 85
        // along, at (85 sin 20°, −85 cos 20°) = (29.07, −79.87).
        let fork = Tulip(origin: .generated, roads: [Tulip.Road(role: .entry, angle: 180), Tulip.Road(role: .exit, angle: 0),
                                                     Tulip.Road(role: .side, angle: 7)])
        let svg = OpenRallyWriter.tulipSVG(fork)
        #expect(svg.contains("x2=\"29.07\" y2=\"-79.87\""), "\(svg)")
        #expect(svg.contains("\"angle\":7"), "the tulip's data keeps its true angle: \(svg)")
        #expect(svg.components(separatedBy: "<line").count - 1 == 3)
        // At a ring, a road one may not leave by (90° right) gets a bar across its end, 80 along:
        // from (80, −11) to (80, 11).
        var ring = fork
        ring.roads[2] = Tulip.Road(role: .side, angle: 90, noExit: true)
        ring.roundabout = Tulip.Roundabout(exitNumber: 1)
        let barred = OpenRallyWriter.tulipSVG(ring)
        #expect(barred.contains("x1=\"80\" y1=\"-11\" x2=\"80\" y2=\"11\""), "\(barred)")
        #expect(barred.components(separatedBy: "<line").count - 1 == 4)
    }

    @Test("in miles, distances are in miles and radii in yards, and the book reads back in miles")
    func miles() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("miles.gpx")
        let book = Self.everyFeatureBook(units: .miles)
        let lost = try OpenRallyWriter.write(book, to: url)
        #expect(lost.contains { $0.contains("mph and yards") })
        let xml = try XMLDocument(contentsOf: url)
        let units = try xml.nodes(forXPath: "//*[local-name()='units']").first?.stringValue
        #expect(units == "statue")   // the schema's spelling of "statute"
        // The DSS (8th waypoint type, 2000 m along): 2000 m is 1.24274 mi.
        let distances = try xml.nodes(forXPath: "//*[local-name()='wpt']/*[local-name()='extensions']/*[local-name()='distance']").compactMap(\.stringValue)
        #expect(distances.contains("1.24274"))
        let back = try #require(try OpenRallyReader.read(contentsOf: url).book)
        #expect(back.settings.units == .miles)
        let dss = try #require(back.notes.first { $0.waypointType == .dss })
        #expect(abs(dss.distanceAlong - 2000) < 0.1)
        #expect(dss.openRadius == 807 && dss.clearRadius == 97)
    }

    @Test("the official example: every <wpt> is a row with the distance, types, radii, danger, speed and CAP of its elements")
    func officialExample() throws {
        // The example has no track (every point is at 0,0): it is refused for that, by name.
        let refused = #expect(throws: FormatError.self) { try OpenRallyReader.read(contentsOf: Self.example) }
        #expect(refused?.description.contains("example.gpx") == true && refused?.description.contains("track") == true,
                "\(refused?.description ?? "")")
        // With a track of 111 km north from 0,0 added, it reads.
        let folder = try TemporaryFolder()
        let url = folder.path("example.gpx")
        let text = try String(contentsOf: Self.example, encoding: .utf8)
            .replacingOccurrences(of: "</gpx>", with: "<trk><trkseg><trkpt lat=\"0\" lon=\"0\"/><trkpt lat=\"1\" lon=\"0\"/></trkseg></trk>\n</gpx>")
        try text.write(to: url, atomically: true, encoding: .utf8)
        let file = try OpenRallyReader.read(contentsOf: url)
        let book = try #require(file.book)

        // What the file holds, read independently.
        let xml = try XMLDocument(contentsOf: Self.example)
        let wpts = try xml.nodes(forXPath: "//*[local-name()='wpt']").compactMap { $0 as? XMLElement }
        #expect(book.notes.count == wpts.count)
        struct Expected { var distance: Double; var type: String?; var open: Int?; var clear: Int?; var name: String?; var danger: Int?; var speed: Int?; var cap: Int?; var reset: Bool
                          var markers: [String] }
        // The marker elements the library has a symbol for, as the symbol names them (the library's table).
        let markers = ["stop": "stop", "neutralization": "neutralization", "timecontrol": "timeControl", "fn": "fn", "dt": "dt",
                       "ft": "ft", "show_coordinates": "showCoordinates", "fuel": "fuel"]
        let types = Set(WaypointType.allCases.map { OpenRally.element(of: $0) })
        let expected: [Expected] = wpts.map { wpt in
            let ext = (wpt.elements(forName: "extensions").first?.children ?? []).compactMap { $0 as? XMLElement }
            func value(_ name: String) -> String? { ext.first { $0.localName == name }?.stringValue }
            let type = ext.first { types.contains($0.localName ?? "") }
            func attribute(_ name: String) -> String? { (type?.attributes ?? []).first { $0.localName == name || $0.name == name }?.stringValue }
            return Expected(distance: Double(value("distance")!)!, type: type?.localName,
                            open: attribute("open").flatMap { Int($0) }, clear: attribute("clear").flatMap { Int($0) },
                            name: attribute("name"),
                            danger: value("danger").flatMap { Int($0) },
                            speed: value("speed").flatMap { Int($0) } ?? value("dz").flatMap { Int($0) },
                            cap: value("cap").flatMap { Int($0) }, reset: value("reset") != nil,
                            markers: ext.compactMap { $0.localName.flatMap { markers[$0] } }.reduce(into: []) { if !$0.contains($1) { $0.append($1) } })
        }
        // The book is in distance order; the file's order breaks ties.
        let ordered = expected.enumerated().sorted { ($0.element.distance, $0.offset) < ($1.element.distance, $1.offset) }.map(\.element)
        for (note, want) in zip(book.notes, ordered) {
            #expect(abs(note.distanceAlong - want.distance * 1000) < 1e-6)
            #expect(note.waypointType.map(OpenRally.element(of:)) == want.type)
            #expect(note.openRadius == want.open && note.clearRadius == want.clear, "\(note.openRadius as Any) \(note.clearRadius as Any) \(want)")
            #expect(note.marker == want.name)
            #expect(note.danger == (want.danger ?? 0))
            #expect(note.speedLimit == want.speed)
            #expect(note.cap.map { Int($0) } == want.cap.map { $0 % 360 })
            #expect(note.resetsOdometer == want.reset)
            #expect(note.symbols.map(\.name) == want.markers, "\(note.symbols) \(want)")
        }
        #expect(ordered.contains { $0.markers.count > 1 }, "the example has rows of several markers")
        // Stops, neutralizations, time controls, transfers are the library's symbols; what a symbol
        // cannot hold (a stop's seconds, a time allowed) is named, as are extra types and foreign drawings.
        for name in ["stop", "neutralization", "timecontrol"] {
            #expect(file.warnings.contains { $0.contains("the time of") && $0.contains("<openrally:\(name)> not kept") },
                    "\(name): \(file.warnings)")
        }
        #expect(file.warnings.contains { $0.contains("more than one waypoint type") })
        #expect(file.warnings.contains { $0.contains("drawings are not kept") })
        // All its points are at 0,0 though their distances go to 70 km: the track disagrees, and says so.
        #expect(file.warnings.contains { $0.contains("their openrally:distance gives") })
        // The metadata's 33.86 km is not the track's 110.6 km.
        #expect(file.warnings.contains { $0.contains("33.86") })
        #expect(file.warnings.allSatisfy { $0.hasPrefix(url.relativePath) && !$0.contains("\n") })
    }

    @Test("an OpenRally file is chosen over plain GPX by its namespace; plain GPX is not")
    func recognised() throws {
        #expect(try RouteFormats.reader(for: Self.example) == OpenRallyReader.self)
        let plain = packageRoot().appendingPathComponent("samples/andorra-envalira.gpx")
        #expect(try RouteFormats.reader(for: plain) == GPXFileReader.self)
        #expect(BookFormats.writer(named: "openrally", for: URL(fileURLWithPath: "x.gpx")) == OpenRallyWriter.self)
    }

    /// `body` spliced into the first waypoint's extensions of a small valid file.
    static func file(_ wptExtensions: String, namespace: String = OpenRally.namespace, track: Bool = true, extra: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx xmlns="http://www.topografix.com/GPX/1/1" version="1.1" creator="t" xmlns:openrally="\(namespace)">
          <wpt lat="42.5" lon="1.5">
            <desc>Turn left</desc>
            <extensions>
              \(wptExtensions)
            </extensions>
          </wpt>\(extra)
          \(track ? "<trk><trkseg><trkpt lat=\"42.5\" lon=\"1.5\"/><trkpt lat=\"42.6\" lon=\"1.5\"/></trkseg></trk>" : "")
        </gpx>
        """
    }

    static func read(_ text: String) throws -> RouteFile {
        let folder = try TemporaryFolder()
        let url = folder.path("h.gpx")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return try OpenRallyReader.read(contentsOf: url)
    }

    @Test("bad values are refused in one line naming the file, the line and the field",
          arguments: [("<openrally:distance>1,5</openrally:distance>", "openrally:distance"),
                      ("<openrally:distance>-2</openrally:distance>", "openrally:distance"),
                      ("<openrally:distance>nan</openrally:distance>", "openrally:distance"),
                      ("<openrally:wps open=\"-800\" clear=\"90\"/>", "openrally:wps open"),
                      ("<openrally:wpm open=\"800\" clear=\"0\"/>", "openrally:wpm clear"),
                      ("<openrally:danger>4</openrally:danger>", "openrally:danger"),
                      ("<openrally:cap>400</openrally:cap>", "openrally:cap"),
                      ("<openrally:dz/><openrally:speed>fast</openrally:speed>", "openrally:speed")])
    func badValues(_ body: String, _ field: String) throws {
        let error = #expect(throws: FormatError.self) { try Self.read(Self.file(body)) }
        #expect(error?.line == 6 && error?.field == field, "\(error?.description ?? "")")
        #expect(error?.description.contains("h.gpx:6") == true && error?.description.contains("\n") == false, "\(error?.description ?? "")")
    }

    @Test("another namespace version and unknown elements are read with a warning each")
    func lenient() throws {
        let other = try Self.read(Self.file("<openrally:distance>0</openrally:distance><openrally:wpx/><openrally:medical/>",
                                            namespace: "http://www.openrally.org/xmlschemas/GpxExtensions/v1.0.2"))
        #expect(other.warnings.contains { $0.contains("v1.0.2") })
        #expect(other.warnings.contains { $0.contains("<openrally:wpx> not kept") })
        #expect(!other.warnings.contains { $0.contains("medical") }, "a marker of the library's is read as its symbol")
        #expect(other.book?.notes.count == 1)
        #expect(other.book?.notes.first?.symbols == [.medical])
    }

    @Test("a drawing larger than the reader keeps is refused naming the file and line")
    func hugeDrawing() throws {
        let png = "data:image/png;base64," + String(repeating: "A", count: 1_100_000)
        let error = #expect(throws: FormatError.self) {
            try Self.read(Self.file("<openrally:distance>0</openrally:distance>\n<openrally:tulip><![CDATA[\(png)]]></openrally:tulip>"))
        }
        #expect(error?.description.contains("h.gpx:") == true && error?.description.contains("drawing too large") == true,
                "\(error?.description ?? "")")
    }

    @Test("a file without a track is refused, naming the file")
    func noTrack() throws {
        let error = #expect(throws: FormatError.self) { try Self.read(Self.file("<openrally:distance>0</openrally:distance>", track: false)) }
        #expect(error?.description.contains("h.gpx") == true, "\(error?.description ?? "")")
    }

    @Test("a row whose distance disagrees with where the track passes it is placed at its distance, with a warning")
    func disagreement() throws {
        // The waypoint is at the start of the track, its distance says 5 km.
        let file = try Self.read(Self.file("<openrally:distance>5</openrally:distance>"))
        #expect(abs((file.book?.notes.first?.distanceAlong ?? 0) - 5000) < 1e-6)
        #expect(file.warnings.contains { $0.contains("line 3 (5 given, 0 on the track)") }, "\(file.warnings)")
    }

    @Test("XML escaping: words with markup characters and ]]> survive, and the file stays well-formed")
    func escaping() throws {
        let words = "a < b & c > d \"q\" 'a' ]]> <![CDATA[ x"
        #expect(OpenRallyWriter.escaped(words, attribute: true).contains("<") == false)
        let book = Self.everyFeatureBook()
        let data = try OpenRallyWriter.data(of: book)
        _ = try XMLDocument(data: data)
    }

    // MARK: Symbols

    /// The marker elements of the published schema and the library symbol each is, from the
    /// library's table (the elements the schema comments out included: another program may write them).
    static let markerSymbols: [(element: String, symbol: String)] = [
        ("medical", "medical"), ("helicopter", "helicopter"), ("police", "police"), ("fire", "fire"),
        ("spectators", "spectators"), ("media", "media"), ("gps", "gps"), ("passagecontrol", "passageControl"),
        ("endfuel", "endFuel"), ("radio", "radio"), ("begintireservice", "beginTyreService"), ("endtireservice", "endTyreService"),
        ("toilets", "toilets"), ("giveway", "giveWay"), ("sensitivezone", "sensitiveZone"), ("startofassistance", "startOfAssistance"),
        ("finishofassistance", "finishOfAssistance"), ("startofzone", "startOfZone"), ("village", "village"), ("fuel", "fuel"),
        ("show_coordinates", "showCoordinates"), ("stop", "stop"), ("neutralization", "neutralization"),
        ("timecontrol", "timeControl"), ("fn", "fn"), ("dt", "dt"), ("ft", "ft"),
    ]
    /// Those the v1.0.3 schema defines and a symbol alone can fill (neutralization needs its seconds).
    static let schemaMarkers: Set<String> = ["medical", "helicopter", "police", "fire", "spectators", "media", "fuel", "stop",
                                             "timecontrol", "show_coordinates", "fn", "dt", "ft"]

    /// A book of a row a library symbol, the symbol alone on it (no words, no marker), and a row of
    /// several with a name the library lacks among them.
    static func symbolBook() -> Book {
        let start = Coordinate(latitude: 42.5, longitude: 1.5)
        let points = (0...100).map { RoutePoint(coordinate: Geodesic.wgs84.direct(from: start, bearing: 0, distance: Double($0) * 100).coordinate) }
        let line = Polyline(points.map(\.coordinate))
        var notes = NoteSymbol.library.enumerated().map { i, symbol in
            Note(id: i + 1, kind: .typed, distanceAlong: 50 * Double(i + 1), coordinate: line.coordinate(atDistance: 50 * Double(i + 1)),
                 text: "", symbols: [symbol])
        }
        notes.append(Note(id: 500, kind: .typed, distanceAlong: 9000, coordinate: line.coordinate(atDistance: 9000), text: "Many",
                          symbols: [.village, NoteSymbol("myOwn"), .ford, .medical, .danger2, .gps]))
        return Book(title: "Symbols", route: Route(points: points), notes: notes)
    }

    @Test("every one of the library's 135 symbols, and a name it lacks, comes back from an export and an import; the file is valid")
    func everySymbolRoundTrips() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("symbols.gpx")
        let book = Self.symbolBook()
        let lost = try OpenRallyWriter.write(book, to: url)
        try Self.validate(url)
        #expect(lost.count == 1 && lost[0].contains("have no OpenRally element") && lost[0].contains("kept in the notes drawings"), "\(lost)")
        let back = try #require(try OpenRallyReader.read(contentsOf: url).book)
        #expect(back.notes.count == book.notes.count)
        for (read, original) in zip(back.notes, book.notes) {
            #expect(read.symbols == original.symbols, "\(original.symbols)")
            #expect(read.danger == 0 && read.waypointType == nil && read.cap == nil && !read.resetsOdometer,
                    "a symbol is not made into a field: \(original.symbols)")
        }
        // The markers the schema has are written as their elements, each where its symbol is: once
        // on its own row, and medical again on the row of several.
        let xml = try XMLDocument(contentsOf: url)
        for (element, symbol) in Self.markerSymbols {
            let count = try xml.nodes(forXPath: "//*[local-name()='wpt']/*[local-name()='extensions']/*[local-name()='\(element)']").count
            let expected = Self.schemaMarkers.contains(element) ? (element == "medical" ? 2 : 1) : 0
            #expect(count == expected, "\(element) for \(symbol)")
        }
    }

    @Test("a file with every OpenRally marker element, as another program writes it, reads each as the library's symbol")
    func everyMarkerReads() throws {
        var wpts = ""
        for (i, marker) in Self.markerSymbols.enumerated() {
            let value = marker.element == "stop" || marker.element == "neutralization" ? "0" : ""
            wpts += """
              <wpt lat="\(42.5 + Double(i) * 0.0005)" lon="1.5"><name>\(marker.element)</name><extensions>
                <openrally:distance>\(Double(i) * 0.05)</openrally:distance><openrally:\(marker.element)>\(value)</openrally:\(marker.element)>
              </extensions></wpt>

            """
        }
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx xmlns="http://www.topografix.com/GPX/1/1" version="1.1" creator="other" xmlns:openrally="\(OpenRally.namespace)">
            \(wpts)  <trk><trkseg><trkpt lat="42.5" lon="1.5"/><trkpt lat="42.52" lon="1.5"/></trkseg></trk>
            </gpx>
            """
        let file = try Self.read(text)
        let book = try #require(file.book)
        #expect(book.notes.count == Self.markerSymbols.count)
        for (note, marker) in zip(book.notes, Self.markerSymbols) {
            #expect(note.text == marker.element && note.symbols.map(\.name) == [marker.symbol], "\(marker)")
        }
        #expect(!file.warnings.contains { $0.contains("not kept") }, "\(file.warnings)")
    }

    @Test("a row's pictograms go into its notes drawing as data: URLs, unless a pictogram refers to another file")
    func pictogramsInNotes() throws {
        let ford = Data(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 5 H10" stroke="blue"/></svg>"#.utf8)
        let outward = Data(#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="file:///etc/passwd"/></svg>"#.utf8)
        let inward = Data(#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><defs><path id="p" d="M0 0"/></defs><use xlink:href = '#p'/></svg>"#.utf8)
        var book = Self.symbolBook()
        book.notes = [book.notes.last!]
        let folder = try TemporaryFolder()
        let url = folder.path("drawn.gpx")
        try OpenRallyWriter.data(of: book, pictograms: [.ford: ford, .village: outward, .medical: inward]).write(to: url)
        try Self.validate(url)
        let xml = try XMLDocument(contentsOf: url)
        let notes = try #require(try xml.nodes(forXPath: "//*[local-name()='notes']").first?.stringValue)
        #expect(notes.contains("data:image/svg+xml;base64,\(ford.base64EncodedString())"))
        #expect(notes.contains("data:image/svg+xml;base64,\(inward.base64EncodedString())"))
        #expect(!notes.contains(outward.base64EncodedString()), "a pictogram naming a file is drawn as its name")
        #expect(notes.contains(">village</text>") && notes.contains(">myOwn</text>"))
        // The drawing is well-formed SVG of its own.
        let drawing = try XMLDocument(data: Data(notes.utf8))
        #expect(drawing.rootElement()?.name == "svg")
        #expect(try OpenRallyReader.read(contentsOf: url).book?.notes.first?.symbols == book.notes[0].symbols)
    }
}
