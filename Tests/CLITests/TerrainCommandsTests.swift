import Foundation
import Formats
import Model
import Terrain
import Testing
import TestSupport

/// Terrain on the command line: `build --dem/--elevation`, `profile`, `inspect --json`.
@Suite("Terrain on the command line")
struct TerrainCommandsTests {
    static var sample: String { packageRoot().appendingPathComponent("samples/andorra-envalira.gpx").path }

    @Test("build --dem gives every row its height; profile draws PNG, SVG and PDF")
    func dem() async throws {
        let folder = try TemporaryFolder()
        let tile = try testDataFolder().appendingPathComponent("andorra/N42E001.hgt.zip").path
        let r = await roadbook(["build", Self.sample, "-o", folder.path("b.pdf").path, "--book", folder.path("b.json").path,
                                "--no-turns", "--dem", tile])
        #expect(r.status == 0, "\(r.errors)")
        #expect(r.errors.contains("terrain: climb"))
        let inspect = await roadbook(["inspect", folder.path("b.json").path, "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(inspect.output.utf8)) as? [String: Any])
        let notes = try #require(json["notes"] as? [[String: Any]])
        let heights = notes.compactMap { $0["elevation"] as? Double }
        #expect(heights.count == notes.count && heights.count == 14)
        #expect(heights.first.map { $0 > 850 && $0 < 950 } == true, "Sant Julià is about 900 m: \(heights)")
        #expect((json["climb"] as? Double).map { $0 > 1500 } == true)
        for ext in ["png", "svg", "pdf"] {
            let p = await roadbook(["profile", folder.path("b.json").path, "-o", folder.path("p.\(ext)").path])
            #expect(p.status == 0, "\(p.errors)")
        }
        _ = try runTool("xmllint", ["--noout", folder.path("p.svg").path])
        _ = try runTool("qpdf", ["--check", folder.path("p.pdf").path])
        let text = try runTool("pdftotext", ["-f", "2", "-l", "2", folder.path("b.pdf").path, "-"])
        #expect(text.contains(" m"), "rows print their height")
    }

    @Test("a DEM that does not cover the route: No terrain for this route, and the book still prints")
    func noTerrain() async throws {
        let folder = try TemporaryFolder()
        let elsewhere = try HGTTile(south: 10, west: 10, size: 1201, samples: [Int16](repeating: 5, count: 1201 * 1201),
                                    source: "elsewhere")
        try elsewhere.write(to: folder.path("N10E010.hgt"))
        let r = await roadbook(["build", Self.sample, "-o", folder.path("b.pdf").path, "--book", folder.path("b.json").path,
                                "--no-turns", "--dem", folder.path("N10E010.hgt").path])
        #expect(r.status == 0, "\(r.errors)")
        #expect(r.errors.contains("No terrain for this route"))
        let book = try BookFile.read(contentsOf: folder.path("b.json"))
        #expect(book.profile?.isComplete == false && book.notes.allSatisfy { $0.elevation == nil })
        let cover = try runTool("pdftotext", ["-f", "1", "-l", "1", folder.path("b.pdf").path, "-"])
        #expect(cover.contains("No terrain for this route"))
        let p = await roadbook(["profile", folder.path("b.json").path, "-o", folder.path("p.png").path])
        #expect(p.status == 1 && p.errors.contains("No terrain for this route"))
    }

    @Test("a service that fails is a warning naming it; the book prints without terrain")
    func failingService() async throws {
        let server = try FaultServer(handler: { _ in .respond(500, body: Data("down".utf8)) })
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let r = await roadbook(["build", Self.sample, "-o", folder.path("b.pdf").path, "--book", folder.path("b.json").path,
                                "--no-turns", "--elevation", "valhalla:\(server.baseURL.absoluteString)"])
        #expect(r.status == 0, "\(r.errors)")
        #expect(r.errors.contains("HTTP 500") && r.errors.contains("No terrain for this route"), "\(r.errors)")
    }

    @Test("a service answering more than --max-answer-mb is a warning saying the size and naming the option that raises it")
    func answerTooLarge() async throws {
        let server = try FaultServer(handler: { _ in .endless(chunk: Data(repeating: UInt8(ascii: "["), count: 64 * 1024)) })
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let r = await roadbook(["build", Self.sample, "-o", folder.path("b.pdf").path, "--no-turns", "--max-answer-mb", "1",
                                "--elevation", "valhalla:\(server.baseURL.absoluteString)"])
        #expect(r.status == 0, "\(r.errors)")
        #expect(r.errors.contains("Valhalla: the answer is larger than 1 MB, the most this client takes; "
                                  + "raise the limit with --max-answer-mb if the answer is expected to be this large)"), "\(r.errors)")
    }

    @Test("mistakes: an unknown service, a corrupt tile", arguments: [
        (["--elevation", "google:https://x.example/"], Int32(64), "unknown service 'google'"),
        (["--elevation", "opentopodata:https://api.opentopodata.org/srtm30m"], Int32(64), "ends in /v1/DATASET"),
        (["--elevation", "valhalla"], Int32(64), "write opentopodata:URL"),
    ])
    func mistakes(extra: [String], status: Int32, message: String) async throws {
        let folder = try TemporaryFolder()
        let r = await roadbook(["build", Self.sample, "-o", folder.path("b.pdf").path] + extra)
        #expect(r.status == status && r.errors.contains(message), "\(r.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("b.pdf").path))
    }

    @Test("a corrupt tile fails with its name and writes nothing")
    func corruptTile() async throws {
        let folder = try TemporaryFolder()
        try Data(repeating: 1, count: 1000).write(to: folder.path("N42E001.hgt"))
        let r = await roadbook(["build", Self.sample, "-o", folder.path("b.pdf").path, "--dem", folder.path("N42E001.hgt").path])
        #expect(r.status == 1 && r.errors.contains("N42E001.hgt"), "\(r.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("b.pdf").path))
    }
}
