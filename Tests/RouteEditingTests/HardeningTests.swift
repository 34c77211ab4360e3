import Foundation
import Geo
import Model
@testable import RouteEditing
import Testing
import TestSupport

@Suite("Big plans in the route editor")
struct RouteEditingHardeningTests {
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
