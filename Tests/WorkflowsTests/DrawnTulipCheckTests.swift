import BookAssembly
import Foundation
import Geo
import Model
import Testing
import Workflows

@Suite("A tulip drawn by hand at a junction the road changed is named for the organiser to check")
struct DrawnTulipCheckTests {
    @Test("regenerate's and apply's turn lines name the row by its marker, else by its distance")
    func lines() {
        var report = RegenerationReport()
        let at = Coordinate(latitude: 42.5, longitude: 1.5)
        report.drawnTulipsToCheck = [
            Note(id: 12, kind: .turn, distanceAlong: 12_340, coordinate: at, text: "Left", marker: "R12"),
            Note(id: 13, kind: .typed, distanceAlong: 15_000, coordinate: at, text: "Well"),
        ]
        #expect(report.changeLines == [
            "check: R12's tulip was drawn by hand and the junction changed: check it",
            "check: the tulip at 15.00 km was drawn by hand and the junction changed: check it",
        ])
    }
}
