import AtomicFile
import BookAssembly
import Foundation
import Formats
import Geo
import Guidance
import Model
import OSM
import Render

/// What `build` makes a road book from: a recorded track whose waypoints become rows.
public struct BuildRequest: Sendable {
    /// The GPX file: its track (or route) is the route, its waypoints the rows.
    public var track: URL
    /// The PDF to print, if any.
    public var pdf: URL?
    /// The book file (JSON) to write, if any.
    public var bookFile: URL?
    /// Title in the page header; nil for the GPX name, the first track's name or the file's name.
    public var title: String?
    public var rally: String?
    public var stage: String?
    public var date: String?
    /// Units, template and the off-route distance.
    public var settings: BookSettings
    /// The template the PDF is printed on, by built-in name or path, when not `settings.template`;
    /// a path is never stored in the book.
    public var template: String?
    /// What happens to a waypoint farther from the route than `settings.offRouteDistance`.
    public var offRoute: OffRouteResolution
    /// Whether the PDF has its cover page.
    public var cover: Bool
    /// A folder of pictograms (`NAME.svg`, and a `symbols.json` of meanings) over the library's:
    /// its files replace the library's of the same name and add new names. Never stored in the book.
    public var symbols: URL?
    /// Whether turn notes are generated.
    public var turns: Bool
    /// An OpenStreetMap extract whose junctions the turns come from; nil for the track's shape.
    public var osm: URL?
    /// Where heights come from; empty for a book without terrain.
    public var terrain: TerrainRequest
    /// How the route is travelled: the junction graph of the turn notes (`RouteTurns`).
    public var mode: TravelMode
    /// Whether an existing `bookFile` that differs from the book made now may be replaced. A book
    /// file holds work (words typed, routes applied) that a new build would lose; without this,
    /// only a book file with the very bytes this build makes is replaced. Also whether read-only
    /// outputs are replaced (`checkOutputs`).
    public var replaceBook = false

    public init(track: URL, pdf: URL? = nil, bookFile: URL? = nil, title: String? = nil, rally: String? = nil,
                stage: String? = nil, date: String? = nil, settings: BookSettings = BookSettings(),
                template: String? = nil, offRoute: OffRouteResolution = .keep, cover: Bool = true, turns: Bool = true, osm: URL? = nil,
                terrain: TerrainRequest = TerrainRequest(), mode: TravelMode = .drive) {
        self.track = track
        self.pdf = pdf
        self.bookFile = bookFile
        self.title = title
        self.rally = rally
        self.stage = stage
        self.date = date
        self.settings = settings
        self.template = template
        self.offRoute = offRoute
        self.cover = cover
        self.turns = turns
        self.osm = osm
        self.terrain = terrain
        self.mode = mode
    }
}

/// What `buildBook` made.
public struct BuildResult: Sendable {
    public var book: Book
    /// Pages of the PDF, when one was printed.
    public var pages: Int?
    /// Notes printed as rows (those on the route).
    public var rows: Int
    /// The route's length.
    public var routeLength: Metres
}

/// Builds a road book from a recorded track: the waypoints become notes placed by distance along
/// the route, turn notes are generated (from the map's junctions, or the track's shape) and join
/// nearby waypoints, heights are fetched, then the book file and the PDF are written and replace the old ones
/// together.
///
/// A file that carries a whole book (OpenRally GPX, `RouteFile.book`) is made into that book: its
/// rows as they are (distances, words, waypoint types, radii, tulips), in its units, with the
/// request's title, rally, stage, date and other settings. Its rows are the organiser's, so turns
/// are generated and joined only when a map is given (`osm`, and `turns` not turned off), and a turn
/// found within the join distance of one of its turn rows is not added again; heights
/// are fetched as for any route. `offRoute` does not move or drop its rows: off-route rows are
/// reported and kept.
///
/// Outputs are checked (`checkOutputs`: writable, none of them an input, none read-only unless
/// `replaceBook`) and the template loaded before any work, so a run that cannot finish writes
/// nothing. Stretches off the map, failed height sources, off-route waypoints and
/// waypoints whose words contradict the turn generated at their junction are logged as warnings.
/// - Throws: `WorkflowError`, `FormatError` (the GPX), the map's, the template's or the renderer's errors.
public func buildBook(_ request: BuildRequest, log: any WorkflowLog) async throws -> BuildResult {
    let named: [RunOutput] = [request.pdf, request.bookFile].compactMap { $0 }.map { RunOutput($0) }
    var inputs = [RunInput(request.track, "the track it reads")] + RunInput.extract(request.osm)
    inputs += RunInput.terrain(request.terrain) + RunInput.template(request.template ?? request.settings.template)
    try checkOutputs(named + RunOutput.preparedGraph(request.osm), inputs: inputs, force: request.replaceBook)
    let renderer = try request.pdf.map { _ in
        BookRenderer(template: try TemplateLibrary.load(request.template ?? request.settings.template), includeCover: request.cover,
                     symbols: try SymbolLibrary.standard(adding: request.symbols))
    }
    // What a later run reads back is checked before it is written, so no book is written that could not be opened.
    let commit = BookCommit(book: request.bookFile, madeFrom: request.track.path, refusesOtherBook: request.replaceBook ? nil : request.track,
                            pdf: request.pdf.flatMap { pdf in renderer.map { (pdf, $0) } })
    var settings = request.settings
    if !request.turns { settings.noTurnNotes = true }
    let header = BookPipeline.NewBook(title: request.title, rally: request.rally, stage: request.stage, date: request.date,
                                      settings: settings)
    let turns = TurnReading(request.turns ? request.osm.map { .map($0) } ?? .shape : .none, mode: request.mode)
    let built = try await BookPipeline.build(track: request.track, book: header, offRoute: request.offRoute, turns: turns,
                                             terrain: request.terrain, commit: commit).run(log: log)
    // What `roadbook check` would say of the book, said as warnings: the book is written all the same.
    log.recordProblems(of: built.book)
    return BuildResult(book: built.book, pages: built.pages, rows: built.book.notes.filter { $0.placement == .onRoute }.count,
                       routeLength: built.routeLength)
}

/// Refuses to replace an existing book file with other bytes: it may hold a person's work.
/// - Throws: `WorkflowError` naming the file, its notes when it is a book, and the ways on.
func checkReplaceable(_ bookFile: URL, with bytes: Data, input: URL) throws {
    var info = stat()
    guard stat(bookFile.path, &info) == 0 else { return }
    // Only a regular file of the same size is read to compare: a pipe or device is never read.
    if (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == bytes.count, (try? Data(contentsOf: bookFile)) == bytes { return }
    let notes = (try? BookFile.read(contentsOf: bookFile)).map { " (a book of \($0.notes.count) notes)" } ?? ""
    throw WorkflowError("\(bookFile.path) exists\(notes) and is not the book this build makes: --force replaces it; "
                        + "to bring the new route into it, keeping its notes, use 'roadbook regenerate \(bookFile.path) --route \(input.path)'")
}

/// Reads a route file (any format of `RouteFormats`) whose track (or route) is a book's route.
/// - Returns: the file, the route, and warnings: what the reader could not keep, and a line when
///   the file's `<rte>` stood in for a track that could not be a route (one point, or no length).
/// - Throws: `FormatError` naming the file, also when it holds fewer than two points or no length.
func readRoute(_ url: URL) throws -> (file: RouteFile, route: Route, warnings: [String]) {
    let file = try RouteFormats.read(contentsOf: url)
    let (points, warning) = try file.document.routePoints(minimumPoints: 2)
    // No book holds a longer route or more rows (`Book.validate`): said now, before any work on them.
    let length = Polyline(points.map(\.coordinate)).length
    guard length <= BookLimits.maximumRouteLength else {
        throw FormatError(file: url.path, message: String(format: "the track is %.0f km long, more than the %.0f km a book holds; "
            + "remove the fixes far off the route (at 0,0, say) and build again", length / 1000, BookLimits.maximumRouteLength / 1000))
    }
    let rows = file.book?.notes.count ?? file.document.waypoints.count
    guard rows <= BookLimits.maximumNotes else {
        throw FormatError(file: url.path, message: "\(rows) waypoints would be rows, more than the \(BookLimits.maximumNotes) a book holds; "
            + "split the route into several files (one per stage)")
    }
    var routePoints = points.map { RoutePoint(coordinate: $0.coordinate, elevation: $0.elevation) }
    var warnings = file.warnings + [warning].compactMap { $0 }
    // Where the receiver stood still, its fixes wander in place: read as a line they would lengthen
    // the route, and put every later row too far. A file that carries a whole book keeps its
    // route as it is, since its rows' distances were measured along it.
    if file.book == nil {
        let (kept, stops) = StandingStill().collapsed(routePoints)
        if !stops.isEmpty {
            routePoints = kept
            warnings.append(standingStillNotice(stops, file: url.lastPathComponent))
        }
    }
    return (file, Route(source: url.lastPathComponent, points: routePoints), warnings)
}

/// What `StandingStill` changed, for the organiser: "ride.gpx: the track stands still at 3 places
/// (5.04, 10.23 and 15.48 km along it), its fixes wandering in place; each is read as one place, so
/// the route is 0.60 km shorter than the track" (the first five places, then how many more).
func standingStillNotice(_ stops: [StandingStill.Stop], file: String) -> String {
    let places = stops.prefix(5).map { String(format: "%.2f", $0.distanceAlong / 1000) }
    let list = places.count == 1 ? places[0]
        : places.dropLast().joined(separator: ", ") + (stops.count > 5 ? ", " : " and ") + places.last!
    let more = stops.count > 5 ? " and \(stops.count - 5) more" : ""
    let removed = stops.reduce(0) { $0 + $1.removed }
    return String(format: "%@: the track stands still at %d place%@ (%@ km along it%@), its fixes wandering in place; "
                  + "each is read as one place, so the route is %.2f km shorter than the track",
                  file, stops.count, stops.count == 1 ? "" : "s", list, more, removed / 1000)
}

/// Turns a GPX waypoint into a note: the description (or comment) is the instruction and the
/// name the marker; a waypoint with only a name has it as its instruction.
/// - Parameter file: the GPX file's name, for the note's source (`file:line`).
public func noteInput(from waypoint: GPXWaypoint, file: String) -> NoteInput {
    let instruction = [waypoint.description, waypoint.comment].compactMap { $0 }.first { !$0.isEmpty }
    let type = waypoint.type.flatMap(WaypointType.init(name:)) ?? waypoint.symbol.flatMap(WaypointType.init(name:))
    return NoteInput(coordinate: waypoint.coordinate, text: instruction ?? waypoint.name ?? "",
                           marker: instruction == nil ? nil : waypoint.name, waypointType: type,
                           source: "\(file):\(waypoint.line)")
}
