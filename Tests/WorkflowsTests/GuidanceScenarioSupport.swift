import Foundation
import Geo
import Guidance
import Model
import OSM
import Testing
import TestSupport
import Workflows

// Junction scenarios ported from OSRM's guidance features (features/guidance/*.feature in
// https://github.com/Project-OSRM/osrm-backend, BSD-2-Clause), run through the chain the product
// uses: `RouteTurns.maneuvers(along:graph:mode:)` matches the route onto the car's junction graph
// and runs the turn passes. Each case names its feature file and scenario; the drawing, the grid
// size and the tags are the feature's, with OSRM's test defaults (a way without `highway` is
// `primary`, a way without a `name` column is named after its nodes). Where a scenario is changed
// (a road made a footway or private) the name says so in parentheses.
//
// The expected rows are OSRM's expectation in our words. Where a rally road book needs something
// else than a navigation voice (OSRM says nothing when the route follows the more important road
// through a bend; a rider who sees a road straight on needs the row), the case says so and why.
// A row is checked by its words (the phrase, then nothing or " onto …"), the node it stands at
// (within `ScenarioCheck.placeTolerance`) and, at a roundabout, its exit number. Rows a
// case tolerates ("Straight on" past a road that could be mistaken for the way on) may appear or
// not; any other row fails the case.

/// An OSRM scenario's road network: the drawing, and the graph built from its ways' tags as the
/// OpenStreetMap reader builds it (`WayInfo(id:highway:tags:)`: access tags, implied oneways).
struct ScenarioMap: Sendable {
    let ascii: AsciiMap
    let graph: RoadGraph
    /// What the map was drawn from, so it can be drawn again mirrored.
    let grid: Double, drawing: String, ways: [(String, [String: String])]

    /// - Parameters:
    ///   - grid: the feature's grid size in metres.
    ///   - drawing: the feature's node map.
    ///   - ways: each way's nodes and its tags; OSRM's test defaults fill `highway` (`primary`) and
    ///     `name` (the nodes); an empty `name` means none.
    init(grid: Double, _ drawing: String, _ ways: [(String, [String: String])]) {
        let tagged: [(String, [String: String])] = ways.map { nodes, tags in
            var tags = tags
            if tags["highway"] == nil { tags["highway"] = "primary" }
            if tags["name"] == nil { tags["name"] = nodes } else if tags["name"] == "" { tags["name"] = nil }
            if tags["ref"] == "" { tags["ref"] = nil }
            if tags["oneway"] == "" { tags["oneway"] = nil }
            return (nodes, tags)
        }
        (self.grid, self.drawing, self.ways) = (grid, drawing, ways)
        let ascii = AsciiMap(gridSize: grid, drawing, ways: tagged)
        self.ascii = ascii
        graph = RoadGraph(coordinates: ascii.graph.coordinates, osmIDs: ascii.graph.osmIDs,
                          ways: tagged.enumerated().map { i, way in
                              WayInfo(id: Int64(i + 1), highway: way.1["highway"]!, tags: way.1)
                          },
                          wayNodes: tagged.map { $0.0.map { ascii[$0].index } })
    }

    /// The same map seen in a mirror, east for west: every way keeps its nodes and tags, so a ring
    /// drawn anticlockwise (traffic keeping right) runs clockwise (traffic keeping left), as the
    /// same junction is built where traffic keeps left.
    var mirrored: ScenarioMap {
        let lines = drawing.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let width = lines.map(\.count).max() ?? 0
        let flipped = lines.map { line in
            String((line + String(repeating: " ", count: width - line.count)).reversed().map { c -> Character in
                switch c { case "/": "\\"; case "\\": "/"; default: c }
            })
        }
        return ScenarioMap(grid: grid, flipped.joined(separator: "\n"), ways)
    }
}

/// A row as a case expects it: at one of the nodes `at`, saying one of `words` (a phrase, matched
/// whole, optionally followed by " onto …"), and at a roundabout its exit number.
struct ScenarioRow: Sendable, CustomStringConvertible {
    var at: String
    var words: [String]
    var exit: Int?

    init(_ at: String, _ words: String..., exit: Int? = nil) {
        self.at = at
        self.words = words
        self.exit = exit
    }

    var description: String { words.joined(separator: " | ") + " at " + at }

    /// Whether `text` says one of the phrases.
    func says(_ text: String) -> Bool {
        words.contains { text == $0 || text.hasPrefix($0 + " onto ") }
    }
}

struct GuidanceScenario: Sendable, CustomStringConvertible {
    var name: String
    var map: ScenarioMap
    /// The nodes the route passes, in order.
    var route: String
    var rows: [ScenarioRow]
    /// Rows that may appear or not.
    var tolerated: [ScenarioRow] = []

    var description: String { "\(name): \(route.first!)→\(route.last!)" }
}

/// "Straight on" (or at crossroads) at a node: a reminder past a road that could be mistaken for
/// the way on, which a rider may get and OSRM never says.
func straightOn(_ at: String) -> ScenarioRow { ScenarioRow(at, "Straight on", "Straight on at crossroads") }

/// A slip road or ramp off a through road: the rider bears onto it (OSRM: "off ramp slight right",
/// "on ramp slight right", "turn slight right"). "Keep right" would say the same; a fork would not,
/// since the roads are not equal.
func slip(_ at: String, right: Bool) -> ScenarioRow {
    right ? ScenarioRow(at, "Bear right", "Keep right") : ScenarioRow(at, "Bear left", "Keep left")
}

/// The scenarios' maps, each in the file of its kind of junction (`RoundaboutScenarioTests.swift`,
/// `ForkScenarioTests.swift`, `SlipRoadScenarioTests.swift`…), next to its cases.
enum Scenarios {}

/// How every scenario is checked, whatever its kind of junction.
enum ScenarioCheck {
    /// How far (metres) a row may stand from its node.
    static let placeTolerance: Metres = 6

    /// A row as found: its words and the nearest node of the map.
    static func describe(_ m: Maneuver, on map: ScenarioMap) -> String {
        let nearest = map.ascii.nodes.min { a, b in
            a.value.coordinate.distance(to: m.coordinate) < b.value.coordinate.distance(to: m.coordinate)
        }
        let text = Instructions.english.text(for: m)
        guard let nearest else { return text }
        let d = nearest.value.coordinate.distance(to: m.coordinate)
        return d <= placeTolerance ? "\(text) at \(nearest.key)" : "\(text) \(Int(d.rounded())) m from \(nearest.key)"
    }

    /// Whether maneuver `m` is `row`: its words, its place and its exit number.
    static func matches(_ m: Maneuver, _ row: ScenarioRow, on map: ScenarioMap) -> Bool {
        guard row.says(Instructions.english.text(for: m)) else { return false }
        guard row.at.contains(where: { map.ascii[$0].coordinate.distance(to: m.coordinate) <= placeTolerance }) else {
            return false
        }
        if let exit = row.exit, m.exitNumber != exit { return false }
        return true
    }

    /// The rows of scenario `c`, through `RouteTurns` with a car, are its rows (any tolerated row
    /// aside), in order.
    static func check(_ c: GuidanceScenario) {
        let route = c.map.ascii.route(Array(c.route))
        let found = RouteTurns.maneuvers(along: route.line, graph: c.map.graph, mode: .drive).maneuvers
        let kept = found.filter { m in !c.tolerated.contains { matches(m, $0, on: c.map) } }
        let got = found.map { describe($0, on: c.map) }
        let ok = kept.count == c.rows.count && zip(kept, c.rows).allSatisfy { matches($0, $1, on: c.map) }
        let expected = c.rows.isEmpty ? "no row" : c.rows.map(\.description).joined(separator: "; ")
        #expect(ok, "SCENARIO \(c.description) | got: \(got.isEmpty ? "no row" : got.joined(separator: "; ")) | expected: \(expected)")
    }
}
