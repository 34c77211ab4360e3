import Foundation
@testable import Render
import Testing
import TestSupport

@Suite("Outputs all or nothing: pages together, a full disk named")
struct AtomicOutputTests {
    @Test("PNG pages that fail half-way leave none of the run's pages and no temporary")
    func pagesAllOrNone() throws {
        let folder = try TemporaryFolder()
        // Page 3's name is taken by a folder: pages 1 and 2 are drawn before it is refused.
        try FileManager.default.createDirectory(at: folder.path("p-3.png"), withIntermediateDirectories: false)
        try Data("old".utf8).write(to: folder.path("p-1.png"))
        let renderer = BookRenderer(template: Fixtures.a5)
        #expect(throws: (any Error).self) {
            try renderer.renderPNG(Fixtures.longBook(rows: 14), pages: [1, 2, 3], dpi: 20, to: folder.path("p.png"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["p-1.png", "p-3.png"])
        #expect(try Data(contentsOf: folder.path("p-1.png")) == Data("old".utf8))
    }

    @Test("a PDF, an SVG and a PNG that cannot be written for lack of space say so (/dev/full)")
    func diskFull() throws {
        let full = "/dev/full"
        let pdf = #expect(throws: RenderError.self) {
            let surface = try PDFSurface(path: full, width: 100, height: 100)
            let cairo = try CairoContext(surface: surface)
            try cairo.showPage()
            try surface.finish()
        }
        #expect(pdf?.reason.hasPrefix("no space left on device") == true, "\(String(describing: pdf))")
        let svg = #expect(throws: RenderError.self) {
            let surface = try SVGSurface(path: full, width: 100, height: 100)
            try surface.finish()
        }
        #expect(svg?.reason.hasPrefix("no space left on device") == true, "\(String(describing: svg))")
        let png = #expect(throws: RenderError.self) { try ImageSurface(width: 10, height: 10).writePNG(to: full) }
        #expect(png?.reason.hasPrefix("no space left on device") == true, "\(String(describing: png))")
    }
}
