// The engine answers (Routing: OSRM, Valhalla's /route and /trace_attributes, GraphHopper),
// through each engine's public `route` with a client that answers every request with the input:
// the same path a real answer takes (status, the engine's own refusals, decoding, junctions).
// The first byte picks the engine and the HTTP status; the rest is the body.
import Foundation
import Geo
import HTTP
import Model
import Routing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = fuzzData(bytes, size)
    guard let selector = data.first else { return 0 }
    let statuses = [200, 200, 200, 400, 404, 429, 500, 204]
    let client = CannedClient(response: HTTPResponse(status: statuses[Int(selector >> 5)], body: Data(data.dropFirst())))
    let base = URL(string: "http://127.0.0.1:9")!
    let engine: any RoutingEngine = switch selector % 3 {
    case 0: OSRMEngine(client: client, baseURL: base)
    case 1: ValhallaEngine(client: client, baseURL: base)
    default: GraphHopperEngine(client: client, baseURL: base, apiKey: nil)
    }
    let start = Coordinate(latitude: 42.5063, longitude: 1.5218), end = Coordinate(latitude: 42.5085, longitude: 1.5265)
    blocking { _ = try? await engine.route(from: start, to: end, mode: .drive) }
    return 0
}
