import Glibc

/// A pipe the supervisor's signal handler writes signal numbers to, and its loop reads.
///
/// ```swift
/// guard let relay = SupervisorSignalRelay.shared else { return }
/// relay.relay([SIGINT, SIGTERM, SIGCHLD])
/// let numbers = relay.drain()   // once its read end is readable
/// ```
final class SupervisorSignalRelay: Sendable {
    /// The process's one relay, made before a handler is installed (``relay(_:)`` is reached
    /// through it), so that the handler only reads it; `nil` when the pipe cannot be made.
    static let shared = SupervisorSignalRelay()

    /// The end the loop reads, non-blocking.
    let readDescriptor: Int32
    /// The end the handler writes, non-blocking so that a full pipe drops a signal rather than
    /// blocking the handler.
    let writeDescriptor: Int32

    /// Creates the pipe; `nil` when the system has no descriptors left.
    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        readDescriptor = ends[0]
        writeDescriptor = ends[1]
    }

    /// Relays `signals` from now on, in place of their previous handlers.
    func relay(_ signals: [Int32]) {
        for number in signals {
            _ = signal(number, relaySupervisorSignal)
        }
    }

    /// The signal numbers written since the last call.
    func drain() -> [Int32] {
        var numbers: [Int32] = []
        var byte: UInt8 = 0
        while read(readDescriptor, &byte, 1) == 1 { numbers.append(Int32(byte)) }
        return numbers
    }
}

/// The supervisor's signal handler: writes the signal's number to the relay, keeping `errno`
/// as it was; `write` is async-signal-safe.
private func relaySupervisorSignal(_ number: Int32) {
    guard let relay = SupervisorSignalRelay.shared else { return }
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(relay.writeDescriptor, &byte, 1)
    errno = savedErrno
}
