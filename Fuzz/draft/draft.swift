// The route draft decoder (Workflows.RouteDraft.decode: the version, the book's id, the plan, and
// the history checked step by step against the plan), then what a command does with a draft that
// read: every undo and every redo, the route's line and totals, and encoding it again to save it.
// None of it may trap.
import Foundation
import Workflows

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard var draft = try? RouteDraft.decode(fuzzData(bytes, size), fileName: "fuzz.draft.json") else { return 0 }
    while draft.editor.undoName != nil { draft.editor.undo() }
    while draft.editor.redoName != nil { draft.editor.redo() }
    _ = draft.editor.line()
    _ = draft.editor.totals
    _ = draft.editor.messages()
    _ = try? draft.encode()
    return 0
}
