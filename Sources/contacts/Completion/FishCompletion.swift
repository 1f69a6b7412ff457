/// The fish completion script: save it as `~/.config/fish/completions/contacts.fish`.
enum FishCompletion {
    static func script(_ tree: CompletionTree) -> String {
        let valueNames = tree.valueOptions.map { "--\($0.name)" }.joined(separator: " ")
        var lines = [
            "# fish completion for contacts",
            "function __contacts_words",
            "    set -l words (commandline -opc)",
            "    set -e words[1]",
            "    set -l skip 0",
            "    for word in $words",
            "        if test $skip = 1",
            "            set skip 0",
            "            continue",
            "        end",
            "        switch $word",
            "            case \(valueNames)",
            "                set skip 1",
            "            case '-*'",
            "            case '*'",
            "                echo $word",
            "        end",
            "    end",
            "end",
            "",
            "# __contacts_is WORD...: the command words typed are exactly WORD...",
            "function __contacts_is",
            "    set -l words (__contacts_words)",
            "    test \"$words\" = \"$argv\"",
            "end",
            "",
            "# __contacts_in WORD...: the command words typed start with WORD...",
            "function __contacts_in",
            "    set -l words (__contacts_words)",
            "    test (count $words) -ge (count $argv); or return 1",
            "    for i in (seq (count $argv))",
            "        test \"$words[$i]\" = \"$argv[$i]\"; or return 1",
            "    end",
            "end",
            "",
            "complete -c contacts -f",
        ]
        for option in tree.globalOptions {
            lines.append("complete -c contacts \(flags(option))")
        }
        for command in tree.commands {
            lines.append("complete -c contacts -n '__contacts_is' -a \(command.path[0]) -d \(quote(command.summary))")
        }
        for node in tree.allNodes {
            let path = node.path.joined(separator: " ")
            for child in node.children {
                lines.append(
                    "complete -c contacts -n '__contacts_is \(path)' -a \(child.path.last ?? "") -d \(quote(child.summary))")
            }
            guard node.children.isEmpty else { continue }
            for option in node.options {
                lines.append("complete -c contacts -n '__contacts_in \(path)' \(flags(option))")
            }
            if !node.argumentWords.isEmpty {
                lines.append(
                    "complete -c contacts -n '__contacts_is \(path)' -a \(quote(node.argumentWords.joined(separator: " ")))")
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func flags(_ option: OptionSpec) -> String {
        var text = "-l \(option.name)"
        if option.takesValue {
            switch option.completion {
            case .none: text += " -x"
            case .directory: text += " -x -a '(__fish_complete_directories)'"
            case .words(let words): text += " -x -a \(quote(words.joined(separator: " ")))"
            }
        }
        return text + " -d \(quote(option.help))"
    }

    private static func quote(_ text: String) -> String {
        "'" + text.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'") + "'"
    }
}
