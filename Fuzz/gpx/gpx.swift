// The GPX reader (Formats.GPXReader) on any bytes: it must return a document or throw, never trap.
// The same bytes go first through every route format's sniffing (`recognises(head:)`, `XMLHead`),
// as `build` does before it chooses a reader.
import Foundation
import Formats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = fuzzData(bytes, size)
    for reader in RouteFormats.readers { _ = reader.recognises(head: data.prefix(RouteFormats.sniffLength)) }
    _ = try? GPXReader.read(data: data, fileName: "fuzz.gpx")
    return 0
}
