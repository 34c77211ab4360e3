import Foundation
import Geo
import Model
@testable import Guidance
import Testing
import TestSupport

@Suite("Long segments in reading a track's turns")
struct GuidanceHardeningTests {
    @Test("a trip round the globe finds its turns with bounded work")
    func trackTurnsRoundTheGlobe() {
        let route = stride(from: -180.0, through: 180.0, by: 10).map { Coordinate(latitude: 45, longitude: $0) }
            + [Coordinate(latitude: 60, longitude: 180)]
        let turns = TrackTurns().maneuvers(in: route)
        #expect(turns.allSatisfy { $0.distanceAlong.isFinite })
    }
}
