import Foundation
import Formats
import Model
import Render
import Workflows

/// `roadbook profile`: the elevation profile of a book as an image.
struct ProfileCommand: Command {
    static let name = "profile"
    static let abstract = "Draw a book's elevation profile as PNG, SVG or PDF."
    static let help = """
    Usage: roadbook profile BOOK.json -o PROFILE.png|PROFILE.svg|PROFILE.pdf [--width PT] [--height PT]

    The book needs terrain (build it with --dem or --elevation). Distance across, height up, the
    band of heights, climb and descent, and a tick with its number for each row where it fits.

    Options:
      -o, --output PATH   the file; its extension chooses PNG, SVG or PDF
      --width PT, --height PT
                          size in points (default 720 × 260; a PNG has 2 pixels a point)
      -h, --help          show this help
    """

    var book: URL
    var output: URL
    var width: Double
    var height: Double

    init(_ arguments: inout Arguments) throws {
        guard let output = try arguments.option("output", short: "o") else { throw UsageError(message: "missing -o FILE") }
        self.output = URL(fileURLWithPath: output)
        width = try arguments.number("width", in: 200...5000) ?? 720
        height = try arguments.number("height", in: 100...5000) ?? 260
        book = URL(fileURLWithPath: try arguments.finish(positionals: 1...1, names: "BOOK.json")[0])
    }

    func run(_ console: any Console) async throws {
        try checkWritable([output])
        let loaded = try BookFile.read(contentsOf: book)
        do {
            try ProfileImage.write(loaded, to: output, width: width, height: height)
        } catch let error as ProfileImage.NoTerrain {
            throw RunError(message: "\(book.path): \(error.description)")
        }
        if let profile = loaded.profile {
            console.out(String(format: "%@: climb %.0f m, descent %.0f m", output.path, profile.climb, profile.descent))
        }
    }
}
