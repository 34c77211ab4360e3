import BookAssembly
import Foundation
import Geo
import Model
import Testing
import TestSupport

@Suite("The elevation profile: climb, descent, heights along the route")
struct ProfileTests {
    @Test("DEM jitter of a few metres on a flat road adds no climb")
    func flatRoad() {
        var generator = SeededGenerator(seed: 3)
        let heights = (0..<2000).map { _ in 500 + Double.random(in: -2...2, using: &generator) }
        let (climb, descent) = ProfileBuilder.climbAndDescent(heights, threshold: 5)
        #expect(climb == 0 && descent == 0)
    }

    @Test("a climb and a descent count in full, whatever the noise on them")
    func hill() {
        var generator = SeededGenerator(seed: 4)
        let shape = (0...200).map { Double($0) } + (0...100).map { 200 - 2 * Double($0) }   // up 200, down 200
        let heights = shape.map { $0 + Double.random(in: -1.5...1.5, using: &generator) }
        let (climb, descent) = ProfileBuilder.climbAndDescent(heights, threshold: 5)
        #expect(abs(climb - 200) < 4 && abs(descent - 200) < 4, "\(climb) up, \(descent) down")
    }

    @Test("steps smaller than the threshold are ignored; larger ones count whole")
    func steps() {
        #expect(ProfileBuilder.climbAndDescent([0, 4, 0, 4, 0], threshold: 5) == (0, 0))
        #expect(ProfileBuilder.climbAndDescent([0, 6, 0], threshold: 5) == (6, 6))
        #expect(ProfileBuilder.climbAndDescent([0, 10, 7, 20], threshold: 5) == (20, 0))
    }

    @Test("heights between samples are interpolated, the last stretch ends at the route's end")
    func interpolation() throws {
        let profile = Profile(spacing: 15, heights: [100, 115, 130, 131], climb: 31, descent: 0)
        #expect(try #require(profile.height(atDistance: 7.5, routeLength: 31)) == 107.5)
        #expect(try #require(profile.height(atDistance: 30.5, routeLength: 31)) == 130.5)
        #expect(try #require(profile.height(atDistance: 99, routeLength: 31)) == 131)
        let gap = Profile(spacing: 15, heights: [100, nil, 130], climb: 0, descent: 0)
        #expect(gap.height(atDistance: 5, routeLength: 30) == nil)
        #expect(!gap.isComplete && profile.isComplete)
        #expect(abs(profile.steepestGrade - 1) < 1e-9)
    }

    @Test("sample points run every spacing metres and end at the route's end")
    func samples() {
        let grid = MetreGrid()
        let line = Polyline(grid.line([(0, 0), (100, 0)]))
        var builder = ProfileBuilder()
        builder.configuration.spacing = 15
        let points = builder.samplePoints(along: line)
        #expect(points.count == 8)   // 0, 15, …, 90, and 100
        #expect(points.last == line.coordinates.last)
    }
}
