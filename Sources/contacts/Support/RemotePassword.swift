import PlainContacts
import PlainContactsDAV

/// Where the password of a remote comes from each time a command needs it; it is never
/// written to disk.
///
/// A remote without a user needs no password. Otherwise the first of these gives it:
///
/// 1. the remote's password command (`--password-command`), run with `/bin/sh -c`: the first
///    line of its standard output, without the line end;
/// 2. the environment variable `CONTACTS_REMOTE_PASSWORD`, if set and not empty;
/// 3. a prompt on the controlling terminal (`/dev/tty`), with echo off.
///
/// ```swift
/// let password = try RemotePassword(environment: context.environment).password(for: remote)
/// ```
struct RemotePassword {
    /// Where a remote's password comes from, as `contacts remote list` shows it.
    enum Source: String {
        /// The remote's password command.
        case command
        /// `CONTACTS_REMOTE_PASSWORD`.
        case environment
        /// A prompt on the terminal.
        case prompt
        /// None: the remote has no user.
        case notNeeded = "none"
    }

    /// The environment variable that holds a password.
    static let environmentVariable = "CONTACTS_REMOTE_PASSWORD"
    /// The most of a password command's output that is read into memory; the password is its
    /// first line.
    static let maximumCommandOutput = 65_536

    /// The process environment.
    let environment: [String: String]
    /// The terminal to prompt on; tests point it elsewhere.
    var terminalPath = "/dev/tty"

    /// Where the password of `remote` would come from now.
    func source(for remote: RemoteSettings) -> Source {
        guard remote.user != nil else { return .notNeeded }
        if remote.passwordCommand != nil { return .command }
        if let value = environment[RemotePassword.environmentVariable], !value.isEmpty { return .environment }
        return .prompt
    }

    /// The password of `remote`, or `nil` when it has no user.
    ///
    /// - Throws: exit status 77 when the password command fails, prints nothing or cannot be
    ///   started, or when a prompt is needed and there is no terminal; exit status 1 when the
    ///   prompt is answered with an empty line or end of input.
    func password(for remote: RemoteSettings) throws(CLIError) -> String? {
        switch source(for: remote) {
        case .notNeeded:
            return nil
        case .command:
            return try runCommand(of: remote)
        case .environment:
            return environment[RemotePassword.environmentVariable]
        case .prompt:
            return try prompt(for: remote)
        }
    }

    /// Runs the password command and returns its output's first line. Its output never
    /// appears in an error: it may hold the password.
    private func runCommand(of remote: RemoteSettings) throws(CLIError) -> String {
        let command = remote.passwordCommand ?? ""
        guard let result = Subprocess.capture(["/bin/sh", "-c", command], keeping: RemotePassword.maximumCommandOutput)
        else {
            throw CLIError(status: .noPermission, message: "the password command of remote \"\(remote.name)\" could not be started")
        }
        guard result.status == 0 else {
            throw CLIError(
                status: .noPermission,
                message: "the password command of remote \"\(remote.name)\" failed with exit status \(result.status)")
        }
        var line = result.output.prefix { $0 != UInt8(ascii: "\n") }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard !line.isEmpty else {
            throw CLIError(
                status: .noPermission,
                message: "the password command of remote \"\(remote.name)\" printed no password (exit status 0)")
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// Asks on the terminal.
    private func prompt(for remote: RemoteSettings) throws(CLIError) -> String {
        guard let terminal = TerminalDevice.open(path: terminalPath) else {
            throw CLIError(
                status: .noPermission,
                message: "remote \"\(remote.name)\" needs a password and there is no terminal to ask for it; "
                    + "set \(RemotePassword.environmentVariable), or add the remote again with --password-command")
        }
        let user = printable(remote.user ?? "")
        let host = printable(remote.url.host(percentEncoded: false) ?? "")
        guard let password = terminal.readSecretLine(prompt: "Password for \(user) at \(host) (remote \(remote.name)): "),
            !password.isEmpty
        else {
            throw CLIError.failure("cancelled; no password was given")
        }
        return password
    }

    /// `text` without control characters, which could send escape sequences to the terminal.
    private func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.generalCategory != .control }))
    }
}
