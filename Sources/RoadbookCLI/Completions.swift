import Foundation

/// Shell completion scripts written from the commands' declarations, the same ones `--help`
/// prints: the commands, each command's options, the words of a choice option, nothing for a
/// number, and files for every other value and for the positionals. `roadbook --completions
/// bash|zsh` prints them; `scripts/install.sh` installs them.
enum Completions {
    enum Shell: String, CaseIterable { case bash, zsh }

    static func script(for shell: Shell, commands: [CommandDeclaration], ownOptions: [Option]) -> String {
        switch shell {
        case .bash: bash(commands: commands, ownOptions: ownOptions)
        case .zsh: zsh(commands: commands, ownOptions: ownOptions)
        }
    }

    /// What a value is completed with.
    private enum Value {
        case none, words([String]), files
        init(_ kind: Option.Kind) {
            switch kind {
            case .flag: self = .none
            case .number, .integer: self = .none
            case .choice(let words): self = .words(words)
            case .single, .repeatable: self = .files
            }
        }
    }

    /// `--name` and `-x`, as typed.
    private static func spellings(_ option: Option) -> [String] {
        ["--\(option.name)"] + (option.short.map { ["-\($0)"] } ?? [])
    }

    private static let header = "written by 'roadbook --completions %@' from the commands' declarations, as --help is"

    // MARK: bash

    /// A function for `complete -F`: an empty answer falls back to file names (`-o default`).
    private static func bash(commands: [CommandDeclaration], ownOptions: [Option]) -> String {
        let names = commands.map(\.name).joined(separator: " ")
        var lines = [
            "# bash completion for roadbook: " + String(format: header, "bash"),
        ] + (commands.contains { $0.subcommands != nil } ? bashPositionals : []) + [
            "_roadbook() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    # --name=value: bash splits the = off as a word of its own.",
            #"    if [[ $cur == "=" ]]; then cur=""; elif [[ $prev == "=" && $COMP_CWORD -ge 3 ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi"#,
            "    COMPREPLY=()",
            "    if (( COMP_CWORD == 1 )); then",
            "        mapfile -t COMPREPLY < <(compgen -W \"\(names) help \(ownOptions.flatMap(spellings).joined(separator: " "))\" -- \"$cur\")",
            "        return",
            "    fi",
            "    local options",
            "    case ${COMP_WORDS[1]} in",
            "        help)",
            "            (( COMP_CWORD == 2 )) && mapfile -t COMPREPLY < <(compgen -W \"\(names)\" -- \"$cur\")",
            "            return ;;",
        ]
        lines += commands.flatMap(bashCase)
        lines += [
            "        *) return ;;",
            "    esac",
            "    if [[ $cur == -* ]]; then mapfile -t COMPREPLY < <(compgen -W \"$options\" -- \"$cur\"); fi",
            "}",
            "complete -o default -F _roadbook roadbook",
        ]
        return lines.joined(separator: "\n")
    }

    /// One command's case: a choice's words after it, nothing after a number, files after another
    /// value; the subcommands at their place; else, on a `-`, the options.
    private static func bashCase(_ command: CommandDeclaration) -> [String] {
        let all = command.options + [.helpFlag]
        var lines = ["        \(command.name))"]
        // Choices offer their words; numbers nothing; other values files, by default.
        var cases: [String] = [], numbers: [String] = [], files: [String] = []
        for option in all where option.takesValue {
            switch Value(option.kind) {
            case .words(let words):
                cases.append("                \(spellings(option).joined(separator: "|"))) "
                             + "mapfile -t COMPREPLY < <(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\"); return ;;")
            case .none: numbers += spellings(option)
            case .files: files += spellings(option)
            }
        }
        if !numbers.isEmpty { cases.append("                \(numbers.joined(separator: "|"))) compopt +o default 2>/dev/null; return ;;") }
        if !files.isEmpty { cases.append("                \(files.joined(separator: "|"))) return ;;") }
        if !cases.isEmpty { lines += ["            case $prev in"] + cases + ["            esac"] }
        if let subcommands = command.subcommands {
            let valued = all.filter(\.takesValue).flatMap(spellings).joined(separator: " ")
            lines.append("            if [[ $cur != -* ]] && (( $(_roadbook_positionals \"\(valued)\") == \(subcommands.position) )); then")
            lines.append("                mapfile -t COMPREPLY < <(compgen -W \"\(subcommands.names.joined(separator: " "))\" -- \"$cur\"); return")
            lines.append("            fi")
        }
        lines.append("            options=\"\(all.flatMap(spellings).joined(separator: " "))\" ;;")
        return lines
    }

    /// How many words between the command and the cursor are positionals: not options, nor the
    /// values of the options named in `$1` (`--name=value` is split by bash at the `=`); after
    /// `--` every word is one.
    private static let bashPositionals = [
        "_roadbook_positionals() {",
        "    local valued=\" $1 \" i n=0 literal=",
        "    for (( i = 2; i < COMP_CWORD; i++ )); do",
        "        if [[ -n $literal ]]; then (( n += 1 )); continue; fi",
        "        case ${COMP_WORDS[i]} in",
        "            --) literal=1 ;;",
        "            =) (( i += 1 )) ;;",
        #"            -*) if [[ $valued == *" ${COMP_WORDS[i]} "* && ${COMP_WORDS[i+1]} != "=" ]]; then (( i += 1 )); fi ;;"#,
        "            *) (( n += 1 )) ;;",
        "        esac",
        "    done",
        "    echo $n",
        "}",
    ]

    // MARK: zsh

    /// A `#compdef` file for `fpath` (`site-functions/_roadbook`); sourced instead, it registers
    /// itself with `compdef`.
    private static func zsh(commands: [CommandDeclaration], ownOptions: [Option]) -> String {
        let described = commands.map { "        " + quoted(escapeColons($0.name) + ":" + summary($0.abstract)) }
        var lines = [
            "#compdef roadbook",
            "# zsh completion for roadbook: " + String(format: header, "zsh"),
            "",
            "_roadbook() {",
            "    local -a commands",
            "    commands=(",
        ] + described + [
            "    )",
            "    if (( CURRENT == 2 )); then",
            "        _arguments " + ownOptions.map { zshSpec($0, exclusive: true) }.joined(separator: " ")
                + " '1:command:_roadbook_commands'",
            "        return",
            "    fi",
            "    local command=$words[2]",
            "    shift words",
            "    (( CURRENT-- ))",
            "    case $command in",
            "        help) _arguments '1:command:_roadbook_commands' ;;",
        ]
        lines += commands.flatMap(zshCase)
        lines += [
            "    esac",
            "}",
            "",
            "_roadbook_commands() {",
            "    _describe -t commands 'roadbook command' commands",
            "}",
            "",
            "if [[ $funcstack[1] == _roadbook ]]; then",
            "    _roadbook \"$@\"",
            "else",
            "    compdef _roadbook roadbook",
            "fi",
        ]
        return lines.joined(separator: "\n")
    }

    /// One command's case: its options, then its positionals (files), a subcommand's name among its words.
    private static func zshCase(_ command: CommandDeclaration) -> [String] {
        var specs = (command.options + [.helpFlag]).map { zshSpec($0, exclusive: $0.name == Option.helpFlag.name) }
        if let subcommands = command.subcommands {
            let words = command.positionals.split(separator: " ").map(String.init)
            specs += words.prefix(subcommands.position).enumerated().map { quoted("\($0.offset + 1):\(escapeColons($0.element)):_files") }
            specs.append(quoted("\(subcommands.position + 1):subcommand:(\(subcommands.names.joined(separator: " ")))"))
            specs.append(quoted("*:\(escapeColons(words.dropFirst(subcommands.position + 1).joined(separator: " "))):_files"))
        } else if command.positionalCount.upperBound > 0 {
            specs.append(quoted("*:\(escapeColons(command.positionals)):_files"))
        }
        var lines = ["        \(command.name))", "            _arguments -s -S \\"]
        lines += specs.map { "                \($0) \\" }
        lines[lines.count - 1].removeLast(2)
        return lines + ["            ;;"]
    }

    /// One `_arguments` spec: `'(-o --output)'{-o,--output}'[help]:VALUE:_files'`. An exclusive
    /// option (`--help`) takes the whole line: `(- *)`.
    private static func zshSpec(_ option: Option, exclusive: Bool) -> String {
        let names = spellings(option)
        let repeatable: Bool = if case .repeatable = option.kind { true } else { false }
        let exclusion = exclusive ? "(- *)" : repeatable || names.count == 1 ? "" : "(\(names.joined(separator: " ")))"
        let lead = exclusion + (repeatable ? "*" : "")
        let prefix = (lead.isEmpty ? "" : quoted(lead)) + (names.count == 1 ? names[0] : "{\(names.joined(separator: ","))}")
        let help = "[" + summary(option.help).replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]") + "]"
        let message = escapeColons(option.spelledValue)
        let value: String
        switch Value(option.kind) {
        case .none: value = option.takesValue ? ":\(message): " : ""
        case .words(let words): value = ":\(message):(\(words.joined(separator: " ")))"
        case .files: value = ":\(message):_files"
        }
        return prefix + quoted(help + value)
    }

    /// A help text on one line, cut at a word before 70 characters.
    private static func summary(_ help: String) -> String {
        let line = help.split(whereSeparator: \.isNewline).joined(separator: " ")
        guard line.count > 70 else { return line }
        let cut = line.prefix(69)
        return String(cut[..<(cut.lastIndex(of: " ") ?? cut.endIndex)]) + "…"
    }

    private static func escapeColons(_ text: String) -> String { text.replacingOccurrences(of: ":", with: "\\:") }

    /// Single-quoted for the shell.
    private static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
}
