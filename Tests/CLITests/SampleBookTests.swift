import Foundation
import Formats
import Model
import Geo
import Testing
import TestSupport

/// The sample road book, end to end: every note must be printed with its total distance right to
/// 10 m, measured independently with GeographicLib's GeodSolve along the sample track.
@Suite("The sample road book")
struct SampleBookTests {
    @Test("pdftotext of the sample book lists every note with its total distance, right to 10 m")
    func sampleDistances() async throws {
        let sample = packageRoot().appendingPathComponent("samples/andorra-envalira.gpx")
        let document = try GPXReader.read(contentsOf: sample)
        let track = document.trackPoints.map(\.coordinate)

        // Segment lengths from GeodSolve, not from our own geodesics.
        let input = zip(track, track.dropFirst()).map {
            "\($0.latitude) \($0.longitude) \($1.latitude) \($1.longitude)"
        }.joined(separator: "\n") + "\n"
        let lengths = try runTool("GeodSolve", ["-i", "-p", "6"], input: input)
            .split(separator: "\n").map { Double($0.split(separator: " ")[2])! }
        #expect(lengths.count == track.count - 1)
        var cumulative = [0.0]
        for l in lengths { cumulative.append(cumulative.last! + l) }

        // Each waypoint at the foot of its perpendicular on the nearest segment (the sample is driven once).
        var expected: [(name: String, text: String, metres: Double)] = []
        for waypoint in document.waypoints {
            let frame = LocalFrame(origin: waypoint.coordinate)
            var best = (distance: Double.infinity, along: 0.0)
            for i in 0..<(track.count - 1) {
                let a = frame.project(track[i]), b = frame.project(track[i + 1])
                let dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy
                let t = l2 > 0 ? min(max(-(a.x * dx + a.y * dy) / l2, 0), 1) : 0
                let x = a.x + t * dx, y = a.y + t * dy
                let d = (x * x + y * y).squareRoot()
                if d < best.distance { best = (d, cumulative[i] + t * lengths[i]) }
            }
            expected.append((waypoint.name ?? "", waypoint.description ?? "", best.along))
        }
        expected.sort { $0.metres < $1.metres }
        #expect(expected.count == 14)

        let folder = try TemporaryFolder()
        let pdf = folder.path("sample.pdf")
        let r = await roadbook(["build", sample.path, "-o", pdf.path, "--book", folder.path("sample.json").path])
        #expect(r.status == 0, "\(r.errors)")
        // The book's own distances agree with GeodSolve's to well under a metre.
        let book = try BookFile.read(contentsOf: folder.path("sample.json"))
        for note in expected {
            let mine = try #require(book.notes.first { ($0.marker ?? $0.text) == note.name })
            #expect(abs(mine.distanceAlong - note.metres) < 1, "\(note.name): \(mine.distanceAlong) m vs GeodSolve \(note.metres) m")
        }
        // The rows, from page 2 on (page 1 is the cover): a row starts with its number at the left
        // edge, and its first reading like "12.34" is its total distance. Printed rows are matched
        // to the book's rows in order; a waypoint's row shows its marker on the number's line, or,
        // where only the type's pictogram says it (a DSS marked "DSS"), on the pictogram's line below.
        let text = try runTool("pdftotext", ["-layout", "-f", "2", pdf.path, "-"])
        var printed: [(firstLine: String, total: Double?)] = []
        var lineAfterNumber = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let words = line.split(separator: " ")
            if let first = words.first, Int(first) == printed.count + 1, line.first?.isNumber == true {
                printed.append((String(line), nil))
                lineAfterNumber = true
                continue
            }
            if lineAfterNumber, !printed.isEmpty {
                printed[printed.count - 1].firstLine += "\n" + line
                lineAfterNumber = false
            }
            if !printed.isEmpty, printed[printed.count - 1].total == nil,
               let reading = words.first(where: { $0.wholeMatch(of: /\d+\.\d\d/) != nil }) {
                printed[printed.count - 1].total = Double(reading)
            }
        }
        let rows = book.notes.filter { $0.placement == .onRoute }
        #expect(printed.count == rows.count, "every row of the book is printed")
        var checked = 0
        for (row, note) in zip(printed, rows) {
            guard let marker = note.marker, let want = expected.first(where: { $0.name == marker }) else { continue }
            #expect(row.firstLine.contains(marker), "row of \(marker) reads: \(row.firstLine)")
            guard let km = row.total else { Issue.record("\(marker): no distance printed"); continue }
            #expect(abs(km * 1000 - want.metres) <= 10, "\(marker) printed at \(km) km, GeodSolve puts it at \(want.metres) m")
            checked += 1
        }
        #expect(checked == expected.count, "every waypoint is printed with its distance")
    }
}
