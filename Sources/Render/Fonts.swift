import CFontconfig
import Foundation
import Layout

/// The fonts shipped beside roadbook in `Fonts/` (DejaVu Sans, copied there by the setup
/// script from Debian's fonts-dejavu-core), installed as fontconfig's only fonts so a book
/// prints the same on every machine.
public enum BundledFonts {
    /// Files every template needs.
    public static let requiredFiles = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf",
                                       "DejaVuSans-BoldOblique.ttf"]
    /// Names an alternative fonts directory.
    public static let environmentVariable = "ROADBOOK_FONTS"

    /// The directory the fonts were loaded from, or nil when they were missing and the
    /// system's fonts are used (a warning was printed on stderr).
    public static var directory: URL? { installed }

    private static let installed: URL? = install()

    /// Installs the fonts on first call; later calls do nothing. Must run before any Pango font
    /// map is created.
    static func installOnce() { _ = installed }

    /// Where `Fonts/` is looked for, in `ResourceFolders`' order: `$ROADBOOK_FONTS` alone when
    /// set, else the installed `share/roadbook/`, the executable's folder and its ancestors, the
    /// current directory.
    public static func candidateDirectories() -> [URL] {
        ResourceFolders.candidates(named: "Fonts", environmentVariable: environmentVariable)
    }

    /// The first candidate that holds every required file.
    public static func locate(in candidates: [URL] = candidateDirectories()) -> URL? {
        candidates.first { dir in
            requiredFiles.allSatisfy { FileManager.default.fileExists(atPath: dir.appendingPathComponent($0).path) }
        }
    }

    private static func install() -> URL? {
        let candidates = candidateDirectories()
        guard let dir = locate(in: candidates) else {
            warn("\(FontSpec.defaultFamily) not found (looked for \(requiredFiles.joined(separator: ", ")) in "
                 + candidates.map(\.path).joined(separator: ", ")
                 + "); using the system's fonts, so output may differ between machines. "
                 + "Run scripts/install-deps.sh (in a checkout) or scripts/install.sh, or set \(environmentVariable).")
            return nil
        }
        // A configuration of its own with only these fonts: no system font can stand in.
        guard let config = FcConfigCreate() else {
            warn("FcConfigCreate failed; using the system's fonts.")
            return nil
        }
        // File by file rather than FcConfigAppFontAddDir: a directory scan tries to write a cache,
        // and a configuration without cache directories prints an error for it.
        let added = requiredFiles.allSatisfy { name in
            dir.appendingPathComponent(name).path.withCString { path in
                path.withMemoryRebound(to: FcChar8.self, capacity: strlen(path) + 1) {
                    FcConfigAppFontAddFile(config, $0) != 0
                }
            }
        }
        guard added, FcConfigSetCurrent(config) != 0 else {
            FcConfigDestroy(config)
            warn("fontconfig could not load the fonts in \(dir.path); using the system's fonts.")
            return nil
        }
        // FcConfigSetCurrent took its own reference.
        FcConfigDestroy(config)
        return dir
    }

    private static func warn(_ message: String) {
        FileHandle.standardError.write(Data("roadbook: warning: \(message)\n".utf8))
    }
}
