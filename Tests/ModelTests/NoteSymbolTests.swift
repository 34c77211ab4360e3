import Foundation
import Formats
import Geo
import Model
import Testing
import TestSupport

/// Symbols are names: the library's 135 in their order, and names it lacks, which a book keeps
/// through every save and load.
@Suite("Symbols as names")
struct NoteSymbolTests {
    static func book(symbols: [NoteSymbol]) -> Book {
        let route = Route(points: [RoutePoint(coordinate: Coordinate(latitude: 42.5, longitude: 1.5)),
                                   RoutePoint(coordinate: Coordinate(latitude: 42.51, longitude: 1.5))])
        return Book(title: "Symbols", route: route, notes: [
            Note(id: 1, kind: .typed, distanceAlong: 100, coordinate: Coordinate(latitude: 42.501, longitude: 1.5), text: "Here",
                 symbols: symbols),
        ])
    }

    @Test("the library has the 135 names in the order of its table, each once, each a name a file can have")
    func library() {
        let names = NoteSymbol.library.map(\.name)
        #expect(names.count == 135)
        #expect(Set(names).count == 135)
        #expect(names.prefix(4) == ["danger1", "danger2", "danger3", "dss"])
        #expect(names.suffix(4) == ["caution", "followCap", "doNotCut", "lookOut"])
        #expect(names.allSatisfy { NoteSymbol.isWellFormed($0) })
        // Grouped: each group's names together, the groups in the lexicon's order.
        let groups = NoteSymbol.entries.map(\.group)
        var order: [NoteSymbol.Group] = []
        for group in groups where order.last != group { order.append(group) }
        #expect(order == NoteSymbol.Group.allCases)
    }

    @Test("the eighteen names symbols had before are still the library's, by the same static names")
    func oldNames() {
        let old: [NoteSymbol] = [.fuel, .bridge, .ford, .cattleGrid, .gate, .village, .railway, .hump, .hole, .stones, .sand,
                                 .dunes, .fork, .summit, .viewpoint, .water, .police, .radar]
        #expect(old.map(\.name) == ["fuel", "bridge", "ford", "cattleGrid", "gate", "village", "railway", "hump", "hole",
                                    "stones", "sand", "dunes", "fork", "summit", "viewpoint", "water", "police", "radar"])
        #expect(old.allSatisfy { $0.isKnown })
        #expect(!NoteSymbol("foo").isKnown && NoteSymbol("foo").entry == nil)
        #expect(NoteSymbol.medical.entry?.openRally == "medical" && NoteSymbol.ford.entry?.openRally == nil)
        #expect(NoteSymbol.village.entry?.group == .landmark && NoteSymbol.village.entry?.meaning == "Village")
    }

    @Test("a symbol is written as its plain name, as books wrote the old ones")
    func plainJSON() throws {
        let data = try JSONEncoder().encode([NoteSymbol.cattleGrid, NoteSymbol("myOwn")])
        #expect(String(decoding: data, as: UTF8.self) == #"["cattleGrid","myOwn"]"#)
        let read = try JSONDecoder().decode([NoteSymbol].self, from: Data(#"["fuel","foo"]"#.utf8))
        #expect(read == [.fuel, NoteSymbol("foo")])
        #expect(NoteSymbol(rawValue: "ford") == .ford && NoteSymbol.ford.rawValue == "ford")
    }

    @Test("a name the library does not have is kept through a save and a load, in its place")
    func unknownKept() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("book.json")
        let book = Self.book(symbols: [.ford, NoteSymbol("foo"), .gate])
        try BookFile.write(book, to: url)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains("\"foo\""))
        let read = try BookFile.read(contentsOf: url)
        #expect(read.notes[0].symbols.map(\.name) == ["ford", "foo", "gate"])
        try BookFile.write(read, to: url)
        #expect(try String(contentsOf: url, encoding: .utf8) == text, "written back the same")
    }

    @Test("a name that cannot be a symbol's, or more symbols than a row prints, is refused naming the field")
    func refused() throws {
        for bad in ["../x", "", "a b", String(repeating: "x", count: 65)] {
            let error = #expect(throws: BookValidationError.self) { try Self.book(symbols: [.ford, NoteSymbol(bad)]).validate() }
            #expect(error?.field == "notes[0].symbols[1]", "\(bad)")
        }
        let many = (0...BookLimits.maximumSymbols).map { NoteSymbol("s\($0)") }
        let error = #expect(throws: BookValidationError.self) { try Self.book(symbols: many).validate() }
        #expect(error?.field == "notes[0].symbols")
        try Self.book(symbols: Array(many.prefix(BookLimits.maximumSymbols))).validate()
    }

    @Test("a note's fields print as the library's symbols: type, a DZ's limit, reset, CAP, danger")
    func fieldSymbols() {
        var note = Self.book(symbols: []).notes[0]
        #expect(note.fieldSymbols.isEmpty)
        note.waypointType = .dz
        note.speedLimit = 50
        note.resetsOdometer = true
        note.cap = 90
        note.danger = 2
        #expect(note.fieldSymbols == [.dz, .speedLimit, .reset, .cap, .danger2])
        note.waypointType = .fz
        #expect(note.fieldSymbols == [.fz, .reset, .cap, .danger2], "an FZ's limit is drawn struck through, not as the sign")
        note.waypointType = .cp
        #expect(note.fieldSymbols.first == .checkpoint)
        #expect(WaypointType.allCases.allSatisfy { NoteSymbol.of($0).isKnown })
    }
}
