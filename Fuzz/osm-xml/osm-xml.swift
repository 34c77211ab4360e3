// The OSM XML reader (OSM.OSMData.read(xml:)), plain and through gzip (a .osm.gz file) when the input
// starts with gzip's magic bytes; the road graph built from what it read, and which way its
// roundabouts turn (the side traffic keeps to).
import Foundation
import OSM

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = fuzzData(bytes, size)
    let read = data.starts(with: [0x1f, 0x8b]) ? try? OSMData.read(contentsOf: fuzzFile(data, named: "fuzz.osm.gz"))
        : try? OSMData.read(xml: data, fileName: "fuzz.osm")
    if let read { _ = OSMGraph.build(from: read).ringTurning().summary }
    return 0
}
