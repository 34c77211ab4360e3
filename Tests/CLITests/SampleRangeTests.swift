import Foundation
import Formats
import Model
import Testing
import TestSupport

/// The sample book as `scripts/sample.sh` makes it: built from the track over the Andorra extract
/// and tile, then given the notes an organiser adds by hand (`samples/andorra-envalira.notes`, one
/// `roadbook note` a line), printed in English and in French, and checked. What the range must
/// show is read back from the book file and from the PDFs' text (poppler's pdftotext), not from
/// our own layout.
@Suite("The sample book shows the range")
struct SampleRangeTests {
    /// The words of one line as a shell reads them: split at spaces, a double-quoted stretch one
    /// word (what `xargs -L1` does with the notes file).
    static func words(_ line: Substring) -> [String] {
        var words: [String] = [], word = "", quoted = false, started = false
        for c in line {
            if c == "\"" { quoted.toggle(); started = true }
            else if c == " ", !quoted { if started { words.append(word) }; word = ""; started = false }
            else { word.append(c); started = true }
        }
        if started { words.append(word) }
        return words
    }

    @Test("typed notes with dangers and symbols, a speed zone, a WPV and a WPM; English and French; check finds nothing")
    func sampleShowsTheRange() async throws {
        let root = packageRoot()
        let data = root.appendingPathComponent("samples/data/andorra")
        let folder = try TemporaryFolder()
        let book = folder.path("sample.json").path, pdf = folder.path("sample.pdf").path
        let built = await roadbook(["build", root.appendingPathComponent("samples/andorra-envalira.gpx").path,
                                    "-o", pdf, "--book", book,
                                    "--osm", data.appendingPathComponent("andorra.osm.pbf").path,
                                    "--dem", data.appendingPathComponent("N42E001.hgt.zip").path])
        try #require(built.status == 0, "\(built.errors)")

        let lines = try String(contentsOf: root.appendingPathComponent("samples/andorra-envalira.notes"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(lines.count >= 6)
        for line in lines {
            let r = await roadbook(["note", book] + Self.words(line))
            #expect(r.status == 0, "note \(line): \(r.errors)")
        }

        // The book holds the range.
        let notes = try BookFile.read(contentsOf: URL(fileURLWithPath: book)).notes
        let typed = notes.filter { $0.kind == .typed }
        #expect(Set(typed.map(\.danger)).isSuperset(of: [1, 2, 3]), "dangers of every level")
        #expect(typed.contains { !$0.symbols.isEmpty && $0.danger > 0 }, "a danger with its symbols")
        #expect(notes.allSatisfy { $0.symbols.allSatisfy(\.isKnown) }, "every symbol is the library's")
        let types = Set(notes.compactMap(\.waypointType))
        #expect(types.isSuperset(of: [.wpv, .wpm, .dz, .fz, .dss, .ass, .cp]))
        let zoneStart = try #require(notes.first { $0.waypointType == .dz })
        let zoneEnd = try #require(notes.first { $0.waypointType == .fz })
        #expect(zoneStart.speedLimit == 50 && zoneStart.distanceAlong < zoneEnd.distanceAlong)

        // Printed in English, and in French: the generated words and the labels in French, a
        // person's words as they wrote them.
        let english = await roadbook(["render", book, "-o", pdf])
        #expect(english.status == 0, "\(english.errors)")
        let french = folder.path("sample-fr.pdf").path
        let r = await roadbook(["render", book, "-o", french, "--language", "fr"])
        #expect(r.status == 0, "\(r.errors)")
        // Lines joined: words wrap in their cell.
        let englishText = try runTool("pdftotext", ["-raw", pdf, "-"]).replacingOccurrences(of: "\n", with: " ")
        let frenchText = try runTool("pdftotext", ["-raw", french, "-"]).replacingOccurrences(of: "\n", with: " ")
        for typedWords in ["Cattle grid across the road", "Drop on the right, no barrier"] {
            #expect(englishText.contains(typedWords) && frenchText.contains(typedWords))
        }
        #expect(englishText.contains("Roundabout, 2nd exit") && englishText.contains("Lexicon"))
        #expect(frenchText.contains("Rond-point, 2e sortie") && frenchText.contains("Lexique"))
        #expect(frenchText.contains("Passage canadien"), "the lexicon's meaning of cattleGrid in French")
        // The sample track's own waypoints carry English words of a person's ("Roundabout, 2nd exit
        // onto CG-2" at R7), which stay; the generated roundabout rows print in French.
        let generatedRoundabouts = notes.filter { $0.kind == .turn && $0.generated?.maneuver == "roundabout" }.count
        #expect(generatedRoundabouts >= 5)
        #expect(frenchText.components(separatedBy: "Rond-point").count - 1 >= generatedRoundabouts)

        // And nothing for the checker to say.
        let checked = await roadbook(["check", book])
        #expect(checked.status == 0, "\(checked.output)\(checked.errors)")
    }
}
