// The elevation service answers (Terrain: OpenTopoData, Open-Elevation, Valhalla /height), through
// a client that answers every request with the input. The first byte picks the service and the
// number of points asked.
import Foundation
import Geo
import HTTP
import Terrain

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = fuzzData(bytes, size)
    guard let selector = data.first else { return 0 }
    let client = CannedClient(response: HTTPResponse(status: selector & 0x80 == 0 ? 200 : 500, body: Data(data.dropFirst())))
    let count = 1 + Int(selector >> 2 & 0x1f)
    let points = (0..<count).map { Coordinate(latitude: 42.5 + Double($0) * 0.001, longitude: 1.5) }
    let base = URL(string: "http://127.0.0.1:9")!
    let source: any ElevationSource
    switch selector % 3 {
    case 0: source = OpenTopoData(client: client, baseURL: base)
    case 1: source = OpenElevation(client: client, baseURL: base)
    default: source = ValhallaHeight(client: client, baseURL: base)
    }
    blocking { _ = try? await source.elevations(at: points) }
    return 0
}
