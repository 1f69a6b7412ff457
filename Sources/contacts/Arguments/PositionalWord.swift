/// A word of a command line that is not an option, with where it stood: which run of
/// consecutive such words it belongs to, and the option value written just before that run.
///
/// In `contacts add --phone mobile:+44 20 7946` the words `20` and `7946` are one run that
/// follows the value of `--phone`: the shell split a value the user meant as one, and
/// ``Positionals`` can say so instead of taking them as a name.
struct PositionalWord: Sendable, Equatable {
    /// An option and its value as written: `--phone mobile:+44`.
    struct OptionValue: Sendable, Equatable {
        /// The option as written, without an inline value: `--phone`, `-o`.
        let option: String
        /// Its value.
        let value: String
        /// Whether the value is one of a few fixed words (`--kind organization`), so that
        /// words after it cannot belong to it.
        let isFixedWord: Bool
    }

    /// The word.
    let text: String
    /// The run of consecutive positional words it belongs to, counted from 0 in order.
    let run: Int
    /// The option value written right before its run, or `nil` when the run follows the
    /// command's name or a flag, or comes after `--`.
    let following: OptionValue?
}
