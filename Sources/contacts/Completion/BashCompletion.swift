/// The bash completion script: `source <(contacts completion bash)`.
enum BashCompletion {
    static func script(_ tree: CompletionTree) -> String {
        let globalWords = tree.globalOptions.map { "--\($0.name)" }.joined(separator: " ")
        let commonWords = GlobalOptions.specs.map { "--\($0.name)" }.joined(separator: " ")
        let valueNames = tree.valueOptions.map { "--\($0.name)" }
        var lines = [
            "# bash completion for contacts",
            "_contacts() {",
            "    local cur prev command=\"\" subcommand=\"\" i word",
            "    cur=\"${COMP_WORDS[COMP_CWORD]}\"",
            "    prev=\"${COMP_WORDS[COMP_CWORD-1]}\"",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        word=\"${COMP_WORDS[i]}\"",
            "        case \"$word\" in",
            "            \(valueNames.joined(separator: "|"))) ((i++)) ;;",
            "            -*) ;;",
            "            *)",
            "                if [[ -z $command ]]; then command=\"$word\"",
            "                elif [[ -z $subcommand ]]; then subcommand=\"$word\"",
            "                fi ;;",
            "        esac",
            "    done",
            "    case \"$prev\" in",
        ]
        for option in tree.valueOptions {
            switch option.completion {
            case .directory:
                lines.append("        --\(option.name)) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;")
            case .words(let words):
                lines.append("        --\(option.name)) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return ;;")
            case .none:
                lines.append("        --\(option.name)) COMPREPLY=(); return ;;")
            }
        }
        lines.append("    esac")
        lines.append("    local words=\"\"")
        lines.append("    if [[ -z $command ]]; then")
        lines.append("        words=\"\(tree.commands.map { $0.path[0] }.joined(separator: " ")) \(globalWords)\"")
        for dispatcher in tree.commands where !dispatcher.children.isEmpty {
            lines.append("    elif [[ $command == \(dispatcher.path[0]) && -z $subcommand ]]; then")
            lines.append("        words=\"\(dispatcher.children.map { $0.path[1] }.joined(separator: " ")) \(commonWords)\"")
        }
        lines.append("    else")
        lines.append("        case \"$command\" in")
        for command in tree.commands {
            if command.children.isEmpty {
                lines.append("            \(command.path[0])) words=\"\(words(command)) \(commonWords)\" ;;")
            } else {
                lines.append("            \(command.path[0]))")
                lines.append("                case \"$subcommand\" in")
                for child in command.children {
                    lines.append("                    \(child.path[1])) words=\"\(words(child)) \(commonWords)\" ;;")
                }
                lines.append("                esac ;;")
            }
        }
        lines.append("        esac")
        lines.append("    fi")
        lines.append("    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))")
        lines.append("}")
        lines.append("complete -F _contacts contacts")
        return lines.joined(separator: "\n")
    }

    private static func words(_ node: CompletionTree.Node) -> String {
        (node.options.map { "--\($0.name)" } + node.argumentWords).joined(separator: " ")
    }
}
