import Foundation
import Model
import Workflows

/// The options of a new book as `build` and `route` take them: the page header (rally, stage,
/// date), the units, the language, the template, the cover, and what happens to a note off the
/// route. Declared once here, so the two commands cannot drift apart. (`--title` stays with each
/// command: its default differs.)
struct BookOptions {
    var rally: String?
    var stage: String?
    var date: String?
    /// Units, a built-in template and the off-route distance, as stored in the book.
    var settings = BookSettings()
    /// The template the PDF is printed on, by built-in name or path; a built-in name is also the
    /// book's (`settings.template`), a path never is (a book must not make a reader open a path).
    var template: String?
    /// Whether the PDF has its cover page.
    var cover: Bool
    /// A folder of pictograms over the library's.
    var symbols: URL?
    /// What happens to a note farther from the route than `settings.offRouteDistance`.
    var offRoute: OffRouteResolution

    /// The options, declared once for every command that makes a book.
    static let declarations: [Option] = [
        Option("rally", value: "TEXT", help: "printed in the page header"),
        Option("stage", value: "TEXT", help: "printed in the page header"),
        Option("date", value: "TEXT", help: "printed in the page header"),
        .choice("units", of: BookSettings.Units.self, default: .kilometres, help: "printed distances"),
        .language(default: .en, help: """
            the language the book prints in, kept in the book: generated turn
            words and page labels; a person's words print as written
            """),
        .choice("kind", of: BookSettings.Purpose.self, default: .navigation, help: """
            what the book is for: navigation, or a regularity rally (rows
            then carry the average to hold: `roadbook note BOOK speed ROW KMH`)
            """),
        Option("template", value: "T", help: """
            page template: a5 (default), roll, a4, a4-2up, letter,
            letter-2up, or a template file (see Templates/README.md)
            """),
        Option("no-cover", .flag, help: "leave out the cover page"),
        .symbols,
        Option("off-route-distance", .number(1...100_000), value: "M", default: String(format: "%g", Thresholds.offRouteDistance),
               help: "metres from the route beyond which a waypoint is off it"),
        .choice("driving-side", of: DrivingSide.self, help: """
            the side of the road traffic keeps to, kept in the book: on the
            left, a small roundabout in a track without a map is driven
            clockwise, and the embedded router's right turns cross traffic
            (default: as the map's roundabouts run, else right)
            """),
        .choice("off-route", of: OffRouteResolution.self, default: .keep, oldSpellings: ["drop": .remove], help: """
            an off-route waypoint is, with move: printed at the nearest
            place on the route; with remove: left out (drop, its former
            name, is accepted); with keep: kept in the book file but not
            printed
            """),
    ]

    init(_ options: ParsedOptions) throws {
        rally = options.string("rally")
        stage = options.string("stage")
        date = options.string("date")
        settings.units = try options.choice(always: "units", as: BookSettings.Units.self)
        settings.purpose = try options.choice(always: "kind", as: BookSettings.Purpose.self)
        settings.setLanguage(try options.choice(always: "language", as: BookLanguage.self))
        template = options.string("template")
        if let template, BookSettings.builtInTemplates.contains(template) { settings.template = template }
        settings.offRouteDistance = try options.number(always: "off-route-distance")
        cover = !options.flag("no-cover")
        // Listed now, so a folder that cannot be read is refused before any work.
        symbols = try options.file("symbols").map { _ = try symbolNames(in: $0); return $0 }
        offRoute = try options.choice(always: "off-route", as: OffRouteResolution.self)
        // Kept as given; not given, the map's roundabouts decide (see `settleDrivingSide`), else right.
        settings.drivingSide = options.choice("driving-side", as: DrivingSide.self)
    }

    /// The header and print settings of a book built from handles.
    var routeBook: RouteBookOptions {
        RouteBookOptions(rally: rally, stage: stage, date: date, settings: settings, template: template, cover: cover,
                         symbols: symbols)
    }
}

extension Option {
    /// `--language en|fr|es|pt|it`: the language a book prints in (`BookLanguage`). Each command
    /// says what it does with it in `help`; the codes and their names follow, so every command lists
    /// the same ones, and an unknown code is refused in one line naming them.
    static func language(default defaultValue: BookLanguage? = nil, help: String) -> Option {
        let names = BookLanguage.allCases.map { "\($0.rawValue) \($0.name)" }.joined(separator: ", ")
        return .choice("language", of: BookLanguage.self, default: defaultValue, help: help + "\n(\(names))")
    }
}
