import Glibc

/// A self-pipe that another thread writes to, to wake the watcher's thread out of `poll(2)`.
///
/// ```swift
/// let wakeup = try WatcherWakeup()
/// wakeup.signal()          // from any thread
/// poll(&fds, 2, -1)        // with wakeup.descriptor among fds: returns
/// ```
struct WatcherWakeup: Sendable {
    /// The descriptor to poll for reading.
    let descriptor: Int32
    private let writeDescriptor: Int32

    /// - Throws: ``ContactsError`` `.io` when the system refuses a new pipe.
    init() throws(ContactsError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw PosixError.error("could not create the store watcher's wake-up pipe", path: nil, code: errno, call: "pipe")
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        descriptor = ends[0]
        writeDescriptor = ends[1]
    }

    /// Makes the descriptor readable; safe from any thread.
    func signal() {
        var byte: UInt8 = 1
        while write(writeDescriptor, &byte, 1) < 0 && errno == EINTR {}
    }

    /// Makes the descriptor unreadable again.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 || (count < 0 && errno == EINTR) { continue }
            return
        }
    }

    /// Closes both ends; call once, after no thread polls or signals any more.
    func close() {
        _ = Glibc.close(descriptor)
        _ = Glibc.close(writeDescriptor)
    }
}
