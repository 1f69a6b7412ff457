import Glibc
import Synchronization
import PlainContacts

/// The signal that tells every thread of a server to stop: a flag, and a socket pair whose read
/// end becomes readable for good, so that threads blocked in `poll` wake up.
///
/// ```swift
/// let stop = try HTTPServerStopSignal()
/// stop.raise()          // from any thread, any number of times
/// stop.isRaised         // true
/// ```
final class HTTPServerStopSignal: Sendable {
    /// The read end, to poll for readability; nothing ever reads from it.
    let readDescriptor: Int32
    /// The write end, written once by ``raise()``.
    private let writeDescriptor: Int32
    /// Whether ``raise()`` was called.
    private let raised = Atomic<Bool>(false)

    /// Creates the signal, not raised.
    ///
    /// The two ends are a socket pair rather than a pipe because `socketpair` takes
    /// `SOCK_CLOEXEC`, where Glibc's module has no `pipe2`: neither end may leak into a program
    /// the process starts.
    ///
    /// - Throws: ``HTTPServerError/Code/listenFailed`` when the pair cannot be made (no file
    ///   descriptors left).
    init() throws(HTTPServerError) {
        var descriptors: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &descriptors) == 0 else {
            let underlying = SystemCallError(call: "socketpair", errno: errno)
            throw HTTPServerError(.listenFailed, "could not create the server's stop signal", underlying: underlying)
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }

    deinit {
        _ = close(readDescriptor)
        _ = close(writeDescriptor)
    }

    /// Whether the server is stopping.
    var isRaised: Bool {
        raised.load(ordering: .acquiring)
    }

    /// Raises the signal; later calls do nothing. Safe from any thread.
    func raise() {
        guard raised.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            return
        }
        var byte: UInt8 = 1
        while send(writeDescriptor, &byte, 1, Int32(MSG_NOSIGNAL)) < 0, errno == EINTR {}
    }
}
