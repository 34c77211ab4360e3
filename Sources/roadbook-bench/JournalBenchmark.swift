import Foundation
import Formats
import Model
import Workflows

/// A person's edits on the sample's book: 100 notes added through `changeNotes` (read under the
/// lock, changed, checked, saved with a journal step), beside the floor of the same 100 books read
/// and written plainly (`BookFile.read`, `BookFile.write`: no lock, no journal, no checks); then
/// the 100 steps undone; and what the journal weighs per step.
func journalBenchmarkLines() async throws -> [String] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roadbook-bench-journal-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("book.json")
    let sample = checkoutRoot.appendingPathComponent("samples/andorra-envalira.gpx")
    _ = try await buildBook(BuildRequest(track: sample, bookFile: url), log: MessageList())
    let size = try Data(contentsOf: url).count
    let length = try BookFile.read(contentsOf: url).route.coordinates.count
    let floorURL = folder.appendingPathComponent("floor.json")
    try FileManager.default.copyItem(at: url, to: floorURL)
    let (floor, _) = try timed {
        for i in 0..<100 {
            var book = try BookFile.read(contentsOf: floorURL)
            book.notes.insert(Note(id: 10_000 + i, kind: .typed, distanceAlong: 0, coordinate: book.route.coordinates[0], text: "Note \(i)"), at: 1)
            try BookFile.write(book, to: floorURL)
        }
    }
    let (adds, _) = try timed {
        for i in 0..<100 { _ = try changeNotes(in: url, .add(.distance(Double(100 + i * 300)), NoteFields(text: "Note \(i)"))) }
    }
    let journal = try Data(contentsOf: BookJournal.location(of: url)).count
    let (undos, _) = try timed { for _ in 0..<100 { _ = try BookHistory.undo(url) } }
    return [
        String(format: "journal: 100 notes added to the sample's book (%d KB, %d route points) through changeNotes: %.1f ms each; floor (read and write the book, no lock, journal or checks) %.1f ms each (%.2f×)",
               size / 1024, length, adds * 10, floor * 10, adds / floor),
        String(format: "journal: the 100 steps undone: %.1f ms each; the journal holds them in %d KB (%.1f KB a step)",
               undos * 10, journal / 1024, Double(journal) / 1024 / 100),
    ]
}
