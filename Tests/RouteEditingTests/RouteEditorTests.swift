import Foundation
import Geo
import Model
import RouteEditing
import Testing
import TestSupport

private let g = editorGrid

private func asked(_ engine: FakeEngine) -> [String] {
    engine.requests.map { r in
        let a = metres(r.from), b = metres(r.to)
        return "\(Int(a.x.rounded())),\(Int(a.y.rounded()))→\(Int(b.x.rounded())),\(Int(b.y.rounded()))"
    }.sorted()
}

@Suite("Route editor: operations ask only the legs they change")
struct RouteEditorAskingTests {
    @Test("adding handles: the first makes no leg, each next one a road leg asked once")
    func addHandles() async {
        var e = editor([(0, 0)])
        #expect(e.plan.legs.isEmpty)
        #expect(e.undoName == "Add handle 1")
        e.addHandle(at: g(1000, 0))
        #expect(e.plan.legs.count == 1)
        #expect(e.plan.legs[0].state == .asked)
        #expect(!e.isComplete)
        let engine = FakeEngine()
        await e.resolve(using: engine, concurrency: 4)
        #expect(asked(engine) == ["0,0→1000,0"])
        #expect(e.plan.legs[0].state == .road)
        #expect(e.isComplete)
        await e.resolve(using: engine, concurrency: 4)
        #expect(engine.requests.count == 1, "an answered leg is never asked again")
    }

    @Test("moving a handle asks exactly the two legs that meet it")
    func move() async {
        var e = editor([(0, 0), (1000, 0), (2000, 0), (3000, 0)])
        let engine = FakeEngine()
        await e.resolve(using: engine, concurrency: 2)
        #expect(engine.requests.count == 3)
        engine.forget()
        e.moveHandle(1, to: g(1000, 200))
        #expect(e.undoName == "Move handle 2")
        await e.resolve(using: engine, concurrency: 2)
        #expect(asked(engine) == ["0,0→1000,200", "1000,200→2000,0"])
    }

    @Test("moving the last handle asks only its one leg")
    func moveEnd() async {
        var e = editor([(0, 0), (1000, 0), (2000, 0)])
        let engine = FakeEngine()
        await e.resolve(using: engine, concurrency: 2)
        engine.forget()
        e.moveHandle(2, to: g(2000, 300))
        await e.resolve(using: engine, concurrency: 2)
        #expect(asked(engine) == ["1000,0→2000,300"])
    }

    @Test("removing a middle handle joins its legs into one leg, asked once; removing an end asks nothing")
    func remove() async {
        var e = editor([(0, 0), (1000, 0), (2000, 0), (3000, 0)])
        let engine = FakeEngine()
        await e.resolve(using: engine, concurrency: 2)
        engine.forget()
        e.removeHandle(2)
        #expect(e.undoName == "Remove handle 3")
        #expect(e.plan.handles.count == 3 && e.plan.legs.count == 2)
        await e.resolve(using: engine, concurrency: 2)
        #expect(asked(engine) == ["1000,0→3000,0"])
        engine.forget()
        e.removeHandle(0)
        #expect(e.plan.legs.count == 1)
        await e.resolve(using: engine, concurrency: 2)
        #expect(engine.requests.isEmpty)
    }

    @Test("removing a handle between two drawn legs joins their strokes through it")
    func removeJoinsStrokes() {
        var e = RouteEditor()
        e.setDefaultLegKind(.asDrawn)
        e.addStroke(g.line([(0, 0), (1000, 0), (1000, 1000)]))
        #expect(e.plan.handles.count == 3)
        e.removeHandle(1)
        let stroke = e.plan.legs[0].stroke ?? []
        #expect(stroke.contains(g(1000, 0)))
        #expect(near(Polyline(e.line()).length, 2000, 1))
    }

    @Test("splitting a leg adds a tapped handle there and asks both halves")
    func split() async {
        var e = editor([(0, 0), (2000, 0)])
        let engine = FakeEngine()
        await e.resolve(using: engine, concurrency: 2)
        engine.forget()
        e.splitLeg(0, at: g(1000, 100))
        #expect(e.undoName == "Add handle 2")
        #expect(e.plan.handles.count == 3 && e.plan.handles[1].origin == .tapped)
        await e.resolve(using: engine, concurrency: 2)
        #expect(asked(engine) == ["0,0→1000,100", "1000,100→2000,0"])
    }

    @Test("splitting a drawn leg cuts its stroke at the tap")
    func splitStroke() {
        var e = RouteEditor()
        e.setDefaultLegKind(.asDrawn)
        e.addStroke(g.line([(0, 0), (1400, 0)]))
        e.splitLeg(0, at: g(500, 3))
        #expect(e.plan.legs.count == 2)
        let first = e.plan.legs[0].stroke ?? [], second = e.plan.legs[1].stroke ?? []
        #expect(near(Polyline(first).length, 500, 1) && near(Polyline(second).length, 900, 1))
    }

    @Test("reordering asks only the legs whose ends changed")
    func reorder() async {
        var e = editor([(0, 0), (1000, 0), (2000, 0), (3000, 0)])
        let engine = FakeEngine()
        await e.resolve(using: engine, concurrency: 2)
        engine.forget()
        let ids = e.plan.handles.map(\.id)
        e.reorderHandle(from: 3, to: 1)
        #expect(e.undoName == "Move handle 4 to 2")
        #expect(e.plan.handles.map(\.id) == [ids[0], ids[3], ids[1], ids[2]])
        await e.resolve(using: engine, concurrency: 2)
        #expect(asked(engine) == ["0,0→3000,0", "3000,0→1000,0"], "the leg 2→3 is kept")
    }

    @Test("reversing turns the handles round and asks every road leg again, keeping kinds")
    func reverse() async {
        var e = editor([(0, 0), (1000, 0), (2000, 0), (3000, 0)])
        e.setLegKind(1, to: .straight)
        let engine = FakeEngine()
        await e.resolve(using: engine, concurrency: 2)
        #expect(engine.requests.count == 2)
        engine.forget()
        e.reverse()
        #expect(e.undoName == "Reverse the route")
        #expect(e.plan.legs.map(\.kind) == [.road, .straight, .road])
        #expect(metres(e.plan.handles[0].coordinate).x.rounded() == 3000)
        await e.resolve(using: engine, concurrency: 2)
        #expect(asked(engine) == ["1000,0→0,0", "3000,0→2000,0"])
    }

    @Test("reversing reverses each drawn stroke")
    func reverseStroke() {
        var e = RouteEditor()
        e.setDefaultLegKind(.asDrawn)
        e.addStroke(g.line([(0, 0), (1000, 0)]))
        e.reverse()
        #expect(e.plan.legs[0].stroke?.first == g(1000, 0))
        #expect(e.line().first == g(1000, 0))
    }

    @Test("changing the mode asks every road leg in it; switching back asks nothing")
    func mode() async {
        var e = editor([(0, 0), (1000, 0), (2000, 0)])
        let engine = FakeEngine()
        await e.resolve(using: engine, concurrency: 2)
        engine.forget()
        e.setMode(.cycle)
        #expect(e.undoName == "Change the mode to cycling")
        #expect(e.plan.legs.allSatisfy { $0.state == .asked })
        await e.resolve(using: engine, concurrency: 2)
        #expect(engine.requests.count == 2 && engine.requests.allSatisfy { $0.mode == .cycle })
        engine.forget()
        e.setMode(.drive)
        #expect(e.plan.legs.allSatisfy { $0.state == .road })
        await e.resolve(using: engine, concurrency: 2)
        #expect(engine.requests.isEmpty)
        #expect(e.plan.legs[0].answers.keys.sorted { $0.rawValue < $1.rawValue } == [.cycle, .drive])
    }

    @Test("a leg switched to straight is not asked; switched back to the road it uses the road it had")
    func legKind() async {
        var e = editor([(0, 0), (1000, 0)])
        e.setLegKind(0, to: .straight)
        #expect(e.undoName == "Make leg 1 straight")
        let engine = FakeEngine()
        await e.resolve(using: engine, concurrency: 2)
        #expect(engine.requests.isEmpty)
        #expect(e.plan.legs[0].state == nil)
        e.setLegKind(0, to: .road)
        #expect(e.undoName == "Make leg 1 follow the road")
        await e.resolve(using: engine, concurrency: 2)
        #expect(engine.requests.count == 1)
        e.setLegKind(0, to: .asDrawn)
        e.setLegKind(0, to: .road)
        await e.resolve(using: engine, concurrency: 2)
        #expect(engine.requests.count == 1)
        #expect(e.plan.legs[0].state == .road)
    }

    @Test("requests run concurrently up to the limit, each leg its own request")
    func concurrency() async {
        var e = editor((0...6).map { (Double($0) * 1000, 0) })
        let engine = FakeEngine()
        await e.resolve(using: engine, concurrency: 2)
        #expect(engine.requests.count == 6)
        #expect(engine.largestConcurrency <= 2)
        var wide = editor((0...6).map { (Double($0) * 1000, 0) })
        let wideEngine = FakeEngine()
        await wide.resolve(using: wideEngine, concurrency: 4)
        #expect(wideEngine.largestConcurrency > 1, "the fake overlaps requests, so the limit above is tested")
        var f = editor((0...6).map { (Double($0) * 1000, 0) })
        let serial = FakeEngine()
        await f.resolve(using: serial, concurrency: 1)
        #expect(serial.largestConcurrency == 1)
        #expect(f.plan == e.plan, "the result does not depend on the order answers arrive in")
    }
}

@Suite("Route editor: undo and redo")
struct RouteEditorUndoTests {
    @Test("undo restores the route and asks nothing, since the roads found are kept; redo makes the step again")
    func undoKeepsRoads() async {
        var e = editor([(0, 0), (1000, 0), (2000, 0)])
        let engine = FakeEngine()
        await e.resolve(using: engine, concurrency: 2)
        let before = e.plan
        e.removeHandle(1)
        await e.resolve(using: engine, concurrency: 2)
        engine.forget()
        #expect(e.undoName == "Remove handle 2")
        #expect(e.redoName == nil)
        e.undo()
        #expect(e.plan == before)
        #expect(e.redoName == "Remove handle 2")
        await e.resolve(using: engine, concurrency: 2)
        #expect(engine.requests.isEmpty)
        e.redo()
        #expect(e.plan.handles.count == 2)
        #expect(e.plan.legs[0].state == .road, "the joined leg's road was found before")
        await e.resolve(using: engine, concurrency: 2)
        #expect(engine.requests.isEmpty)
    }

    @Test("a road that arrives after the step it was asked for is kept for the undo")
    func lateRoadKept() async {
        var e = editor([(0, 0), (1000, 0)])
        e.moveHandle(1, to: g(1000, 500))
        let engine = FakeEngine()
        await e.resolve(using: engine, concurrency: 2)
        e.undo()
        #expect(e.plan.legs[0].state == .asked, "the first position was never asked")
        await e.resolve(using: engine, concurrency: 2)
        engine.forget()
        e.redo()
        e.undo()
        await e.resolve(using: engine, concurrency: 2)
        #expect(engine.requests.isEmpty)
    }

    @Test("a new step clears redo; a step that changes nothing is no step")
    func newStepClearsRedo() {
        var e = editor([(0, 0), (1000, 0)])
        e.undo()
        #expect(e.redoName == "Add handle 2")
        e.addHandle(at: g(0, 1000))
        #expect(e.redoName == nil)
        e.setMode(.drive)
        #expect(e.undoName == "Add handle 2")
    }

    @Test("the New legs setting is not undone")
    func defaultKindStays() {
        var e = editor([(0, 0), (1000, 0)])
        e.setDefaultLegKind(.straight)
        e.undo()
        #expect(e.plan.defaultLegKind == .straight)
    }

    @Test("handle notes: put on, changed and taken off, each a named step")
    func handleNotes() {
        var e = editor([(0, 0), (1000, 0), (2000, 0)], kind: .straight)
        e.setHandleNote(1, HandleNote(text: "Cattle grid", marker: "CP1"))
        #expect(e.undoName == "Put a note on handle 2")
        let notes = e.handleNotes()
        #expect(notes.count == 1 && notes[0].handleIndex == 1 && notes[0].note.marker == "CP1")
        #expect(near(notes[0].distanceAlong, 1000))
        e.removeHandleNote(1)
        #expect(e.undoName == "Take the note off handle 2")
        #expect(e.handleNotes().isEmpty)
        e.undo()
        #expect(e.handleNotes().first?.note.text == "Cattle grid")
    }
}

@Suite("Route editor: leg states and messages")
struct RouteEditorStateTests {
    @Test("no road: the leg is straight, counted, adds its length and no time; the message names the mode and the first such leg")
    func noRoad() async {
        var e = editor([(0, 0), (1000, 0), (2000, 0), (3000, 0)])
        let engine = FakeEngine { a, b, mode in
            if metres(a).x > 500 { throw RoutingError.noRoute("no way") }
            return FakeEngine.straightRoad(a, b, mode)
        }
        await e.resolve(using: engine, concurrency: 2)
        #expect(e.plan.legs.map(\.state) == [.road, .noRoad, .noRoad])
        #expect(e.isComplete, "a leg with no road counts as answered")
        #expect(e.messages() == [.noRoad(mode: .drive, from: 2, to: 3)])
        #expect(e.messages().map(\.text) == ["No driving route from 2 to 3"])
        let totals = e.totals
        #expect(totals.straightLegs == 2)
        #expect(near(totals.distance, 3000))
        #expect(near(totals.travelTime, 100, 0.1), "only the first leg's 1000 m at 10 m/s")
        #expect(e.legLine(1) == [e.plan.handles[1].coordinate, e.plan.handles[2].coordinate])
        await e.resolve(using: engine, concurrency: 2)
        #expect(engine.requests.count == 3, "no road is an answer: not asked again")
        e.setMode(.walk)
        await e.resolve(using: engine, concurrency: 2)
        #expect(e.messages().map(\.text) == ["No walking route from 2 to 3"])
        e.setMode(.drive)
        #expect(e.plan.legs.map(\.state) == [.road, .noRoad, .noRoad], "no road is kept per mode")
    }

    @Test("faults: the leg waits, straight for now, with the engine named; the profile waits")
    func faults() async {
        var e = editor([(0, 0), (1000, 0), (2000, 0), (3000, 0)])
        let engine = FakeEngine { a, _, _ in
            switch Int(metres(a).x.rounded()) {
            case 0: throw RoutingError.rateLimited("429")
            case 1000: throw RoutingError.serverError("HTTP 502")
            default: throw RoutingError.unreachable("timed out")
            }
        }
        await e.resolve(using: engine, concurrency: 3)
        #expect(e.plan.legs.map(\.state) == [.rateLimited, .serverError("HTTP 502"), .unreachable("timed out")])
        #expect(e.messages().map(\.text) == ["FakeOSRM is limiting requests", "HTTP 502", "FakeOSRM cannot be reached"])
        #expect(e.totals.straightLegs == 3 && e.totals.travelTime == 0)
        #expect(!e.isComplete)
    }

    @Test("an error that is not a RoutingError counts as a server error")
    func otherError() async {
        struct Garbage: Error {}
        var e = editor([(0, 0), (1000, 0)])
        await e.resolve(using: FakeEngine { _, _, _ in throw Garbage() }, concurrency: 1)
        if case .serverError = e.plan.legs[0].state {} else { Issue.record("state \(String(describing: e.plan.legs[0].state))") }
    }

    @Test("a waiting leg is asked again only on retry, and only the waiting legs")
    func retry() async {
        var e = editor([(0, 0), (1000, 0), (2000, 0)])
        let failing = FakeEngine { a, b, mode in
            if metres(a).x > 500 { throw RoutingError.unreachable("offline") }
            return FakeEngine.straightRoad(a, b, mode)
        }
        await e.resolve(using: failing, concurrency: 2)
        #expect(e.plan.legs.map(\.state) == [.road, .unreachable("offline")])
        let engine = FakeEngine()
        await e.resolve(using: engine, concurrency: 2)
        #expect(engine.requests.isEmpty, "the connection returning asks nothing on its own")
        e.retry()
        #expect(e.plan.legs[1].state == .asked)
        await e.resolve(using: engine, concurrency: 2)
        #expect(asked(engine) == ["1000,0→2000,0"])
        #expect(e.plan.legs.map(\.state) == [.road, .road])
        #expect(e.messages().isEmpty)
    }

    @Test("a waiting leg whose handle moves is asked again: it is a new leg")
    func movedWaitingLeg() async {
        var e = editor([(0, 0), (1000, 0)])
        await e.resolve(using: FakeEngine { _, _, _ in throw RoutingError.rateLimited("429") }, concurrency: 1)
        e.moveHandle(1, to: g(1000, 100))
        let engine = FakeEngine()
        await e.resolve(using: engine, concurrency: 1)
        #expect(engine.requests.count == 1)
    }
}

@Suite("Route editor: handles and the road")
struct RouteEditorSnappingTests {
    /// The road starts and ends 30 m north of where it was asked.
    private let offsetEngine = FakeEngine { a, b, _ in
        let p = metres(a), q = metres(b)
        return gridRoad([(p.x, p.y + 30), (q.x, q.y + 30)])
    }

    @Test("tapped and drawn handles move onto the road; the leg asks with where they were placed")
    func snaps() async {
        for origin in [Handle.Origin.tapped, .drawn] {
            var e = editor([(0, 0), (1000, 0)], origin: origin)
            await e.resolve(using: offsetEngine, concurrency: 2)
            #expect(e.plan.handles.map { metres($0.coordinate).y.rounded() } == [30, 30])
            #expect(e.plan.handles[0].placed == g(0, 0))
            #expect(e.legLine(0).count == 2, "no connector: the handles sit on the road")
        }
    }

    @Test("a middle handle moves to the end of the road nearest where it was placed")
    func snapsToNearestEnd() async {
        var e = editor([(0, 0), (1000, 0), (2000, 0)])
        let engine = FakeEngine { a, b, _ in
            let p = metres(a), q = metres(b)
            // The first leg's road ends 40 m from handle 2, the second starts 10 m from it.
            return p.x < 500 ? gridRoad([(p.x, p.y), (q.x, q.y + 40)]) : gridRoad([(p.x, p.y - 10), (q.x, q.y)])
        }
        await e.resolve(using: engine, concurrency: 2)
        #expect(near(metres(e.plan.handles[1].coordinate).y, -10, 0.01))
        let line = e.line()
        #expect(line.contains(g(1000, 40)), "the first road's end is joined to the handle by a connector")
    }

    @Test("surveyed handles never move: the road is drawn to them with a straight connector")
    func surveyedStays() async {
        for origin in [Handle.Origin.coordinate, .waypoint] {
            var e = editor([(0, 0), (1000, 0)], origin: origin)
            await e.resolve(using: offsetEngine, concurrency: 2)
            #expect(e.plan.handles.map(\.coordinate) == [g(0, 0), g(1000, 0)])
            let line = e.legLine(0)
            #expect(line == [g(0, 0), g(0, 30), g(1000, 30), g(1000, 0)])
            #expect(near(e.totals.distance, 1060, 0.1), "the connectors are part of the drawn line")
        }
    }
}

@Suite("Route editor: warnings and information")
struct RouteEditorWarningTests {
    /// A road leg from (0, 0) to (1000, 0) along the x axis, drawn with a stroke whose middle point
    /// strays `stray` metres north.
    private func drawn(stray: Double) async -> RouteEditor {
        var e = RouteEditor()
        e.addStroke([g(0, 0), g(500, stray), g(1000, 0)])
        e.setLegKind(0, to: .road)
        await e.resolve(using: FakeEngine { a, b, _ in
            let p = metres(a), q = metres(b)
            return gridRoad([(p.x, 0), (q.x, 0)])
        }, concurrency: 1)
        return e
    }

    @Test("a road more than 100 m from the stroke is a warning; 99 m is not")
    func farFromStroke() async {
        // A middle point straying under a quarter of the stroke's length is no bend: one leg, whose
        // road is measured against the whole stroke.
        let close = await drawn(stray: 99)
        #expect(close.plan.legs.count == 1)
        #expect(close.findings(forLeg: 0).isEmpty)
        let far = await drawn(stray: 101)
        let findings = far.findings(forLeg: 0)
        guard case .farFromDrawn(let distance)? = findings.first else {
            Issue.record("no warning: \(findings)")
            return
        }
        #expect(near(distance, 101, 0.5))
        #expect(findings[0].isWarning)
        #expect(findings[0].message == "The road runs 101 m from where you drew")
    }

    @Test("each finding has the point of the road it is about: where the road is farthest from the drawing, the handle it loops back to")
    func places() async {
        // The stroke's middle point (500, 137) is the drawn point farthest from the road along the x
        // axis; the road's nearest point to it is (500, 0), 137 m away.
        let far = await drawn(stray: 137).placedFindings(forLeg: 0)
        #expect(far.count == 1)
        let place = far.first?.place.map(metres)
        #expect(place.map { near($0.x, 500, 0.5) && near($0.y, 0, 0.5) } == true, "\(String(describing: place))")
        #expect(far.first.map { $0.finding.message } == "The road runs 137 m from where you drew")
        #expect(far.first?.place.map { near($0.distance(to: g(500, 137)), 137, 0.5) } == true)

        var loop = editor([(0, 0), (200, 0)])
        await loop.resolve(using: FakeEngine { _, _, _ in
            gridRoad([(0, 0), (300, 0), (300, 100), (200, 100), (200, 0)])
        }, concurrency: 1)
        let loops = loop.placedFindings(forLeg: 0).filter { $0.finding == .loopsBack(handle: 2) }
        #expect(loops.count == 1 && loops.first?.place.map { $0.distance(to: g(200, 0)) < 0.01 } == true)
        // Information about the whole leg has no place; the findings are those `findings` gives.
        #expect(loop.placedFindings(forLeg: 0).map(\.finding) == loop.findings(forLeg: 0))
        #expect(loop.placedFindings(forLeg: 0).contains { if case .longerThanStraight = $0.finding { $0.place == nil } else { false } })
    }

    @Test("a tapped handle placed more than 100 m from its road is a warning")
    func farFromTapped() async {
        for (north, warned) in [(99.0, false), (101.0, true)] {
            var e = editor([(0, 0), (1000, north)])
            await e.resolve(using: FakeEngine { _, _, _ in gridRoad([(0, 0), (1000, 0)]) }, concurrency: 1)
            #expect(e.findings(forLeg: 0).contains { if case .farFromDrawn = $0 { true } else { false } } == warned)
        }
    }

    @Test("a road that passes its end handle and comes back to it loops back")
    func loopsBackAtEnd() async {
        var e = editor([(0, 0), (200, 0)])
        await e.resolve(using: FakeEngine { _, _, _ in
            gridRoad([(0, 0), (300, 0), (300, 100), (200, 100), (200, 0)])
        }, concurrency: 1)
        let findings = e.findings(forLeg: 0)
        #expect(findings.contains(.loopsBack(handle: 2)))
        #expect(!findings.contains(.loopsBack(handle: 1)))
        #expect(LegFinding.loopsBack(handle: 2).message == "The road loops back: it passes handle 2 and comes back to it")
    }

    @Test("a road that leaves its start handle and comes back to it loops back")
    func loopsBackAtStart() async {
        var e = editor([(0, 0), (1000, 0)])
        await e.resolve(using: FakeEngine { _, _, _ in
            gridRoad([(0, 0), (-100, 0), (-100, 100), (0, 100), (0, 0), (1000, 0)])
        }, concurrency: 1)
        #expect(e.findings(forLeg: 0).contains(.loopsBack(handle: 1)))
    }

    @Test("a road that wriggles near its handle without leaving it does not loop back")
    func noLoop() async {
        var e = editor([(0, 0), (1000, 0)])
        await e.resolve(using: FakeEngine { _, _, _ in
            gridRoad([(0, 0), (30, 10), (0, 20), (30, 30), (1000, 0)])
        }, concurrency: 1)
        #expect(!e.findings(forLeg: 0).contains { if case .loopsBack = $0 { true } else { false } })
        #expect(RouteWarnings.visits(of: [g(0, 0), g(30, 10), g(0, 20), g(30, 30)], to: g(0, 0), radius: 15,
                                     leaveDistance: 40) == 1)
    }

    /// A road from (0, 0) to (1000, 0) through (500, h): 2·√(500² + h²) long.
    private func detour(length: Double) async -> [LegFinding] {
        let h = ((length / 2) * (length / 2) - 500 * 500).squareRoot()
        var e = editor([(0, 0), (1000, 0)])
        await e.resolve(using: FakeEngine { _, _, _ in gridRoad([(0, 0), (500, h), (1000, 0)]) }, concurrency: 1)
        return e.findings(forLeg: 0)
    }

    @Test("a road 1.25× the straight line or more is information with one decimal; below it, nothing")
    func longerThanStraight() async {
        #expect(await detour(length: 1240).isEmpty)
        let at = await detour(length: 1260)
        guard case .longerThanStraight(let ratio)? = at.first else {
            Issue.record("no information: \(at)")
            return
        }
        #expect(near(ratio, 1.26, 0.005))
        #expect(!at[0].isWarning)
        #expect(at[0].message == "1.3× the straight line")
        #expect(await detour(length: 2500).first?.message == "2.5× the straight line")
    }

    @Test("straight legs and legs without a road have no findings")
    func noFindingsWithoutRoad() {
        let e = editor([(0, 0), (1000, 500)])
        #expect(e.findings(forLeg: 0).isEmpty)
    }
}

@Suite("Route editor: totals, line, junctions and handle distances")
struct RouteEditorLineTests {
    @Test("totals: distance along the drawn line, time of the road legs, straight legs counted")
    func totals() async {
        var e = editor([(0, 0), (1000, 0), (1000, 1000), (0, 1000)])
        e.setLegKind(1, to: .straight)
        await e.resolve(using: FakeEngine { a, b, _ in
            let p = metres(a), q = metres(b)
            return gridRoad([(p.x, p.y), ((p.x + q.x) / 2, (p.y + q.y) / 2 + 100), (q.x, q.y)])
        }, concurrency: 2)
        let roadLength = 2 * (500.0 * 500 + 100 * 100).squareRoot()
        let totals = e.totals
        #expect(near(totals.distance, 2 * roadLength + 1000))
        #expect(near(totals.travelTime, 2 * roadLength / 10, 0.1))
        #expect(totals.straightLegs == 1)
        #expect(near(Polyline(e.line()).length, totals.distance, 0.01), "the totals measure the drawn line")
    }

    @Test("as drawn: a tapped leg is straight, a stroked leg follows its stroke")
    func asDrawn() {
        var e = editor([(0, 0), (1000, 0)], kind: .asDrawn)
        #expect(e.isStraight(0) && e.totals.straightLegs == 1)
        e.addStroke(g.line([(1000, 0), (1000, 500), (1500, 500)]))
        #expect(!e.isStraight(1))
        #expect(near(e.totals.distance, 2000, 0.5))
        #expect(e.pendingRequests().isEmpty)
    }

    @Test("junctions are placed on the whole route, past the earlier legs and any connector")
    func junctions() async {
        var e = editor([(0, 0), (1000, 0), (2000, 0)], origin: .coordinate)
        let spoke = Spoke(bearing: 90, role: .exit)
        await e.resolve(using: FakeEngine { a, b, _ in
            let p = metres(a), q = metres(b)
            return gridRoad([(p.x, p.y + 30), (q.x, q.y + 30)],
                            junctions: [Junction(coordinate: editorGrid(p.x + 400, 30), distanceAlong: 400, spokes: [spoke])])
        }, concurrency: 2)
        let junctions = e.geometry().junctions
        let distances = e.handleDistances()
        #expect(junctions.count == 2)
        #expect(near(junctions[0].distanceAlong, 430, 0.1))
        #expect(near(distances[1], 1060, 0.1))
        #expect(near(junctions[1].distanceAlong, 1060 + 30 + 400, 0.1))
        #expect(near(distances[2], 2120, 0.1))
        #expect(e.geometry().line == e.line())
    }

    @Test("a handle note sits where the route reaches its handle: the boundary between its legs")
    func handleNoteDistance() async {
        var e = editor([(0, 0), (1000, 0), (2000, 0)])
        e.setHandleNote(1, HandleNote(text: "Fork"))
        await e.resolve(using: FakeEngine { a, b, _ in
            let p = metres(a), q = metres(b)
            return gridRoad([(p.x, p.y), ((p.x + q.x) / 2, 300), (q.x, q.y)])
        }, concurrency: 2)
        let firstLeg = Polyline(e.legLine(0)).length
        #expect(near(firstLeg, 2 * (500.0 * 500 + 300 * 300).squareRoot()))
        #expect(e.handleNotes().map(\.distanceAlong) == [firstLeg])
    }
}

@Suite("Route editor: strokes and tracing")
struct RouteEditorDrawingTests {
    @Test("Douglas–Peucker keeps the corners of a stroke and drops the wobble")
    func simplification() {
        let wobble = (0...100).map { g(Double($0) * 10, $0 % 2 == 0 ? 3 : -3) }
        #expect(StrokeSimplification.keptIndices(wobble, tolerance: 40) == [0, 100])
        let corner = g.line([(0, 0), (1000, 0), (1000, 1000)])
        let kept = StrokeSimplification.keptIndices(corner, tolerance: 40)
        #expect(kept.map { corner[$0] } == [g(0, 0), g(1000, 0), g(1000, 1000)])
        #expect(StrokeSimplification.keptIndices([g(0, 0)], tolerance: 40) == [0])
    }

    @Test("a stroke's handles: its ends, its corners, not each hairpin, and at most 1,500 m apart")
    func strokeHandles() {
        let rules = RouteEditor.Configuration()   // 40 m, a quarter, 300 m, 1,500 m
        // A corner 1 km along: a handle there.
        let corner = g.line([(0, 0), (1000, 0), (1000, 1000)])
        #expect(StrokeSimplification.handleIndices(corner, rules: rules).map { corner[$0] } == [g(0, 0), g(1000, 0), g(1000, 1000)])
        // Ten hairpins 100 m wide climbing 1 km north: no handle at any of them.
        let zigzag = g.line((0...10).map { (Double($0 % 2) * 100, Double($0) * 100) })
        #expect(StrokeSimplification.handleIndices(zigzag, rules: rules).count == 2)
        // 4 km straight: cut in three parts of 1,333 m.
        let straight = g.line([(0, 0), (4000, 0)])
        let cuts = StrokeSimplification.handleIndices(straight, rules: rules).map { straight[$0] }
        #expect(cuts.count == 4 && zip(cuts, cuts.dropFirst()).allSatisfy { near($0.distance(to: $1), 4000 / 3, 10) })
    }

    @Test("a stroke becomes a few drawn handles, each leg of the default kind keeping its stroke")
    func stroke() async {
        var e = RouteEditor()
        e.addStroke(g.line([(0, 0), (1000, 0), (1000, 1000)]))
        #expect(e.undoName == "Draw 3 handles")
        #expect(e.plan.handles.map(\.origin) == [.drawn, .drawn, .drawn])
        #expect(e.plan.legs.map(\.kind) == [.road, .road])
        #expect(e.plan.legs.allSatisfy { ($0.stroke?.count ?? 0) > 2 })
        let engine = FakeEngine()
        await e.resolve(using: engine, concurrency: 2)
        #expect(asked(engine) == ["0,0→1000,0", "1000,0→1000,1000"])
    }

    @Test("a stroke starting near the last handle continues from it; anywhere else a leg joins the two")
    func continuation() {
        var e = RouteEditor()
        e.addStroke(g.line([(0, 0), (1000, 0)]))
        e.addStroke(g.line([(1000, 45), (2000, 45)]))
        #expect(e.undoName == "Draw 1 handle")
        #expect(e.plan.handles.count == 3 && e.plan.legs.count == 2)
        #expect(e.plan.legs[1].stroke?.first == g(1000, 45))
        e.addStroke(g.line([(2000, 500), (3000, 500)]))
        #expect(e.undoName == "Draw 2 handles")
        #expect(e.plan.handles.count == 5 && e.plan.legs.count == 4)
        #expect(e.plan.legs[2].stroke == nil, "the joining leg was not drawn")
        #expect(e.plan.legs[3].stroke != nil)
    }

    @Test("a stroke with no length adds nothing")
    func emptyStroke() {
        var e = RouteEditor()
        e.addStroke([g(0, 0), g(0, 0)])
        e.addStroke([g(0, 0)])
        #expect(e.plan.handles.isEmpty && e.undoName == nil)
    }

    @Test("tracing lays handles about 400 m apart, legs as drawn, and draws the same route")
    func trace() {
        let route = g.line([(0, 0), (1000, 0), (1000, 1000)])
        let e = RouteEditor.traced(from: route)
        #expect(e.plan.handles.count == 6)
        #expect(e.plan.legs.allSatisfy { $0.kind == .asDrawn && $0.state == nil })
        #expect(e.plan.handles.allSatisfy { $0.origin == .drawn })
        let distances = e.handleDistances()
        #expect(zip(distances, distances.dropFirst()).allSatisfy { near($1 - $0, 400, 1) })
        #expect(near(e.totals.distance, 2000, 0.5))
        #expect(e.pendingRequests().isEmpty)
    }

    @Test("tracing a long route keeps at most 40 handles")
    func traceLong() {
        let e = RouteEditor.traced(from: g.line([(0, 0), (50_000, 0)], step: 100))
        #expect(e.plan.handles.count == 40)
        #expect(near(e.handleDistances()[1], 50_000 / 39.0, 1))
        let short = RouteEditor.traced(from: g.line([(0, 0), (15_600, 0)], step: 100))
        #expect(short.plan.handles.count == 40, "39 legs of 400 m exactly")
    }

    @Test("notes from handles and waypoints become handles of their kind again, in order, where the route passes them")
    func traceNotes() {
        let route = g.line([(0, 0), (2100, 0)])
        let note = Note(id: 7, kind: .waypoint, distanceAlong: 1000, coordinate: g(1000, 20), text: "Fuel", marker: "WP3")
        let e = RouteEditor.traced(from: route, notes: [
            TracedHandleNote(note, origin: .waypoint),
            TracedHandleNote(distanceAlong: 820, coordinate: g(820, 0), origin: .note, note: .init(text: "Cattle grid")),
        ])
        // Fixed at 0, 820, 1000 and 2100; drawn handles about 400 m apart between: one at 410, two in the last 1,100 m.
        #expect(e.plan.handles.map(\.origin) == [.drawn, .drawn, .note, .waypoint, .drawn, .drawn, .drawn])
        let waypoint = e.plan.handles[3]
        #expect(near(waypoint.coordinate.distance(to: g(1000, 0)), 0, 0.01), "the waypoint's handle is where the route passes it, not 20 m beside it")
        #expect(waypoint.note == HandleNote(text: "Fuel", marker: "WP3") && waypoint.noteID == 7)
        #expect(e.handleNotes().map(\.note.text) == ["Cattle grid", "Fuel"])
        #expect(e.handleNotes().map(\.distanceAlong).enumerated().allSatisfy { near($1, [820, 1000][$0], 0.5) })
        #expect(near(e.totals.distance, 2100, 0.5), "the traced legs follow the route: no detour to the waypoint and back")
    }

    @Test("notes' handles count within the 40; a note near an end takes the end's place")
    func traceNotesWithinMaximum() {
        let route = g.line([(0, 0), (30_000, 0)], step: 100)
        let notes = [0, 30, 2000, 2100, 9000, 15_000, 22_000, 29_990].enumerated().map { k, x in
            TracedHandleNote(distanceAlong: Double(x), coordinate: g(Double(x), 15), origin: .waypoint,
                             note: .init(text: "WP\(k)"))
        }
        let e = RouteEditor.traced(from: route, notes: notes)
        #expect(e.plan.handles.count <= 40 && e.plan.handles.count >= 38, "\(e.plan.handles.count)")
        #expect(e.plan.handles.filter { $0.origin == .waypoint }.count == notes.count)
        #expect(e.plan.handles.first?.origin == .waypoint && e.plan.handles.last?.origin == .waypoint,
                "the notes at 0, 30 m and 10 m from the end sit at the ends: no leg of a few metres")
        #expect(near(e.totals.distance, 30_000, 0.5))
        let distances = e.handleDistances()
        let gaps = zip(distances, distances.dropFirst()).map { $1 - $0 }
        #expect(gaps.max()! < 1.5 * 30_000 / 39, "drawn handles spread evenly between the notes: \(gaps)")
    }
}

@Suite("Route plan: the stored form")
struct RoutePlanStorageTests {
    @Test("a stored plan reopens with its roads: it draws the same line and asks nothing")
    func roundTrip() async throws {
        var e = editor([(0, 0), (1000, 0), (2000, 0)], origin: .waypoint)
        e.setMode(.cycle)
        await e.resolve(using: FakeEngine { a, b, mode in
            let p = metres(a), q = metres(b)
            if p.x > 500 { throw RoutingError.rateLimited("429") }
            return gridRoad([(p.x, p.y + 20), (q.x, q.y + 20)])
        }, concurrency: 2)
        let data = try JSONEncoder().encode(e.plan)
        #expect(String(decoding: data, as: UTF8.self).contains("\"cycle\""), "answers are keyed by mode name")
        let plan = try JSONDecoder().decode(RoutePlan.self, from: data)
        #expect(plan == e.plan)
        var reopened = RouteEditor(plan: plan)
        #expect(reopened.line() == e.line())
        let engine = FakeEngine()
        await reopened.resolve(using: engine, concurrency: 2)
        #expect(engine.requests.isEmpty, "the road is stored and the waiting leg waits for Retry")
        reopened.retry()
        await reopened.resolve(using: engine, concurrency: 2)
        #expect(asked(engine) == ["1000,0→2000,0"])
    }
}
