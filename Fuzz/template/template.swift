// The page template decoder and its range checks (Layout.TemplateFile.decode).
import Foundation
import Layout

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? TemplateFile.decode(fuzzData(bytes, size), fileName: "fuzz.json")
    return 0
}
