import Foundation
import Testing
import TestSupport

/// Runs the roadbook binary on every hostile case (Tests/Hostile and every other `Hostile/` folder
/// with an expected.tsv) and checks: no crash, no hang, under the memory limit, one clear line when
/// it fails, no output or temporary file left by a failure, inputs unchanged.
///
/// The binary is `$ROADBOOK_BIN` (scripts/test.sh builds the release binary and sets it), else the
/// debug binary of this build (and the test says so). Cases that fail today and are listed in
/// Tests/Hostile/known-failures.tsv are reported but do not fail the test; with the release binary
/// a listed case that now passes fails it, so the list only shrinks (the debug binary prints it). `ROADBOOK_HOSTILE_STRICT=1` ignores the list;
/// `ROADBOOK_HOSTILE_FILTER=text` runs only the cases of the kind `text` names, or else whose path contains `text`;
/// `ROADBOOK_HOSTILE_REPORT=FILE` writes every problem found, one a line, to FILE.
@Suite("Hostile inputs")
struct HostileCorpusTests {
    /// Cases run at once: the machine has 2 cores.
    static let parallelRuns = 2

    @Test("every hostile input is refused clearly or read, never a crash, a hang or a leftover")
    func corpus() async throws {
        let root = packageRoot()
        let environment = ProcessInfo.processInfo.environment
        let binary: URL
        let release = !(environment["ROADBOOK_BIN"] ?? "").isEmpty
        if let given = environment["ROADBOOK_BIN"], !given.isEmpty {
            binary = URL(fileURLWithPath: given)
            print("hostile: using \(binary.path)")
        } else {
            binary = root.appendingPathComponent(".build/debug/roadbook")
            print("hostile: ROADBOOK_BIN is not set: using the debug binary \(binary.path) (scripts/test.sh uses the release one)")
        }
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            Issue.record("no roadbook binary at \(binary.path): run swift build first, or set ROADBOOK_BIN")
            return
        }
        var cases = try HostileCorpus.load(root: root)
        if let filter = environment["ROADBOOK_HOSTILE_FILTER"], !filter.isEmpty {
            // A kind's name runs that kind's cases (`http`: not the engine's raw answers, *.http too).
            cases = HostileCorpus.kinds.contains(filter) ? cases.filter { $0.kind == filter } : cases.filter { $0.description.contains(filter) }
        }
        #expect(!cases.isEmpty)
        let known = try KnownFailures(root.appendingPathComponent("Tests/Hostile/known-failures.tsv"))
        let strict = environment["ROADBOOK_HOSTILE_STRICT"] == "1"

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("roadbook-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var runner = HostileRunner(binary: binary, root: root, scratch: scratch)
        runner.missingCommands = HostileRunner.missingCommands(["undo"], in: binary)
        // The http cases share one server (HTTPHostileRunner), run after the others.
        var results = await runAll(cases.filter { $0.kind != "http" }, runner: runner)
        let requests = cases.filter { $0.kind == "http" }
        if !requests.isEmpty {
            let http = HTTPHostileRunner(binary: binary, root: root, scratch: scratch)
            results += await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: http.run(requests)) }
            }
        }

        var reportLines: [String] = []
        for result in results {
            let c = result.hostileCase
            if let skipped = result.skipped {
                print("hostile: skipped \(c): \(skipped)")
                continue
            }
            let problems = result.problems
            let listed = known.classes(of: c.description)
            for (problem, detail) in problems {
                reportLines.append("\(c)\t\(problem.rawValue)\t\(detail)")
            }
            if strict || listed == nil {
                for (problem, detail) in problems {
                    Issue.record("\(c) [\(c.why)]: \(problem.rawValue): \(detail)")
                }
            } else if let listed, problems.isEmpty {
                // The list is made with the release binary; the debug one only reports the news.
                let news = "\(c) now passes: remove it from Tests/Hostile/known-failures.tsv (listed as \(listed.sorted().joined(separator: ",")))"
                if release { Issue.record(Comment(rawValue: news)) } else { print("hostile: \(news)") }
            } else if let listed {
                let found = Set(problems.map { $0.0.rawValue })
                let unlisted = found.subtracting(listed)
                if !unlisted.isEmpty {
                    Issue.record("\(c): \(unlisted.sorted().joined(separator: ", ")) besides the known \(listed.sorted().joined(separator: ", ")): \(problems.map(\.1).joined(separator: "; "))")
                }
            }
        }
        print(Self.summary(results))
        if let path = environment["ROADBOOK_HOSTILE_REPORT"], !path.isEmpty {
            try Data((reportLines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        }
    }

    /// Runs the cases `parallelRuns` at a time on threads of their own (each blocks in wait4), and
    /// returns the results in the cases' order.
    private func runAll(_ cases: [HostileCase], runner: HostileRunner) async -> [HostileResult] {
        await withCheckedContinuation { continuation in
            let state = RunState(count: cases.count)
            let group = DispatchGroup()
            for _ in 0..<Self.parallelRuns {
                group.enter()
                Thread.detachNewThread {
                    while let i = state.next() {
                        state.store(runner.run(cases[i], index: i), at: i)
                    }
                    group.leave()
                }
            }
            group.notify(queue: .global()) { continuation.resume(returning: state.results.compactMap { $0 }) }
        }
    }

    /// A line per kind: cases, passed, and each problem's count, with the worst peak memory.
    static func summary(_ results: [HostileResult]) -> String {
        var lines = ["hostile: kind        cases passed crash  hang memory status message leftover modified skipped  worst peak RSS"]
        var kinds = HostileCorpus.kinds
        for r in results where !kinds.contains(r.hostileCase.kind) { kinds.append(r.hostileCase.kind) }
        for kind in kinds + ["all"] {
            let rows = results.filter { kind == "all" || $0.hostileCase.kind == kind }
            guard !rows.isEmpty else { continue }
            func count(_ p: HostileProblem) -> Int { rows.filter { $0.problems.contains { $0.0 == p } }.count }
            let run = rows.filter { $0.skipped == nil }
            let passed = run.filter { $0.problems.isEmpty }.count
            let worst = run.max { $0.peakRSS < $1.peakRSS }
            let worstText = worst.map { "\($0.peakRSS >> 20) MiB (\($0.hostileCase.name.prefix(40)))" } ?? "-"
            func pad(_ v: Any, _ n: Int) -> String { String(describing: v).padding(toLength: n, withPad: " ", startingAt: 0) }
            lines.append("hostile: \(pad(kind, 11)) \(pad(rows.count, 5)) \(pad(passed, 6)) \(pad(count(.crash), 6)) \(pad(count(.hang), 5)) "
                         + "\(pad(count(.memory), 6)) \(pad(count(.status), 6)) \(pad(count(.message), 7)) \(pad(count(.leftover), 8)) "
                         + "\(pad(count(.modified), 8)) \(pad(rows.count - run.count, 7))  \(worstText)")
        }
        let slowest = results.max { $0.seconds < $1.seconds }
        if let slowest { lines.append("hostile: slowest case \(slowest.hostileCase) \(String(format: "%.1f", slowest.seconds)) s") }
        return lines.joined(separator: "\n")
    }
}

/// The shared queue of case indices and the results, guarded by a lock.
private final class RunState: @unchecked Sendable {
    private let lock = NSLock()
    private var nextIndex = 0
    private let count: Int
    private(set) var results: [HostileResult?]
    init(count: Int) {
        self.count = count
        results = Array(repeating: nil, count: count)
    }
    func next() -> Int? {
        lock.withLock {
            guard nextIndex < count else { return nil }
            defer { nextIndex += 1 }
            return nextIndex
        }
    }
    func store(_ result: HostileResult, at i: Int) { lock.withLock { results[i] = result } }
}

/// Tests/Hostile/known-failures.tsv: `origin/name<TAB>classes (comma-separated)<TAB>note`, the
/// cases that fail today on this branch, so the suite stays green while their fixes land.
struct KnownFailures {
    private var entries: [String: Set<String>] = [:]
    init(_ url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let c = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard c.count >= 2 else { continue }
            entries[c[0]] = Set(c[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
    }
    func classes(of name: String) -> Set<String>? { entries[name] }
}
