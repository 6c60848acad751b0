/// Bash and zsh completion scripts, generated from ``CommandTable``.
enum ShellCompletions {
    /// The bash script: `source <(mapraster completions bash)`.
    static func bash() -> String {
        let commands = CommandTable.topLevelNames
        var script = """
            # bash completion for mapraster (made by `mapraster completions bash`; do not edit)
            _mapraster() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="" cmd="render"
                (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"
                if (( COMP_CWORD == 1 )); then
                    if [[ "$cur" == -* ]]; then
                        COMPREPLY=($(compgen -W "\(words(CommandTable.render) + " --version")" -- "$cur"))
                    else
                        COMPREPLY=($(compgen -W "\(commands.joined(separator: " "))" -- "$cur"))
                    fi
                    return
                fi
                case "${COMP_WORDS[1]}" in
                    \(commands.joined(separator: "|"))) cmd="${COMP_WORDS[1]}" ;;
                esac

            """
        for (parent, child) in subcommands {
            script += """
                    if [[ "$cmd" == \(parent) ]]; then
                        if (( COMP_CWORD == 2 )); then COMPREPLY=($(compgen -W "\(child)" -- "$cur")); return; fi
                        cmd="\(parent) \(child)"
                    fi

                """
        }
        script += "    case \"$cmd\" in\n"
        for command in CommandTable.all where !isParent(command) {
            script += "        \(command.path.count > 1 ? "\"\(command.name)\"" : command.name))\n"
            script += "            case \"$prev\" in\n"
            for option in command.parsedOptions where option.value != .none {
                let names = ([option.name] + (option.short.map { [$0] } ?? [])).joined(separator: "|")
                switch option.value {
                case .file: script += "                \(names)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
                case .choice(_, let values):
                    script +=
                        "                \(names)) COMPREPLY=($(compgen -W \"\(values.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
                default: script += "                \(names)) return ;;\n"
                }
            }
            script += "            esac\n"
            var list = words(command)
            if command.path == ["completions"] { list += " bash zsh" }
            if command.path == ["help"] { list += " " + CommandTable.topLevelNames.joined(separator: " ") }
            script += "            COMPREPLY=($(compgen -W \"\(list)\" -- \"$cur\"))\n"
            if command.positionalFiles {
                script += "            [[ \"$cur\" != -* ]] && COMPREPLY+=($(compgen -f -- \"$cur\"))\n"
            }
            script += "            ;;\n"
        }
        script += """
                esac
            }
            complete -o filenames -o bashdefault -F _mapraster mapraster

            """
        return script
    }

    /// The commands with one subcommand (`mbtiles merge`, `style check`), as (command, subcommand).
    static var subcommands: [(String, String)] {
        CommandTable.all.filter { $0.path.count == 2 }.map { ($0.path[0], $0.path[1]) }
    }

    /// Whether the command only leads to a subcommand (`mbtiles`, `style`).
    static func isParent(_ command: CommandSpec) -> Bool {
        command.path.count == 1 && subcommands.contains { $0.0 == command.name }
    }

    /// The zsh script: save it as `_mapraster` in a folder on `$fpath`.
    static func zsh() -> String {
        var script = """
            #compdef mapraster
            # zsh completion for mapraster (made by `mapraster completions zsh`; do not edit)

            _mapraster() {
                local -a commands
                commands=(

            """
        for command in CommandTable.all where command.path.count == 1 {
            script += "        '\(command.name):\(zshText(command.summary))'\n"
        }
        script += """
                )
                if (( CURRENT == 2 )) && [[ "$words[2]" != -* ]]; then
                    _describe 'command' commands
                    return
                fi
                local cmd=render
                if (( ${commands[(I)$words[2]:*]} )); then
                    cmd=$words[2]
                    shift words
                    (( CURRENT-- ))
                fi

            """
        for (parent, child) in subcommands {
            let summary = CommandTable.command([parent, child])?.summary ?? ""
            script += """
                    if [[ $cmd == \(parent) ]]; then
                        if (( CURRENT == 2 )); then
                            _values 'subcommand' '\(child)[\(zshText(summary))]'
                            return
                        fi
                        cmd=\(parent)_\(child)
                        shift words
                        (( CURRENT-- ))
                    fi

                """
        }
        script += "    case $cmd in\n"
        for command in CommandTable.all where !isParent(command) {
            script += "        \(command.path.joined(separator: "_")))\n            _arguments -s : \\\n"
            for option in command.parsedOptions {
                let help = zshText(option.help.split(separator: "\n").first.map(String.init) ?? "")
                let action: String
                switch option.value {
                case .none: action = ""
                case .file(let name): action = ":\(zshText(name)):_files"
                case .text(let name): action = ":\(zshText(name)): "
                case .choice(let name, let values): action = ":\(zshText(name)):(\(values.joined(separator: " ")))"
                }
                let star = option.repeatable ? "*" : ""
                if let short = option.short {
                    script +=
                        "                '\(star)(\(short) \(option.name))'{\(short),\(option.name)}'[\(help)]\(action)' \\\n"
                } else {
                    script += "                '\(star)\(option.name)[\(help)]\(action)' \\\n"
                }
            }
            if command.path == ["completions"] {
                script += "                ':shell:(bash zsh)'\n"
            } else if command.path == ["help"] {
                script += "                ':command:(\(CommandTable.topLevelNames.joined(separator: " ")))'\n"
            } else if command.positionalFiles {
                script += "                '*:file:_files'\n"
            } else {
                script += "                '*: :'\n"
            }
            script += "            ;;\n"
        }
        script += """
                esac
            }

            _mapraster "$@"

            """
        return script
    }

    /// The options of a command as one space-separated word list.
    static func words(_ command: CommandSpec) -> String {
        command.parsedOptions.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }.joined(separator: " ")
    }

    /// Text safe inside a single-quoted zsh `_arguments` spec: no quotes, brackets or colons.
    static func zshText(_ text: String) -> String {
        String(
            text.map { c -> Character in
                switch c {
                case "'", "[", "]", ":", "\\", "`", "$": return " "
                default: return c
                }
            })
    }
}
