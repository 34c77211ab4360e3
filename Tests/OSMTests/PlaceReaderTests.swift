import Foundation
import Geo
@testable import OSM
import Testing
import TestSupport

// The places of the Andorra extract, as osmium (an independent reader of OSM files) lists them:
// Goldens/andorra-places.osm is the output of
//   osmium tags-filter -o Tests/OSMTests/Goldens/andorra-places.osm \
//     samples/data/andorra/andorra.osm.pbf n/place n/mountain_pass n/natural=saddle,peak
// (osmium-tool 1.15). The expected places are read from that XML with a few regular expressions
// below, not with this package's readers, and the kind of each follows `OSMPlace.Kind`'s documented
// rule (a `place` value from the list, else `mountain_pass=yes`/`natural=saddle`, else `natural=peak`).

private func osmiumPlacesURL() -> URL {
    packageRoot().appendingPathComponent("Tests/OSMTests/Goldens/andorra-places.osm")
}

private func andorraURL() throws -> URL {
    try testDataFolder().appendingPathComponent("andorra/andorra.osm.pbf")
}

/// One node of osmium's XML: id, coordinate and tags, read with regular expressions.
private struct ListedNode {
    var id: Int64
    var latitude: Double
    var longitude: Double
    var tags: [String: String]
}

private func unescape(_ text: Substring) -> String {
    text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
        .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
        .replacingOccurrences(of: "&amp;", with: "&")
}

private func listedNodes(_ xml: String) throws -> [ListedNode] {
    let nodeRegex = try Regex(#"<node id="(-?\d+)"[^>]* lat="([-0-9.]+)" lon="([-0-9.]+)"(/?)>"#)
    let tagRegex = try Regex(#"<tag k="([^"]*)" v="([^"]*)"/>"#)
    var result: [ListedNode] = []
    for line in xml.split(separator: "\n") {
        if let match = try nodeRegex.firstMatch(in: line) {
            result.append(ListedNode(id: Int64(String(match[1].substring!))!, latitude: Double(String(match[2].substring!))!,
                                     longitude: Double(String(match[3].substring!))!, tags: [:]))
        } else if let match = try tagRegex.firstMatch(in: line), !result.isEmpty {
            result[result.count - 1].tags[unescape(match[1].substring!)] = unescape(match[2].substring!)
        }
    }
    return result
}

/// The places the documented rule makes of osmium's nodes: (id, name, kind, latitude, longitude).
private func expectedPlaces() throws -> [Int64: (name: String, kind: String, latitude: Double, longitude: Double)] {
    let settlements = ["city", "town", "village", "hamlet", "suburb", "quarter", "neighbourhood", "locality",
                       "isolated_dwelling", "farm"]
    var result: [Int64: (name: String, kind: String, latitude: Double, longitude: Double)] = [:]
    for node in try listedNodes(String(contentsOf: osmiumPlacesURL(), encoding: .utf8)) {
        guard let name = node.tags["name"]?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { continue }
        let kind: String
        if let place = node.tags["place"], settlements.contains(place) {
            kind = place
        } else if node.tags["mountain_pass"] == "yes" || node.tags["natural"] == "saddle" {
            kind = "pass"
        } else if node.tags["natural"] == "peak" {
            kind = "peak"
        } else {
            continue
        }
        result[node.id] = (name, kind, node.latitude, node.longitude)
    }
    return result
}

private let osmiumInstalled = (try? runTool("osmium", ["--version"])) != nil

// Goldens/andorra-node-marks.osm is the output of
//   osmium tags-filter -o Tests/OSMTests/Goldens/andorra-node-marks.osm samples/data/andorra/andorra.osm.pbf \
//     n/barrier n/highway=turning_circle,turning_loop,mini_roundabout n/access n/motor_vehicle n/motorcar \
//     n/vehicle n/bicycle n/foot
// (osmium-tool 1.15): every node with a barrier, a turning place or an access tag.

private func osmiumMarksURL() -> URL {
    packageRoot().appendingPathComponent("Tests/OSMTests/Goldens/andorra-node-marks.osm")
}

@Suite("Places read from OpenStreetMap files")
struct PlaceReaderTests {
    @Test("the Andorra PBF's node marks are the barrier, turning-place and access nodes osmium lists, with those tags")
    func andorraMarksMatchOsmium() throws {
        let keys = ["barrier", "highway", "bollard", "kerb", "sensory", "access", "motor_vehicle", "motorcar", "vehicle", "bicycle", "foot"]
        var expected: [Int64: [String: String]] = [:]
        for node in try listedNodes(String(contentsOf: osmiumMarksURL(), encoding: .utf8)) {
            let tags = node.tags.filter { keys.contains($0.key) }
            let turning = ["turning_circle", "turning_loop", "mini_roundabout"].contains(tags["highway"] ?? "")
            guard tags["barrier"] != nil || turning || tags.keys.contains(where: { !["barrier", "highway", "bollard", "kerb", "sensory"].contains($0) })
            else { continue }
            expected[node.id] = tags
        }
        // By eye on openstreetmap.org: the extract's mini-roundabouts, turning circles and a few gates.
        #expect(expected.count >= 40)
        let data = try OSMData.read(contentsOf: andorraURL())
        #expect(data.nodeMarks.mapValues(\.tags) == expected)
        #expect(try OSMData.read(contentsOf: osmiumMarksURL()).nodeMarks == data.nodeMarks, "the XML of the same nodes")
        // A road graph keeps the marks of its own nodes.
        let graph = OSMGraph.build(from: data)
        #expect(!graph.nodeMarks.isEmpty && graph.nodeMarks.allSatisfy { index, mark in data.nodeMarks[graph.osmIDs[index]] == mark })
        #expect(graph.nodeMarks.values.contains { $0.tags["barrier"] == "fence" } && graph.nodeMarks.values.contains(where: \.isTurningPlace))
    }

    @Test("the Andorra PBF's places are exactly the named place, pass and peak nodes osmium lists, at their coordinates")
    func andorraPlacesMatchOsmium() throws {
        let expected = try expectedPlaces()
        // By eye on openstreetmap.org: the parish towns, villages and the Envalira pass are there.
        #expect(expected.count > 150)
        let data = try OSMData.read(contentsOf: andorraURL())
        #expect(data.places.count == expected.count)
        #expect(Set(data.places.map(\.id)) == Set(expected.keys))
        for place in data.places {
            guard let listed = expected[place.id] else { continue }
            #expect(place.name == listed.name && place.kind.rawValue == listed.kind, "node \(place.id)")
            // osmium writes 7 decimals: the reader keeps the file's 10⁻⁷ degree exactly.
            #expect(abs(place.coordinate.latitude - listed.latitude) < 1e-9 && abs(place.coordinate.longitude - listed.longitude) < 1e-9,
                    "node \(place.id)")
        }
        let byName = Dictionary(data.places.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byName["Canillo"]?.kind == .village || byName["Canillo"]?.kind == .town)
        #expect(byName["Port d'Envalira"]?.kind == .pass)
        // The country node (place=country) names no stop.
        #expect(!data.places.contains { $0.name == "Andorra" })
    }

    @Test("the XML export of the same nodes reads the same places as the PBF")
    func xmlExportAgrees() throws {
        let pbf = try OSMData.read(contentsOf: andorraURL())
        let xml = try OSMData.read(contentsOf: osmiumPlacesURL())
        #expect(xml.places == pbf.places)
    }

    @Test("with osmium installed: the whole extract as OSM XML reads the same places, and the listing above is current",
          .enabled(if: osmiumInstalled))
    func wholeExtractAsXML() throws {
        let folder = try TemporaryFolder()
        let whole = folder.path("andorra.osm")
        _ = try runTool("osmium", ["cat", "-o", whole.path, try andorraURL().path])
        let pbf = try OSMData.read(contentsOf: andorraURL())
        let xml = try OSMData.read(contentsOf: whole)
        #expect(xml.places == pbf.places)
        #expect(xml.nodes.count == pbf.nodes.count)
        let listing = folder.path("places.osm")
        _ = try runTool("osmium", ["tags-filter", "-o", listing.path, try andorraURL().path,
                                   "n/place", "n/mountain_pass", "n/natural=saddle,peak"])
        #expect(try listedNodes(String(contentsOf: listing, encoding: .utf8)).map(\.id)
                    == listedNodes(String(contentsOf: osmiumPlacesURL(), encoding: .utf8)).map(\.id))
    }

    @Test("XML: only named places are kept; a tag without v, a blank or over-long name, a country are skipped")
    func xmlRules() throws {
        let longName = String(repeating: "x", count: 256)
        let xml = """
            <osm version="0.6">
              <node id="1" lat="42.5" lon="1.5"><tag k="place" v="village"/><tag k="name" v=" Canillo "/></node>
              <node id="2" lat="42.6" lon="1.6"><tag k="natural" v="saddle"/><tag k="name" v="Coll"/></node>
              <node id="3" lat="42.7" lon="1.7"><tag k="natural" v="peak"/><tag k="mountain_pass" v="yes"/><tag k="name" v="Port"/></node>
              <node id="4" lat="42.5" lon="1.5"><tag k="place" v="village"/></node>
              <node id="5" lat="42.5" lon="1.5"><tag k="place" v="country"/><tag k="name" v="Andorra"/></node>
              <node id="6" lat="42.5" lon="1.5"><tag k="place"/><tag k="name" v="No value"/></node>
              <node id="7" lat="42.5" lon="1.5"><tag k="place" v="hamlet"/><tag k="name" v="   "/></node>
              <node id="8" lat="42.5" lon="1.5"><tag k="place" v="hamlet"/><tag k="name" v="\(longName)"/></node>
              <node id="9" lat="42.5" lon="1.5"><tag k="natural" v="tree"/><tag k="name" v="Old oak"/></node>
              <node id="10" lat="-42.25" lon="-1.125"><tag k="natural" v="peak"/><tag k="name" v="Pic"/></node>
              <node id="11" lat="42.5" lon="1.5"/>
              <way id="20"><nd ref="1"/><nd ref="2"/><tag k="highway" v="track"/><tag k="place" v="town"/><tag k="name" v="W"/></way>
            </osm>
            """
        let data = try OSMData.read(xml: Data(xml.utf8), fileName: "places.osm")
        #expect(data.places.map(\.id) == [1, 2, 3, 10])
        #expect(data.places.map(\.name) == ["Canillo", "Coll", "Port", "Pic"])
        #expect(data.places.map(\.kind) == [.village, .pass, .pass, .peak])
        #expect(data.places.last?.coordinate == Coordinate(latitude: -42.25, longitude: -1.125))
        #expect(data.nodes.count == 11 && data.ways.count == 1)
    }
}

// MARK: - Crafted PBF files

/// Place-reading blocks on top of `PBFWire`.
private extension PBFWire {
    static func stringTable(_ strings: [String]) -> [UInt8] { bytes(1, strings.flatMap { string(1, $0) }) }
    /// A block of one DenseNodes group: ids first…first + n − 1 at latitudes 42.5° + id × 0.001°, longitude 1.5°.
    static func denseBlock(strings: [String], keysValues: [UInt64]?, count: Int, first: Int64 = 1,
                           rawKeysValues: [UInt8]? = nil) -> [UInt8] {
        let ids = (first..<first + Int64(count)).map { $0 }
        var dense = packedSInt(1, deltasOf: ids) + packedSInt(8, deltasOf: ids.map { 425_000_000 + $0 * 10_000 })
            + packedSInt(9, deltasOf: ids.map { _ in 15_000_000 })
        if let keysValues { dense += packed(10, keysValues) }
        if let rawKeysValues { dense += bytes(10, rawKeysValues) }
        return stringTable(strings) + bytes(2, bytes(2, dense))
    }
}

@Suite("Places read from crafted PBF files")
struct PlacePBFTests {
    private func read(_ blocks: [[UInt8]]) throws -> OSMData {
        let folder = try TemporaryFolder()
        let url = folder.path("places.osm.pbf")
        try Data(PBFWire.header() + blocks.flatMap { PBFWire.rawBlob(type: "OSMData", $0) }).write(to: url)
        return try OSMData.read(contentsOf: url)
    }

    //                 0    1        2          3        4       5           6          7       8       9
    private let strings = ["", "place", "village", "name", "Ransol", "natural", "tree", "Roure", "peak", "Pic Negre",
                           "mountain_pass", "yes", "Port", "country", "Andorra", String(repeating: "é", count: 256)]
    //                       10               11     12      13         14         15: a name over 255 characters

    @Test("dense nodes: named places, a pass and a peak kept; a tree, an unnamed place, a country, an over-long name and untagged nodes not")
    func denseNodes() throws {
        let keysValues: [UInt64] = [
            0,                      // 1: untagged
            1, 2, 3, 4, 0,          // 2: place=village name=Ransol
            5, 6, 3, 7, 0,          // 3: natural=tree name=Roure
            5, 8, 3, 9, 0,          // 4: natural=peak name=Pic Negre
            3, 12, 10, 11, 0,       // 5: name=Port mountain_pass=yes (name first)
            1, 2, 0,                // 6: place=village, no name
            1, 13, 3, 14, 0,        // 7: place=country name=Andorra
            0,                      // 8: untagged
            1, 2, 3, 15, 0,         // 9: place=village, a name too long for OpenStreetMap
        ]
        let data = try read([PBFWire.denseBlock(strings: strings, keysValues: keysValues, count: 9)])
        #expect(data.nodes.count == 9)
        #expect(data.places.map(\.id) == [2, 4, 5])
        #expect(data.places.map(\.name) == ["Ransol", "Pic Negre", "Port"])
        #expect(data.places.map(\.kind) == [.village, .peak, .pass])
        #expect(data.places.first?.coordinate == Coordinate(latitude: 42.502, longitude: 1.5))
    }

    @Test("plain nodes: keys and vals are read the same way")
    func plainNodes() throws {
        func node(_ id: Int64, keys: [UInt64], values: [UInt64]) -> [UInt8] {
            PBFWire.value(1, PBFWire.zigzag(id)) + PBFWire.packed(2, keys) + PBFWire.packed(3, values)
                + PBFWire.value(8, PBFWire.zigzag(425_000_000)) + PBFWire.value(9, PBFWire.zigzag(15_000_000))
        }
        let group = PBFWire.bytes(1, node(1, keys: [1, 3], values: [2, 4])) + PBFWire.bytes(1, node(2, keys: [5, 3], values: [6, 7]))
            + PBFWire.bytes(1, node(3, keys: [1, 3], values: [2])) // more keys than values: skipped
            + PBFWire.bytes(1, node(4, keys: [1, 3], values: [2, 99])) // a value beyond the table: skipped
        let data = try read([PBFWire.stringTable(strings) + PBFWire.bytes(2, group)])
        #expect(data.nodes.count == 4)
        #expect(data.places.map(\.id) == [1] && data.places.first?.name == "Ransol")
    }

    @Test("damaged keys_vals end the places of their block only; nodes and other blocks still read")
    func damagedKeysValues() throws {
        let good = PBFWire.denseBlock(strings: strings, keysValues: [1, 2, 3, 4, 0, 0], count: 2)
        // Node 1 names string 99 of a 15-string table; node 2 would be a place but is not read.
        let beyond = PBFWire.denseBlock(strings: strings, keysValues: [1, 99, 0, 1, 2, 3, 4, 0], count: 2, first: 3)
        // Too short: the run ends inside node 1's tags.
        let short = PBFWire.denseBlock(strings: strings, keysValues: [1, 2, 3], count: 2, first: 5)
        // A broken varint inside keys_vals.
        let broken = PBFWire.denseBlock(strings: strings, keysValues: nil, count: 1, first: 7, rawKeysValues: [0x81, 0x80])
        let data = try read([good, beyond, short, broken])
        #expect(data.nodes.count == 2 + 2 + 2 + 1)
        #expect(data.places.map(\.name) == ["Ransol"])
    }

    @Test("a block whose string table has no place key is not searched for places")
    func blockWithoutPlaceStrings() throws {
        // `name` without any kind key: even a node tagged name=… is no place.
        let data = try read([PBFWire.denseBlock(strings: ["", "name", "Ransol"], keysValues: [1, 2, 0], count: 1)])
        #expect(data.nodes.count == 1 && data.places.isEmpty)
    }
}
