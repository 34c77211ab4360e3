import Foundation
import Geo

/// A GPX 1.0 or 1.1 file as read by `GPXReader`: tracks, routes and waypoints in
/// file order. Extensions and elements the reader does not use are left out.
public struct GPXDocument: Sendable, Equatable {
    /// The file as the user named it; used in errors about the document.
    public var fileName: String
    /// The `creator` attribute of `<gpx>`: the program that wrote the file.
    public var creator: String?
    /// `<metadata><name>` (GPX 1.1) or `<gpx><name>` (GPX 1.0).
    public var name: String?
    public var tracks: [GPXTrack]
    public var routes: [GPXRoute]
    public var waypoints: [GPXWaypoint]

    public init(fileName: String, creator: String? = nil, name: String? = nil,
                tracks: [GPXTrack] = [], routes: [GPXRoute] = [], waypoints: [GPXWaypoint] = []) {
        self.fileName = fileName
        self.creator = creator
        self.name = name
        self.tracks = tracks
        self.routes = routes
        self.waypoints = waypoints
    }

    /// Every track point of every segment of every track, in file order; when the
    /// file has no track points, the points of every route instead. O(points).
    public var trackPoints: [GPXPoint] {
        let fromTracks = tracks.flatMap { $0.segments.joined() }
        return fromTracks.isEmpty ? routes.flatMap(\.points) : fromTracks
    }

    /// A route shorter than this, in metres, has no length: its points are one place, as far as
    /// a GPS can tell (a fix is not more precise than a metre).
    public static let minimumRouteLength: Metres = 1

    /// The points a road book is built along (`trackPoints`), checked to be enough
    /// for a route.
    /// - Parameter minimumPoints: the fewest points accepted; at least 1.
    /// - Returns: `routePoints(minimumPoints:).points`, with at least `minimumPoints` elements.
    /// - Throws: as `routePoints(minimumPoints:)`.
    public func requireRoute(minimumPoints: Int = 2) throws -> [GPXPoint] {
        try routePoints(minimumPoints: minimumPoints).points
    }

    /// The points a road book is built along: the track's points, or — when the track has too
    /// few points or no length but the file's `<rte>` is a good route — the route's points, with a
    /// warning saying so.
    /// - Parameter minimumPoints: the fewest points accepted; at least 1. With 2 or more, the
    ///   points must also span at least `minimumRouteLength`.
    /// - Returns: the points and, when the route stood in for the track, a one-line warning.
    /// - Throws: `FormatError` naming the file (and the line of the last point) when it has no
    ///   track or route points, fewer than `minimumPoints`, or a line with no length.
    public func routePoints(minimumPoints: Int = 2) throws -> (points: [GPXPoint], warning: String?) {
        let fromTracks = tracks.flatMap { $0.segments.joined() }
        let fromRoutes = routes.flatMap(\.points)
        if fromTracks.isEmpty && fromRoutes.isEmpty {
            let waypointNote = waypoints.isEmpty ? "" : " (it has \(waypoints.count) waypoint\(waypoints.count == 1 ? "" : "s") only)"
            throw FormatError(file: fileName, field: "trk",
                              message: "no track or route in the file\(waypointNote); "
                                  + "export the route as a GPX track (<trk>) or route (<rte>)")
        }
        let trackProblem = fromTracks.isEmpty ? nil : problem(with: fromTracks, kind: "track", minimumPoints: minimumPoints)
        if !fromTracks.isEmpty, trackProblem == nil { return (fromTracks, nil) }
        let routeProblem = fromRoutes.isEmpty ? nil : problem(with: fromRoutes, kind: "route", minimumPoints: minimumPoints)
        if !fromRoutes.isEmpty, routeProblem == nil {
            guard let trackProblem else { return (fromRoutes, nil) }
            return (fromRoutes, "\(fileName):\(trackProblem.line.map(String.init) ?? "?"): the \(trackProblem.message); "
                        + "the route (<rte>, \(fromRoutes.count) points) is used instead")
        }
        throw (trackProblem ?? routeProblem)!
    }

    /// Why `points` cannot be a route, or nil when they can.
    private func problem(with points: [GPXPoint], kind: String, minimumPoints: Int) -> FormatError? {
        let field = kind == "track" ? "trkpt" : "rtept"
        if points.count < max(1, minimumPoints) {
            let count = points.count == 1 ? "only one point" : "only \(points.count) points"
            let needed = minimumPoints == 2 ? "two" : "\(minimumPoints)"
            return FormatError(file: fileName, line: points.last?.line, field: field,
                               message: "\(kind) has \(count); a route needs at least \(needed)")
        }
        if minimumPoints >= 2 {
            // Measured only until it is long enough: the whole route is measured later, once.
            var length: Metres = 0
            for i in points.indices.dropFirst() where length < Self.minimumRouteLength {
                length += points[i - 1].coordinate.distance(to: points[i].coordinate)
            }
            if !(length >= Self.minimumRouteLength) {
                return FormatError(file: fileName, line: points.last?.line, field: field,
                                   message: "\(kind) has no length: its \(points.count) points are all at one place "
                                       + "(\(points[0].coordinate)); export a \(kind) that goes somewhere")
            }
        }
        return nil
    }
}

/// A `<trk>`: a recorded or planned path, possibly broken into segments.
public struct GPXTrack: Sendable, Equatable {
    public var name: String?
    /// The `<trkseg>` elements in file order, each its `<trkpt>`s in order.
    public var segments: [[GPXPoint]]

    public init(name: String? = nil, segments: [[GPXPoint]] = []) {
        self.name = name
        self.segments = segments
    }
}

/// A `<rte>`: an ordered list of route points.
public struct GPXRoute: Sendable, Equatable {
    public var name: String?
    public var points: [GPXPoint]

    public init(name: String? = nil, points: [GPXPoint] = []) {
        self.name = name
        self.points = points
    }
}

/// A `<trkpt>` or `<rtept>`.
///
/// 48 bytes: the texts of a stop are kept apart (`Stop`), so the million points of a long track,
/// which have none, do not each carry three empty Strings (88 bytes a point with them).
public struct GPXPoint: Sendable, Equatable {
    /// WGS84 position in decimal degrees; always valid (`isValid`).
    public var coordinate: Coordinate
    /// `<ele>`: metres above mean sea level (the GPX definition), if given.
    public var elevation: Metres?
    /// The 1-based line of the point's start tag in the file.
    public var line: Int
    /// The texts of a route point that has any; nil for a track point.
    private var stop: Stop?

    /// `<name>`, `<sym>` and `<type>` of a route point.
    private final class Stop: Sendable, Equatable {
        let name, symbol, type: String?

        init(name: String?, symbol: String?, type: String?) {
            self.name = name
            self.symbol = symbol
            self.type = type
        }

        static func == (a: Stop, b: Stop) -> Bool { a.name == b.name && a.symbol == b.symbol && a.type == b.type }
    }

    /// `<name>`, `<sym>` and `<type>` of a route point (a stop); nil for a track point.
    public var name: String? {
        get { stop?.name }
        set { setStop(name: newValue, symbol: symbol, type: type) }
    }
    public var symbol: String? {
        get { stop?.symbol }
        set { setStop(name: name, symbol: newValue, type: type) }
    }
    public var type: String? {
        get { stop?.type }
        set { setStop(name: name, symbol: symbol, type: newValue) }
    }

    public init(coordinate: Coordinate, elevation: Metres? = nil, line: Int, name: String? = nil, symbol: String? = nil,
                type: String? = nil) {
        self.coordinate = coordinate
        self.elevation = elevation
        self.line = line
        setStop(name: name, symbol: symbol, type: type)
    }

    private mutating func setStop(name: String?, symbol: String?, type: String?) {
        stop = name == nil && symbol == nil && type == nil ? nil : Stop(name: name, symbol: symbol, type: type)
    }
}

/// A `<wpt>`: a named point of interest, not part of a path.
public struct GPXWaypoint: Sendable, Equatable {
    /// WGS84 position in decimal degrees; always valid (`isValid`).
    public var coordinate: Coordinate
    /// `<ele>`: metres above mean sea level, if given.
    public var elevation: Metres?
    /// `<name>`.
    public var name: String?
    /// `<desc>`.
    public var description: String?
    /// `<cmt>`.
    public var comment: String?
    /// `<sym>`: the symbol name a GPS would draw.
    public var symbol: String?
    /// `<type>`: a free-form classification.
    public var type: String?
    /// The 1-based line of the `<wpt>` start tag in the file.
    public var line: Int

    public init(coordinate: Coordinate, elevation: Metres? = nil, name: String? = nil,
                description: String? = nil, comment: String? = nil, symbol: String? = nil, type: String? = nil,
                line: Int) {
        self.coordinate = coordinate
        self.elevation = elevation
        self.name = name
        self.description = description
        self.comment = comment
        self.symbol = symbol
        self.type = type
        self.line = line
    }
}
