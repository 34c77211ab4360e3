import Foundation
import Geo
import Layout
import Model
import Render
import Testing
import TestSupport

/// Hostile templates, refused in one line that names the file and the field; and books at the
/// edges of what a book file may hold, which must all print.
@Suite("Hostile templates and extreme books")
struct HostileRenderTests {
    @Test("every template of the corpus is listed in its expected.tsv")
    func everyFileListed() throws {
        let folder = packageRoot().appendingPathComponent("Tests/RenderTests/Hostile/templates")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "expected.tsv" }.sorted()
        #expect(files == HostileCorpus.cases(in: "Tests/RenderTests/Hostile/templates").map(\.url.lastPathComponent).sorted())
    }

    @Test("a hostile template is refused in one line naming the file and the field",
          arguments: HostileCorpus.cases(in: "Tests/RenderTests/Hostile/templates"))
    func template(_ hostile: HostileCase) {
        let error = #expect(throws: TemplateError.self) { try TemplateLibrary.load(hostile.url.path) }
        if let problem = HostileCorpus.problem(error?.description ?? "", for: hostile) { Issue.record("\(hostile): \(problem)") }
    }

    @Test("a book naming a template by path is refused at settings.template, the path never opened")
    func bookNamesAPath() throws {
        var book = Self.book(notes: [])
        book.settings.template = "/etc/passwd"
        let error = #expect(throws: TemplateError.self) { try TemplateLibrary.template(of: book, bookFile: "b.json") }
        #expect(error?.description.hasPrefix("b.json: settings.template '/etc/passwd' is not a built-in template") == true,
                "\(String(describing: error))")
    }

    /// A route from (0, 0) along the equator then north, `kilometres` long in steps of about 100 km.
    static func route(kilometres: Double) -> Route {
        let steps = max(2, Int(kilometres / 100))
        var points: [RoutePoint] = []
        for i in 0...steps {
            let d = kilometres * Double(i) / Double(steps)
            // Round the equator one way, under 40,000 km, so the line never doubles back.
            points.append(RoutePoint(coordinate: Coordinate(latitude: 0, longitude: (d / 111.32).truncatingRemainder(dividingBy: 360) - 180 + 0.001),
                                     elevation: BookLimits.heights.upperBound))
        }
        return Route(points: points)
    }

    static func book(notes: [Note], kilometres: Double = 10, profile: Profile? = nil) -> Book {
        Book(title: String(repeating: "T", count: BookLimits.maximumLineLength), rally: "Edges", stage: "1",
             route: route(kilometres: kilometres), profile: profile, notes: notes)
    }

    static func extremeNote(_ id: Int, at metres: Metres, length: Metres) -> Note {
        var roads: [Tulip.Road] = [Tulip.Road(role: .entry, angle: 180)]
        for i in 1..<BookLimits.maximumRoads {
            let angle: Degrees = -179 + Double(i) * 11
            roads.append(Tulip.Road(role: i == 1 ? .exit : .side, angle: angle))
        }
        return Note(id: id, kind: .typed, distanceAlong: min(metres, length + BookLimits.endTolerance),
                    coordinate: Coordinate(latitude: 89.9, longitude: -179.9),
                    offsetFromRoute: BookLimits.maximumOffset, placement: .onRoute,
                    text: String(repeating: "**Long** _text_ with words ", count: BookLimits.maximumNoteLength / 27),
                    marker: String(repeating: "M", count: BookLimits.maximumLineLength), waypointType: .dz,
                    cap: 359.999, danger: 3, elevation: BookLimits.heights.lowerBound, resetsOdometer: id % 2 == 0,
                    speedLimit: 300,
                    symbols: Array(NoteSymbol.library.suffix(BookLimits.maximumSymbols - 1))
                        + [NoteSymbol(String(repeating: "x", count: NoteSymbol.maximumNameLength))],
                    tulip: Tulip(origin: .drawn, roads: roads, roundabout: Tulip.Roundabout(exitNumber: BookLimits.exitNumber.upperBound),
                                 strokes: [[Tulip.Point(x: -1, y: -1), Tulip.Point(x: 1, y: 1)]]))
    }

    @Test("books at the edges of the limits pass validation and print as PDF",
          arguments: ["no notes", "one note", "heights at the bounds", "20,000 km", "long texts"])
    func extremeBooks(_ kind: String) throws {
        var book: Book
        switch kind {
        case "no notes":
            book = Self.book(notes: [])
        case "one note":
            book = Self.book(notes: [Self.extremeNote(1, at: 0, length: 10_000)])
        case "heights at the bounds":
            let heights: [Metres?] = (0..<700).map { $0 % 2 == 0 ? BookLimits.heights.lowerBound : BookLimits.heights.upperBound }
            book = Self.book(notes: [], profile: Profile(spacing: BookLimits.profileSpacing.lowerBound, heights: heights,
                                                          climb: BookLimits.climb.upperBound, descent: BookLimits.climb.upperBound))
            book.notes = [Note(id: 1, kind: .typed, distanceAlong: 5_000, coordinate: Coordinate(latitude: 0, longitude: 0),
                               text: "Top", elevation: BookLimits.heights.upperBound)]
        case "20,000 km":
            book = Self.book(notes: [], kilometres: 20_000,
                             profile: Profile(spacing: BookLimits.profileSpacing.upperBound,
                                              heights: (0...200).map { Double($0 * 40) }, climb: 8_000, descent: 0))
            let length = Polyline(book.route.coordinates).length
            book.notes = (0..<30).map { i in
                Note(id: i, kind: .waypoint, distanceAlong: length * Double(i) / 29, coordinate: Coordinate(latitude: 0, longitude: 0),
                     text: "Row \(i)", cap: Double(i) * 12)
            }
        default:
            let length = Polyline(Self.book(notes: []).route.coordinates).length
            book = Self.book(notes: (0..<4).map { Self.extremeNote($0 + 1, at: Double($0) * 3_000, length: length) })
        }
        try book.validate()
        let folder = try TemporaryFolder()
        for template in ["a5", "roll", "a4-2up"] {
            let url = folder.path("\(template).pdf")
            let pages = try BookRenderer(template: TemplateLibrary.load(template), warn: { _ in }).renderPDF(book, to: url)
            #expect(pages >= 1)
            #expect(try Data(contentsOf: url).prefix(5) == Data("%PDF-".utf8))
        }
    }

    @Test("at the limits of a template (smallest page, most columns, a cut every row) a book prints")
    func smallestTemplate() throws {
        var text = try String(contentsOf: packageRoot().appendingPathComponent("Templates/a5.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: "\"width\": 148", with: "\"width\": 200")
            .replacingOccurrences(of: "\"height\": 210", with: "\"height\": 50")
            .replacingOccurrences(of: "\"header\": 15", with: "\"header\": 0")
            .replacingOccurrences(of: "\"footer\": 7", with: "\"footer\": 0")
            .replacingOccurrences(of: "\"height\": 28.6", with: "\"height\": 20")
            .replacingOccurrences(of: "\"sheetColumns\": 1", with: "\"sheetColumns\": 2")
        let template = try TemplateFile.decode(Data(text.utf8), fileName: "small.json")
        let folder = try TemporaryFolder()
        let book = Self.book(notes: (0..<3).map { Self.extremeNote($0 + 1, at: Double($0) * 1_000, length: 10_000) })
        #expect(try BookRenderer(template: template, warn: { _ in }).renderPDF(book, to: folder.path("s.pdf")) >= 1)
    }
}
