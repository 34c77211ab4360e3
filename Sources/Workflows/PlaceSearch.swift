import Foundation
import Geo
import Model
import OSM

/// A place looked up by its name in an OpenStreetMap extract, offline, as a person types it for a
/// handle ("Canillo"): first the extract's named places (`place=*` nodes, passes and peaks: the
/// places `PlaceNames` names handles after), then, when no place has the name, its named roads
/// (`name=*` ways). Names are compared without case or accents, spaces collapsed ("sant julia de
/// loria" finds "Sant Julià de Lòria"); a placeholder name ("FIXME": `MapNames`) is never found.
public struct PlaceSearch: Sendable {
    /// The search's thresholds, each with its reason.
    public struct Configuration: Sendable, Equatable {
        /// Ways of one name within this of each other are one street (the map cuts a street into
        /// many ways, at every junction and change of tag); farther apart, they are streets of the
        /// same name in two villages. Places of one name this close are one place mapped twice (a
        /// village and its `locality`).
        public var samePlaceDistance: Metres = 1000
        /// Names containing the text offered when nothing has the very name: enough to spot a
        /// misspelling, few enough for one line.
        public var suggestions = 5

        public init() {}
    }

    /// One place or road found.
    public struct Candidate: Sendable, Equatable {
        public var name: String
        /// The place's node; for a road, the point of the road nearest the middle of its ways.
        public var coordinate: Coordinate
        /// "village", "pass"…, or "road".
        public var kind: String
    }

    /// What a search found.
    public enum Answer: Sendable, Equatable {
        case found(Candidate)
        /// Two or more places, or roads in places far apart, have the name.
        case ambiguous([Candidate])
        /// Nothing has the name; `similar` are names containing the text.
        case notFound(similar: [String])
    }

    let graph: RoadGraph
    let configuration: Configuration

    public init(graph: RoadGraph, configuration: Configuration = Configuration()) {
        self.graph = graph
        self.configuration = configuration
    }

    /// The name folded for comparison: no case, no accents, spaces collapsed.
    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The places, else the roads, named `text`. O(places + road edges).
    public func find(_ text: String) -> Answer {
        let wanted = Self.folded(text)
        guard !wanted.isEmpty else { return .notFound(similar: []) }
        let places = graph.places.filter { MapNames.usable($0.name) != nil && Self.folded($0.name) == wanted }
        if !places.isEmpty {
            var kept: [OSMPlace] = []
            for place in places.sorted(by: { Self.rank($0.kind) < Self.rank($1.kind) })
            where !kept.contains(where: { $0.coordinate.distance(to: place.coordinate) <= configuration.samePlaceDistance }) {
                kept.append(place)
            }
            let candidates = kept.map { Candidate(name: $0.name, coordinate: $0.coordinate, kind: $0.kind.rawValue.replacingOccurrences(of: "_", with: " ")) }
            return candidates.count == 1 ? .found(candidates[0]) : .ambiguous(candidates)
        }
        let roads = roadCandidates(named: wanted)
        if !roads.isEmpty { return roads.count == 1 ? .found(roads[0]) : .ambiguous(roads) }
        return .notFound(similar: similar(to: wanted))
    }

    /// Larger places first, so a village and a locality of one name are found as the village.
    private static func rank(_ kind: OSMPlace.Kind) -> Int { OSMPlace.Kind.allCases.firstIndex(of: kind) ?? 0 }

    /// The roads named `wanted`: the nodes of the ways of that name, grouped into streets.
    private func roadCandidates(named wanted: String) -> [Candidate] {
        var matches: [Int: Bool] = [:]
        func matching(_ way: Int) -> Bool {
            if let known = matches[way] { return known }
            let name = MapNames.usable(graph.ways[way].name).map(Self.folded)
            matches[way] = name == wanted
            return name == wanted
        }
        var nodes: [Int] = []
        var name: String?
        for node in 0..<graph.count {
            if let edge = graph.edges(from: node).first(where: { matching($0.way) }) {
                nodes.append(node)
                name = name ?? graph.ways[edge.way].name
            }
        }
        guard let name else { return [] }
        // Single linkage: a node joins the street of any node within the distance.
        var streets: [[Int]] = []
        for node in nodes {
            let near = streets.indices.filter { s in
                streets[s].contains { graph.coordinates[$0].distance(to: graph.coordinates[node]) <= configuration.samePlaceDistance }
            }
            var merged = near.flatMap { streets[$0] } + [node]
            for s in near.reversed() { streets.remove(at: s) }
            merged.sort()
            streets.append(merged)
        }
        return streets.map { street in
            let points = street.map { graph.coordinates[$0] }
            let middle = Coordinate(latitude: points.map(\.latitude).reduce(0, +) / Double(points.count),
                                    longitude: points.map(\.longitude).reduce(0, +) / Double(points.count))
            let nearest = points.min { $0.distance(to: middle) < $1.distance(to: middle) } ?? middle
            return Candidate(name: MapNames.usable(name) ?? name, coordinate: nearest, kind: "road")
        }.sorted { ($0.coordinate.latitude, $0.coordinate.longitude) > ($1.coordinate.latitude, $1.coordinate.longitude) }
    }

    /// Up to `suggestions` names of places and roads containing `wanted`, in order of name.
    private func similar(to wanted: String) -> [String] {
        var names = Set<String>()
        for place in graph.places { if let name = MapNames.usable(place.name) { names.insert(name) } }
        for way in graph.ways { if let name = MapNames.usable(way.name) { names.insert(name) } }
        return Array(names.filter { Self.folded($0).contains(wanted) }.sorted().prefix(configuration.suggestions))
    }

    /// The place `name` names in the extract at `extract`, as a handle goes to it.
    /// - Throws: `WorkflowError` when no place or road has the name (with names that contain it),
    ///   or several do (each with its coordinates), or the extract cannot be read.
    public static func place(named name: String, extract: URL, configuration: Configuration = Configuration(),
                             log: (any WorkflowLog)? = nil) throws -> Candidate {
        let search = PlaceSearch(graph: try MapExtract(extract).graph(log: log), configuration: configuration)
        switch search.find(name) {
        case .found(let candidate):
            return candidate
        case .ambiguous(let candidates):
            let listed = candidates.map { "\($0.name) (\($0.kind)) \(TypedInput.text(of: $0.coordinate))" }.joined(separator: "; ")
            throw WorkflowError("'\(name)' names \(candidates.count) places in \(extract.lastPathComponent): \(listed); give the coordinates of the one you mean")
        case .notFound(let similar):
            let hint = similar.isEmpty ? "" : "; names containing it: " + similar.joined(separator: ", ")
            throw WorkflowError("no place or road named '\(name)' in \(extract.lastPathComponent)\(hint)")
        }
    }
}
