/// The runs of consecutive points that stay within `radius` metres of each run's first point,
/// measured in that point's plane (`LocalFrame`); the first point outside starts the next run.
/// `coordinate(i)` is point `i` of `count`. One pass: O(count).
///
/// Shared by a track's standing-still places (`BookAssembly/StandingStill.swift`) and a densely
/// logged track's means (`Guidance/TrackTurns.swift`), which live in targets that do not import
/// each other; `package`, not part of the library's API.
package func runsNearTheirFirst(_ count: Int, radius: Metres, _ coordinate: (Int) -> Coordinate) -> [ClosedRange<Int>] {
    var runs: [ClosedRange<Int>] = []
    var first = 0
    while first < count {
        let frame = LocalFrame(origin: coordinate(first))
        var last = first
        while last + 1 < count {
            let p = frame.project(coordinate(last + 1))
            guard p.x * p.x + p.y * p.y <= radius * radius else { break }
            last += 1
        }
        runs.append(first...last)
        first = last + 1
    }
    return runs
}
