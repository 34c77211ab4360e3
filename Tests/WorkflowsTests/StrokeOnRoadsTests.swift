import Foundation
import Formats
import Geo
import Model
import RouteEditing
import Testing
import TestSupport
import Workflows

/// Strokes drawn along the Andorra roads (stretches of the sample track, resampled as a finger
/// would draw them, with and without seeded ±20 m jitter), made into handles and asked of the
/// embedded router on the Andorra extract.
@Suite("Strokes drawn along real roads")
struct StrokeOnRoadsTests {
    static let sample = packageRoot().appendingPathComponent("samples/andorra-envalira.gpx")

    /// The sample track from `start` for `length` metres, a point every `step` metres, each moved by
    /// up to `jitter` metres east and north (uniform, seeded).
    static func stroke(from start: Metres, length: Metres, step: Metres = 10, jitter: Metres, seed: UInt64) throws -> [Coordinate] {
        let track = try GPXReader.read(contentsOf: sample).trackPoints.map(\.coordinate)
        let line = Polyline(track)
        var noise = SeededGenerator(seed: seed)
        return stride(from: start, through: start + length, by: step).map { d in
            let c = line.coordinate(atDistance: d)
            let frame = LocalFrame(origin: c)
            return frame.unproject(x: (noise.uniform() * 2 - 1) * jitter, y: (noise.uniform() * 2 - 1) * jitter)
        }
    }

    /// Before strokes were simplified to their bends, these strokes gave 13–14 handles, and 26–27
    /// with jitter, whose roads added up to 6.26–6.35 km, looping back where a jittered handle fell
    /// on the wrong side of a hairpin.
    @Test("a 6 km stroke along a road becomes a handful of handles, with and without ±20 m jitter, and its roads follow the stroke", arguments: [
        (start: 3000.0, jitter: 0.0), (start: 3000.0, jitter: 20.0), (start: 26_000.0, jitter: 0.0), (start: 26_000.0, jitter: 20.0),
    ])
    func sixKilometres(start: Double, jitter: Double) async throws {
        let points = try Self.stroke(from: start, length: 6000, jitter: jitter, seed: 61)
        var editor = RouteEditor()
        editor.addStroke(points)
        #expect((4...7).contains(editor.plan.handles.count), "\(editor.plan.handles.count) handles")
        let osm = try testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf")
        _ = try await RouteWorkflow.resolve(&editor, engine: EngineSettings(kind: .embedded, osm: osm))
        #expect(editor.plan.legs.allSatisfy { $0.state == .road })
        #expect(abs(editor.totals.distance - 6000) < 0.03 * 6000, "the roads add up to \(editor.totals.distance) m for 6,000 m drawn")
        for i in editor.plan.legs.indices {
            #expect(!editor.findings(forLeg: i).contains { if case .loopsBack = $0 { true } else { false } }, "leg \(i + 1) loops back")
        }
    }

    @Test("a second stroke starting within 50 m of the last handle continues from it; one starting farther is joined by a leg")
    func continuing() throws {
        var editor = RouteEditor()
        editor.addStroke(try Self.stroke(from: 3000, length: 3000, jitter: 20, seed: 7))
        let last = try #require(editor.plan.handles.last).coordinate
        // 30 m on along the road: within the 50 m, so it continues.
        var next = try Self.stroke(from: 6030, length: 3000, jitter: 0, seed: 8)
        #expect(last.distance(to: next[0]) < editor.configuration.continueStrokeDistance)
        let before = editor.plan.handles.count
        editor.addStroke(next)
        #expect(editor.plan.legs[before - 1].stroke?.first == next[0], "the first new leg runs from the last handle along the stroke")
        // 500 m further on: a leg with no stroke joins the two.
        next = try Self.stroke(from: 9500, length: 2000, jitter: 0, seed: 9)
        let joined = editor.plan.handles.count
        editor.addStroke(next)
        #expect(editor.plan.legs[joined - 1].stroke == nil && editor.plan.handles[joined].coordinate == next[0])
    }
}
