import Foundation
import Workflows

/// `--engine`, `--url`, `--api-key`, `--osm` and `--concurrency` as `route` and `handles` take them:
/// which routing engine the road legs are asked of, and how.
enum EngineOptions {
    /// `--engine ENGINE`; required by `route`, optional where nothing may need asking.
    static func engine(required: Bool, help: String = "the routing engine the legs are asked of") -> Option {
        Option("engine", .choice(EngineKind.allCases.map(\.rawValue)), value: "ENGINE", required: required, help: help)
    }

    static let url = Option("url", value: "URL", help: """
        the engine's address (default OSRM http://127.0.0.1:5000,
        Valhalla http://127.0.0.1:8002, GraphHopper http://127.0.0.1:8989)
        """)
    static let apiKey = Option("api-key", value: "KEY", help: "GraphHopper's key, when the server needs one")
    static let osm = Option("osm", value: "EXTRACT", help: """
        OpenStreetMap extract: the embedded router routes on it; with any
        engine, handles without a name are named from it (the nearest road)
        """)
    static let concurrency = Option("concurrency", .integer(1...64), value: "N", default: "4", help: "legs asked at once")

    /// The settings the options give; nil when `--engine` is not given (and not required).
    /// - Parameter osmIsShared: whether the command's `--osm` has a use of its own (the turns'
    ///   junctions), so it is neither refused without `--engine` nor for another engine.
    /// - Throws: `UsageError` for a URL that is not http(s), or the embedded router without `--osm`.
    static func settings(_ options: ParsedOptions, osmIsShared: Bool = false) throws -> EngineSettings? {
        let url = try options.string("url").map { text in
            guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
                throw UsageError(message: "--url '\(text)' is not an http(s) URL")
            }
            return url
        }
        let osm = options.file("osm")
        guard let engine = options.choice("engine", as: EngineKind.self) else {
            if url != nil || (osm != nil && !osmIsShared) { throw UsageError(message: "--url and --osm go with --engine") }
            return nil
        }
        if engine == .embedded && osm == nil { throw UsageError(message: "the embedded router needs --osm EXTRACT") }
        var settings = EngineSettings(kind: engine, url: url, apiKey: options.string("api-key"), osm: osm,
                                      concurrency: try options.integer(always: "concurrency"))
        settings.answerLimitAdvice = TerrainOptions.answerLimitAdvice
        return settings
    }
}
