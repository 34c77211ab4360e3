import Foundation
import Formats
import Geo
import Model
import OSM
import BookAssembly
import Guidance
import RouteEditing
import Routing
import Render

// The operations the command line's smaller commands call, one a command, and the values their
// declarations show (defaults, choices, the formats `export` writes). The command line parses,
// calls one of these and prints what it returns (docs/architecture.md, rule 4).

extension TerrainRequest {
    /// Metres between heights along the route when none is asked for (`ProfileBuilder`'s).
    public static var defaultSpacing: Metres { ProfileBuilder.Configuration().spacing }
}

extension RouteWorkflow {
    /// The most handles a route may have (`HandlesFile.maximumHandles`).
    public static let maximumHandles = HandlesFile.maximumHandles
}

/// A format `export` writes, as its help lists it (`BookFormats.writers`).
public struct ExportFormat: Sendable, Equatable {
    /// The name `exportBook`'s `format` takes.
    public var name: String
    /// Extensions, without the dot, that choose the format.
    public var fileExtensions: [String]
    /// What the file holds, in one line.
    public var summary: String
}

/// The formats `exportBook` writes, in the order it lists them.
public var exportFormats: [ExportFormat] {
    BookFormats.writers.map { ExportFormat(name: $0.formatName, fileExtensions: $0.fileExtensions, summary: $0.summary) }
}

/// The links that open the route of the book file `url` in Apple Maps and Google Maps.
/// - Parameter placesByName: named stops go by their names instead of their coordinates.
/// - Throws: `FormatError` for the book; `WorkflowError` when its route has fewer than two points.
/// - Parameter extract: when given, each stop without a name is named from it (`PlaceNames`: the
///   village, pass or street it is in), read round the stops.
public func mapLinks(ofBook url: URL, placesByName: Bool, extract: URL? = nil, log: (any WorkflowLog)? = nil) throws -> MapLinks {
    let book = try BookFile.read(contentsOf: url)
    var configuration = MapLinks.Configuration()
    configuration.placesByName = placesByName
    var stops = MapLinks.stops(of: book, sameStopDistance: configuration.sameStopDistance)
    guard stops.count >= 2 else {
        throw WorkflowError("\(url.path): the route has fewer than two points; there is nothing to open")
    }
    if let extract {
        var near = RouteCorridor.Configuration()
        near.width = ExtractRouter.Configuration().minimumMargin
        let graph = try MapExtract(extract).graph(in: RouteCorridor(route: stops.map(\.coordinate), configuration: near), log: log)
        let names = PlaceNames(graph: graph)
        for i in stops.indices where stops[i].name == nil { stops[i].name = names.name(at: stops[i].coordinate) }
    }
    return MapLinks(stops: stops, mode: book.travelMode, configuration: configuration)
}

/// What preparing an extract wrote (`MapExtract.prepare`).
public struct PreparedExtract: Sendable, Equatable {
    /// The prepared graph, beside the extract.
    public var file: URL
    public var roadNodes: Int
    public var roadSegments: Int
    public var ways: Int
    public var places: Int
    /// The prepared file's size; 0 when it cannot be read back.
    public var bytes: Int
}

/// Reads the extract `url` whole and writes its road graph beside it (`MapExtract.prepare`).
/// - Throws: the extract's errors; `AtomicFile.WriteError` when the graph cannot be written.
public func prepareExtract(_ url: URL) throws -> PreparedExtract {
    let map = MapExtract(url)
    let graph = try map.prepare()
    let bytes = (try? FileManager.default.attributesOfItem(atPath: map.preparedURL.path)[.size] as? NSNumber)?.intValue ?? 0
    return PreparedExtract(file: map.preparedURL, roadNodes: graph.count, roadSegments: graph.edgeCount / 2,
                           ways: graph.ways.count, places: graph.places.count, bytes: bytes)
}

/// The environment variables that say where the templates and the fonts are, as the manual page
/// lists them.
public enum ResourceEnvironment {
    /// A folder of page templates (`TemplateLibrary`).
    public static let templates = TemplateLibrary.environmentVariable
    /// A folder of the DejaVu Sans files (`BundledFonts`).
    public static let fonts = BundledFonts.environmentVariable
    /// The symbol library's folder of pictograms (`SymbolLibrary`).
    public static let symbols = SymbolLibrary.environmentVariable
}
