import Foundation
import Layout
import Model

/// A folder of pictograms that cannot be used: the folder and what is wrong, in one line.
public struct SymbolFolderError: Error, CustomStringConvertible, Equatable {
    public var folder: String
    public var message: String
    public var description: String { "\(folder): \(message)" }
}

/// The symbol library's files: a pictogram a symbol (`NAME.svg`, drawn by librsvg) and the
/// meanings of the symbols and their groups (`symbols.json`), in `Symbols/` (found as `Templates/`
/// and `Fonts/` are: `ResourceFolders`), with a person's folder over it (`--symbols DIR`), whose
/// files replace the library's of the same name and add new names.
///
/// Only names are listed here; a pictogram is read when a book uses it (`Pictograms`). A missing
/// library folder or a broken `symbols.json` does not stop a print: it is one of `problems`, said
/// once, and the symbols print as their names.
public struct SymbolLibrary: Sendable {
    /// Names an alternative library folder; where it is looked for otherwise is `ResourceFolders`' order.
    public static let environmentVariable = "ROADBOOK_SYMBOLS"
    /// The library's folder name, beside `Templates/` and `Fonts/`.
    public static let folderName = "Symbols"
    /// The file of meanings in a folder.
    public static let catalogueFileName = "symbols.json"
    /// The most pictograms read from one folder: the library has 135; ten thousand files is a
    /// folder named by mistake.
    public static let maximumFiles = 10_000

    /// The folders read, the library's first; a later folder's file replaces an earlier one's.
    public let folders: [URL]
    /// Each symbol's pictogram file.
    public let files: [NoteSymbol: URL]
    /// The meanings, a person's `symbols.json` over the library's.
    public let catalogue: SymbolCatalogue
    /// What is wrong with the folders that does not stop a print, one line each: the library's
    /// folder not found, a `symbols.json` that cannot be read, a file whose name is not a symbol's.
    public let problems: [String]
    /// The folders the library was looked for in, when it was not found: the warning names them.
    let searched: [URL]
    /// The library's own folder; nil when it was not found.
    public var libraryFolder: URL? { hasLibrary ? folders.first : nil }
    /// Whether `folders` begins with the library's own.
    let hasLibrary: Bool

    /// No pictograms and no meanings but the library's English ones: every symbol prints as its name.
    public static let none = SymbolLibrary(folders: [], files: [:], catalogue: SymbolCatalogue(), problems: [], searched: [],
                                           hasLibrary: false)

    init(folders: [URL], files: [NoteSymbol: URL], catalogue: SymbolCatalogue, problems: [String], searched: [URL],
         hasLibrary: Bool) {
        self.hasLibrary = hasLibrary
        self.folders = folders
        self.files = files
        self.catalogue = catalogue
        self.problems = problems
        self.searched = searched
    }

    /// The library folder, found in `ResourceFolders`' order (`$ROADBOOK_SYMBOLS` alone when set),
    /// with `user` over it.
    /// - Throws: `SymbolFolderError` when `user` cannot be listed (the library's own folder missing
    ///   is only a problem).
    public static func standard(adding user: URL? = nil) throws -> SymbolLibrary {
        let candidates = ResourceFolders.candidates(named: folderName, environmentVariable: environmentVariable)
        let builtIn = candidates.first { isFolder($0) }
        return try SymbolLibrary(library: builtIn, searched: candidates, user: user)
    }

    /// The library in `library` (nil when it was not found in `searched`) with `user` over it.
    /// - Throws: `SymbolFolderError` when `user` cannot be listed.
    public init(library: URL?, searched: [URL] = [], user: URL? = nil) throws {
        var problems: [String] = []
        var files: [NoteSymbol: URL] = [:]
        var catalogue = SymbolCatalogue()
        var folders: [URL] = []
        if let library {
            do {
                let listed = try Self.list(library)
                files.merge(listed.files) { _, new in new }
                problems += listed.problems
                folders.append(library)
            } catch {
                problems.append("\(error): symbols print as their names")
            }
            if let read = Self.catalogue(in: library, problems: &problems) { catalogue = read }
        } else {
            problems.append("the symbol library (\(Self.folderName)/) was not found in "
                            + searched.map(\.path).joined(separator: ", ")
                            + ": symbols print as their names; reinstall with scripts/install.sh, or set \(Self.environmentVariable)")
        }
        if let user {
            let listed = try Self.list(user)
            files.merge(listed.files) { _, new in new }
            problems += listed.problems
            folders.append(user)
            if let read = Self.catalogue(in: user, problems: &problems) { catalogue = catalogue.merging(read) }
        }
        self.init(folders: folders, files: files, catalogue: catalogue, problems: problems, searched: searched,
                  hasLibrary: library != nil && folders.first == library)
    }

    /// The names of the pictograms in `folder` (`NAME.svg`), sorted.
    /// - Throws: `SymbolFolderError` when it is not a folder that can be listed.
    public static func names(in folder: URL) throws -> [NoteSymbol] {
        try list(folder).files.keys.sorted { $0.name < $1.name }
    }

    /// Whether `symbol` has a pictogram file.
    public func has(_ symbol: NoteSymbol) -> Bool { files[symbol] != nil }

    /// The bytes of the pictogram files of `symbols` that librsvg can draw, for a format that
    /// carries them (OpenRally's notes drawings); each file that cannot be read or drawn is a
    /// problem, said once, and its symbol is left out. The library's problems come first when a
    /// symbol is asked for.
    public func pictogramFiles(for symbols: some Sequence<NoteSymbol>) -> (files: [NoteSymbol: Data], problems: [String]) {
        var files: [NoteSymbol: Data] = [:]
        var problems: [String] = []
        var asked: Set<NoteSymbol> = []
        for symbol in symbols where asked.insert(symbol).inserted {
            if asked.count == 1 { problems += self.problems }
            guard let file = self.files[symbol] else { continue }
            do {
                let data = try SVGImage.read(file)
                _ = try SVGImage(data: data, name: file.path)
                files[symbol] = data
            } catch {
                problems.append("\(error): '\(symbol.name)' drawn as its name")
            }
        }
        return (files, problems)
    }

    private static func isFolder(_ url: URL) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &directory) && directory.boolValue
    }

    /// The pictogram files of one folder by name, and the files passed over.
    private static func list(_ folder: URL) throws -> (files: [NoteSymbol: URL], problems: [String]) {
        guard isFolder(folder) else {
            throw SymbolFolderError(folder: folder.path, message: "is not a folder of pictograms (NAME.svg files)")
        }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path) } catch {
            throw SymbolFolderError(folder: folder.path, message: "cannot be listed: "
                                    + (((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.localizedDescription ?? "permission denied"))
        }
        var files: [NoteSymbol: URL] = [:]
        var badNames: [String] = []
        var skipped = 0
        for file in names.sorted() where file.lowercased().hasSuffix(".svg") {
            let name = String(file.dropLast(4))
            guard NoteSymbol.isWellFormed(name) else { badNames.append(file); continue }
            guard files.count < maximumFiles else { skipped += 1; continue }
            files[NoteSymbol(name)] = folder.appendingPathComponent(file)
        }
        var problems: [String] = []
        if !badNames.isEmpty {
            problems.append("\(folder.path): \(badNames.count) file\(badNames.count == 1 ? "" : "s") passed over, "
                            + "their names not a symbol's (letters, digits, - and _): "
                            + badNames.prefix(3).map { "'\($0.prefix(40))'" }.joined(separator: ", ") + (badNames.count > 3 ? ", …" : ""))
        }
        if skipped > 0 {
            problems.append("\(folder.path): holds more than \(maximumFiles) pictograms; \(skipped) passed over")
        }
        return (files, problems)
    }

    /// The folder's `symbols.json`, when it has one that can be read; a broken one is a problem.
    private static func catalogue(in folder: URL, problems: inout [String]) -> SymbolCatalogue? {
        let url = folder.appendingPathComponent(catalogueFileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            let data = try BoundedFile.read(url, limit: SymbolCatalogue.maximumBytes, what: "a symbols file")
            return try SymbolCatalogue.decode(data, fileName: url.path)
        } catch {
            problems.append("\(error); the symbols' meanings are the library's English ones")
            return nil
        }
    }
}

/// The pictograms one print draws: those of the symbols the book uses, each read once, with what
/// could not be read or drawn said once each and printed as the symbol's name.
final class Pictograms {
    private(set) var images: [NoteSymbol: SVGImage] = [:]
    private var said: Set<String> = []
    let warn: @Sendable (String) -> Void

    /// No pictograms.
    init(warn: @escaping @Sendable (String) -> Void) { self.warn = warn }

    /// Reads the pictograms of every symbol `book` prints, and warns, once each: of the library's
    /// problems, of a row's name that is neither the library's nor in a person's folder ("R7: symbol
    /// 'foo' is not in the library: printed as text"), of a library symbol without its file, of a
    /// file that is not an SVG picture librsvg can draw.
    init(for book: Book, library: SymbolLibrary, warn: @escaping @Sendable (String) -> Void) {
        self.warn = warn
        var needed: [NoteSymbol] = []
        var seen: Set<NoteSymbol> = []
        var unknown: [(row: Int, symbol: NoteSymbol)] = []
        var row = 0
        for note in book.notes where note.placement == .onRoute {
            row += 1
            for symbol in note.fieldSymbols + note.symbols {
                if seen.insert(symbol).inserted { needed.append(symbol) }
            }
            for symbol in note.symbols where !symbol.isKnown && !library.has(symbol) { unknown.append((row, symbol)) }
        }
        guard !needed.isEmpty else { return }
        for problem in library.problems { say(problem) }
        for (row, symbol) in unknown { say("R\(row): symbol '\(symbol.name)' is not in the library: printed as text") }
        for symbol in needed {
            guard let file = library.files[symbol] else {
                // Without the library's folder, its problem said it all.
                if symbol.isKnown, library.hasLibrary {
                    let folders = library.folders.map(\.path).joined(separator: " or ")
                    say("symbol '\(symbol.name)' has no pictogram (no \(symbol.name).svg in \(folders)): printed as its name")
                }
                continue
            }
            do { images[symbol] = try SVGImage(contentsOf: file) } catch {
                say("\(error): '\(symbol.name)' printed as its name")
            }
        }
    }

    /// The symbols that have a pictogram to draw.
    var names: Set<NoteSymbol> { Set(images.keys) }

    /// Says `message` unless it was said already.
    func say(_ message: String) {
        if said.insert(message).inserted { warn(message) }
    }
}

/// Reading a small file whole, refused past a limit.
enum BoundedFile {
    /// The bytes of `url`, a regular file of at most `limit` bytes.
    /// - Throws: `SymbolFolderError` naming the file.
    static func read(_ url: URL, limit: Int, what: String) throws -> Data {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard (attributes?[.type] as? FileAttributeType) == .typeRegular else {
            throw SymbolFolderError(folder: url.path, message: "is not a regular file")
        }
        if let size = (attributes?[.size] as? NSNumber)?.intValue, size > limit {
            throw SymbolFolderError(folder: url.path, message: "is \(size) bytes, more than the \(limit) \(what) may have")
        }
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw SymbolFolderError(folder: url.path, message: "cannot be read")
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: limit + 1)) ?? nil ?? Data()
        guard data.count <= limit else {
            throw SymbolFolderError(folder: url.path, message: "holds more than the \(limit) bytes \(what) may have")
        }
        return data
    }
}
