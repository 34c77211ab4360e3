import Foundation
import Formats
import Geo
import Model
import RoadbookCLI
import Testing
import TestSupport

/// An organiser's week on one book, driven only through the command line as a person types it:
/// a book built from the sample track, 40 typed notes with dangers and symbols, 10 tulip
/// corrections, 30 handle edits with applies and undos, a regeneration from a new recording, and
/// then every change undone. After every step the notes the person wrote are in the book exactly
/// once with their words; at the end the book is the original, byte for byte. Offline: the
/// embedded router over the Andorra extract. The kinds of book and the random stretches are the
/// change matrix's (`ChangeMatrixTests`); this is one long life.
@Suite("An organiser's week, by command: every note written stays once, and undo takes it all back")
struct OrganisersWeekTests {
    /// The words of every note the organiser typed, and the ones they removed since.
    struct Written {
        var words: [String] = []
        var removed: Set<String> = []
    }

    @Test("40 notes, 10 tulips, 30 handle edits with applies and undos, a regeneration; then undo to the very bytes")
    func week() async throws {
        let folder = try TemporaryFolder()
        let url = folder.path("book.json")
        let original = try await MatrixBooks.shared.bytes(of: .track)
        try original.write(to: url)
        var random = SeededGenerator(seed: 20261205)
        var written = Written()
        let length = try BookFile.read(contentsOf: url).route.coordinates.polylineLength

        for i in 1...40 {
            let words = "Note \(i): " + ["Pass left of the well", "!! Hole after the crest", "Cattle grid", "Ford, 30 cm"][i % 4]
            let km = String(format: "%.3fkm", (0.2 + random.uniform() * (length / 1000 - 0.4)))
            let symbol = ["fuel", "ford", "cattleGrid", "hole", "gate"][Int(random.next() % 5)]
            try await step(["note", url.path, "add", words, "--at", km, "--danger", String(i % 4), "--symbol", symbol])
            written.words.append(words)
            try check(url, written, after: "note add \(i)")
        }
        for i in 1...10 {
            let row = String(1 + Int(random.next() % 20))
            let edit = i % 2 == 0 ? ["add-road", String(-150 + Int(random.next() % 300)), "track"] : ["exit", String(-90 + Int(random.next() % 180))]
            try await step(["note", url.path, "tulip", row] + edit)
            try check(url, written, after: "tulip \(i)")
        }
        try await handleWeek(url, &random, &written)
        try await regenerate(url, folder: folder, written)
        try await undoAll(url)
        #expect(try Data(contentsOf: url) == original, "after every undo the book is the one built, byte for byte")
    }

    /// 30 handle edits: handles moved a few tens of metres, an apply after every fifth, and now and
    /// then the last change undone.
    func handleWeek(_ url: URL, _ random: inout SeededGenerator, _ written: inout Written) async throws {
        for i in 1...30 {
            let summary = try BookFile.read(contentsOf: url)
            let handles = summary.plan?.handles.count ?? 40
            let n = 2 + Int(random.next() % UInt64(max(1, handles - 2)))
            let at = summary.route.coordinates[Int(random.next() % UInt64(summary.route.coordinates.count))]
            let moved = Coordinate(latitude: at.latitude + (random.uniform() - 0.5) * 0.0004,
                                   longitude: at.longitude + (random.uniform() - 0.5) * 0.0004)
            try await step(["handles", url.path, "move", String(n), String(format: "%.6f,%.6f", moved.latitude, moved.longitude)]
                           + MatrixBooks.engine)
            if i % 5 == 0 { try await step(["apply", url.path, "--osm", MatrixBooks.extract.path]) }
            if i % 7 == 0 { try await step(["undo", url.path]) }
            try check(url, written, after: "handle edit \(i)")
        }
    }

    /// A new recording of the stage (the sample with a few metres of receiver drift), regenerated.
    func regenerate(_ url: URL, folder: TemporaryFolder, _ written: Written) async throws {
        let track = try GPXReader.read(contentsOf: MatrixBooks.sample).tracks.flatMap { $0.segments.joined() }.map(\.coordinate)
        var random = SeededGenerator(seed: 7)
        let drifted = track.map { Coordinate(latitude: $0.latitude + (random.uniform() - 0.5) * 0.00003,
                                              longitude: $0.longitude + (random.uniform() - 0.5) * 0.00003) }
        let recording = folder.path("new-recording.gpx")
        try gpxTrack(drifted, name: "Recce 2").write(to: recording, atomically: true, encoding: .utf8)
        try await step(["regenerate", url.path, "--route", recording.path, "--osm", MatrixBooks.extract.path])
        try check(url, written, after: "regenerate")
    }

    /// Undoes every step in the journal, one at a time, until nothing is left to undo.
    func undoAll(_ url: URL) async throws {
        for _ in 0..<500 {
            let result = await roadbook(["undo", url.path])
            if result.status != 0 {
                #expect(result.errors.contains("nothing to undo"), "undo stops only when nothing is left: \(result.errors)")
                return
            }
        }
        Issue.record("500 undos did not empty the journal")
    }

    func step(_ arguments: [String]) async throws {
        let result = await roadbook(arguments)
        guard result.status == 0 else {
            throw TestFailure("roadbook \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.errors)")
        }
    }

    /// Every note the person wrote is in the book once, with its words.
    func check(_ url: URL, _ written: Written, after step: String) throws {
        let book = try BookFile.read(contentsOf: url)
        for words in written.words where !written.removed.contains(words) {
            let count = book.notes.filter { $0.text == words }.count
            #expect(count == 1, "[\(step)] '\(words)' is in the book \(count) times")
        }
        try book.checkInvariants()
    }
}

extension Array where Element == Coordinate {
    var polylineLength: Double { Polyline(self).length }
}
