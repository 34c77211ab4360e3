import Foundation
import Model
import Workflows

/// `roadbook links`: the book's route as links that open Apple Maps and Google Maps.
struct LinksCommand: Command {
    static let declaration = CommandDeclaration(
        name: "links",
        abstract: "Print links that open the route in Apple Maps and Google Maps.",
        positionals: "BOOK.json", positionalCount: 1...1,
        forms: [UsageForm(optional: ["by-name", "osm"])],
        discussion: """
        Apple Maps gets the start, the end and the travel mode, and plans its own road between them:
        stops between are left out. Google Maps gets the start, the end and the first nine stops
        between; when there are more, its caption counts what the link carries ("11 of 13 stops").
        The stops are the handles of a routed book; for a book built from a track, the route's ends
        and its waypoint and checkpoint rows, each place once. Places go as coordinates unless
        --by-name is given. A stop's name is a place's (a handle's name, or with --osm the village,
        pass or street the extract puts it in), never a row's marker.
        """,
        options: [
            Option("by-name", .flag, help: "give named stops by their names (the app looks them up) instead of coordinates"),
            Option("osm", value: "EXTRACT", help: "OpenStreetMap extract naming the stops that have no name"),
        ])

    var book: URL
    var byName: Bool
    var osm: URL?

    init(_ options: ParsedOptions) throws {
        byName = options.flag("by-name")
        osm = options.file("osm")
        book = URL(fileURLWithPath: options.positionals[0])
    }

    func run(_ console: any Console) async throws {
        let links = try mapLinks(ofBook: book, placesByName: byName, extract: osm, log: ConsoleLog(console))
        let mode = links.mode.gerund
        console.out("Apple Maps (\(links.title), \(mode)\(links.stops.count > 2 ? "; stops between are left out" : "")):")
        console.out(links.apple.absoluteString)
        console.out("Google Maps (\(links.googleCaption), \(mode)):")
        console.out(links.google.absoluteString)
    }
}
