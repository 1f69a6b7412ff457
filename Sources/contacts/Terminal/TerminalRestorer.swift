import Glibc

/// Puts a terminal's saved mode back when a signal ends the process while a prompt has
/// changed it (echo off for a password), so that the shell is never left without echo.
///
/// ```swift
/// TerminalRestorer.restoring(saved, on: descriptor) {
///     // echo off, read the password, restore the mode
/// }
/// ```
///
/// The handler makes only async-signal-safe calls (`tcsetattr`, `write`, `signal`, `raise`)
/// and reads the terminal and its mode from memory set up before it is installed.
enum TerminalRestorer {
    /// The signals that end a process by default and reach a prompt: Control-C, Control-\,
    /// a closed terminal, `kill`.
    private static let signals = [SIGINT, SIGQUIT, SIGHUP, SIGTERM]

    /// The terminal's descriptor, read by the handler (plain memory: no exclusivity checks).
    nonisolated(unsafe) private static let descriptor = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    /// The mode to put back, read by the handler.
    nonisolated(unsafe) private static let mode = UnsafeMutablePointer<termios>.allocate(capacity: 1)

    /// Runs `body`, which changes the mode of `terminal` and puts `saved` back before it
    /// returns; if one of ``signals`` arrives meanwhile, `saved` is put back, a line is ended,
    /// and the signal then ends the process as it would have.
    static func restoring<Result>(_ saved: termios, on terminal: Int32, _ body: () -> Result) -> Result {
        descriptor.pointee = terminal
        mode.pointee = saved
        let previous = signals.map { ($0, signal($0, handler)) }
        defer {
            for (number, action) in previous { signal(number, action) }
        }
        return body()
    }

    private static let handler: @convention(c) (Int32) -> Void = { number in
        tcsetattr(TerminalRestorer.descriptor.pointee, TCSANOW, TerminalRestorer.mode)
        var newline = UInt8(ascii: "\n")
        _ = write(TerminalRestorer.descriptor.pointee, &newline, 1)
        signal(number, SIG_DFL)
        raise(number)
    }
}
