import Foundation
import Formats
import Testing
import TestSupport

@Suite("RN2 on the command line")
struct RN2CommandTests {
    @Test("build reads rn2viewer's example; export writes the book as .rn2, with what RN2 cannot hold as warnings; build reads that back")
    func buildExportBuild() async throws {
        let folder = try TemporaryFolder()
        let sample = try testDataFolder().appendingPathComponent("rn2/rn2viewer-route_example.rn2")
        let built = await roadbook(["build", sample.path, "-o", folder.path("a.pdf").path, "--book", folder.path("a.json").path])
        #expect(built.status == 0, "\(built.errors)")
        #expect(built.errors.contains("warning: \(sample.path): icons with no meaning a book holds are left out: House, Traffic Light"), "\(built.errors)")

        let exported = await roadbook(["export", folder.path("a.json").path, "-o", folder.path("b.rn2").path])
        #expect(exported.status == 0, "\(exported.errors)")
        #expect(exported.output.contains("b.rn2: rn2"), "\(exported.output)")
        let back = try RouteFormats.read(contentsOf: folder.path("b.rn2"))
        let book = try BookFile.read(contentsOf: folder.path("a.json"))
        #expect(back.book?.notes.filter { $0.placement == .onRoute }.count == book.notes.filter { $0.placement == .onRoute }.count)

        let rebuilt = await roadbook(["build", folder.path("b.rn2").path, "-o", folder.path("c.pdf").path])
        #expect(rebuilt.status == 0, "\(rebuilt.errors)")
    }
}
