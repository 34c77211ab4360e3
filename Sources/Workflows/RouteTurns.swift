import Foundation
import Geo
import Guidance
import Model
import OSM
import Routing

/// Where a route's turns come from: the junctions of a road map the route is matched onto, or,
/// without a map (or where the route leaves it), the shape of the track itself.
public enum RouteTurns {
    /// Stretches off the map shorter than this (metres) are not worth a word: a track starts and
    /// ends a few metres from the nearest mapped node.
    public static let shortestOffMapStretch: Metres = 100

    /// The turns along `route`, in route order.
    ///
    /// The route is matched onto the junction graph of `mode` (`TravelRules.junctionGraph(of:)`):
    /// the roads the mode may use and those that look like them. Only roads the mode may use are
    /// choices; the others are drawn.
    /// - Parameters:
    ///   - route: the route's line.
    ///   - graph: the road network of an OpenStreetMap extract covering the route, if any.
    ///   - mode: how the route is travelled.
    ///   - drivingSide: the side traffic keeps to, for a small roundabout read from the track's shape
    ///     (the map's rings say their own way round); nil for the side the map's roundabouts say
    ///     (`RingTurning`), or the right without a map or where they say none.
    ///   - trace: where the turn passes record what they decide about each junction, if anyone asks.
    /// - Returns: the turns; the stretches (metres along the route) not found on the map, whose turns
    ///   come from the track's shape; and without a map, how the track was read for them.
    public static func maneuvers(along route: [Coordinate], graph: RoadGraph?, mode: TravelMode = .drive,
                                 drivingSide: DrivingSide? = nil, trace: TurnTrace? = nil)
        -> (maneuvers: [Maneuver], offMap: [ClosedRange<Metres>], reading: TrackTurns.Reading?) {
        var shapeRules = TrackTurns.Configuration()
        shapeRules.leftHandTraffic = resolvedDrivingSide(given: drivingSide, rings: drivingSide == nil ? graph?.ringTurning() : nil) == .left
        let shapes = TrackTurns(configuration: shapeRules)
        guard let graph else {
            let shape = shapes.read(route)
            return (shape.maneuvers, [], shape.reading)
        }
        let (junctions, match) = Self.junctions(along: route, graph: graph, mode: mode)
        let fromMap = TurnDetector().maneuvers(in: RoadGeometry(line: route, junctions: junctions), trace: trace)
        let offMap = match.unmatched.filter { $0.upperBound - $0.lowerBound >= shortestOffMapStretch }
        // The track's shape is read only where the map does not cover the route.
        let filler = offMap.isEmpty ? [] : shapes.maneuvers(in: route).filter { m in
            offMap.contains { $0.contains(m.distanceAlong) }
        }
        let all = (fromMap + filler).sorted { $0.distanceAlong < $1.distanceAlong }
        return (all, offMap, nil)
    }

    /// The warning for a route whose turns all come from its shape (no map was given, `reading` is
    /// how `maneuvers(along:graph:)` read it) when its fixes scatter independently of each other
    /// (`TrackTurns.Reading.Kind.scattered`): such a track loses what a receiver's keeps, so the
    /// organiser is told, with the way to turns that do not depend on it. `file` names the track. nil
    /// for any other track.
    public static func shapeWarning(_ reading: TrackTurns.Reading?, file: String) -> String? {
        guard let reading, reading.kind == .scattered else { return nil }
        return String(format: "%@: turns come from the track's shape, and its fixes scatter independently of each other (%.1f m from "
            + "the smoothed track at the median; a receiver's track, whose error drifts slowly, measures under %.1f m): small "
            + "roundabouts passed nearly straight, jogs of the road and some turns are not found; give --osm EXTRACT for turns "
            + "from the map's junctions", file, reading.scatter, TrackTurns.Configuration().jitteredScatter)
    }

    /// The junctions the route passes on the junction graph of `mode`, in route order, each at its
    /// distance along `route` (`JunctionPlacement`), and the match they come from.
    public static func junctions(along route: [Coordinate], graph: RoadGraph, mode: TravelMode = .drive) -> (junctions: [Junction], match: MatchedRoute) {
        let rules = TravelRules.forMode(mode)
        let junctionGraph = rules.junctionGraph(of: graph)
        let match = RouteMatcher(graph: junctionGraph).match(route)
        // A side road the mode may not pass just past the junction (a bollard, a locked gate) is no choice.
        let marks = junctionGraph.nodeMarks
        var isClosed: (@Sendable (Int) -> Bool)?
        if !marks.isEmpty {
            isClosed = { @Sendable node in
                guard let mark = marks[node], case .closed = rules.passage(at: mark) else { return false }
                return true
            }
        }
        let junctions = JunctionFinder(graph: junctionGraph, mayUse: { rules.speed(on: $0) != nil },
                                       obeysOneway: rules.obeysOneway, isClosed: isClosed).junctions(along: match)
        // Distances along the book's route, not the matched road: after a GPS gap the two differ.
        return (JunctionPlacement.placed(junctions, on: Polyline(route)), match)
    }

    /// Loads the whole road network of an extract (`.osm.pbf`, `.osm`, `.osm.gz`), from its
    /// prepared graph when there is one (`MapExtract`): for a route across the antimeridian, which
    /// has no corridor, and for tools that look at the whole map.
    public static func loadGraph(_ url: URL, log: (any WorkflowLog)? = nil) throws -> RoadGraph {
        try MapExtract(url).graph(log: log)
    }

    /// Loads the road network of an extract (`.osm.pbf`, `.osm`, `.osm.gz`) around a route, from its
    /// prepared graph when there is one (`MapExtract`).
    /// - Parameters:
    ///   - url: the extract.
    ///   - route: only the roads within `RouteCorridor.Configuration.width` of this line are read
    ///     (`RouteCorridor`): all that matching it and finding its junctions needs, in memory
    ///     proportional to the route rather than the extract. `build`, `regenerate` and `apply`
    ///     load their map this way.
    ///   - log: where a prepared graph made again is noted.
    public static func loadGraph(_ url: URL, corridor route: [Coordinate], log: (any WorkflowLog)? = nil) throws -> RoadGraph {
        // A route across the antimeridian (a step of more than 180° of longitude) has no corridor
        // (`RouteCorridor`): the whole map is read for it.
        guard !zip(route, route.dropFirst()).contains(where: { abs($0.longitude - $1.longitude) > 180 }) else {
            return try loadGraph(url, log: log)
        }
        return try MapExtract(url).graph(in: RouteCorridor(route: route), log: log)
    }
}
