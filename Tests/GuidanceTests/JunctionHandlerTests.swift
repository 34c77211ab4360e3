import Foundation
import Geo
import Guidance
import Model
import Testing
import TestSupport

@Suite("The junction handlers: one per kind of junction, values a caller can change")
struct JunctionHandlerTests {
    typealias F = TurnFixtures

    /// The rows of `junctions` with `handlers` (or `passes`), and the trace of what decided each.
    func detect(_ junctions: [Junction], handlers: [JunctionHandler] = TurnDetector.handlers,
                passes: [TurnDetector.Pass] = TurnDetector.passes) -> (rows: [Maneuver], trace: TurnTrace) {
        let trace = TurnTrace()
        let rows = TurnDetector(passes: passes, handlers: handlers).maneuvers(in: RoadGeometry(line: [], junctions: junctions), trace: trace)
        return (rows, trace)
    }

    func without(_ names: String...) -> [JunctionHandler] { TurnDetector.handlers.filter { !names.contains($0.name) } }

    /// Each junction's handlers, in route order: the handlers that decided it.
    func handlers(_ trace: TurnTrace) -> [[String]] { trace.byJunction.map { $0.compactMap(\.handler) } }

    @Test("the handlers in the order they are asked, each kind of junction once")
    func order() {
        #expect(TurnDetector.handlers.map(\.name) == [
            "roundabout",
            "joining a main road", "only way on", "closed road ahead", "turning onto a main road",
            "straighter road", "Y junction", "name goes on", "mistakable bend", "crossing a main road", "slip road",
            "straight on past a road", "obvious road",
            "fork", "leaving the road ahead", "end of road", "bend", "straight on", "turn"])
        #expect(Set(TurnDetector.handlers.map(\.name)).count == TurnDetector.handlers.count)
        #expect(TurnDetector().handlers.map(\.name) == TurnDetector.handlers.map(\.name))
    }

    @Test("every threshold a handler names is a threshold of TurnDetector.Configuration")
    func thresholdsAreNamed() {
        let fields = Set(Mirror(reflecting: TurnDetector.Configuration()).children.compactMap(\.label))
        for handler in TurnDetector.handlers {
            for name in handler.thresholds { #expect(fields.contains(name), "\(handler.name): \(name)") }
        }
    }

    @Test("the trace names the handler that decided each junction")
    func traceNamesTheHandler() {
        // Each junction alone, 500 m along, and the kind of junction it is.
        let kinds: [(junction: Junction, handler: String)] = [
            (F.junction(500, heading: 90, exit: 0, sides: [90, 180]), "leaving the road ahead"),   // off the road ahead, left
            (F.junction(500, heading: 90, exit: 90, sides: [60]), "straight on past a road"),      // a road 30° off could be taken
            (F.junction(500, heading: 0, exit: 330, sides: [30]), "fork"),                         // two equal roads ahead
            (F.junction(500, heading: 0, exit: 90, sides: [270]), "end of road"),                  // nothing ahead
            (F.junction(500, heading: 0, exit: 10, sides: [270]), "obvious road"),                 // the road bends 10°
        ]
        for (junction, handler) in kinds {
            #expect(handlers(detect([junction]).trace) == [[handler]], "\(junction.spokes.map(\.bearing))")
        }
        let ring = detect(F.roundabout())
        #expect(ring.rows.map(\.kind) == [.roundabout])
        #expect(handlers(ring.trace) == Array(repeating: ["roundabout"], count: 4))
        // Only the passes that ask handlers name one.
        #expect(ring.trace.decisions.allSatisfy { ($0.handler != nil) == ["collapse roundabouts", "classify junctions"].contains($0.pass) })
    }

    @Test("with the roundabout handler off, a roundabout gets no roundabout row: its nodes are junctions like any other")
    func roundaboutOff() {
        let off = detect(F.roundabout(), handlers: without("roundabout"))
        #expect(!off.rows.contains { $0.kind == .roundabout }, "\(off.rows.map(Instructions.english.text(for:)))")
        #expect(!off.trace.decisions.contains { $0.pass == "collapse roundabouts" })
        #expect(off.trace.decisions.allSatisfy { $0.handler != "roundabout" })
        // The same as leaving out the pass that asks it.
        let withoutPass = detect(F.roundabout(), passes: TurnDetector.passes.filter { $0.name != "collapse roundabouts" })
        #expect(withoutPass.rows == off.rows)
    }

    @Test("a handler switched off leaves its junctions to the handlers after it")
    func switchedOff() {
        let fork = [F.junction(1100, heading: 0, exit: 330, sides: [30])]
        #expect(handlers(detect(fork).trace) == [["fork"]])
        let noFork = detect(fork, handlers: without("fork"))
        #expect(handlers(noFork.trace) == [["leaving the road ahead"]])
        #expect(noFork.rows.map(\.kind) == [.turn])
        // With none left that can take it, a junction gets no row.
        let none = detect(fork, handlers: without("fork", "leaving the road ahead", "end of road", "straight on", "turn"))
        #expect(none.rows.isEmpty)
        #expect(none.trace.decisions.map(\.verdict) == ["no row: no handler takes this junction"])
    }

    @Test("a caller's handler, first in the list, decides before the standard ones")
    func callersHandler() {
        let everyJunction = JunctionHandler(name: "every junction a row", canProcess: { _ in true }, decide: { reading in
            var m = reading.step
            m.kind = .turn
            return .row(m, "a row at every junction")
        })
        let bend = [F.junction(1700, heading: 0, exit: 10, sides: [270])]
        #expect(detect(bend).rows.isEmpty)
        let (rows, trace) = detect(bend, handlers: [everyJunction] + TurnDetector.handlers)
        #expect(rows.map(\.kind) == [.turn])
        #expect(handlers(trace) == [["every junction a row"]])
    }
}
