import Foundation
import Glibc

/// How `contacts serve` writes its log lines: with the time in front on a terminal or in a
/// file, and with a syslog priority in front when standard error is systemd's journal.
///
/// systemd sets `JOURNAL_STREAM` to the device and inode of the stream it connects standard
/// error to; the journal then records the time itself, and reads a leading `<6>` as the
/// priority (informational) of the line, which `journalctl -p` filters on.
///
/// ```swift
/// JournalStream(environment: ["JOURNAL_STREAM": "8:1234"]).line("GET / 207 3ms")  // "<6>GET / 207 3ms" under systemd
/// ```
struct JournalStream: Sendable {
    /// Whether standard error is the journal's stream.
    let isJournal: Bool

    /// Reads `JOURNAL_STREAM` from `environment`, and checks that it names standard error
    /// (a child of a service that redirected its output has the variable but not the stream).
    init(environment: [String: String]) {
        guard let value = environment["JOURNAL_STREAM"] else {
            isJournal = false
            return
        }
        let parts = value.split(separator: ":")
        var status = stat()
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]), fstat(STDERR_FILENO, &status) == 0 else {
            isJournal = false
            return
        }
        isJournal = UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    /// `text` as one log line: `<6>text` for the journal, else the time (UTC) and `text`.
    func line(_ text: String) -> String {
        isJournal ? "<6>" + text : ServeCommand.timestamp() + " " + text
    }
}
