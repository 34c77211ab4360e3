import Foundation
import Model
import Workflows

/// `roadbook profile`: the elevation profile of a book as an image.
struct ProfileCommand: Command {
    static let declaration = CommandDeclaration(
        name: "profile",
        abstract: "Draw a book's elevation profile as PNG, SVG or PDF.",
        positionals: "BOOK.json", positionalCount: 1...1,
        forms: [UsageForm(optional: ["width", "height"])],
        discussion: """
        The book needs terrain (build it with --dem or --elevation). Distance across, height up, the
        band of heights, climb and descent, and a tick with its number for each row where it fits.
        A PNG has 2 pixels a point.
        """,
        options: [
            Option("output", short: "o", value: "FILE", required: true, help: "the file; its extension chooses PNG, SVG or PDF"),
            Option("width", .number(200...5000), value: "PT", default: "720", help: "width in points"),
            Option("height", .number(100...5000), value: "PT", default: "260", help: "height in points"),
            .force,
        ])

    var book: URL
    var output: URL
    var width: Double
    var height: Double
    var force: Bool

    init(_ options: ParsedOptions) throws {
        output = try options.file(always: "output")
        width = try options.number(always: "width")
        height = try options.number(always: "height")
        book = URL(fileURLWithPath: options.positionals[0])
        force = options.flag("force")
    }

    func run(_ console: any Console) async throws {
        if let profile = try drawProfile(book: book, to: output, width: width, height: height, force: force) {
            console.out(String(format: "%@: climb %.0f m, descent %.0f m", output.path, profile.climb, profile.descent))
        }
    }
}
