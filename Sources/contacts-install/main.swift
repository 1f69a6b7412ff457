import Foundation

// `contacts-install`: installs `contacts` with its manual, completions and systemd units
// under a prefix, or uninstalls it (see InstallOptions.usage).
do {
    let options = try InstallOptions(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
    if options.help {
        print(InstallOptions.usage)
        exit(0)
    }
    let installer = Installer(options: options) { line in print(line) }
    try options.uninstall ? installer.uninstall() : installer.install()
} catch {
    FileHandle.standardError.write(Data("contacts-install: \(error)\n".utf8))
    exit(error is InstallError ? 1 : 70)
}
