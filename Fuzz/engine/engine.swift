// The engine answer decoders (Routing: OSRM, Valhalla's /route and /trace_attributes, GraphHopper).
// The first byte picks the engine and the HTTP status; the rest is the body.
import Foundation
import Geo
import HTTP
import Model
@testable import Routing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = fuzzData(bytes, size)
    guard let selector = data.first else { return 0 }
    let statuses = [200, 200, 200, 400, 404, 429, 500, 204]
    let response = HTTPResponse(status: statuses[Int(selector >> 5)], body: Data(data.dropFirst()))
    switch selector % 4 {
    case 0:
        _ = try? OSRMEngine.leg(from: response, exchange: EngineExchange(engine: "OSRM", mode: .drive))
    case 1:
        _ = try? ValhallaEngine.road(from: response, exchange: EngineExchange(engine: "Valhalla", mode: .drive))
    case 2:
        let line = [Coordinate(latitude: 42.5063, longitude: 1.5218), Coordinate(latitude: 42.5085, longitude: 1.5265)]
        _ = try? ValhallaEngine.junctions(from: response, along: line, mode: .drive,
                                         exchange: EngineExchange(engine: "Valhalla", mode: .drive))
    default:
        _ = try? GraphHopperEngine.leg(from: response, exchange: EngineExchange(engine: "GraphHopper", mode: .drive))
    }
    return 0
}
