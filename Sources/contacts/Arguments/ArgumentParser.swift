/// Sorts a command's words into options and positional arguments.
///
/// - `--name value` and `--name=value` give an option its value; the word after an option that
///   takes a value is always its value, even when it starts with a dash (`--birthday --04-12`).
/// - `-h` is `--help`; an option with a one-letter form also takes it alone: `-o FILE`.
/// - `--` ends the options: every word after it is positional.
/// - A lone `-` is positional; any other word starting with `-` must be a known option.
/// - Positional words are recorded in runs, with the option value each run follows, so that
///   ``Positionals`` can tell a value the shell split (`--phone mobile:+44 20 7946`) from
///   arguments.
struct ArgumentParser {
    /// The options the command accepts, global ones included.
    let options: [OptionSpec]
    /// How the command is named in error messages: `contacts group add`.
    let commandName: String

    /// Parses `words`.
    ///
    /// - Throws: a usage error for an unknown option, a missing value, a value given to a
    ///   flag, or an option given twice that may be given once.
    func parse(_ words: [String]) throws(CLIError) -> ArgumentValues {
        try parse(words, stoppingAtPositional: false).arguments
    }

    /// Parses the options before the first positional argument (a command or subcommand
    /// name) and returns them with the words from that argument on.
    func parseLeadingOptions(_ words: [String]) throws(CLIError) -> (arguments: ArgumentValues, rest: [String]) {
        try parse(words, stoppingAtPositional: true)
    }

    private func parse(
        _ words: [String], stoppingAtPositional: Bool
    ) throws(CLIError) -> (arguments: ArgumentValues, rest: [String]) {
        var result = ArgumentValues()
        var index = 0
        // The option value the previous word gave, and whether the previous word was positional.
        var previousValue: PositionalWord.OptionValue?
        var previousWasPositional = false
        while index < words.count {
            let word = words[index]
            index += 1
            if word == "--" {
                if stoppingAtPositional { return (result, Array(words[index...])) }
                for (offset, positional) in words[index...].enumerated() {
                    result.appendPositional(positional, startsRun: offset == 0, following: nil)
                }
                break
            }
            guard word.hasPrefix("-"), word != "-" else {
                if stoppingAtPositional { return (result, Array(words[(index - 1)...])) }
                result.appendPositional(word, startsRun: !previousWasPositional, following: previousValue)
                previousWasPositional = true
                continue
            }
            previousWasPositional = false
            previousValue = nil
            var name = word == "-h" ? "help" : String(word.drop { $0 == "-" })
            var inlineValue: String?
            if word.hasPrefix("--"), let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            let spec = word.hasPrefix("--") || word == "-h"
                ? options.first { $0.name == name }
                : options.first { $0.shortName.map { "-\($0)" } == word }
            guard let spec else {
                throw CLIError.usage("unknown option \(word.split(separator: "=").first.map(String.init) ?? word) for `\(commandName)`")
            }
            if !spec.isRepeatable, result.contains(spec.name), spec.name != "help" {
                throw CLIError.usage("\(spec.usage) is given more than once")
            }
            if spec.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < words.count {
                    value = words[index]
                    index += 1
                } else {
                    throw CLIError.usage("\(spec.usage) needs a value")
                }
                result.append(value, for: spec.name)
                previousValue = PositionalWord.OptionValue(
                    option: word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word, value: value,
                    isFixedWord: spec.hasFixedWords)
            } else {
                guard inlineValue == nil else { throw CLIError.usage("--\(spec.name) takes no value") }
                result.append("", for: spec.name)
            }
        }
        return (result, [])
    }
}
