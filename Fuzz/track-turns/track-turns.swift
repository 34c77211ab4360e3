// The turn finder that reads a track's shape (Guidance.TrackTurns) on any track: the input is a
// walk of 4-byte steps (north, east; signed 16-bit, in centimetres, so a step reaches 327 m) from
// a start in Andorra, at most 1,024 steps (a longer track is the same work, only slower to fuzz).
// A step of (−32768, −32768) repeats the last fix three times (a receiver standing still), one of
// (−32768, n) jumps to a pole (n even: north) or across the antimeridian. It must return rows in
// track order, each on the track, never trap.
import Foundation
import Geo
import Guidance

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var track: [Coordinate] = []
    var latitude = 42.5, longitude = 1.5
    var k = 0
    while k + 4 <= min(size, 4 * 1_024) {
        let north = Int16(bitPattern: UInt16(bytes[k]) << 8 | UInt16(bytes[k + 1]))
        let east = Int16(bitPattern: UInt16(bytes[k + 2]) << 8 | UInt16(bytes[k + 3]))
        k += 4
        if north == .min {
            if east == .min, let last = track.last {
                track += [last, last, last]
                continue
            }
            if east % 2 == 0 { latitude = east > 0 ? 90 : -90 } else { longitude = 179.9999 }
        } else {
            latitude = max(-90, min(90, latitude + Double(north) / 100 / 111_195))
            let metresPerDegree = max(1, 111_195 * cos(latitude * .pi / 180))
            longitude += Double(east) / 100 / metresPerDegree
            if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        }
        track.append(Coordinate(latitude: latitude, longitude: longitude))
    }
    let (rows, _) = TrackTurns().read(track)
    let length = Polyline(track).length
    for (a, b) in zip(rows, rows.dropFirst()) where a.distanceAlong > b.distanceAlong {
        fatalError("rows out of track order: \(a.distanceAlong) m before \(b.distanceAlong) m")
    }
    for row in rows where !(row.distanceAlong >= 0 && row.distanceAlong <= length + 1) {
        fatalError("a row \(row.distanceAlong) m along a track of \(length) m")
    }
    return 0
}
