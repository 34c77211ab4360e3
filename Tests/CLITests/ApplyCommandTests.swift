import Foundation
import Formats
import Model
import RoadbookCLI
import Testing
import TestSupport

/// `roadbook apply`, `undo-apply` and `remove-route` on a book built by `route` with the embedded
/// router over the Andorra extract. A book applied to its own route is refused: there is nothing to
/// apply until the drawing beside it differs.
@Suite("roadbook apply, undo-apply, remove-route")
struct ApplyCommandTests {
    static func routeBook(in folder: TemporaryFolder) async throws -> URL {
        let extract = try testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf")
        let book = folder.path("b.json")
        let r = await roadbook(["route", "--engine", "embedded", "--osm", extract.path, "--book", book.path,
                                "--handle", "42.5063 1.5218 | Cattle grid | CP1", "--handle", "42.5100 1.5330",
                                "--handle", "42.5160 1.5390 | Fuel"])
        #expect(r.status == 0, "\(r.errors)")
        return book
    }

    @Test("apply names the turns that changed and prints one summary line, keeping the book's notes; undo-apply puts the book back once; a second undo is refused in one line")
    func applyAndUndo() async throws {
        let folder = try TemporaryFolder()
        let book = try await Self.routeBook(in: folder)
        let before = try Data(contentsOf: book)
        let own = await roadbook(["apply", book.path])
        #expect(own.status == 1 && own.errors.contains("nothing to apply"), "its own route: nothing to apply: \(own.errors)")
        let extract = try testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf")
        let kind = await roadbook(["handles", book.path, "kind", "2", "straight", "--engine", "embedded", "--osm", extract.path])
        #expect(kind.status == 0, "\(kind.errors)")
        let applied = await roadbook(["apply", book.path])
        #expect(applied.status == 0, "\(applied.errors)")
        let lines = applied.output.split(separator: "\n")
        #expect(lines.dropLast().allSatisfy { ["changed at ", "removed at ", "kept at ", "joined at "].contains(where: $0.hasPrefix) },
                "the turns that changed, one line each, then one summary line: \(applied.output)")
        let after = try BookFile.read(contentsOf: book)
        #expect(after.notes.filter { $0.handleID != nil }.map(\.text) == ["Cattle grid", "Fuel"])
        #expect(FileManager.default.fileExists(atPath: folder.path("b.journal.json").path), "the Apply is a step of the book's journal")
        #expect(after.plan?.legs[1].kind == .straight)
        let undone = await roadbook(["undo-apply", book.path])
        #expect(undone.status == 0 && undone.output.hasPrefix("undone:"), "\(undone.errors)")
        #expect(try Data(contentsOf: book) == before)
        let again = await roadbook(["undo-apply", book.path])
        #expect(again.status == 1)
        #expect(again.errors.split(separator: "\n").count == 1 && again.errors.contains("not a change of route"),
                "what is left to undo is the drawing's step, not an Apply: \(again.errors)")
    }

    @Test("remove-route says what went and keeps typed notes; undo-apply brings the route back")
    func removeRoute() async throws {
        let folder = try TemporaryFolder()
        let book = try await Self.routeBook(in: folder)
        var typed = try BookFile.read(contentsOf: book)
        typed.notes.append(Note(id: 999, kind: .typed, distanceAlong: typed.notes[2].distanceAlong,
                                coordinate: typed.notes[2].coordinate, text: "Bakery"))
        typed.notes.sort { $0.distanceAlong < $1.distanceAlong }
        try BookFile.write(typed, to: book)
        let turns = typed.notes.filter { $0.kind == .turn }.count
        let r = await roadbook(["remove-route", book.path])
        #expect(r.status == 0, "\(r.errors)")
        #expect(r.output == "route removed: \(turns) turns and 2 handle notes went, 1 note stays\n")
        #expect(try BookFile.read(contentsOf: book).notes.map(\.text) == ["Bakery"])
        let inspect = await roadbook(["inspect", book.path])
        #expect(inspect.output.contains("route removed"), "\(inspect.output)")
        #expect(await roadbook(["undo-apply", book.path]).status == 0)
        #expect(try BookFile.read(contentsOf: book) == typed)
    }

    @Test("apply options are checked: a --resolve that is not ID=move|remove|keep is a usage error; a book without a plan is refused")
    func refusals() async throws {
        let folder = try TemporaryFolder()
        let book = try await Self.routeBook(in: folder)
        let bad = await roadbook(["apply", book.path, "--resolve", "7=burn"])
        #expect(bad.status == 64 && bad.errors.contains("--resolve '7=burn'"))
        var plain = try BookFile.read(contentsOf: book)
        plain.plan = nil
        // Without handles no row is a handle's (a book that says otherwise is not saved).
        for i in plain.notes.indices { plain.notes[i].handleID = nil }
        try BookFile.write(plain, to: book)
        let none = await roadbook(["apply", book.path])
        #expect(none.status == 1 && none.errors.contains("no drawn route to apply"), "\(none.errors)")
    }
}
