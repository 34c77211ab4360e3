import Foundation
import Geo
import Model
import BookAssembly
import Guidance
import RouteEditing

/// A drawn route as the commands show it after every change (`route`, `handles`, `regenerate`):
/// its handles, each leg's kind, state and length with what was found on it, the editor's
/// messages, the totals, and the steps undo and redo would take.
public struct RouteSummary: Sendable, Equatable {
    public struct Leg: Sendable, Equatable {
        public var kind: LegKind
        /// The engine's answer; nil while it is being asked.
        public var state: LegState?
        /// Metres along the leg's line as drawn.
        public var length: Metres
        /// What was found on the leg, one line each.
        public var findings: [String]
    }

    /// The legs' warnings with the places they are about, leg by leg (`LegWarning.all`).
    public var warnings: [LegWarning]
    /// The plan shown: its handles and legs with their roads, for a view that draws them.
    public var plan: RoutePlan
    public var handles: [Handle] { plan.handles }
    /// Metres from the start of the route to each handle, along the legs as drawn.
    public var handleDistances: [Metres]
    public var mode: TravelMode { plan.mode }
    /// The kind new legs take.
    public var newLegs: LegKind { plan.defaultLegKind }
    public var legs: [Leg]
    /// The editor's messages, one line each.
    public var messages: [String]
    /// Metres along the line as drawn.
    public var distance: Metres
    /// Seconds: the road legs' travel times.
    public var travelTime: TimeInterval
    /// Legs drawn straight, by kind or for want of a road.
    public var straightLegs: Int
    /// Legs (from 0) waiting for the engine.
    public var waitingLegs: [Int]
    /// Legs (from 0) the change that made this summary asked of the engine (`DraftSession.edit`);
    /// empty for a drawing shown without a change.
    public var askedLegs: [Int] = []
    /// The engine the legs were asked of, when one was.
    public var engineName: String?
    /// The step undo would take back, and the one redo would make again.
    public var undoName: String?
    public var redoName: String?

    public init(_ editor: RouteEditor) {
        let plan = editor.plan
        self.plan = plan
        handleDistances = editor.handleDistances()
        var warnings: [LegWarning] = []
        legs = plan.legs.indices.map { i in
            let found = editor.placedFindings(forLeg: i)
            warnings += LegWarning.of(leg: i, found)
            return Leg(kind: plan.legs[i].kind, state: plan.legs[i].state, length: Polyline(editor.legLine(i)).length,
                       findings: found.map(\.finding.message))
        }
        self.warnings = warnings
        messages = editor.messages().map(\.text)
        let totals = editor.totals
        distance = totals.distance
        travelTime = totals.travelTime
        straightLegs = totals.straightLegs
        waitingLegs = plan.waitingLegs
        engineName = editor.engineName
        undoName = editor.undoName
        redoName = editor.redoName
    }
}
