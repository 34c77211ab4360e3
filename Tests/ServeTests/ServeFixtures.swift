import BookAssembly
import Foundation
import Formats
import Geo
import Model
import Serve
import TestSupport

/// The book the editor's tests change: a route 3 km east, then 1 km north (4 km), with its rows
///
///     1  DSS  Start of the stage      0 m
///     2  CP1  Cattle grid             1000 m
///     3  W1   Chapel on the left      3500 m
///     4  ASS  End of the stage        4000 m
///
/// and three handles: the start, the corner and the end. Distances are along a grid in metres,
/// so each is known by hand to well under a metre.
enum ServeBook {
    static let grid = MetreGrid()
    static let route = Route(points: grid.line([(0, 0), (3000, 0), (3000, 1000)]).map { RoutePoint(coordinate: $0) })

    static func make() -> Book {
        let inputs = [NoteInput(coordinate: grid(0, 0), text: "Start of the stage", marker: "DSS", waypointType: .dss),
                      NoteInput(coordinate: grid(1000, 0), text: "Cattle grid", marker: "CP1", waypointType: .cp),
                      NoteInput(coordinate: grid(3000, 500), text: "Chapel on the left", marker: "W1", waypointType: .wpv),
                      NoteInput(coordinate: grid(3000, 1000), text: "End of the stage", marker: "ASS", waypointType: .ass)]
        var book = assembleBook(title: "Serve test", route: route, notes: inputs).book
        book.plan = RoutePlan(handles: [(0.0, 0.0), (3000, 0), (3000, 1000)].enumerated().map { i, xy in
            Handle(id: i + 1, coordinate: grid(xy.0, xy.1), origin: .tapped)
        }, legs: [PlannedLeg(kind: .straight), PlannedLeg(kind: .straight)])
        return book
    }

    /// A folder holding the book file `book.json`, and the page's folder `page/` with an
    /// index.html, an app.js and a leaflet/leaflet.css, and a secret file beside the page.
    static func folder() throws -> (folder: TemporaryFolder, book: URL, page: URL) {
        let folder = try TemporaryFolder()
        let book = folder.path("book.json")
        try BookFile.write(make(), to: book)
        let page = folder.path("page")
        try FileManager.default.createDirectory(at: page.appendingPathComponent("leaflet"), withIntermediateDirectories: true)
        try Data("<!doctype html><title>roadbook</title>".utf8).write(to: page.appendingPathComponent("index.html"))
        try Data("console.log('editor')".utf8).write(to: page.appendingPathComponent("app.js"))
        try Data(".leaflet-container{}".utf8).write(to: page.appendingPathComponent("leaflet/leaflet.css"))
        try Data("secret".utf8).write(to: folder.path("secret.txt"))
        return (folder, book, page)
    }

    static let token = "0123456789abcdef0123456789abcdef"
    static let port: UInt16 = 8123

    /// An editor of `book` whose security expects `token` on port `port`.
    static func editor(book: URL, page: URL?) -> Editor {
        Editor(settings: Editor.Settings(book: book, page: page.map(StaticFiles.init)),
               security: EditorSecurity(token: token, port: port))
    }

    /// A request as the editor's page sends it: the right Host and the token in the cookie.
    static func request(_ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:]) -> ServerRequest {
        var all = ["Host": "127.0.0.1:\(port)", "Cookie": "roadbook_token=\(token)"]
        for (name, value) in headers { all[name] = value }
        return ServerRequest(method: method, path: path, headers: all, body: Data((body ?? "").utf8))
    }
}

/// The JSON of a response, as a dictionary.
func object(_ response: ServerResponse) throws -> [String: Any] {
    guard let value = try JSONSerialization.jsonObject(with: response.body) as? [String: Any] else {
        throw Failure("not a JSON object: \(String(decoding: response.body, as: UTF8.self))")
    }
    return value
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
