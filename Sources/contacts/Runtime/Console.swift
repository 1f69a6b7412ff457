import Glibc
import PlainContacts
import PlainContactsSystem

/// Standard output and standard error.
struct Console: Sendable {
    /// Writes `text` and a newline to standard output.
    func print(_ text: String) {
        write(text + "\n", to: STDOUT_FILENO)
    }

    /// Writes `lines`, each followed by a newline, to standard output.
    func print(lines: [String]) {
        guard !lines.isEmpty else { return }
        write(lines.joined(separator: "\n") + "\n", to: STDOUT_FILENO)
    }

    /// Writes a JSON value in canonical form (sorted keys, two-space indent) to standard output.
    func printJSON(_ value: JSONValue) {
        let bytes = CanonicalJSON.encode(value)
        write(Array(bytes), to: STDOUT_FILENO)
    }

    /// Writes `contacts: <message>` to standard error.
    func error(_ message: String) {
        write("contacts: \(message)\n", to: STDERR_FILENO)
    }

    /// Writes a note (a line without the `contacts:` prefix) to standard error.
    func note(_ text: String) {
        write(text + "\n", to: STDERR_FILENO)
    }

    private func write(_ text: String, to descriptor: Int32) {
        write(Array(text.utf8), to: descriptor)
    }

    private func write(_ bytes: [UInt8], to descriptor: Int32) {
        FileDescriptorWriter.writeAll(bytes, to: descriptor)
    }
}
