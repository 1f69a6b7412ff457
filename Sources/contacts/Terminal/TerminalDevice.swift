import Glibc

/// The controlling terminal, `/dev/tty`, opened for the interactive commands.
///
/// Prompts and pickers draw here rather than on standard output, so that
/// `ID=$(contacts pick)` captures only the result.
final class TerminalDevice {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Opens the controlling terminal, or returns `nil` when there is none.
    static func open(path: String = "/dev/tty") -> TerminalDevice? {
        var descriptor: Int32
        repeat {
            descriptor = Glibc.open(path, O_RDWR | O_CLOEXEC | O_NOCTTY)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { return nil }
        guard isatty(descriptor) == 1 else {
            close(descriptor)
            return nil
        }
        return TerminalDevice(descriptor: descriptor)
    }

    /// Writes text as it is.
    func write(_ text: String) {
        FileDescriptorWriter.writeAll(Array(text.utf8), to: descriptor)
    }

    /// The terminal's size, or 24 × 80 when it cannot be read.
    var size: (rows: Int, columns: Int) {
        var window = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_row > 0, window.ws_col > 0 else {
            return (24, 80)
        }
        return (Int(window.ws_row), Int(window.ws_col))
    }

    // MARK: Lines

    /// Writes `prompt` and reads one line in the terminal's ordinary (cooked) mode; `nil` at
    /// end of input (Control-D).
    func readLine(prompt: String) -> String? {
        write(prompt)
        var bytes: [UInt8] = []
        while true {
            guard let byte = readByte() else {
                if bytes.isEmpty {
                    write("\n")
                    return nil
                }
                break
            }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `prompt` and reads one line with echo off, as a password is typed; `nil` at end
    /// of input (Control-D) or when the terminal's mode cannot be read. The mode is put back
    /// afterwards, and also when a signal (Control-C, a hang-up, `kill`) ends the process
    /// meanwhile (see ``TerminalRestorer``).
    func readSecretLine(prompt: String) -> String? {
        var saved = termios()
        guard tcgetattr(descriptor, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        return TerminalRestorer.restoring(saved, on: descriptor) {
            tcsetattr(descriptor, TCSAFLUSH, &quiet)
            defer { tcsetattr(descriptor, TCSANOW, &saved) }
            guard let line = readLine(prompt: prompt) else { return nil }
            write("\n")
            return line
        }
    }

    /// Asks a yes-or-no question; an empty answer takes `defaultAnswer`, end of input is no.
    func confirm(_ question: String, defaultAnswer: Bool) -> Bool {
        guard let reply = readLine(prompt: question) else { return false }
        switch reply.trimmingWhitespace.lowercased() {
        case "": return defaultAnswer
        case "y", "yes": return true
        default: return false
        }
    }

    // MARK: Raw mode

    /// Runs `body` with the terminal in raw mode (no echo, no line editing, no signals from
    /// Control-C), restoring the previous mode afterwards.
    func withRawMode<T>(_ body: () throws -> T) rethrows -> T {
        var saved = termios()
        guard tcgetattr(descriptor, &saved) == 0 else { return try body() }
        var raw = saved
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1
            controlCharacters[Int(VTIME)] = 0
        }
        tcsetattr(descriptor, TCSADRAIN, &raw)
        defer { tcsetattr(descriptor, TCSADRAIN, &saved) }
        return try body()
    }

    /// Reads one key in raw mode; `nil` when the terminal is gone.
    func readKey() -> Key? {
        guard let byte = readByte() else { return nil }
        switch byte {
        case 0x03: return .interrupt
        case 0x04: return .endOfInput
        case 0x0D, 0x0A: return .enter
        case 0x15: return .eraseLine
        case 0x7F, 0x08: return .backspace
        case 0x1B: return readEscapeSequence()
        case 0x00..<0x20: return .other
        default: return readCharacter(startingWith: byte)
        }
    }

    private func readEscapeSequence() -> Key {
        guard waitForInput(milliseconds: 50), let introducer = readByte() else { return .escape }
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else { return .other }
        var parameters: [UInt8] = []
        while let byte = readByte() {
            if (0x40...0x7E).contains(byte) {
                switch (byte, parameters) {
                case (UInt8(ascii: "A"), _): return .up
                case (UInt8(ascii: "B"), _): return .down
                case (UInt8(ascii: "C"), _): return .right
                case (UInt8(ascii: "D"), _): return .left
                case (UInt8(ascii: "~"), [UInt8(ascii: "5")]): return .pageUp
                case (UInt8(ascii: "~"), [UInt8(ascii: "6")]): return .pageDown
                default: return .other
                }
            }
            parameters.append(byte)
            if parameters.count > 16 { return .other }
        }
        return .other
    }

    private func readCharacter(startingWith byte: UInt8) -> Key {
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        var bytes = [byte]
        while bytes.count < length, let next = readByte() { bytes.append(next) }
        guard let character = String(validating: bytes, as: UTF8.self)?.first else { return .other }
        return .character(character)
    }

    private func waitForInput(milliseconds: Int32) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&request, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            return ready > 0
        }
    }

    private func readByte() -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count == 1 { return byte }
            if count < 0, errno == EINTR { continue }
            return nil
        }
    }
}
