import Foundation
import Terrain

extension HGTTile {
    /// Writes the tile as a plain `.hgt` file (big-endian Int16, north row first), for tests that
    /// need a tile folder on disk.
    public func write(to url: URL) throws {
        var data = Data(count: samples.count * 2)
        data.withUnsafeMutableBytes { raw in
            for (i, v) in samples.enumerated() {
                raw.storeBytes(of: v.bigEndian, toByteOffset: 2 * i, as: Int16.self)
            }
        }
        try data.write(to: url)
    }
}
