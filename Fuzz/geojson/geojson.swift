// The GeoJSON route reader (Formats.GeoJSONRouteReader, over its own JSON parser) on any bytes: it
// must return a route file or throw, never trap or exhaust the stack.
import Foundation
import Formats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let file = try? GeoJSONRouteReader.read(data: fuzzData(bytes, size), fileName: "fuzz.geojson")
    _ = try? file?.document.routePoints(minimumPoints: 2)
    return 0
}
