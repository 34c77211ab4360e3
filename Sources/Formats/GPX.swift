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

    /// The points a road book is built along (`trackPoints`), checked to be enough
    /// for a route.
    /// - Parameter minimumPoints: the fewest points accepted; at least 1.
    /// - Returns: `trackPoints`, with at least `minimumPoints` elements.
    /// - Throws: `FormatError` naming the file when it has no track or route
    ///   points, or fewer than `minimumPoints`.
    public func requireRoute(minimumPoints: Int = 2) throws -> [GPXPoint] {
        let points = trackPoints
        let kind = tracks.contains { !$0.segments.joined().isEmpty } ? "track" : "route"
        if points.isEmpty {
            let waypointNote = waypoints.isEmpty ? "" : " (it has \(waypoints.count) waypoint\(waypoints.count == 1 ? "" : "s") only)"
            throw FormatError(file: fileName, field: "trk",
                              message: "no track or route in the file\(waypointNote); "
                                  + "export the route as a GPX track (<trk>) or route (<rte>)")
        }
        if points.count < max(1, minimumPoints) {
            let count = points.count == 1 ? "only one point" : "only \(points.count) points"
            let needed = minimumPoints == 2 ? "two" : "\(minimumPoints)"
            throw FormatError(file: fileName, line: points.last?.line, field: kind == "track" ? "trkpt" : "rtept",
                              message: "\(kind) has \(count); a route needs at least \(needed)")
        }
        return points
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
public struct GPXPoint: Sendable, Equatable {
    /// WGS84 position in decimal degrees; always valid (`isValid`).
    public var coordinate: Coordinate
    /// `<ele>`: metres above mean sea level (the GPX definition), if given.
    public var elevation: Metres?
    /// The 1-based line of the point's start tag in the file.
    public var line: Int

    public init(coordinate: Coordinate, elevation: Metres? = nil, line: Int) {
        self.coordinate = coordinate
        self.elevation = elevation
        self.line = line
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
