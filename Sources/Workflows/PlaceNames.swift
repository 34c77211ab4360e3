import Foundation
import Geo
import Model
import OSM
import Pipeline

/// Names for handles, offline, from an OpenStreetMap extract: the nearest named road within a few
/// hundred metres, as a directions app names a stop tapped onto the map after the street it is
/// on. (Places, `place=*` nodes, are not read from the extract: only its roads are.)
public struct PlaceNames: Sendable {
    public struct Configuration: Sendable {
        /// A road farther than this from the handle is not where the handle is: 300 m covers a
        /// handle tapped in a square or a car park beside its street, not the next valley.
        public var radius: Metres = 300

        public init() {}
    }

    let index: SegmentIndex
    let configuration: Configuration

    /// - Complexity: O(segments) to index the graph's roads.
    public init(graph: RoadGraph, configuration: Configuration = Configuration()) {
        index = SegmentIndex(graph: graph)
        self.configuration = configuration
    }

    /// The name of the nearest road with a name (`name=*`, else `ref=*`) within the radius, or nil.
    public func name(at point: Coordinate) -> String? {
        let ways = index.graph.ways
        func label(_ way: Int) -> String? {
            [ways[way].name, ways[way].ref].compactMap { $0?.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
        }
        guard let snap = index.nearest(to: point, within: configuration.radius, accepting: { label($0) != nil }) else { return nil }
        return label(snap.way)
    }

    /// The editor with every handle that has no name named after where it was placed (`placed`,
    /// before any move onto the road); handles with a name keep it, and the editor keeps its
    /// history (`RouteEditor.nameHandles`).
    public func naming(_ editor: RouteEditor) -> RouteEditor {
        var named = editor
        named.nameHandles { name(at: $0) }
        return named
    }
}
