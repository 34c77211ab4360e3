import Foundation
import Formats
import Geo
import Model
import Testing
import TestSupport

/// The rules between notes that every saved book keeps: each rule on a book that keeps it and on
/// one that breaks it, and a save of a breaking book that writes nothing and names the rule and rows.
@Suite("Book invariants: checked before every save")
struct BookInvariantTests {
    static let grid = MetreGrid()

    /// A straight 2 km route east with a DSS at its start, a typed note at 500 m, a CP at 1 km and an ASS at its end.
    static func book() -> Book {
        let route = Route(source: "test", points: grid.line([(0, 0), (2000, 0)], step: 100).map { RoutePoint(coordinate: $0) })
        func note(_ id: Int, _ x: Double, _ kind: Note.Kind, _ text: String, _ type: WaypointType? = nil) -> Note {
            Note(id: id, kind: kind, distanceAlong: x, coordinate: grid(x, 0), text: text, waypointType: type)
        }
        return Book(title: "Test", route: route, notes: [
            note(1, 0, .checkpoint, "Start", .dss), note(2, 500, .typed, "Cattle grid"),
            note(3, 1000, .checkpoint, "Checkpoint", .cp), note(4, 2000, .checkpoint, "Finish", .ass),
        ])
    }

    @Test("a book as the pipeline makes it keeps every rule")
    func keeps() throws {
        try Self.book().checkInvariants()
        for invariant in BookInvariant.allCases { #expect(Self.book().violation(of: invariant) == nil, "\(invariant)") }
    }

    @Test("one note twice at one spot breaks 'one note per source and place', naming both rows")
    func twice() {
        var book = Self.book()
        var copy = book.notes[1]
        copy.id = 9
        book.notes.insert(copy, at: 2)
        let error = book.violation(of: .oneNotePerSource)
        #expect(error?.notes == [1, 2])
        #expect(error?.description == "the book breaks the rule 'one note per source and place': row 2 (#2 'Cattle grid' at 0.50 km) and row 3 (#9 'Cattle grid' at 0.50 km) are one note printed twice")
    }

    @Test("the same words at two spots, or two kinds at one spot, are two notes")
    func notTwice() {
        var book = Self.book()
        book.notes.insert(Note(id: 9, kind: .typed, distanceAlong: 500, coordinate: Self.grid(500, 30), offsetFromRoute: -30,
                               text: "Cattle grid"), at: 2)
        #expect(book.violation(of: .oneNotePerSource) == nil, "30 m to the side is another place")
        book.notes[2] = Note(id: 9, kind: .waypoint, distanceAlong: 500, coordinate: Self.grid(500, 0), text: "Cattle grid")
        #expect(book.violation(of: .oneNotePerSource) == nil, "a waypoint and a typed note are two sources")
    }

    @Test("two rows of one handle break 'one note per source and place'")
    func twoRowsOfOneHandle() {
        var book = Self.book()
        book.plan = RoutePlan(handles: [Handle(id: 1, coordinate: Self.grid(500, 0), origin: .tapped)], mode: .drive)
        book.notes[1].handleID = 1
        book.notes[2].handleID = 1
        #expect(book.violation(of: .oneNotePerSource)?.description.contains("are both rows of handle 1") == true)
    }

    @Test("a row before the one it follows breaks 'notes in distance order'; a note off the route may stand anywhere")
    func order() {
        var book = Self.book()
        book.notes.swapAt(1, 2)
        #expect(book.violation(of: .distanceOrder)?.notes == [1, 2])
        book.notes[1].placement = .offRoute
        #expect(book.violation(of: .distanceOrder) == nil)
    }

    @Test("a row of a handle the route does not have breaks 'handle notes point to existing handles'")
    func orphan() {
        var book = Self.book()
        book.notes[1].handleID = 7
        #expect(book.violation(of: .handleNotesHaveHandles)?.description.hasSuffix("row 2 (#2 'Cattle grid' at 0.50 km) is the row of handle 7, and the book has no handles") == true)
        book.plan = RoutePlan(handles: [Handle(id: 7, coordinate: Self.grid(500, 0), origin: .tapped)], mode: .drive)
        #expect(book.violation(of: .handleNotesHaveHandles) == nil)
    }

    @Test("two starts or two finishes in a row break 'DSS and ASS alternate'; start, finish, start, finish keeps it")
    func stages() {
        var book = Self.book()
        book.notes[2].waypointType = .dss
        #expect(book.violation(of: .stagesAlternate)?.description.contains("two starts (DSS) with no finish (ASS) between") == true)
        book.notes[1].waypointType = .ass
        #expect(book.violation(of: .stagesAlternate) == nil, "DSS ASS DSS ASS alternate")
        book.notes[0].waypointType = .ass
        #expect(book.violation(of: .stagesAlternate)?.notes == [0, 1])
    }

    @Test("a save of a book that breaks a rule writes nothing and names the file, the rule and the rows")
    func save() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("book.json")
        try BookFile.write(Self.book(), to: url)
        let before = try Data(contentsOf: url)
        var broken = Self.book()
        broken.notes[2].waypointType = .dss
        #expect {
            try BookFile.write(broken, to: url)
        } throws: { error in
            "\(error)".hasPrefix("\(url.path): not written: the book breaks the rule 'DSS and ASS alternate along the route': row 1")
        }
        #expect(try Data(contentsOf: url) == before, "the book on disk is as it was")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["book.json"], "no temporary file is left")
    }

    @Test("checking a book of 20,000 notes sharing their words takes linear time")
    func manyAlike() throws {
        var book = Self.book()
        book.route = Route(source: "test", points: Self.grid.line([(0, 0), (200_000, 0)], step: 1000).map { RoutePoint(coordinate: $0) })
        let line = Polyline(book.route.coordinates)
        book.notes = (0..<20_000).map { k in
            let d = Double(k) * 10
            return Note(id: k + 1, kind: .typed, distanceAlong: d, coordinate: line.coordinate(atDistance: d), text: "Row")
        }
        try book.checkInvariants()
    }
}
