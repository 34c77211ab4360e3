import Foundation
import Geo
import Model
@testable import BookAssembly
@testable import Guidance
import Testing
import TestSupport

@Suite("Long segments in locating notes, and in the turns of the same tracks")
struct BookAssemblyHardeningTests {
    @Test("locating notes on routes whose every segment is long does not trap")
    func locateOnLongSegments() {
        let c = { (lat: Double, lon: Double) in Coordinate(latitude: lat, longitude: lon) }
        let routes: [[Coordinate]] = [
            [c(42.5, 1.5), c(42.59, 1.5)],                                   // 10 km, two points
            (0..<5).map { c(42 + Double($0) * 0.117, 1.5) },                 // 13 km between points
            [c(-17, 179.8), c(-17, -179.8)],                                 // across the antimeridian
            stride(from: -180.0, through: 180.0, by: 45).map { c(0, $0) },   // round the globe
            [c(89.9, 0), c(89.9, 120), c(89.9, -120)],                       // round the pole
            Array(repeating: c(42.5, 1.5), count: 5),                        // one place
        ]
        for route in routes {
            let locator = NoteLocator(route: Polyline(route))
            let notes = route.map { c($0.latitude * 0.9999, $0.longitude) } + [c(0, 0), c(-90, 0)]
            let located = locator.locate(notes)
            #expect(located.count == notes.count)
            #expect(located.allSatisfy { $0.distanceAlong.isFinite })
            _ = TrackTurns().maneuvers(in: route)
        }
        // The 10 km two-point track: a note on it is on the route, at the right distance.
        let located = NoteLocator(route: Polyline(routes[0])).locate([c(42.545, 1.5)])
        #expect(located[0].isOnRoute && abs(located[0].distanceAlong - 5000) < 20)
    }
}
