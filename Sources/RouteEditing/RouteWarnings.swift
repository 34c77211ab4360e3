import Foundation
import Geo
import Model

/// What is worth saying about a road leg's road: two warnings and one piece of information. A
/// warning never stops the route from building.
public enum LegFinding: Sendable, Equatable {
    /// The road runs farther than the configured distance from where the leg was drawn: from its
    /// stroke, or from where its handles were placed. The distance is the largest, in metres.
    case farFromDrawn(distance: Metres)
    /// The road passes the handle numbered `handle` (from 1) and comes back to it, as a one-way
    /// street or the wrong side of a divided road makes directions do.
    case loopsBack(handle: Int)
    /// The road is `ratio` times the straight distance between its handles, or more.
    case longerThanStraight(ratio: Double)

    /// A warning is worth a look before printing; information is only said when the leg is listed.
    public var isWarning: Bool {
        switch self {
        case .farFromDrawn, .loopsBack: true
        case .longerThanStraight: false
        }
    }

    /// The finding in words, as `route` prints it after the leg.
    public var message: String {
        switch self {
        case .farFromDrawn(let distance):
            "The road runs \(Int(distance.rounded())) m from where you drew"
        case .loopsBack(let handle):
            "The road loops back: it passes handle \(handle) and comes back to it"
        case .longerThanStraight(let ratio):
            String(format: "%.1f× the straight line", ratio)
        }
    }
}

/// A line about the route as a whole, for legs that have no road or wait for the engine.
public enum RouteMessage: Sendable, Equatable {
    /// The engine has no road for the leg from handle `from` to handle `to` (numbered from 1) in
    /// `mode`; only the first such leg is named.
    case noRoad(mode: TravelMode, from: Int, to: Int)
    /// The engine answers HTTP 429.
    case rateLimited(engine: String)
    /// The engine failed; `detail` is what it said, kept for the log.
    case serverError(detail: String)
    /// The engine could not be reached; the leg is straight for now.
    case unreachable(engine: String)

    /// The most of an engine's reason a message prints: the status and the first bytes of its body
    /// (`OSRM: server error (HTTP 500): <first 120 bytes>`) fit in one line.
    public static let maximumDetailLength = 200

    /// `detail` on one line, cut to `maximumDetailLength` characters; "Server error" when empty.
    static func oneLine(_ detail: String) -> String {
        let flat = detail.split(whereSeparator: \.isNewline).joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
        if flat.isEmpty { return "Server error" }
        return flat.count > maximumDetailLength ? String(flat.prefix(maximumDetailLength)) + "…" : flat
    }

    /// The message in words: "No driving route from 2 to 3", "OSRM is limiting requests",
    /// "OSRM: server error (HTTP 500): …" (the engine's reason as stored in the leg).
    public var text: String {
        switch self {
        case .noRoad(let mode, let from, let to): "No \(mode.gerund) route from \(from) to \(to)"
        case .rateLimited(let engine): "\(engine) is limiting requests"
        case .serverError(let detail): Self.oneLine(detail)
        case .unreachable(let engine): "\(engine) cannot be reached"
        }
    }
}

/// The geometric tests behind `LegFinding`, as pure functions of lines and points.
public enum RouteWarnings {
    /// The point of `points` farthest from `line`: the largest distance in metres from any of them
    /// to the line (measured to its vertex when the line has only one), and the point of the line
    /// nearest that one, where the line and the points are farthest apart. Nil when either is
    /// empty. O(points × segments).
    public static func farthest(of points: [Coordinate], from line: [Coordinate]) -> (distance: Metres, onLine: Coordinate)? {
        guard let first = line.first else { return nil }
        let polyline = Polyline(line)
        var best: (distance: Metres, onLine: Coordinate)?
        for point in points {
            var nearest = (distance: point.distance(to: first), onLine: first)
            if polyline.segmentCount > 0 {
                nearest = polyline.position(closestTo: point).map { (abs($0.offsetFromRoute), $0.coordinate) } ?? (0, first)
            }
            if nearest.distance > best?.distance ?? -1 { best = nearest }
        }
        return best
    }

    /// How many separate times `line` comes within `radius` metres of `point`. A visit ends only once
    /// the line reaches a vertex farther than `leaveDistance` metres, so a road wriggling at the
    /// edge of the radius is one visit. A road that starts at a handle and comes back to it, or passes
    /// its end handle, goes round and arrives, makes two. O(segments), planar at `point`.
    public static func visits(of line: [Coordinate], to point: Coordinate, radius: Metres,
                              leaveDistance: Metres) -> Int {
        let frame = LocalFrame(origin: point)
        func vertexDistance(_ c: Coordinate) -> Metres {
            let p = frame.project(c)
            return (p.x * p.x + p.y * p.y).squareRoot()
        }
        if line.count == 1 { return vertexDistance(line[0]) <= radius ? 1 : 0 }
        var visits = 0, inside = false
        for k in line.indices.dropLast() {
            if frame.distanceSquaredToSegment(line[k], line[k + 1]).squareRoot() <= radius, !inside {
                visits += 1
                inside = true
            }
            if vertexDistance(line[k + 1]) > leaveDistance { inside = false }
        }
        return visits
    }
}
