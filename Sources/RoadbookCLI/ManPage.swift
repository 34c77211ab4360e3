import Foundation
import Workflows

/// The manual page `roadbook.1` (roff, for `man`), written from the commands' declarations, the
/// same ones `--help` prints: each command's usage lines, discussion and options. `roadbook --man`
/// prints it; `scripts/install.sh` installs it.
enum ManPage {
    static func text(commands: [CommandDeclaration], ownOptions: [Option]) -> String {
        (header + ownOptions.flatMap(item) + [".SH COMMANDS"] + commands.flatMap(section) + footer).joined(separator: "\n")
    }

    /// The title, name, synopsis and description, up to the heading of the own options.
    private static var header: [String] {
        [
            #".\" roadbook(1): written by 'roadbook --man' from the commands' declarations, as --help is."#,
            ".TH ROADBOOK 1 \"\" \"roadbook \(BuildInfo.version)\" \"User Commands\"",
            // Left-aligned and unhyphenated: option names and file names stay whole.
            ".ad l", ".nh",
            ".SH NAME", "roadbook \\- " + escape(Roadbook.summary),
            ".SH SYNOPSIS",
            #"\fBroadbook\fR \fIcommand\fR [\fIoptions\fR]"#, ".br",
            #"\fBroadbook \-\-version\fR"#, ".br",
            #"\fBroadbook\fR \fIcommand\fR \fB\-\-help\fR"#,
            ".SH DESCRIPTION",
            escape("roadbook \(Roadbook.summary). Each command below has its usage lines, what it does and its "
                   + "options; 'roadbook COMMAND --help' prints the same."),
            ".SH OPTIONS",
        ]
    }

    /// A command: its abstract, usage lines, subcommands, discussion and options.
    private static func section(_ command: CommandDeclaration) -> [String] {
        var page = [".SS \(command.name)", escape(command.abstract), ".PP"]
        page += command.usageLines.flatMap { line in
            [#"\fB"# + escape(line.split(separator: " ").prefix(2).joined(separator: " ")) + #"\fR"#
                + escape(String(line.dropFirst("roadbook \(command.name)".count))), ".br"]
        }
        if let subcommands = command.subcommands {
            page += [".PP", escape(subcommands.heading)]
                + tagged(subcommands.rows.map { ($0.label, $0.help) }, width: SubcommandList.column - 2)
        }
        if !command.discussion.isEmpty { page += paragraphs(command.discussion) }
        return page + (command.options + [.helpFlag]).flatMap(item)
    }

    /// Files, environment and exit status.
    private static var footer: [String] {
        [
            ".SH FILES",
            ".TP", #"\fIPREFIX\fB/share/roadbook/Templates\fR, \fIPREFIX\fB/share/roadbook/Fonts\fR, \fIPREFIX\fB/share/roadbook/Symbols\fR"#,
            escape("The built-in page templates, the DejaVu Sans fonts and the symbol library (a pictogram NAME.svg a symbol, "
                   + "and symbols.json of their meanings), beside an installed binary in PREFIX/bin. "
                   + "A binary built in a checkout uses the checkout's Templates, Fonts and Symbols folders instead."),
            ".TP", #"\fIPREFIX\fB/share/roadbook/\#(BuildInfo.versionFileName)\fR"#,
            escape("The version and the commit the installed binary was built from, as --version prints them."),
            ".SH ENVIRONMENT",
            ".TP", ".B \(ResourceEnvironment.templates)",
            escape("A folder of page templates, looked in instead of the installed or checkout Templates folder."),
            ".TP", ".B \(ResourceEnvironment.fonts)",
            escape("A folder holding the DejaVu Sans files, looked in instead of the installed or checkout Fonts folder."),
            ".TP", ".B \(ResourceEnvironment.symbols)",
            escape("The symbol library's folder, looked in instead of the installed or checkout Symbols folder."),
            ".TP", ".B ROADBOOK_CACHE",
            escape("The cache folder for heights fetched from elevation services (default: the XDG cache folder's roadbook)."),
            ".SH EXIT STATUS",
            escape("0 when the command did what it was asked, 1 when it failed (one line on standard error names the file "
                   + "or the field), 64 when the command line is wrong (the message and the command's usage lines). "
                   + "check exits 1 when it finds a problem in the book (each printed on standard output) and "
                   + "\(CheckCommand.unreadableStatus) when the file cannot be read as a book."),
        ]
    }

    /// An option as a tagged paragraph: its label in bold and italics, its help, its notes.
    private static func item(_ option: Option) -> [String] {
        let names = (option.short.map { [#"\fB\-\#($0)\fR"#] } ?? []) + [#"\fB\-\-"# + escape(option.name) + #"\fR"#]
        let value = option.takesValue ? #" \fI"# + escape(option.spelledValue) + #"\fR"# : ""
        let help = option.help.split(separator: "\n").map(String.init) + (option.notes.map { [$0] } ?? [])
        return [".TP", names.joined(separator: ", ") + value, escape(help.joined(separator: " "))]
    }

    /// Paragraphs separated by blank lines; indented lines are a list (`list`).
    private static func paragraphs(_ text: String) -> [String] {
        var lines = [".PP"]
        var pending: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.first?.isWhitespace == true { pending.append(line); continue }
            if !pending.isEmpty {
                lines += list(pending) + (line.isEmpty ? [] : [".PP"])
                pending = []
            }
            lines.append(line.isEmpty ? ".PP" : escape(String(line)))
        }
        return pending.isEmpty ? lines : lines + list(pending)
    }

    /// Lines of a list: in two columns (a gap of two spaces or more) as tagged paragraphs, the
    /// tags' column as wide as in the help; otherwise a bullet each. No space between items.
    private static func list(_ lines: [Substring]) -> [String] {
        let items = lines.map { String($0.drop(while: \.isWhitespace)) }
        let columns = items.map { item -> (tag: String, text: String)? in
            item.range(of: "  ").map { (String(item[..<$0.lowerBound]), item[$0.upperBound...].trimmingCharacters(in: .whitespaces)) }
        }
        if let width = zip(items, columns).compactMap({ item, pair in pair.map { item.count - $0.text.count } }).max() {
            return tagged(zip(items, columns).map { item, pair in (pair?.tag ?? item, pair?.text ?? "") }, width: width)
        }
        return [".RS 2", ".PD 0"] + items.flatMap { [#".IP \(bu 2"#, escape($0)] } + [".PD", ".RE"]
    }

    /// Tagged paragraphs with no space between them, the tags' column `width` characters wide.
    private static func tagged(_ items: [(tag: String, text: String)], width: Int) -> [String] {
        [".RS 2", ".PD 0"] + items.flatMap { tag, text in [".TP \(width)n", escape(tag)] + (text.isEmpty ? [] : [escape(text)]) }
            + [".PD", ".RE"]
    }

    /// Text as roff reads it literally: backslashes and minus signs escaped, a leading dot or quote
    /// kept from being read as a request.
    static func escape(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}
