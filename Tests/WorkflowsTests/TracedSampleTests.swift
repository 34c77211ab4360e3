import Foundation
import Geo
import Model
import RouteEditing
import Testing
import TestSupport
import Workflows

/// The sample book (samples/andorra-envalira.gpx, 38.9 km with 14 waypoints) traced into handles,
/// as `roadbook handles` starts a drawing of a book from a track.
@Suite("Tracing the sample book into handles")
struct TracedSampleTests {
    static let sample = packageRoot().appendingPathComponent("samples/andorra-envalira.gpx")

    @Test("at most 40 handles in all, waypoints counted, about route/39 apart; the drawing is the book's route, each waypoint's words at its handle")
    func sampleTraced() async throws {
        let book = try await buildBook(BuildRequest(track: Self.sample, turns: false), log: MessageList()).book
        let editor = RouteDraft.startingEditor(for: book)
        let handles = editor.plan.handles
        let route = Polyline(book.route.coordinates).length
        let waypoints = book.notes.filter { ($0.kind == .waypoint || $0.kind == .checkpoint) && $0.placement == .onRoute }
        #expect(waypoints.count == 14)
        #expect(handles.count <= 40 && handles.count >= 38, "\(handles.count) handles")
        #expect(handles.filter { $0.origin == .waypoint }.count == waypoints.count)
        let distances = editor.handleDistances()
        let gaps = zip(distances, distances.dropFirst()).map { $1 - $0 }
        let mean = route / Double(handles.count - 1)
        #expect(abs(mean - route / 39) < 0.05 * route / 39, "mean spacing \(mean) m against \(route / 39) m")
        #expect(gaps.max()! < 1.5 * route / 39, "no gap far over the spacing: \(gaps.max()!) m")
        #expect(abs(editor.totals.distance - route) < 1, "the drawing is \(editor.totals.distance) m, the route \(route) m")
        // Each waypoint's words come back at its handle, where the route passes the waypoint.
        for note in editor.handleNotes() {
            let row = try #require(waypoints.first { $0.marker == note.note.marker })
            #expect(abs(note.distanceAlong - row.distanceAlong) < 1, "\(row.marker ?? row.text) at \(note.distanceAlong) m, its row at \(row.distanceAlong) m")
        }
        #expect(editor.handleNotes().count == waypoints.count)
    }
}
