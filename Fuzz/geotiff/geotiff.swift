// GeoTIFF DEMs (Terrain.GeoTIFFDEM through libtiff).
import Foundation
import Terrain

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? GeoTIFFDEM(contentsOf: fuzzFile(fuzzData(bytes, size), named: "fuzz.tif"))
    return 0
}
