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
}
