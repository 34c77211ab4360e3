import Foundation
import Geo
import Model
@testable import Pipeline
import Testing
import TestSupport

@Suite("Long segments and big plans in the pure stages")
struct PipelineHardeningTests {
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

    @Test("a trip round the globe finds its turns with bounded work")
    func trackTurnsRoundTheGlobe() {
        let route = stride(from: -180.0, through: 180.0, by: 10).map { Coordinate(latitude: 45, longitude: $0) }
            + [Coordinate(latitude: 60, longitude: 180)]
        let turns = TrackTurns().maneuvers(in: route)
        #expect(turns.allSatisfy { $0.distanceAlong.isFinite })
    }

    @Test("a track sampled coarser than the U-turn reach (one of over 100,000 km) is read without trapping")
    func trackTurnsSampledCoarsely() {
        // A track over `maximumSamples` × 5 m (100,000 km: fixes at 0,0 among a real track's, or
        // zigzags across the globe) is sampled every 100 m or more, coarser than the U-turn test's
        // reach (TrackTurns.comesBack), which once built a range whose end came before its start.
        // The same spacing, configured, on a short zigzag keeps the test quick.
        var coarse = TrackTurns.Configuration()
        let zigzag = (0..<40).map { Coordinate(latitude: 42.5 + ($0 % 2 == 0 ? 0 : 0.02), longitude: 1.4 + Double($0) * 0.01) }
        for spacing in [150.0, 400] {
            coarse.spacing = spacing
            let turns = TrackTurns(configuration: coarse).maneuvers(in: zigzag)
            #expect(!turns.isEmpty && turns.allSatisfy { $0.distanceAlong.isFinite })
        }
    }

    @Test("undo history costs what changed: 30 edits of a 10,000-handle route store a few handles each")
    func undoHistoryIsLinear() {
        let count = 10_000
        let handles = (0..<count).map {
            Handle(id: $0 + 1, coordinate: Coordinate(latitude: 42 + Double($0) * 1e-4, longitude: 1.5), origin: .tapped)
        }
        let plan = RoutePlan(handles: handles, legs: Array(repeating: PlannedLeg(kind: .straight), count: count - 1))
        var editor = RouteEditor(plan: plan)
        let edits = 30
        for k in 0..<edits {
            editor.moveHandle(k * 37 % count, to: Coordinate(latitude: 43 + Double(k) * 1e-4, longitude: 1.6))
        }
        // A snapshot per edit would hold 30 × 10,000 handles; a step holds the handle it moved.
        #expect(editor.historySize <= edits * 4, "history holds \(editor.historySize) handles and legs")
        for _ in 0..<edits { editor.undo() }
        #expect(editor.plan.handles.map(\.coordinate) == handles.map(\.coordinate))
        #expect(editor.historySize <= edits * 4)
        for _ in 0..<edits { editor.redo() }
        #expect(editor.plan.handles[0].coordinate == Coordinate(latitude: 43, longitude: 1.6))
    }
}
