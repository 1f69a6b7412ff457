import Dispatch
import FoundationEssentials
import Glibc

/// A prompt that asks on the controlling terminal (`/dev/tty`).
///
/// It writes one question and reads one line:
///
/// ```
/// “com.example.mailer” would like to access your contacts in /home/kim/contacts. Allow? [y/N]
/// ```
///
/// `y` or `yes` (in any case) allows; any other line refuses; end of input (Control-D), or no
/// controlling terminal at all (a daemon, a cron job, a CI run), means the user could not be
/// asked, and the answer is `nil`. The terminal is used even when standard input and output are
/// redirected, so a pipeline cannot answer on the user's behalf.
///
/// ```swift
/// AccessRequest.requestAccess(client: "com.example.mailer", store: storeURL) { granted, error in
///     print(granted ? "allowed" : "not allowed")
/// }
/// ```
public struct TerminalAccessPrompt: AccessPrompt {
    /// The terminal device; tests point it elsewhere.
    let devicePath: String

    /// Creates a prompt that asks on the controlling terminal.
    public init() {
        self.init(devicePath: "/dev/tty")
    }

    init(devicePath: String) {
        self.devicePath = devicePath
    }

    /// Asks on the terminal; returns `nil` when there is no terminal or it reports end of input.
    ///
    /// The blocking terminal read runs on a Dispatch worker, not on the Swift concurrency pool.
    public func askForAccess(client: String, store: URL) async -> Bool? {
        let question = TerminalAccessPrompt.question(client: client, store: store)
        let devicePath = devicePath
        return await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: TerminalAccessPrompt.ask(question, onDevice: devicePath))
            }
        }
    }

    /// Opens the device, asks, and closes it again.
    static func ask(_ question: String, onDevice devicePath: String) -> Bool? {
        var descriptor: Int32
        repeat {
            descriptor = open(devicePath, O_RDWR | O_CLOEXEC)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return converse(question, on: descriptor)
    }

    /// Writes `question` to `descriptor` and interprets the line read back; `nil` if writing
    /// fails or the input ends before any character.
    static func converse(_ question: String, on descriptor: Int32) -> Bool? {
        guard writeAll(Array(question.utf8), to: descriptor) else { return nil }
        guard let reply = readLine(from: descriptor) else {
            _ = writeAll(Array("\n".utf8), to: descriptor)
            return nil
        }
        return isAffirmative(reply)
    }

    /// The question for `client` and `store`, with control characters replaced so that a
    /// crafted name cannot send escape sequences to the terminal.
    static func question(client: String, store: URL) -> String {
        var path = store.standardizedFileURL.path(percentEncoded: false)
        if path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return "“\(printable(client))” would like to access your contacts in \(printable(path)). Allow? [y/N] "
    }

    /// Whether a reply means yes: `y` or `yes` in any case, surrounding blanks ignored.
    static func isAffirmative(_ reply: String) -> Bool {
        let answer = reply.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return answer == "y" || answer == "yes"
    }

    private static func printable(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let isControl = scalar.properties.generalCategory == .control
                || scalar == "\u{2028}" || scalar == "\u{2029}"
            result.append(isControl ? "\u{FFFD}" : scalar)
        }
        return String(result)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// The longest reply kept; the rest of a longer line is read and dropped.
    private static let maximumReplyLength = 256

    /// Reads up to a newline, one byte at a time so nothing after the line is consumed;
    /// `nil` if the input ends before any byte or the read fails.
    private static func readLine(from descriptor: Int32) -> String? {
        var line: [UInt8] = []
        var sawAnything = false
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            sawAnything = true
            if byte == UInt8(ascii: "\n") { break }
            if line.count < maximumReplyLength { line.append(byte) }
        }
        guard sawAnything else { return nil }
        return String(decoding: line, as: UTF8.self)
    }
}
