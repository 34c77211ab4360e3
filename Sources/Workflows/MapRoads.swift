import Foundation
import Geo
import Model
import OSM

/// One road of a map drawn under a route: a run of one way's nodes, with how it is styled.
public struct MapRoad: Sendable, Equatable {
    /// The way's class, as a tulip draws it (`Spoke.roadClass`: its highway, surface and track type).
    public var roadClass: Tulip.RoadClass
    /// The way's nodes, in order; at least two.
    public var line: [Coordinate]

    public init(roadClass: Tulip.RoadClass, line: [Coordinate]) {
        self.roadClass = roadClass
        self.line = line
    }
}

/// A box of latitudes and longitudes, in degrees: south ≤ north, west ≤ east (a box across the
/// antimeridian is not one).
public struct MapBox: Sendable, Equatable {
    public var south: Double, west: Double, north: Double, east: Double

    public init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    public func contains(_ c: Coordinate) -> Bool {
        (south...north).contains(c.latitude) && (west...east).contains(c.longitude)
    }

    /// Whether `other` lies wholly inside.
    public func contains(_ other: MapBox) -> Bool {
        other.south >= south && other.north <= north && other.west >= west && other.east <= east
    }

    /// The box grown by `fraction` of its height and width on every side, kept on the globe.
    public func grown(by fraction: Double) -> MapBox {
        let dy = (north - south) * fraction, dx = (east - west) * fraction
        return MapBox(south: max(south - dy, -90), west: max(west - dx, -180), north: min(north + dy, 90), east: min(east + dx, 180))
    }
}

/// The roads of an OpenStreetMap extract inside a box, for a map drawn under a route: read
/// from the prepared graph when there is one (`MapExtract`), else from the extract. The region
/// last read (the box asked for, grown by half on each side) is kept, so a map moved a little,
/// or asked again, is answered without reading the file; the prepared graph is checked against
/// the extract once.
public final class MapRoads: @unchecked Sendable {
    /// The extract's roads come from.
    public let extract: MapExtract
    /// Boxes taller or wider than this (degrees) are refused: a country's roads are not a map's.
    public static let largestBox = 2.0

    private let lock = NSLock()
    private var checked = false
    private var prepared: PreparedGraph?
    private var region: (box: MapBox, graph: RoadGraph)?

    public init(extract: URL) { self.extract = MapExtract(extract) }

    /// The roads in `box`, at most `limit` segments (one segment joins two nodes), the larger roads
    /// first (motorways, then tarmac, gravel, tracks, paths) when there are more. A way that leaves
    /// the box is cut where it does, keeping its first node outside it so the line reaches the edge.
    /// - Throws: `WorkflowError` for a box larger than `largestBox`; `OSMError` naming the file.
    public func roads(in box: MapBox, limit: Int, log: (any WorkflowLog)? = nil) throws -> [MapRoad] {
        guard box.north - box.south <= Self.largestBox, box.east - box.west <= Self.largestBox else {
            throw WorkflowError("the box is \(String(format: "%.2f", box.north - box.south))° by \(String(format: "%.2f", box.east - box.west))°; roads are given for boxes up to \(Self.largestBox)° a side")
        }
        let graph = try lock.withLock { try graphLocked(covering: box, log: log) }
        return Self.roads(of: graph, in: box, limit: limit)
    }

    private func graphLocked(covering box: MapBox, log: (any WorkflowLog)?) throws -> RoadGraph {
        if let region, region.box.contains(box) { return region.graph }
        if !checked {
            prepared = try extract.refreshPrepared(log: log)
            checked = true
        }
        let wide = box.grown(by: 0.5)
        // A corridor along the box's middle line, as wide as the box is tall, holds the whole box.
        let middle = (wide.south + wide.north) / 2
        let line = [Coordinate(latitude: middle, longitude: wide.west), Coordinate(latitude: middle, longitude: wide.east)]
        var configuration = RouteCorridor.Configuration()
        configuration.width = Coordinate(latitude: wide.south, longitude: wide.west)
            .distance(to: Coordinate(latitude: middle, longitude: wide.west)) + 100
        let graph = try extract.graph(in: RouteCorridor(route: line, configuration: configuration), prepared: &prepared, log: log)
        region = (wide, graph)
        return graph
    }

    /// The runs of each way's segments with a node inside `box`, the larger classes first, cut
    /// at `limit` segments.
    static func roads(of graph: RoadGraph, in box: MapBox, limit: Int) -> [MapRoad] {
        struct Segment: Hashable { var from: Int, to: Int, way: Int }
        struct Arrival: Hashable { var node: Int, way: Int }
        func inside(_ s: Segment) -> Bool { box.contains(graph.coordinates[s.from]) || box.contains(graph.coordinates[s.to]) }
        // Each way's segments inside the box, in the way's direction.
        var outgoing: [Int: [Segment]] = [:]
        var incoming = Set<Arrival>()
        var all: [Segment] = []
        for node in 0..<graph.count {
            for edge in graph.edges(from: node) where edge.forward {
                let segment = Segment(from: node, to: edge.target, way: edge.way)
                guard inside(segment) else { continue }
                outgoing[node, default: []].append(segment)
                incoming.insert(Arrival(node: edge.target, way: edge.way))
                all.append(segment)
            }
        }
        // A run starts where no segment of its way arrives; what is left over are rings.
        var used = Set<Segment>()
        var runs: [(roadClass: Tulip.RoadClass, line: [Coordinate], segments: Int)] = []
        func follow(_ first: Segment) {
            var line = [graph.coordinates[first.from]]
            var segment: Segment? = first
            var count = 0
            while let current = segment, used.insert(current).inserted {
                line.append(graph.coordinates[current.to])
                count += 1
                segment = outgoing[current.to]?.first { $0.way == current.way && !used.contains($0) }
            }
            let way = graph.ways[first.way]
            let spoke = Spoke(bearing: 0, role: .side, highway: way.highway, surface: way.surface ?? way.tracktype)
            runs.append((spoke.roadClass, line, count))
        }
        for segment in all where !incoming.contains(Arrival(node: segment.from, way: segment.way)) && !used.contains(segment) {
            follow(segment)
        }
        for segment in all where !used.contains(segment) { follow(segment) }
        let order = Tulip.RoadClass.allCases
        var roads: [MapRoad] = []
        var total = 0
        for run in runs.sorted(by: { (order.firstIndex(of: $0.roadClass) ?? 0) < (order.firstIndex(of: $1.roadClass) ?? 0) }) {
            guard total + run.segments <= limit else { break }
            total += run.segments
            roads.append(MapRoad(roadClass: run.roadClass, line: run.line))
        }
        return roads
    }
}
