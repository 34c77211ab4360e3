import Foundation
import Formats
import Geo
import Model
import RoadbookCLI
import Testing
import TestSupport

/// Every kind of book a person starts from, through every change of its route, as the command
/// line makes them: the notes after a change are the notes before (moved), plus what the change
/// says it added, minus what it says it removed, and never two copies of one note. Offline, with
/// the embedded router over the Andorra extract.
///
/// The kinds are the ways a book is made: a recorded track with waypoints (the sample), a route
/// through handles, and a file of another format (KML, GeoJSON, RN2, OpenRally) that `export`
/// wrote from the sample's book. `ChangeSequenceTests` runs random sequences of the same changes on
/// books made from random stretches and handles.
@Suite("Every change on every kind of book keeps the notes: moved, plus what was added, minus what was removed")
struct ChangeMatrixTests {
    enum Kind: String, CaseIterable, Sendable, CustomStringConvertible {
        case track, kml, geojson, rn2, openrally, handles
        var description: String { rawValue }
    }

    enum Change: String, CaseIterable, Sendable, CustomStringConvertible {
        case move, add, remove, reverse, clearAndDraw, regenerate, retry, removeRoute, undoApply
        var description: String { rawValue }
    }

    @Test("the notes after the change are the notes before, plus the report's added, minus its removed",
          arguments: Kind.allCases, Change.allCases)
    func change(_ kind: Kind, _ change: Change) async throws {
        let folder = try TemporaryFolder()
        let url = folder.path("book.json")
        try await MatrixBooks.shared.bytes(of: kind).write(to: url)
        let before = try BookFile.read(contentsOf: url)
        let outcome = try await ChangeRunner(url: url, book: before).run(change)
        try ChangeRunner.check(before: before, after: BookFile.read(contentsOf: url), outcome: outcome,
                               step: "\(kind) → \(change)")
        if change == .undoApply {
            let original = try await MatrixBooks.shared.bytes(of: kind)
            #expect(try Data(contentsOf: url) == original,
                    "[\(kind) → undo-apply] undo puts back the very bytes of the book before the Apply")
        }
    }

    @Test("a book from a track keeps one row per waypoint through move and apply (the sample, as a new user tries it)")
    func sampleTrackMoveApply() async throws {
        let folder = try TemporaryFolder()
        let url = folder.path("book.json")
        try await MatrixBooks.shared.bytes(of: .track).write(to: url)
        let before = try BookFile.read(contentsOf: url)
        let moved = await roadbook(["handles", url.path, "move", "5", "42.4905,1.4995"] + MatrixBooks.engine)
        #expect(moved.status == 0, "\(moved.errors)")
        let applied = await roadbook(["apply", url.path, "--osm", MatrixBooks.extract.path])
        #expect(applied.status == 0, "\(applied.errors)")
        let after = try BookFile.read(contentsOf: url)
        #expect(after.notes.count == before.notes.count, "28 rows stay 28 rows: \(applied.output)")
        #expect(!applied.output.contains("handle note"), "no handle note is added to a book from a track: \(applied.output)")
        for old in before.notes where old.kind != .turn {
            let now = try #require(after.notes.first { $0.id == old.id }, "#\(old.id) '\(old.text)' is kept")
            #expect(now.resetsOdometer == old.resetsOdometer && now.waypointType == old.waypointType,
                    "#\(old.id) keeps its odometer reset and waypoint type")
            #expect((now.tulip == nil) == (old.tulip == nil), "#\(old.id) keeps its tulip")
        }
    }
}

/// The source books of the matrix, each made once per test run from the sample.
actor MatrixBooks {
    static let shared = MatrixBooks()
    static var extract: URL { (try? testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf")) ?? URL(fileURLWithPath: "/") }
    static var engine: [String] { ["--engine", "embedded", "--osm", extract.path] }
    static var sample: URL { (try? testDataFolder().deletingLastPathComponent().appendingPathComponent("andorra-envalira.gpx")) ?? URL(fileURLWithPath: "/") }

    /// The handles of the book-life scenario: five across Andorra la Vella and Escaldes, four with notes.
    static var handles: [String] { BookLifeScenarioTests.handles }

    private let folder = try? TemporaryFolder()
    private var made: [ChangeMatrixTests.Kind: Data] = [:]
    /// The books being made: an actor is reentrant at each `await`, so a second test asking for a
    /// kind while the first is making it waits for that making instead of making it again (which
    /// `route` refuses, the book existing).
    private var making: [ChangeMatrixTests.Kind: Task<Data, any Error>] = [:]

    func bytes(of kind: ChangeMatrixTests.Kind) async throws -> Data {
        if let data = made[kind] { return data }
        if let task = making[kind] { return try await task.value }
        let task = Task { try await self.make(kind) }
        making[kind] = task
        defer { making[kind] = nil }
        return try await task.value
    }

    private func make(_ kind: ChangeMatrixTests.Kind) async throws -> Data {
        if let data = made[kind] { return data }
        let folder = try #require(folder)
        let url = folder.path("\(kind).json")
        switch kind {
        case .track:
            try await Self.run(["build", Self.sample.path, "-o", folder.path("track.pdf").path, "--book", url.path,
                                "--osm", Self.extract.path])
        case .handles:
            try await Self.run(["route", "--book", url.path, "--title", "Andorra loop"]
                               + Self.handles.flatMap { ["--handle", $0] } + Self.engine)
        case .kml, .geojson, .rn2, .openrally:
            let track = folder.path("track.json")
            if made[.track] == nil { _ = try await bytes(of: .track) }
            let file = folder.path(kind == .openrally ? "openrally.gpx" : "exported.\(kind)")
            try await Self.run(["export", track.path, "-o", file.path] + (kind == .openrally ? ["--format", "openrally"] : []))
            try await Self.run(["build", file.path, "-o", folder.path("\(kind).pdf").path, "--book", url.path,
                                "--osm", Self.extract.path])
        }
        let data = try Data(contentsOf: url)
        made[kind] = data
        return data
    }

    static func run(_ arguments: [String]) async throws {
        let result = await roadbook(arguments)
        guard result.status == 0 else {
            throw TestFailure("roadbook \(arguments.joined(separator: " ")) failed: \(result.errors)")
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// One change made through the command line on the book at `url`, and what its report said.
struct ChangeRunner {
    struct Outcome {
        /// The printed lines of the change's last command.
        var output = ""
        /// Non-turn notes the report says were added, and removed.
        var added = 0
        var removed = 0
        /// The change was refused (and so must leave the book as it was).
        var refused = false
    }

    let url: URL
    let book: Book

    /// `handles BOOK …` with the embedded router: nil when the edit was made, else the refusal
    /// (a handle the drawing does not have), which changes nothing.
    func handles(_ words: [String]) async -> Outcome? {
        let result = await roadbook(["handles", url.path] + words + MatrixBooks.engine)
        return result.status == 0 ? nil : Outcome(output: "handles \(words.joined(separator: " ")): \(result.errors)", refused: true)
    }

    /// Two places on the book's route: a quarter and three quarters along it.
    func placesOnRoute() -> (Coordinate, Coordinate) {
        let line = Polyline(book.route.coordinates)
        return (line.coordinate(atDistance: line.length / 4), line.coordinate(atDistance: line.length * 3 / 4))
    }

    func run(_ change: ChangeMatrixTests.Change) async throws -> Outcome {
        let (quarter, threeQuarters) = placesOnRoute()
        func text(_ c: Coordinate) -> String { String(format: "%.6f,%.6f", c.latitude, c.longitude) }
        var edits: [[String]] = []
        switch change {
        case .move: edits = [["move", "2", text(quarter)]]
        case .add: edits = [["add", text(quarter), "--at", "2"]]
        case .remove: edits = [["remove", "2"]]
        case .reverse: edits = [["reverse"]]
        case .clearAndDraw: edits = [["clear"], ["add", text(quarter)], ["add", text(threeQuarters)]]
        case .regenerate:
            return Self.outcome(await roadbook(["regenerate", url.path, "--route", MatrixBooks.sample.path,
                                                "--osm", MatrixBooks.extract.path]))
        case .retry:
            return Self.outcome(await roadbook(["route", "--book", url.path, "--retry"] + MatrixBooks.engine))
        case .removeRoute:
            return Self.outcome(await roadbook(["remove-route", url.path]))
        case .undoApply:
            if let refused = await handles(["move", "2", text(quarter)]) { return refused }
            let applied = await roadbook(["apply", url.path, "--osm", MatrixBooks.extract.path])
            guard applied.status == 0 else { throw TestFailure("apply: \(applied.errors)") }
            var outcome = Self.outcome(await roadbook(["undo-apply", url.path]))
            outcome.added = 0
            outcome.removed = 0
            return outcome
        }
        for edit in edits {
            if let refused = await handles(edit) { return refused }
        }
        return Self.outcome(await roadbook(["apply", url.path, "--osm", MatrixBooks.extract.path]))
    }

    /// The counts a command's summary gives: "2 handle notes added", "1 off the route removed",
    /// remove-route's "… and 3 handle notes went".
    static func outcome(_ result: (status: Int32, output: String, errors: String)) -> Outcome {
        var outcome = Outcome(output: result.output + result.errors, refused: result.status != 0)
        func count(_ pattern: String) -> Int {
            guard let regex = try? NSRegularExpression(pattern: "(\\d+) " + pattern) else { return 0 }
            let text = result.output
            return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).reduce(0) { sum, match in
                sum + (Range(match.range(at: 1), in: text).flatMap { Int(text[$0]) } ?? 0)
            }
        }
        outcome.added = count("handle notes? added")
        outcome.removed = count("handle notes? removed") + count("off the route removed") + count("handle notes? went")
        return outcome
    }

    /// The rules every change keeps, each failure naming the step and the rule.
    static func check(before: Book, after: Book, outcome: Outcome, step: String,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        do { try after.checkInvariants() } catch {
            Issue.record("[\(step)] the book keeps its invariants: \(error)", sourceLocation: sourceLocation)
        }
        do { try after.validate() } catch {
            Issue.record("[\(step)] the book is valid: \(error)", sourceLocation: sourceLocation)
        }
        if outcome.refused {
            #expect(after == before, "[\(step)] a refused change leaves the book as it was: \(outcome.output)",
                    sourceLocation: sourceLocation)
            return
        }
        // A generated turn row comes and goes with the road; every other note is a person's (typed,
        // a waypoint, a handle's, a row of an imported file, a turn whose words a person changed).
        func persons(_ book: Book) -> [Int: Note] {
            let kept = book.notes.filter { note in
                note.kind != .turn || note.handleID != nil || note.generated.map { $0.text != note.text } ?? true
            }
            return Dictionary(kept.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        }
        let old = persons(before), new = persons(after)
        let all = Dictionary(after.notes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let known = Set(before.notes.map(\.id))
        let gone = old.keys.filter { all[$0] == nil }.sorted(), came = new.keys.filter { !known.contains($0) }.sorted()
        #expect(gone.count == outcome.removed,
                "[\(step)] the notes that went (\(gone.map { "#\($0) '\(old[$0]?.text ?? "")'" })) are those the report says were removed (\(outcome.removed)): \(outcome.output)",
                sourceLocation: sourceLocation)
        #expect(came.count == outcome.added,
                "[\(step)] the notes that came (\(came.map { "#\($0) '\(new[$0]?.text ?? "")'" })) are those the report says were added (\(outcome.added)): \(outcome.output)",
                sourceLocation: sourceLocation)
        for (id, was) in old {
            guard let now = all[id] else { continue }
            #expect(now.text == was.text && now.marker == was.marker && now.waypointType == was.waypointType
                    && now.danger == was.danger && now.symbols == was.symbols && now.resetsOdometer == was.resetsOdometer,
                    "[\(step)] #\(id) '\(was.text)' keeps its words, marker, type, danger, symbols and odometer reset",
                    sourceLocation: sourceLocation)
            if was.tulip?.origin == .drawn {
                #expect(now.tulip == was.tulip, "[\(step)] #\(id)'s drawn tulip is kept", sourceLocation: sourceLocation)
            }
        }
    }
}

/// Random books through random sequences of changes: the same rules as `ChangeMatrixTests`, on
/// stretches, waypoints and handles nobody chose. A seed that fails is named, so it can be run again.
@Suite("Random books through random sequences of changes keep their notes")
struct ChangeSequenceTests {
    /// The sample track's points: every random book stands on the roads it follows.
    static func samplePoints() throws -> [Coordinate] {
        let text = try String(contentsOf: MatrixBooks.sample, encoding: .utf8)
        let regex = try NSRegularExpression(pattern: #"<trkpt lat="([-0-9.]+)" lon="([-0-9.]+)""#)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { m in
            guard let lat = Range(m.range(at: 1), in: text).flatMap({ Double(text[$0]) }),
                  let lon = Range(m.range(at: 2), in: text).flatMap({ Double(text[$0]) }) else { return nil }
            return Coordinate(latitude: lat, longitude: lon)
        }
    }

    /// A book made from a random stretch of the sample: a track with a DSS, an ASS, random
    /// waypoints (one of them 200 m off the road), read as GPX or exported first to another format;
    /// or a route through random handles on that stretch, half of them with notes.
    static func randomBook(seed: UInt64, in folder: TemporaryFolder) async throws -> (url: URL, kind: String) {
        var random = SeededGenerator(seed: seed)
        let points = try samplePoints()
        let start = Int.random(in: 0..<(points.count * 2 / 3), using: &random)
        let stretch = Array(points[start..<min(points.count, start + Int.random(in: 60...200, using: &random))])
        let url = folder.path("book.json")
        if Bool.random(using: &random) {
            let count = Int.random(in: 3...6, using: &random)
            let handles = (0..<count).map { k -> String in
                let c = stretch[k * (stretch.count - 1) / (count - 1)]
                let note = Bool.random(using: &random) ? " | Note \(k + 1)" : ""
                return String(format: "%.6f %.6f", c.latitude, c.longitude) + note
            }
            try await MatrixBooks.run(["route", "--book", url.path] + handles.flatMap { ["--handle", $0] } + MatrixBooks.engine)
            return (url, "handles \(handles)")
        }
        var waypoints = [(stretch[0], "DSS", "Start"), (stretch[stretch.count - 1], "ASS", "Finish")]
        for k in 0..<Int.random(in: 2...5, using: &random) {
            let c = stretch[Int.random(in: 1..<(stretch.count - 1), using: &random)]
            waypoints.append((c, ["CP", "WPV", ""].randomElement(using: &random) ?? "", "Note \(k + 1)"))
        }
        let off = stretch[stretch.count / 2]
        waypoints.append((Coordinate(latitude: off.latitude + 0.0018, longitude: off.longitude), "", "Far off"))
        let wpts = waypoints.map { c, type, name in
            String(format: #"<wpt lat="%.6f" lon="%.6f"><name>%@</name>%@</wpt>"#, c.latitude, c.longitude, name,
                   type.isEmpty ? "" : "<type>\(type)</type>")
        }.joined(separator: "\n")
        let gpx = gpxTrack(stretch).replacingOccurrences(of: "<trk>", with: wpts + "\n<trk>")
        let track = folder.path("track.gpx")
        try gpx.write(to: track, atomically: true, encoding: .utf8)
        let format = ["gpx", "kml", "geojson", "rn2", "openrally"].randomElement(using: &random) ?? "gpx"
        var source = track
        if format != "gpx" {
            try await MatrixBooks.run(["build", track.path, "-o", folder.path("first.pdf").path, "--book", folder.path("first.json").path,
                                       "--osm", MatrixBooks.extract.path])
            source = folder.path(format == "openrally" ? "exported.gpx" : "exported.\(format)")
            try await MatrixBooks.run(["export", folder.path("first.json").path, "-o", source.path]
                                      + (format == "openrally" ? ["--format", "openrally"] : []))
        }
        try await MatrixBooks.run(["build", source.path, "-o", folder.path("book.pdf").path, "--book", url.path,
                                   "--osm", MatrixBooks.extract.path])
        return (url, "track of \(stretch.count) points from point \(start), as \(format)")
    }

    @Test("three random changes on a random book", arguments: Array(UInt64(1)...12))
    func sequence(seed: UInt64) async throws {
        let folder = try TemporaryFolder()
        let (url, kind) = try await Self.randomBook(seed: seed, in: folder)
        var random = SeededGenerator(seed: seed &* 7919)
        for step in 1...3 {
            let change = ChangeMatrixTests.Change.allCases.randomElement(using: &random) ?? .move
            let before = try BookFile.read(contentsOf: url)
            let outcome = try await ChangeRunner(url: url, book: before).run(change)
            try ChangeRunner.check(before: before, after: BookFile.read(contentsOf: url), outcome: outcome,
                                   step: "seed \(seed), \(kind), step \(step): \(change)")
        }
    }
}
