import BookAssembly
import Foundation
import Geo
import Guidance
import Model
import Testing
import TestSupport

/// The small book the note editor's tests change, made without the editor: a route 3 km east, then
/// 1 km north (4 km), with its rows
///
///     1  DSS  Start of the stage      0 km     (a waypoint of type DSS)
///     2  R2   Cattle grid             1 km     (typed)
///     3       Turn left onto North    3 km     (generated from the corner's junction)
///     4  W1   Chapel on the left      3.5 km   (a waypoint)
///     5  ASS  End of the stage        4 km
///
/// and three handles: the start, the corner and the end.
enum NoteBook {
    static let grid = MetreGrid()
    static let now = "2026-03-14T10:00:00Z"
    static let route = Route(points: grid.line([(0, 0), (3000, 0), (3000, 1000)]).map { RoutePoint(coordinate: $0) })
    static let length = Polyline(route.coordinates).length

    /// How far along the route `coordinate` is.
    static func distance(of coordinate: Coordinate) -> Metres {
        NoteLocator(route: Polyline(route.coordinates)).locate([coordinate])[0].distanceAlong
    }

    /// The turn at the corner: arriving from the west, left onto `exitName`, the main road going on
    /// east; `extraRoad` adds a track at that bearing (the junction as a new map reads it).
    static func corner(exitName: String = "North", extraRoad: Degrees? = nil) -> Maneuver {
        var spokes = [Spoke(bearing: 270, role: .entry, highway: "primary", name: "Main"),
                      Spoke(bearing: 0, role: .exit, highway: "residential", name: exitName),
                      Spoke(bearing: 90, role: .side, highway: "primary", name: "Main")]
        if let extraRoad { spokes.append(Spoke(bearing: extraRoad, role: .side, highway: "track")) }
        let at = grid(3000, 0), along = distance(of: at)
        return Maneuver(kind: .turn, modifier: .left, distanceAlong: along, coordinate: at, turnAngle: -90,
                        junctions: [Junction(coordinate: at, distanceAlong: along, spokes: spokes)], exitName: exitName)
    }

    static func make() -> Book {
        let inputs = [NoteInput(coordinate: grid(0, 0), text: "Start of the stage", marker: "DSS", waypointType: .dss),
                      NoteInput(coordinate: grid(3000, 500), text: "Chapel on the left", marker: "W1", waypointType: .wpv),
                      NoteInput(coordinate: grid(3000, 1000), text: "End of the stage", marker: "ASS", waypointType: .ass)]
        var book = assembleBook(title: "Notes", route: route, notes: inputs).book
        book.notes = TurnJoiner().join([corner()], into: book.notes)
        let at = grid(1000, 0)
        book.notes.insert(Note(id: book.nextNoteID, kind: .typed, distanceAlong: distance(of: at), coordinate: at,
                               text: "Cattle grid", marker: "R2"), at: 1)
        book.plan = RoutePlan(handles: [(0.0, 0.0), (3000, 0), (3000, 1000)].enumerated().map { i, xy in
            Handle(id: i + 1, coordinate: grid(xy.0, xy.1), origin: .tapped)
        })
        return book
    }

    /// The rows as printed: the words of the notes on the route, in order.
    static func printed(_ book: Book) -> [String] {
        book.notes.filter { $0.placement == .onRoute }.map(\.text)
    }

    /// Where `a` differs from `b`, in a line (the first note that differs), or nil when they are equal:
    /// a book's whole description is too long to read in a failure.
    static func difference(_ a: Book, _ b: Book) -> String? {
        guard a != b else { return nil }
        if a.notes.map(\.id) != b.notes.map(\.id) { return "notes \(a.notes.map(\.id)) against \(b.notes.map(\.id))" }
        if let i = a.notes.indices.first(where: { a.notes[$0] != b.notes[$0] }) { return "notes[\(i)]: \(a.notes[i]) against \(b.notes[i])" }
        if a.deletedNotes != b.deletedNotes {
            return "tombstones \(a.deletedNotes?.map(\.id) ?? []) against \(b.deletedNotes?.map(\.id) ?? [])"
        }
        return "beyond the notes"
    }

    /// Fails unless the book keeps every rule between its notes and every value is in range.
    static func check(_ book: Book, after step: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectBookRules(book, "after \(step)", sourceLocation: sourceLocation)
    }
}

@Suite("A person's changes to the rows of a book (NoteEditor)")
struct NoteEditorTests {
    let editor = NoteEditor(now: NoteBook.now)

    /// Makes `change`, then checks the book's rules and ranges.
    @discardableResult
    func apply(_ change: NoteChange, to book: inout Book, sourceLocation: SourceLocation = #_sourceLocation) throws -> NoteStep {
        let step = try editor.apply(change, to: &book)
        NoteBook.check(book, after: step.name, sourceLocation: sourceLocation)
        return step
    }

    /// The error `change` is refused with, after checking it is of `reason` and left the book as it was.
    @discardableResult
    func refused(_ change: NoteChange, _ book: Book, _ reason: NoteEditError.Reason,
                 sourceLocation: SourceLocation = #_sourceLocation) -> NoteEditError? {
        var changed = book
        do {
            let step = try editor.apply(change, to: &changed)
            Issue.record("\(change) was made: \(step.name)", sourceLocation: sourceLocation)
            return nil
        } catch let error as NoteEditError {
            #expect(error.reason == reason, "\(error)", sourceLocation: sourceLocation)
            #expect(NoteBook.difference(changed, book) == nil, "a refused change leaves the book as it was: \(error)",
                    sourceLocation: sourceLocation)
            #expect(!error.message.contains("\n"), sourceLocation: sourceLocation)
            return error
        } catch {
            Issue.record("\(change): \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    @Test("the hand-made book: five rows in order, the turn's words and tulip generated, every rule kept")
    func theBook() {
        let book = NoteBook.make()
        #expect(NoteBook.printed(book) == ["Start of the stage", "Cattle grid", "Turn left onto North", "Chapel on the left", "End of the stage"])
        #expect(book.notes.map(\.id) == [1, 5, 4, 2, 3])
        #expect(book.notes[2].kind == .turn && book.notes[2].tulip?.origin == .generated && !book.notes[2].wordsArePersons)
        #expect(abs(NoteBook.length - 4000) < 5)
        NoteBook.check(book, after: "making it")
    }

    @Test("a reference is a printed row, an id (#7) or a marker")
    func references() {
        #expect(NoteReference("12") == .row(12))
        #expect(NoteReference(" 3 ") == .row(3))
        #expect(NoteReference("#7") == .id(7))
        #expect(NoteReference("CP1") == .marker("CP1"))
        #expect(NoteReference("#x") == .marker("#x"))
        #expect(NoteReference("0") == .marker("0"), "no row 0: read as a marker, which no row has")
    }

    // MARK: - Add

    @Test("add by distance, by coordinate on and off the route, at a row and at a handle")
    func add() throws {
        var book = NoteBook.make()
        let gate = try apply(.add(.distance(2000), NoteFields(text: "Gate")), to: &book)
        #expect(gate.name == "Add note 'Gate' at 2.00 km" && gate.noteID == 6 && gate.offRoute == nil)
        #expect(NoteBook.printed(book)[2] == "Gate")
        let added = try #require(book.notes.first { $0.id == 6 })
        #expect(added.kind == .typed && added.wordsEdited == NoteBook.now && added.cap.map { abs($0 - 90) < 1 } == true,
                "a typed note heading east: \(added)")

        let near = try apply(.add(.coordinate(NoteBook.grid(1500, 20)), NoteFields(text: "Ford", addSymbols: [.ford])), to: &book)
        let ford = try #require(book.notes.first { $0.id == near.noteID })
        #expect(near.offRoute == nil && ford.placement == .onRoute && abs(ford.distanceAlong - 1500) < 2)
        #expect(ford.coordinate == NoteBook.grid(1500, 20), "the place given is kept; its distance is where the route passes it")
        #expect(NoteBook.printed(book)[2] == "Ford" && ford.symbols == [.ford])

        let far = try apply(.add(.coordinate(NoteBook.grid(1500, 200)), NoteFields(text: "Farm", marker: "F1")), to: &book)
        let off = try #require(far.offRoute, "a note 200 m off the route is reported")
        #expect(abs(abs(off.offset) - 200) < 2 && abs(off.distanceAlong - 1500) < 2)
        #expect(off.text == "Farm" && off.marker == "F1")
        #expect(book.notes.first { $0.id == far.noteID }?.placement == .offRoute)
        #expect(!NoteBook.printed(book).contains("Farm"), "kept in the book, not printed")

        let atW1 = try apply(.add(.row(.marker("W1")), NoteFields(text: "Fountain")), to: &book)
        let w1 = try #require(book.notes.firstIndex { $0.marker == "W1" })
        #expect(book.notes[w1 + 1].id == atW1.noteID, "after the row it is placed at")
        #expect(book.notes[w1 + 1].distanceAlong == book.notes[w1].distanceAlong)

        let atHandle = try apply(.add(.handle(2), NoteFields(text: "Bakery")), to: &book)
        let bakery = try #require(book.notes.first { $0.id == atHandle.noteID })
        #expect(abs(bakery.distanceAlong - NoteBook.distance(of: NoteBook.grid(3000, 0))) < 0.01)

        let checkpoint = try apply(.add(.distance(3800), NoteFields(text: "Control", marker: "CP1", waypointType: .cp)), to: &book)
        #expect(book.notes.first { $0.id == checkpoint.noteID }?.kind == .checkpoint)
        #expect(Set(book.notes.map(\.id)).count == book.notes.count && book.notes.map(\.id).max() == checkpoint.noteID)
    }

    @Test("a note with a marker and no words may be added")
    func addMarkerOnly() throws {
        var book = NoteBook.make()
        let step = try apply(.add(.distance(2500), NoteFields(marker: "CP9")), to: &book)
        let note = try #require(book.notes.first { $0.id == step.noteID })
        #expect(note.marker == "CP9" && note.text.isEmpty)
        #expect(step.name == "Add note 'CP9' at 2.50 km")
    }

    @Test("add refuses a place off the route's length, a place off the Earth, a missing handle and a note of nothing")
    func addRefused() {
        let book = NoteBook.make()
        let words = NoteFields(text: "Gate")
        for d in [-1, NoteBook.length + 1, .nan, .infinity, 1e308] {
            let error = refused(.add(.distance(d), words), book, .outOfRange)
            #expect(error?.message.contains("runs from 0 to 4.00 km") == true, "\(String(describing: error))")
        }
        refused(.add(.coordinate(Coordinate(latitude: 91, longitude: 0)), words), book, .outOfRange)
        refused(.add(.coordinate(Coordinate(latitude: .nan, longitude: 0)), words), book, .outOfRange)
        let handle = refused(.add(.handle(4), words), book, .noSuchRow)
        #expect(handle?.message == "there is no handle 4: the route has 3")
        refused(.add(.handle(0), words), book, .noSuchRow)
        var noPlan = book
        noPlan.plan = nil
        refused(.add(.handle(1), words), noPlan, .noSuchRow)
        refused(.add(.row(.row(9)), words), book, .noSuchRow)
        refused(.add(.distance(100), NoteFields()), book, .notPossible)
        refused(.add(.distance(100), NoteFields(text: "  \n")), book, .notPossible)
        refused(.add(.distance(100), NoteFields(text: "", marker: "")), book, .notPossible)
        refused(.add(.distance(100), NoteFields(text: String(repeating: "x", count: BookLimits.maximumNoteLength + 1))), book, .outOfRange)
    }

    // MARK: - Edit

    @Test("a note off the route has no printed number: the rows after it keep theirs in every step's name")
    func offRouteNoteIsNoRow() throws {
        var book = NoteBook.make()
        // 400 m north of the first kilometre: off the route, kept in the book, printed nowhere.
        let off = try apply(.add(.coordinate(NoteBook.grid(500, 400)), NoteFields(text: "Well")), to: &book)
        let i = try #require(book.notes.firstIndex { $0.id == off.noteID })
        #expect(book.notes[i].placement != .onRoute && i == 1, "placed second in the book's order, off the route")
        #expect(book.rowName(i) == "the note off the route (#\(off.noteID ?? 0) 'Well' at 0.50 km)")
        #expect(book.printedRow(of: i) == nil && book.printedRow(of: i + 1) == 2)
        // Row 2 as printed is still the cattle grid, third in the book's order.
        let edited = try apply(.edit(.row(2), NoteFields(danger: 1)), to: &book)
        #expect(edited.name == "Edit row 2 (#5 R2 'Cattle grid' at 1.00 km)" && book.notes[2].danger == 1)
        let speed = try apply(.edit(.row(2), NoteFields(targetSpeed: 45)), to: &book)
        #expect(speed.name == "Set the average to 45 km/h from row 2 (#5 R2 'Cattle grid' at 1.00 km)")
        let removed = try apply(.remove(.row(2)), to: &book)
        #expect(removed.name == "Remove row 2 (#5 R2 'Cattle grid' at 1.00 km)" && book.deletedNotes?.last?.row == 2)
    }

    @Test("words set by a person are theirs, even the generated words again, and regeneration keeps them")
    func editedWordsStay() throws {
        var book = NoteBook.make()
        let generated = try #require(book.notes[2].generated)
        let step = try apply(.edit(.row(3), NoteFields(text: generated.text)), to: &book)
        #expect(step.name == "Edit row 3 (#4 'Turn left onto North' at 3.00 km)")
        let turn = book.notes[2]
        #expect(turn.text == generated.text && turn.generated?.wordsTyped == true && turn.wordsArePersons)
        #expect(turn.wordsEdited == NoteBook.now)

        // The road's name changes: the generated words follow it, the person's stay.
        let (regenerated, report) = Regenerator().regenerate(book, route: NoteBook.route, maneuvers: [NoteBook.corner(exitName: "Other")])
        #expect(regenerated.notes[2].text == "Turn left onto North")
        #expect(regenerated.notes[2].generated?.text == "Turn left onto Other")
        #expect(regenerated.notes[2].generated?.wordsTyped == true && regenerated.notes[2].wordsArePersons)
        #expect(report.removed.isEmpty && report.added.isEmpty)
        NoteBook.check(regenerated, after: "regenerating")
        // And once more: still the person's.
        let (again, _) = Regenerator().regenerate(regenerated, route: NoteBook.route, maneuvers: [NoteBook.corner(exitName: "Third")])
        #expect(again.notes[2].text == "Turn left onto North")

        // The same regeneration of the untouched book rewrites the words.
        let (untouched, _) = Regenerator().regenerate(NoteBook.make(), route: NoteBook.route, maneuvers: [NoteBook.corner(exitName: "Other")])
        #expect(untouched.notes[2].text == "Turn left onto Other")
    }

    @Test("a marker set on a generated row makes its words the person's too")
    func editedMarker() throws {
        var book = NoteBook.make()
        try apply(.edit(.id(4), NoteFields(marker: "T1")), to: &book)
        #expect(book.notes[2].marker == "T1" && book.notes[2].wordsArePersons && book.notes[2].wordsEdited == NoteBook.now)
        try apply(.edit(.marker("t1"), NoteFields(marker: "")), to: &book)
        #expect(book.notes[2].marker == nil, "an empty marker takes it away")
    }

    @Test("edit sets symbols, danger, type, CAP, a speed zone's ends and a target speed")
    func editFields() throws {
        var book = NoteBook.make()
        try apply(.edit(.marker("R2"), NoteFields(danger: 3, addSymbols: [.cattleGrid, .gate, .fuel])), to: &book)
        #expect(book.notes[1].danger == 3 && book.notes[1].symbols == [.cattleGrid, .gate, .fuel])
        try apply(.edit(.marker("R2"), NoteFields(addSymbols: [.gate, .ford], removeSymbols: [.fuel, .radar])), to: &book)
        #expect(book.notes[1].symbols == [.cattleGrid, .gate, .ford], "added once, taken away where present")
        // A name the library lacks is kept, and taken away only where it is: elsewhere it is a typo.
        try apply(.edit(.marker("R2"), NoteFields(addSymbols: [NoteSymbol("myOwn")])), to: &book)
        #expect(book.notes[1].symbols.map(\.name) == ["cattleGrid", "gate", "ford", "myOwn"])
        let typo = #expect(throws: NoteEditError.self) {
            try apply(.edit(.marker("R2"), NoteFields(removeSymbols: [NoteSymbol("myOwm")])), to: &book)
        }
        #expect(typo?.message == "'myOwm' is not a symbol of the library, nor one this row carries")
        try apply(.edit(.marker("R2"), NoteFields(removeSymbols: [NoteSymbol("myOwn")])), to: &book)
        #expect(book.notes[1].symbols == [.cattleGrid, .gate, .ford])
        try apply(.edit(.marker("R2"), NoteFields(danger: 0)), to: &book)
        #expect(book.notes[1].danger == 0)

        try apply(.edit(.marker("R2"), NoteFields(waypointType: .wps)), to: &book)
        #expect(book.notes[1].waypointType == .wps)
        var clear = NoteFields()
        clear.clearType = true
        try apply(.edit(.marker("R2"), clear), to: &book)
        #expect(book.notes[1].waypointType == nil)

        try apply(.edit(.row(2), NoteFields(cap: 123.5)), to: &book)
        #expect(book.notes[1].cap == 123.5)
        try apply(.edit(.row(2), NoteFields(cap: 360)), to: &book)
        #expect(book.notes[1].cap == 0, "360 is north, written 0")

        try apply(.edit(.row(2), NoteFields(speedLimit: 50, zone: .start)), to: &book)
        #expect(book.notes[1].waypointType == .dz && book.notes[1].speedLimit == 50)
        try apply(.edit(.row(2), NoteFields(speedLimit: 30)), to: &book)
        #expect(book.notes[1].speedLimit == 30, "a zone's start takes a new limit")
        try apply(.edit(.marker("W1"), NoteFields(zone: .end)), to: &book)
        #expect(book.notes[3].waypointType == .fz && book.notes[3].speedLimit == nil)
        try apply(.edit(.marker("W1"), NoteFields(speedLimit: 30, zone: .end)), to: &book)
        #expect(book.notes[3].speedLimit == 30)

        try apply(.edit(.row(3), NoteFields(targetSpeed: 42)), to: &book)
        #expect(book.notes[2].targetSpeed == 42 && !book.notes[2].wordsArePersons, "a speed is not words")
    }

    @Test("edit refuses values out of range and changes nothing of the row")
    func editRefused() {
        let book = NoteBook.make()
        for danger in [-1, 4, Int.max] {
            let error = refused(.edit(.row(2), NoteFields(text: "Changed", danger: danger)), book, .outOfRange)
            #expect(error?.message == "danger is 0, 1, 2 or 3, not \(danger)")
        }
        for cap in [-1, 360.5, .nan, .infinity, 1e308] {
            refused(.edit(.row(2), NoteFields(text: "Changed", cap: cap)), book, .outOfRange)
        }
        for speed in [0, 301, -5] {
            refused(.edit(.row(2), NoteFields(speedLimit: speed, zone: .start)), book, .outOfRange)
            refused(.edit(.row(2), NoteFields(targetSpeed: speed)), book, .outOfRange)
        }
        let noZone = refused(.edit(.row(2), NoteFields(speedLimit: 50)), book, .notPossible)
        #expect(noZone?.message.contains("say which") == true)
        refused(.edit(.row(2), NoteFields(text: "Changed", zone: .start)), book, .notPossible)
        refused(.edit(.row(2), NoteFields(text: String(repeating: "é", count: BookLimits.maximumNoteLength + 1))), book, .outOfRange)
        refused(.edit(.row(2), NoteFields(marker: "A\nB")), book, .outOfRange)
        refused(.edit(.row(2), NoteFields(marker: String(repeating: "m", count: BookLimits.maximumLineLength + 1))), book, .outOfRange)
        refused(.edit(.row(2), NoteFields()), book, .notPossible)
    }

    // MARK: - Rows by reference

    @Test("no row 0, no row 999, no id #999, no marker Z9: refused, saying how many rows there are")
    func missingRows() {
        let book = NoteBook.make()
        for reference in [NoteReference.row(0), .row(-1), .row(6), .row(999)] {
            let error = refused(.edit(reference, NoteFields(danger: 1)), book, .noSuchRow)
            #expect(error?.message.hasSuffix("the book prints 5 rows") == true, "\(String(describing: error))")
        }
        for text in ["0", "999", "#999", "Z9", ""] {
            refused(.remove(NoteReference(text)), book, .noSuchRow)
            refused(.move(NoteReference(text), .by(10)), book, .noSuchRow)
            refused(.tulip(NoteReference(text), .reset), book, .noSuchRow)
        }
    }

    @Test("a marker two rows answer to is refused, naming both")
    func ambiguousMarker() throws {
        var book = NoteBook.make()
        try apply(.edit(.row(2), NoteFields(marker: "W1")), to: &book)
        let names = [book.rowName(1), book.rowName(3)]
        let error = try #require(refused(.edit(.marker("w1"), NoteFields(danger: 2)), book, .ambiguous))
        #expect(error.candidates == names)
        #expect(error.message == "w1 could be \(names[0]) or \(names[1]): name the row by its number or id")
        refused(.remove(.marker("W1")), book, .ambiguous)
        // By number or id, either is reached.
        try apply(.edit(.row(4), NoteFields(danger: 2)), to: &book)
        try apply(.edit(.id(5), NoteFields(danger: 1)), to: &book)
        #expect(book.notes[3].danger == 2 && book.notes[1].danger == 1)
    }

    // MARK: - Remove and restore

    @Test("remove leaves a tombstone holding the whole note; restore by old row, id, marker or all brings back the very note")
    func removeAndRestore() throws {
        let original = NoteBook.make()
        var book = original
        let removed = try apply(.remove(.row(2)), to: &book)
        #expect(removed.name == "Remove row 2 (#5 R2 'Cattle grid' at 1.00 km)" && removed.noteID == 5)
        let tombstone = try #require(book.deletedNotes?.first)
        #expect(tombstone.note == original.notes[1] && tombstone.row == 2 && tombstone.id == 5 && tombstone.text == "Cattle grid")
        #expect(NoteBook.printed(book).count == 4)
        #expect(book.nextNoteID == 6, "the highest id was removed: it is never given again")
        let gone = refused(.edit(.marker("R2"), NoteFields(danger: 1)), book, .noSuchRow)
        #expect(gone?.message == "no row is R2: it was removed (restore brings it back)")
        let restored = try apply(.restore(.row(2)), to: &book)
        #expect(restored.name == "Restore 'Cattle grid'" && restored.noteID == 5)
        #expect(NoteBook.difference(book, original) == nil, "the very note, where it was, and no tombstone left")

        // A turn, by id: its tombstone stands at its junction.
        try apply(.remove(.id(4)), to: &book)
        #expect(book.deletedNotes?.first?.kind == .turn && book.deletedNotes?.first?.coordinate == original.notes[2].generated?.junction.coordinate)
        try apply(.restore(.id(4)), to: &book)
        #expect(NoteBook.difference(book, original) == nil)

        // By marker, ignoring case.
        try apply(.remove(.marker("W1")), to: &book)
        try apply(.restore(.marker("w1")), to: &book)
        #expect(NoteBook.difference(book, original) == nil)

        // Several, then all at once.
        for reference in [NoteReference.marker("ASS"), .row(3), .row(1)] { try apply(.remove(reference), to: &book) }
        #expect(NoteBook.printed(book) == ["Cattle grid", "Chapel on the left"])
        #expect(book.deletedNotes?.map(\.row) == [5, 3, 1])
        let all = try apply(.restore(nil), to: &book)
        #expect(all.name == "Restore 3 rows")
        #expect(NoteBook.difference(book, original) == nil)
    }

    @Test("restore refuses what was not removed, a tombstone without its note, and two removed rows one reference names")
    func restoreRefused() throws {
        var book = NoteBook.make()
        refused(.restore(nil), book, .noSuchRow)
        refused(.restore(.row(2)), book, .noSuchRow)
        // A tombstone left by a hand edit holds no note: it keeps its row deleted, and cannot be restored.
        book.deletedNotes = [DeletedNote(id: 40, kind: .typed, coordinate: NoteBook.grid(10, 0), text: "Old")]
        refused(.restore(.id(40)), book, .noSuchRow)
        refused(.restore(nil), book, .noSuchRow)
        // Row 2 removed twice over: the second time a new row 2 stood there.
        try apply(.remove(.row(2)), to: &book)
        try apply(.remove(.row(2)), to: &book)
        let error = try #require(refused(.restore(.row(2)), book, .ambiguous))
        #expect(error.candidates == ["#5 'Cattle grid'", "#4 'Turn left onto North'"])
        try apply(.restore(.id(4)), to: &book)
        try apply(.restore(.row(2)), to: &book)
        #expect(book.notes == NoteBook.make().notes && book.deletedNotes?.map(\.id) == [40], "the hand edit's tombstone stays")
    }

    // MARK: - Move

    @Test("move to a distance or by one, within the route; the rows stay in distance order")
    func move() throws {
        let original = NoteBook.make()
        var book = original
        let step = try apply(.move(.marker("R2"), .to(3200)), to: &book)
        #expect(step.name == "Move row 2 (#5 R2 'Cattle grid' at 1.00 km) to 3.20 km")
        #expect(book.notes.map(\.id) == [1, 4, 5, 2, 3])
        let moved = book.notes[2]
        #expect(moved.distanceAlong == 3200 && moved.placement == .onRoute && moved.offsetFromRoute == 0)
        #expect(moved.coordinate.distance(to: NoteBook.grid(3000, 200)) < 1, "on the route 200 m past the corner")

        try apply(.move(.id(5), .to(book.notes[1].distanceAlong)), to: &book)
        #expect(book.notes.map(\.id) == [1, 4, 5, 2, 3], "at the turn's distance: after it")
        try apply(.move(.id(5), .by(-2500)), to: &book)
        #expect(book.notes.map(\.id) == [1, 5, 4, 2, 3] && abs(book.notes[1].distanceAlong - 500) < 1, "back before the turn")
        try apply(.move(.id(5), .to(0)), to: &book)
        #expect(book.notes.map(\.id) == [1, 5, 4, 2, 3], "at the start: after the DSS")
        try apply(.move(.id(5), .to(NoteBook.length)), to: &book)
        #expect(book.notes.map(\.id) == [1, 4, 2, 3, 5], "at the end: after the ASS")

        for shift in [NoteShift.to(-1), .to(NoteBook.length + 1), .to(.nan), .by(-5000), .by(1e308), .by(.infinity)] {
            let error = refused(.move(.row(2), shift), book, .outOfRange)
            #expect(error?.message.hasSuffix("the route runs from 0 to 4.00 km") == true, "\(String(describing: error))")
        }
    }

    // MARK: - Tulips

    @Test("a tulip corrected by hand: roads added and taken away, its exit turned, and reset to the road's")
    func tulips() throws {
        let original = NoteBook.make()
        var book = original
        let generated = try #require(original.notes[2].tulip)
        #expect(generated.roads.count == 3)

        let added = try apply(.tulip(.row(3), .addRoad(angle: 135, roadClass: .track)), to: &book)
        #expect(added.name == "Add a road to the tulip of row 3 (#4 'Turn left onto North' at 3.00 km)")
        var tulip = try #require(book.notes[2].tulip)
        #expect(tulip.origin == .drawn && tulip.roads.count == 4 && tulip.roads.last == Tulip.Road(role: .side, angle: 135, roadClass: .track))

        try apply(.tulip(.row(3), .removeRoad(1)), to: &book)
        tulip = try #require(book.notes[2].tulip)
        #expect(tulip.roads.map(\.role) == [.entry, .exit, .side] && tulip.roads.last?.angle == 135, "the first other road went")

        try apply(.tulip(.row(3), .exit(angle: 270)), to: &book)
        #expect(book.notes[2].tulip?.exit?.angle == -90, "270 is written as a turn angle, -90")
        try apply(.tulip(.row(3), .exit(angle: -45)), to: &book)
        #expect(book.notes[2].tulip?.exit?.angle == -45 && book.notes[2].tulip?.roads.filter { $0.role == .exit }.count == 1)

        let reset = try apply(.tulip(.row(3), .reset), to: &book)
        #expect(reset.name.hasPrefix("Reset the tulip of row 3"))
        #expect(book.notes[2].tulip == generated, "the tulip drawn from the road again")
        #expect(NoteBook.difference(book, original) == nil)

        // A row without a turn: a straight tulip to start from; reset gives it the road's own, the
        // arrow along the road: straight on, 1 km along the straight first leg.
        try apply(.tulip(.marker("R2"), .addRoad(angle: 90, roadClass: .gravel)), to: &book)
        #expect(book.notes[1].tulip?.roads.map(\.role) == [.entry, .exit, .side] && book.notes[1].tulip?.origin == .drawn)
        try apply(.tulip(.marker("R2"), .reset), to: &book)
        #expect(book.notes[1].tulip == Tulip(origin: .generated, roads: [Tulip.Road(role: .entry, angle: 180), Tulip.Road(role: .exit, angle: 0)]))
        book.notes[1].tulip = nil
        #expect(NoteBook.difference(book, original) == nil)
    }

    @Test("a tulip road's kind changed (an other road by number, or the road taken), and the odometer reset set and cleared")
    func roadKindsAndReset() throws {
        var book = NoteBook.make()
        try apply(.tulip(.row(3), .roadClass(road: 1, .path)), to: &book)
        var tulip = try #require(book.notes[2].tulip)
        #expect(tulip.origin == .drawn && tulip.roads.first { $0.role == .side }?.roadClass == .path)
        try apply(.tulip(.row(3), .roadClass(road: nil, .gravel)), to: &book)
        tulip = try #require(book.notes[2].tulip)
        #expect(tulip.exit?.roadClass == .gravel)
        #expect(throws: NoteEditError.self) { try NoteEditor(now: "2026-12-05T00:00:00Z").apply(.tulip(.row(3), .roadClass(road: 5, .track)), to: &book) }
        try apply(.edit(.row(2), NoteFields(resetsOdometer: true)), to: &book)
        #expect(book.notes[1].resetsOdometer)
        try apply(.edit(.row(2), NoteFields(resetsOdometer: false)), to: &book)
        #expect(!book.notes[1].resetsOdometer)
    }

    @Test("a tulip refuses angles no turn has, a road it does not have, and a 33rd road")
    func tulipsRefused() throws {
        var book = NoteBook.make()
        for angle in [1e308, -1e308, .nan, .infinity, 361, -360.5] {
            let error = refused(.tulip(.row(3), .addRoad(angle: angle, roadClass: .tarmac)), book, .outOfRange)
            #expect(error?.message.hasPrefix("an angle is -180 to 180 degrees") == true, "\(String(describing: error))")
            refused(.tulip(.row(3), .exit(angle: angle)), book, .outOfRange)
        }
        for n in [0, 2, -1, Int.max] {
            let error = refused(.tulip(.row(3), .removeRoad(n)), book, .noSuchRow)
            #expect(error?.message.hasSuffix("has 1 other road; there is no road \(n)") == true, "\(String(describing: error))")
        }
        refused(.tulip(.row(2), .removeRoad(1)), book, .noSuchRow)

        for k in 0..<(BookLimits.maximumRoads - 3) {
            try apply(.tulip(.row(3), .addRoad(angle: Double(k * 10 - 140), roadClass: .path)), to: &book)
        }
        #expect(book.notes[2].tulip?.roads.count == BookLimits.maximumRoads)
        let error = refused(.tulip(.row(3), .addRoad(angle: 5, roadClass: .path)), book, .outOfRange)
        #expect(error?.message == "row 3 (#4 'Turn left onto North' at 3.00 km)'s tulip has 32 roads, the most a tulip draws")
    }

    @Test("a tulip drawn by hand at a junction the new road changed is reported for checking, and kept")
    func drawnTulipToCheck() throws {
        var book = NoteBook.make()
        try apply(.tulip(.row(3), .exit(angle: -80)), to: &book)
        let drawn = book.notes[2].tulip

        let (same, quiet) = Regenerator().regenerate(book, route: NoteBook.route, maneuvers: [NoteBook.corner()])
        #expect(quiet.drawnTulipsKept == 1 && quiet.drawnTulipsToCheck.isEmpty, "the same junction: nothing to check")
        #expect(same.notes[2].tulip == drawn)
        #expect(same.notes[2].tulipToCheck == nil)

        let (changed, report) = Regenerator().regenerate(book, route: NoteBook.route, maneuvers: [NoteBook.corner(extraRoad: 200)])
        #expect(report.drawnTulipsToCheck.map(\.id) == [4], "a track joins the corner: the drawing should be checked")
        #expect(changed.notes[2].tulip == drawn, "the drawing stays")
        NoteBook.check(changed, after: "regenerating")
        // The book remembers it, so `roadbook check` names the row until a person draws the tulip again.
        #expect(changed.notes[2].tulipToCheck == true && changed.notes.filter { $0.tulipToCheck == true }.count == 1)
        #expect(changed.problems().map(\.rule) == ["drawn-tulips"])
        var redrawn = changed
        try apply(.tulip(.row(3), .exit(angle: -70)), to: &redrawn)
        #expect(redrawn.notes[2].tulipToCheck == nil && redrawn.problems().isEmpty)

        // The junction gone from the road: kept without its turn, reported too.
        let (_, left) = Regenerator().regenerate(book, route: NoteBook.route, maneuvers: [])
        #expect(left.drawnTulipsToCheck.map(\.id) == [4] && left.keptWithoutTurn.map(\.id) == [4])
        #expect(left.drawnTulipsToCheck.first?.tulipToCheck == true)
    }
}
