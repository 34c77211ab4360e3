import Foundation
import Model
import Workflows

/// `roadbook profile`: the elevation profile of a book as an image.
struct ProfileCommand: Command {
    static let declaration = CommandDeclaration(
        name: "profile",
        abstract: "Draw a book's elevation profile as PNG, SVG or PDF.",
        positionals: "BOOK.json", positionalCount: 1...1,
        forms: [UsageForm(optional: ["width", "height"]), UsageForm(required: ["drawing"], optional: ["dem", "elevation"])],
        discussion: """
        The book needs terrain (build it with --dem or --elevation). Distance across, height up, the
        band of heights, climb and descent, and a tick with its number for each row where it fits.
        A PNG has 2 pixels a point.

        With --drawing, the profile of the drawing beside the book ('roadbook handles'), before it is
        applied: its heights from --dem and --elevation (the book's own when the drawing is the
        book's route), and a tick with its number for each handle where it fits.
        """,
        options: [
            Option("output", short: "o", value: "FILE", required: true, help: "the file; its extension chooses PNG, SVG or PDF"),
            Option("width", .number(200...5000), value: "PT", default: "720", help: "width in points"),
            Option("height", .number(100...5000), value: "PT", default: "260", help: "height in points"),
            Option("drawing", .flag, help: "the drawing not yet applied, a tick for each handle"),
            .force,
        ] + TerrainOptions.declarations)

    var book: URL
    var output: URL
    var width: Double
    var height: Double
    var force: Bool
    /// The drawing's profile, not the book's, with its heights from `terrain`.
    var drawing: Bool
    var terrain: TerrainOptions

    init(_ options: ParsedOptions) throws {
        drawing = options.flag("drawing")
        terrain = try TerrainOptions(options)
        if !drawing && !terrain.isEmpty { throw UsageError(message: "--dem and --elevation go with --drawing: a book's profile is its own") }
        output = try options.file(always: "output")
        width = try options.number(always: "width")
        height = try options.number(always: "height")
        book = URL(fileURLWithPath: options.positionals[0])
        force = options.flag("force")
    }

    func run(_ console: any Console) async throws {
        if drawing {
            let (profile, handles) = try await drawDrawingProfile(book: book, to: output, width: width, height: height,
                                                                  terrain: terrain.request, force: force, log: ConsoleLog(console))
            return console.out(String(format: "%@: climb %.0f m, descent %.0f m, %d handles", output.path, profile.climb,
                                      profile.descent, handles))
        }
        if let profile = try drawProfile(book: book, to: output, width: width, height: height, force: force) {
            console.out(String(format: "%@: climb %.0f m, descent %.0f m", output.path, profile.climb, profile.descent))
        }
    }
}
