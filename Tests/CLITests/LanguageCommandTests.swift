import Foundation
import Formats
import Model
import Testing
import TestSupport

/// `--language` on build, render and regenerate: the book's generated words and page labels in the
/// rider's language, a person's words as written. The expected words are the tables' own, written
/// out by hand; the PDFs are read back with poppler's pdftotext.
@Suite("Books in the rider's language")
struct LanguageCommandTests {
    static var sample: String { packageRoot().appendingPathComponent("samples/andorra-envalira.gpx").path }
    static func extract() throws -> String { try testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf").path }

    /// The PDF's text in drawing order, one space between words, so a wrapped row reads as one line.
    static func text(_ pdf: URL) throws -> String {
        try runTool("pdftotext", ["-raw", pdf.path, "-"]).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The book's notes on the route, in printed order.
    static func rows(_ book: URL) throws -> [Note] {
        try BookFile.read(contentsOf: book).notes.filter { $0.placement == .onRoute }
    }

    /// Words the English table generates, at the start of a row.
    static let englishPhrases = ["Roundabout", "Turn ", "Bear ", "Keep ", "End of road", "Straight on", "U-turn",
                                 "Left then", "Right then"]

    @Test("build --language fr prints French turn words and French page labels; the waypoints' words as written")
    func buildFrench() async throws {
        let folder = try TemporaryFolder()
        let r = await roadbook(["build", Self.sample, "--osm", try Self.extract(), "-o", folder.path("fr.pdf").path,
                                "--book", folder.path("fr.json").path, "--language", "fr"])
        #expect(r.status == 0, "\(r.errors)")
        let text = try Self.text(folder.path("fr.pdf"))
        for words in ["Rond-point, 2e sortie sur CG-1", "Rond-point, 1re sortie sur CG-1",
                      "Au bout de la route, tourner à droite sur CG-1", "Bifurcation, prendre à droite sur CG-1",
                      "page 2 sur ", "CASES", "PARCOURS", "LÉGENDE", "Départ du secteur sélectif", "RAZ",
                      "Remettre le trip à zéro", "Case suivante à moins de 300 m",
                      // The waypoints' own words, written in English by their author.
                      "R1 C.066 End of road, turn right", "Checkpoint Canillo: continue on CG-2"] {
            #expect(text.contains(words), "\(words)")
        }
        for english in ["page 2 of", "ROWS", "LEGEND", "Keep right at fork", "Roundabout, 2nd exit onto CG-1", "RESET"] {
            #expect(!text.contains(english), "\(english)")
        }
        #expect(try String(contentsOf: folder.path("fr.json"), encoding: .utf8).contains("\"language\" : \"fr\""))

        // The same build without --language is the English book, which names no language.
        let en = await roadbook(["build", Self.sample, "--osm", try Self.extract(), "-o", folder.path("en.pdf").path,
                                 "--book", folder.path("en.json").path])
        #expect(en.status == 0, "\(en.errors)")
        let english = try Self.text(folder.path("en.pdf"))
        #expect(english.contains("Roundabout, 2nd exit onto CG-1") && english.contains("page 2 of ") && english.contains("LEGEND"))
        #expect(!(try String(contentsOf: folder.path("en.json"), encoding: .utf8)).contains("language"))
    }

    @Test("regenerate --language es rewrites the generated words, keeps typed ones; the language is remembered; render --language leaves the book as it is")
    func regenerateSpanish() async throws {
        let folder = try TemporaryFolder()
        let book = folder.path("b.json")
        let extract = try Self.extract()
        let built = await roadbook(["build", Self.sample, "--osm", extract, "-o", folder.path("b.pdf").path, "--book", book.path])
        #expect(built.status == 0, "\(built.errors)")
        let before = try Self.rows(book)
        func row(_ words: String) throws -> (number: Int, id: Int) {
            let i = try #require(before.firstIndex { $0.generated != nil && $0.text == words }, "\(words)")
            return (i + 1, before[i].id)
        }
        let roundabout = try row("Roundabout, 2nd exit onto CG-1")
        let fork = try row("Keep right at fork onto CG-1")
        let end = try row("End of road, turn right onto CG-1")
        let waypoint = try #require(before.first { $0.marker == "R1" })
        // Typed words: one as the generated words read, one of a person's own.
        for (number, words) in [(fork.number, "Keep right at fork onto CG-1"), (end.number, "Right at the bakery")] {
            let edit = await roadbook(["note", book.path, "edit", String(number), "--text", words])
            #expect(edit.status == 0, "\(edit.errors)")
        }

        let regenerated = await roadbook(["regenerate", book.path, "--route", Self.sample, "--osm", extract, "--language", "es"])
        #expect(regenerated.status == 0, "\(regenerated.errors)")
        #expect(regenerated.output.contains("the book prints in español from now on"), "\(regenerated.output)")
        func check(_ stage: String) throws {
            let stored = try BookFile.read(contentsOf: book)
            #expect(stored.settings.language == .es, "\(stage)")
            let byID = Dictionary(uniqueKeysWithValues: stored.notes.map { ($0.id, $0) })
            #expect(byID[roundabout.id]?.text == "Rotonda, 2.ª salida por CG-1", "\(stage)")
            #expect(byID[fork.id]?.text == "Keep right at fork onto CG-1", "\(stage): typed words stay")
            #expect(byID[end.id]?.text == "Right at the bakery", "\(stage): typed words stay")
            #expect(byID[waypoint.id]?.text == waypoint.text, "\(stage): a waypoint's words stay")
            for note in stored.notes where note.generated != nil && !note.wordsArePersons {
                #expect(!Self.englishPhrases.contains { note.text.hasPrefix($0) }, "\(stage): \(note.text)")
            }
        }
        try check("regenerate --language es")

        // Rendered without --language: in the book's language.
        #expect(await roadbook(["render", book.path, "-o", folder.path("es.pdf").path]).status == 0)
        let spanish = try Self.text(folder.path("es.pdf"))
        for words in ["página 2 de ", "VIÑETAS", "LEYENDA", "A CERO", "Rotonda, 2.ª salida por CG-1",
                      "Rotonda, 1.ª salida por CG-1", "Right at the bakery", "Keep right at fork onto CG-1"] {
            #expect(spanish.contains(words), "\(words)")
        }
        #expect(!spanish.contains("Al final del camino, girar a la derecha por CG-1 "), "the row typed over stays typed")

        // Regenerated again without --language: still Spanish.
        let again = await roadbook(["regenerate", book.path, "--route", Self.sample, "--osm", extract])
        #expect(again.status == 0, "\(again.errors)")
        #expect(!again.output.contains("from now on"))
        try check("regenerate without --language")

        // render --language prints in Italian and leaves the book file as it was.
        let bytes = try Data(contentsOf: book)
        let italianRender = await roadbook(["render", book.path, "-o", folder.path("it.pdf").path, "--language", "it"])
        #expect(italianRender.status == 0 && italianRender.errors.isEmpty, "\(italianRender.errors)")
        #expect(try Data(contentsOf: book) == bytes)
        let italian = try Self.text(folder.path("it.pdf"))
        for words in ["pagina 2 di ", "CASELLE", "LEGENDA", "AZZERA", "Rotatoria, 2ª uscita su CG-1", "Rotatoria, 1ª uscita su CG-1",
                      "Right at the bakery", "Keep right at fork onto CG-1", "End of road, turn right"] {
            #expect(italian.contains(words), "\(words)")
        }
        #expect(!italian.contains("Rotonda") && !italian.contains("página"))
    }

    @Test("route --language it keeps the language; regenerate through a handles file --language pt rewrites the generated words, a handle note's words stay")
    func routeAndHandles() async throws {
        let folder = try TemporaryFolder()
        let book = folder.path("b.json")
        let engine = ["--engine", "embedded", "--osm", try Self.extract()]
        let handles = ["42.5063 1.5218 | Cattle grid", "42.5100 1.5300", "42.5170 1.5450 | Finish at the chapel"]
        let routed = await roadbook(["route", "--book", book.path, "--language", "it"] + handles.flatMap { ["--handle", $0] } + engine)
        #expect(routed.status == 0, "\(routed.errors)")
        // Each language's first words of a generated row, from its table.
        let italian = ["Svoltare", "Rotatoria", "Bivio", "Dritto", "Proseguire", "A fine strada", "Inversione", "Incrocio",
                       "Sinistra e poi", "Destra e poi"]
        let portuguese = ["Virar", "Rotunda", "Bifurcação", "Em frente", "Seguir em frente", "No fim da estrada", "Inversão",
                          "Cruzamento", "Esquerda e depois", "Direita e depois"]
        func generated(_ stage: String) throws -> [String] {
            let words = try BookFile.read(contentsOf: book).notes.filter { $0.generated != nil && !$0.wordsArePersons }.map(\.text)
            #expect(!words.isEmpty, "\(stage): the route has turns")
            return words
        }
        #expect(try BookFile.read(contentsOf: book).settings.language == .it)
        for words in try generated("route") { #expect(italian.contains { words.hasPrefix($0) }, "route: \(words)") }

        let handlesFile = folder.path("again.txt")
        try (handles.joined(separator: "\n") + "\n").write(to: handlesFile, atomically: true, encoding: .utf8)
        let rerouted = await roadbook(["regenerate", book.path, "--route", handlesFile.path, "--language", "pt"] + engine)
        #expect(rerouted.status == 0, "\(rerouted.errors)")
        #expect(rerouted.output.contains("the book prints in português from now on"), "\(rerouted.output)")
        let stored = try BookFile.read(contentsOf: book)
        #expect(stored.settings.language == .pt)
        for words in try generated("regenerate") { #expect(portuguese.contains { words.hasPrefix($0) }, "regenerate: \(words)") }
        for words in ["Cattle grid", "Finish at the chapel"] {
            #expect(stored.notes.contains { $0.text == words }, "a handle note's words stay: \(words)")
        }
    }

    @Test("an unknown language is refused in one line naming the known ones", arguments: [
        ["build", "t.gpx", "-o", "b.pdf", "--language", "de"],
        ["render", "b.json", "-o", "b.pdf", "--language", "de"],
        ["regenerate", "b.json", "--route", "t.gpx", "--language", "de"],
        ["route", "h.geojson", "--engine", "osrm", "-o", "b.pdf", "--language", "de"],
    ])
    func unknownLanguage(arguments: [String]) async {
        let r = await roadbook(arguments)
        #expect(r.status == 64)
        #expect(r.errors.split(separator: "\n").first == "roadbook \(arguments[0]): --language must be one of en, fr, es, pt, it, not 'de'",
                "\(r.errors)")
    }
}
