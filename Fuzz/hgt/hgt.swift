// SRTM tiles (Terrain.HGTTile): a zip (libzip) when the input starts with "PK", else a .hgt file;
// a tile that loads is asked for a height.
import Foundation
import Geo
import Terrain

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = fuzzData(bytes, size)
    let name = data.starts(with: [0x50, 0x4b]) ? "N42E001.hgt.zip" : "N42E001.hgt"
    if let tile = try? HGTTile(contentsOf: fuzzFile(data, named: name)) {
        _ = tile.height(at: Coordinate(latitude: 42.5, longitude: 1.5))
    }
    return 0
}
