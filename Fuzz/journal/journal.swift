// The journal reader (Formats.BookJournalFile.decode), then every step's patches taken back and
// made again on a small text and on nothing (as undo and redo take them), and the journal encoded
// again as a change writes it: none may trap.
import Foundation
import Formats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let journal = try? BookJournalFile.decode(fuzzData(bytes, size), fileName: "fuzz.journal.json") else { return 0 }
    let texts = ["", "{\n  \"notes\" : [\n\n  ],\n  \"title\" : \"x\"\n}\n"]
    for step in journal.undo + journal.redo {
        for change in [step.book, step.draft].compactMap({ $0 }) {
            for text in texts {
                _ = change.patch.apply(to: text)
                _ = change.patch.revert(text)
            }
        }
    }
    _ = try? BookJournalFile.encode(journal)
    return 0
}
