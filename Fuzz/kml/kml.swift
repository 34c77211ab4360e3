// The KML reader (Formats.KMLReader) on any bytes, and the KMZ reader (libzip through Archive) when
// the input starts with a zip's signature: each must return a route file or throw, never trap.
import Foundation
import Formats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = fuzzData(bytes, size)
    let file: RouteFile?
    if data.starts(with: [0x50, 0x4B]) {
        file = try? KMZFileReader.read(contentsOf: fuzzFile(data, named: "fuzz.kmz"))
    } else {
        file = try? KMLReader.read(data: data, fileName: "fuzz.kml")
    }
    _ = try? file?.document.routePoints(minimumPoints: 2)
    return 0
}
