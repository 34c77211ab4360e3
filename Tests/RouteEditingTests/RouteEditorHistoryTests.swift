import Foundation
import Geo
import Model
import RouteEditing
import Testing

/// The editor's history stored and given back: an editor reopened from its plan and its history
/// behaves as the one that was stored.
@Suite("Route editor: the history is stored and given back")
struct RouteEditorHistoryTests {
    /// Through JSON, as a draft file holds it.
    func roundTrip(_ e: RouteEditor) throws -> RouteEditor {
        let plan = try JSONDecoder().decode(RoutePlan.self, from: JSONEncoder().encode(e.plan))
        let history = try JSONDecoder().decode(RouteEditor.History.self, from: JSONEncoder().encode(e.history))
        return try RouteEditor(plan: plan, history: history)
    }

    @Test("a reopened editor undoes and redoes the same named steps")
    func stepsSurvive() async throws {
        var e = editor([(0, 0), (1000, 0), (2000, 0)])
        await e.resolve(using: FakeEngine(), concurrency: 2)
        e.moveHandle(1, to: editorGrid(1000, 300))
        e.removeHandle(2)
        e.undo()
        var reopened = try roundTrip(e)
        #expect(reopened.plan == e.plan)
        #expect(reopened.undoName == "Move handle 2")
        #expect(reopened.redoName == "Remove handle 3")
        #expect(reopened.history.undoNames == ["Add handle 1", "Add handle 2", "Add handle 3", "Move handle 2"])
        reopened.redo()
        e.redo()
        #expect(reopened.plan == e.plan)
        reopened.undo(); reopened.undo()
        e.undo(); e.undo()
        #expect(reopened.plan == e.plan)
    }

    @Test("roads already found are kept in the stored history: undo after reopening asks nothing")
    func roadsSurvive() async throws {
        var e = editor([(0, 0), (1000, 0), (2000, 0)])
        let engine = FakeEngine()
        await e.resolve(using: engine, concurrency: 2)
        e.moveHandle(1, to: editorGrid(1000, 300))
        await e.resolve(using: engine, concurrency: 2)
        var reopened = try roundTrip(e)
        engine.forget()
        reopened.undo()
        #expect(reopened.plan.legs.allSatisfy { $0.state == .road })
        await reopened.resolve(using: engine, concurrency: 2)
        #expect(engine.requests.isEmpty)
        reopened.setMode(.cycle)
        await reopened.resolve(using: engine, concurrency: 2)
        #expect(engine.requests.count == 2, "a mode never asked before is asked")
    }

    @Test("a leg that waited for the server still waits after reopening")
    func waitingSurvives() async throws {
        var e = editor([(0, 0), (1000, 0)])
        await e.resolve(using: FakeEngine { _, _, _ in throw RoutingError.serverError("HTTP 500") }, concurrency: 1)
        let reopened = try roundTrip(e)
        #expect(reopened.plan.legs[0].state == .serverError("HTTP 500"))
        #expect(reopened.pendingRequests().isEmpty, "nothing is asked again before retry")
    }

    @Test("two saves of the same editor give the same bytes")
    func stableBytes() async throws {
        var e = editor([(0, 0), (1000, 0), (2000, 0), (3000, 0)])
        await e.resolve(using: FakeEngine(), concurrency: 3)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(try encoder.encode(e.history) == encoder.encode(roundTrip(e).history))
    }

    @Test("keeping the newest steps drops the oldest, and what is kept still undoes")
    func trimmed() throws {
        var e = editor([(0, 0), (1000, 0), (2000, 0), (3000, 0)], kind: .straight)
        var history = e.history
        history.keepNewest(2)
        #expect(history.undoNames == ["Add handle 3", "Add handle 4"])
        var reopened = try RouteEditor(plan: e.plan, history: history)
        reopened.undo(); reopened.undo()
        e.undo(); e.undo()
        #expect(reopened.plan == e.plan)
        #expect(reopened.undoName == nil)
    }

    @Test("a step that does not fit the plan is refused with its field, not trapped on")
    func misfitRefused() throws {
        let e = editor([(0, 0), (1000, 0), (2000, 0)], kind: .straight)
        let shorter = editor([(0, 0)], kind: .straight)
        #expect(throws: RouteEditor.HistoryError.self) { try RouteEditor(plan: shorter.plan, history: e.history) }
        do {
            _ = try RouteEditor(plan: shorter.plan, history: e.history)
        } catch {
            #expect(error.field.hasPrefix("history.undo[2]"), "\(error)")
        }
    }

    @Test("a plan with a leg count that does not match its handles is refused")
    func planMismatchRefused() throws {
        var plan = editor([(0, 0), (1000, 0), (2000, 0)], kind: .straight).plan
        plan.legs.removeLast()
        #expect(throws: RouteEditor.HistoryError.self) { try RouteEditor(plan: plan, history: RouteEditor.History()) }
    }
}
