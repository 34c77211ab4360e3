import AtomicFile
import Foundation
import Geo
import OSM

/// An OpenStreetMap extract as the commands read it: from its prepared graph beside it when
/// `roadbook prepare` made one (`PreparedGraph`, read with `mmap`: a region in milliseconds), else
/// from the extract itself (streamed once, keeping only what is asked for).
///
/// The prepared graph is the extract's path with `preparedSuffix` added. It is used only while it
/// matches the extract (`ExtractSignature`: size, modification time, fingerprint) and this
/// program's format version; when the extract changed, or the format did, it is made again before
/// use, with a note in the log, because a person who prepared an extract once wants every later
/// run fast. When it cannot be made again (a read-only folder), the extract is read directly.
public struct MapExtract: Sendable {
    /// Added to the extract's file name to name its prepared graph.
    public static let preparedSuffix = ".roadbook-graph"

    /// The extract.
    public let url: URL

    public init(_ url: URL) { self.url = url }

    /// Where the extract's prepared graph is, or would be.
    public var preparedURL: URL {
        // Relative when the extract's path is, so messages name it as the person typed it.
        URL(fileURLWithPath: url.relativePath + Self.preparedSuffix, relativeTo: url.baseURL)
    }

    /// What was found beside the extract.
    public enum PreparedState {
        /// No prepared graph.
        case none
        /// A prepared graph of this extract, as it is now.
        case fresh(PreparedGraph)
        /// A prepared graph that no longer matches: the reason, in words.
        case stale(String)
    }

    /// Whether the extract has a prepared graph, and whether it matches the extract.
    /// - Throws: `OSMError` when the extract itself cannot be read.
    public func preparedState() throws -> PreparedState {
        guard FileManager.default.fileExists(atPath: preparedURL.path) else { return .none }
        let prepared: PreparedGraph
        do {
            prepared = try PreparedGraph(contentsOf: preparedURL)
        } catch let error as OSMError {
            return .stale(error.message)
        }
        guard prepared.signature == (try ExtractSignature(of: url)) else {
            return .stale("the extract changed since it was prepared")
        }
        return .fresh(prepared)
    }

    /// Reads the whole extract and writes its prepared graph beside it, replacing any other
    /// (written to a temporary file and renamed into place: an interrupted run leaves the old one).
    /// Memory: the whole road graph of the extract, as `OSMGraph.load`.
    /// - Returns: the graph, as read.
    /// - Throws: `OSMError` for the extract; `OutputIsInput` when the prepared graph's name leads to
    ///   the extract; `AtomicFile.WriteError` when the prepared graph cannot be written.
    @discardableResult
    public func prepare() throws -> RoadGraph {
        // A prepared graph's name that leads to the extract itself (a link) would replace it.
        try checkOutputs([RunOutput(preparedURL, .cache)], inputs: [RunInput(url, "the extract it reads")])
        let signature = try ExtractSignature(of: url)
        let graph = try OSMGraph.load(contentsOf: url)
        // Written with the usual permissions: a cache inherits none, so one left unreadable
        // (mode 000) is mended, not passed on.
        try AtomicFile.write(to: preparedURL, keepsMode: false) { temporary in
            do {
                try PreparedGraph.write(graph, signature: signature, to: temporary)
            } catch let error as OSMError {
                throw AtomicFile.WriteError(path: preparedURL.path, reason: error.message)
            }
        }
        return graph
    }

    /// Makes the prepared graph again when there is one that no longer matches the extract (or
    /// this program's format), noting it in `log`; leaves the extract alone when it has none.
    /// - Returns: the prepared graph to read, or nil when the extract itself must be read (none
    ///   was prepared, or it could not be written again: a warning in `log`).
    /// - Throws: `OSMError` naming the extract when it cannot be read.
    @discardableResult
    public func refreshPrepared(log: (any WorkflowLog)? = nil) throws -> PreparedGraph? {
        switch try preparedState() {
        case .fresh(let prepared):
            return prepared
        case .stale(let reason):
            return try remake(because: reason, log: log)
        case .none:
            return nil
        }
    }

    /// Makes the prepared graph again, noting why in `log`.
    /// - Returns: the new prepared graph, or nil when it could not be written (a warning in `log`).
    private func remake(because reason: String, log: (any WorkflowLog)?) throws -> PreparedGraph? {
        let why = reason.hasSuffix(PreparedGraph.remedy) ? String(reason.dropLast(PreparedGraph.remedy.count)) : reason
        log?.record(WorkflowMessage(.information, "\(preparedURL.relativePath): \(why); preparing it again"))
        do {
            try prepare()
            return try PreparedGraph(contentsOf: preparedURL)
        } catch let error as AtomicFile.WriteError {
            log?.record(WorkflowMessage(.warning, "\(error); reading the extract itself"))
            return nil
        }
    }

    /// The road graph within `corridor` (every node inside, and the nodes next to them), or the
    /// whole graph when nil: from the prepared graph when there is one that matches (making it
    /// again first when it is out of date, `refreshPrepared(log:)`, or found damaged), else from
    /// the extract.
    /// - Parameter log: where a prepared graph made again is noted, and why.
    /// - Throws: `OSMError` naming the file.
    public func graph(in corridor: RouteCorridor? = nil, log: (any WorkflowLog)? = nil) throws -> RoadGraph {
        var prepared = try refreshPrepared(log: log)
        return try graph(in: corridor, prepared: &prepared, log: log)
    }

    /// The road graph within `corridor` read from `prepared`, the result of an earlier
    /// `refreshPrepared(log:)` (a reader of many regions checks the extract once), or from the
    /// extract when that is nil. A prepared graph found damaged is made again, and `prepared`
    /// becomes the new one.
    /// - Throws: `OSMError` naming the file.
    public func graph(in corridor: RouteCorridor?, prepared: inout PreparedGraph?, log: (any WorkflowLog)? = nil) throws -> RoadGraph {
        if let current = prepared {
            do {
                return try current.graph(in: corridor)
            } catch let error as OSMError where error.file == preparedURL.relativePath {
                // A damaged file (a disk error, an edit by hand) is a cache to make again.
                prepared = try remake(because: error.message, log: log)
                if let remade = prepared { return try remade.graph(in: corridor) }
            }
        }
        return try OSMGraph.load(contentsOf: url, corridor: corridor)
    }
}
