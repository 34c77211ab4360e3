import BookAssembly
import Foundation
import Geo
import Guidance
import Model
import OSM
import RouteEditing
import Testing
import TestSupport
@testable import Workflows

// MARK: - The rules on a drawn map

// grid in metres (x east, y north); Main (name) runs along y = 0, a road with only a ref along
// y = −1000:
//
//   a ============ Main ============ b              (0,0) … (2000,0)      village V at (500,0)
//                                                                          locality L at (1500,40)
//                                                                          peak P at (1900,100)
//   c ------------ CG-2 ---------------------- d   (−500,−1000) … (8000,−1000)
//                                                   village W at (500,−1400)
//                                                   pass C at (3000,−1080)
//   hamlet H at (−2000,−3000), town T at (−2000,−5500): no road near either.

private let map = AsciiMap(gridSize: 100, "a", nodes: ["b": (2000, 0), "c": (-500, -1000), "d": (8000, -1000)],
                           ways: [("ab", ["highway": "residential", "name": "Main"]),
                                  ("cd", ["highway": "primary", "ref": "CG-2"])])

private func place(_ id: Int64, _ x: Double, _ y: Double, _ name: String, _ kind: OSMPlace.Kind) -> OSMPlace {
    OSMPlace(id: id, coordinate: map.grid(x, y), name: name, kind: kind)
}

private let names: PlaceNames = {
    var graph = map.graph
    graph.places = [place(1, 500, 0, "V", .village), place(2, 1500, 40, "L", .locality), place(3, 1900, 100, "P", .peak),
                    place(4, 500, -1400, "W", .village), place(5, 3000, -1080, "C", .pass),
                    place(6, -2000, -3000, "H", .hamlet), place(7, -2000, -5500, "T", .town)]
    return PlaceNames(graph: graph)
}()

@Suite("Place names: the rules")
struct PlaceNamesRuleTests {
    @Test("in a village centre (within 200 m of its node) the village names the stop, not its street")
    func villageCentreBeatsStreet() {
        #expect(names.name(at: map.grid(500, 50)) == "V")
        #expect(names.name(at: map.grid(650, 0)) == "V")
    }

    @Test("out of the centre the named street names the stop, even well within the village's reach")
    func streetOutOfTheCentre() {
        #expect(names.name(at: map.grid(900, 0)) == "Main")
        #expect(names.name(at: map.grid(900, 200)) == "Main", "200 m from Main, within the 300 m radius")
    }

    @Test("a locality and a peak have no centre: a named road beside them wins")
    func noCentre() {
        #expect(names.name(at: map.grid(1500, 10)) == "Main", "30 m from the locality L")
        #expect(names.name(at: map.grid(1900, 20)) == "Main", "80 m from the peak P")
    }

    @Test("a road with only a ref loses to a place within its reach: a village 400 m off names the stop on CG-2")
    func refLosesToPlace() {
        #expect(names.name(at: map.grid(500, -1000)) == "W")
        #expect(names.name(at: map.grid(1600, -1000)) == "W", "about 1.2 km from W, within a village's 1.5 km")
    }

    @Test("at a pass (within 150 m of its node) the pass names the stop; far from every place, the ref does")
    func passAndRef() {
        #expect(names.name(at: map.grid(3000, -1000)) == "C")
        #expect(names.name(at: map.grid(3400, -1000)) == "C", "about 410 m: within a pass's 500 m reach, no named road")
        #expect(names.name(at: map.grid(7000, -1000)) == "CG-2")
    }

    @Test("no road near: the nearest place within its kind's reach, a town from farther than a hamlet, else no name")
    func reachByKind() {
        #expect(names.name(at: map.grid(-2000, -3500)) == "H", "500 m from the hamlet, 2 km from the town")
        #expect(names.name(at: map.grid(-2000, -3700)) == "T", "700 m from the hamlet, beyond its 600 m; 1.8 km from the town")
        #expect(names.name(at: map.grid(-2000, -4000)) == "T", "1 km from the hamlet (beyond its reach), 1.5 km from the town")
        #expect(names.name(at: map.grid(-6000, -5500)) == nil, "4 km from the town: beyond its 3 km")
        #expect(names.name(at: map.grid(1900, 350)) == "P", "250 m from the peak, 350 m from Main")
    }

    @Test("a graph without places names stops as before: the nearest named road, else nil")
    func withoutPlaces() {
        let plain = PlaceNames(graph: map.graph)
        #expect(plain.name(at: map.grid(500, 50)) == "Main")
        #expect(plain.name(at: map.grid(500, -1000)) == "CG-2")
        #expect(plain.name(at: map.grid(-2000, -3500)) == nil)
    }
}

// MARK: - The Andorra extract

/// A named node of osmium's listing of the extract's places (Tests/OSMTests/Goldens/andorra-places.osm,
/// see PlaceReaderTests), read with a regular expression: where OpenStreetMap puts it.
private func listedPosition(of name: String) throws -> Coordinate {
    let xml = try String(contentsOf: packageRoot().appendingPathComponent("Tests/OSMTests/Goldens/andorra-places.osm"), encoding: .utf8)
    let escaped = name.replacingOccurrences(of: "'", with: "&apos;")
    let regex = try Regex(#"<node id="\d+"[^>]* lat="([-0-9.]+)" lon="([-0-9.]+)">\n(?:    <tag [^\n]*\n)*?    <tag k="name" v=""#
                          + NSRegularExpression.escapedPattern(for: escaped) + #""/>"#)
    let match = try #require(try regex.firstMatch(in: xml), "\(name) is not in the listing")
    return Coordinate(latitude: Double(String(match[1].substring!))!, longitude: Double(String(match[2].substring!))!)
}

/// `point` moved `north` and `east` metres.
private func offset(_ point: Coordinate, north: Double, east: Double) -> Coordinate {
    MetreGrid(origin: point)(east, north)
}

@Suite("Place names: the Andorra extract")
struct AndorraPlaceNamesTests {
    static let names: PlaceNames? = {
        guard let url = try? testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf"),
              let graph = try? OSMGraph.load(contentsOf: url) else { return nil }
        return PlaceNames(graph: graph)
    }()

    @Test("a stop beside a village's centre is named after the village, as OpenStreetMap places it",
          arguments: ["Canillo", "Encamp", "Ordino", "Soldeu", "La Massana"])
    func villageCentres(_ village: String) throws {
        let names = try #require(Self.names)
        let node = try listedPosition(of: village)
        #expect(names.name(at: offset(node, north: 60, east: 40)) == village)
    }

    @Test("a stop at Port d'Envalira is named after the pass")
    func envalira() throws {
        let names = try #require(Self.names)
        let pass = try listedPosition(of: "Port d'Envalira")
        #expect(names.name(at: offset(pass, north: -50, east: 30)) == "Port d'Envalira")
    }

    @Test("a route from Canillo to Encamp is titled \"Canillo → Encamp\", not after the CG-2 both stand on")
    func routeTitle() throws {
        let names = try #require(Self.names)
        let start = offset(try listedPosition(of: "Canillo"), north: 40, east: -60)
        let end = offset(try listedPosition(of: "Encamp"), north: -50, east: 50)
        var editor = RouteEditor()
        editor.addHandle(at: start)
        editor.addHandle(at: end)
        let named = names.naming(editor)
        #expect(RouteNaming.name(of: named.plan.handles) == "Canillo → Encamp")
    }
}

// MARK: - Placeholders a mapper left

@Suite("Place names: a map's placeholders name nothing")
struct PlaceholderNameTests {
    /// A crossroads at node 1 (42.5, 1.5): "Carrer Major" west to east, a FIXME road north with ref
    /// "?", an "unknown" road south with ref CG-9; a place "noname" at the crossroads and a village
    /// "Ordino" 1 km north. The tags are as mappers leave them.
    static let xml = """
    <?xml version="1.0" encoding="UTF-8"?>
    <osm version="0.6">
      <node id="1" lat="42.5" lon="1.5"><tag k="place" v="hamlet"/><tag k="name" v="noname"/></node>
      <node id="2" lat="42.5" lon="1.49"/>
      <node id="3" lat="42.5" lon="1.51"/>
      <node id="4" lat="42.505" lon="1.5"/>
      <node id="5" lat="42.495" lon="1.5"/>
      <node id="6" lat="42.509" lon="1.5"><tag k="place" v="village"/><tag k="name" v="FIXME"/></node>
      <way id="10"><nd ref="2"/><nd ref="1"/><nd ref="3"/><tag k="highway" v="residential"/><tag k="name" v="Carrer Major"/></way>
      <way id="11"><nd ref="1"/><nd ref="4"/><tag k="highway" v="residential"/><tag k="name" v="FIXME"/><tag k="ref" v="?"/></way>
      <way id="12"><nd ref="1"/><nd ref="5"/><tag k="highway" v="secondary"/><tag k="name" v="unknown"/><tag k="ref" v="CG-9"/></way>
    </osm>
    """

    @Test("which values are placeholders")
    func placeholders() {
        for text in ["FIXME", "fixme", "FixMe: check", "TODO", "unknown", "Unknown", "noname", "No name", "?", "??", " - ", "...", "n/a", "unnamed", ""] {
            #expect(MapNames.usable(text) == nil, "'\(text)'")
        }
        for text in ["Carrer Major", "CG-2", "N-145", "Port d'Envalira", "Avinguda Meritxell ?", "Todos Santos", " Canillo "] {
            #expect(MapNames.usable(text) == text.trimmingCharacters(in: .whitespaces), "'\(text)'")
        }
    }

    @Test("no spoke, row or handle takes its name from a placeholder")
    func fromTheMap() throws {
        let graph = OSMGraph.build(from: try OSMData.read(xml: Data(Self.xml.utf8), fileName: "placeholders.osm"))
        let finder = JunctionFinder(graph: graph)
        let node = try #require(graph.osmIDs.firstIndex(of: 1))
        let spokes = graph.edges(from: node).map { finder.spoke(leaving: node, along: $0) }
        #expect(spokes.count == 4)
        #expect(Set(spokes.compactMap(\.name)) == ["Carrer Major"], "\(spokes.map(\.name))")
        #expect(Set(spokes.compactMap(\.ref)) == ["CG-9"], "\(spokes.map(\.ref))")

        // The words of a row: a FIXME road is no road to name; a placeholder name gives way to the ref.
        let at = graph.coordinates[node]
        func words(_ name: String?, _ ref: String?) -> String {
            Instructions.english.text(for: Maneuver(kind: .turn, modifier: .left, distanceAlong: 0, coordinate: at, turnAngle: -90,
                                                   junctions: [], exitName: name, exitRef: ref))
        }
        #expect(words("FIXME", "?") == words(nil, nil) && !words("FIXME", "?").contains("onto"))
        #expect(words("unknown", "CG-9") == words(nil, "CG-9") && words(nil, "CG-9").hasSuffix("onto CG-9"))
        #expect(words("todo", nil) == words(nil, nil))

        // A handle: not the hamlet "noname" at the crossroads, nor the FIXME road or village north of it.
        let names = PlaceNames(graph: graph)
        #expect(names.name(at: at) == "Carrer Major")
        #expect(names.name(at: graph.coordinates[try #require(graph.osmIDs.firstIndex(of: 4))]) == nil,
                "at the end of the FIXME road, 555 m north, beside the FIXME village: no name rather than a placeholder")
        #expect(names.name(at: graph.coordinates[try #require(graph.osmIDs.firstIndex(of: 5))]) == "CG-9",
                "on the road named unknown: its ref")
    }
}
