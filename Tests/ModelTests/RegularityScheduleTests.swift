import Foundation
import Geo
import Model
import Testing
import TestSupport

/// Ideal times of a regularity book against times worked out by hand: seconds = metres × 3.6 / km/h
/// summed over the stretches between changes of average, rounded to the nearest second, halves up.
@Suite("Regularity: sections and ideal times")
struct RegularityScheduleTests {
    static let grid = MetreGrid()

    /// A straight route east of `length` metres with rows at `rows` (metres, type, average set).
    static func book(_ rows: [(Double, WaypointType?, Int?)], length: Double = 20_000) -> Book {
        let route = Route(source: "test", points: grid.line([(0, 0), (length, 0)], step: 500).map { RoutePoint(coordinate: $0) })
        var settings = BookSettings()
        settings.purpose = .regularity
        let notes = rows.enumerated().map { k, row in
            Note(id: k + 1, kind: row.1 == nil ? .typed : .checkpoint, distanceAlong: row.0, coordinate: grid(row.0, 0),
                 text: "Row \(k + 1)", waypointType: row.1, targetSpeed: row.2)
        }
        return Book(title: "Regularity", settings: settings, route: route, notes: notes)
    }

    @Test("a section of 12.345 km at 36 km/h, then 48 km/h from 5.000 km: the times worked out by hand, to the second")
    func twoAverages() {
        // 36 km/h is 10 m/s; 48 km/h is 13.333… m/s (3.6 / 48 = 0.075 s a metre).
        //   DSS      0 m                                   =    0 s = 00:00:00
        //        1 005 m: 1005 m / 10 m/s = 100.5 s, half up =  101 s = 00:01:41
        //        2 000 m: 2000 / 10                          =  200 s = 00:03:20
        //        5 000 m: 5000 / 10                          =  500 s = 00:08:20 (48 km/h from here)
        //        8 000 m: 500 + 3000 × 0.075 = 500 + 225     =  725 s = 00:12:05
        //   ASS 12 345 m: 500 + 7345 × 0.075 = 500 + 550.875 = 1050.875 s → 1051 s = 00:17:31
        let book = Self.book([(0, .dss, 36), (1005, nil, nil), (2000, nil, nil), (5000, nil, 48), (8000, nil, nil), (12_345, .ass, nil)])
        let schedule = RegularitySchedule(book: book)
        #expect(schedule.rows.map(\.idealTime) == [0, 101, 200, 500, 725, 1051])
        #expect(schedule.rows.map { $0.idealTime.map(IdealTime.text) } == ["00:00:00", "00:01:41", "00:03:20", "00:08:20", "00:12:05", "00:17:31"])
        #expect(schedule.rows.map(\.speed) == [36, 36, 36, 48, 48, 48])
        #expect(schedule.rows.map(\.setsSpeed) == [36, nil, nil, 48, nil, nil])
        #expect(schedule.rows.map(\.mark) == [.start, nil, nil, nil, nil, .finish])
        #expect(schedule.rows.map(\.fromSectionStart) == [0, 1005, 2000, 5000, 8000, 12_345])
        #expect(schedule.sections.count == 1 && schedule.sections[0].untimed.isEmpty && schedule.unusedSpeeds.isEmpty)
    }

    @Test("halves round up, not to even: 100.5 s is 101 s, 2.5 s is 3 s")
    func halvesUp() {
        #expect(RegularitySchedule.roundedSeconds(100.5) == 101)
        #expect(RegularitySchedule.roundedSeconds(2.5) == 3)
        #expect(RegularitySchedule.roundedSeconds(2.4999) == 2)
        // 25 m at 36 km/h: 25 × 3.6 / 36 = 2.5 s. A sum of stretches a hair under a half still goes up:
        // 0.2 + 1.15 + 0.15 s is 1.4999999999999998 in floating point (Python says so too).
        #expect(0.2 + 1.15 + 0.15 < 1.5 && RegularitySchedule.roundedSeconds(0.2 + 1.15 + 0.15) == 2)
        #expect(RegularitySchedule.roundedSeconds(RegularitySchedule.seconds(25, at: 36)) == 3)
        #expect(IdealTime.text(0) == "00:00:00" && IdealTime.text(3599) == "00:59:59" && IdealTime.text(3600) == "01:00:00")
        #expect(IdealTime.text(100 * 3600 + 61) == "100:01:01")
    }

    @Test("a second section starts its own clock at its DSS; a liaison between an ASS and a DSS has no time, and averages do not carry over")
    func twoSections() {
        // Section 1: DSS at 0 at 36 km/h, ASS at 3 km: 3000 / 10 = 300 s = 00:05:00.
        // Liaison: a row at 3.5 km, outside every section.
        // Section 2: DSS at 4 km at 60 km/h (16.67 m/s, 0.06 s a metre); a row at 5.5 km: 1500 × 0.06 = 90 s = 00:01:30;
        // ASS at 7.25 km: 3250 × 0.06 = 195 s = 00:03:15.
        let book = Self.book([(0, .dss, 36), (3000, .ass, nil), (3500, nil, nil), (4000, .dss, 60), (5500, nil, nil), (7250, .ass, nil)])
        let schedule = RegularitySchedule(book: book)
        #expect(schedule.rows.map(\.idealTime) == [0, 300, nil, 0, 90, 195])
        #expect(schedule.rows.map(\.section) == [1, 1, nil, 2, 2, 2])
        #expect(schedule.rows.map(\.fromSectionStart) == [0, 3000, nil, 0, 1500, 3250])
        #expect(schedule.rows.map(\.mark) == [.start, .finish, nil, .start, nil, .finish])
        #expect(schedule.sections.map(\.start) == [0, 4000])

        // Without an average at its DSS, section 2 does not take section 1's.
        var plain = book
        plain.notes[3].targetSpeed = nil
        let untimed = RegularitySchedule(book: plain)
        #expect(untimed.rows.map(\.idealTime) == [0, 300, nil, nil, nil, nil])
        #expect(untimed.sections[1].untimed == [3, 4, 5] && untimed.sections[1].clockRow == nil)
    }

    @Test("with no DSS, one section runs from the start of the book; an average set late leaves the rows before it blank, and the clock starts there")
    func fromTheStart() {
        // Rows at 0 and 800 m have no average; 30 km/h from 1.2 km (8.33 m/s, 0.12 s a metre):
        // 1200 m → 00:00:00, 3700 m: 2500 × 0.12 = 300 s = 00:05:00.
        let schedule = RegularitySchedule(book: Self.book([(0, nil, nil), (800, nil, nil), (1200, nil, 30), (3700, nil, nil)]))
        #expect(schedule.rows.map(\.idealTime) == [nil, nil, 0, 300])
        #expect(schedule.rows.map(\.section) == [1, 1, 1, 1])
        #expect(schedule.rows.map(\.mark) == [.start, nil, nil, nil])
        #expect(schedule.sections.count == 1 && schedule.sections[0].start == 0 && schedule.sections[0].firstRow == 0)
        #expect(schedule.sections[0].clockRow == 2 && schedule.sections[0].untimed == [0, 1])
    }

    @Test("an average set after an ASS and before the next DSS times nothing")
    func unusedSpeed() {
        let schedule = RegularitySchedule(book: Self.book([(0, .dss, 40), (1000, .ass, nil), (1500, nil, 50), (2000, .dss, 45), (2900, nil, nil)]))
        #expect(schedule.unusedSpeeds == [2])
        // 900 m at 45 km/h: 900 × 3.6 / 45 = 72 s = 00:01:12.
        #expect(schedule.rows.map(\.idealTime) == [0, 90, nil, 0, 72])
    }

    @Test("a note off the route is no row: not numbered, not timed")
    func offRoute() {
        var book = Self.book([(0, .dss, 36), (1000, nil, nil), (2000, nil, nil)])
        book.notes[1].placement = .offRoute
        let schedule = RegularitySchedule(book: book)
        #expect(schedule.rows.map(\.note) == [0, 2] && schedule.rows.map(\.number) == [1, 2])
        #expect(schedule.rows.map(\.idealTime) == [0, 200])
    }
}
