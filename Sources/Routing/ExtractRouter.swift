import Foundation
import Geo
import Model
import OSM

/// An OpenStreetMap extract `ExtractRouter` reads regions of: from its prepared graph when it has
/// one, else from the extract itself. The commands' extract is `Workflows.MapExtract`
/// (`Workflows/MapExtractRegions.swift`), which makes the prepared graph again when it no longer
/// matches the extract: that writes a file and notes it in a log, which this target does not do.
public protocol RegionExtract: Sendable {
    /// Where the extract's prepared graph is, or would be.
    var preparedURL: URL { get }
    /// The prepared graph to read regions from, looked up once for many regions (made again first
    /// when it no longer matches the extract), or nil when the extract itself is read.
    /// - Throws: `OSMError` naming the extract when it cannot be read.
    func preparedForRegions() throws -> PreparedGraph?
    /// The road graph within `corridor` (the whole when nil), read from `prepared` (a result of
    /// `preparedForRegions()`) or, when that is nil, from the extract. A prepared graph found
    /// damaged is made again, and `prepared` becomes the new one.
    /// - Throws: `OSMError` naming the file.
    func regionGraph(in corridor: RouteCorridor?, prepared: inout PreparedGraph?) throws -> RoadGraph
}

/// The embedded router over an extract, reading only the region the handles need: the roads
/// within a margin of the line through the handles (`RouteCorridor`), from the extract's prepared
/// graph when it has one (`RegionExtract`), else from the extract itself.
///
/// A leg found in the region is the leg the router would find over the whole extract, and this is
/// checked, not hoped: the leg's ends lie on the handles' line, so any road that leaves the region
/// runs at least the margin out and the margin back (less how far each end was snapped onto its
/// road), and takes at least that at the mode's top speed. A leg quicker than that has no quicker
/// rival outside and is kept; a slower one widens the region until the bound holds (once is
/// enough: the leg found bounds the best),
/// and a leg with no road widens it by `Configuration.growth` up to the whole extract. So a leg is
/// never refused, nor bent, by the region. A leg whose end lies outside the region (a handle added
/// later) widens it to take the end in.
///
/// Legs are searched one at a time (an actor): the search is computing, not waiting, and the
/// region is shared.
public actor ExtractRouter: RoutingEngine {
    /// The region's margins, each with its reason.
    public struct Configuration: Sendable, Equatable {
        /// The first region reaches at least this far from the handles' line: a leg of up to twice
        /// this at the mode's top speed (4 min by car: 3 km out and back at 90 km/h) is proved in
        /// it, and a handle's name (`Workflows.PlaceNames`) comes from a town's reach (3 km) or less.
        public var minimumMargin: Metres = 3_000
        /// …and at least this fraction of the longest leg's straight span: a long leg needs a wide
        /// region to be proved, and starts in one.
        public var legFraction: Double = 0.5
        /// A leg with no road in the region multiplies the margin by this: a few reads reach a
        /// country's size.
        public var growth: Double = 4
        /// Taken off the margin before the bound: what rounding of coordinates to 10⁻⁷ degree and
        /// the tangent plane's error could cost, many times over.
        public var edgeClearance: Metres = 100
        /// A margin beyond this reads the whole extract instead: a corridor wider than a country
        /// gains nothing.
        public var wholeMapMargin: Metres = 1_000_000
        /// The side of the road traffic keeps to, for the router's turn costs
        /// (`EmbeddedRouter.Configuration.leftHandTraffic`); nil for the side the region's
        /// roundabouts say (`RingTurning`), or the right where they say none.
        public var drivingSide: DrivingSide?

        public init() {}
    }

    public nonisolated var name: String { "embedded router" }
    public let extract: any RegionExtract
    public let configuration: Configuration
    /// The line the region surrounds: the handles, and any leg end asked for outside them.
    private var points: [Coordinate]
    private var margin: Metres
    /// The region read, its corridor (nil for the whole extract), and a router per travel mode
    /// asked for; nil until the first leg (or `regionGraph()`).
    private var region: (graph: RoadGraph, corridor: RouteCorridor?, routers: [TravelMode: EmbeddedRouter])?
    /// Regions read so far (for tests).
    public private(set) var reads = 0
    /// Whether regions are read from the extract's prepared graph (else from the extract itself);
    /// nil until looked up. It is looked up once (`RegionExtract.preparedForRegions()` hashes a
    /// little of the extract), not at every region; the file is mapped only while a region is read,
    /// so its pages do not stay in the router's memory.
    private var hasPrepared: Bool?

    /// A router for the route through `handles` over `extract`.
    /// - Parameter hasPrepared: whether the extract has a prepared graph, when the caller has
    ///   looked already (`Workflows.MapExtract.refreshPrepared(log:)`, which notes one made again);
    ///   when nil, it is looked up at the first leg.
    public init(extract: any RegionExtract, hasPrepared: Bool? = nil, around handles: [Coordinate],
                configuration: Configuration = Configuration()) {
        self.extract = extract
        self.hasPrepared = hasPrepared
        self.configuration = configuration
        points = handles
        let longest = zip(handles, handles.dropFirst()).map { $0.distance(to: $1) }.max() ?? 0
        margin = max(configuration.minimumMargin, configuration.legFraction * longest)
    }

    /// The road graph of the current region (read now when none is yet): the handles' roads and
    /// places, for naming them.
    /// - Throws: `OSMError` naming the file.
    public func regionGraph() throws -> RoadGraph {
        try loadedRegion().graph
    }

    /// The quickest road from `start` to `end` in `mode` (`EmbeddedRouter.leg(from:to:mode:)`), as
    /// over the whole extract, found in a region that proves it.
    /// - Throws: `RoutingError.noRoute` as the embedded router does over the whole extract;
    ///   `RoutingError.serverError` naming the file when the extract cannot be read.
    public func route(from start: Coordinate, to end: Coordinate, mode: TravelMode) async throws -> RoadLeg {
        do {
            if let corridor = try loadedRegion().corridor, !corridor.contains(start) || !corridor.contains(end) {
                points += [start, end]
                region = nil
            }
            let topSpeed = TravelRules.forMode(mode).maximumSpeed
            while true {
                let (router, isWhole) = try router(for: mode)
                do {
                    let leg = try router.leg(from: start, to: end, mode: mode)
                    // Each end was snapped onto its road up to the snap radius off the line.
                    let offsets = start.distance(to: leg.line.first ?? start) + end.distance(to: leg.line.last ?? end)
                    let proved = (2 * (margin - configuration.edgeClearance) - offsets) / topSpeed
                    if isWhole || leg.duration <= proved { return leg }
                    margin = max(margin * 1.25, (leg.duration * topSpeed + offsets) / 2 + 2 * configuration.edgeClearance)
                } catch let error as RoutingError {
                    if isWhole { throw error }
                    margin *= configuration.growth
                }
                region = nil
            }
        } catch let error as OSMError {
            throw RoutingError.serverError(error.description)
        }
    }

    /// The router of the current region for `mode` (made once per region and mode: each mode
    /// has its own edge times), and whether the region is the whole extract.
    private func router(for mode: TravelMode) throws -> (EmbeddedRouter, Bool) {
        let loaded = try loadedRegion()
        if let router = loaded.routers[mode] { return (router, loaded.corridor == nil) }
        var rules = EmbeddedRouter.Configuration()
        rules.leftHandTraffic = (configuration.drivingSide ?? loaded.graph.ringTurning().drivingSide) == .left
        let router = EmbeddedRouter(graph: loaded.graph, configuration: rules, modes: [mode])
        region?.routers[mode] = router
        return (router, loaded.corridor == nil)
    }

    /// The region for the current points and margin, read when not yet.
    private func loadedRegion() throws -> (graph: RoadGraph, corridor: RouteCorridor?, routers: [TravelMode: EmbeddedRouter]) {
        if let region { return region }
        reads += 1
        var width = RouteCorridor.Configuration()
        width.width = margin
        let corridor = margin > configuration.wholeMapMargin ? nil : RouteCorridor(route: points, configuration: width)
        var prepared: PreparedGraph?
        switch hasPrepared {
        case nil: prepared = try extract.preparedForRegions()
        case true?: prepared = try? PreparedGraph(contentsOf: extract.preparedURL)
        case false?: prepared = nil
        }
        let graph = try extract.regionGraph(in: corridor, prepared: &prepared)
        hasPrepared = prepared != nil
        let loaded = (graph, corridor, [TravelMode: EmbeddedRouter]())
        region = loaded
        return loaded
    }
}
