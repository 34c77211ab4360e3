import Foundation
import Geo
import Layout
import Model
import Testing
import TestSupport

/// The pages and the cover in the book's language: every label from its phrasebook, a person's
/// words as written. Expected words are the tables' own, written out by hand.
@Suite("Pages and cover in the book's language")
struct LanguageLayoutTests {
    static func inLanguage(_ language: BookLanguage, _ book: Book) -> Book {
        var book = book
        book.settings.setLanguage(language)
        return book
    }

    @Test("a French cover: figures, headings, map markers, legend and sources in French; the notes as written")
    func frenchCover() {
        let book = Self.inLanguage(.fr, CoverFixtures.mountainBook())
        let cover = CoverLayout.layout(book: book, template: Fixtures.a5, measurer: FakeMeasurer())
        let texts = { (kind: CoverBox.Kind) in cover.boxes.filter { $0.kind == kind }.compactMap(\.text) }
        #expect(texts(.statCaption) == ["DISTANCE", "CASES", "DÉNIVELÉ +", "DÉNIVELÉ −", "ALTITUDE MAX."])
        #expect(texts(.sectionTitle) == ["PARCOURS", "PROFIL", "LÉGENDE"])
        #expect(texts(.footer) == ["Parcours\u{00A0}: envalira.gpx   ·   Altitudes\u{00A0}: synthetic"])
        let markers = cover.map?.markers.filter { $0.kind != .waypoint }.map(\.label)
        #expect(markers == ["DÉPART", "ARRIVÉE"])
        #expect(cover.map?.northLabel == "N")
        let meanings = Dictionary(uniqueKeysWithValues: cover.legend.map { ("\($0.symbol)", $0.meaning) })
        #expect(meanings["start"] == "Départ du parcours")
        #expect(meanings["\(LegendEntry.Symbol.waypointType(.wpm))"] == "Waypoint masqué\u{00A0}: caché sur le GPS")
        #expect(meanings["\(LegendEntry.Symbol.danger(3))"] == "Grand danger\u{00A0}: ralentir fortement")
        #expect(meanings["odometerReset"] == "Remettre le trip à zéro")
        #expect(cover.legend.first { $0.symbol == .odometerReset }?.sample == "RAZ")
        // Only the words change: the same boxes in the same places as the English cover.
        let english = CoverLayout.layout(book: CoverFixtures.mountainBook(), template: Fixtures.a5, measurer: FakeMeasurer())
        #expect(cover.boxes.map(\.kind) == english.boxes.map(\.kind))
        #expect(english.boxes.filter { $0.kind == .sectionTitle }.compactMap(\.text) == ["ROUTE", "ELEVATION", "LEGEND"])
    }

    @Test("a cover without complete terrain says so in the book's language")
    func noTerrain() {
        var book = Self.inLanguage(.it, CoverFixtures.smallBook())
        book.profile?.heights[2] = nil
        let cover = CoverLayout.layout(book: book, template: Fixtures.a5, measurer: FakeMeasurer())
        #expect(cover.boxes.filter { $0.kind == .footer }.compactMap(\.text) == ["Nessuna quota per questo percorso"])
    }

    @Test("row pages: the reset mark, the symbols' tags and the footer in the book's language; the words as written")
    func rowPages() {
        var notes = [Fixtures.note(1, at: 0, "Départ", resets: true), Fixtures.note(2, at: 1500, "Gué puis piste")]
        notes[1].symbols = [.fuel, .ford]
        for (language, reset, tags, footer) in [
            (BookLanguage.fr, "RAZ", ["CARBURANT", "GUÉ"], "page 1 sur 1"),
            (.es, "A CERO", ["COMBUSTIBLE", "VADO"], "página 1 de 1"),
            (.pt, "A ZERO", ["COMBUSTÍVEL", "VAU"], "página 1 de 1"),
            (.it, "AZZERA", ["CARBURANTE", "GUADO"], "pagina 1 di 1"),
            (.en, "RESET", ["FUEL", "FORD"], "page 1 of 1"),
        ] {
            let book = Self.inLanguage(language, Fixtures.book(notes))
            let page = BookLayout.pages(book: book, template: Fixtures.a5, measurer: FakeMeasurer()).page(0)
            let texts = { (kind: Box.Kind) in page.boxes.filter { $0.kind == kind }.compactMap(\.text) }
            #expect(texts(.odometerReset) == [reset], "\(language)")
            #expect(texts(.symbol) == tags, "\(language)")
            #expect(texts(.footer) == [footer], "\(language)")
            #expect(texts(.noteText) == ["Départ", "Gué puis piste"], "\(language)")
        }
    }

    @Test("the English symbol tags are the ones the book always printed")
    func englishSymbols() {
        let eighteen: [NoteSymbol] = [.fuel, .bridge, .ford, .cattleGrid, .gate, .village, .railway, .hump, .hole, .stones, .sand,
                                      .dunes, .fork, .summit, .viewpoint, .water, .police, .radar]
        #expect(eighteen.map { SymbolFormat.label($0) } == [
            "FUEL", "BRIDGE", "FORD", "CATTLE GRID", "GATE", "VILLAGE", "RAILWAY", "HUMP", "HOLE", "STONES", "SAND",
            "DUNES", "FORK", "SUMMIT", "VIEW", "WATER", "POLICE", "RADAR"])
        #expect(WaypointType.allCases.map { Legend.meaning(of: $0) }.first == "Masked waypoint: hidden on the GPS")
    }
}
