// The prepared road graph reader (OSM.PreparedGraph on a .roadbook-graph file): the header, then
// the whole graph and a region round the corpus's nodes; on the whole graph, which way its
// roundabouts turn (the side traffic keeps to).
import Foundation
import Geo
import OSM

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let graph = try? PreparedGraph(contentsOf: fuzzFile(fuzzData(bytes, size), named: "fuzz.roadbook-graph")) else { return 0 }
    if let whole = try? graph.graph() { _ = whole.ringTurning().summary }
    _ = try? graph.graph(in: RouteCorridor(route: [Coordinate(latitude: 42.5063, longitude: 1.5218),
                                                   Coordinate(latitude: 42.5101, longitude: 1.5301)]))
    return 0
}
