import Foundation
import Geo
import Model
import RouteEditing
import TestSupport

/// A routing engine for tests: answers from a closure and records every request, so a test can
/// say exactly which legs were asked, in which mode, and how many at once.
final class FakeEngine: RoutingEngine, @unchecked Sendable {
    struct Request: Equatable, CustomStringConvertible {
        var from: Coordinate
        var to: Coordinate
        var mode: TravelMode
        var description: String { "\(from) → \(to) (\(mode))" }
    }

    let name: String
    private let answer: @Sendable (Coordinate, Coordinate, TravelMode) throws -> RoadLeg
    private let lock = NSLock()
    private var recorded: [Request] = []
    private var inFlight = 0
    private var mostInFlight = 0

    init(name: String = "FakeOSRM",
         answer: @escaping @Sendable (Coordinate, Coordinate, TravelMode) throws -> RoadLeg = FakeEngine.straightRoad) {
        self.name = name
        self.answer = answer
    }

    /// Every request so far, in the order they were made.
    var requests: [Request] { lock.withLock { recorded } }
    /// The most requests that were in flight at once.
    var largestConcurrency: Int { lock.withLock { mostInFlight } }
    func forget() { lock.withLock { recorded.removeAll() } }

    func route(from start: Coordinate, to end: Coordinate, mode: TravelMode) async throws -> RoadLeg {
        lock.withLock {
            recorded.append(Request(from: start, to: end, mode: mode))
            inFlight += 1
            mostInFlight = max(mostInFlight, inFlight)
        }
        // Give the other requests of the group a chance to start, so concurrency shows.
        for _ in 0..<5 { await Task.yield() }
        defer { lock.withLock { inFlight -= 1 } }
        return try answer(start, end, mode)
    }

    /// A road straight from start to end through its midpoint, at 10 m/s.
    @Sendable static func straightRoad(_ start: Coordinate, _ end: Coordinate, _ mode: TravelMode) -> RoadLeg {
        let mid = Coordinate(latitude: (start.latitude + end.latitude) / 2, longitude: (start.longitude + end.longitude) / 2)
        let length = Polyline([start, mid, end]).length
        return RoadLeg(line: [start, mid, end], distance: length, duration: length / 10)
    }
}

let editorGrid = MetreGrid()

/// Metres east and north of the grid's origin.
func metres(_ c: Coordinate) -> (x: Double, y: Double) { editorGrid.frame.project(c) }

/// A road along grid points, at 10 m/s.
func gridRoad(_ points: [(Double, Double)], junctions: [Junction] = []) -> RoadLeg {
    let line = points.map { editorGrid($0.0, $0.1) }
    let length = Polyline(line).length
    return RoadLeg(line: line, distance: length, duration: length / 10, junctions: junctions)
}

/// An editor with tapped handles at grid points, in `mode`, not yet resolved.
func editor(_ points: [(Double, Double)], kind: LegKind = .road, origin: Handle.Origin = .tapped) -> RouteEditor {
    var editor = RouteEditor()
    editor.setDefaultLegKind(kind)
    for p in points { editor.addHandle(at: editorGrid(p.0, p.1), origin: origin) }
    return editor
}

func near(_ a: Double, _ b: Double, _ tolerance: Double = 0.5) -> Bool { abs(a - b) <= tolerance }
