import Foundation
import Geo
import HTTP
import Model
import Pipeline
import Terrain
#if canImport(Glibc)
import Glibc
#endif

/// `--dem PATH` and `--elevation SERVICE` as `build` and `regenerate` take them: where heights
/// come from, in the order given, each source filling what the ones before had no height for.
struct TerrainOptions {
    var dems: [URL] = []
    var services: [String] = []
    var spacing: Metres?

    static let help = """
      --dem PATH                   heights from DEM files: an SRTM .hgt or .hgt.zip tile, a GeoTIFF
                                   in WGS84, or a folder of tiles named like N42E001.hgt (repeatable)
      --elevation SERVICE          heights from a service (repeatable, asked in order after --dem):
                                   opentopodata:URL (e.g. opentopodata:https://api.opentopodata.org/v1/srtm30m),
                                   open-elevation:URL, valhalla:URL (a Valhalla server with /height)
      --profile-spacing M          metres between heights along the route (default 15)
    """

    init(_ arguments: inout Arguments) throws {
        dems = try arguments.options("dem").map { URL(fileURLWithPath: $0) }
        services = try arguments.options("elevation")
        spacing = try arguments.number("profile-spacing", in: 1...1000)
        for service in services { _ = try Self.parse(service) }
    }

    var isEmpty: Bool { dems.isEmpty && services.isEmpty }

    enum Service { case openTopoData(URL, dataset: String), openElevation(URL), valhalla(URL) }

    /// Reads `kind:URL`.
    static func parse(_ text: String) throws -> Service {
        guard let colon = text.firstIndex(of: ":") else {
            throw UsageError(message: "--elevation '\(text)': write opentopodata:URL, open-elevation:URL or valhalla:URL")
        }
        let kind = text[..<colon].lowercased()
        let rest = String(text[text.index(after: colon)...])
        guard let url = URL(string: rest), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw UsageError(message: "--elevation '\(text)': '\(rest)' is not an http(s) URL")
        }
        switch kind {
        case "opentopodata":
            // The dataset is the last path component: https://api.opentopodata.org/v1/srtm30m
            let dataset = url.lastPathComponent
            guard url.pathComponents.count >= 3, url.pathComponents[url.pathComponents.count - 2] == "v1" else {
                throw UsageError(message: "--elevation '\(text)': an OpenTopoData URL ends in /v1/DATASET")
            }
            return .openTopoData(url.deletingLastPathComponent().deletingLastPathComponent(), dataset: dataset)
        case "open-elevation": return .openElevation(url)
        case "valhalla": return .valhalla(url)
        default:
            throw UsageError(message: "--elevation '\(text)': unknown service '\(kind)'; use opentopodata, open-elevation or valhalla")
        }
    }

    /// Folder for the on-disk cache of service answers.
    static var cacheFolder: URL {
        let base = ProcessInfo.processInfo.environment["ROADBOOK_CACHE"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/roadbook")
        return base.appendingPathComponent("elevation")
    }

    /// The sources in order, services cached on disk; progress on a terminal.
    func sources(console: any Console) throws -> [any ElevationSource] {
        var list: [any ElevationSource] = try dems.map { try DEMSource(contentsOf: $0) }
        if services.isEmpty { return list }
        let client = try CurlHTTPClient(maximumConcurrentRequests: 4)
        var progress: ElevationProgress? = nil
        if isatty(2) != 0 {
            progress = { @Sendable (done: Int, total: Int) in
                let end = done == total ? "\n" : ""
                FileHandle.standardError.write(Data("\rheights: \(done) of \(total)\(end)".utf8))
            }
        }
        for service in services {
            let source: any ElevationSource
            switch try Self.parse(service) {
            case .openTopoData(let base, let dataset):
                source = OpenTopoData(client: client, baseURL: base, dataset: dataset, progress: progress)
            case .openElevation(let url):
                source = OpenElevation(client: client, baseURL: url, progress: progress)
            case .valhalla(let url):
                source = ValhallaHeight(client: client, baseURL: url, progress: progress)
            }
            let folder = Self.cacheFolder.appendingPathComponent(Self.folderName(for: service))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            list.append(ElevationCache(wrapping: source, folder: folder))
        }
        return list
    }

    /// A file-system-safe folder name for a service.
    static func folderName(for service: String) -> String {
        String(service.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
    }

    /// Fetches heights along the book's route and stores its profile and the notes' heights. Says
    /// "No terrain for this route" when part of it has none, and which sources failed.
    func apply(to book: inout Book, console: any Console) async throws {
        let sources = try sources(console: console)
        guard !sources.isEmpty else { return }
        var builder = ProfileBuilder()
        if let spacing { builder.configuration.spacing = spacing }
        let points = builder.samplePoints(along: Polyline(book.route.coordinates))
        let chain = FallbackChain(sources)
        let report = try await chain.report(at: points)
        for failure in report.failures { console.err("warning: \(failure)") }
        let names = Set(report.sourceIndex.compactMap { $0 }).sorted().map { report.sourceNames[$0] }
        builder.apply(heights: report.heights, source: names.joined(separator: ", "), to: &book)
        if report.pointsWithoutHeight > 0 {
            console.err("warning: No terrain for this route: \(report.pointsWithoutHeight) of \(points.count) places have no height; the book prints without its elevation rows")
        } else if let profile = book.profile {
            console.err(String(format: "terrain: climb %.0f m, descent %.0f m (%@)", profile.climb, profile.descent,
                               profile.source ?? ""))
        }
    }
}
