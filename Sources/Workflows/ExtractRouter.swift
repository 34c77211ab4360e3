import Foundation
import Geo
import Model
import OSM
import Routing

/// The embedded router over an extract, reading only the region the handles need: the roads
/// within a margin of the line through the handles (`RouteCorridor`), from the extract's prepared
/// graph when it has one (`MapExtract`), else from the extract itself.
///
/// A leg is searched in that region. When it finds no road, or its road comes close to the region's
/// edge (where a quicker road outside might have been cut off), the margin grows and the leg is
/// asked again, up to the whole extract: so a leg is never refused, nor bent, by the region alone.
/// A leg whose end lies outside the region (a handle added later) widens it to take the end in.
///
/// Legs are searched one at a time (an actor): the search is computing, not waiting, and the
/// region is shared.
public actor ExtractRouter: RoutingEngine {
    /// The region's margins, each with its reason.
    public struct Configuration: Sendable, Equatable {
        /// The first region reaches at least this far from the handles' line: a road between two
        /// handles a valley apart rarely strays farther from the straight line, and a handle's
        /// name (`PlaceNames`) looks no farther than a city's 6 km reach.
        public var minimumMargin: Metres = 10_000
        /// …and at least this fraction of the longest leg's straight span: a long leg's road
        /// wanders farther (round a lake, over the one pass).
        public var legFraction: Double = 0.5
        /// Each widening multiplies the margin by this: a few reads reach a country's size.
        public var growth: Double = 4
        /// A leg's road that comes within this of the region's edge is asked again in a wider
        /// region: a quicker road outside could have been missed.
        public var edgeClearance: Metres = 1_000
        /// A margin beyond this reads the whole extract instead: a corridor wider than a country
        /// gains nothing.
        public var wholeMapMargin: Metres = 1_000_000

        public init() {}
    }

    public nonisolated var name: String { "embedded router" }
    public let extract: MapExtract
    public let configuration: Configuration
    /// The line the region surrounds: the handles, and any leg end asked for outside them.
    private var points: [Coordinate]
    private var margin: Metres
    /// The region read, and its router; nil until the first leg (or `regionGraph()`).
    private var region: (router: EmbeddedRouter, inner: RouteCorridor?)?
    /// Regions read so far (for tests and the benchmark).
    public private(set) var reads = 0

    /// A router for the route through `handles` over `extract`. Call `MapExtract.refreshPrepared(log:)`
    /// first to have an out-of-date prepared graph made again with a note.
    public init(extract: MapExtract, around handles: [Coordinate], configuration: Configuration = Configuration()) {
        self.extract = extract
        self.configuration = configuration
        points = handles
        let longest = zip(handles, handles.dropFirst()).map { $0.distance(to: $1) }.max() ?? 0
        margin = max(configuration.minimumMargin, configuration.legFraction * longest)
    }

    /// The road graph of the current region (read now when none is yet): the handles' roads and
    /// places, for naming them.
    /// - Throws: `OSMError` naming the file.
    public func regionGraph() throws -> RoadGraph {
        try loadedRegion().router.graph
    }

    /// The quickest road from `start` to `end` in `mode` (`EmbeddedRouter.leg(from:to:mode:)`),
    /// in the smallest region that holds it clear of its edge.
    /// - Throws: `RoutingError.noRoute` as the embedded router does over the whole extract;
    ///   `RoutingError.serverError` naming the file when the extract cannot be read.
    public func route(from start: Coordinate, to end: Coordinate, mode: TravelMode) async throws -> RoadLeg {
        do {
            var current = try loadedRegion()
            if let inner = current.inner, !inner.contains(start) || !inner.contains(end) {
                points += [start, end]
                region = nil
                current = try loadedRegion()
            }
            while true {
                do {
                    let leg = try current.router.leg(from: start, to: end, mode: mode)
                    guard let inner = current.inner, !leg.line.allSatisfy(inner.contains) else { return leg }
                } catch let error as RoutingError {
                    guard current.inner != nil else { throw error }
                }
                margin *= configuration.growth
                region = nil
                current = try loadedRegion()
            }
        } catch let error as OSMError {
            throw RoutingError.serverError(error.description)
        }
    }

    /// The region for the current points and margin, read when not yet.
    private func loadedRegion() throws -> (router: EmbeddedRouter, inner: RouteCorridor?) {
        if let region { return region }
        reads += 1
        let whole = margin > configuration.wholeMapMargin
        var outer = RouteCorridor.Configuration()
        outer.width = margin
        var inner = RouteCorridor.Configuration()
        inner.width = margin - configuration.edgeClearance
        let graph = try extract.graph(in: whole ? nil : RouteCorridor(route: points, configuration: outer))
        let loaded = (EmbeddedRouter(graph: graph), whole ? nil : RouteCorridor(route: points, configuration: inner))
        region = loaded
        return loaded
    }
}
