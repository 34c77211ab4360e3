import BookAssembly
import Foundation
import Geo
import HTTP
import Model
import Terrain

/// An elevation service as written `kind:URL`: `opentopodata:https://api.opentopodata.org/v1/srtm30m`,
/// `open-elevation:URL` or `valhalla:URL` (a Valhalla server with `/height`).
public struct ElevationServiceAddress: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// An OpenTopoData server: its base URL (before `/v1`) and the dataset.
        case openTopoData(URL, dataset: String)
        case openElevation(URL)
        case valhalla(URL)
    }

    /// The address as written; it also names the service's cache folder.
    public var text: String
    public var kind: Kind

    /// Why an address could not be read, in words that say what to write instead.
    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// Reads `kind:URL`.
    /// - Throws: `ParseError` saying what is wrong.
    public init(_ text: String) throws {
        self.text = text
        guard let colon = text.firstIndex(of: ":") else {
            throw ParseError(reason: "write opentopodata:URL, open-elevation:URL or valhalla:URL")
        }
        let name = text[..<colon].lowercased()
        let rest = String(text[text.index(after: colon)...])
        guard let url = URL(string: rest), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw ParseError(reason: "'\(rest)' is not an http(s) URL")
        }
        switch name {
        case "opentopodata":
            // The dataset is the last path component: https://api.opentopodata.org/v1/srtm30m
            let dataset = url.lastPathComponent
            guard url.pathComponents.count >= 3, url.pathComponents[url.pathComponents.count - 2] == "v1" else {
                throw ParseError(reason: "an OpenTopoData URL ends in /v1/DATASET")
            }
            kind = .openTopoData(url.deletingLastPathComponent().deletingLastPathComponent(), dataset: dataset)
        case "open-elevation": kind = .openElevation(url)
        case "valhalla": kind = .valhalla(url)
        default:
            throw ParseError(reason: "unknown service '\(name)'; use opentopodata, open-elevation or valhalla")
        }
    }

    /// A file-system-safe folder name for the service's cache.
    public var folderName: String {
        String(text.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
    }
}

/// Where a book's heights come from: DEM files, then services, in that order, each source
/// filling what the ones before had no height for; and how densely the route is sampled.
public struct TerrainRequest: Sendable {
    /// DEM files: SRTM `.hgt` or `.hgt.zip` tiles, GeoTIFFs in WGS84, or folders of tiles.
    public var dems: [URL]
    /// Elevation services, asked in order after the DEMs; their answers are cached on disk.
    public var services: [ElevationServiceAddress]
    /// Metres between heights along the route; nil for `ProfileBuilder`'s default.
    public var spacing: Metres?
    /// Folder of the services' on-disk caches (one subfolder per service).
    public var cacheFolder: URL
    /// Requests to the services at once.
    public var maximumConcurrentRequests: Int
    /// Called as heights arrive from a service, for a progress display.
    public var progress: ElevationProgress?
    /// The largest answer, in bytes, taken from a service.
    public var maximumAnswerSize = TerrainRequest.defaultMaximumAnswerSize
    /// How to raise `maximumAnswerSize`, in the caller's words (the command line names its option),
    /// told after the size of an answer too large; nil tells the size alone.
    public var answerLimitAdvice: String?
    /// The largest answer a server may send unless told otherwise (`CurlHTTPClient`'s default).
    public static let defaultMaximumAnswerSize = CurlHTTPClient.defaultMaximumAnswerSize

    public init(dems: [URL] = [], services: [ElevationServiceAddress] = [], spacing: Metres? = nil,
                cacheFolder: URL = TerrainRequest.defaultCacheFolder(), maximumConcurrentRequests: Int = 4,
                progress: ElevationProgress? = nil) {
        self.dems = dems
        self.services = services
        self.spacing = spacing
        self.cacheFolder = cacheFolder
        self.maximumConcurrentRequests = maximumConcurrentRequests
        self.progress = progress
    }

    /// No source at all: the book gets no terrain.
    public var isEmpty: Bool { dems.isEmpty && services.isEmpty }

    /// `$ROADBOOK_CACHE/elevation`; else `$XDG_CACHE_HOME/roadbook/elevation`; else
    /// `$HOME/.cache/roadbook/elevation` (the XDG base directory rules). An empty or relative
    /// `XDG_CACHE_HOME` is ignored, as that specification says.
    public static func defaultCacheFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        func set(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let base: URL
        if let cache = set("ROADBOOK_CACHE") {
            base = URL(fileURLWithPath: cache)
        } else if let xdg = set("XDG_CACHE_HOME"), xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg).appendingPathComponent("roadbook")
        } else if let home = set("HOME") {
            base = URL(fileURLWithPath: home).appendingPathComponent(".cache/roadbook")
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/roadbook")
        }
        return base.appendingPathComponent("elevation")
    }

    /// The sources in order, services wrapped in their on-disk caches (the folders are created).
    public func sources() throws -> [any ElevationSource] {
        var list: [any ElevationSource] = try dems.map { try DEMSource(contentsOf: $0) }
        if services.isEmpty { return list }
        let client = try CurlHTTPClient(maximumConcurrentRequests: maximumConcurrentRequests,
                                        maximumAnswerSize: maximumAnswerSize)
        for service in services {
            let source: any ElevationSource
            switch service.kind {
            case .openTopoData(let base, let dataset):
                source = OpenTopoData(client: client, baseURL: base, dataset: dataset, progress: progress)
            case .openElevation(let url):
                source = OpenElevation(client: client, baseURL: url, progress: progress)
            case .valhalla(let url):
                source = ValhallaHeight(client: client, baseURL: url, progress: progress)
            }
            let folder = cacheFolder.appendingPathComponent(service.folderName)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            list.append(ElevationCache(wrapping: source, folder: folder))
        }
        return list
    }

    /// How far off the old route a point added to it may lie for the line to be the same: half a
    /// metre, well under the spacing of a profile's samples and the error of a DEM's cell.
    static let sameLineTolerance: Metres = 0.5

    /// The terrain step of every change of a book's route: heights fetched for the new route, or,
    /// with no source given, the old route's heights dropped (they belonged to another line), with
    /// a warning when the book had any.
    /// - Returns: the warning logged when heights were dropped, else nil.
    /// - Parameter oldRoute: the route the book's heights were fetched for: when the new route is
    ///   that very line, or one of the two is the other with points added on it (a regeneration for
    ///   the turns alone, before or after an Apply of a drawing traced from a track whose line did
    ///   not change; `Polyline.isSameLine`), the heights
    ///   still belong to it and are kept, every note given its height anew.
    /// - Throws: the sources' errors.
    @discardableResult
    public func fetchOrDrop(for book: inout Book, oldRoute: [Coordinate]? = nil, log: any WorkflowLog) async throws -> String? {
        guard isEmpty else {
            try await apply(to: &book, log: log)
            return nil
        }
        if let oldRoute, book.profile != nil,
           Polyline(book.route.coordinates).isSameLine(as: Polyline(oldRoute), within: Self.sameLineTolerance) {
            book.setNoteHeights()
            return nil
        }
        guard Self.dropHeights(of: &book) else { return nil }
        let notice = "the terrain belonged to the old route and is dropped; give --dem or --elevation to fetch it for the new one"
        log.record(WorkflowMessage(.warning, notice))
        return notice
    }

    /// Takes the book's heights away: its profile and its notes' heights.
    /// - Returns: whether it had any.
    @discardableResult
    static func dropHeights(of book: inout Book) -> Bool {
        let had = book.profile != nil || book.notes.contains { $0.elevation != nil }
        book.profile = nil
        for i in book.notes.indices { book.notes[i].elevation = nil }
        return had
    }

    /// Fetches heights along the book's route and stores its profile and the notes' heights.
    /// Logs a warning per failed source, and either "No terrain for this route" (when part of the
    /// route has no height) or the climb and descent found. Does nothing without sources.
    public func apply(to book: inout Book, log: any WorkflowLog) async throws {
        let sources = try sources()
        guard !sources.isEmpty else { return }
        var builder = ProfileBuilder()
        if let spacing { builder.configuration.spacing = spacing }
        let points = builder.samplePoints(along: Polyline(book.route.coordinates))
        let report = try await FallbackChain(sources).report(at: points)
        for failure in report.failures { log.record(WorkflowMessage(.warning, "\(failure.advised(answerLimitAdvice))")) }
        let names = Set(report.sourceIndex.compactMap { $0 }).sorted().map { report.sourceNames[$0] }
        builder.apply(heights: report.heights, source: names.joined(separator: ", "), to: &book)
        if report.pointsWithoutHeight > 0 {
            log.record(WorkflowMessage(.warning, "No terrain for this route: \(report.pointsWithoutHeight) of \(points.count) places have no height; the book prints without its elevation rows"))
        } else if let profile = book.profile {
            log.record(WorkflowMessage(.information, String(format: "terrain: climb %.0f m, descent %.0f m (%@)",
                                                              profile.climb, profile.descent, profile.source ?? "")))
        }
    }
}
