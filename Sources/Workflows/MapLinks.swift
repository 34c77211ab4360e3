import Foundation
import Geo
import Model

/// Links that open a book's route in a maps app: Apple Maps with the start and the end, Google
/// Maps with the start, the end and the first stops between them.
///
/// What a link carries follows the route tool's rules for "Open in Apple Maps" and "open in another
/// maps app" (docs/map-links.md):
/// - The **stops** of a book routed through handles (`roadbook route`) are its handles, in order,
///   each where the route reaches it (on the road when it was moved onto one): the first is the
///   start, the last the end. A book built from a recorded track has no handles;
///   its stops are the route's first and last points with, between them, the rows a person placed
///   on the route (waypoints and checkpoints, not generated turns), in the book's order: they are
///   the places the rider must pass, and without them a maps app could take another road, or see a
///   loop as going nowhere.
/// - Each **place counts once**: a stop within `Configuration.sameStopDistance` of the one before it
///   is that place again (a start-of-stage waypoint on the route's first point, a finish on its
///   last, a waypoint that is also a handle), so it is left out, the route's own end kept.
/// - A stop's **name** is a place's: a handle's name, or one the extract gives
///   (`mapLinks(ofBook:placesByName:extract:)`, `PlaceNames`); never a row's marker ("CP1", "R3")
///   or words, which a maps app would look up as an address somewhere else entirely.
/// - **Apple Maps** gets the start and the end and the travel mode, and plans its own route between
///   them, so stops between are left out. Apple's Map Links parameters: `saddr`, `daddr`, `dirflg`
///   (`d` by car, `w` on foot; Map Links has no cycling value, so a cycling book leaves the mode to
///   Apple Maps).
/// - **Google Maps** gets the start, the end and the first `Configuration.googleWaypointLimit` stops
///   between (Google's Maps URLs take at most nine waypoints), with `travelmode` driving, bicycling
///   or walking. When stops are left out the caption counts what the link carries: "11 of 13 stops".
/// - Places go into the links as coordinates ("lat,lon", six decimals: about 0.1 m) by default:
///   both apps geocode a name, which can put a stop in another village of the same name. With
///   `Configuration.placesByName` a stop that has a name goes as its name (the app shows it as the
///   route tool's card does), and one without (or whose name holds Google's separator "|") as its
///   coordinate.
public struct MapLinks: Sendable, Equatable {
    /// A place the route goes through.
    public struct Stop: Sendable, Equatable {
        public var coordinate: Coordinate
        /// The handle's name, or the row's marker or words; nil when unknown.
        public var name: String?

        public init(coordinate: Coordinate, name: String? = nil) {
            self.coordinate = coordinate
            self.name = name
        }
    }

    /// Limits of the apps' link formats, each with its reason.
    public struct Configuration: Sendable {
        /// Google's Maps URLs take at most nine `waypoints` in a directions link (its documentation
        /// of the `waypoints` parameter); more are ignored or refused.
        public var googleWaypointLimit = 9
        /// Digits after the decimal point of a coordinate: six is about 0.1 m, finer than any GPS fix,
        /// and keeps the links short.
        public var coordinateDecimals = 6
        /// Give a named stop by its name instead of its coordinate (see the type's discussion).
        public var placesByName = false
        /// A stop this close to the one before it is the same place: farther apart than two fixes
        /// of one point and the width of a junction, nearer than two places a rider is sent to.
        public var sameStopDistance: Metres = 50

        public init() {}
    }

    /// Every stop of the route, start and end included.
    public var stops: [Stop]
    public var mode: TravelMode
    /// The Apple Maps link: `https://maps.apple.com/?saddr=…&daddr=…&dirflg=…`.
    public var apple: URL
    /// The Google Maps link: `https://www.google.com/maps/dir/?api=1&origin=…&destination=…&travelmode=…&waypoints=…`.
    public var google: URL
    /// How many stops the Google link carries, start and end included.
    public var googleStops: Int

    /// "Canillo → Encamp", or the start and end coordinates when a name is unknown.
    public var title: String {
        "\(stops.first.map(Self.label) ?? "") → \(stops.last.map(Self.label) ?? "")"
    }

    /// "13 stops", or "11 of 13 stops" when the Google link leaves some out.
    public var googleCaption: String {
        googleStops == stops.count ? "\(stops.count) stops" : "\(googleStops) of \(stops.count) stops"
    }

    /// The links for `book`. O(notes + handles).
    /// - Returns: nil when the book's route has fewer than two points (nothing to open).
    public init?(book: Book, configuration: Configuration = Configuration()) {
        let stops = Self.stops(of: book, sameStopDistance: configuration.sameStopDistance)
        guard stops.count >= 2 else { return nil }
        self.init(stops: stops, mode: book.travelMode, configuration: configuration)
    }

    /// The links through `stops` (at least two) in `mode`.
    public init(stops: [Stop], mode: TravelMode, configuration: Configuration = Configuration()) {
        precondition(stops.count >= 2, "a route has a start and an end")
        self.stops = stops
        self.mode = mode
        let text = { (stop: Stop) in
            // A name with "|" would be split by Google's waypoint separator: it goes as its coordinate.
            if configuration.placesByName, let name = stop.name, !name.isEmpty, !name.contains("|") { return name }
            return Self.coordinateText(stop.coordinate, decimals: configuration.coordinateDecimals)
        }
        var appleItems = [("saddr", text(stops[0])), ("daddr", text(stops[stops.count - 1]))]
        switch mode {
        case .drive: appleItems.append(("dirflg", "d"))
        case .walk: appleItems.append(("dirflg", "w"))
        case .cycle: break
        }
        apple = Self.url("https://maps.apple.com/", appleItems)
        let between = stops.dropFirst().dropLast().prefix(max(0, configuration.googleWaypointLimit))
        var googleItems = [("api", "1"), ("origin", text(stops[0])), ("destination", text(stops[stops.count - 1])),
                           ("travelmode", Self.googleMode(mode))]
        if !between.isEmpty { googleItems.append(("waypoints", between.map(text).joined(separator: "|"))) }
        google = Self.url("https://www.google.com/maps/dir/", googleItems)
        googleStops = 2 + between.count
    }

    /// The stops of `book`: its handles when it was routed through them, else its route's ends with
    /// its placed rows (waypoints, checkpoints) between, unnamed (a row's marker and words are not a
    /// place's name); each place once (`sameStopDistance`). O(notes + handles).
    public static func stops(of book: Book, sameStopDistance: Metres = Configuration().sameStopDistance) -> [Stop] {
        let stops: [Stop]
        if let handles = book.plan?.handles, handles.count >= 2 {
            stops = handles.map { Stop(coordinate: $0.coordinate, name: $0.name) }
        } else {
            guard let first = book.route.points.first, let last = book.route.points.last, book.route.points.count >= 2 else {
                return []
            }
            let placed = book.notes.filter { ($0.kind == .waypoint || $0.kind == .checkpoint) && $0.placement == .onRoute }
            stops = [Stop(coordinate: first.coordinate)] + placed.map { Stop(coordinate: $0.coordinate) } + [Stop(coordinate: last.coordinate)]
        }
        var once: [Stop] = []
        for (k, stop) in stops.enumerated() {
            guard let previous = once.last, previous.coordinate.distance(to: stop.coordinate) <= sameStopDistance else {
                once.append(stop)
                continue
            }
            // The route's end stays the end; a place named once keeps its name.
            if k == stops.count - 1, once.count > 1 {
                once[once.count - 1] = Stop(coordinate: stop.coordinate, name: stop.name ?? previous.name)
            } else if once[once.count - 1].name == nil {
                once[once.count - 1].name = stop.name
            }
        }
        return once
    }

    /// Google's `travelmode` for a travel mode.
    static func googleMode(_ mode: TravelMode) -> String {
        switch mode {
        case .drive: "driving"
        case .cycle: "bicycling"
        case .walk: "walking"
        }
    }

    /// "42.507000,1.521000": latitude then longitude, as both apps read a coordinate.
    static func coordinateText(_ c: Coordinate, decimals: Int) -> String {
        String(format: "%.\(decimals)f,%.\(decimals)f", c.latitude, c.longitude)
    }

    static func label(_ stop: Stop) -> String {
        stop.name ?? coordinateText(stop.coordinate, decimals: 5)
    }

    /// Characters left as they are in a query value: RFC 3986's unreserved set and the comma between
    /// a latitude and a longitude. Everything else, "|", "&", "=", "+", space and non-ASCII letters
    /// included, is percent-encoded as UTF-8, so no value can end a parameter early or be read as a
    /// space.
    static let queryValueCharacters = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~,")

    /// The URL `base` with `items` as its query, each value percent-encoded.
    static func url(_ base: String, _ items: [(String, String)]) -> URL {
        let query = items.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: queryValueCharacters) ?? "")"
        }.joined(separator: "&")
        return URL(string: "\(base)?\(query)")!
    }
}
