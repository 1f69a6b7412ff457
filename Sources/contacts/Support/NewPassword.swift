import Glibc
import PlainContacts
import PlainContactsDAV

/// Where `contacts user add` gets the password it hashes: never the command line, where any
/// user of the machine could read it in the process list.
///
/// - When standard input is a terminal, the password is asked for twice on the controlling
///   terminal (`/dev/tty`) with echo off, and the two answers must agree.
/// - Otherwise it is the first line of standard input, without its `\n` or `\r\n`, so that a
///   script can pipe it from a password manager: `pass show dav | contacts user add kim`.
///
/// Either way it must not be empty, must be UTF-8 and at most
/// ``ServerUsersFile/maximumPasswordLength`` bytes long. No error message quotes it.
///
/// ```swift
/// let password = try NewPassword(standardInputIsTerminal: context.standardInputIsTerminal).read(for: name)
/// ```
struct NewPassword {
    /// Whether standard input is a terminal.
    let standardInputIsTerminal: Bool
    /// The terminal to prompt on; tests point it elsewhere.
    var terminalPath = "/dev/tty"

    /// Reads the new password of `name`.
    ///
    /// - Throws: exit status 65 for an empty, overlong or non-UTF-8 password, or two answers
    ///   that differ; exit status 1 when the prompt is answered with end of input (Control-D),
    ///   or when there is no terminal to prompt on.
    func read(for name: ServerUserName) throws(CLIError) -> String {
        let password = standardInputIsTerminal ? try prompt(for: name) : try readStandardInput()
        do {
            try ServerUsersFile.checkPassword(password)
        } catch {
            throw CLIError.library(error)
        }
        return password
    }

    /// Asks twice on the terminal.
    private func prompt(for name: ServerUserName) throws(CLIError) -> String {
        guard let terminal = TerminalDevice.open(path: terminalPath) else {
            throw CLIError.failure(
                "there is no terminal to ask for the password on; give it on standard input instead")
        }
        guard let first = terminal.readSecretLine(prompt: "New password for user \(name): ") else {
            throw CLIError.failure("cancelled; nothing was changed")
        }
        guard !first.isEmpty else { throw CLIError(status: .dataError, message: "a password must not be empty") }
        guard let second = terminal.readSecretLine(prompt: "The same password again: ") else {
            throw CLIError.failure("cancelled; nothing was changed")
        }
        guard first == second else {
            throw CLIError(status: .dataError, message: "the two passwords differ; nothing was changed")
        }
        return first
    }

    /// Reads the first line of standard input, a byte at a time so that nothing after it is
    /// consumed, and no more than a password can hold.
    private func readStandardInput() throws(CLIError) -> String {
        let limit = ServerUsersFile.maximumPasswordLength
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = Glibc.read(STDIN_FILENO, &byte, 1)
            if count < 0 {
                if errno == EINTR { continue }
                throw CLIError.failure("could not read the password from standard input: \(String(cString: strerror(errno)))")
            }
            if count == 0 || byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
            // One byte more than a password may have, for the `\r` of a `\r\n`.
            if bytes.count > limit + 1 {
                throw CLIError(
                    status: .dataError, message: "the password on standard input is longer than \(limit) bytes")
            }
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard !bytes.isEmpty else {
            throw CLIError(
                status: .dataError,
                message: "no password on standard input: its first line is empty (on a terminal, it is asked for)")
        }
        guard let password = String(validating: bytes, as: UTF8.self) else {
            throw CLIError(status: .dataError, message: "the password on standard input is not UTF-8")
        }
        return password
    }
}
