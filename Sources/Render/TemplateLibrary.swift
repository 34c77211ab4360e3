import Foundation
import Layout
import Model

/// The page templates: the built-in ones in `Templates/` by name, or any template file by path.
public enum TemplateLibrary {
    /// Names an alternative templates folder; where the built-in ones are looked for otherwise is
    /// `ResourceFolders`' order.
    public static let environmentVariable = "ROADBOOK_TEMPLATES"
    /// The built-in templates.
    public static let builtInNames = BookSettings.builtInTemplates

    /// The template a book names (`settings.template`): a built-in one only, never a path, so a book
    /// cannot make roadbook open a file. A mistake names the book's field, not a template file.
    /// - Parameter bookFile: the book's file, for messages.
    /// - Throws: `TemplateError` naming `bookFile` and `settings.template` (with `Remedy.templateFile`
    ///   for a name that is not a built-in one).
    public static func template(of book: Book, bookFile: String) throws -> PageTemplate {
        let name = book.settings.template
        guard builtInNames.contains(name) else {
            throw TemplateError(file: bookFile, field: "settings.template",
                                message: "'\(name.prefix(80))' is not a built-in template: use one of \(builtInNames.joined(separator: ", "))",
                                remedy: .templateFile)
        }
        do { return try load(name) } catch let error as TemplateError {
            throw TemplateError(file: bookFile, field: "settings.template", message: "'\(name)' cannot be loaded: \(error.description)")
        }
    }

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
                                    + "; reinstall with scripts/install.sh, or set \(environmentVariable) to a Templates folder")
            }
            url = found
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            let posix = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.localizedDescription
            throw TemplateError(file: url.path, message: "cannot be read: " + (posix ?? "no such file, or not a readable file"))
        }
        return try TemplateFile.decode(data, fileName: url.path)
    }
}
