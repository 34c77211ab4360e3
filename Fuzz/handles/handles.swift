// The handles readers (Formats.HandlesFile): GeoJSON, typed coordinates and GPX, the reader chosen
// by the first byte so one corpus reaches all three.
import Foundation
import Formats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = fuzzData(bytes, size)
    switch data.first {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
        _ = try? HandlesFile.fromGeoJSON(data, fileName: "fuzz.geojson")
    case UInt8(ascii: "<"):
        _ = try? HandlesFile.read(contentsOf: fuzzFile(data, named: "fuzz.gpx"))
    default:
        _ = try? HandlesFile.fromText(String(decoding: data, as: UTF8.self), fileName: "fuzz.txt")
    }
    return 0
}
