// The OSM PBF reader (OSM.OSMData.read on a .osm.pbf file).
import Foundation
import OSM

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? OSMData.read(contentsOf: fuzzFile(fuzzData(bytes, size), named: "fuzz.osm.pbf"))
    return 0
}
