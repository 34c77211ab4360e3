import Foundation
import Workflows
#if canImport(Glibc)
import Glibc
#endif

/// `--dem PATH` and `--elevation SERVICE` as `build` and `regenerate` take them: where heights
/// come from, in the order given, each source filling what the ones before had no height for.
struct TerrainOptions {
    var request = TerrainRequest()

    /// The options, declared once for every command that fetches heights.
    static let declarations: [Option] = [
        Option("dem", .repeatable, value: "PATH", help: """
            heights from DEM files: an SRTM .hgt or .hgt.zip tile, a GeoTIFF
            in WGS84, or a folder of tiles named like N42E001.hgt (repeatable)
            """),
        Option("elevation", .repeatable, value: "SERVICE", help: """
            heights from a service (repeatable, asked in order after --dem):
            opentopodata:URL (e.g. opentopodata:https://api.opentopodata.org/v1/srtm30m),
            open-elevation:URL, valhalla:URL (a Valhalla server with /height)
            """),
        Option("profile-spacing", .number(1...1000), value: "M",
               default: String(format: "%g", TerrainRequest.defaultSpacing),
               help: "metres between heights along the route"),
        maximumAnswer,
    ]

    static let maximumAnswer = Option("max-answer-mb", .number(1...4096), value: "MB",
                                      default: "\(TerrainRequest.defaultMaximumAnswerSize >> 20)",
                                      help: "the largest answer taken from an engine or a service")

    /// Told after the size of an answer too large for an engine or a service.
    static let answerLimitAdvice = "raise the limit with --\(maximumAnswer.name) if the answer is expected to be this large"

    init(_ options: ParsedOptions) throws {
        request.dems = options.strings("dem").map { URL(fileURLWithPath: $0) }
        request.services = try options.strings("elevation").map(Self.service)
        request.spacing = options.number("profile-spacing")
        if let megabytes = options.number(Self.maximumAnswer.name) { request.maximumAnswerSize = Int(megabytes) << 20 }
        request.answerLimitAdvice = Self.answerLimitAdvice
        request.progress = Self.terminalProgress()
    }

    var isEmpty: Bool { request.isEmpty }

    /// Reads `kind:URL`, refusing it as `--elevation`'s mistake.
    static func service(_ text: String) throws -> ElevationServiceAddress {
        do { return try ElevationServiceAddress(text) } catch let error as ElevationServiceAddress.ParseError {
            throw UsageError(message: "--elevation '\(text)': \(error.reason)")
        }
    }

    /// "heights: N of M" on standard error, when it is a terminal.
    static func terminalProgress() -> (@Sendable (Int, Int) -> Void)? {
        guard isatty(2) != 0 else { return nil }
        return { @Sendable (done: Int, total: Int) in
            let end = done == total ? "\n" : ""
            FileHandle.standardError.write(Data("\rheights: \(done) of \(total)\(end)".utf8))
        }
    }
}

/// Hands a workflow's messages to standard error, one line each, as they arise.
final class ConsoleLog: WorkflowLog {
    let console: any Console
    init(_ console: any Console) { self.console = console }
    func record(_ message: WorkflowMessage) { console.err(message.description) }
}
