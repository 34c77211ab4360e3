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
    func sampleDistances() throws {
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
        let r = roadbook(["build", sample.path, "-o", pdf.path, "--book", folder.path("sample.json").path])
        #expect(r.status == 0, "\(r.errors)")
        // The book's own distances agree with GeodSolve's to well under a metre.
        let book = try BookFile.read(contentsOf: folder.path("sample.json"))
        for note in expected {
            let mine = try #require(book.notes.first { ($0.marker ?? $0.text) == note.name })
            #expect(abs(mine.distanceAlong - note.metres) < 1, "\(note.name): \(mine.distanceAlong) m vs GeodSolve \(note.metres) m")
        }
        // The rows, from page 2 on (page 1 is the cover): a row starts with its number at the left
        // edge; its first reading like "12.34" is the total distance, its last word on the line of the
        // number (after the waypoint type) the marker.
        let text = try runTool("pdftotext", ["-layout", "-f", "2", pdf.path, "-"])
        var printed: [String: Double] = [:]
        var current: (marker: String, total: Double?)? = nil
        func flush() { if let c = current, let total = c.total { printed[c.marker] = total } }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let words = line.split(separator: " ")
            if let first = words.first, Int(first) != nil, line.first?.isNumber == true, words.count >= 2 {
                flush()
                current = (String(words[words.count - 1]), nil)   // the type tag, if any, comes first
                continue
            }
            if current?.total == nil, let reading = words.first(where: { $0.wholeMatch(of: /\d+\.\d\d/) != nil }) {
                current?.total = Double(reading)
            }
        }
        flush()
        for note in expected {
            guard let km = printed[note.name] else {
                Issue.record("\(note.name) is not printed as a row; rows found: \(printed.keys.sorted())")
                continue
            }
            #expect(abs(km * 1000 - note.metres) <= 10,
                    "\(note.name) printed at \(km) km, GeodSolve puts it at \(note.metres) m")
        }
        #expect(printed.count == expected.count)
    }
}
