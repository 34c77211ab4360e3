import Foundation
import TestSupport
import Testing

/// The target table of `docs/architecture.md`, read as data: what each target may import, in the
/// order of the rows (a target may import only targets on rows below its own).
struct TargetTable {
    struct Row {
        var targets: [String]
        /// nil: any library target below.
        var mayImport: Set<String>?
        var index: Int
    }
    var rows: [Row] = []

    init(markdown: String) {
        for line in markdown.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            let names = Self.codeSpans(cells[1])
            let allowed: Set<String>? = cells[2].contains("every library target") ? nil : Set(Self.codeSpans(cells[2]))
            rows.append(Row(targets: names, mayImport: allowed, index: rows.count))
        }
    }

    static func codeSpans(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The strings between double quotes in `text`: `"A", "B"` gives A and B.
    static func quoted(_ text: String) -> [String] {
        text.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    func row(of target: String) -> Row? { rows.first { $0.targets.contains(target) } }
}

/// What every Swift file of a target imports (`import X`, `@testable import X`).
func imports(ofTarget folder: URL) throws -> [String: Set<String>] {
    var found: [String: Set<String>] = [:]
    let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
        .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
    for file in files {
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            var words = line.split(separator: " ").map(String.init)
            if words.first == "@testable" { words.removeFirst() }
            guard words.count >= 2, words[0] == "import" else { continue }
            found[words[1], default: []].insert(file.lastPathComponent)
        }
    }
    return found
}

@Suite("The layers of docs/architecture.md are the layers of the code")
struct ArchitectureTests {
    static let systemModules: Set<String> = ["Foundation", "Glibc", "Dispatch", "Synchronization"]

    let root = packageRoot()
    let table: TargetTable

    init() throws {
        table = TargetTable(markdown: try String(contentsOf: packageRoot().appendingPathComponent("docs/architecture.md"), encoding: .utf8))
    }

    var sourceTargets: [String] {
        let folder = root.appendingPathComponent("Sources")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test("every target in Sources has a row, and every row names a target that exists")
    func everyTargetHasARow() {
        #expect(table.rows.count >= 10, "the target table was not found in docs/architecture.md")
        for target in sourceTargets {
            #expect(table.row(of: target) != nil, "Sources/\(target) has no row in docs/architecture.md")
        }
        for name in table.rows.flatMap(\.targets) {
            #expect(sourceTargets.contains(name), "docs/architecture.md names \(name), which is not in Sources/")
        }
    }

    @Test("each target imports only what its row allows, and only from rows below it")
    func importsPointDown() throws {
        var checked = 0
        for target in sourceTargets {
            guard let row = table.row(of: target) else { continue }
            let folder = root.appendingPathComponent("Sources").appendingPathComponent(target)
            for (module, files) in try imports(ofTarget: folder) where !Self.systemModules.contains(module) {
                checked += 1
                if let allowed = row.mayImport {
                    #expect(allowed.contains(module),
                            "\(target) imports \(module) (in \(files.sorted().joined(separator: ", "))), which docs/architecture.md does not allow")
                }
                let below = table.row(of: module).map { $0.index > row.index } ?? false
                #expect(below, "\(target) imports \(module), which is not on a row below it in docs/architecture.md")
            }
        }
        #expect(checked > 30, "too few imports found: is Sources/ where the test looks?")
    }

    // `roadbook serve` starts the editor through Workflows' `EditorLauncher`, which the `roadbook`
    // executable fills with Serve's: the command line never names the HTTP server.
    @Test("the command line only parses and prints: RoadbookCLI may import Workflows and Model, nothing else")
    func commandLineImportsWorkflowsAndModel() throws {
        let row = try #require(table.row(of: "RoadbookCLI"), "docs/architecture.md has no row for RoadbookCLI")
        #expect(row.mayImport == ["Workflows", "Model"], "RoadbookCLI's row allows \(row.mayImport.map { $0.sorted() } ?? ["every target"])")
        let imported = Set(try imports(ofTarget: root.appendingPathComponent("Sources/RoadbookCLI")).keys).subtracting(Self.systemModules)
        #expect(imported == ["Workflows", "Model"], "RoadbookCLI imports \(imported.sorted())")
        // Package.swift too: a dependency not imported would still link the server into every
        // program that embeds the command line.
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaration = try #require(manifest.firstMatch(of: #/\.target\(name: "RoadbookCLI", dependencies: \[([^\]]*)\]/#),
                                       "Package.swift has no RoadbookCLI target with its dependencies on one line")
        let dependencies = Set(TargetTable.quoted(String(declaration.1)))
        #expect(dependencies == ["Workflows", "Model"], "Package.swift gives RoadbookCLI \(dependencies.sorted())")
    }

    @Test("no target re-exports another: every import is written where it is used")
    func noReexports() throws {
        let found = try lines(in: "Sources", where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("@_exported") })
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// Targets that may read and write book files: the format's owner, the operations, the
    /// command line that calls them, and the benchmark (its journal floor is a plain read and write).
    static let bookIOTargets: Set<String> = ["Formats", "Workflows", "RoadbookCLI", "roadbook-bench"]

    @Test("no target below Workflows does I/O of books: BookFile.read, write and dataToSave are called from Formats, Workflows, RoadbookCLI and the benchmark only")
    func bookIOStaysInWorkflows() throws {
        let calls = ["BookFile.read", "BookFile.write", "BookFile.dataToSave"]
        let found = try lines(in: "Sources", where: { line in
            !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && calls.contains { line.contains($0) }
        })
        let outside = found.filter { !Self.bookIOTargets.contains(String($0.split(separator: "/")[1])) }
        #expect(outside.isEmpty, "\(outside.joined(separator: "\n"))")
        #expect(found.contains { $0.hasPrefix("Sources/Workflows/") }, "no call found at all: is Sources/ where the test looks?")
    }

    /// No word of a command-line option in a target below Workflows: an error there carries data (a
    /// limit, a `Remedy`) and the command line words it, as the limits' advice does
    /// (`Workflows/AnswerLimits.swift`). Found ones are listed as file and option.
    @Test("targets below Workflows give errors data, not the command line's option names; the command line words them")
    func noOptionNamesBelowWorkflows() throws {
        let workflows = try #require(table.row(of: "Workflows")).index
        let below = sourceTargets.filter { (table.row(of: $0)?.index ?? 0) > workflows }
        #expect(below.contains("Terrain") && below.contains("Routing"))
        var found: Set<String> = []
        for target in below {
            for line in try lines(in: "Sources/\(target)", where: { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }) {
                let file = String(line.prefix { $0 != ":" })
                let text = line.dropFirst(file.count)
                for match in text.matches(of: #/--[a-z][a-z-]*/#) { found.insert("\(file) \(text[match.range])") }
            }
        }
        #expect(found.isEmpty, "\(found.sorted())")
    }

    /// Every line of the Swift files under `folder` (relative to the package) that `matches`, as
    /// `path:line: text`.
    func lines(in folder: String, where matches: (String) -> Bool) throws -> [String] {
        let base = root.appendingPathComponent(folder)
        let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        var found: [String] = []
        for file in files {
            let path = folder + file.path.dropFirst(base.path.count)
            for (i, line) in try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where matches(String(line)) {
                found.append("\(path):\(i + 1): \(line)")
            }
        }
        return found.sorted()
    }
}
