import Foundation
import Geo
import Formats
import Model
import RoadbookCLI
import Testing
import TestSupport

/// `build --osm`, `tulip` and `regenerate` on a small hand-made extract:
///
///         d (north, "Cami Nord")
///         |
///     a — b — c      ("Main", west to east)
///         |
///         e (south, a track)
@Suite("Turn notes on the command line")
struct TurnCommandsTests {
    static let grid = MetreGrid(origin: .init(latitude: 42.5, longitude: 1.5))
    static let places: [(Character, Double, Double)] = [("a", 0, 0), ("b", 300, 0), ("c", 600, 0), ("d", 300, 300), ("e", 300, -300)]

    static var extract: String {
        var xml = "<?xml version=\"1.0\"?>\n<osm version=\"0.6\">\n"
        for (i, p) in places.enumerated() {
            let c = grid(p.1, p.2)
            xml += "<node id=\"\(i + 1)\" lat=\"\(c.latitude)\" lon=\"\(c.longitude)\"/>\n"
        }
        xml += """
        <way id="10"><nd ref="1"/><nd ref="2"/><nd ref="3"/><tag k="highway" v="primary"/><tag k="name" v="Main"/></way>
        <way id="11"><nd ref="4"/><nd ref="2"/><tag k="highway" v="residential"/><tag k="name" v="Cami Nord"/></way>
        <way id="12"><nd ref="2"/><nd ref="5"/><tag k="highway" v="track"/><tag k="name" v="Pista"/></way>
        </osm>
        """
        return xml
    }

    /// A GPX track along the named places, a point every 10 m.
    static func track(_ names: String, waypoints: String = "") -> String {
        let points = names.map { n in places.first { $0.0 == n }! }
        let line = grid.line(points.map { ($0.1, $0.2) }, step: 10)
        return """
        <?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">\(waypoints)
        <trk><trkseg>\(line.map { "<trkpt lat=\"\($0.latitude)\" lon=\"\($0.longitude)\"/>" }.joined())</trkseg></trk></gpx>
        """
    }

    func write(_ folder: TemporaryFolder) throws {
        try Self.extract.write(to: folder.path("x.osm"), atomically: true, encoding: .utf8)
        let b = Self.grid(300, 5)
        try Self.track("abd", waypoints: "<wpt lat=\"\(b.latitude)\" lon=\"\(b.longitude)\"><name>P1</name><desc>Chapel</desc></wpt>")
            .write(to: folder.path("one.gpx"), atomically: true, encoding: .utf8)
        try Self.track("abe").write(to: folder.path("two.gpx"), atomically: true, encoding: .utf8)
    }

    @Test("build --osm joins the turn at b into the waypoint there; tulip draws it; regenerate follows a new leg")
    func buildTulipRegenerate() async throws {
        let folder = try TemporaryFolder()
        try write(folder)
        let build = await roadbook(["build", folder.path("one.gpx").path, "-o", folder.path("b.pdf").path,
                              "--book", folder.path("b.json").path, "--osm", folder.path("x.osm").path])
        #expect(build.status == 0, "\(build.errors)")
        var book = try BookFile.read(contentsOf: folder.path("b.json"))
        #expect(book.notes.count == 1, "the turn joined the waypoint P1 at b: \(book.notes.map(\.text))")
        #expect(book.notes[0].marker == "P1" && book.notes[0].text == "Chapel")
        #expect(book.notes[0].tulip?.exit.map { $0.angle < 0 } == true, "left onto Cami Nord")
        #expect(book.notes[0].generated?.text == "Turn left onto Cami Nord")

        let tulip = await roadbook(["tulip", folder.path("b.json").path, "--row", "1", "-o", folder.path("t.svg").path])
        #expect(tulip.status == 0, "\(tulip.errors)")
        _ = try runTool("xmllint", ["--noout", folder.path("t.svg").path])
        let sheet = await roadbook(["tulip", folder.path("b.json").path, "--sheet", "-o", folder.path("s.png").path])
        #expect(sheet.status == 0 && sheet.output.contains("1 tulips"))
        let missing = await roadbook(["tulip", folder.path("b.json").path, "--row", "5", "-o", folder.path("x.png").path])
        #expect(missing.status == 1 && missing.errors.contains("there is no row 5; the book has 1 rows"))

        // The person's words stay, the tulip follows the road: right onto the track now.
        let dry = await roadbook(["regenerate", folder.path("b.json").path, "--route", folder.path("two.gpx").path,
                            "--osm", folder.path("x.osm").path, "--dry-run"])
        #expect(dry.status == 0 && dry.output.contains("\"Turn left onto Cami Nord\" → \"Turn right onto Pista\" (the note's own words kept)"), "\(dry.output)")
        #expect(try BookFile.read(contentsOf: folder.path("b.json")) == book, "a dry run writes nothing")
        let regen = await roadbook(["regenerate", folder.path("b.json").path, "--route", folder.path("two.gpx").path,
                              "--osm", folder.path("x.osm").path])
        #expect(regen.status == 0, "\(regen.errors)")
        book = try BookFile.read(contentsOf: folder.path("b.json"))
        #expect(book.notes[0].text == "Chapel" && book.notes[0].tulip?.exit.map { $0.angle > 0 } == true)
        #expect(book.route.source == "two.gpx")
    }

    @Test("without --osm the turns come from the track's shape; --no-turns leaves them out")
    func trackShape() async throws {
        let folder = try TemporaryFolder()
        try write(folder)
        #expect(await roadbook(["build", folder.path("two.gpx").path, "-o", folder.path("b.pdf").path, "--book", folder.path("b.json").path]).status == 0)
        let notes = try BookFile.read(contentsOf: folder.path("b.json")).notes
        #expect(notes.count == 1 && notes[0].kind == .turn && notes[0].text.hasPrefix("Turn right"), "\(notes.map(\.text))")
        #expect(abs(notes[0].distanceAlong - 300) < 20)
        #expect(await roadbook(["build", folder.path("two.gpx").path, "-o", folder.path("c.pdf").path, "--book", folder.path("c.json").path, "--no-turns"]).status == 0)
        #expect(try BookFile.read(contentsOf: folder.path("c.json")).notes.isEmpty)
    }

    /// East along y = 0 through a ring of 8 m radius centred at (300, 0), left straight on round its
    /// north side: clockwise, as driven where traffic keeps left. A point every 2 m on the ring.
    static var clockwiseRing: String {
        var points = grid.line([(0, 0), (292, 0)], step: 10)
        for k in 0...12 {
            let a = (150 - Double(k) * 10) * .pi / 180
            points.append(grid(300 + 8 * cos(a), 8 * sin(a)))
        }
        points += grid.line([(308, 0), (600, 0)], step: 10)
        return gpxTrack(points)
    }

    @Test("--driving-side left is kept in the book: a small ring passed straight on, clockwise, is a roundabout there, in build and in regenerate; kept right, it is not")
    func drivingSideLeft() async throws {
        let folder = try TemporaryFolder()
        try Self.clockwiseRing.write(to: folder.path("ring.gpx"), atomically: true, encoding: .utf8)
        func build(_ name: String, _ extra: [String]) async throws -> Book {
            let r = await roadbook(["build", folder.path("ring.gpx").path, "-o", folder.path("\(name).pdf").path,
                                    "--book", folder.path("\(name).json").path] + extra)
            #expect(r.status == 0, "\(r.errors)")
            return try BookFile.read(contentsOf: folder.path("\(name).json"))
        }
        let left = try await build("left", ["--driving-side", "left"])
        #expect(left.settings.drivingSide == .left)
        func isRing(_ note: Note) -> Bool { note.kind == .turn && note.text.hasPrefix("Roundabout") }
        #expect(left.notes.count == 1 && left.notes.allSatisfy(isRing) && abs(left.notes[0].distanceAlong - 292) < 30,
                "\(left.notes.map { ($0.kind, $0.text, Int($0.distanceAlong)) })")
        #expect(try String(contentsOf: folder.path("left.json"), encoding: .utf8).contains("\"drivingSide\" : \"left\""))
        // Where traffic keeps right, the same swings are a jog of the road; a book keeping right does
        // not write the setting at all.
        let right = try await build("right", [])
        #expect(right.settings.drivingSide == nil && !right.notes.isEmpty && !right.notes.contains(where: isRing),
                "\(right.notes.map { ($0.kind, $0.text) })")
        #expect(try !String(contentsOf: folder.path("right.json"), encoding: .utf8).contains("drivingSide"))
        // Regenerating reads the side from the book.
        let regen = await roadbook(["regenerate", folder.path("left.json").path, "--route", folder.path("ring.gpx").path])
        #expect(regen.status == 0, "\(regen.errors)")
        let again = try BookFile.read(contentsOf: folder.path("left.json"))
        #expect(again.settings.drivingSide == .left && again.notes.count == 1 && again.notes.allSatisfy(isRing), "\(again.notes.map { ($0.kind, $0.text) })")
    }

    @Test("with no --driving-side, build --osm and regenerate --osm take the side from the map's roundabouts: clockwise, the book keeps left and says so; a side given against them is kept, with a warning")
    func drivingSideFromTheMap() async throws {
        let folder = try TemporaryFolder()
        try write(folder)
        let map = Self.extract.replacingOccurrences(of: "</osm>", with: Self.grid.clockwiseRingsXML([(150, 80), (450, -80)], firstID: 100) + "</osm>")
        try map.write(to: folder.path("left.osm"), atomically: true, encoding: .utf8)
        func build(_ name: String, osm: String, _ extra: [String] = []) async throws -> (Book, String) {
            let r = await roadbook(["build", folder.path("one.gpx").path, "-o", folder.path("\(name).pdf").path,
                                    "--book", folder.path("\(name).json").path, "--osm", folder.path(osm).path] + extra)
            #expect(r.status == 0, "\(r.errors)")
            return (try BookFile.read(contentsOf: folder.path("\(name).json")), r.output + r.errors)
        }
        let (left, said) = try await build("left", osm: "left.osm")
        #expect(left.settings.drivingSide == .left)
        #expect(said.contains("traffic keeps left here: the map's roundabouts run clockwise (2 roundabouts, all clockwise)"), "\(said)")
        let (given, warned) = try await build("given", osm: "left.osm", ["--driving-side", "right"])
        #expect(given.settings.drivingSide == .right)
        #expect(warned.contains("warning: --driving-side right, but the map's roundabouts run clockwise (2 roundabouts, all clockwise), as where traffic keeps left"), "\(warned)")
        // A map with no roundabouts says nothing, and the book keeps right without writing it.
        let (plain, quiet) = try await build("plain", osm: "x.osm")
        #expect(plain.settings.drivingSide == nil && !quiet.contains("roundabouts run"), "\(quiet)")
        // Regenerated on the map whose rings run clockwise, a book that gave no side takes left; one
        // that says right keeps it, with the warning.
        let regen = await roadbook(["regenerate", folder.path("plain.json").path, "--route", folder.path("one.gpx").path,
                                    "--osm", folder.path("left.osm").path])
        #expect(regen.status == 0 && (regen.output + regen.errors).contains("traffic keeps left here"), "\(regen.errors)")
        #expect(try BookFile.read(contentsOf: folder.path("plain.json")).settings.drivingSide == .left)
        let kept = await roadbook(["regenerate", folder.path("given.json").path, "--route", folder.path("one.gpx").path,
                                   "--osm", folder.path("left.osm").path])
        #expect(kept.status == 0 && (kept.output + kept.errors).contains("warning: the book says right, but the map's roundabouts run clockwise"), "\(kept.errors)")
        #expect(try BookFile.read(contentsOf: folder.path("given.json")).settings.drivingSide == .right)
    }

    /// A square of residential streets 200 m across with no road through its middle, a street
    /// from the middle of its south side (h) to j, and one from the middle of its north side (b) to k:
    ///
    ///     a - b - c
    ///     |   k   |      (k 100 m north of b)
    ///     d       f
    ///     |       |
    ///     g - h - i
    ///         j          (100 m south of h)
    ///
    /// From j to k both ways round are 600 m, and each has two turns where three roads meet: left at
    /// h and left at b by the west side, right at both by the east side.
    static var square: String {
        let nodes: [(Double, Double)] = [(0, 200), (100, 200), (200, 200), (0, 100), (200, 100), (0, 0), (100, 0), (200, 0),
                                         (100, -100), (100, 300)]
        var xml = "<?xml version=\"1.0\"?>\n<osm version=\"0.6\">\n"
        for (i, p) in nodes.enumerated() {
            let c = grid(p.0, p.1)
            xml += "<node id=\"\(i + 1)\" lat=\"\(c.latitude)\" lon=\"\(c.longitude)\"/>\n"
        }
        // a b c d f g h i j k = 1 … 10
        for (id, refs) in [(20, [9, 7]), (21, [6, 7, 8]), (22, [1, 4, 6]), (23, [3, 5, 8]), (24, [1, 2, 3]), (25, [2, 10])] {
            xml += "<way id=\"\(id)\">" + refs.map { "<nd ref=\"\($0)\"/>" }.joined() + "<tag k=\"highway\" v=\"residential\"/></way>\n"
        }
        return xml + "</osm>\n"
    }

    @Test("--driving-side left, or a map whose roundabouts run clockwise, routes the embedded router round the side where the turns do not cross traffic, and the book keeps the side")
    func drivingSideRoutes() async throws {
        let folder = try TemporaryFolder()
        try Self.square.write(to: folder.path("square.osm"), atomically: true, encoding: .utf8)
        let j = Self.grid(100, -100), k = Self.grid(100, 300)
        func westOfMiddle(_ name: String, _ extra: [String]) async throws -> Bool {
            let r = await roadbook(["route", "--engine", "embedded", "--osm", folder.path("square.osm").path,
                                    "--book", folder.path(name).path, "--handle", "\(j.latitude) \(j.longitude)",
                                    "--handle", "\(k.latitude) \(k.longitude)", "--no-turns"] + extra)
            #expect(r.status == 0, "\(r.errors)")
            let points = try BookFile.read(contentsOf: folder.path(name)).route.coordinates
            #expect(abs(Polyline(points).length - 600) < 5)
            return points.contains { Self.grid.frame.project($0).x < 50 }
        }
        // Traffic keeping right turns right at h and at b: the east side.
        #expect(try await !westOfMiddle("right.json", []))
        #expect(try await westOfMiddle("left.json", ["--driving-side", "left"]))
        #expect(try BookFile.read(contentsOf: folder.path("left.json")).settings.drivingSide == .left)
        // Not told, the router takes the side from the map's roundabouts: with two clockwise rings
        // beside the square, its turns keep left too.
        let withRings = Self.square.replacingOccurrences(of: "</osm>", with: Self.grid.clockwiseRingsXML([(-150, 100), (350, 100)], firstID: 100) + "</osm>")
        try withRings.write(to: folder.path("square.osm"), atomically: true, encoding: .utf8)
        #expect(try await westOfMiddle("rings.json", []))
        // …and the book keeps the side, as build --osm does.
        #expect(try BookFile.read(contentsOf: folder.path("rings.json")).settings.drivingSide == .left)
    }

    @Test("build never replaces a book file holding other work without --force; the same build again replaces nothing it would lose")
    func buildKeepsAnotherBook() async throws {
        let folder = try TemporaryFolder()
        try write(folder)
        let build = ["build", folder.path("two.gpx").path, "-o", folder.path("b.pdf").path, "--book", folder.path("b.json").path]
        #expect(await roadbook(build).status == 0)
        #expect(await roadbook(build).status == 0, "the same track and options make the same book: nothing is lost")
        // A person's words in the book: a new build would lose them.
        var book = try BookFile.read(contentsOf: folder.path("b.json"))
        book.notes[0].text = "Right at the red barn"
        try BookFile.write(book, to: folder.path("b.json"))
        let edited = try Data(contentsOf: folder.path("b.json")), pdf = try Data(contentsOf: folder.path("b.pdf"))
        let refused = await roadbook(build)
        #expect(refused.status == 1 && refused.errors.contains("--force") && refused.errors.contains("regenerate"), "\(refused.errors)")
        #expect(try Data(contentsOf: folder.path("b.json")) == edited && Data(contentsOf: folder.path("b.pdf")) == pdf,
                "a refused build writes nothing, the PDF neither")
        #expect(await roadbook(build + ["--force"]).status == 0)
        #expect(try BookFile.read(contentsOf: folder.path("b.json")).notes[0].text.hasPrefix("Turn right"))
    }

    @Test("a bad extract fails with its name and writes nothing")
    func badExtract() async throws {
        let folder = try TemporaryFolder()
        try write(folder)
        try "<osm><node id=\"1\" lat=\"95\" lon=\"0\"/></osm>".write(to: folder.path("bad.osm"), atomically: true, encoding: .utf8)
        let r = await roadbook(["build", folder.path("one.gpx").path, "-o", folder.path("b.pdf").path, "--osm", folder.path("bad.osm").path])
        #expect(r.status == 1 && r.errors.contains("bad.osm"), "\(r.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("b.pdf").path))
    }

    @Test("inspect --explain: every junction the route passes, which pass decided and why, and the row it became")
    func explain() async throws {
        let folder = try TemporaryFolder()
        try write(folder)
        // a → b → c straight along Main (b: a residential street north, a track south), back to b, then north.
        try Self.track("abcbd").write(to: folder.path("three.gpx"), atomically: true, encoding: .utf8)
        let build = await roadbook(["build", folder.path("three.gpx").path, "-o", folder.path("b.pdf").path,
                                    "--book", folder.path("b.json").path, "--osm", folder.path("x.osm").path])
        #expect(build.status == 0, "\(build.errors)")
        let run = await roadbook(["inspect", folder.path("b.json").path, "--explain", "--osm", folder.path("x.osm").path, "--json"])
        #expect(run.status == 0, "\(run.errors)")
        struct Decision: Decodable { var pass: String; var verdict: String }
        struct Record: Decodable { var distanceAlong: Double; var nodeID: Int64?; var decisions: [Decision]; var row: Int? }
        let records = try JSONDecoder().decode([Record].self, from: Data(run.output.utf8))
        // b is passed twice (at 300 m and at 900 m), c once as a U-turn at the end of the road.
        #expect(records.map(\.nodeID) == [2, 3, 2], "\(run.output)")
        guard records.count == 3 else { return }
        #expect(abs(records[0].distanceAlong - 300) < 5 && abs(records[2].distanceAlong - 900) < 5)
        // Straight on along Main past a residential street and a track: the obvious road, no row.
        #expect(records[0].row == nil)
        #expect(records[0].decisions.map(\.pass) == ["classify junctions"])
        #expect(records[0].decisions.first?.verdict.hasPrefix("no row: stays on the obvious road") == true, "\(run.output)")
        #expect(records[1].decisions.contains { $0.pass == "mark U-turns" && $0.verdict.hasPrefix("U-turn") }, "\(run.output)")
        // Coming back to b and turning right, north: a turn, and the book's row stands on it.
        let book = try BookFile.read(contentsOf: folder.path("b.json"))
        let row = try #require(records[2].row, "\(run.output)")
        #expect(book.notes[row - 1].text == "Turn right onto Cami Nord")
        #expect(records[2].decisions.last?.verdict.hasPrefix("Turn right onto Cami Nord") == true, "\(run.output)")

        let table = await roadbook(["inspect", folder.path("b.json").path, "--explain", "--osm", folder.path("x.osm").path])
        #expect(table.output.contains("→ row \(row): Turn right onto Cami Nord"), "\(table.output)")
        let misuse = await roadbook(["inspect", folder.path("b.json").path, "--osm", folder.path("x.osm").path])
        #expect(misuse.status == 64 && misuse.errors.contains("--osm and --mode are for --explain"), "\(misuse.errors)")
    }

    @Test("without a map, build warns of a scattered track and inspect --explain says how each track reads: a drawn line, a receiver's logged densely, a scattered one")
    func shapeReadings() async throws {
        let folder = try TemporaryFolder()
        let road: [(Double, Double)] = [(0, 0), (600, 0), (600, -600)]
        let tracks = [("drawn", Self.grid.line(road, step: 10), "a routed or drawn line ("),
                      ("dense", Self.grid.recorded(road, jitter: 1, spacing: 1, seed: 5), "a receiver's track"),
                      ("scattered", Self.grid.recorded(road, seed: 5), "scattered: metres of independent error")]
        for (name, points, reads) in tracks {
            try gpxTrack(points).write(to: folder.path("\(name).gpx"), atomically: true, encoding: .utf8)
            let build = await roadbook(["build", folder.path("\(name).gpx").path, "-o", folder.path("\(name).pdf").path,
                                        "--book", folder.path("\(name).json").path])
            #expect(build.status == 0, "\(name): \(build.errors)")
            let warned = build.errors.contains("warning: \(name).gpx: turns come from the track's shape") && build.errors.contains("--osm")
            #expect(warned == (name == "scattered"), "\(name): \(build.errors)")
            let explain = await roadbook(["inspect", folder.path("\(name).json").path, "--explain"])
            #expect(explain.status == 0, "\(name): \(explain.errors)")
            let lines = explain.output.split(separator: "\n").map(String.init)
            #expect(lines.count > 2 && lines[1].hasPrefix("The track reads as \(reads)"), "\(name): \(explain.output)")
            #expect(lines.contains { $0.contains("Turn right") }, "\(name): the corner is found: \(explain.output)")
            #expect(explain.output.contains("read from the means of its fixes over 5 m") == (name == "dense"), "\(name): \(explain.output)")
        }
    }
}
