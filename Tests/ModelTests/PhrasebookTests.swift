import Foundation
import Formats
import Geo
import Model
import Testing

@Suite("The phrasebooks: one table a language, the same keys")
struct PhrasebookTests {
    @Test("every language has a text for every key, none empty, each with the English text's placeholders",
          arguments: BookLanguage.allCases)
    func complete(language: BookLanguage) {
        let words = Phrasebook.of(language)
        #expect(words.language == language)
        #expect(words.problems() == [], "\(words.problems().joined(separator: "\n"))")
        // The check itself, key by key, so a broken table names the key even if `problems` were wrong.
        for key in Phrasebook.Key.allCases {
            let text = words.table[key]
            #expect(text.map { !$0.trimmingCharacters(in: .whitespaces).isEmpty } == true, "\(language): \(key.rawValue)")
            #expect(Phrasebook.placeholders(in: text ?? "").sorted()
                    == Phrasebook.placeholders(in: Phrasebook.english.table[key] ?? "").sorted(),
                    "\(language): \(key.rawValue)")
        }
        #expect(words.table.count == Phrasebook.Key.allCases.count)
    }

    @Test("a table with a key missing, a text empty, a placeholder missing or one extra is refused, each named")
    func problemsAreFound() {
        var table = Phrasebook.french.table
        table[.lexiconTitle] = nil
        table[.coverRows] = "  "
        table[.roundaboutExit] = "Rond-point, sortie"             // {ordinal} missing
        table[.onto] = " sur {road} {ordinal}"                   // {ordinal} extra
        table[.pageFooter] = "page {page} sur {page}"            // {pages} missing, {page} twice
        let broken = Phrasebook(language: .fr, table: table, ordinal: Phrasebook.frenchOrdinal)
        #expect(broken.problems() == [
            "fr: turn.roundaboutExit lacks {ordinal}",
            "fr: turn.onto has {ordinal}, which English has not",
            "fr: page.footer lacks {pages}",
            "fr: page.footer has {page}, which English has not",
            "fr: cover.rows is empty",
            "fr: lexicon.title has no text",
        ])
        // A missing key still prints: in English, never blank.
        #expect(broken[.lexiconTitle] == "Lexicon")
    }

    @Test("the placeholders the texts use are the ones the code fills")
    func knownPlaceholders() {
        let used = Set(Phrasebook.Key.allCases.flatMap { Phrasebook.placeholders(in: Phrasebook.english[$0]) })
        #expect(used == ["ordinal", "road", "page", "pages", "source", "count", "distance", "speed"])
    }

    @Test("English ordinals: st, nd, rd, th, and th for 11 to 13")
    func englishOrdinals() {
        #expect([1, 2, 3, 4, 10, 11, 12, 13, 21, 22, 23, 101, 111, 112].map(Phrasebook.english.ordinal)
                == ["1st", "2nd", "3rd", "4th", "10th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th", "112th"])
    }

    @Test("French ordinals agree with 'sortie': 1re, then e")
    func frenchOrdinals() {
        #expect([1, 2, 3, 10, 11, 21].map(Phrasebook.french.ordinal) == ["1re", "2e", "3e", "10e", "11e", "21e"])
        #expect(Phrasebook.french.text(.roundaboutExit, ["ordinal": Phrasebook.french.ordinal(1)]) == "Rond-point, 1re sortie")
        #expect(Phrasebook.french.text(.roundaboutExit, ["ordinal": Phrasebook.french.ordinal(2)]) == "Rond-point, 2e sortie")
    }

    @Test("Spanish and Portuguese ordinals: a full stop and the feminine indicator; Italian: the indicator alone")
    func iberianAndItalianOrdinals() {
        #expect([1, 2, 10].map(Phrasebook.spanish.ordinal) == ["1.ª", "2.ª", "10.ª"])
        #expect([1, 2, 10].map(Phrasebook.portuguese.ordinal) == ["1.ª", "2.ª", "10.ª"])
        #expect([1, 2, 10].map(Phrasebook.italian.ordinal) == ["1ª", "2ª", "10ª"])
        #expect(Phrasebook.spanish.text(.roundaboutExit, ["ordinal": "2.ª"]) == "Rotonda, 2.ª salida")
        #expect(Phrasebook.portuguese.text(.roundaboutExit, ["ordinal": "2.ª"]) == "Rotunda, 2.ª saída")
        #expect(Phrasebook.italian.text(.roundaboutExit, ["ordinal": "2ª"]) == "Rotatoria, 2ª uscita")
    }

    @Test("placeholders are filled once: a value that looks like a placeholder stays as given")
    func fillOnce() {
        #expect(Phrasebook.fill("page {page} of {pages}", ["page": "{pages}", "pages": "3"]) == "page {pages} of 3")
        #expect(Phrasebook.fill("{road} {unknown} {", ["road": "N22"]) == "N22 {unknown} {")
        #expect(Phrasebook.english.text(.pageFooter, ["page": "2", "pages": "6"]) == "page 2 of 6")
        #expect(Phrasebook.french.text(.pageFooter, ["page": "2", "pages": "6"]) == "page 2 sur 6")
        #expect(Phrasebook.english.counted(1, one: .coverLegsNoRoadOne, other: .coverLegsNoRoadOther) == "1 leg straight (no road)")
        #expect(Phrasebook.english.counted(2, one: .coverLegsNoRoadOne, other: .coverLegsNoRoadOther) == "2 legs straight (no road)")
    }

    @Test("a book names its language only when it is not English; one without reads as English; an unknown code is refused at its field")
    func bookFile() throws {
        var book = Book(title: "T", route: Route(points: [RoutePoint(coordinate: Coordinate(latitude: 42.5, longitude: 1.5)),
                                                          RoutePoint(coordinate: Coordinate(latitude: 42.51, longitude: 1.5))]))
        let english = String(decoding: try BookFile.encode(book), as: UTF8.self)
        #expect(!english.contains("language"))
        book.settings.setLanguage(.en)
        #expect(book.settings.language == nil)
        #expect(String(decoding: try BookFile.encode(book), as: UTF8.self) == english)
        #expect(try BookFile.decode(Data(english.utf8), fileName: "b.json").settings.language == nil)

        book.settings.setLanguage(.pt)
        let portuguese = String(decoding: try BookFile.encode(book), as: UTF8.self)
        #expect(portuguese.contains("\"language\" : \"pt\""))
        #expect(try BookFile.decode(Data(portuguese.utf8), fileName: "b.json").settings.language == .pt)

        let german = portuguese.replacingOccurrences(of: "\"language\" : \"pt\"", with: "\"language\" : \"de\"")
        let error = #expect(throws: FormatError.self) { try BookFile.decode(Data(german.utf8), fileName: "b.json") }
        #expect(error?.description.contains("b.json") == true && error?.description.contains("language") == true,
                "\(String(describing: error))")
    }

    @Test("the cover's straight legs in each language: English as before, others counted in their words")
    func straightSummary() {
        let stretch = { (reason: StraightStretch.Reason) in StraightStretch(start: 0, end: 100, reason: reason, leg: 1) }
        let route = Route(points: [], straightStretches: [stretch(.noRoad), stretch(.noRoad), stretch(.waiting)])
        #expect(route.straightSummary == "2 legs straight (no road), 1 leg used straight while waiting")
        #expect(route.straightSummary(in: .french)
                == "2 tronçons en ligne droite (pas de route), 1 tronçon en ligne droite en attendant la route")
        let removed = Route(points: [], straightStretches: [stretch(.removed)])
        #expect(removed.straightSummary(in: .italian) == "percorso rimosso: una linea retta tra le caselle")
    }
}
