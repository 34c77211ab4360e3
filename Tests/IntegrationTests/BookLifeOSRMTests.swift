import Foundation
import Formats
import Geo
import Model
import RoadbookCLI
import Testing
import TestSupport

/// The book's life with a real OSRM (car profile, Andorra extract; started on 127.0.0.1 by
/// scripts/test.sh): a route through handles, edits in the draft, Apply and its undo. OSRM is
/// reached through a forwarding server on loopback that counts the requests, so "only the legs an
/// edit changed are asked" is checked by counting, while every answer is the real OSRM's.
@Suite("The book's life with a real OSRM", .serialized)
struct BookLifeOSRMTests {
    static func osrm() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["ROADBOOK_OSRM_URL"] else {
            throw ToolError(message: "ROADBOOK_OSRM_URL is not set: run the suite with scripts/test.sh, which starts OSRM on 127.0.0.1")
        }
        return url.hasSuffix("/") ? String(url.dropLast()) : url
    }

    /// A server on loopback that passes each request to OSRM and its answer back, unless `refuse`
    /// says to answer 429 (OSRM limiting requests) instead.
    static func forwarding(to osrm: String, refuse: @escaping @Sendable (FaultServer.Request) -> Bool = { _ in false }) throws -> FaultServer {
        try FaultServer(handler: { request in
            if refuse(request) { return .respond(429, body: Data("Too Many Requests".utf8)) }
            guard let body = try? runTool("curl", ["-s", osrm + request.target]) else { return .respond(502) }
            return .json(body)
        })
    }

    /// `roadbook` on the lines of `output` that describe legs, by leg name ("leg 1–2").
    static func legLines(_ output: String) -> [String: String] {
        var lines: [String: String] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("leg ") {
            let name = line.prefix { $0 != ":" }
            lines[String(name)] = String(line)
        }
        return lines
    }

    static let handles = [
        "42.5063 1.5218 | Cattle grid | CP1",
        "42.5100 1.5300",
        "42.5130 1.5360 | Bridge",
        "42.5150 1.5400 | Fuel | P1",
    ]

    @Test("with OSRM: each edit asks only the legs it changed, undo asks nothing, and undo-apply puts back exactly the route before Apply")
    func editApplyUndo() async throws {
        let osrm = try Self.osrm()
        let proxy = try Self.forwarding(to: osrm)
        defer { proxy.stop() }
        let engine = ["--engine", "osrm", "--url", proxy.baseURL.absoluteString]
        let folder = try TemporaryFolder()
        let url = folder.path("b.json")
        let routed = await roadbook(["route", "--book", url.path] + Self.handles.flatMap { ["--handle", $0] } + engine)
        #expect(routed.status == 0, "\(routed.errors)")
        #expect(proxy.requests.count == 3, "a route through four handles asks its three legs, each on its own: \(proxy.requests.map(\.target))")
        #expect(routed.output.contains("leg 1–2: road") && routed.output.contains("leg 3–4: road"), "\(routed.output)")

        // A person's words in the book.
        var book = try BookFile.read(contentsOf: url)
        book.rally = "Rallye des Pyrénées"
        book.notes.append(Note(id: book.nextNoteID, kind: .typed, distanceAlong: book.notes.last!.distanceAlong,
                               coordinate: book.notes.last!.coordinate, text: "Refuel here, cash only", danger: 1, symbols: [.fuel]))
        try BookFile.write(book, to: url)
        let beforeApply = try Data(contentsOf: url)
        let routeBefore = try BookFile.read(contentsOf: url).route

        let listed = Self.legLines(await roadbook(["handles", url.path, "list"]).output)
        var asked = proxy.requests.count
        let moved = await roadbook(["handles", url.path, "move", "3", "42.5135 1.5368"] + engine)
        #expect(moved.status == 0, "\(moved.errors)")
        #expect(proxy.requests.count - asked == 2, "moving handle 3 asks legs 2–3 and 3–4 only: \(proxy.requests.suffix(3).map(\.target))")
        let afterMove = Self.legLines(moved.output)
        #expect(afterMove["leg 1–2"] == listed["leg 1–2"], "the leg the move did not touch is as it was: \(moved.output)")
        #expect(afterMove["leg 2–3"] != listed["leg 2–3"], "the moved handle's legs changed: \(moved.output)")

        asked = proxy.requests.count
        #expect(await roadbook(["handles", url.path, "kind", "1", "straight"] + engine).status == 0)
        let undone = await roadbook(["handles", url.path, "undo"] + engine)
        #expect(undone.status == 0 && undone.output.contains("leg 1–2: road"), "\(undone.output)")
        #expect(proxy.requests.count == asked, "a straight leg asks nothing, and roads already found are kept when you undo")

        let added = await roadbook(["handles", url.path, "add", "42.5170 1.5450", "--note", "Chapel"] + engine)
        #expect(added.status == 0, "\(added.errors)")
        #expect(proxy.requests.count - asked == 1, "a handle added at the end asks its one new leg")

        asked = proxy.requests.count
        let applied = await roadbook(["apply", url.path])
        #expect(applied.status == 0, "\(applied.errors)")
        #expect(proxy.requests.count == asked, "apply uses the roads the drawing found: nothing is asked again")
        let after = try BookFile.read(contentsOf: url)
        #expect(after.route != routeBefore && after.plan?.handles.count == 5, "\(applied.output)")
        #expect(after.rally == "Rallye des Pyrénées" && after.notes.contains { $0.text == "Refuel here, cash only" && $0.danger == 1 && $0.symbols == [.fuel] },
                "apply keeps the words, dangers, symbols and header fields a person set")

        let undoApply = await roadbook(["undo-apply", url.path])
        #expect(undoApply.status == 0, "\(undoApply.errors)")
        #expect(try BookFile.read(contentsOf: url).route == routeBefore, "undo-apply puts back the route exactly as before the Apply")
        #expect(try Data(contentsOf: url) == beforeApply, "undo-apply puts back the whole book, byte for byte")
    }

    @Test("with OSRM limiting requests on some legs: the route waits, --retry asks only the waiting legs, and keeps the book's words")
    func retryWaitingLegs() async throws {
        let osrm = try Self.osrm()
        // Handle 3 (lon 1.536) is refused while `limiting` is set: legs 2–3 and 3–4 wait.
        let limiting = LockedFlag(true)
        let proxy = try Self.forwarding(to: osrm, refuse: { limiting.value && $0.path.contains("1.536") })
        defer { proxy.stop() }
        let engine = ["--engine", "osrm", "--url", proxy.baseURL.absoluteString]
        let folder = try TemporaryFolder()
        let url = folder.path("b.json")
        let unfinished = await roadbook(["route", "--book", url.path] + Self.handles.flatMap { ["--handle", $0] } + engine)
        #expect(unfinished.status == 1 && unfinished.errors.contains("did not answer for legs 2–3, 3–4")
                && unfinished.errors.contains("nothing was written"), "\(unfinished.errors)")
        #expect(!FileManager.default.fileExists(atPath: url.path), "an unfinished route writes nothing")
        let first = await roadbook(["route", "--book", url.path, "--use-straight"] + Self.handles.flatMap { ["--handle", $0] } + engine)
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output.contains("leg 2–3: waiting: limiting requests") && first.output.contains("leg 1–2: road"), "\(first.output)")
        let refused = await roadbook(["apply", url.path])
        #expect(refused.status == 1 && refused.errors.contains("nothing to apply") && refused.errors.contains("--retry"),
                "the book's own route is nothing to apply; its waiting legs are asked with --retry: \(refused.errors)")

        var book = try BookFile.read(contentsOf: url)
        book.stage = "SS2"
        book.notes.append(Note(id: book.nextNoteID, kind: .typed, distanceAlong: 0, coordinate: book.route.coordinates[0],
                               text: "Start by the church", danger: 2))
        book.notes.sort { $0.distanceAlong < $1.distanceAlong }
        try BookFile.write(book, to: url)

        limiting.value = false
        let asked = proxy.requests.count
        let retried = await roadbook(["route", "--retry", "--book", url.path] + engine)
        #expect(retried.status == 0, "\(retried.errors)")
        #expect(proxy.requests.count - asked == 2, "--retry asks only the two legs that waited: \(proxy.requests.suffix(3).map(\.target))")
        #expect(!retried.output.contains("waiting"), "\(retried.output)")
        let after = try BookFile.read(contentsOf: url)
        #expect(after.stage == "SS2" && after.notes.contains { $0.text == "Start by the church" && $0.danger == 2 },
                "--retry is an Apply: the words, dangers and header fields a person set stay")
        #expect(after.route.straightStretches == nil, "no leg is straight once every leg has its road")
    }
}

/// Runs `roadbook` in-process.
func roadbook(_ arguments: [String]) async -> (status: Int32, output: String, errors: String) {
    let console = CapturingConsole()
    let status = await Roadbook.main(arguments, console: console)
    return (status, console.output, console.errors)
}

/// A flag shared with the forwarding server's thread.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Bool
    init(_ value: Bool) { stored = value }
    var value: Bool {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
