// The undo file reader of Apply (Formats.BeforeApplyFile.decode, with the previous book's checks),
// then encoding the record again as apply writes it: neither may trap.
import Foundation
import Formats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let record = try? BeforeApplyFile.decode(fuzzData(bytes, size), fileName: "fuzz.before-apply.json") {
        _ = try? BeforeApplyFile.encode(record)
    }
    return 0
}
