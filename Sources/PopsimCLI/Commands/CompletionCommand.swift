import PopsimCore
import PopsimReports

/// `popsim completion bash|zsh|fish`: a shell completion script made from the commands' own option
/// lists and the registry (commands, options, strategy names, format and choice values).
enum CompletionCommand {
    enum Shell: String, CaseIterable { case bash, zsh, fish }

    static let specs: [Arguments.Spec] = [.init(name: "help", takesValue: false)]

    static func execute(_ arguments: [String], console: inout Console) throws(PopsimError) -> ExitCode {
        guard let args = try Arguments.parse(arguments, command: "completion", specs: specs, console: &console) else { return .success }
        guard args.positionals.count == 1, let word = args.positionals.first else {
            throw PopsimError.usage("completion: expected one shell: bash, zsh or fish; see 'popsim help completion'")
        }
        guard let shell = Shell(rawValue: word) else {
            throw PopsimError.usage("completion: expected one of bash, zsh, fish; got \(JSONValue.quoted(word))")
        }
        switch shell {
        case .bash: console.out(bash())
        case .zsh: console.out("#compdef popsim\nautoload -U +X bashcompinit && bashcompinit\n" + bash())
        case .fish: console.out(fish())
        }
        return .success
    }

    /// Values an option takes, when they are a known list.
    static func values(_ option: String, command: String) -> [String]? {
        switch (command, option) {
        case (_, "strategy"): return StrategyRegistry.names
        case ("run", "format"): return RunCommand.Format.allCases.map(\.rawValue)
        case ("compare", "format"): return CompareCommand.Format.allCases.map(\.rawValue)
        case ("check", "format"), ("lint", "format"): return ReportFormat.allCases.map(\.rawValue)
        case (_, "color"): return ColorMode.allCases.map(\.rawValue)
        default: return nil
        }
    }

    static func bash() -> String {
        let names = Popsim.commandSpecs.map(\.name)
        var out = "# popsim completion for bash: source it, or put it in bash-completion's folder.\n_popsim() {\n"
        out += "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
        out += "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
        out += "    COMPREPLY=($(compgen -W \"\(names.joined(separator: " ")) --help --version\" -- \"$cur\")); return\n  fi\n"
        out += "  local opts=\"\"\n  case \"${COMP_WORDS[1]}\" in\n"
        for (command, specs) in Popsim.commandSpecs {
            out += "    \(command))\n"
            out += "      opts=\"\(specs.map { "--" + $0.name }.joined(separator: " "))\"\n"
            out += "      case \"$prev\" in\n"
            for spec in specs where spec.takesValue {
                if let words = values(spec.name, command: command) {
                    out += "        --\(spec.name)) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return;;\n"
                }
            }
            out += "      esac;;\n"
        }
        out += "    help) COMPREPLY=($(compgen -W \"\(names.joined(separator: " ")) format\" -- \"$cur\")); return;;\n"
        out += "    completion) COMPREPLY=($(compgen -W \"\(Shell.allCases.map(\.rawValue).joined(separator: " "))\" -- \"$cur\")); return;;\n"
        out += "  esac\n"
        out += "  if [[ \"$cur\" == -* ]]; then COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\")); else COMPREPLY=($(compgen -f -- \"$cur\")); fi\n"
        out += "}\ncomplete -o filenames -F _popsim popsim\n"
        return out
    }

    static func fish() -> String {
        let names = Popsim.commandSpecs.map(\.name)
        var out = "# popsim completion for fish: put it in ~/.config/fish/completions/popsim.fish\n"
        out += "complete -c popsim -f -n __fish_use_subcommand -a \"\(names.joined(separator: " "))\"\n"
        for (command, specs) in Popsim.commandSpecs {
            for spec in specs {
                out += "complete -c popsim -n \"__fish_seen_subcommand_from \(command)\" -l \(spec.name)"
                if spec.takesValue {
                    if let words = values(spec.name, command: command) {
                        out += " -x -a \"\(words.joined(separator: " "))\""
                    } else {
                        out += " -r"
                    }
                }
                out += "\n"
            }
        }
        out += "complete -c popsim -f -n \"__fish_seen_subcommand_from help\" -a \"\(names.joined(separator: " ")) format\"\n"
        out += "complete -c popsim -f -n \"__fish_seen_subcommand_from completion\" -a \"bash zsh fish\"\n"
        return out
    }
}
