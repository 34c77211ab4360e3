import Foundation
import Layout

/// The page templates: the built-in ones in `Templates/` by name, or any template file by path.
public enum TemplateLibrary {
    /// Names an alternative templates folder.
    public static let environmentVariable = "ROADBOOK_TEMPLATES"
    /// The built-in templates.
    public static let builtInNames = ["a5", "roll", "a4", "a4-2up", "letter", "letter-2up"]

    /// Loads a template by built-in name or by path (anything with a `/` or ending `.json`).
    /// - Throws: `TemplateError` naming the file and field.
    public static func load(_ nameOrPath: String) throws -> PageTemplate {
        let url: URL
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".json") {
            url = URL(fileURLWithPath: nameOrPath)
        } else {
            guard builtInNames.contains(nameOrPath) else {
                throw TemplateError(file: nameOrPath, message: "is not a template: use one of \(builtInNames.joined(separator: ", ")), or a path to a template file")
            }
            let candidates = ResourceFolders.candidates(named: "Templates", environmentVariable: environmentVariable)
            guard let found = candidates.map({ $0.appendingPathComponent("\(nameOrPath).json") })
                .first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
                throw TemplateError(file: "\(nameOrPath).json", message: "not found in " + candidates.map(\.path).joined(separator: ", ")
                                    + "; set \(environmentVariable) to the checkout's Templates folder")
            }
            url = found
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw TemplateError(file: url.path, message: "cannot be read: \((error as NSError).localizedDescription)")
        }
        return try TemplateFile.decode(data, fileName: url.path)
    }
}
