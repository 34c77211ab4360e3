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

    @Test("a track sampled coarser than the U-turn reach (one of over 100,000 km) is read without trapping")
    func trackTurnsSampledCoarsely() {
        // A track over `maximumSamples` × 5 m (100,000 km: fixes at 0,0 among a real track's, or
        // zigzags across the globe) is sampled every 100 m or more, coarser than the U-turn test's
        // reach (TrackTurns.comesBack), which once built a range whose end came before its start.
        // The same spacing, configured, on a short zigzag keeps the test quick.
        var coarse = TrackTurns.Configuration()
        let zigzag = (0..<40).map { Coordinate(latitude: 42.5 + ($0 % 2 == 0 ? 0 : 0.02), longitude: 1.4 + Double($0) * 0.01) }
        for spacing in [150.0, 400] {
            coarse.spacing = spacing
            let turns = TrackTurns(configuration: coarse).maneuvers(in: zigzag)
            #expect(!turns.isEmpty && turns.allSatisfy { $0.distanceAlong.isFinite })
        }
    }
}
