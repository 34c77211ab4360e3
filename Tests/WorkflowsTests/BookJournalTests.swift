import BookAssembly
import Foundation
import Formats
import Geo
import Model
import Testing
import TestSupport
import Workflows

/// A book file changed row by row through `changeNotes`, and taken back and made again through
/// `BookHistory`: the very bytes at every step, a journal that does not fit refused in one line
/// without touching the book, and changes started together each made once.
@Suite("A book's journal: changes, undo and redo on the book file")
struct BookJournalTests {
    /// The sample track's book (turns from its shape), built once for the suite.
    actor SampleBook {
        static let shared = SampleBook()
        private var built: Task<Data, any Error>?

        func bytes() async throws -> Data {
            if let built { return try await built.value }
            let task = Task<Data, any Error> {
                let folder = try TemporaryFolder()
                let url = folder.path("sample.json")
                let track = packageRoot().appendingPathComponent("samples/andorra-envalira.gpx")
                _ = try await buildBook(BuildRequest(track: track, bookFile: url), log: MessageList())
                return try Data(contentsOf: url)
            }
            built = task
            return try await task.value
        }
    }

    /// The sample's book as `book.json` in a new folder, and its journal's place beside it.
    struct Files {
        let folder: TemporaryFolder
        let book: URL
        var journal: URL { BookJournal.location(of: book) }

        init() async throws {
            folder = try TemporaryFolder()
            book = folder.path("book.json")
            try await SampleBook.shared.bytes().write(to: book)
        }

        func bytes() throws -> Data { try Data(contentsOf: book) }
        func read() throws -> Book { try BookFile.read(contentsOf: book) }
    }

    /// A fixed clock: the `k`th change's time.
    static func time(_ k: Int) -> Date { Date(timeIntervalSince1970: 1_780_000_000 + Double(k) * 60) }

    /// Twenty changes of every kind, naming rows by number, id and marker. Rows 3 and 6 of the
    /// sample are changed in place; every row moved or removed is one these changes added.
    static let twenty: [NoteChange] = [
        .add(.distance(1000), NoteFields(text: "Gate, close it behind you")),
        .add(.distance(2500), NoteFields(text: "Control", marker: "CP9")),
        .edit(.row(3), NoteFields(text: "Bear left at the chapel")),
        .edit(.marker("CP9"), NoteFields(danger: 2, addSymbols: [.fuel])),
        .remove(.marker("cp9")),
        .restore(.marker("CP9")),
        .move(.marker("CP9"), .by(300)),
        .tulip(.row(6), .addRoad(angle: 45, roadClass: .track)),
        .add(.coordinate(Coordinate(latitude: 42.47, longitude: 1.45)), NoteFields(text: "Farm off the road")),
        .edit(.marker("CP9"), NoteFields(cap: 90)),
        .remove(.marker("CP9")),
        .restore(nil),
        .tulip(.row(6), .reset),
        .add(.distance(5000), NoteFields(text: "Cattle grid", marker: "G1", addSymbols: [.cattleGrid])),
        .move(.marker("G1"), .to(1500)),
        .edit(.row(6), NoteFields(text: "Keep right at the fork")),
        .remove(.marker("G1")),
        .add(.row(.marker("CP9")), NoteFields(text: "Fountain")),
        .edit(.row(1), NoteFields(targetSpeed: 60)),
        .tulip(.marker("CP9"), .exit(angle: -30)),
    ]

    /// Makes `changes` one after another, returning the book's bytes before the first and after each.
    @discardableResult
    static func make(_ changes: [NoteChange], on files: Files) throws -> [Data] {
        var states = [try files.bytes()]
        for (i, change) in changes.enumerated() {
            let result = try changeNotes(in: files.book, change, now: time(i))
            #expect(result.book.revision == (try files.read().revision), "the result is the book as saved")
            states.append(try files.bytes())
        }
        return states
    }

    @Test("twenty changes, all undone, give back the very bytes; all redone, the bytes after the twenty; the revision counts each")
    func undoAndRedoAll() async throws {
        let files = try await Files()
        let states = try Self.make(Self.twenty, on: files)
        for k in 1...20 { #expect(try BookFile.decode(states[k], fileName: "book.json").revision == k, "revision after change \(k)") }
        #expect(try files.read().notes.filter { $0.placement == .onRoute }.count
                == BookFile.decode(states[0], fileName: "book.json").notes.filter { $0.placement == .onRoute }.count + 3)
        let steps = try BookHistory.steps(of: files.book)
        #expect(steps.undo.count == 20 && steps.redo.isEmpty && steps.dropped == 0)
        #expect(steps.undo.map(\.kind) == Array(repeating: .note, count: 20))
        #expect(steps.undo[0].name == "Add note 'Gate, close it behind you' at 1.00 km")
        #expect(steps.undo[0].time == ISO8601DateFormatter().string(from: Self.time(0)), "the journal keeps the change's time")

        for k in stride(from: 20, to: 0, by: -1) {
            let undone = try BookHistory.undo(files.book)
            #expect(undone.name == steps.undo[k - 1].name && undone.undoable == k - 1 && undone.redoable == 21 - k)
            #expect(try files.bytes() == states[k - 1], "undo of change \(k) gives back the bytes before it")
        }
        #expect(try files.read().revision == nil, "the built book had no revision, and has none again")
        #expect(throws: WorkflowError("\(files.book.path): nothing to undo")) { try BookHistory.undo(files.book) }

        for k in 1...20 {
            let redone = try BookHistory.redo(files.book)
            #expect(redone.name == steps.undo[k - 1].name && redone.undoable == k && redone.redoable == 20 - k)
            #expect(try files.bytes() == states[k], "redo of change \(k) gives back the bytes after it")
        }
        #expect(throws: WorkflowError("\(files.book.path): nothing to redo")) { try BookHistory.redo(files.book) }
        #expect(try BookHistory.steps(of: files.book).undo == steps.undo, "the steps as they were made")
    }

    @Test("a change made after an undo clears what redo would make again")
    func changeClearsRedo() async throws {
        let files = try await Files()
        let states = try Self.make(Array(Self.twenty.prefix(3)), on: files)
        _ = try BookHistory.undo(files.book)
        _ = try BookHistory.undo(files.book)
        #expect(try BookHistory.steps(of: files.book).redo.count == 2)
        _ = try changeNotes(in: files.book, .add(.distance(4000), NoteFields(text: "Bridge")), now: Self.time(10))
        let steps = try BookHistory.steps(of: files.book)
        #expect(steps.redo.isEmpty && steps.undo.map(\.name) == ["Add note 'Gate, close it behind you' at 1.00 km", "Add note 'Bridge' at 4.00 km"])
        #expect(throws: WorkflowError("\(files.book.path): nothing to redo")) { try BookHistory.redo(files.book) }
        #expect(try files.read().revision == 2, "the revision goes on from the book undone to")
        _ = try BookHistory.undo(files.book)
        #expect(try files.bytes() == states[1])
    }

    @Test("undo and redo refuse a book edited by hand since the step, naming the file and the step, and change nothing")
    func editedByHand() async throws {
        let files = try await Files()
        let states = try Self.make(Array(Self.twenty.prefix(2)), on: files)
        var book = try files.read()
        book.title = "Retitled in an editor"
        try BookFile.write(book, to: files.book)
        let edited = try files.bytes(), journal = try Data(contentsOf: files.journal)
        let error = try #require(throws: WorkflowError.self) { try BookHistory.undo(files.book) }
        #expect(error.message == "\(files.book.path) was changed since 'Add note 'Control' at 2.50 km' by something other than roadbook: "
                + "undo would lose that change")
        #expect(try files.bytes() == edited && Data(contentsOf: files.journal) == journal)

        // roadbook's bytes back, the step undone, then an edit: redo refuses too.
        try states[2].write(to: files.book)
        _ = try BookHistory.undo(files.book)
        #expect(try files.bytes() == states[1])
        var undone = try files.read()
        undone.stage = "SS2"
        try BookFile.write(undone, to: files.book)
        let stage = try files.bytes()
        let redo = try #require(throws: WorkflowError.self) { try BookHistory.redo(files.book) }
        #expect(redo.message == "\(files.book.path) was changed since 'Add note 'Control' at 2.50 km' by something other than roadbook: "
                + "redo would lose that change")
        #expect(try files.bytes() == stage)
    }

    @Test("steps named after a row with the longest marker are undone; words with a line feed stay one line in a refusal")
    func longAndMultilineNames() async throws {
        let files = try await Files()
        let marker = String(repeating: "M", count: BookLimits.maximumLineLength)
        _ = try changeNotes(in: files.book, .add(.distance(1000), NoteFields(text: "Gate", marker: marker)))
        _ = try changeNotes(in: files.book, .tulip(.marker(marker), .addRoad(angle: 90, roadClass: .track)))
        #expect(try BookHistory.steps(of: files.book).undo.last.map { $0.name.count > BookLimits.maximumLineLength } == true)
        _ = try BookHistory.undo(files.book)
        _ = try BookHistory.undo(files.book)
        let sample = try await SampleBook.shared.bytes()
        #expect(try files.bytes() == sample)

        _ = try changeNotes(in: files.book, .add(.distance(2000), NoteFields(text: "Pass left\nof the well")))
        var book = try files.read()
        book.title = "Retitled in an editor"
        try BookFile.write(book, to: files.book)
        let error = try #require(throws: WorkflowError.self) { try BookHistory.undo(files.book) }
        #expect(!error.message.contains("\n") && error.message.contains("since 'Add note 'Pass left\\nof the well' at 2.00 km'"),
                "\(error)")
    }

    @Test("a change worked out on an earlier revision is refused, and the book is left as it is")
    func staleRevision() async throws {
        let files = try await Files()
        try Self.make(Array(Self.twenty.prefix(2)), on: files)
        let before = try files.bytes()
        let error = try #require(throws: WorkflowError.self) {
            try changeNotes(in: files.book, .add(.distance(3000), NoteFields(text: "Late")), revision: 1)
        }
        #expect(error.message == "\(files.book.path): the book changed since you read it (revision 1, now 2): run the command again")
        #expect(try files.bytes() == before)
        let made = try changeNotes(in: files.book, .add(.distance(3000), NoteFields(text: "Late")), revision: 2)
        #expect(made.book.revision == 3 && made.note?.text == "Late" && made.row != nil)
    }

    @Test("a note that would be printed twice is not saved: the rule is named and the book left as it is")
    func twiceRefused() async throws {
        let files = try await Files()
        let gate = NoteChange.add(.distance(1000), NoteFields(text: "Gate"))
        _ = try changeNotes(in: files.book, gate)
        let before = try files.bytes(), journal = try Data(contentsOf: files.journal)
        let error = try #require(throws: FormatError.self) { try changeNotes(in: files.book, gate) }
        #expect(error.description.contains("one note per source and place") && error.description.contains("book.json"), "\(error)")
        #expect(try files.bytes() == before && Data(contentsOf: files.journal) == journal)
    }

    // MARK: - Damaged journals

    /// A journal damaged one way, and whether the damage shows as it is read (so a change is
    /// refused too) or only when its step is undone.
    struct Damage: Sendable, CustomStringConvertible {
        var name: String
        var whenRead: Bool
        var damage: @Sendable (inout [String: Any], Data) -> Data?
        var description: String { name }

        /// A change of the journal's JSON.
        init(_ name: String, whenRead: Bool = true, _ change: @escaping @Sendable (inout [String: Any]) -> Void) {
            self.name = name
            self.whenRead = whenRead
            damage = { json, _ in change(&json); return nil }
        }

        /// Other bytes instead of the journal's.
        init(_ name: String, bytes: @escaping @Sendable (Data) -> Data) {
            self.name = name
            whenRead = true
            damage = { _, data in bytes(data) }
        }
    }

    /// The last step's book change, as JSON, changed by `body`.
    static func lastStep(_ json: inout [String: Any], _ body: (inout [String: Any]) -> Void) {
        var undo = json["undo"] as! [[String: Any]]
        var step = undo[undo.count - 1]
        body(&step)
        undo[undo.count - 1] = step
        json["undo"] = undo
    }

    /// The first hunk of the last step's book patch, changed by `body`.
    static func firstHunk(_ json: inout [String: Any], _ body: (inout [String: Any]) -> Void) {
        lastStep(&json) { step in
            var book = step["book"] as! [String: Any], patch = book["patch"] as! [String: Any]
            var hunks = patch["hunks"] as! [[String: Any]]
            body(&hunks[0])
            patch["hunks"] = hunks
            book["patch"] = patch
            step["book"] = book
        }
    }

    static let damages: [Damage] = [
        Damage("not JSON", bytes: { _ in Data("this is not a journal\n".utf8) }),
        Damage("empty", bytes: { _ in Data() }),
        Damage("truncated", bytes: { $0.prefix($0.count / 2) }),
        Damage("another program's format") { $0["format"] = "someone-else" },
        Damage("version 99") { $0["version"] = 99 },
        Damage("another book's id") { $0["bookID"] = "5C0B7E0A-9A4B-4B8E-8D4C-2F1A3E6B7C9D" },
        Damage("an unknown kind of step") { json in lastStep(&json) { $0["kind"] = "format-disk" } },
        Damage("a hunk at 1e30") { json in firstHunk(&json) { $0["at"] = 1e30 } },
        Damage("dropped -1") { $0["dropped"] = -1 },
        Damage("a step's name of 5 MB") { json in lastStep(&json) { $0["name"] = String(repeating: "x", count: 5_000_000) } },
        Damage("a hunk at -1", whenRead: false) { json in firstHunk(&json) { $0["at"] = -1 } },
        Damage("a hunk at the largest whole number", whenRead: false) { json in firstHunk(&json) { $0["at"] = Int.max } },
        Damage("lines that are not the book's", whenRead: false) { json in
            firstHunk(&json) { hunk in hunk["insert"] = (hunk["insert"] as! [String]).map { _ in "not a line of the book" } }
        },
        Damage("no book before the step", whenRead: false) { json in
            lastStep(&json) { step in
                var book = step["book"] as! [String: Any]
                book["before"] = nil
                step["book"] = book
            }
        },
    ]

    @Test("a damaged journal is refused in one line naming it, and neither the book nor the journal changes", arguments: damages)
    func damagedJournal(_ damage: Damage) async throws {
        let files = try await Files()
        try Self.make(Array(Self.twenty.prefix(2)), on: files)
        let good = try Data(contentsOf: files.journal)
        var json = try JSONSerialization.jsonObject(with: good) as! [String: Any]
        let bytes = try damage.damage(&json, good) ?? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
        try bytes.write(to: files.journal)
        let book = try files.bytes()

        func check(_ what: String, _ body: () throws -> Void) throws {
            do {
                try body()
                Issue.record("[\(damage)] \(what) went ahead")
            } catch {
                let line = "\(error)"
                #expect(!line.contains("\n") && line.count < 1_000, "[\(damage)] \(what): one short line: \(line.prefix(300))")
                #expect(line.contains(files.journal.path), "[\(damage)] \(what) names the journal: \(line.prefix(300))")
            }
            #expect(try files.bytes() == book, "[\(damage)] \(what): the book is untouched")
            #expect(try Data(contentsOf: files.journal) == bytes, "[\(damage)] \(what): the journal is untouched")
        }
        try check("undo") { _ = try BookHistory.undo(files.book) }
        if damage.whenRead {
            try check("redo") { _ = try BookHistory.redo(files.book) }
            try check("a change") { _ = try changeNotes(in: files.book, .add(.distance(3000), NoteFields(text: "Later"))) }
        }
    }

    @Test("the hostile corpus's journals beside its seed book, through BookHistory: the control undone, every other refused naming the journal")
    func hostileJournals() throws {
        let corpus = packageRoot().appendingPathComponent("Tests/Hostile/journal")
        let seed = try Data(contentsOf: packageRoot().appendingPathComponent("Tests/Hostile/seeds/book.json"))
        let table = try String(contentsOf: corpus.appendingPathComponent("expected.tsv"), encoding: .utf8)
        let rows = table.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.count >= 20)
        for row in rows {
            let folder = try TemporaryFolder()
            let book = folder.path("book.json"), journal = BookJournal.location(of: book)
            try seed.write(to: book)
            try Data(contentsOf: corpus.appendingPathComponent(row[0])).write(to: journal)
            do {
                let undone = try BookHistory.undo(book)
                #expect(row[1] == "ok", "\(row[0]) was undone: \(undone.name)")
                #expect(try BookFile.read(contentsOf: book).title == "Short, before", "\(row[0]): the title before the step")
            } catch {
                let line = "\(error)"
                #expect(row[1] == "fail", "\(row[0]): \(line)")
                #expect(line.contains(journal.path) && !line.contains("\n"), "\(row[0]): one line naming the journal: \(line)")
                #expect(try Data(contentsOf: book) == seed, "\(row[0]): the book as it was")
            }
        }
    }

    // MARK: - Bounds

    @Test("a bounded journal drops its oldest steps; undo takes back those kept and then says how many were dropped")
    func bounds() async throws {
        let files = try await Files()
        let states = try Self.make(Array(Self.twenty.prefix(5)), on: files)
        let made = try BookJournalFile.read(contentsOf: files.journal)
        var configuration = BookJournal.Configuration()
        configuration.maximumSteps = 3
        var bounded = BookJournal(bookID: made.bookID)
        for step in made.undo { bounded.record(step, configuration: configuration) }
        #expect(bounded.undo == Array(made.undo.suffix(3)) && bounded.dropped == 2)
        try BookJournalFile.encode(bounded).write(to: files.journal)

        for k in stride(from: 5, to: 2, by: -1) {
            _ = try BookHistory.undo(files.book)
            #expect(try files.bytes() == states[k - 1])
        }
        #expect(throws: WorkflowError("\(files.book.path): nothing to undo (its 2 oldest changes were dropped to keep the journal small)")) {
            _ = try BookHistory.undo(files.book)
        }
        #expect(try BookHistory.steps(of: files.book).dropped == 2)

        // By size: the newest step is always kept, however large.
        configuration = BookJournal.Configuration()
        configuration.maximumBytes = 1
        var small = BookJournal(bookID: made.bookID)
        for step in made.undo { small.record(step, configuration: configuration) }
        #expect(small.undo == [made.undo[4]] && small.dropped == 4)
    }

    // MARK: - Changes started together

    @Test("eight changes started at once, each in its own task: each note is made exactly once, one revision each")
    func concurrentChanges() async throws {
        let files = try await Files()
        let url = files.book
        let results = await withTaskGroup(of: Result<NoteChangeResult, any Error>.self) { group in
            for k in 0..<8 {
                group.addTask {
                    Result { try changeNotes(in: url, .add(.distance(Double(1000 + 500 * k)), NoteFields(text: "Together \(k)"))) }
                }
            }
            var all: [Result<NoteChangeResult, any Error>] = []
            for await result in group { all.append(result) }
            return all
        }
        let made = try results.map { try $0.get() }
        #expect(made.compactMap(\.book.revision).sorted() == Array(1...8), "each saved over the one before")
        let book = try files.read()
        for k in 0..<8 {
            #expect(book.notes.filter { $0.text == "Together \(k)" }.count == 1, "Together \(k) once")
        }
        #expect(Set(made.compactMap(\.step.noteID)).count == 8 && book.revision == 8)
        #expect(try BookHistory.steps(of: url).undo.count == 8)
        expectBookRules(book)
    }
}
