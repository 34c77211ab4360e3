import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What went wrong with one case, as the summary counts it.
enum HostileProblem: String, CaseIterable, Sendable {
    /// Ended by a signal: a trap (SIGILL, SIGTRAP), an abort (SIGABRT), a crash (SIGSEGV, SIGBUS).
    case crash
    /// Still running after `HostileRunner.timeout`.
    case hang
    /// Used more than `HostileRunner.memoryLimit`, or died for want of address space.
    case memory
    /// An exit status other than the one expected (0 or 1; 64 only where the row says exit=64).
    case status
    /// On failure, not exactly one line naming the input; or, ever, a Foundation/Swift internal text.
    case message
    /// A temporary file left, an output written by a failed run, or an output missing after success.
    case leftover
    /// An input (or an existing `-o` target that is not a regular file) changed.
    case modified
}

struct HostileResult: Sendable {
    var hostileCase: HostileCase
    var problems: [(HostileProblem, String)]
    var peakRSS: Int
    var seconds: Double
    /// Why the case was not run (a setup this machine cannot make), or nil.
    var skipped: String?
}

/// Runs `roadbook` on hostile cases, each in a fresh folder, and judges what it did.
struct HostileRunner: Sendable {
    /// Seconds a case may run before it counts as a hang: the slowest good case here (a build of
    /// the Andorra sample over the extract) takes under 2 s with the debug binary.
    static let timeout: Double = 20
    /// Address space a run may reserve: ten times what a build of the sample over the Andorra
    /// extract and its SRTM tile needs; a reader that allocates what a file declares hits it.
    static let memoryLimit = 1 << 30
    /// Peak resident memory above which a case counts as "memory" even when it ended well.
    static let residentLimit = 512 << 20
    /// Texts that betray a Foundation or Swift internal error instead of a message for a person.
    static let internals = ["NSCocoaErrorDomain", "Swift.", "_0", "DecodingError", "EncodingError", "Fatal error",
                            "The data isn't in the correct format", "The data couldn’t be read", "Dictionary<String, Any>",
                            "No error", "Stack dump", "SIGSEGV", "Illegal instruction"]

    let binary: URL
    let root: URL
    let scratch: URL
    /// Commands this binary does not have yet (`missingCommands(_:in:)`): their kinds' cases are
    /// skipped, saying so.
    var missingCommands: Set<String> = []

    /// Of `commands`, those `binary` does not know: `roadbook NAME --help` says it is an unknown command.
    static func missingCommands(_ commands: [String], in binary: URL) -> Set<String> {
        Set(commands.filter { name in
            guard let run = try? runProgram(binary.path, [name, "--help"]) else { return true }
            return run.status == 64 && run.errors.contains("unknown command")
        })
    }

    var sampleTrack: URL { root.appendingPathComponent("samples/andorra-envalira.gpx") }
    var extract: URL { root.appendingPathComponent("samples/data/andorra/andorra.osm.pbf") }
    var seeds: URL { root.appendingPathComponent("Tests/Hostile/seeds") }

    /// One invocation of a case: its arguments, the outputs it writes on success, and a word the
    /// one-line error must contain.
    struct Invocation {
        var arguments: [String]
        var outputs: [String]
        var mustName: [String]
        var expect: HostileCase.Expect
        var allowedStatus: Set<Int32>
        /// commands.tsv: the arguments as bytes (they need not be UTF-8), the environment added,
        /// standard input, whether the run must end by SIGKILL (a test hook), whether what it
        /// leaves is the next step's to clear, and a peak-memory limit of its own.
        var bytes: [[UInt8]]? = nil
        var environment: [String: String] = [:]
        var input: Data? = nil
        var killed = false
        var leavesFiles = false
        var residentLimit: Int? = nil
        /// Whether standard output and error must hold no control character but line feeds.
        var plainText = false
    }

    func run(_ c: HostileCase, index: Int) -> HostileResult {
        var result = HostileResult(hostileCase: c, problems: [], peakRSS: 0, seconds: 0, skipped: nil)
        let base = scratch.appendingPathComponent("case-\(index)")
        let work = base.appendingPathComponent("work"), logs = base.appendingPathComponent("logs")
        let cache = base.appendingPathComponent("cache")
        defer { try? FileManager.default.removeItem(at: base) }
        do {
            for folder in [work, logs, cache] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            var server: FaultServer?
            defer { server?.stop() }
            var inputs: [String] = []
            var invocations: [Invocation] = []
            var artefacts: [String] = []
            var sameAtEnd: [(name: String, source: URL)] = []
            var mayWrite: [String] = []
            var modesAtEnd: [(name: String, mode: mode_t)] = []
            let input = work.appendingPathComponent(c.inputName)
            if let file = c.file {
                try FileManager.default.copyItem(at: file, to: input)
                inputs.append(c.inputName)
            } else if let generator = c.generator, HostileCorpus.body(generator) == nil {
                try HostileCorpus.generate(generator, at: input)
                inputs.append(c.inputName)
            }
            let exitStatuses: Set<Int32> = c.options["exit"].flatMap { Int32($0) }.map { [0, 1, $0] } ?? [0, 1]
            func invocation(_ arguments: [String], outputs: [String], naming: [String]) -> Invocation {
                Invocation(arguments: arguments, outputs: outputs, mustName: naming, expect: c.expect, allowedStatus: exitStatuses)
            }
            switch c.kind {
            case "gpx", "rn2", "kml", "geojson", "openrally":
                invocations = [invocation(["build", input.path, "-o", "out.pdf", "--book", "out.json"],
                                          outputs: ["out.pdf", "out.json"], naming: [c.inputName])]
            case "book":
                invocations = [invocation(["render", input.path, "-o", "out.pdf"], outputs: ["out.pdf"], naming: [c.inputName]),
                               invocation(["inspect", input.path], outputs: [], naming: [c.inputName])]
            case "template":
                try FileManager.default.copyItem(at: seeds.appendingPathComponent("book.json"), to: work.appendingPathComponent("sample.json"))
                inputs.append("sample.json")
                invocations = [invocation(["render", "sample.json", "-o", "out.pdf", "--template", input.path],
                                          outputs: ["out.pdf"], naming: [c.inputName])]
            case "symbol":
                // A pictogram in a person's folder of them, named as a symbol the seed book prints
                // (`as=dss.svg`): one that cannot be drawn prints as its name, with a warning.
                try FileManager.default.copyItem(at: seeds.appendingPathComponent("book.json"), to: work.appendingPathComponent("sample.json"))
                let folder = work.appendingPathComponent("symbols")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
                try FileManager.default.moveItem(at: input, to: folder.appendingPathComponent(c.inputName))
                inputs = ["sample.json", "symbols/\(c.inputName)"]
                artefacts = ["symbols"]
                invocations = [invocation(["render", "sample.json", "-o", "out.pdf", "--symbols", "symbols"],
                                          outputs: ["out.pdf"], naming: [c.inputName])]
            case "handles":
                invocations = [invocation(["route", input.path, "--engine", "embedded", "--osm", extract.path, "--book", "out.json"],
                                          outputs: ["out.json"], naming: [c.inputName])]
            case "draft":
                // The draft beside the book it names; listing reads both and writes nothing.
                try FileManager.default.copyItem(at: seeds.appendingPathComponent("draft-book.json"), to: work.appendingPathComponent("book.json"))
                inputs.append("book.json")
                invocations = [invocation(["handles", "book.json", "list"], outputs: [], naming: [c.inputName])]
            case "osm":
                invocations = [invocation(["build", sampleTrack.path, "--osm", input.path, "-o", "out.pdf"],
                                          outputs: ["out.pdf"], naming: [c.inputName])]
            case "graph":
                // The case is the prepared graph beside a small extract stamped with the time the
                // corpus's graphs were signed with: read when it matches, made again otherwise.
                let map = work.appendingPathComponent("map.osm.pbf")
                try FileManager.default.copyItem(at: root.appendingPathComponent("Tests/Hostile/osm/valid.osm.pbf"), to: map)
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)], ofItemAtPath: map.path)
                try FileManager.default.moveItem(at: input, to: work.appendingPathComponent("map.osm.pbf.roadbook-graph"))
                inputs = ["map.osm.pbf"]
                artefacts = ["map.osm.pbf.roadbook-graph"]
                invocations = [invocation(["build", sampleTrack.path, "--osm", "map.osm.pbf", "-o", "out.pdf"],
                                          outputs: ["out.pdf"], naming: ["map.osm.pbf.roadbook-graph"])]
            case "dem":
                invocations = [invocation(["build", sampleTrack.path, "--dem", input.path, "-o", "out.pdf"],
                                          outputs: ["out.pdf"], naming: [c.inputName])]
            case "engine", "elevation":
                let body: Data
                if let file = c.file {
                    body = try Data(contentsOf: file)
                } else if let generated = c.generator.flatMap(HostileCorpus.body) {
                    body = generated
                } else {
                    body = try Data(contentsOf: input)
                }
                inputs.removeAll()
                try? FileManager.default.removeItem(at: input)
                let status = Int(c.options["status"] ?? "200") ?? 200
                let behaviour: FaultServer.Behaviour = c.flags.contains("raw")
                    ? .garbage(body)
                    : .respond(status, headers: ["Content-Type": c.name.hasSuffix(".html") ? "text/html" : "application/json"], body: body)
                server = try FaultServer(handler: { _ in behaviour })
                let url = server!.baseURL.absoluteString
                if c.kind == "engine" {
                    try FileManager.default.copyItem(at: seeds.appendingPathComponent("handles.txt"), to: work.appendingPathComponent("handles.txt"))
                    inputs.append("handles.txt")
                    let engine = c.options["engine"] ?? "osrm"
                    let label = ["osrm": "OSRM", "valhalla": "Valhalla", "graphhopper": "GraphHopper"][engine] ?? engine
                    invocations = [invocation(["route", "handles.txt", "--engine", engine, "--url", url, "--book", "out.json"],
                                              outputs: ["out.json"], naming: [label, "127.0.0.1"])]
                } else {
                    let service = c.options["service"] ?? "opentopodata"
                    let address = service == "opentopodata" ? "opentopodata:\(url)/v1/srtm30m" : "\(service):\(url)"
                    let label = ["opentopodata": "OpenTopoData", "open-elevation": "Open-Elevation", "valhalla": "Valhalla"][service] ?? service
                    invocations = [invocation(["build", sampleTrack.path, "--elevation", address, "-o", "out.pdf"],
                                              outputs: ["out.pdf"], naming: [label, "127.0.0.1"])]
                }
            case "saved":
                // A book edited by hand, changed and saved: a book that breaks a rule between its
                // notes is not written (refused naming the output, or the input as it is read).
                try FileManager.default.copyItem(at: seeds.appendingPathComponent("short.gpx"), to: work.appendingPathComponent("track.gpx"))
                inputs.append("track.gpx")
                invocations = [invocation(["regenerate", input.path, "--route", "track.gpx", "-o", "out.json"],
                                          outputs: ["out.json", "out.journal.json"],
                                          naming: [c.inputName, "out.json"])]
            case "undo":
                try FileManager.default.copyItem(at: seeds.appendingPathComponent("book.json"), to: work.appendingPathComponent("book.json"))
                inputs.append("book.json")
                invocations = [invocation(["undo-apply", "book.json"], outputs: [], naming: [c.inputName])]
            case "journal":
                // The journal beside the seed book: `undo book.json` reads both, under the book's lock
                // (`.book.json.lock`, gone when the command ends); a damaged journal is refused
                // naming it, the book as it was.
                guard !missingCommands.contains("undo") else {
                    result.skipped = "this roadbook has no 'undo' command yet (roadbook note|undo|redo is being added): "
                        + "the journal cases wait for it"
                    return result
                }
                try FileManager.default.copyItem(at: seeds.appendingPathComponent("book.json"), to: work.appendingPathComponent("book.json"))
                if c.expect == .ok {
                    inputs.removeAll { $0 == c.inputName }
                    mayWrite = ["book.json", c.inputName]
                } else {
                    inputs.append("book.json")
                }
                invocations = [invocation(["undo", "book.json"], outputs: [], naming: [c.inputName])]
            case "command":
                guard let command = c.command else { return result }
                let prepared = try HostileCommands.prepare(command, in: work, root: root)
                // Names byte for byte (`CaseName`); words as the messages print them.
                let name = CaseName.label, text = { (bytes: [UInt8]) in String(decoding: bytes, as: UTF8.self) }
                inputs = prepared.inputs.map(name)
                artefacts = prepared.artefacts.map(name)
                sameAtEnd = prepared.same.map { (name($0.name), $0.source) }
                mayWrite = prepared.writes.map(name)
                modesAtEnd = prepared.modes.map { (name($0.name), $0.mode) }
                let limit = c.options["rss"].flatMap(Int.init).map { $0 << 20 }
                invocations = try command.steps.enumerated().map { i, step in
                    let last = i == command.steps.count - 1
                    var call = invocation(step.words.map(text), outputs: last ? prepared.outputs.map(name) : [],
                                          naming: command.message.isEmpty ? [""] : [text(command.message)])
                    call.expect = HostileCorpus.expectation(step.expect) ?? .any
                    // `@/NAME` is NAME's absolute path in the folder.
                    call.bytes = step.words.map { $0.starts(with: Array("@/".utf8)) ? Array(work.path.utf8) + $0.dropFirst(1) : $0 }
                    call.environment = step.environment
                    call.input = try step.input.map { try Data(contentsOf: work.appendingPathComponent($0)) }
                    call.killed = step.expect == "killed"
                    call.leavesFiles = !last
                    call.residentLimit = limit
                    call.plainText = true
                    return call
                }
            case "output":
                try FileManager.default.copyItem(at: seeds.appendingPathComponent("short.gpx"), to: work.appendingPathComponent("track.gpx"))
                inputs.append("track.gpx")
                let setup = try OutputSetup(c.options["setup"] ?? "", in: work)
                artefacts = setup.artefacts
                invocations = [invocation(["build", "track.gpx", "-o", setup.output, "--book", setup.book, "--force"],
                                          outputs: [setup.output, setup.book].filter { !setup.artefacts.contains($0) } + setup.followed,
                                          naming: [setup.mustName])]
            default:
                result.skipped = "no recipe for kind \(c.kind)"
                return result
            }

            let before = try inputs.map { try digest(CaseName.path($0, in: work)) }
            let nodesBefore = artefacts.map { fileType(CaseName.path($0, in: work)) }
            let environment = [
                "PATH": "/usr/bin:/bin", "HOME": cache.path, "XDG_CACHE_HOME": cache.path, "ROADBOOK_CACHE": cache.path,
                "LANG": "C.UTF-8", "MALLOC_ARENA_MAX": "2",
            ]
            // Allowed in the folder: inputs, setup artefacts, and the outputs of the steps that succeeded.
            var allowed = Set(inputs + artefacts + mayWrite)
            var reported: Set<String> = []
            for step in invocations {
                let run = try LimitedRun.run(bytes: [Array(binary.path.utf8)] + (step.bytes ?? step.arguments.map { Array($0.utf8) }),
                                             in: work, environment: environment.merging(step.environment) { $1 }, logs: logs,
                                             timeout: Self.timeout, addressSpace: Self.memoryLimit, input: step.input)
                result.peakRSS = max(result.peakRSS, run.peakRSS)
                result.seconds += run.seconds
                let command = step.arguments[0]
                judge(run, step, command: command, into: &result)
                let present = CaseName.names(in: work)
                if case .exited(0) = run.end {
                    allowed.formUnion(step.outputs)
                    let missing = step.outputs.filter { !present.contains($0) }
                    if !missing.isEmpty { result.problems.append((.leftover, "\(command): exit 0 without \(missing.joined(separator: ", "))")) }
                }
                let extra = present.filter { !allowed.contains($0) && !reported.contains($0) }.sorted()
                if !extra.isEmpty && !step.leavesFiles {
                    result.problems.append((.leftover, "\(command): left \(extra.joined(separator: ", "))"))
                    reported.formUnion(extra)
                }
            }
            let after = try inputs.map { try digest(CaseName.path($0, in: work)) }
            for (i, name) in inputs.enumerated() where before[i] != after[i] {
                result.problems.append((.modified, "\(name) changed"))
            }
            let nodesAfter = artefacts.map { fileType(CaseName.path($0, in: work)) }
            for (i, name) in artefacts.enumerated() where nodesBefore[i] != nodesAfter[i] {
                result.problems.append((.modified, "\(name) was a \(nodesBefore[i]), now a \(nodesAfter[i])"))
            }
            for (name, mode) in modesAtEnd {
                var info = stat()
                if HostileCommands.withCString(CaseName.path(name, in: work), { stat($0, &info) }) != 0 || info.st_mode & 0o7777 != mode {
                    result.problems.append((.modified, "\(name) has mode \(String(info.st_mode & 0o7777, radix: 8)), not \(String(mode, radix: 8))"))
                }
            }
            for (name, source) in sameAtEnd where contents(CaseName.path(name, in: work)) != (try? Data(contentsOf: source)) {
                result.problems.append((.modified, "\(name) does not hold the bytes of \(source.lastPathComponent)"))
            }
            if c.kind == "output", c.options["setup"] == "symlink-file" {
                let target = work.appendingPathComponent("old.pdf")
                let head = (try? Data(contentsOf: target))?.prefix(4) ?? Data()
                if head != Data("%PDF".utf8) { result.problems.append((.modified, "the symlink's target old.pdf was not replaced by the PDF")) }
            }
        } catch let error as OutputSetup.Unavailable {
            result.skipped = error.reason
        } catch {
            result.problems.append((.status, "the test could not run the case: \(error)"))
        }
        return result
    }

    private func judge(_ run: LimitedRun, _ step: Invocation, command: String, into result: inout HostileResult) {
        let lines = run.stderr.split(separator: "\n").map(String.init)
        let firstLine = lines.first.map { String($0.prefix(160)) } ?? "(nothing on stderr)"
        switch run.end {
        case .timedOut:
            result.problems.append((.hang, "\(command): still running after \(Int(Self.timeout)) s"))
            return
        case .signalled(let signal) where step.killed && signal == SIGKILL:
            return
        case .signalled(let signal):
            let memory = run.peakRSS > Self.memoryLimit / 4 || run.stderr.contains("alloc") || run.stderr.contains("memory")
            let name = String(cString: strsignal(signal))
            result.problems.append((memory ? .memory : .crash,
                                    "\(command): \(name) (signal \(signal)), peak \(run.peakRSS >> 20) MiB: \(firstLine)"))
            return
        case .exited(let status):
            if step.killed {
                result.problems.append((.status, "\(command): expected to be killed by its test hook, exit \(status): \(firstLine)"))
                return
            }
            if step.plainText, !HostileCommands.controlCharacters(in: Data((run.stderr + run.stdout).utf8)).isEmpty {
                result.problems.append((.message, "\(command): control characters on standard output or error: \(firstLine.debugDescription)"))
            }
            if !step.allowedStatus.contains(status) {
                let memory = run.stderr.contains("alloc") || run.stderr.contains("out of memory")
                result.problems.append((memory ? .memory : .status, "\(command): exit \(status): \(firstLine)"))
                return
            }
            if run.peakRSS > step.residentLimit ?? Self.residentLimit {
                result.problems.append((.memory, "\(command): peak \(run.peakRSS >> 20) MiB"))
            }
            switch (step.expect, status) {
            case (.ok, let s) where s != 0:
                result.problems.append((.status, "\(command): expected success, exit \(s): \(firstLine)"))
            case (.fail, 0):
                result.problems.append((.status, "\(command): expected a refusal, exit 0"))
            default: break
            }
            if let bad = Self.internals.first(where: { run.stderr.contains($0) }) {
                result.problems.append((.message, "\(command): internal text \"\(bad)\": \(firstLine)"))
            }
            // One line for a failure; a refusal of the command line (64) may add the usage lines.
            if status == 1 {
                let errors = lines.filter { !Self.isWarning($0) && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                if errors.count != 1 {
                    result.problems.append((.message, "\(command): \(errors.count) error lines: \(firstLine)"))
                } else if !step.mustName.contains(where: { errors[0].contains($0) }) {
                    result.problems.append((.message, "\(command): does not name \(step.mustName[0]): \(firstLine)"))
                }
            }
        }
    }

    /// `warning: …`, or `roadbook build: warning: …`.
    static func isWarning(_ line: String) -> Bool {
        if line.hasPrefix("warning:") { return true }
        if line.hasPrefix("roadbook "), let colon = line.range(of: ": ") {
            return line[colon.upperBound...].hasPrefix("warning:")
        }
        return false
    }

    private func digest(_ path: [UInt8]) throws -> Data {
        // Size and content: the corpus files are small; a sparse large input is compared by size,
        // modification time and its first megabyte.
        // Mode and inode too: an input replaced by a file of the same bytes was still replaced.
        var info = stat()
        guard HostileCommands.withCString(path, { lstat($0, &info) }) == 0 else { return Data("missing".utf8) }
        let stamp = Data("\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_mode) \(info.st_ino)".utf8)
        guard info.st_mode & S_IFMT == S_IFREG else { return stamp }
        let fd = HostileCommands.withCString(path) { open($0, O_RDONLY) }
        guard fd >= 0 else { return stamp }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        defer { try? handle.close() }
        let head = try handle.read(upToCount: 1 << 20) ?? Data()
        return stamp + head
    }

    /// The whole of the file at `path`, or nil.
    private func contents(_ path: [UInt8]) -> Data? {
        let fd = HostileCommands.withCString(path) { open($0, O_RDONLY) }
        guard fd >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        defer { try? handle.close() }
        return try? handle.readToEnd() ?? Data()
    }

    private func fileType(_ path: [UInt8]) -> String {
        var info = stat()
        guard HostileCommands.withCString(path, { lstat($0, &info) }) == 0 else { return "missing file" }
        switch info.st_mode & S_IFMT {
        case S_IFCHR: return "device"
        case S_IFIFO: return "FIFO"
        case S_IFDIR: return "directory"
        case S_IFLNK: return "symlink"
        case S_IFREG: return "regular file"
        default: return "special file"
        }
    }
}

/// An `-o` situation of the output kind, made in the case's folder.
struct OutputSetup {
    struct Unavailable: Error { var reason: String }
    /// A temporary file as a killed run would leave it beside out.pdf (AtomicFile's naming, with a
    /// process id no process has).
    static let staleName = ".out.pdf.999999.12345.tmp"

    var output = "out.pdf"
    var book = "out.json"
    /// Files the setup made that must still be what they were (their type) afterwards.
    var artefacts: [String] = []
    /// Files a successful run writes besides `output` and `book`: the file a link leads to.
    var followed: [String] = []
    var mustName = "out.pdf"

    init(_ setup: String, in folder: URL) throws {
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        /// The null device's numbers (1, 3) as makedev packs small ones.
        let nullDevice = dev_t((1 << 8) | 3)
        switch setup {
        case "device":
            guard mknod(path("out.pdf"), S_IFCHR | 0o666, nullDevice) == 0 else { throw Unavailable(reason: "mknod needs root") }
            artefacts = ["out.pdf"]
        case "symlink-device":
            guard mknod(path("null"), S_IFCHR | 0o666, nullDevice) == 0 else { throw Unavailable(reason: "mknod needs root") }
            symlink("null", path("out.pdf"))
            artefacts = ["null", "out.pdf"]
        case "fifo":
            mkfifo(path("out.pdf"), 0o644)
            artefacts = ["out.pdf"]
        case "directory":
            mkdir(path("out.pdf"), 0o755)
            artefacts = ["out.pdf"]
        case "symlink-file":
            _ = FileManager.default.createFile(atPath: path("old.pdf"), contents: Data("old".utf8))
            symlink("old.pdf", path("out.pdf"))
            artefacts = ["old.pdf", "out.pdf"]
        case "symlink-dangling":
            symlink("nowhere.pdf", path("out.pdf"))
            artefacts = ["out.pdf"]
            // Writing through a link that leads nowhere yet makes the file it names, as editors do.
            followed = ["nowhere.pdf"]
        case "missing-parent":
            output = "nowhere/out.pdf"
            mustName = "nowhere"
        case "book-directory":
            mkdir(path("out.json"), 0o755)
            artefacts = ["out.json"]
            mustName = "out.json"
        case "output-is-input":
            output = "track.gpx"
            mustName = "track.gpx"
        case "stale-temporary":
            _ = FileManager.default.createFile(atPath: path(Self.staleName), contents: Data("%PDF half".utf8))
        default:
            if setup.hasPrefix("long-name:"), let n = Int(setup.dropFirst("long-name:".count)) {
                output = String(repeating: "n", count: n) + ".pdf"
                mustName = String(output.prefix(40))
            } else {
                throw Unavailable(reason: "unknown setup \(setup)")
            }
        }
    }
}
