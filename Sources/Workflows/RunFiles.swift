import AtomicFile
import Formats
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file an operation reads, with what it is to the operation, as messages say it: "the book it
/// reads", "the track", "the extract".
public struct RunInput: Sendable, Equatable {
    public var url: URL
    public var role: String
    public init(_ url: URL, _ role: String) {
        self.url = url
        self.role = role
    }
}

/// A file an operation writes.
public struct RunOutput: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// An output a person named (`-o`, `--book`): its folder must be writable, and a read-only
        /// file there is replaced only when forced.
        case named
        /// A new version of the input at the URL (a book written over itself, its undo file): it
        /// may be that input; otherwise as `named`.
        case edit(of: URL)
        /// A file the program keeps for itself (a prepared graph): written when it can be, so only
        /// checked not to be an input.
        case cache
    }

    public var url: URL
    public var kind: Kind
    /// Whether a book file is written there: an existing file that is not one (a track, an
    /// extract, another tool's route) is replaced only when forced.
    public var holdsBook: Bool

    public init(_ url: URL, _ kind: Kind = .named, holdsBook: Bool = false) {
        self.url = url
        self.kind = kind
        self.holdsBook = holdsBook
    }
}

/// An output that is one of the operation's inputs: writing it would destroy what is read.
public struct OutputIsInput: Error, CustomStringConvertible, Equatable, Sendable {
    /// The output as named.
    public var output: URL
    /// What the input is to the operation ("the book it reads").
    public var role: String
    public init(output: URL, role: String) {
        self.output = output
        self.role = role
    }
    public var description: String { "\(shownPath(output)) is \(role) (an input): choose another output" }
}

/// A path as the person typed it: relative stays relative.
func shownPath(_ url: URL) -> String { url.relativePath }

/// The one check of an operation's files, before any work, so a run that could not finish or would
/// harm an input writes nothing at all:
/// - an output that is one of the inputs (its links followed, or a hard link to it: the same
///   device and inode) is refused, unless it is the new version of that very input (`.edit`);
/// - an output's folder must exist and be writable, and an output that exists must be a regular
///   file (not a folder, a device, a FIFO), its links followed (`.cache` outputs are exempt);
/// - an existing output without its owner's write bit (or, for a user other than root, that the
///   user may not write) is read-only: refused unless `force`, as an editor refuses it. The mode
///   bits decide for root, whom `access(2)` lets write anything;
/// - commits that killed runs left unfinished in the outputs' folders are finished first
///   (`AtomicFile.finishInterruptedCommits`), so what is read and replaced is whole.
/// An input that is standard input (`-`) is no file to compare.
/// - Throws: `OutputIsInput` or `WorkflowError`, each naming the output.
public func checkOutputs(_ outputs: [RunOutput], inputs: [RunInput], force: Bool = false) throws {
    for output in outputs {
        let folder = ((try? AtomicFile.resolveTarget(output.url)) ?? output.url).deletingLastPathComponent()
        AtomicFile.finishInterruptedCommits(in: folder)
    }
    for output in outputs {
        for input in inputs where input.url.relativePath != "-" && AtomicFile.replaces(output.url, input.url) {
            if case .edit(let of) = output.kind, of.standardizedFileURL == input.url.standardizedFileURL { continue }
            throw OutputIsInput(output: output.url, role: input.role)
        }
    }
    for output in outputs where output.kind != .cache {
        let target: URL
        do { target = try AtomicFile.resolveTarget(output.url) } catch let error as AtomicFile.WriteError {
            throw WorkflowError("\(error.path): cannot write: \(error.reason)")
        }
        // Through `FileName`: a name that is not UTF-8 is asked about by its bytes.
        let folder = target.deletingLastPathComponent().path
        var info = stat()
        guard FileName.stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw WorkflowError("\(shownPath(output.url)): cannot write: the folder \(folder) does not exist")
        }
        guard FileName.access(folder, W_OK) == 0 else {
            throw WorkflowError("\(shownPath(output.url)): cannot write: the folder \(folder) is not writable")
        }
        guard !force, FileName.stat(target.path, &info) == 0 else { continue }
        if info.st_mode & S_IWUSR == 0 || (geteuid() != 0 && FileName.access(target.path, W_OK) != 0) {
            throw WorkflowError("\(shownPath(output.url)) is read-only (mode \(String(format: "%04o", info.st_mode & 0o7777))): "
                                + "make it writable (chmod u+w), or give --force to replace it")
        }
        if output.holdsBook, let other = otherFormat(of: target) {
            throw WorkflowError("\(shownPath(output.url)) exists and holds \(other), not a book: --force replaces it with the book")
        }
    }
}

/// What an existing file holds when it is not a book file: "a GPX route", "data that is not JSON";
/// nil for an empty file, or a JSON object no route format claims (a book, as far as a glance tells).
func otherFormat(of file: URL) -> String? {
    guard let head = try? InputFile.read(file, prefix: RouteFormats.sniffLength), !head.isEmpty else { return nil }
    if let reader = RouteFormats.readers.first(where: { $0.recognises(head: head) }) { return "a \(reader.formatName) route" }
    let first = head.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    return first == UInt8(ascii: "{") ? nil : "data that is not JSON"
}

extension RunInput {
    /// The DEM files and folders of a terrain request.
    public static func terrain(_ request: TerrainRequest) -> [RunInput] {
        request.dems.map { RunInput($0, "a terrain file it reads") }
    }

    /// A template named by its path (`TemplateLibrary.load` reads a name with `/` or `.json` as one).
    public static func template(_ nameOrPath: String?) -> [RunInput] {
        guard let nameOrPath, nameOrPath.contains("/") || nameOrPath.hasSuffix(".json") else { return [] }
        return [RunInput(URL(fileURLWithPath: nameOrPath), "the template it reads")]
    }

    /// An OpenStreetMap extract.
    public static func extract(_ osm: URL?) -> [RunInput] {
        osm.map { [RunInput($0, "the extract it reads")] } ?? []
    }
}

extension RunOutput {
    /// The prepared graph of an extract, which a run makes again when it is out of date.
    public static func preparedGraph(_ osm: URL?) -> [RunOutput] {
        osm.map { [RunOutput(MapExtract($0).preparedURL, .cache)] } ?? []
    }
}
