/// The options every command accepts, before or after its name.
struct GlobalOptions: OptionGroup {
    /// `--store DIR`.
    let store = Option<String>(
        "store", "DIR", help: "Use the store in DIR instead of the default one.", completion: .directory)
    /// `--lock-timeout SECONDS`; ``CommandContext`` reads the number.
    let lockTimeout = Option<String>(
        "lock-timeout", "SECONDS", help: "Wait at most SECONDS for another program using the store (default 10).")
    /// `--commit`; see ``AutoCommit``.
    let commit = Flag(
        "commit", help: "Commit the command's changes to Git (\"autoCommit\": true in store.json does it always).")
    /// `--help`, or `-h`.
    let help = Flag("help", help: "Show this help.")
}
