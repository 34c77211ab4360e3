import Foundation
import Geo
import Model
import OSM
import RouteEditing

/// Names for handles, offline, from an OpenStreetMap extract: the village, pass or street a
/// handle sits in, as an organiser would name a stop, else `nil` (the handle is then known by its
/// coordinates).
///
/// The stop names make the route's title, "Start → End", and the handles list; what an organiser
/// and a crew want there is *where* the stop is: "Canillo → Encamp", not "CG-2 → CG-2" (a road
/// number runs the length of the country and says least about where along it one stands). So a
/// name is chosen in this order:
/// 1. a place whose centre the handle is in (within `PlaceRadii.centre` of its node): a town,
///    village, hamlet or part of one, or a pass; the nearest such. In a village centre the
///    village is the stop's name, not its main street.
/// 2. the nearest road with a `name` within `Configuration.radius`, as a directions app names a
///    stop tapped onto the map after the street it is on ("Carretera de la Rabassa").
/// 3. the nearest place within its kind's reach (`PlaceRadii.reach`): a town is named from
///    farther than a hamlet, a locality or a farm only from close by.
/// 4. the nearest road with only a `ref` within the radius ("CG-2").
/// 5. nil.
///
/// A `name` or `ref` that is a mapper's placeholder ("FIXME", "unknown", "?": `MapNames`) names
/// nothing: the place or road is passed over as if it had none.
///
/// The places are the `place=*`, `mountain_pass=yes`, `natural=saddle` and `natural=peak` nodes
/// with a `name` that the reader keeps (`OSMPlace`); a place is measured from its node, which
/// OpenStreetMap puts at the centre a settlement's signs point to
/// (https://wiki.openstreetmap.org/wiki/Key:place).
public struct PlaceNames: Sendable {
    /// How far a place names a handle: within `centre` it wins over any road, within `reach` it
    /// names a handle no named road is near.
    public struct PlaceRadii: Sendable, Equatable {
        /// Metres from the place's node within which the handle is in its centre; 0 for a kind
        /// that never beats a road (a place with no centre to speak of).
        public var centre: Metres
        /// Metres from the place's node within which the place still names the handle.
        public var reach: Metres

        public init(centre: Metres, reach: Metres) {
            self.centre = centre
            self.reach = reach
        }
    }

    /// The radii. The place sizes are those of the OpenStreetMap wiki's `Key:place`
    /// (https://wiki.openstreetmap.org/wiki/Key:place); a centre is the core around the node where
    /// a crew sees the place's name on the signs, a reach about half the place's extent plus the
    /// fields around it.
    public struct Configuration: Sendable {
        /// A road farther than this from the handle is not where the handle is: 300 m covers a
        /// handle tapped in a square or a car park beside its street, not the next valley.
        public var radius: Metres = 300
        /// A city (over 100,000 people) spans kilometres: its centre is a district of its own.
        public var city = PlaceRadii(centre: 1500, reach: 6000)
        /// A town (10,000–100,000 people) is one to three kilometres across.
        public var town = PlaceRadii(centre: 500, reach: 3000)
        /// A village (a few hundred to a few thousand people) is a few hundred metres across; its
        /// square, church and main street are within 200 m of the node.
        public var village = PlaceRadii(centre: 200, reach: 1500)
        /// A hamlet (under a couple of hundred people) is a handful of houses.
        public var hamlet = PlaceRadii(centre: 100, reach: 600)
        /// A suburb is a large part of a town or city, a kilometre or so across.
        public var suburb = PlaceRadii(centre: 300, reach: 1500)
        /// A quarter is smaller than a suburb: a few blocks.
        public var quarter = PlaceRadii(centre: 150, reach: 700)
        /// A neighbourhood is smaller still: a few streets.
        public var neighbourhood = PlaceRadii(centre: 100, reach: 400)
        /// A locality is a named spot where no one lives (a field, a bend, a crossroads): it has no
        /// centre to beat a road's name, and names only a handle close by.
        public var locality = PlaceRadii(centre: 0, reach: 300)
        /// An isolated dwelling (one or two households) is a single building.
        public var isolatedDwelling = PlaceRadii(centre: 0, reach: 200)
        /// A farm is one holding's buildings.
        public var farm = PlaceRadii(centre: 0, reach: 200)
        /// A pass (`mountain_pass=yes`, `natural=saddle`) is where a road crosses a ridge, and its
        /// node sits on or beside that road: within 150 m one is at the col, and "Port d'Envalira"
        /// tells a crew more than the road's name; beyond 500 m the road is still climbing to it.
        public var pass = PlaceRadii(centre: 150, reach: 500)
        /// A peak (`natural=peak`) is above the roads: it names only a handle at the end of a road
        /// to its summit (a hill climb's finish), never beats a road.
        public var peak = PlaceRadii(centre: 0, reach: 300)

        public init() {}

        /// The radii of places of `kind`.
        public func radii(for kind: OSMPlace.Kind) -> PlaceRadii {
            switch kind {
            case .city: city
            case .town: town
            case .village: village
            case .hamlet: hamlet
            case .suburb: suburb
            case .quarter: quarter
            case .neighbourhood: neighbourhood
            case .locality: locality
            case .isolatedDwelling: isolatedDwelling
            case .farm: farm
            case .pass: pass
            case .peak: peak
            }
        }
    }

    let index: SegmentIndex
    let places: [OSMPlace]
    let configuration: Configuration
    /// The largest reach of any kind, for a cheap first cut of the places.
    private let maximumReach: Metres

    /// - Parameters:
    ///   - graph: the roads, and the places (`RoadGraph.places`) they were read with.
    /// - Complexity: O(segments) to index the graph's roads.
    public init(graph: RoadGraph, configuration: Configuration = Configuration()) {
        index = SegmentIndex(graph: graph)
        places = graph.places.filter { MapNames.usable($0.name) != nil }
        self.configuration = configuration
        maximumReach = OSMPlace.Kind.allCases.map { configuration.radii(for: $0).reach }.max() ?? 0
    }

    /// The name for a handle at `point`, in the order the type's description gives, or nil.
    /// - Complexity: O(places + road segments within the radius).
    public func name(at point: Coordinate) -> String? {
        let near = placesNear(point)
        if let centre = nearest(near, within: \.centre) { return centre.name }
        if let road = road(at: point, named: true) { return road }
        if let place = nearest(near, within: \.reach) { return place.name }
        return road(at: point, named: false)
    }

    /// The places whose node is within `maximumReach` of `point`, with their distances.
    private func placesNear(_ point: Coordinate) -> [(place: OSMPlace, distance: Metres)] {
        // A first cut in degrees (a degree of latitude is over 110 km, of longitude over
        // 110 km × cos(latitude)), then the geodesic distance of the few left.
        let latitudeSpan = maximumReach / 110_000
        let longitudeSpan = maximumReach / (110_000 * max(cos(point.latitude * .pi / 180), 0.01))
        var near: [(place: OSMPlace, distance: Metres)] = []
        for place in places
        where abs(place.coordinate.latitude - point.latitude) <= latitudeSpan
            && abs(place.coordinate.longitude - point.longitude) <= longitudeSpan {
            let distance = point.distance(to: place.coordinate)
            if distance <= maximumReach { near.append((place, distance)) }
        }
        return near
    }

    /// The nearest of `near` within its kind's `radius` (ties: the first in the file).
    private func nearest(_ near: [(place: OSMPlace, distance: Metres)], within radius: KeyPath<PlaceRadii, Metres>) -> OSMPlace? {
        near.filter { $0.distance <= configuration.radii(for: $0.place.kind)[keyPath: radius] }
            .min { $0.distance < $1.distance }?.place
    }

    /// The nearest road within the radius with a `name` (`named`), or with a `ref` and no name.
    private func road(at point: Coordinate, named: Bool) -> String? {
        let ways = index.graph.ways
        func label(_ way: Int) -> String? {
            MapNames.usable(named ? ways[way].name : ways[way].ref)
        }
        guard let snap = index.nearest(to: point, within: configuration.radius, accepting: { label($0) != nil }) else { return nil }
        return label(snap.way)
    }

    /// The editor with every handle that has no name named after where it was placed (`placed`,
    /// before any move onto the road); handles with a name keep it, and the editor keeps its
    /// history (`RouteEditor.nameHandles`): naming is no step of its own, and a step redone brings
    /// its handle back without the name until the next naming.
    public func naming(_ editor: RouteEditor) -> RouteEditor {
        var named = editor
        named.nameHandles { name(at: $0) }
        return named
    }
}
