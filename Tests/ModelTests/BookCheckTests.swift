import Foundation
import Geo
import Model
import Testing
import TestSupport

/// The rules of `roadbook check`, each on a book that keeps it and on the same book with one fault
/// planted: the rule names that fault, and no rule names anything else.
@Suite("Book check: each rule finds its fault and only it")
struct BookCheckTests {
    static let grid = MetreGrid()

    /// A straight 3 km route east: DSS at 0, a typed note at 500 m, a WPM at 1 km, a right turn at
    /// 1.5 km, a speed zone from 2 km (DZ, 50 km/h) to 2.5 km (FZ), the ASS at 3 km.
    static func book() -> Book {
        let route = Route(source: "test", points: grid.line([(0, 0), (3000, 0)], step: 100).map { RoutePoint(coordinate: $0) })
        func note(_ id: Int, _ x: Double, _ kind: Note.Kind, _ text: String, _ type: WaypointType? = nil) -> Note {
            Note(id: id, kind: kind, distanceAlong: x, coordinate: grid(x, 0), text: text, waypointType: type)
        }
        var turn = note(4, 1500, .turn, "Turn right")
        turn.tulip = Tulip(origin: .generated, roads: [Tulip.Road(role: .entry, angle: 180), Tulip.Road(role: .exit, angle: 90)])
        var dz = note(5, 2000, .checkpoint, "Village", .dz)
        dz.speedLimit = 50
        var fz = note(6, 2500, .checkpoint, "End of village", .fz)
        fz.speedLimit = 50
        return Book(title: "Check", route: route, notes: [
            note(1, 0, .checkpoint, "Start", .dss), note(2, 500, .typed, "Cattle grid"), note(3, 1000, .waypoint, "Well", .wpm),
            turn, dz, fz, note(7, 3000, .checkpoint, "Finish", .ass),
        ])
    }

    /// The problems of `book`, asserting that only `rule` found any.
    static func only(_ rule: String, in book: Book, sourceLocation: SourceLocation = #_sourceLocation) -> [BookProblem] {
        let problems = book.problems()
        #expect(problems.allSatisfy { $0.rule == rule }, "\(problems)", sourceLocation: sourceLocation)
        return problems
    }

    @Test("the book as made keeps every rule")
    func clean() {
        #expect(Self.book().problems().isEmpty, "\(Self.book().problems())")
        #expect(BookCheck.standard.map(\.name) == ["sections", "first-waypoint", "speed-zones", "radii", "drawn-tulips",
                                                   "contradictions", "regularity"])
    }

    @Test("sections: a DSS with no ASS, an ASS with no DSS, two DSS and two ASS in a row")
    func sections() {
        var book = Self.book()
        book.notes.removeLast()
        #expect(Self.only("sections", in: book).map(\.description)
                == ["sections: row 1 (#1 'Start' at 0.00 km) is a start (DSS) with no finish (ASS) after it"])

        book = Self.book()
        book.notes.removeFirst()
        let noStart = Self.only("sections", in: book)
        #expect(noStart.map(\.notes) == [[5]] && noStart[0].message.hasSuffix("is a finish (ASS) with no start (DSS) before it"))

        book = Self.book()
        book.notes[1].waypointType = .dss
        let twoStarts = Self.only("sections", in: book)
        #expect(twoStarts.map(\.message) == ["row 1 (#1 'Start' at 0.00 km) and row 2 (#2 'Cattle grid' at 0.50 km) are two starts (DSS) with no finish (ASS) between"])

        book = Self.book()
        book.notes[5].waypointType = .ass
        book.notes[4].waypointType = nil
        let twoFinishes = Self.only("sections", in: book)
        #expect(twoFinishes.map(\.notes) == [[5, 6]] && twoFinishes[0].message.contains("two finishes (ASS) with no start (DSS) between"))
    }

    @Test("first waypoint: 100 m beyond its clear radius from the start, the type's default radius when none is set")
    func firstWaypoint() {
        // A WPM 125 m from the DSS: its default clear radius is 50 m, so it must stand 150 m away.
        var book = Self.book()
        book.notes[2].distanceAlong = 125
        book.notes[2].coordinate = Self.grid(125, 0)
        let near = Self.only("first-waypoint", in: book)
        #expect(near.map(\.notes) == [[0, 2]])
        #expect(near.first?.message == "row 3 (#3 'Well' at 0.12 km), the first waypoint after row 1 (#1 'Start' at 0.00 km), is 125 m from it: "
                + "riders waiting to start would clear it; keep it at least 150 m away (100 m beyond the WPM default clear radius of 50 m)")
        // With a clear radius of 20 m set, 120 m is enough.
        book.notes[2].clearRadius = 20
        #expect(book.problems().isEmpty)
        // Measured in a straight line: 300 m along a hairpin back to 140 m from the start is too near.
        book = Self.book()
        book.notes[2].coordinate = Self.grid(0, 140)
        #expect(Self.only("first-waypoint", in: book).count == 1)
        // Only the first waypoint after a start: a second WPM right after the first is another rule's business.
        book = Self.book()
        book.notes[0].waypointType = nil
        book.notes[6].waypointType = nil
        book.notes[1].waypointType = .wps
        book.notes[1].coordinate = Self.grid(0, 500)
        #expect(book.problems().isEmpty, "500 m from the start of the route, past 100 m + the WPS's 90 m")
        book.notes[1].coordinate = Self.grid(0, 150)
        let fromRoute = Self.only("first-waypoint", in: book)
        #expect(fromRoute.map(\.notes) == [[1]] && fromRoute[0].message.contains("the first waypoint after the start of the route, is 150 m"))
    }

    @Test("speed zones: a DZ without its FZ, a DZ opened again, an FZ alone")
    func speedZones() {
        var book = Self.book()
        book.notes.remove(at: 5)
        #expect(Self.only("speed-zones", in: book).map(\.message) == ["row 5 (#5 'Village' at 2.00 km) opens a speed zone (DZ) that no FZ closes"])
        book = Self.book()
        book.notes[5].waypointType = .dz
        let twice = Self.only("speed-zones", in: book)
        #expect(twice.map(\.notes) == [[4, 5], [5]])
        book = Self.book()
        book.notes[4].waypointType = nil
        #expect(Self.only("speed-zones", in: book).map(\.notes) == [[5]])
    }

    @Test("radii: under 20 m, or a clear radius past the open one (the type's default where unset)")
    func radii() {
        var book = Self.book()
        book.notes[2].clearRadius = 10
        #expect(Self.only("radii", in: book).map(\.message)
                == ["row 3 (#3 'Well' at 1.00 km) has a clear radius of 10 m, under 20 m: a rider's device may pass it with no fix inside"])
        // A second waypoint, so a wide clear radius is not also too near the start (the first waypoint's rule).
        book = Self.book()
        book.notes.insert(Note(id: 8, kind: .waypoint, distanceAlong: 2800, coordinate: Self.grid(2800, 0), text: "Tree",
                               waypointType: .wpv, clearRadius: 1200), at: 6)
        #expect(Self.only("radii", in: book).map(\.message)
                == ["row 7 (#8 'Tree' at 2.80 km) has a clear radius (1200 m) larger than its open radius (1000 m, the WPV default): "
                    + "it would count as passed before the device shows it"])
        book.notes[6].openRadius = 1500
        #expect(book.problems().isEmpty)
        book.notes[6].openRadius = 600
        book.notes[6].clearRadius = 90
        #expect(book.problems().isEmpty)
        book.notes[6].openRadius = 15
        #expect(Self.only("radii", in: book).map(\.notes) == [[6], [6]], "under the floor, and under the clear radius")
        // A WPS opens at 800 m by default: a clear radius of 900 m is past it.
        book.notes[6].waypointType = .wps
        book.notes[6].openRadius = nil
        book.notes[6].clearRadius = 900
        #expect(Self.only("radii", in: book).first?.message.contains("(800 m, the WPS default)") == true)
    }

    @Test("drawn tulips: a row regenerate or apply left to check is named as they name it, until the tulip is drawn again")
    func drawnTulips() {
        var book = Self.book()
        book.notes[3].tulip?.origin = .drawn
        #expect(book.problems().isEmpty, "a tulip drawn by hand is fine")
        book.notes[3].tulipToCheck = true
        #expect(Self.only("drawn-tulips", in: book).map(\.message)
                == ["row 4 (#4 'Turn right' at 1.50 km): the tulip at 1.50 km was drawn by hand and the junction changed: check it"])
        book.notes[3].marker = "R12"
        #expect(Self.only("drawn-tulips", in: book).first?.message.hasSuffix("R12's tulip was drawn by hand and the junction changed: check it") == true)
        book.notes[3].tulip?.origin = .generated
        #expect(book.problems().isEmpty, "a tulip the road drew again is no person's drawing")
    }

    @Test("contradictions: left and right, or two waypoint types, closer than 20 m")
    func contradictions() {
        var book = Self.book()
        book.notes.insert(Note(id: 8, kind: .typed, distanceAlong: 1510, coordinate: Self.grid(1510, 0), text: "Keep left"), at: 4)
        #expect(Self.only("contradictions", in: book).map(\.message)
                == ["row 4 (#4 'Turn right' at 1.50 km) says right and row 5 (#8 'Keep left' at 1.51 km) says left, 10 m apart"])
        book.notes[4].distanceAlong = 1520
        #expect(book.problems().isEmpty, "20 m apart is two places")
        book.notes[4].distanceAlong = 1510
        book.notes[4].text = "Keep right"
        #expect(book.problems().isEmpty, "both say right")
        book.notes[4].text = "Left then right at the well"
        #expect(book.problems().isEmpty, "words that say both say neither")

        book = Self.book()
        book.notes.insert(Note(id: 8, kind: .checkpoint, distanceAlong: 1005, coordinate: Self.grid(1005, 0), text: "Control",
                               waypointType: .cp), at: 3)
        let types = Self.only("contradictions", in: book)
        #expect(types.map(\.notes) == [[2, 3]] && types[0].message.hasSuffix("a WPM and row 4 (#8 'Control' at 1.00 km) a CP, 5 m apart: one place has one waypoint type"))
    }

    @Test("many rows on one spot: each named once, against the nearest row before it, not every pair")
    func oneSpot() {
        var book = Self.book()
        book.notes = (0..<1000).map { k in
            Note(id: k + 1, kind: .typed, distanceAlong: 700, coordinate: Self.grid(700, 0), text: k % 2 == 0 ? "Left" : "Right",
                 waypointType: k % 3 == 0 ? .wpm : nil)
        }
        let problems = NearbyContradictions().problems(in: book)
        // 999 rows follow one that says the other side; no two types on the spot, all WPM.
        #expect(problems.count == 999)
        #expect(problems.allSatisfy { $0.notes[1] - $0.notes[0] == 1 })
    }

    @Test("which way a row sends the rider: its tulip's exit, else its generated turn, else its words")
    func sides() {
        let rule = NearbyContradictions()
        var note = Note(id: 1, kind: .typed, distanceAlong: 0, coordinate: Self.grid(0, 0), text: "Turn LEFT at the well")
        #expect(rule.side(of: note) == -1)
        note.text = "Leftover wall, go on"
        #expect(rule.side(of: note) == 0, "a word, not part of one")
        note.generated = GeneratedTurn(maneuver: "turn", modifier: "slight right", junction: Junction(coordinate: Self.grid(0, 0), distanceAlong: 0, spokes: []), text: "Bear right")
        #expect(rule.side(of: note) == 1)
        note.tulip = Tulip(origin: .drawn, roads: [Tulip.Road(role: .entry, angle: 180), Tulip.Road(role: .exit, angle: -10)])
        #expect(rule.side(of: note) == 0, "10° off straight on reads as straight on")
        note.tulip?.roads[1].angle = -35
        #expect(rule.side(of: note) == -1)
        note.tulip?.roundabout = Tulip.Roundabout(exitNumber: 2)
        #expect(rule.side(of: note) == 0, "a roundabout's exit is counted, not a side")
    }

    @Test("regularity: rows before a section's first average, a section with none, an average outside every section, averages in a navigation book")
    func regularity() {
        var book = Self.book()
        book.notes[0].targetSpeed = 40
        #expect(Self.only("regularity", in: book).map(\.message)
                == ["the book is for navigation: the average set at row 1 (#1 'Start' at 0.00 km) is neither printed nor timed (only a regularity book prints and times averages)"])
        book.settings.purpose = .regularity
        #expect(book.problems().isEmpty)
        book.notes[0].targetSpeed = nil
        book.notes[2].targetSpeed = 40
        #expect(Self.only("regularity", in: book).map(\.message)
                == ["section 1: 2 rows, row 1 (#1 'Start' at 0.00 km) to row 2 (#2 'Cattle grid' at 0.50 km) come before its first average, "
                    + "set at row 3 (#3 'Well' at 1.00 km), and have no ideal time; the section's clock starts at that row: "
                    + "set the average on the section's first row"])
        book.notes[2].targetSpeed = nil
        #expect(Self.only("regularity", in: book).first?.message.hasPrefix("section 1 sets no average: 7 rows, row 1") == true)
        book.notes[0].targetSpeed = 40
        book.notes.append(Note(id: 9, kind: .typed, distanceAlong: 3000, coordinate: Self.grid(3000, 0), text: "Liaison", targetSpeed: 60))
        #expect(Self.only("regularity", in: book).map(\.notes) == [[7]])
    }
}
