import Foundation
import Formats
import Geo
import Model
import Testing
import TestSupport

/// `roadbook check` on the sample book, and on copies of it each with one fault planted as a
/// person editing the file by hand would (written without the checks a save makes): check names
/// that fault, and only it, and exits 1; the sample as built exits 0.
@Suite("roadbook check")
struct CheckCommandTests {
    /// A fault: its name, the rule that must find it, and how it is planted in the sample book.
    struct Fault: Sendable {
        var name: String
        var rule: String
        /// Plants the fault; returns the indices in `notes` the rule must name.
        var plant: @Sendable (inout Book) throws -> [Int]
    }

    static func index(_ marker: String, in book: Book) throws -> Int {
        try #require(book.notes.firstIndex { $0.marker == marker }, "the sample book has a row \(marker)")
    }

    static let faults: [Fault] = [
        Fault(name: "the ASS gone: the DSS is never closed", rule: "sections") { book in
            let ass = try index("ASS", in: book)
            book.notes[ass].waypointType = nil
            return [try index("DSS", in: book)]
        },
        Fault(name: "CP1 made a second DSS before the ASS", rule: "sections") { book in
            let cp = try index("CP1", in: book)
            book.notes[cp].waypointType = .dss
            return [try index("DSS", in: book), cp]
        },
        Fault(name: "R1 a WPM whose clear radius reaches back to the start", rule: "first-waypoint") { book in
            // 2.6 km along the route, so at most 2.6 km from the DSS in a straight line: within 100 m + 3000 m.
            let r1 = try index("R1", in: book)
            book.notes[r1].waypointType = .wpm
            book.notes[r1].openRadius = 5000
            book.notes[r1].clearRadius = 3000
            return [try index("DSS", in: book), r1]
        },
        Fault(name: "R5 opens a speed zone no FZ closes", rule: "speed-zones") { book in
            let r5 = try index("R5", in: book)
            book.notes[r5].waypointType = .dz
            book.notes[r5].speedLimit = 50
            return [r5]
        },
        Fault(name: "CP1's clear radius of 10 m", rule: "radii") { book in
            let cp = try index("CP1", in: book)
            book.notes[cp].clearRadius = 10
            return [cp]
        },
        Fault(name: "R3's tulip drawn by hand and left to check after a route change", rule: "drawn-tulips") { book in
            let r3 = try index("R3", in: book)
            book.notes[r3].tulip?.origin = .drawn
            book.notes[r3].tulipToCheck = true
            return [r3]
        },
        Fault(name: "'Keep left' 8 m after a row that turns right", rule: "contradictions") { book in
            let rule = NearbyContradictions()
            let right = try #require(book.notes.indices.first { book.notes[$0].placement == .onRoute && rule.side(of: book.notes[$0]) == 1 })
            var note = Note(id: book.nextNoteID, kind: .typed, distanceAlong: book.notes[right].distanceAlong + 8,
                            coordinate: book.notes[right].coordinate, text: "Keep left")
            note.placement = .onRoute
            book.notes.insert(note, at: right + 1)
            return [right, right + 1]
        },
        Fault(name: "a regularity book whose first average is set at R2, not at its DSS", rule: "regularity") { book in
            book.settings.purpose = .regularity
            let r2 = try index("R2", in: book)
            book.notes[r2].targetSpeed = 50
            // One line for the rows before it: the first and the last named, and R2 where the clock starts.
            let before = book.notes.indices.filter { $0 < r2 && book.notes[$0].placement == .onRoute }
            return [try #require(before.first), try #require(before.last), r2]
        },
    ]

    @Test("the sample book as built has no problem; each planted fault is found, alone, naming its rows; exit 1")
    func plantedFaults() async throws {
        let folder = try TemporaryFolder()
        let sample = packageRoot().appendingPathComponent("samples/andorra-envalira.gpx")
        let built = await roadbook(["build", sample.path, "-o", folder.path("sample.pdf").path, "--book", folder.path("sample.json").path])
        #expect(built.status == 0, "\(built.errors)")
        #expect(!built.errors.contains("warning"), "build says what check would say, and the sample has nothing: \(built.errors)")
        let clean = await roadbook(["check", folder.path("sample.json").path])
        let book = try BookFile.read(contentsOf: folder.path("sample.json"))
        let rows = book.notes.filter { $0.placement == .onRoute }.count
        #expect(clean.status == 0 && clean.errors.isEmpty, "\(clean.errors)")
        #expect(clean.output == "\(folder.path("sample.json").path): no problems in \(rows) rows\n")

        for fault in Self.faults {
            var broken = book
            let expected = try fault.plant(&broken)
            let file = folder.path("broken.json")
            try BookFile.encode(broken).write(to: file)
            let r = await roadbook(["check", file.path])
            let lines = r.output.split(separator: "\n").map(String.init)
            #expect(r.status == 1, "\(fault.name): exit \(r.status)")
            #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("\(fault.rule): ") }, "\(fault.name): \(lines)")
            #expect(r.errors == "roadbook check: \(file.path): \(lines.count) problem\(lines.count == 1 ? "" : "s") found\n", "\(fault.name): \(r.errors)")
            // The rows named as `inspect` numbers them: "row N (#ID …".
            let named = Set(lines.flatMap { $0.matches(of: /row (\d+) \(#/).compactMap { Int($0.output.1) } })
            #expect(named == Set(expected.map { $0 + 1 }), "\(fault.name): rows \(named.sorted()), expected \(expected.map { $0 + 1 })")
            #expect(broken.problems().count == lines.count)

            // export says the same as warnings, and writes its file all the same.
            let export = await roadbook(["export", file.path, "-o", folder.path("broken.gpx").path])
            #expect(export.status == 0, "\(fault.name): \(export.errors)")
            #expect(lines.allSatisfy { export.errors.contains("warning: \($0)") }, "\(fault.name): \(export.errors)")
        }
    }

    @Test("a file that is no book exits 65 in one line naming it; a wrong command line 64")
    func unreadable() async throws {
        let folder = try TemporaryFolder()
        try Data("{\"notes\": [".utf8).write(to: folder.path("cut.json"))
        let cut = await roadbook(["check", folder.path("cut.json").path])
        #expect(cut.status == 65 && cut.output.isEmpty)
        #expect(cut.errors.hasPrefix("roadbook check: \(folder.path("cut.json").path): ") && cut.errors.split(separator: "\n").count == 1,
                "\(cut.errors)")
        let missing = await roadbook(["check", folder.path("none.json").path])
        #expect(missing.status == 65 && missing.errors.contains("none.json"))
        #expect(await roadbook(["check"]).status == 64)
        #expect(await roadbook(["check", "a.json", "b.json"]).status == 64)
    }

    @Test("export --format times: the table of a regularity book; a navigation book refused in one line, nothing written")
    func times() async throws {
        let folder = try TemporaryFolder()
        let sample = packageRoot().appendingPathComponent("samples/andorra-envalira.gpx")
        let book = folder.path("book.json").path, csv = folder.path("times.csv").path
        let built = await roadbook(["build", sample.path, "-o", folder.path("book.pdf").path, "--book", book, "--kind", "regularity"])
        #expect(built.status == 0)
        // No average yet: build says every row of the section has no time.
        #expect(built.errors.contains("warning: regularity: section 1 sets no average"), "\(built.errors)")
        let render = await roadbook(["render", book, "-o", folder.path("again.pdf").path])
        #expect(render.status == 0 && render.errors.contains("warning: regularity: section 1 sets no average"), "\(render.errors)")
        #expect(await roadbook(["note", book, "speed", "1", "40"]).status == 0)
        let r = await roadbook(["export", book, "-o", csv])
        #expect(r.status == 0 && r.output == "\(csv): times\n" && r.errors.isEmpty, "\(r.errors)")
        let lines = try String(contentsOfFile: csv, encoding: .utf8).components(separatedBy: "\r\n")
        #expect(lines[0] == "section,row,marker,type,total_km,from_start_km,average_kmh,ideal_time,words")
        // Row 1, the DSS, starts the clock at 40 km/h (0.09 s a metre): each row's time is its distance × 0.09 s.
        let saved = try BookFile.read(contentsOf: URL(fileURLWithPath: book))
        #expect(lines[1].hasPrefix("1,1,DSS,DSS,0.00,0.00,40,00:00:00,"))
        let last = try #require(saved.notes.last)
        let seconds = RegularitySchedule.roundedSeconds(last.distanceAlong * 0.09)
        #expect(lines[lines.count - 2].contains(",40,\(IdealTime.text(seconds)),"), "\(lines[lines.count - 2]) at \(last.distanceAlong) m")

        let navigation = folder.path("nav.json").path
        #expect(await roadbook(["build", sample.path, "-o", folder.path("nav.pdf").path, "--book", navigation]).status == 0)
        let refused = await roadbook(["export", navigation, "-o", folder.path("nav.csv").path])
        #expect(refused.status == 1 && refused.errors.split(separator: "\n").count == 1)
        #expect(refused.errors.hasPrefix("roadbook export: \(navigation) is a navigation book: only a regularity book has ideal times to write"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("nav.csv").path))
    }
}
