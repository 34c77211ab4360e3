import Foundation
import Geo
import Model

/// The book's route cut where the way it runs changes: along roads, in a straight line, or as a
/// stroke was drawn. The cover map draws each kind its own way, and its legend names the kinds the
/// map shows (`Legend.entries(for:)`).
public enum RouteStretches {
    /// A run of the route's points that all run one way. Neighbouring stretches share the point
    /// where one ends and the next begins.
    public struct Stretch: Sendable, Equatable {
        /// How the stretch runs: `.road` along the roads (and for a route from a track), `.straight`
        /// in a straight line between two handles, `.asDrawn` along a stroke drawn by hand.
        public var kind: LegKind
        /// Indices into the route's points, the first and the last included.
        public var points: ClosedRange<Int>

        public init(kind: LegKind, points: ClosedRange<Int>) {
            self.kind = kind
            self.points = points
        }
    }

    /// Within this many degrees of latitude and longitude (about a metre) a route point is the
    /// handle's own point: the route through handles is the legs' lines joined at the handles.
    static let handleTolerance: Degrees = 1e-5

    /// The stretches of `book`'s route, in route order; one `.road` stretch for a route that is not
    /// drawn through handles, none for a route with no points.
    ///
    /// Each leg of the book's plan gives its points its kind (an as-drawn leg without a stroke of
    /// two points or more runs straight), where the route passes the plan's handles in order, from
    /// its first point to its last; a plan the route does not pass so is not read. A road leg drawn
    /// straight (no road, or used straight while waiting: `Route.straightStretches`) runs straight.
    /// O(route points + handles × stretches).
    public static func of(_ book: Book) -> [Stretch] {
        let points = book.route.points
        guard points.count >= 2 else { return points.isEmpty ? [] : [Stretch(kind: .road, points: 0...0)] }
        // The kind of each segment, from point i to point i + 1.
        var kinds = Array(repeating: LegKind.road, count: points.count - 1)
        if let plan = book.plan, let handles = handleIndices(plan, points) {
            for (i, leg) in plan.legs.enumerated() {
                let kind: LegKind = leg.kind == .asDrawn && (leg.stroke?.count ?? 0) < 2 ? .straight : leg.kind
                for segment in handles[i]..<handles[i + 1] { kinds[segment] = kind }
            }
        }
        if let straight = book.route.straightStretches, !straight.isEmpty {
            var along: Metres = 0
            for segment in kinds.indices {
                let length = points[segment].coordinate.distance(to: points[segment + 1].coordinate)
                let middle = along + length / 2
                if straight.contains(where: { $0.start <= middle && middle <= $0.end }) { kinds[segment] = .straight }
                along += length
            }
        }
        var stretches: [Stretch] = []
        var start = 0
        for segment in 1...kinds.count where segment == kinds.count || kinds[segment] != kinds[start] {
            stretches.append(Stretch(kind: kinds[start], points: start...segment))
            start = segment
        }
        return stretches
    }

    /// The index of the route point at each handle of `plan`, in order, each at or after the one
    /// before; nil when the plan has no legs, its legs and handles disagree, or the route does not
    /// start at the first handle, pass the others in order and end at the last.
    static func handleIndices(_ plan: RoutePlan, _ points: [RoutePoint]) -> [Int]? {
        guard !plan.legs.isEmpty, plan.handles.count == plan.legs.count + 1 else { return nil }
        var indices: [Int] = []
        var from = 0
        for handle in plan.handles {
            let target = handle.coordinate
            guard let i = (from..<points.count).first(where: {
                abs(points[$0].coordinate.latitude - target.latitude) < handleTolerance
                    && abs(points[$0].coordinate.longitude - target.longitude) < handleTolerance
            }) else { return nil }
            indices.append(i)
            from = i
        }
        guard indices.first == 0, indices.last == points.count - 1 else { return nil }
        return indices
    }
}
