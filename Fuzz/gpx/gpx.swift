// The GPX reader (Formats.GPXReader) on any bytes: it must return a document or throw, never trap.
import Foundation
import Formats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? GPXReader.read(data: fuzzData(bytes, size), fileName: "fuzz.gpx")
    return 0
}
