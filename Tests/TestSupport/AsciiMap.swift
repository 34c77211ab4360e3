import Foundation
import Geo
import OSM

/// A road network drawn as an ASCII map on a metre grid, as OSRM's cucumber features and
/// Valhalla's gurka tests draw theirs:
///
/// ```
/// let map = AsciiMap(gridSize: 10, """
///       c
///       |
///   a - b - e
///       |
///       d
///   """, ways: [("abe", ["highway": "primary", "name": "Main"]), ("cbd", ["highway": "track"])])
/// ```
///
/// Each letter is a node, `gridSize` metres from its neighbours in the drawing: columns run east
/// from the leftmost drawn character, rows run south from the top line (the top row is north). Every other character is decoration. `nodes` places extra
/// nodes at exact positions in metres (x east of the leftmost column, y north of the top row), for geometry
/// finer than the grid. A way lists its nodes' letters in order with its OSM tags; `highway`,
/// `surface`, `tracktype`, `oneway` (`yes`, `-1`), `junction=roundabout`, `name` and `ref` are read.
public struct AsciiMap: Sendable {
    /// A node of the map.
    public struct Node: Sendable {
        /// Index in `graph`.
        public var index: Int
        public var coordinate: Coordinate
        /// Metres east of the leftmost drawn column.
        public var x: Double
        /// Metres north of the top row (negative below it).
        public var y: Double
    }

    /// A path through the map: its nodes and their line.
    public struct Route: Sendable {
        public var nodes: [Int]
        public var line: [Coordinate]
    }

    public let grid: MetreGrid
    public let graph: RoadGraph
    public let nodes: [Character: Node]

    /// - Parameters:
    ///   - gridSize: metres between neighbouring characters, across and down.
    ///   - drawing: the map; leading and trailing blank lines are ignored.
    ///   - nodes: extra nodes at exact positions (x east, y north, metres), for finer geometry.
    ///   - ways: each way's node letters in order and its tags.
    ///   - restrictions: turn restrictions as `type=restriction` relations: the from way and the to
    ///     way by their number in `ways` (1 for the first, which is also their OSM id), the via
    ///     node's letter, and the relation's tags (`restriction=no_left_turn`, `except=…`); read
    ///     by `OSMRestriction.parse` into `graph.turnRestrictions`.
    public init(gridSize: Double, _ drawing: String, nodes extra: [Character: (x: Double, y: Double)] = [:],
                ways: [(String, [String: String])], grid: MetreGrid = MetreGrid(),
                restrictions: [(from: Int, via: Character, to: Int, tags: [String: String])] = []) {
        self.grid = grid
        var positions: [(Character, Double, Double)] = []
        let lines = drawing.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { $0.allSatisfy(\.isWhitespace) }
        // Column 0 is the leftmost drawn character, however far the drawing is indented.
        let indent = lines.filter { !$0.allSatisfy(\.isWhitespace) }
            .map { $0.prefix { $0 == " " }.count }.min() ?? 0
        for (row, line) in lines.enumerated() {
            for (column, character) in line.dropFirst(indent).enumerated() where character.isLetter {
                positions.append((character, Double(column) * gridSize, -Double(row) * gridSize))
            }
        }
        for (character, p) in extra.sorted(by: { $0.key < $1.key }) { positions.append((character, p.x, p.y)) }
        var table: [Character: Node] = [:]
        for (i, (character, x, y)) in positions.enumerated() {
            precondition(table[character] == nil, "node \(character) drawn twice")
            table[character] = Node(index: i, coordinate: grid(x, y), x: x, y: y)
        }
        var infos: [WayInfo] = []
        var wayNodes: [[Int]] = []
        for (i, (letters, tags)) in ways.enumerated() {
            wayNodes.append(letters.map { letter in
                guard let node = table[letter] else { preconditionFailure("way \(letters) names node \(letter), not on the map") }
                return node.index
            })
            let roundabout = tags["junction"] == "roundabout" || tags["junction"] == "circular"
            let oneway: Oneway = switch tags["oneway"] {
            case "yes", "1", "true": .forward
            case "-1": .backward
            case "no": .no
            default: roundabout ? .forward : .no
            }
            infos.append(WayInfo(id: Int64(i + 1), highway: tags["highway"] ?? "road", surface: tags["surface"],
                                 tracktype: tags["tracktype"], oneway: oneway, isRoundabout: roundabout,
                                 name: tags["name"], ref: tags["ref"]))
        }
        nodes = table
        var graph = RoadGraph(coordinates: positions.map { grid($0.1, $0.2) }, osmIDs: positions.indices.map { Int64($0 + 1) },
                              ways: infos, wayNodes: wayNodes)
        var entries: [TurnRestrictions.Entry] = []
        for (i, r) in restrictions.enumerated() {
            guard let via = table[r.via] else { preconditionFailure("restriction via \(r.via), not on the map") }
            let members: [(type: OSMRestriction.MemberType, ref: Int64, role: String)] =
                [(.way, Int64(r.from), "from"), (.node, Int64(via.index + 1), "via"), (.way, Int64(r.to), "to")]
            for parsed in OSMRestriction.parse(id: Int64(i + 1), tags: ["type": "restriction"].merging(r.tags) { $1 }, members: members) {
                entries.append(TurnRestrictions.Entry(via: via.index, only: parsed.kind == .only, vehicles: parsed.vehicles,
                                                      fromWayID: parsed.fromWay, toWayID: parsed.toWay))
            }
        }
        graph.turnRestrictions = TurnRestrictions(entries)
        self.graph = graph
    }

    /// The node drawn as `name`.
    public subscript(_ name: Character) -> Node {
        guard let node = nodes[name] else { preconditionFailure("no node \(name) on the map") }
        return node
    }

    /// The path through the named nodes, each a neighbour of the one before in the graph (list every
    /// node, as the route passes them; a path that skips one is a mistake in the test).
    public func route(_ names: Character...) -> Route { route(names) }

    /// The route through the named nodes, in order.
    public func route(_ names: [Character]) -> Route {
        let path = names.map { self[$0].index }
        for (a, b) in zip(path, path.dropFirst()) {
            precondition(graph.edges(from: a).contains { $0.target == b },
                         "\(names) steps between nodes that no way joins")
        }
        return Route(nodes: path, line: path.map { graph.coordinates[$0] })
    }

    /// The coordinate `x` metres east of the leftmost column and `y` metres north of the top row.
    public func point(_ x: Double, _ y: Double) -> Coordinate { grid(x, y) }

    /// The compass bearing in degrees, [0, 360), from node `a` to the point (x, y) on the grid,
    /// computed on the plane: the exact answer a test expects from the drawing.
    public func gridBearing(from a: Character, toX x: Double, y: Double) -> Double {
        let node = self[a]
        let degrees = atan2(x - node.x, y - node.y) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }
}
