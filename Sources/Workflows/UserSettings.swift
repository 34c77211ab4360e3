import AtomicFile
import Foundation
import Formats
import Model

/// What roadbook remembers for the person who runs it, from one book to the next: the travel mode
/// last asked for (`--mode`, `handles BOOK mode`), which a new book takes when no mode is given. A
/// book remembers its own (its plan's mode, or its settings'); this is the person's. A small JSON
/// file, `roadbook/settings.json` in `$XDG_CONFIG_HOME`, else in `$HOME/.config`.
public struct UserSettings: Sendable {
    /// The file's limits, each with its reason.
    public struct Configuration: Sendable {
        /// The largest settings file read: a few fields; a larger file is not one roadbook wrote.
        public var maximumFileSize = 64 << 10
        public init() {}
    }

    /// The file; nil when the environment names no folder for it (neither `XDG_CONFIG_HOME` nor
    /// `HOME` is an absolute path): nothing is remembered then.
    public let file: URL?
    public var configuration = Configuration()

    private struct Stored: Codable {
        var travelMode: TravelMode?
    }

    /// The settings of the person whose environment this is (a process's, or a test's).
    public init(environment: [String: String]) {
        if let folder = environment["XDG_CONFIG_HOME"], folder.hasPrefix("/") {
            file = URL(fileURLWithPath: folder).appendingPathComponent("roadbook/settings.json")
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            file = URL(fileURLWithPath: home).appendingPathComponent(".config/roadbook/settings.json")
        } else {
            file = nil
        }
    }

    /// The travel mode last asked for; nil when none was, or when the file does not read (the next
    /// mode asked for writes it anew).
    public func travelMode() -> TravelMode? {
        guard let file, FileManager.default.fileExists(atPath: file.path),
              let data = try? InputFile.read(file, limit: configuration.maximumFileSize, what: "a settings file") else { return nil }
        return (try? JSONDecoder().decode(Stored.self, from: data))?.travelMode
    }

    /// Remembers `mode` as the travel mode last asked for.
    /// - Throws: `WorkflowError` naming the file when it cannot be written.
    public func remember(_ mode: TravelMode) throws {
        guard let file, travelMode() != mode else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFile.write(try encoder.encode(Stored(travelMode: mode)) + Data("\n".utf8), to: file)
        } catch let error as AtomicFile.WriteError {
            throw WorkflowError("\(file.path): cannot remember the travel mode: \(error.reason)")
        } catch {
            throw WorkflowError("\(file.path): cannot remember the travel mode: the folder cannot be made")
        }
    }
}
