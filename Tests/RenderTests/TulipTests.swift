import Foundation
import Layout
import Model
@testable import Render
import TestSupport
import Testing

/// Tulips of each kind of junction a road book meets, as the pipeline would hand them in.
enum TulipFixtures {
    typealias Road = Tulip.Road

    static func generated(_ roads: [Road], roundabout: Tulip.Roundabout? = nil) -> Tulip {
        Tulip(origin: .generated, roads: roads, roundabout: roundabout)
    }

    static let entry = Road(role: .entry, angle: 180)

    /// Name (the golden's, after `tulip-`) and tulip.
    static let all: [(name: String, tulip: Tulip)] = [
        ("crossroads-straight", generated([entry, Road(role: .exit, angle: 0),
                                           Road(role: .side, angle: -90), Road(role: .side, angle: 90)])),
        ("t-left", generated([entry, Road(role: .exit, angle: -90), Road(role: .side, angle: 90)])),
        ("t-right", generated([entry, Road(role: .exit, angle: 90), Road(role: .side, angle: -90)])),
        ("y-keep-left", generated([entry, Road(role: .exit, angle: -25), Road(role: .side, angle: 25)])),
        ("y-keep-right", generated([entry, Road(role: .exit, angle: 25), Road(role: .side, angle: -25)])),
        // Counterclockwise from the entry: 70 is the 1st exit, 10 the 2nd, −60 the 3rd, −130 the 4th.
        ("roundabout-3rd-of-4", generated([entry, Road(role: .side, angle: 70), Road(role: .side, angle: 10),
                                           Road(role: .exit, angle: -60), Road(role: .side, angle: -130)],
                                          roundabout: Tulip.Roundabout(exitNumber: 3))),
        // Clockwise (driving on the left): −90 is the 1st exit, 0 the 2nd, 90 the 3rd.
        ("roundabout-clockwise", generated([entry, Road(role: .side, angle: -90), Road(role: .side, angle: 0),
                                            Road(role: .exit, angle: 90)],
                                           roundabout: Tulip.Roundabout(exitNumber: 3, clockwise: true))),
        ("hairpin-right", generated([entry, Road(role: .exit, angle: 150), Road(role: .side, angle: 0)])),
        ("u-turn", generated([entry, Road(role: .exit, angle: 180)])),
        ("slip-road", generated([Road(role: .entry, angle: 180, roadClass: .motorway),
                                 Road(role: .side, angle: 0, roadClass: .motorway),
                                 Road(role: .exit, angle: 30, roadClass: .tarmac)])),
        ("track-off-tarmac", generated([entry, Road(role: .side, angle: 0),
                                        Road(role: .exit, angle: -60, roadClass: .track),
                                        Road(role: .side, angle: 110, roadClass: .path)])),
        ("gravel-to-off-piste", generated([Road(role: .entry, angle: 180, roadClass: .gravel),
                                           Road(role: .side, angle: -20, roadClass: .gravel),
                                           Road(role: .exit, angle: 45, roadClass: .offPiste)])),
        // A fork whose branches lie 7° apart: drawn 20° apart, the road taken straight on where it is.
        ("fork-seven-degrees", generated([entry, Road(role: .exit, angle: 0), Road(role: .side, angle: 7)])),
        // The sample's R6: the 1st exit straight on, then three roads met after it going round, one
        // of them one-way into the ring (a bar), one whose bearing lies right of the entry, drawn
        // just left of it where traffic meets it last.
        ("roundabout-every-road", generated([entry, Road(role: .exit, angle: -1),
                                             Road(role: .side, angle: 25, noExit: true, metBeforeExit: false),
                                             Road(role: .side, angle: -127, metBeforeExit: false),
                                             Road(role: .side, angle: 125, metBeforeExit: false)],
                                            roundabout: Tulip.Roundabout(exitNumber: 1))),
        // A person's drawing: a fence along the left of the road and a tree (a small triangle) on the right.
        ("hand-drawn", Tulip(origin: .drawn, roads: [entry, Road(role: .exit, angle: 0, roadClass: .gravel)],
                             strokes: [[Tulip.Point(x: -0.35, y: -0.8), Tulip.Point(x: -0.35, y: 0.7)],
                                       [Tulip.Point(x: 0.45, y: 0.1), Tulip.Point(x: 0.6, y: 0.4),
                                        Tulip.Point(x: 0.75, y: 0.1), Tulip.Point(x: 0.45, y: 0.1)]])),
    ]

    static func named(_ name: String) -> Tulip {
        all.first { $0.name == name }!.tulip
    }
}

@Suite struct TulipTests {
    /// Goldens are drawn at this size: large enough to see each line, small enough to keep in git.
    static let goldenSize = 200

    @Test(arguments: TulipFixtures.all.map(\.name))
    func tulipMatchesGolden(_ name: String) throws {
        let folder = try TemporaryFolder()
        let url = folder.path("\(name).png")
        try TulipImage.writePNG(TulipFixtures.named(name), size: Self.goldenSize, to: url)
        try assertPNGGolden(url, named: "tulip-\(name)")
    }

    /// The goldens can fail: the straight-on crossroads with its exit turned 30° right is not its golden.
    @Test func movedExitFailsTheGolden() throws {
        let folder = try TemporaryFolder()
        var tulip = TulipFixtures.named("crossroads-straight")
        let exit = tulip.roads.firstIndex { $0.role == .exit }!
        tulip.roads[exit].angle = 30
        let url = folder.path("moved.png")
        try TulipImage.writePNG(tulip, size: Self.goldenSize, to: url)
        let golden = goldenDirectory(for: #filePath).appendingPathComponent("tulip-crossroads-straight.png")
        let result = try ImageComparison.compare(url, with: golden, diff: folder.path("diff.png"))
        #expect(!result.matches)
        #expect(result.differingShare > 5 * ImageComparison.Tolerance.golden.differingShare)
        #expect(result.maximumChannelDifference == 255)
        // The diff shows the differing pixels in red.
        let diff = try PNGImage(path: folder.path("diff.png").path)
        #expect(diff.width == Self.goldenSize && diff.height == Self.goldenSize)
    }

    @Test func sameImageMatchesExactly() throws {
        let folder = try TemporaryFolder()
        let tulip = TulipFixtures.named("t-left")
        try TulipImage.writePNG(tulip, size: 120, to: folder.path("a.png"))
        try TulipImage.writePNG(tulip, size: 120, to: folder.path("b.png"))
        let result = try ImageComparison.compare(folder.path("a.png"), with: folder.path("b.png"), tolerance: .exact)
        #expect(result.matches)
        #expect(result.differingPixels == 0 && result.maximumChannelDifference == 0)
    }

    @Test func differentSizesDoNotMatch() throws {
        let folder = try TemporaryFolder()
        let tulip = TulipFixtures.named("t-left")
        try TulipImage.writePNG(tulip, size: 120, to: folder.path("a.png"))
        try TulipImage.writePNG(tulip, size: 121, to: folder.path("b.png"))
        let result = try ImageComparison.compare(folder.path("a.png"), with: folder.path("b.png"))
        #expect(!result.sizesMatch && !result.matches)
        #expect(result.description.contains("120×120 px, expected 121×121 px"))
    }

    @Test func missingOrGarbageImageIsNamed() throws {
        let folder = try TemporaryFolder()
        try TulipImage.writePNG(TulipFixtures.named("t-left"), size: 50, to: folder.path("a.png"))
        let missing = folder.path("no-such.png")
        let error = #expect(throws: RenderError.self) {
            try ImageComparison.compare(folder.path("a.png"), with: missing)
        }
        #expect(error?.path == missing.path)
        #expect(error?.description.contains("no-such.png") == true)

        let garbage = folder.path("garbage.png")
        try Data("not a png at all".utf8).write(to: garbage)
        let garbageError = #expect(throws: RenderError.self) {
            try ImageComparison.compare(garbage, with: folder.path("a.png"))
        }
        #expect(garbageError?.path == garbage.path)
    }

    @Test func tulipWithoutRoadsOrStrokesDrawsNothing() throws {
        let folder = try TemporaryFolder()
        try TulipImage.writePNG(Tulip(origin: .drawn, roads: []), size: 64, to: folder.path("empty.png"))
        let image = try PNGImage(path: folder.path("empty.png").path)
        var nonWhite = 0
        for y in 0..<image.height { for x in 0..<image.width where image.pixel(x: x, y: y) != 0xffff_ffff { nonWhite += 1 } }
        #expect(nonWhite == 0)
    }

    /// The rider's dot sits at the bottom and the arrow at the top for straight on; a left turn's
    /// arrow is on the left. Read from the pixels, so a flipped drawing fails whatever the goldens say.
    @Test func dotAtTheBottomArrowWhereTheExitGoes() throws {
        let folder = try TemporaryFolder()
        let size = 200
        func darkShare(_ name: String, _ xs: Range<Int>, _ ys: Range<Int>) throws -> Double {
            let url = folder.path("\(name).png")
            try TulipImage.writePNG(TulipFixtures.named(name), size: size, to: url)
            let image = try PNGImage(path: url.path)
            var dark = 0
            for y in ys { for x in xs where image.pixel(x: x, y: y) & 0xff < 96 { dark += 1 } }
            return Double(dark) / Double(xs.count * ys.count)
        }
        // The dot (centre 100, 183; radius 9.6 at 200 px) near the bottom edge.
        #expect(try darkShare("crossroads-straight", 94..<106, 178..<189) > 0.95)
        // Straight on: the arrowhead (tip at 100, 28) at the top; the top corners stay white.
        #expect(try darkShare("crossroads-straight", 96..<104, 40..<52) > 0.95)
        #expect(try darkShare("crossroads-straight", 0..<60, 0..<60) == 0)
        #expect(try darkShare("crossroads-straight", 140..<200, 0..<60) == 0)
        // Left turn: the arrowhead (tip at 16, 112) at the left; the side stub to the right is
        // shorter and leaves the right edge white.
        #expect(try darkShare("t-left", 28..<40, 109..<116) > 0.95)
        #expect(try darkShare("t-left", 170..<200, 90..<130) == 0)
        // Right turn mirrors it.
        #expect(try darkShare("t-right", 160..<172, 109..<116) > 0.95)
        #expect(try darkShare("t-right", 0..<30, 90..<130) == 0)
    }

    @Test func svgIsWellFormed() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("roundabout.svg")
        try TulipImage.writeSVG(TulipFixtures.named("roundabout-3rd-of-4"), size: 113.4, to: url)
        _ = try runTool("xmllint", ["--noout", url.path])
        let svg = try String(contentsOf: url, encoding: .utf8)
        #expect(svg.contains("<svg"))
        #expect(svg.contains("width=\"113.4pt\""))
        // Nothing left beside it: the temporary file was renamed into place.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["roundabout.svg"])
    }

    @Test func contactSheetHasOneLabelledCellPerTulip() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("sheet.png")
        let items = TulipFixtures.all.prefix(5).enumerated().map { (label: "\($0.offset + 1)", tulip: $0.element.tulip) }
        try TulipImage.writeContactSheet(items, cellSize: 100, columns: 3, to: url)
        let image = try PNGImage(path: url.path)
        #expect(image.width == 300 && image.height == 200)
        // Every drawn cell holds ink in its middle; the sixth cell (no tulip) only its frame is absent too.
        func ink(column: Int, row: Int) -> Int {
            var count = 0
            for y in (row * 100 + 10)..<(row * 100 + 90) {
                for x in (column * 100 + 10)..<(column * 100 + 90) where image.pixel(x: x, y: y) & 0xff < 128 { count += 1 }
            }
            return count
        }
        for index in 0..<5 { #expect(ink(column: index % 3, row: index / 3) > 100, "cell \(index + 1)") }
        #expect(ink(column: 2, row: 1) == 0)
    }

    /// With `ROADBOOK_KEEP_TULIP_SHEET=path.png`, writes every fixture on one sheet there, to look at.
    @Test func keepSheetOfAllFixturesWhenAsked() throws {
        guard let keep = ProcessInfo.processInfo.environment["ROADBOOK_KEEP_TULIP_SHEET"], !keep.isEmpty else { return }
        let items = TulipFixtures.all.map { (label: $0.name, tulip: $0.tulip) }
        try TulipImage.writeContactSheet(items, cellSize: 300, columns: 5, to: URL(fileURLWithPath: keep))
        #expect(FileManager.default.fileExists(atPath: keep))
    }

    @Test func refusedRequestsNameTheFile() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("sheet.png")
        let empty = #expect(throws: TulipImage.InvalidRequest.self) {
            try TulipImage.writeContactSheet([], cellSize: 100, columns: 3, to: url)
        }
        #expect(empty?.description.contains(url.path) == true)
        // A sheet larger than a page image may be (render's cap) is refused before it is drawn:
        // 10 cells of 4,000 px, 5 a line, are 20,000 × 8,000 pixels.
        let ten = TulipFixtures.all.prefix(10).map { (label: $0.name, tulip: $0.tulip) }
        let huge = #expect(throws: TulipImage.InvalidRequest.self) {
            try TulipImage.writeContactSheet(Array(ten), cellSize: 4000, columns: 5, to: url)
        }
        #expect(huge?.reason.contains("20000 × 8000 pixels, more than an image may have") == true, "\(String(describing: huge))")
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(throws: TulipImage.InvalidRequest.self) {
            try TulipImage.writePNG(TulipFixtures.entryOnly, size: 0, to: url)
        }
        let nowhere = folder.path("missing-dir/t.png")
        let writeError = #expect(throws: (any Error).self) {
            try TulipImage.writePNG(TulipFixtures.entryOnly, size: 40, to: nowhere)
        }
        #expect("\(writeError!)".contains(nowhere.path))
    }
}

extension TulipFixtures {
    static let entryOnly = generated([entry])
}
