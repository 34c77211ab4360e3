import Foundation
import Geo
import Model
import RouteEditing

/// One change to a drawn route, as a person asks for it: handles and legs numbered from 1 as the
/// route shows them (leg N runs from handle N to handle N + 1). Every edit but `undo`, `redo` and
/// `retry` is one undo step, named by the editor ("Remove handle 3").
public enum HandleEdit: Sendable, Equatable {
    /// A handle at `coordinate`, at the end or, with `position`, becoming handle `position`; with
    /// `name` when it is known (a place found by name).
    case add(Coordinate, position: Int?, origin: Handle.Origin, note: HandleNote?, name: String? = nil)
    case move(handle: Int, to: Coordinate)
    case remove(handle: Int)
    /// A handle splitting the leg, where given, else at the middle of the leg's line.
    case split(leg: Int, at: Coordinate?)
    case reorder(handle: Int, to: Int)
    case reverse
    case kind(leg: Int, LegKind)
    case mode(TravelMode)
    /// Handle N carries a course note, placed exactly where the route reaches it at the next Apply
    /// (new words on a handle whose note was deleted from the book make it a note again).
    case note(handle: Int, HandleNote)
    /// Handle N carries no note any more: a plain handle.
    case unnote(handle: Int)
    /// The kind new legs take (a setting kept with the drawing, not an undo step of its own).
    case newLegs(LegKind)
    /// Every handle and leg goes, as one step: the book keeps its route until an Apply.
    case clear
    case undo
    case redo
    /// Legs waiting for the server are asked again (not an undo step).
    case retry

    /// Makes the change on `editor`.
    /// - Throws: `WorkflowError` for a handle or leg the route does not have, or an undo or redo
    ///   with nothing to take back or make again; the editor is then unchanged.
    public func apply(to editor: inout RouteEditor) throws {
        let handles = editor.plan.handles.count, legs = editor.plan.legs.count
        func handle(_ n: Int, upTo last: Int = handles) throws -> Int {
            guard (1...max(1, last)).contains(n), last > 0 else {
                throw WorkflowError(last == 0 ? "there is no handle \(n): the route has no handles"
                                    : "there is no handle \(n): the route has handles 1 to \(last)")
            }
            return n - 1
        }
        func leg(_ n: Int) throws -> Int {
            guard legs > 0, (1...legs).contains(n) else {
                throw WorkflowError(legs == 0 ? "there is no leg \(n): the route has no legs (it needs two handles)"
                                    : "there is no leg \(n): the route has legs 1 to \(legs)")
            }
            return n - 1
        }
        switch self {
        case .add(let coordinate, let position, let origin, let note, let name):
            let at = try position.map { try handle($0, upTo: handles + 1) } ?? handles
            editor.insertHandle(at: coordinate, position: at, origin: origin, note: note)
            if let name { editor.nameHandles { $0 == coordinate ? name : nil } }
        case .move(let n, let coordinate):
            editor.moveHandle(try handle(n), to: coordinate)
        case .remove(let n):
            editor.removeHandle(try handle(n))
        case .split(let n, let coordinate):
            let i = try leg(n)
            let line = Polyline(editor.legLine(i))
            editor.splitLeg(i, at: coordinate ?? line.coordinate(atDistance: line.length / 2))
        case .reorder(let n, let m):
            editor.reorderHandle(from: try handle(n), to: try handle(m))
        case .reverse:
            editor.reverse()
        case .kind(let n, let kind):
            editor.setLegKind(try leg(n), to: kind)
        case .mode(let mode):
            editor.setMode(mode)
        case .note(let n, let note):
            guard !note.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || note.marker != nil else {
                throw WorkflowError("a handle's note needs words or a marker")
            }
            editor.setHandleNote(try handle(n), note)
        case .unnote(let n):
            let i = try handle(n)
            guard editor.plan.handles[i].note != nil else { throw WorkflowError("handle \(n) has no note to take off") }
            editor.removeHandleNote(i)
        case .newLegs(let kind):
            editor.setDefaultLegKind(kind)
        case .clear:
            guard !editor.plan.handles.isEmpty else { throw WorkflowError("the drawing has no handles: nothing to clear") }
            editor.clearHandles()
        case .undo:
            guard editor.undoName != nil else { throw WorkflowError("nothing to undo") }
            editor.undo()
        case .redo:
            guard editor.redoName != nil else { throw WorkflowError("nothing to redo") }
            editor.redo()
        case .retry:
            editor.retry()
        }
    }

    /// Whether the edit adds a handle (`add`, `split`): the route's stop limit is checked after it.
    public var addsHandle: Bool {
        switch self {
        case .add, .split: true
        default: false
        }
    }

    /// Whether the edit goes through the editor's history as a new step (not undo, redo or retry).
    public var isStep: Bool {
        switch self {
        case .undo, .redo, .retry: false
        default: true
        }
    }
}
