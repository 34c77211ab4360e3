import Foundation
import Formats
import Geo
import Model
import RoadbookCLI
import Testing
import TestSupport

/// A person's rows on every kind of book a person starts from (the change matrix's: a track with
/// waypoints, handles, and the sample exported to KML, GeoJSON, RN2 and OpenRally and built again):
/// each change of `note` lands once, survives a move of the route and its Apply, and undo takes
/// everything back to the very bytes.
@Suite("A person's rows on every kind of book: each change once, kept through an Apply, undone to the bytes")
struct NoteMatrixTests {
    @Test("add, edit, tulip, remove, restore, move; then a handle moved and applied; then undo to the start",
          arguments: ChangeMatrixTests.Kind.allCases)
    func rows(_ kind: ChangeMatrixTests.Kind) async throws {
        let folder = try TemporaryFolder()
        let url = folder.path("book.json")
        let original = try await MatrixBooks.shared.bytes(of: kind)
        try original.write(to: url)
        let path = url.path
        try await run(["note", path, "add", "Pass left of the well", "--at", "1.5km", "--danger", "2", "--symbol", "water"], kind)
        try await run(["note", path, "edit", "1", "--text", "Start: zero the trip", "--symbol", "+fuel"], kind)
        try await run(["note", path, "tulip", "2", "add-road", "-60", "track"], kind)
        try await run(["note", path, "remove", "3"], kind)
        try await run(["note", path, "restore", "3"], kind)
        let well = try #require(try BookFile.read(contentsOf: url).notes.first { $0.text == "Pass left of the well" })
        try await run(["note", path, "move", "#\(well.id)", "--by", "+40m"], kind)
        let written = try BookFile.read(contentsOf: url)
        #expect(written.notes.filter { $0.text == "Pass left of the well" }.count == 1, "[\(kind)] the note is in once")
        #expect(written.notes.filter { $0.text == "Start: zero the trip" }.count == 1, "[\(kind)] the edited words are in once")
        #expect(written.notes.contains { $0.tulip?.origin == .drawn }, "[\(kind)] the corrected tulip is drawn by hand")

        try await run(["handles", path, "move", "3", Self.nudged(written)] + MatrixBooks.engine, kind)
        try await run(["apply", path, "--osm", MatrixBooks.extract.path], kind)
        let applied = try BookFile.read(contentsOf: url)
        for words in ["Pass left of the well", "Start: zero the trip"] {
            #expect(applied.notes.filter { $0.text == words }.count == 1, "[\(kind)] '\(words)' is in once after the Apply")
        }
        #expect(applied.notes.contains { $0.tulip?.origin == .drawn }, "[\(kind)] the tulip drawn by hand stays after the Apply")
        while await roadbook(["undo", path]).status == 0 {}
        #expect(try Data(contentsOf: url) == original, "[\(kind)] every step undone gives back the book as built")
    }

    @Test("a note off the route is listed by inspect without a number, and 'note' names rows by the numbers printed")
    func offRouteNote() async throws {
        let folder = try TemporaryFolder()
        let url = folder.path("book.json")
        try await MatrixBooks.shared.bytes(of: .track).write(to: url)
        let book = try BookFile.read(contentsOf: url)
        // 0.003° north of the route's tenth point: some 330 m off it, farther than a note is placed.
        let near = book.route.coordinates[book.route.coordinates.count / 10]
        let off = String(format: "%.6f,%.6f", near.latitude + 0.003, near.longitude)
        try await run(["note", url.path, "add", "Well", "--at", off], .track)
        let listed = await roadbook(["inspect", url.path]).output.split(separator: "\n").dropFirst().map(String.init)
        let well = try #require(listed.firstIndex { $0.contains("Well") })
        #expect(listed[well].hasPrefix("  –  ") && listed[well].contains("(off route by"), "\(listed[well])")
        let numbers = listed.compactMap { Int($0.prefix(3).trimmingCharacters(in: .whitespaces)) }
        #expect(numbers == Array(1...(listed.count - 1)), "the rows on the route are numbered 1, 2, … with no gap")
        // The row after the note off the route keeps the number inspect gives it.
        let after = try #require(Int(listed[well + 1].prefix(3).trimmingCharacters(in: .whitespaces)))
        let edited = await roadbook(["note", url.path, "edit", String(after), "--danger", "1"])
        #expect(edited.output.hasPrefix("Edit row \(after) ") && edited.output.contains("\nrow \(after) at "), "\(edited.output)")
    }

    @Test("note add --at-handle on a book from a track: at the handle its route traces into, as handles list shows it")
    func atTracedHandle() async throws {
        let folder = try TemporaryFolder()
        let url = folder.path("book.json")
        try await MatrixBooks.shared.bytes(of: .track).write(to: url)
        let listed = listedHandleCoordinates(await roadbook(["handles", url.path, "list"]).output)
        #expect(listed.count > 5)
        try await run(["note", url.path, "add", "Fuel", "--at-handle", "5"], .track)
        let fuel = try #require(try BookFile.read(contentsOf: url).notes.first { $0.text == "Fuel" })
        #expect(fuel.placement == .onRoute)
        #expect(fuel.coordinate.distance(to: listed[4]) < 0.5, "\(fuel.coordinate) vs handle 5 at \(listed[4])")
        let refused = await roadbook(["note", url.path, "add", "Fuel", "--at-handle", "999"])
        #expect(refused.status != 0 && refused.errors.contains("there is no handle 999: the route traced into handles has"), "\(refused.errors)")
    }

    func run(_ arguments: [String], _ kind: ChangeMatrixTests.Kind) async throws {
        let result = await roadbook(arguments)
        guard result.status == 0 else { throw TestFailure("[\(kind)] roadbook \(arguments.joined(separator: " ")): \(result.errors)") }
    }

    /// Handle 3's place moved some 30 m along the route: the route's point a little after the third
    /// of its length.
    static func nudged(_ book: Book) -> String {
        let point = book.route.coordinates[book.route.coordinates.count / 3]
        return String(format: "%.6f,%.6f", point.latitude + 0.0002, point.longitude)
    }
}
