import Foundation
import Geo
import Guidance
import Model
import OSM
import Testing
import TestSupport
import Workflows

/// OSRM's scenarios with a junction handler switched off: the kind of junction it decides is then
/// read by the handlers after it, as before its rule existed.
@Suite("OSRM's guidance scenarios with one junction handler switched off")
struct GuidanceHandlerTests {
    /// The rows of `route` on `map` with `handlers`, from the junctions `RouteTurns` finds, and the trace.
    func rows(_ map: ScenarioMap, _ route: String,
              handlers: [JunctionHandler] = TurnDetector.handlers) -> (rows: [String], trace: TurnTrace) {
        let line = map.ascii.route(Array(route)).line
        let junctions = RouteTurns.junctions(along: line, graph: map.graph, mode: .drive).junctions
        let trace = TurnTrace()
        let found = TurnDetector(handlers: handlers).maneuvers(in: RoadGeometry(line: line, junctions: junctions), trace: trace)
        return (found.map { ScenarioCheck.describe($0, on: map) }, trace)
    }

    func without(_ name: String) -> [JunctionHandler] { TurnDetector.handlers.filter { $0.name != name } }

    @Test("with every handler, the rows are those RouteTurns finds")
    func sameAsRouteTurns() {
        for (map, route) in [(Scenarios.roundaboutWithService(), "abcd"), (Scenarios.slipRoadSplit, "abc"), (Scenarios.forkSameClass, "abc")] {
            let line = map.ascii.route(Array(route)).line
            let found = RouteTurns.maneuvers(along: line, graph: map.graph, mode: .drive).maneuvers
            #expect(rows(map, route).rows == found.map { ScenarioCheck.describe($0, on: map) }, "\(route)")
        }
    }

    @Test("with the roundabout handler off, a roundabout gets no roundabout row")
    func roundaboutOff() {
        let map = Scenarios.roundaboutWithService()
        let on = rows(map, "abcd")
        #expect(on.rows == ["Roundabout, 1st exit onto cd at b"], "\(on.rows)")
        #expect(on.trace.decisions.contains { $0.pass == "collapse roundabouts" && $0.handler == "roundabout" })
        let off = rows(map, "abcd", handlers: without("roundabout"))
        #expect(!off.rows.contains { $0.hasPrefix("Roundabout") }, "\(off.rows)")
        #expect(!off.trace.decisions.contains { $0.pass == "collapse roundabouts" })
    }

    @Test("with the slip-road handler off, a slip road splitting is the obvious road going on, as before that rule: no row")
    func slipRoadOff() {
        let on = rows(Scenarios.slipRoadSplit, "abc")
        #expect(on.rows == ["Straight on at b"])
        #expect(on.trace.decisions.map(\.handler) == ["slip road"])
        let off = rows(Scenarios.slipRoadSplit, "abc", handlers: without("slip road"))
        #expect(off.rows.isEmpty, "\(off.rows)")
        #expect(off.trace.decisions.map(\.handler) == ["obvious road"])
        #expect(off.trace.decisions.first?.verdict.hasPrefix("no row: stays on the obvious road") == true)
    }
}
