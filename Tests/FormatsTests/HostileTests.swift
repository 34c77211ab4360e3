import Foundation
import Formats
import Model
import Testing
import TestSupport

/// Hostile book and handles files: each is refused with one line that names the file and the
/// field (or line), and says what was expected, in our words. The files and their `expected.tsv`
/// are also the corpus the release binary is run over.
@Suite("Hostile book and handles files")
struct HostileTests {
    @Test("the base book of the corpus reads: each hostile book breaks one thing in it")
    func baseReads() throws {
        let book = try BookFile.read(contentsOf: packageRoot().appendingPathComponent("Tests/FormatsTests/Hostile/base-book.json"))
        #expect(book.notes.count == 2 && book.plan?.legs.count == 2)
    }

    @Test("every file of each corpus is listed in its expected.tsv", arguments: ["books", "handles"])
    func everyFileListed(kind: String) throws {
        let folder = packageRoot().appendingPathComponent("Tests/FormatsTests/Hostile/\(kind)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "expected.tsv" }.sorted()
        let listed = HostileCorpus.cases(in: "Tests/FormatsTests/Hostile/\(kind)").map(\.url.lastPathComponent).sorted()
        #expect(files == listed)
        #expect(listed.count >= 10)
    }

    @Test("a hostile book is refused in one line naming the file and the field", arguments: HostileCorpus.cases(in: "Tests/FormatsTests/Hostile/books"))
    func book(_ hostile: HostileCase) throws {
        let before = try Data(contentsOf: hostile.url)
        let error = #expect(throws: FormatError.self) { try BookFile.read(contentsOf: hostile.url) }
        if let problem = HostileCorpus.problem(error?.description ?? "", for: hostile) { Issue.record("\(hostile): \(problem)") }
        #expect(try Data(contentsOf: hostile.url) == before)
    }

    @Test("a hostile handles file is refused in one line naming the file and the field or line", arguments: HostileCorpus.cases(in: "Tests/FormatsTests/Hostile/handles"))
    func handles(_ hostile: HostileCase) throws {
        let error = #expect(throws: FormatError.self) { try HandlesFile.read(contentsOf: hostile.url) }
        if let problem = HostileCorpus.problem(error?.description ?? "", for: hostile) { Issue.record("\(hostile): \(problem)") }
    }

    @Test("a handles file of 1,000 handles, the most, reads")
    func thousandHandles() throws {
        let text = (0..<HandlesFile.maximumHandles).map { "42.\(5000 + $0) 1.5" }.joined(separator: "\n")
        #expect(try HandlesFile.fromText(text, fileName: "h.txt").handles.count == 1_000)
    }

    @Test("a missing file and a folder are said in words, not as Foundation's error numbers")
    func unreadable() throws {
        let folder = try TemporaryFolder()
        let missing = #expect(throws: FormatError.self) { try BookFile.read(contentsOf: folder.path("none.json")) }
        #expect(missing?.description == "\(folder.path("none.json").path): cannot read: no such file or directory")
        let directory = #expect(throws: FormatError.self) { try BookFile.read(contentsOf: folder.url) }
        #expect(directory?.description == "\(folder.url.path): is a folder; give the path of a file")
        let handles = #expect(throws: FormatError.self) { try HandlesFile.read(contentsOf: folder.path("none.geojson")) }
        #expect(handles?.description.hasSuffix("cannot read: no such file or directory") == true)
    }

    @Test("a book with a value that JSON cannot hold is refused at write with its field, in one line")
    func unwritable() throws {
        let folder = try TemporaryFolder()
        var book = try BookFile.read(contentsOf: packageRoot().appendingPathComponent("Tests/FormatsTests/Hostile/base-book.json"))
        book.notes[0].distanceAlong = .nan
        let error = #expect(throws: FormatError.self) { try BookFile.write(book, to: folder.path("b.json")) }
        #expect(error?.description.hasPrefix("\(folder.path("b.json").path): cannot write: notes[0].distanceAlong is nan") == true,
                "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: folder.path("b.json").path))
    }
}
