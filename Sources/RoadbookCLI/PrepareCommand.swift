import Foundation
import Workflows

/// `roadbook prepare`: reads an extract once and writes its road graph beside it, so later runs of
/// the embedded router and of the turn finder read only the region they need, in milliseconds.
struct PrepareCommand: Command {
    static let declaration = CommandDeclaration(
        name: "prepare",
        abstract: "Prepare an OpenStreetMap extract's road graph beside it, for fast routing and turns.",
        positionals: "EXTRACT.osm.pbf", positionalCount: 1...1,
        forms: [UsageForm()],
        discussion: """
        Reads the whole extract (.osm.pbf, .osm or .osm.gz) once and writes its road graph as
        EXTRACT.roadbook-graph in the same folder. From then on every command given --osm EXTRACT
        (route, build, regenerate, apply, handles, inspect) reads the region it needs from that file
        instead of the extract. The file records the extract's size, time and fingerprint: when the
        extract is replaced, the next command prepares it again by itself, and says so. It needs
        the memory of the whole road graph once (about 0.25 GB per million road nodes); later runs
        need only their region's.
        """,
        options: [])

    var extract: URL

    init(_ options: ParsedOptions) throws {
        extract = URL(fileURLWithPath: options.positionals[0])
    }

    func run(_ console: any Console) async throws {
        let prepared = try prepareExtract(extract)
        console.out("\(prepared.file.relativePath): \(prepared.roadNodes) road nodes, \(prepared.roadSegments) road segments, "
                    + "\(prepared.ways) ways, \(prepared.places) places, \(String(format: "%.1f", Double(prepared.bytes) / 1e6)) MB")
    }
}
