import Dispatch
import Glibc
import Synchronization
import PlainContacts

/// Stops an ``HTTPServer`` gracefully when the process receives one of a set of signals
/// (`SIGINT` and `SIGTERM` by default), instead of letting the signal end the process mid-request.
///
/// The signal handler only writes the signal's number to a socket (the self-pipe trick, the
/// one thing a handler can do safely); a thread of the watch reads it, calls `onSignal` and
/// stops the server. The previous handlers come back with ``cancel()``, or when the watch is
/// released. Use one watch at a time.
///
/// ```swift
/// try server.start()
/// let watch = try HTTPServerSignalWatch(server: server) { signal in print("stopping (signal \(signal))") }
/// server.waitUntilStopped()
/// watch.cancel()
/// ```
final class HTTPServerSignalWatch: Sendable {
    /// The signals watched.
    let signals: [Int32]
    /// The handlers the signals had before, restored by ``cancel()``; empty once it has run.
    private let previousHandlers: Mutex<[(Int32, __sighandler_t?)]>
    /// Raised by ``cancel()`` to end the watch's thread.
    private let cancellation: HTTPServerStopSignal
    /// Signalled when the watch's thread has ended.
    private let finished = DispatchSemaphore(value: 0)

    /// Starts watching for `signals`; on each, calls `onSignal` with its number (on the watch's
    /// thread) and stops the server. Later signals call `onSignal` again; stopping twice does
    /// nothing.
    ///
    /// - Throws: ``HTTPServerError/Code/signalWatchFailed`` when the sockets or the thread the
    ///   watch needs cannot be made.
    init(
        server: HTTPServer, signals: [Int32] = [SIGINT, SIGTERM],
        onSignal: @escaping @Sendable (Int32) -> Void = { _ in }
    ) throws(HTTPServerError) {
        guard let relay = signalRelay else {
            throw HTTPServerError(.signalWatchFailed, "could not create the socket that relays signals")
        }
        do {
            cancellation = try HTTPServerStopSignal()
        } catch {
            throw HTTPServerError(.signalWatchFailed, "could not create the watch's stop signal", underlying: error.underlying)
        }
        self.signals = signals
        previousHandlers = Mutex([])
        let cancellation = self.cancellation
        let finished = self.finished
        do throws(SystemCallError) {
            try HTTPServerThread.start {
                Self.relaySignals(from: relay, until: cancellation) { number in
                    onSignal(number)
                    server.stop()
                }
                finished.signal()
            }
        } catch {
            throw HTTPServerError(.signalWatchFailed, "could not start the signal watch's thread", underlying: error)
        }
        previousHandlers.withLock { handlers in
            handlers = signals.map { number in (number, signal(number, relaySignalNumber)) }
        }
    }

    deinit {
        cancel()
    }

    /// Stops watching and gives the signals back their previous handlers, waiting for the
    /// watch's thread to end (so not from within `onSignal`); later calls do nothing.
    func cancel() {
        let handlers = previousHandlers.withLock { handlers in
            defer { handlers = [] }
            return handlers
        }
        guard !handlers.isEmpty else { return }
        for (number, handler) in handlers {
            _ = signal(number, handler)
        }
        cancellation.raise()
        finished.wait()
    }

    /// Reads signal numbers from the relay and hands each to `body`, until `cancellation` is
    /// raised.
    private static func relaySignals(
        from relay: SignalRelay, until cancellation: HTTPServerStopSignal, _ body: (Int32) -> Void
    ) {
        var descriptors = [
            pollfd(fd: relay.readDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: cancellation.readDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        var number: UInt8 = 0
        while !cancellation.isRaised {
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            guard poll(&descriptors, 2, -1) > 0 else { continue }
            if descriptors[1].revents != 0 { return }
            while recv(relay.readDescriptor, &number, 1, Int32(MSG_DONTWAIT)) == 1 {
                body(Int32(number))
            }
        }
    }
}

/// A socket pair that signal handlers write signal numbers to, and watches read from.
private final class SignalRelay: Sendable {
    /// The end watches read, non-blocking.
    let readDescriptor: Int32
    /// The end the handler writes, non-blocking so that a full buffer drops a signal rather
    /// than blocking the handler.
    let writeDescriptor: Int32

    /// Creates the pair; `nil` when the system has no descriptors left.
    init?() {
        var descriptors: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        guard socketpair(AF_UNIX, type, 0, &descriptors) == 0 else { return nil }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }
}

/// The process's one relay, made before any handler is installed (the first watch touches it),
/// so that the handler only reads it.
private let signalRelay = SignalRelay()

/// The signal handler: writes the signal's number to the relay, keeping `errno` as it was;
/// `send` is async-signal-safe.
private func relaySignalNumber(_ number: Int32) {
    guard let relay = signalRelay else { return }
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = send(relay.writeDescriptor, &byte, 1, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
    errno = savedErrno
}
