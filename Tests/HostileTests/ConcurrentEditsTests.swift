import Foundation
import Testing
import TestSupport

/// Two editors at once: two `note add` and a `handles move` started together on one book, a
/// hundred times over, as separate processes of the real binary. Every change is in the book (or its
/// drawing) exactly once and the journal holds three steps: the book's lock makes the commands wait
/// for each other instead of one writing over the other's change.
@Suite("Two editors at once: three commands started together, a hundred times, lose nothing and double nothing")
struct ConcurrentEditsTests {
    static var binary: URL {
        let given = ProcessInfo.processInfo.environment["ROADBOOK_BIN"] ?? ""
        return given.isEmpty ? packageRoot().appendingPathComponent(".build/debug/roadbook") : URL(fileURLWithPath: given)
    }

    @Test("note add, note add and handles move, started together 100 times: 0 lost, 0 doubled")
    func hundredRounds() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build roadbook first, or set ROADBOOK_BIN")
        let seed = packageRoot().appendingPathComponent("Tests/Hostile/seeds/book.json")
        var lost = 0, doubled = 0
        for round in 1...100 {
            let folder = try TemporaryFolder()
            let book = folder.path("book.json")
            try FileManager.default.copyItem(at: seed, to: book)
            let moved = String(format: "42.46%02d7,1.4915", round % 100)
            let runs = try [
                ["note", book.path, "add", "Well \(round)", "--at", "1km"],
                ["note", book.path, "add", "Hole \(round)", "--at", "2km", "--danger", "2"],
                ["handles", book.path, "move", "2", moved],
            ].map(Self.start)
            for run in runs { run.waitUntilExit() }
            #expect(runs.allSatisfy { $0.terminationStatus == 0 }, "round \(round): every command succeeds")
            let notes = try Self.json(book)["notes"] as? [[String: Any]] ?? []
            for words in ["Well \(round)", "Hole \(round)"] {
                let count = notes.filter { $0["text"] as? String == words }.count
                if count == 0 { lost += 1 } else if count > 1 { doubled += 1 }
            }
            let draft = try String(contentsOf: folder.path("book.draft.json"), encoding: .utf8)
            if !draft.contains(String(format: "42.46%02d7", round % 100)) { lost += 1 }
            let steps = (try Self.json(folder.path("book.journal.json"))["undo"] as? [Any])?.count ?? 0
            if steps != 3 { doubled += steps > 3 ? 1 : 0; lost += steps < 3 ? 1 : 0 }
        }
        #expect(lost == 0 && doubled == 0, "\(lost) changes lost, \(doubled) doubled in 100 rounds")
    }

    static func json(_ url: URL) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
    }

    static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}
