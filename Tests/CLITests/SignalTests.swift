import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// The built `roadbook` executable, interrupted while it writes.
@Suite("Interrupted runs: temporaries removed, old outputs intact")
struct SignalTests {
    /// Rows of the generated track: enough that the PDF takes a moment to draw in a debug build.
    static let rows = 400

    /// A GPX track with `rows` waypoints, a point every ~50 m.
    static func track(rows: Int) -> String {
        var text = #"<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">"#
        func coordinate(_ i: Int) -> String {
            String(format: #"lat="%.6f" lon="%.6f""#, 42 + Double(i) * 0.00045, 1 + 0.002 * sin(Double(i) / 7))
        }
        for r in 0..<rows { text += "<wpt \(coordinate(r * 4 + 2))><name>R\(r + 1)</name><desc>Row \(r + 1)</desc></wpt>\n" }
        text += "<trk><trkseg>\n"
        for i in 0..<(rows * 4) { text += "<trkpt \(coordinate(i))/>\n" }
        return text + "</trkseg></trk></gpx>\n"
    }

    static var executable: URL { packageRoot().appendingPathComponent(".build/debug/roadbook") }

    @Test("SIGTERM or SIGINT during a build removes its temporary files and leaves the old book and PDF",
          arguments: [SIGTERM, SIGINT])
    func interrupted(signal: Int32) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path), "build the package first")
        let folder = try TemporaryFolder()
        try Data(Self.track(rows: Self.rows).utf8).write(to: folder.path("t.gpx"))
        try Data("old book".utf8).write(to: folder.path("b.json"))
        try Data("old pdf".utf8).write(to: folder.path("b.pdf"))
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["build", folder.path("t.gpx").path, "-o", folder.path("b.pdf").path,
                             "--book", folder.path("b.json").path, "--no-turns", "--force"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until the run has temporary files (the book's is written before the PDF is drawn),
        // then interrupt it.
        var sawTemporary = false
        while process.isRunning {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) ?? []
            if names.contains(where: { $0.contains(".roadbook-tmp-") }) {
                sawTemporary = true
                kill(process.processIdentifier, signal)
                break
            }
            usleep(1000)
        }
        process.waitUntilExit()
        #expect(sawTemporary, "the run ended before it wrote a temporary file; raise `rows`")
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal,
                "ends as the signal ends a process")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(names == ["b.json", "b.pdf", "t.gpx"])
        #expect(try String(contentsOf: folder.path("b.json"), encoding: .utf8) == "old book")
        #expect(try String(contentsOf: folder.path("b.pdf"), encoding: .utf8) == "old pdf")
    }

    @Test("-o naming a device or a FIFO is refused in one line before any work; a link is followed")
    func outputKinds() async throws {
        let folder = try TemporaryFolder()
        try Data(Self.track(rows: 3).utf8).write(to: folder.path("t.gpx"))
        let device = await roadbook(["build", folder.path("t.gpx").path, "-o", "/dev/null"])
        #expect(device.status == 1)
        #expect(device.errors == "roadbook build: /dev/null: cannot write: it is a character device, not a regular file; give a file name to write\n")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        #expect(mkfifo(folder.path("pipe.pdf").path, 0o600) == 0)
        let fifo = await roadbook(["build", folder.path("t.gpx").path, "-o", folder.path("pipe.pdf").path])
        #expect(fifo.status == 1 && fifo.errors.contains("pipe.pdf: cannot write: it is a named pipe (FIFO)"))
        try FileManager.default.createDirectory(at: folder.path("real"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.pdf").path, withDestinationPath: "real/b.pdf")
        let linked = await roadbook(["build", folder.path("t.gpx").path, "-o", folder.path("link.pdf").path])
        #expect(linked.status == 0, "\(linked.errors)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("link.pdf").path) == "real/b.pdf")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("real").path) == ["b.pdf"])
    }
}

