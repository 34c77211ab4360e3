// The OSM XML reader (OSM.OSMData.read(xml:)), plain and through gzip (a .osm.gz file) when the input
// starts with gzip's magic bytes.
import Foundation
import OSM

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = fuzzData(bytes, size)
    if data.starts(with: [0x1f, 0x8b]) {
        _ = try? OSMData.read(contentsOf: fuzzFile(data, named: "fuzz.osm.gz"))
    } else {
        _ = try? OSMData.read(xml: data, fileName: "fuzz.osm")
    }
    return 0
}
