import PopsimCore
import PopsimReports

/// `popsim completion bash|zsh|fish`: a shell completion script made from the list of commands,
/// their declared options (`CommandOptions`) and the registry: subcommands, options, strategy names (with `all`
/// where a command takes it), option names for `--option`, format and choice values, `.json`
/// files (and folders) for scenarios and policies; descriptions in zsh and fish.
enum CompletionCommand {
    enum Shell: String, CaseIterable { case bash, zsh, fish }

    static func execute(_ arguments: [String], console: inout Console) throws(PopsimError) -> ExitCode {
        guard let args = try Arguments.parse(arguments, command: "completion", console: &console) else { return .success }
        guard args.positionals.count == 1, let word = args.positionals.first else {
            throw PopsimError.usage("completion: expected one shell: bash, zsh or fish; see 'popsim help completion'")
        }
        guard let shell = Shell(rawValue: word) else {
            throw PopsimError.usage("completion: expected one of bash, zsh, fish; got \(JSONValue.quoted(word))")
        }
        switch shell {
        case .bash: console.out(bash())
        case .zsh: console.out(zsh())
        case .fish: console.out(fish())
        }
        return .success
    }

    /// The commands whose options a script completes (help and completion take words).
    static var completed: [PopsimCommand] { PopsimCommand.all.filter { $0.name != "help" && $0.name != "completion" } }

    /// What an option's value completes to: words with a description each (empty: none), or a kind.
    enum Value {
        case words([(String, String)])
        case jsonFile, file, directory, optionName, other
    }

    static func value(_ option: CommandOption) -> Value {
        switch option.completes {
        case .strategies(let all):
            return .words((all ? [("all", "every built-in strategy")] : []) + StrategyRegistry.all.map { ($0.name, $0.summary) })
        case .values: return .words(option.values.map { ($0, "") })
        case .jsonFile: return .jsonFile
        case .file: return .file
        case .directory: return .directory
        case .optionNames: return .optionName
        case .nothing: return .other
        }
    }

    /// Every option name a strategy takes, as `name=` for `--option`.
    static var optionNames: [String] {
        var seen = Set<String>()
        return StrategyRegistry.all.flatMap { $0.options.map(\.name) }.filter { seen.insert($0).inserted }.sorted().map { $0 + "=" }
    }

    /// What `popsim help` takes besides a command.
    static let helpTopics = "format options"

    /// An option's description in zsh and fish.
    static func summary(_ option: CommandOption) -> String { option.name == "help" ? "Show this command's help" : option.summary }

    // MARK: bash

    static func bash() -> String {
        let names = PopsimCommand.all.map(\.name)
        var out = "# popsim completion for bash: source it, or put it in bash-completion's folder.\n"
        // Paths are split on newlines only (`local IFS`), so a name with spaces stays one word.
        out += "_popsim_json() {\n  local IFS=$'\\n'\n  COMPREPLY=($(compgen -d -- \"$cur\") $(compgen -f -X '!*.json' -- \"$cur\"))\n}\n"
        out += "_popsim_files() {\n  local IFS=$'\\n'\n  COMPREPLY=($(compgen -$1 -- \"$cur\"))\n}\n"
        out += "_popsim() {\n"
        out += "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
        out += "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
        out += "    COMPREPLY=($(compgen -W \"\(names.joined(separator: " ")) --help --version\" -- \"$cur\")); return\n  fi\n"
        out += "  local opts=\"\" scenarios=0\n  case \"${COMP_WORDS[1]}\" in\n"
        for command in completed {
            out += "    \(command.name))\n"
            out += "      opts=\"\(command.options.map { "--" + $0.name }.joined(separator: " "))\"\(command.takesScenarios ? "; scenarios=1" : "")\n"
            out += "      case \"$prev\" in\n"
            for option in command.options where option.value != nil {
                out += "        --\(option.name)) "
                switch value(option) {
                case .words(let words): out += "COMPREPLY=($(compgen -W \"\(words.map(\.0).joined(separator: " "))\" -- \"$cur\"))"
                case .jsonFile: out += "_popsim_json"
                case .file: out += "_popsim_files f"
                case .directory: out += "_popsim_files d"
                case .optionName: out += "COMPREPLY=($(compgen -W \"\(optionNames.joined(separator: " "))\" -- \"$cur\")); compopt -o nospace 2>/dev/null"
                case .other: out += "COMPREPLY=()"
                }
                out += "; return;;\n"
            }
            out += "      esac;;\n"
        }
        out += "    help) COMPREPLY=($(compgen -W \"\(names.joined(separator: " ")) \(helpTopics)\" -- \"$cur\")); return;;\n"
        out += "    completion) COMPREPLY=($(compgen -W \"\(Shell.allCases.map(\.rawValue).joined(separator: " "))\" -- \"$cur\")); return;;\n"
        out += "  esac\n"
        out += "  if [[ \"$cur\" == -* ]]; then COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
        out += "  elif [ \"$scenarios\" = 1 ]; then _popsim_json\n  else COMPREPLY=()\n  fi\n"
        out += "}\ncomplete -o filenames -F _popsim popsim\n"
        return out
    }

    // MARK: zsh

    /// Text inside a single-quoted zsh word, as a description: no quote, bracket or colon.
    static func zshText(_ s: String) -> String {
        String(s.map { "[]:'\"`$\\".contains($0) ? " " : $0 })
    }

    static func zsh() -> String {
        var out = "#compdef popsim\n# popsim completion for zsh: save it as _popsim in a folder of $fpath, then run compinit.\n"
        out += "_popsim() {\n  local -a commands\n  commands=(\n"
        out += PopsimCommand.all.map { "    '\($0.name):\(zshText($0.summary))'" }.joined(separator: "\n") + "\n  )\n"
        out += "  if (( CURRENT == 2 )); then\n    _describe -t commands 'popsim command' commands\n    return\n  fi\n"
        out += "  case $words[2] in\n"
        for command in completed {
            out += "    \(command.name))\n      _arguments -s \\\n"
            for option in command.options {
                let spec = option.spec
                let star = spec.repeatable ? "*" : ""
                var line = "'\(star)--\(spec.name)[\(zshText(summary(option)))]"
                if spec.takesValue {
                    switch value(option) {
                    case .words(let words):
                        if words.allSatisfy({ $0.1.isEmpty }) {
                            line += ":\(spec.name):(\(words.map(\.0).joined(separator: " ")))"
                        } else {
                            line += ":\(spec.name):((\(words.map { "\($0.0)\\:\"\(zshText($0.1))\"" }.joined(separator: " "))))"
                        }
                    case .jsonFile: line += ":\(spec.name):_files -g \"*.json\""
                    case .file: line += ":\(spec.name):_files"
                    case .directory: line += ":\(spec.name):_files -/"
                    case .optionName: line += ":option:(\(optionNames.joined(separator: " ")))"
                    case .other: line += ":\(spec.name): "
                    }
                }
                out += "        " + line + "' \\\n"
            }
            out += command.takesScenarios ? "        '*:scenario:_files -g \"*.json\"'\n" : "        \n"
            out += "      ;;\n"
        }
        out += "    help) _describe -t commands 'command' commands ;;\n"
        out += "    completion) _values 'shell' bash zsh fish ;;\n"
        out += "  esac\n}\n_popsim \"$@\"\n"
        return out
    }

    // MARK: fish

    /// Text inside a double-quoted fish word.
    static func fishText(_ s: String) -> String {
        String(s.map { "\"$\\".contains($0) ? " " : $0 })
    }

    static func fish() -> String {
        let names = PopsimCommand.all.map(\.name)
        var out = "# popsim completion for fish: put it in ~/.config/fish/completions/popsim.fish\n"
        out += "complete -c popsim -f\n"
        // The strategies with their summaries (`all` first when asked), and .json files and folders.
        out += "function __popsim_strategies\n"
        out += "    test \"$argv[1]\" = all; and printf '%s\\t%s\\n' all 'every built-in strategy'\n"
        for entry in StrategyRegistry.all { out += "    printf '%s\\t%s\\n' \(entry.name) '\(fishQuoted(entry.summary))'\n" }
        out += "end\n"
        out += "function __popsim_json\n    string match -r -- '^.*(?:\\.json|/)\\t.*$' (__fish_complete_path (commandline -ct))\nend\n"
        for command in PopsimCommand.all {
            out += "complete -c popsim -n __fish_use_subcommand -a \(command.name) -d \"\(fishText(command.summary))\"\n"
        }
        for command in completed {
            let on = "__fish_seen_subcommand_from \(command.name)"
            if command.takesScenarios {
                out += "complete -c popsim -n \"\(on)\" -a \"(__popsim_json)\"\n"
            }
            for option in command.options {
                let spec = option.spec
                out += "complete -c popsim -n \"\(on)\" -l \(spec.name) -d \"\(fishText(summary(option)))\""
                if spec.takesValue {
                    switch option.completes {
                    case .strategies(let all): out += " -x -a \"(__popsim_strategies\(all ? " all" : ""))\""
                    case .values: out += " -x -a \"\(option.values.joined(separator: " "))\""
                    case .jsonFile: out += " -x -a \"(__popsim_json)\""
                    case .file: out += " -r -F"
                    case .directory: out += " -x -a \"(__fish_complete_directories)\""
                    case .optionNames: out += " -x -a \"\(optionNames.joined(separator: " "))\""
                    case .nothing: out += " -x"
                    }
                }
                out += "\n"
            }
        }
        out += "complete -c popsim -n \"__fish_seen_subcommand_from help\" -x -a \"\(names.joined(separator: " ")) \(helpTopics)\"\n"
        out += "complete -c popsim -n \"__fish_seen_subcommand_from completion\" -x -a \"bash zsh fish\"\n"
        return out
    }

    /// Text inside a single-quoted fish word.
    static func fishQuoted(_ s: String) -> String {
        s.replacingAll("\\", "\\\\").replacingAll("'", "\\'")
    }
}

