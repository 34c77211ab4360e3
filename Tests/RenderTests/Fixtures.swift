import Foundation
import Geo
import Layout
import Model
import TestSupport

/// A measurer with fixed metrics, so layout tests do not depend on fonts: every character is
/// 0.55 em wide, a line is 1.2 em high, and text wraps at whole characters.
struct FakeMeasurer: TextMeasurer {
    func measure(_ text: String, font: FontSpec, width: Double) -> TextSize {
        let characterWidth = 0.55 * font.size
        let count = max(1, text.count)
        let perLine = max(1, Int((width / characterWidth).rounded(.down)))
        let lines = (count + perLine - 1) / perLine
        return TextSize(width: Double(min(count, perLine)) * characterWidth, height: Double(lines) * 1.2 * font.size)
    }
}

enum Fixtures {
    /// The built-in templates, read from the checkout's `Templates/`.
    static func template(_ name: String) -> PageTemplate {
        let url = packageRoot().appendingPathComponent("Templates/\(name).json")
        do { return try TemplateFile.decode(try Data(contentsOf: url), fileName: url.path) } catch {
            fatalError("cannot read the built-in template \(url.path): \(error)")
        }
    }

    static let a5 = template("a5")
    static let origin = Coordinate(latitude: 42.5, longitude: 1.5)

    static func note(_ id: Int, at metres: Metres, _ text: String, marker: String? = nil,
                     type: WaypointType? = nil, cap: Degrees? = nil, danger: Int = 0,
                     resets: Bool = false) -> Note {
        Note(id: id, kind: .typed, distanceAlong: metres, coordinate: origin, text: text, marker: marker,
             waypointType: type, cap: cap, danger: danger, resetsOdometer: resets)
    }

    static func book(_ notes: [Note], units: BookSettings.Units = .kilometres) -> Book {
        Book(title: "Andorra Rally", rally: "Pyrenees Trophy", stage: "Stage 2", date: "2026-03-14",
             settings: BookSettings(units: units), route: Route(points: [RoutePoint(coordinate: origin)]),
             notes: notes)
    }

    /// `count` rows 1,234.5 m apart with varied instructions, types, CAPs and dangers.
    static func longBook(rows count: Int) -> Book {
        let instructions = ["Turn right onto the gravel track", "Keep left at the fork", "Cross the river ford",
                            "Straight on past the chapel", "Sharp left down the hairpin"]
        let notes = (0..<count).map { i in
            note(i + 1, at: Double(i) * 1234.5, "\(instructions[i % instructions.count]) \(i + 1)",
                 marker: i % 4 == 0 ? "CP\(i / 4 + 1)" : nil,
                 type: i % 4 == 0 ? .wpm : nil,
                 cap: Double(i * 37 % 360), danger: i % 4)
        }
        return book(notes)
    }
}
