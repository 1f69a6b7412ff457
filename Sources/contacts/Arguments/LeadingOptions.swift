/// The options `contacts` accepts only before any command, besides the global ones.
struct LeadingOptions: OptionGroup {
    /// `--version`.
    let version = Flag("version", help: "Print the version.")
}
