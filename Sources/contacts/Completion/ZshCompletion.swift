/// The zsh completion script: save it as `_contacts` in a folder of `$fpath`.
enum ZshCompletion {
    static func script(_ tree: CompletionTree) -> String {
        var lines = ["#compdef contacts", ""]
        lines += function("_contacts", commands: tree.commands, options: tree.globalOptions, level: 0)
        for dispatcher in tree.commands where !dispatcher.children.isEmpty {
            lines.append("")
            lines += function(
                "_contacts_\(dispatcher.path[0])", commands: dispatcher.children, options: GlobalOptions.specs,
                level: 1)
        }
        lines += ["", "_contacts \"$@\""]
        return lines.joined(separator: "\n")
    }

    private static func function(_ name: String, commands: [CompletionTree.Node], options: [OptionSpec], level: Int) -> [String] {
        var lines = [
            "\(name)() {",
            "    local curcontext=\"$curcontext\" state line",
            "    typeset -A opt_args",
            "    local -a commands",
            "    commands=(",
        ]
        for command in commands {
            lines.append("        \(quote("\(command.path[level]):\(command.summary)"))")
        }
        lines.append("    )")
        lines.append("    _arguments -C \\")
        for option in options {
            lines.append("        \(quote(spec(option))) \\")
        }
        lines.append("        '1: :->command' \\")
        lines.append("        '*:: :->arguments'")
        lines.append("    case $state in")
        lines.append("        command) _describe -t commands 'contacts command' commands ;;")
        lines.append("        arguments)")
        lines.append("            case $line[1] in")
        for command in commands {
            let word = command.path[level]
            if !command.children.isEmpty {
                lines.append("                \(word)) \(name)_\(word) ;;")
                continue
            }
            var specs = (command.options + GlobalOptions.specs).map { quote(spec($0)) }
            if command.argumentWords.isEmpty {
                specs.append(quote("*:argument:"))
            } else {
                specs.append(quote("*: :(\(command.argumentWords.joined(separator: " ")))"))
            }
            lines.append("                \(word)) _arguments \(specs.joined(separator: " ")) ;;")
        }
        lines.append("            esac ;;")
        lines.append("    esac")
        lines.append("}")
        return lines
    }

    /// An `_arguments` option spec: `'*--phone[A phone number]:[LABEL\:]NUMBER:'`.
    private static func spec(_ option: OptionSpec) -> String {
        let repetition = option.isRepeatable ? "*" : ""
        let exclusive = option.name == "help" || option.name == "version" ? "(- *)" : ""
        var text = "\(exclusive)\(repetition)--\(option.name)[\(escape(option.help))]"
        if let valueName = option.valueName {
            text += ":\(escape(valueName)):"
            switch option.completion {
            case .none: break
            case .directory: text += "_directories"
            case .words(let words): text += "(\(words.joined(separator: " ")))"
            }
        }
        return text
    }

    /// Help text made safe inside an `_arguments` spec.
    private static func escape(_ text: String) -> String {
        text.replacingAll("\\", with: "\\\\").replacingAll("[", with: "(").replacingAll("]", with: ")")
            .replacingAll(":", with: "\\:")
    }

    /// A single-quoted shell word.
    private static func quote(_ text: String) -> String {
        "'" + text.replacingAll("'", with: "'\\''") + "'"
    }
}
