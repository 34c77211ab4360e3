import Foundation

/// One option of a command, declared once: the parser, its refusals, the `Usage:` line and the
/// `--help` text all come from this declaration.
struct Option {
    enum Kind {
        /// Present or not: `--json`.
        case flag
        /// One value: `--title TEXT`.
        case single
        /// Any number of values, in order: `--dem PATH --dem PATH`.
        case repeatable
        /// One finite number within the range: `--dpi 150`.
        case number(ClosedRange<Double>)
        /// One whole number within the range, written without a fraction: `--row 3` (a count or a
        /// position, which `2.9` would silently make 2).
        case integer(ClosedRange<Int>)
        /// One of the listed words: `--units km`.
        case choice([String])
    }

    var name: String
    /// The one-letter form, such as `o` for `-o`.
    var short: Character?
    var kind: Kind
    /// The value's placeholder (`PATH`, `BOOK.pdf`); a choice's words joined with `|` when not
    /// given, which usage lines then use instead of the words.
    var valueName: String
    /// Lines of help, as printed beside the option.
    var help: String
    /// Refused when absent, with "missing -o VALUE".
    var required: Bool
    /// Taken when the option is absent, and shown in help as "(default X)".
    var defaultValue: String?
    /// A choice's former words, each with the word it now is: still taken, so scripts written
    /// before keep working, but neither listed nor completed (the help says they are accepted).
    var oldSpellings: [String: String] = [:]

    init(_ name: String, short: Character? = nil, _ kind: Kind = .single, value: String? = nil, required: Bool = false,
         default defaultValue: String? = nil, help: String) {
        self.name = name
        self.short = short
        self.kind = kind
        if let value {
            valueName = value
        } else if case .choice(let words) = kind {
            valueName = words.joined(separator: "|")
        } else {
            valueName = ""
        }
        self.help = help
        self.required = required
        self.defaultValue = defaultValue
    }

    /// A choice among an enumeration's raw values.
    /// - Parameter oldSpellings: former words of a value, taken as that value (see `oldSpellings`).
    static func choice<T: RawRepresentable & CaseIterable>(_ name: String, of type: T.Type, required: Bool = false,
                                                         default defaultValue: T? = nil, oldSpellings: [String: T] = [:],
                                                         help: String) -> Option
    where T.RawValue == String {
        var option = Option(name, .choice(T.allCases.map(\.rawValue)), required: required, default: defaultValue?.rawValue, help: help)
        option.oldSpellings = oldSpellings.mapValues(\.rawValue)
        return option
    }

    /// The value as the option now spells it: a choice's former word becomes its word today.
    func currentSpelling(of text: String) -> String { oldSpellings[text] ?? text }

    var takesValue: Bool { if case .flag = kind { false } else { true } }

    /// The value as help and refusals spell it: a choice's words, or the placeholder.
    var spelledValue: String {
        if case .choice(let words) = kind { return words.joined(separator: "|") }
        return valueName
    }

    /// `-o, --output PATH` (`--units km|mi` for a choice) as help lists it.
    var label: String {
        (short.map { "-\($0), " } ?? "") + "--\(name)" + (takesValue ? " \(spelledValue)" : "")
    }

    /// `-o PATH` (the short form when there is one) as usage lines and messages write it.
    var usageForm: String {
        (short.map { "-\($0)" } ?? "--\(name)") + (takesValue ? " \(valueName)" : "")
    }

    /// "missing -o BOOK.pdf": the refusal when a required option is absent.
    var missing: UsageError {
        UsageError(message: "missing \(short.map { "-\($0)" } ?? "--\(name)") \(spelledValue)")
    }

    /// Checks one value against the kind.
    func check(_ text: String) throws {
        switch kind {
        case .number(let range):
            guard let value = Double(text), value.isFinite, range.contains(value) else {
                throw UsageError(message: "--\(name) must be a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
        case .integer(let range):
            guard let value = Int(text), range.contains(value) else {
                throw UsageError(message: "--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
        case .choice(let words):
            guard words.contains(text) || oldSpellings[text] != nil else {
                throw UsageError(message: "--\(name) must be one of \(words.joined(separator: ", ")), not '\(text)'")
            }
        case .flag, .single, .repeatable:
            break
        }
    }
}

extension Option {
    /// `--force`, for commands that replace a file a person named: a read-only one is refused
    /// without it, as an editor refuses it (`checkOutputs`).
    static let force = Option("force", .flag, help: "replace an output although it is read-only")

    /// `--symbols DIR`, for every command that prints symbols (and for `note`, whose `--symbol`
    /// then takes the folder's names too).
    static let symbols = Option("symbols", value: "DIR", help: """
        a folder of pictograms (NAME.svg, and symbols.json for their
        meanings) over the library's: a file replaces the library's of
        the same name, a new name adds a symbol
        """)
}

/// A usage line's shape beyond the positionals and the required options: the options it names.
/// A flag is written bare (it selects the form); a valued option in brackets unless `required`.
struct UsageForm {
    var positionals: Bool = true
    var required: [String] = []
    var optional: [String] = []
}

/// A command as the command line knows it.
struct CommandDeclaration {
    var name: String
    /// One line for the list of commands.
    var abstract: String
    /// The positionals' placeholder (`TRACK.gpx`), used in usage lines and in "missing TRACK.gpx".
    var positionals: String
    /// How many positionals are taken.
    var positionalCount: ClosedRange<Int>
    /// The ways to call the command, one usage line each; empty for one line with every required option.
    var forms: [UsageForm] = []
    /// The subcommands, listed in help before the discussion; nil for a command without.
    var subcommands: SubcommandList? = nil
    /// Paragraphs between the usage (and the subcommands) and the options.
    var discussion: String = ""
    /// Options in help order; groups shared by commands are concatenated in.
    var options: [Option]

    func option(named name: String) -> Option? { options.first { $0.name == name } }

    /// Parses the words after the command's name.
    /// - Throws: `UsageError`: an unknown option, a missing or refused value, an option given
    ///   twice, a missing required option, or the wrong number of positionals.
    func parse(_ words: [String]) throws -> ParsedOptions {
        var values: [String: [String]] = [:]
        var positionals: [String] = []
        var i = 0
        var literal = false
        while i < words.count {
            let word = words[i]
            i += 1
            // A negative number (a tulip's angle, -90) is an argument, never an option.
            if literal || word == "-" || !word.hasPrefix("-") || Double(word) != nil { positionals.append(word); continue }
            if word == "--" { literal = true; continue }
            let (option, value) = try self.value(of: word, before: words[i...])
            if value.consumedNext { i += 1 }
            if values[option.name] != nil, !isRepeatable(option) { throw UsageError(message: "--\(option.name) is given twice") }
            try option.check(value.text)
            values[option.name, default: []].append(option.currentSpelling(of: value.text))
        }
        try fillIn(&values)
        guard positionalCount.contains(positionals.count) else {
            if positionals.count < positionalCount.lowerBound { throw UsageError(message: "missing \(self.positionals)") }
            throw UsageError(message: "unexpected argument '\(positionals[positionalCount.upperBound])'")
        }
        return ParsedOptions(declaration: self, values: values, positionals: positionals)
    }

    /// The option `word` names and its value: after `=`, the next word (`consumedNext`), or empty for a flag.
    /// - Throws: `UsageError` for an unknown option, a flag given a value, or a value missing.
    private func value(of word: String, before rest: ArraySlice<String>) throws -> (Option, (text: String, consumedNext: Bool)) {
        var inline: String? = nil
        let option: Option?
        if word.hasPrefix("--") {
            let body = word.dropFirst(2)
            let name = body.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            if body.contains("=") { inline = String(body.dropFirst(name.count + 1)) }
            option = self.option(named: name)
        } else {
            option = word.count == 2 ? options.first { $0.short.map { "-\($0)" } == word } : nil
        }
        guard let option, option.takesValue || inline == nil else { throw UsageError(message: "unknown option \(word)") }
        if !option.takesValue { return (option, ("", false)) }
        if let inline { return (option, (inline, false)) }
        guard let next = rest.first, !next.hasPrefix("--") else { throw UsageError(message: "\(word) needs a value") }
        return (option, (next, true))
    }

    /// Refuses a required option that is absent; gives the others their defaults.
    private func fillIn(_ values: inout [String: [String]]) throws {
        for option in options where values[option.name] == nil {
            if option.required { throw option.missing }
            if let value = option.defaultValue { values[option.name] = [value] }
        }
    }

    private func isRepeatable(_ option: Option) -> Bool { if case .repeatable = option.kind { true } else { false } }

    /// The `Usage:` lines.
    var usage: String { "Usage: " + usageLines.joined(separator: "\n       ") }

    /// One line per way to call the command, from `roadbook` on: the usage, and the man page's.
    var usageLines: [String] {
        let forms = self.forms.isEmpty ? [UsageForm()] : self.forms
        return forms.map { form -> String in
            var words = ["roadbook", name]
            if form.positionals && positionalCount.upperBound > 0 { words.append(positionals) }
            let named = form.required + form.optional
            for option in options where option.required && !named.contains(option.name) { words.append(option.usageForm) }
            // A form names declared options (ParseTests checks every form).
            words += form.required.compactMap(option(named:)).map(\.usageForm)
            words += form.optional.compactMap(option(named:)).map { "[\($0.usageForm)]" }
            if options.contains(where: { !$0.required && !named.contains($0.name) }) { words.append("[options]") }
            return words.joined(separator: " ")
        }
    }

    /// The full `--help` text: usage, subcommands, discussion, and every option with its help.
    var help: String {
        ([usage] + (subcommands.map { [$0.help] } ?? []) + (discussion.isEmpty ? [] : [discussion])
            + ["Options:\n" + Option.list(options + [.helpFlag])])
            .joined(separator: "\n\n")
    }
}

extension Option {
    /// `-h, --help`, which every command takes and no declaration lists.
    static let helpFlag = Option("help", short: "h", .flag, help: "show this help")

    /// The help text's or the man page's notes after an option's help: "required", "default X".
    var notes: String? {
        let notes = (required ? ["required"] : []) + (defaultValue.map { ["default \($0)"] } ?? [])
        return notes.isEmpty ? nil : "(" + notes.joined(separator: "; ") + ")"
    }

    /// Options as `--help` lists them: each label, its help in a column beside it.
    static func list(_ all: [Option]) -> String {
        // Labels longer than this sit on their own line, their help on the next.
        let widest = 26
        let column = 2 + min(all.map(\.label.count).filter { $0 <= widest }.max() ?? widest, widest) + 2
        return twoColumns(all.map { option in
            var help = option.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if let notes = option.notes { help[help.count - 1] += " " + notes }
            return (option.label, help)
        }, column: column)
    }
}

/// Labels indented by two, each with its lines of help beside it from `column` on; a label too
/// wide for the column sits on its own line, its help on the next ones.
func twoColumns(_ items: [(label: String, help: [String])], column: Int) -> String {
    var lines: [String] = []
    let indent = String(repeating: " ", count: column)
    for (label, help) in items {
        let label = "  " + label
        if label.count + 2 > column || help.isEmpty {
            lines.append(label)
            lines += help.map { indent + $0 }
        } else {
            lines.append(label.padding(toLength: column, withPad: " ", startingAt: 0) + help[0])
            lines += help.dropFirst().map { indent + $0 }
        }
    }
    return lines.joined(separator: "\n")
}

/// The values of one command line, checked against the declaration: numbers are numbers within
/// their range, choices are among their words, defaults are filled in.
struct ParsedOptions {
    let declaration: CommandDeclaration
    let values: [String: [String]]
    /// The positionals, in order.
    let positionals: [String]

    private func declared(_ name: String) -> [String] {
        precondition(declaration.option(named: name) != nil, "--\(name) is not declared by \(declaration.name)")
        return values[name] ?? []
    }

    /// Whether the flag (or any option) was given.
    func flag(_ name: String) -> Bool { !declared(name).isEmpty }
    /// The option's value, or its default, or nil.
    func string(_ name: String) -> String? { declared(name).first }
    /// Every value of a repeatable option, in order.
    func strings(_ name: String) -> [String] { declared(name) }
    /// A path option as a file URL.
    func file(_ name: String) -> URL? { string(name).map { URL(fileURLWithPath: $0) } }
    /// A number option's value (already checked).
    func number(_ name: String) -> Double? { string(name).flatMap(Double.init) }
    /// A whole-number option's value (already checked).
    func integer(_ name: String) -> Int? { string(name).flatMap { Int($0) } }
    /// A choice option as its enumeration (already checked).
    func choice<T: RawRepresentable>(_ name: String, as type: T.Type) -> T? where T.RawValue == String {
        string(name).flatMap(T.init(rawValue:))
    }

    // An option that is required or has a default always has a value once parsed; these read it
    // without a force-unwrap, refusing in one line naming the option should it have none.

    /// A required path option, or one with a default, as a file URL.
    func file(always name: String) throws -> URL { try always(name) { file($0) } }
    /// A number option that is required or has a default.
    func number(always name: String) throws -> Double { try always(name) { number($0) } }
    /// A whole-number option that is required or has a default.
    func integer(always name: String) throws -> Int { try always(name) { integer($0) } }
    /// A choice option that is required or has a default, as its enumeration.
    func choice<T: RawRepresentable>(always name: String, as type: T.Type) throws -> T where T.RawValue == String {
        try always(name) { choice($0, as: type) }
    }

    private func always<T>(_ name: String, _ read: (String) -> T?) throws -> T {
        if let value = read(name) { return value }
        guard let option = declaration.option(named: name) else { preconditionFailure("--\(name) is not declared by \(declaration.name)") }
        if let text = string(name) { throw UsageError(message: "--\(name) '\(text)' is not \(option.spelledValue)") }
        throw option.missing
    }
}
