import Foundation
import OSM
import Routing

/// The commands' extract is the one the embedded router reads regions of (`ExtractRouter`): its
/// prepared graph looked up once, made again when out of date, and read region by region.
extension MapExtract: RegionExtract {
    /// `refreshPrepared(log:)`, noting nothing.
    public func preparedForRegions() throws -> PreparedGraph? {
        try refreshPrepared()
    }

    /// `graph(in:prepared:log:)`, noting nothing.
    public func regionGraph(in corridor: RouteCorridor?, prepared: inout PreparedGraph?) throws -> RoadGraph {
        try graph(in: corridor, prepared: &prepared)
    }
}
